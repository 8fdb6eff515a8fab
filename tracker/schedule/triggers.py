"""Triggers of watch jobs (APScheduler 3.x, UTC) and their misfire grace; and a scheduler
without a thread of its own for stepping by hand."""

from __future__ import annotations

import copy
import datetime as dt

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from claims.store.tables import ScheduleState, Watch
from claims.values.canonical import as_utc
from tracker.errors import ConfigError

UTC = dt.UTC


def watch_trigger(watch: Watch, *, jitter_seconds: int, start: dt.datetime) -> BaseTrigger:
    """The APScheduler 3.x trigger of one watch, in UTC.

    ``params["cron"]`` (5 crontab fields, APScheduler 3.x ``CronTrigger.from_crontab``:
    beware, day-of-week 0 is Monday there; prefer names such as ``mon-fri``) wins over
    ``interval_minutes``. Raises ConfigError naming the watch for a bad expression.
    """
    jitter = jitter_seconds or None
    cron = watch.params.get("cron")
    if cron:
        try:
            trigger = CronTrigger.from_crontab(str(cron), timezone=UTC)
        except ValueError as exc:
            raise ConfigError(
                f"watch {watch.name!r}: bad cron expression {cron!r}: {exc}"
            ) from None
        trigger.jitter = jitter
        return trigger
    if watch.interval_minutes < 1:
        raise ConfigError(f"watch {watch.name!r}: interval_minutes must be >= 1")
    return IntervalTrigger(
        minutes=watch.interval_minutes, start_date=start, timezone=UTC, jitter=jitter
    )


def describe_schedule(watch: Watch) -> str:
    """``cron <expr> UTC``, ``every N h`` (whole hours: 360 min -> ``every 6 h``) or
    ``every N min`` for listings."""
    cron = watch.params.get("cron")
    if cron:
        return f"cron {cron} UTC"
    minutes = watch.interval_minutes
    if minutes >= 60 and minutes % 60 == 0:
        return f"every {minutes // 60} h"
    return f"every {minutes} min"


def period_seconds(trigger: BaseTrigger, now: dt.datetime) -> float:
    """One period of ``trigger``: its interval, or the gap between the next two cron fires."""
    if isinstance(trigger, IntervalTrigger):
        return trigger.interval_length
    trigger = copy.copy(trigger)
    trigger.jitter = None  # type: ignore[attr-defined]
    first = trigger.get_next_fire_time(None, now)
    second = trigger.get_next_fire_time(first, first) if first else None
    return (second - first).total_seconds() if first and second else 3600.0


def next_due(
    watch: Watch,
    *,
    now: dt.datetime,
    last_check: dt.datetime | None = None,
    persisted: dt.datetime | None = None,
    trigger: BaseTrigger | None = None,
) -> dt.datetime:
    """When ``watch`` is next due: the first run a scheduler starting at ``now`` gives it.

    - ``persisted`` (the next run a scheduler saved in ``schedulestate``): that time, but
      at most one period after ``now``;
    - else, after a check at ``last_check`` (by a scheduler or ``tracker check``): one
      interval later, or the first cron time after it;
    - never checked: ``now`` for an interval (it runs at once), else the next cron time.

    The result may lie before ``now``: the watch is overdue, and a scheduler runs it at
    once. ``trigger`` defaults to :func:`watch_trigger` without jitter (the scheduler
    passes its own). Raises ConfigError for a bad schedule.
    """
    trigger = trigger or watch_trigger(watch, jitter_seconds=0, start=now)
    if persisted is not None:
        return min(as_utc(persisted), now + dt.timedelta(seconds=period_seconds(trigger, now)))
    if last_check is None:
        if isinstance(trigger, IntervalTrigger):
            return now
        first = trigger.get_next_fire_time(None, now)
        return first if first is not None else now
    last = as_utc(last_check)
    if isinstance(trigger, IntervalTrigger):
        return last + dt.timedelta(seconds=trigger.interval_length)
    after = trigger.get_next_fire_time(last, last)  # the first cron time after the check
    return after if after is not None else now


def misfire_grace_seconds(trigger: BaseTrigger, now: dt.datetime) -> int:
    """One period plus jitter. With ``coalesce=True`` APScheduler 3.x runs only the latest
    missed fire time, which is always less than one period (+ jitter) old, so a scheduler
    that was down for days makes exactly one catch-up run instead of skipping it (the
    1-second default would skip it)."""
    return int(period_seconds(trigger, now) + (getattr(trigger, "jitter", None) or 0)) + 1


class SteppedScheduler(BaseScheduler):
    """An APScheduler 3.x scheduler without a thread of its own: :meth:`step` runs what is due.

    Used with a fake clock in tests (APScheduler 3.x reads ``datetime.now`` itself, so the
    tests patch it) and for one-shot runs.
    """

    def wakeup(self) -> None:  # nothing sleeps
        pass

    def shutdown(self, wait: bool = True) -> None:
        """Stop; with ``wait``, let submitted jobs finish (APScheduler 3.x semantics)."""
        super().shutdown(wait)

    def step(self) -> float | None:
        """Submit every due job once; returns seconds until the next one (None: no jobs)."""
        return self._process_jobs()


def latest_check(watch: Watch, state: ScheduleState | None) -> dt.datetime | None:
    """The later of the watch's last check (``Watch.last_run``, set by every cycle) and
    its scheduler job's last start, in UTC; None when it never ran."""
    moments = [
        as_utc(m)
        for m in (watch.last_run, state.last_started_at if state is not None else None)
        if m is not None
    ]
    return max(moments) if moments else None
