"""A crontab schedule in a local time zone (IANA name) that stays right across DST.

APScheduler 3.x's ``CronTrigger`` works on aware datetimes; this trigger instead walks
the crontab over *wall-clock* times and maps each one to one real instant:

- a wall time that exists once: that instant;
- a wall time skipped by a spring-forward gap (02:30 in Los Angeles on the change day):
  the first instant after the gap (03:00 PDT), once; several skipped times collapse
  into that one run;
- a wall time repeated by a fall-back (01:30 twice): its first occurrence only, so a
  daily job runs once per local day. (Vixie cron runs wildcard-hour jobs in the
  repeated hour again; here every wall time fires at most once.)

Fire times are aware UTC datetimes, as APScheduler expects from any trigger.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger

from tracker.schedule.crontab import crontab_trigger

UTC = dt.UTC
_TICK = dt.timedelta(microseconds=1)
_MAX_CANDIDATES = 1000  # wall times tried before giving up (an impossible date: Feb 30)


def wall_time(moment: dt.datetime, zone: ZoneInfo) -> dt.datetime:
    """The naive local wall-clock time of an aware ``moment`` in ``zone``."""
    return moment.astimezone(zone).replace(tzinfo=None)


def first_instant(wall: dt.datetime, zone: ZoneInfo) -> dt.datetime:
    """The aware UTC instant a naive local ``wall`` time first reads on the clock; for a
    time inside a spring-forward gap, the first instant after the gap."""
    early = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if wall_time(early, zone) == wall:
        late = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
        return min(early, late)  # repeated: the first occurrence
    # In a gap, fold=1 reads with the offset after the change and lies before the change,
    # fold=0 with the offset before it and lies after: the change is between them.
    lo = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    hi = early
    if lo > hi:
        lo, hi = hi, lo
    while hi - lo > dt.timedelta(seconds=1):  # transitions fall on whole seconds
        mid = lo + (hi - lo) / 2
        if wall_time(mid, zone) > wall:
            hi = mid
        else:
            lo = mid
    return hi.replace(microsecond=0) if wall_time(hi.replace(microsecond=0), zone) > wall else hi


class LocalCronTrigger(BaseTrigger):
    """A crontab of 5 or 6 fields (:func:`crontab_trigger`) read in ``zone``'s local time.

    ``jitter`` (seconds) as APScheduler's triggers. Raises ValueError for a bad
    expression (from APScheduler).
    """

    def __init__(self, expr: str, zone: ZoneInfo, jitter: int | None = None) -> None:
        self.expr = expr
        self.zone = zone
        self.jitter = jitter
        # The crontab is evaluated on wall-clock times written as if they were UTC.
        self._wall = crontab_trigger(expr, UTC)

    def get_next_fire_time(
        self, previous_fire_time: dt.datetime | None, now: dt.datetime
    ) -> dt.datetime | None:
        """The first fire time at or after ``now`` (or, with ``previous_fire_time``, the
        first after it, which may be before ``now``: APScheduler counts missed runs so)."""
        start = min(now, previous_fire_time + _TICK) if previous_fire_time else now
        floor = previous_fire_time
        candidate = self._wall.get_next_fire_time(
            None, wall_time(start, self.zone).replace(tzinfo=UTC)
        )
        for _ in range(_MAX_CANDIDATES):
            if candidate is None:
                return None
            real = first_instant(candidate.replace(tzinfo=None), self.zone)
            if real >= start and (floor is None or real > floor):
                return self._apply_jitter(real, self.jitter, now)
            candidate = self._wall.get_next_fire_time(None, candidate + _TICK)
        return None

    def __str__(self) -> str:
        return f"cron[{self.expr} {self.zone.key}]"

    def __repr__(self) -> str:
        return f"<LocalCronTrigger ({self.expr!r}, timezone={self.zone.key!r})>"
