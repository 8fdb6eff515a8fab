"""Crontab day-of-week numbers mean what crontab(5) says (0 and 7 Sunday, 1 Monday),
not APScheduler 3.x's 0 = Monday: checked on the real triggers' next fire times."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest

from claims.store.tables import Watch
from tracker.errors import ConfigError
from tracker.schedule.crontab import apscheduler_day_of_week, crontab_days, crontab_trigger
from tracker.schedule.triggers import watch_trigger

# Tuesday 1 December 2026, 10:00 UTC
NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)


def _fires(expr: str, n: int = 3, zone: str | None = None) -> list[str]:
    """The next ``n`` fire times of the watch trigger of ``expr``, as ``Mon 12-07 09:00``."""
    params = {"cron": expr} | ({"timezone": zone} if zone else {})
    watch = Watch(name="w", adapter="html_page", url="https://a.example/",
                  params_json=json.dumps(params))  # fmt: skip
    trigger = watch_trigger(watch, jitter_seconds=0, start=NOW)
    out, previous, now = [], None, NOW
    for _ in range(n):
        fire = trigger.get_next_fire_time(previous, now)
        local = fire.astimezone(ZoneInfo(zone)) if zone else fire
        out.append(local.strftime("%a %m-%d %H:%M"))
        previous = now = fire
    return out


@pytest.mark.parametrize(
    ("expr", "fires"),
    [
        ("0 9 * * 1", ["Mon 12-07 09:00", "Mon 12-14 09:00", "Mon 12-21 09:00"]),
        ("0 9 * * mon", ["Mon 12-07 09:00", "Mon 12-14 09:00", "Mon 12-21 09:00"]),
        ("0 9 * * 0", ["Sun 12-06 09:00", "Sun 12-13 09:00", "Sun 12-20 09:00"]),
        ("0 9 * * 7", ["Sun 12-06 09:00", "Sun 12-13 09:00", "Sun 12-20 09:00"]),
        ("0 9 * * 1-5", ["Wed 12-02 09:00", "Thu 12-03 09:00", "Fri 12-04 09:00"]),
        ("0 9 * * 5-7", ["Fri 12-04 09:00", "Sat 12-05 09:00", "Sun 12-06 09:00"]),
        ("0 9 * * 1,3", ["Wed 12-02 09:00", "Mon 12-07 09:00", "Wed 12-09 09:00"]),
        # crontab counts the step from Sunday: Sun, Tue, Thu, Sat
        ("0 9 * * */2", ["Thu 12-03 09:00", "Sat 12-05 09:00", "Sun 12-06 09:00"]),
        ("0 9 * * 1-5/2", ["Wed 12-02 09:00", "Fri 12-04 09:00", "Mon 12-07 09:00"]),
        ("0 9 * * sat,sun", ["Sat 12-05 09:00", "Sun 12-06 09:00", "Sat 12-12 09:00"]),
        ("0 12 * * *", ["Tue 12-01 12:00", "Wed 12-02 12:00", "Thu 12-03 12:00"]),
        ("30 0 9 * * 2", ["Tue 12-08 09:00", "Tue 12-15 09:00", "Tue 12-22 09:00"]),
    ],
)
def test_day_of_week_reads_as_crontab_in_utc(expr, fires):
    assert _fires(expr) == fires


def test_day_of_week_reads_as_crontab_in_a_local_time_zone():
    # 09:00 in Los Angeles is 17:00 UTC: Monday there, whatever UTC's day
    assert _fires("0 9 * * 1", 2, "America/Los_Angeles") == ["Mon 12-07 09:00", "Mon 12-14 09:00"]
    assert _fires("0 23 * * 0", 1, "America/Los_Angeles") == ["Sun 12-06 23:00"]


def test_the_translation_itself():
    assert apscheduler_day_of_week("*") == "*"
    assert apscheduler_day_of_week("1") == "mon"
    assert apscheduler_day_of_week("0,7") == "sun"
    assert apscheduler_day_of_week("1-5") == "mon,tue,wed,thu,fri"
    assert crontab_days("*/3") == ["wed", "sat", "sun"]  # 0, 3, 6
    assert crontab_days("SUN-tue") == ["mon", "tue", "sun"]


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("8", "day of week field '8': '8' is not a day 0-7 or sun-sat"),
        ("5-1", "day of week field '5-1': the range runs backwards"),
        ("*/0", "day of week field '*/0': step 0 must be at least 1"),
        ("monday", "day of week field 'monday': 'monday' is not a day, range, step or '*'"),
    ],
)
def test_a_bad_day_of_week_is_refused_naming_the_field(field, message):
    with pytest.raises(ValueError) as info:
        crontab_trigger(f"0 9 * * {field}")
    assert str(info.value) == message


def test_a_bad_day_of_week_names_the_watch_when_the_scheduler_meets_it():
    watch = Watch(name="w", adapter="html_page", url="https://a.example/",
                  params_json='{"cron": "0 9 * * 9"}')  # fmt: skip
    with pytest.raises(ConfigError, match=r"watch 'w': bad cron expression '0 9 \* \* 9'"):
        watch_trigger(watch, jitter_seconds=0, start=NOW)


def test_load_refuses_a_bad_day_of_week_naming_file_line_and_field(tmp_path):
    from claims.curated.loader import DataFileErrors
    from tracker.curated.load import validate_curated

    data = tmp_path / "data"
    data.mkdir()
    (data / "watches.toml").write_text(
        '[[watch]]\nname = "w"\nadapter = "html_page"\nurl = "https://a.example/"\n'
        '[watch.params]\nselector = "td"\ncron = "0 9 * * 8"\n'
    )
    with pytest.raises((DataFileErrors, ValueError)) as info:
        validate_curated(data)
    assert str(info.value) == (
        f"{data / 'watches.toml'}:7: watch[0].params.cron: day of week field '8': outside 0-7"
    )
