"""Triggers of watch jobs (APScheduler 3.x; cron in UTC or a watch's IANA time zone), their
misfire grace, the retry backoff of a failed watch, and a scheduler without a thread of
its own for stepping by hand."""

from __future__ import annotations

import copy
import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.interval import IntervalTrigger

from claims.store.tables import ScheduleState, Watch
from claims.values.canonical import as_utc
from tracker.errors import ConfigError
from tracker.schedule.crontab import crontab_trigger
from tracker.schedule.localcron import LocalCronTrigger
from tracker.website.eventtext import schedule_text

UTC = dt.UTC
RETRY_FIRST = dt.timedelta(minutes=5)  # a failed watch is tried again 5, 10, 20... min later


def watch_zone(watch: Watch) -> ZoneInfo | None:
    """The IANA zone of ``params["timezone"]`` (None: UTC). ConfigError naming the watch
    for an unknown zone."""
    name = watch.params.get("timezone")
    if not name or name == "UTC":
        return None
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"watch {watch.name!r}: unknown time zone {name!r} (an IANA name such as "
            "'America/Los_Angeles' or 'Europe/Berlin')"
        ) from None


def watch_trigger(watch: Watch, *, jitter_seconds: int, start: dt.datetime) -> BaseTrigger:
    """The APScheduler 3.x trigger of one watch.

    ``params["cron"]`` (5 crontab fields, or 6 with seconds first; day-of-week as
    crontab(5) numbers it, 0 and 7 Sunday: :mod:`tracker.schedule.crontab`) wins over
    ``interval_minutes``. It is read in UTC, or in ``params["timezone"]`` (an IANA name)
    by :class:`tracker.schedule.localcron.LocalCronTrigger`, right across DST. Raises
    ConfigError naming the watch for a bad expression or zone.
    """
    jitter = jitter_seconds or None
    cron = watch.params.get("cron")
    if cron:
        zone = watch_zone(watch)
        try:
            if zone is not None:
                return LocalCronTrigger(str(cron), zone, jitter=jitter)
            trigger = crontab_trigger(str(cron), UTC)
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
    """``cron <expr> UTC`` (or its time zone), ``every N h`` or ``every N min`` for
    listings (:func:`tracker.website.eventtext.schedule_text`)."""
    return schedule_text(watch.interval_minutes, watch.params)


def period_seconds(trigger: BaseTrigger, now: dt.datetime) -> float:
    """One period of ``trigger``: its interval, or the gap between the next two cron fires."""
    if isinstance(trigger, IntervalTrigger):
        return trigger.interval_length
    trigger = copy.copy(trigger)
    trigger.jitter = None  # type: ignore[attr-defined]
    first = trigger.get_next_fire_time(None, now)
    second = trigger.get_next_fire_time(first, first) if first else None
    return (second - first).total_seconds() if first and second else 3600.0


def retry_delay(failures: int, period: float) -> dt.timedelta:
    """Backoff of a watch that failed ``failures`` times in a row: 5 min, doubling
    (5, 10, 20, 40... min), never more than its ``period`` (seconds). 0 failures: none."""
    if failures <= 0:
        return dt.timedelta(0)
    delay = RETRY_FIRST * (2 ** min(failures - 1, 30))
    return min(delay, dt.timedelta(seconds=period))


def retry_at(
    watch: Watch, trigger: BaseTrigger, last_check: dt.datetime | None
) -> dt.datetime | None:
    """When a failing watch (``consecutive_failures`` > 0, last checked at ``last_check``)
    is tried again: ``last_check`` + :func:`retry_delay`; None when it is not failing."""
    if watch.consecutive_failures <= 0 or last_check is None:
        return None
    last = as_utc(last_check)
    return last + retry_delay(watch.consecutive_failures, period_seconds(trigger, last))


def is_fire_time(trigger: BaseTrigger, moment: dt.datetime, tolerance: dt.timedelta) -> bool:
    """Whether ``moment`` is one of ``trigger``'s fire times (or up to ``tolerance`` after
    one: jitter). Always True for an interval trigger, whose phase starts anew."""
    if isinstance(trigger, IntervalTrigger):
        return True
    bare = copy.copy(trigger)
    bare.jitter = None  # type: ignore[attr-defined]
    moment = as_utc(moment)
    fire = bare.get_next_fire_time(None, moment - tolerance)
    return fire is not None and fire <= moment


def next_due(
    watch: Watch,
    *,
    now: dt.datetime,
    last_check: dt.datetime | None = None,
    persisted: dt.datetime | None = None,
    trigger: BaseTrigger | None = None,
    tolerance: dt.timedelta = dt.timedelta(seconds=60),
) -> dt.datetime:
    """When ``watch`` is next due: the first run a scheduler starting at ``now`` gives it.

    - ``persisted`` (the next run a scheduler saved in ``schedulestate``): that time, but
      at most one period after ``now``, and only while it is a fire time of the watch's
      current schedule (within ``tolerance``, the jitter): an edited schedule replaces the
      stored one (cases/C30);
    - else, after a check at ``last_check`` (by a scheduler or ``tracker check``): one
      interval later, or the first cron time after it;
    - never checked: ``now`` for an interval (it runs at once), else the next cron time;
    - a failing watch is due at :func:`retry_at` when that is earlier.

    The result may lie before ``now``: the watch is overdue, and a scheduler runs it at
    once. ``trigger`` defaults to :func:`watch_trigger` without jitter (the scheduler
    passes its own). Raises ConfigError for a bad schedule.
    """
    trigger = trigger or watch_trigger(watch, jitter_seconds=0, start=now)
    due = regular_due(
        watch,
        now=now,
        last_check=last_check,
        persisted=persisted,
        trigger=trigger,
        tolerance=tolerance,
    )
    retry = retry_at(watch, trigger, last_check)
    return min(due, retry) if retry is not None else due


def regular_due(
    watch: Watch,
    *,
    now: dt.datetime,
    last_check: dt.datetime | None,
    trigger: BaseTrigger,
    persisted: dt.datetime | None = None,
    tolerance: dt.timedelta = dt.timedelta(seconds=60),
) -> dt.datetime:
    """:func:`next_due` without the retry rule: when the schedule alone runs ``watch``."""
    if persisted is not None and is_fire_time(trigger, persisted, tolerance):
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


MISSED_COUNT_CAP = 100_000


def missed_runs(trigger: BaseTrigger, previous: dt.datetime, now: dt.datetime) -> int:
    """How many scheduled times of ``trigger`` (without jitter) fell in (``previous``,
    ``now``]: what one run at ``now`` stands for after a run at ``previous``. 1 is an
    ordinary run; 3 after a daily watch's three-day downtime. Counted up to
    :data:`MISSED_COUNT_CAP`."""
    if isinstance(trigger, IntervalTrigger):
        return int((now - previous).total_seconds() // trigger.interval_length)
    bare = copy.copy(trigger)
    bare.jitter = None  # type: ignore[attr-defined]
    count = 0
    fire = bare.get_next_fire_time(previous, previous)  # the first one after ``previous``
    while fire is not None and fire <= now and count < MISSED_COUNT_CAP:
        count += 1
        fire = bare.get_next_fire_time(fire, fire)
    return count


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
