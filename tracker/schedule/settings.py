"""Settings of the scheduler daemon (``tracker schedule``), as one frozen value object."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScheduleSettings:
    """Knobs of ``tracker schedule``; defaults suit a few dozen watches on one machine.

    ``jitter_seconds``: random delay added to each watch run (APScheduler 3.x ``jitter``:
    uniform 0..N s) so watches of one host do not fire in the same second.
    ``settle_seconds``: after a watch run, wait this long before draining the outbox and
    rebuilding the site, so watches finishing together share one rebuild.
    ``site_interval_minutes``: the after-cycle job also runs when no watch ran for this
    long (a safety net: time-based statuses such as "overdue" change without any run).
    ``executor``: ``threadpool`` (``max_workers`` threads) or ``debug`` (runs jobs in the
    scheduler's own thread; deterministic tests).
    """

    jitter_seconds: int = 30
    max_workers: int = 4
    site_interval_minutes: int = 24 * 60
    settle_seconds: float = 5.0
    lock_ttl_seconds: float = 120.0
    heartbeat_seconds: float = 30.0
    shutdown_timeout_seconds: float = 300.0
    executor: str = "threadpool"
