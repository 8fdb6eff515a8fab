"""A crontab expression as APScheduler 3.x must be given it.

crontab(5) numbers the days of the week 0-7 with 0 and 7 Sunday and 1 Monday; APScheduler
3.x's ``CronTrigger`` (and its ``from_crontab``, which passes the field through) numbers
them 0-6 with 0 **Monday**, so ``0 9 * * 1`` would fire on Tuesdays (a known issue kept for
compatibility: agronholm/apscheduler#286, #455). The day-of-week field is therefore
expanded here in crontab's own numbering (steps included: crontab ``*/2`` is Sunday,
Tuesday, Thursday, Saturday) and handed to APScheduler as day names, which both read
alike. The other fields mean the same in both.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from apscheduler.triggers.cron import CronTrigger

UTC = dt.UTC

# Names of a crontab's fields, by count: 5 (minute first) or 6 (a seconds field first,
# as Quartz and Spring write them).
CRON_FIELDS = {
    5: ("minute", "hour", "day", "month", "day_of_week"),
    6: ("second", "minute", "hour", "day", "month", "day_of_week"),
}
# crontab(5)'s day numbers: index = number (7 is Sunday again).
CRONTAB_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_APS_ORDER = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # APScheduler's 0-6
_ITEM = re.compile(
    r"(?P<start>\*|[0-9]+|[a-z]{3})(?:-(?P<end>[0-9]+|[a-z]{3}))?(?:/(?P<step>[0-9]+))?"
)


def _day_number(text: str, field: str) -> int:
    if text.isdigit() and 0 <= int(text) <= 7:
        return int(text)
    if text in CRONTAB_DAYS:
        return CRONTAB_DAYS.index(text)
    raise ValueError(f"day of week field {field!r}: {text!r} is not a day 0-7 or sun-sat")


def crontab_days(field: str) -> list[str]:
    """The days a crontab(5) day-of-week field selects, as day names in APScheduler's
    order (``mon`` first): ``1`` -> ``["mon"]``, ``0`` and ``7`` -> ``["sun"]``, ``1-5``
    -> Monday to Friday, ``*/2`` -> ``["tue", "thu", "sat", "sun"]`` (the step counts
    from Sunday, as crontab does), ``sat,sun``, ``fri-7``. Raises ValueError naming the
    field for anything else (a number over 7, a backwards range, a step of 0)."""
    chosen: set[int] = set()
    for item in field.lower().split(","):
        m = _ITEM.fullmatch(item)
        if not m:
            raise ValueError(
                f"day of week field {field!r}: {item!r} is not a day, range, step or '*'"
            )
        start, end, step = m.group("start", "end", "step")
        if start == "*":
            if end is not None:
                raise ValueError(f"day of week field {field!r}: '*' cannot start a range")
            low, high = 0, 7 if step else 6
        else:
            low = _day_number(start, field)
            high = _day_number(end, field) if end is not None else (7 if step else low)
        if high < low:
            raise ValueError(f"day of week field {field!r}: the range runs backwards")
        if step is not None and int(step) < 1:
            raise ValueError(f"day of week field {field!r}: step {step} must be at least 1")
        chosen.update(n % 7 for n in range(low, high + 1, int(step or 1)))
    return [d for d in _APS_ORDER if CRONTAB_DAYS.index(d) in chosen]


def apscheduler_day_of_week(field: str) -> str:
    """A crontab(5) day-of-week field as APScheduler 3.x's ``day_of_week`` with the same
    meaning: ``*`` stays ``*``, anything else becomes day names (``1-5`` ->
    ``mon,tue,wed,thu,fri``). ValueError as :func:`crontab_days`."""
    if field == "*":
        return field
    return ",".join(crontab_days(field))


def crontab_trigger(expr: str, timezone: Any = UTC) -> CronTrigger:
    """APScheduler 3.x ``CronTrigger`` of a crontab of 5 fields (minute hour day month
    weekday) or 6 (a seconds field first), the weekday read as crontab(5) reads it
    (:func:`apscheduler_day_of_week`: 0 and 7 are Sunday). Raises ValueError for any
    other count or a bad field (ours or APScheduler's message)."""
    parts = expr.split()
    names = CRON_FIELDS.get(len(parts))
    if names is None:
        raise ValueError(f"expected 5 or 6 crontab fields, got {len(parts)}")
    fields = dict(zip(names, parts, strict=True))
    fields["day_of_week"] = apscheduler_day_of_week(fields["day_of_week"])
    return CronTrigger(**fields, timezone=timezone)
