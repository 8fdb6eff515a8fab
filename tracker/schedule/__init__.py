"""The scheduler daemon: watch rows to APScheduler jobs, triggers, the one-per-database lease,
and the watch listing."""
