"""Cron in a watch's IANA time zone across daylight-saving changes (fake clock)."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest
from fakeclock import FakeClock
from sqlmodel import Session

from claims.store.tables import Watch
from tracker.errors import ConfigError
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler
from tracker.schedule.localcron import LocalCronTrigger, first_instant
from tracker.schedule.triggers import describe_schedule, watch_trigger

UTC = dt.UTC
LA = ZoneInfo("America/Los_Angeles")
FAST = ScheduleSettings(jitter_seconds=0, settle_seconds=0, executor="debug")


def z(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def fires(expr: str, start: str, until: str) -> list[str]:
    trigger = LocalCronTrigger(expr, LA)
    out, prev, end = [], None, z(until)
    while True:
        nxt = trigger.get_next_fire_time(prev, prev or z(start))
        if nxt is None or nxt > end:
            return out
        out.append(nxt.strftime("%m-%d %H:%MZ"))
        prev = nxt


def la_watch(engine, name: str = "daily", cron: str = "0 0 * * *") -> None:
    params = {"cron": cron, "timezone": "America/Los_Angeles"}
    with Session(engine) as s:
        s.add(
            Watch(
                name=name,
                adapter="html_page",
                url="https://example.test/",
                params_json=json.dumps(params),
            )
        )
        s.commit()


def run_schedule(engine, monkeypatch, start: dt.datetime, days: int) -> list[dt.datetime]:
    """Drive a scheduler on a fake clock from ``start`` for ``days``, jumping to each next
    run; returns the times the watch ran."""
    clock = FakeClock(start)
    clock.patch_apscheduler(monkeypatch)
    runs: list[dt.datetime] = []
    sched = Scheduler(
        engine,
        lambda name: runs.append(clock()),
        settings=FAST,
        clock=clock,
        scheduler_class=SteppedScheduler,
    )
    sched.start()
    try:
        end = start + dt.timedelta(days=days)
        while True:
            nxt = sched.aps.get_job("watch:daily").next_run_time
            if nxt > end:
                return runs
            clock.advance(seconds=(nxt - clock()).total_seconds())
            sched.run_pending()
    finally:
        sched.shutdown()


def test_local_midnight_fires_at_08z_before_and_07z_after_the_spring_change(engine, monkeypatch):
    la_watch(engine)
    runs = run_schedule(engine, monkeypatch, z("2026-03-05T12:00:00Z"), days=6)
    assert [r.strftime("%m-%d %H:%MZ") for r in runs] == [
        "03-06 08:00Z",
        "03-07 08:00Z",
        "03-08 08:00Z",  # midnight PST; the clocks go forward at 02:00 that night
        "03-09 07:00Z",  # midnight PDT
        "03-10 07:00Z",
        "03-11 07:00Z",
    ]
    local_days = [r.astimezone(LA).date() for r in runs]
    assert local_days == sorted(set(local_days))  # once per local day
    assert {r.astimezone(LA).time() for r in runs} == {dt.time(0, 0)}


def test_local_midnight_runs_once_per_local_day_across_the_autumn_change(engine, monkeypatch):
    la_watch(engine)
    runs = run_schedule(engine, monkeypatch, z("2026-10-29T12:00:00Z"), days=6)
    assert [r.strftime("%m-%d %H:%MZ") for r in runs] == [
        "10-30 07:00Z",
        "10-31 07:00Z",
        "11-01 07:00Z",  # midnight PDT; the clocks go back at 02:00 that night
        "11-02 08:00Z",  # midnight PST
        "11-03 08:00Z",
        "11-04 08:00Z",
    ]
    local_days = [r.astimezone(LA).date() for r in runs]
    assert local_days == sorted(set(local_days)) and len(local_days) == 6


def test_a_time_the_spring_change_skips_runs_once_at_the_first_instant_after_the_gap():
    # 02:30 does not exist in Los Angeles on 2026-03-08: 02:00 PST became 03:00 PDT (10:00Z)
    assert fires("30 2 * * *", "2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z") == [
        "03-07 10:30Z",
        "03-08 10:00Z",
        "03-09 09:30Z",
    ]
    # every half hour: 02:00 and 02:30 (skipped) and 03:00 are one run at 10:00Z
    assert fires("*/30 * * * *", "2026-03-08T09:00:00Z", "2026-03-08T11:00:00Z") == [
        "03-08 09:00Z",
        "03-08 09:30Z",
        "03-08 10:00Z",
        "03-08 10:30Z",
        "03-08 11:00Z",
    ]
    assert first_instant(dt.datetime(2026, 3, 8, 2, 30), LA) == z("2026-03-08T10:00:00Z")


def test_a_time_the_autumn_change_repeats_runs_once():
    # 01:30 happens twice on 2026-11-01: 01:30 PDT (08:30Z) and 01:30 PST (09:30Z)
    assert fires("30 1 * * *", "2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z") == [
        "10-31 08:30Z",
        "11-01 08:30Z",
        "11-02 09:30Z",
    ]
    # asked from inside the repeated hour (01:10 PST), the repeat is not run again
    assert fires("30 1 * * *", "2026-11-01T09:10:00Z", "2026-11-02T12:00:00Z") == ["11-02 09:30Z"]


def test_timezone_param_picks_the_trigger_and_shows_in_the_listing():
    watch = Watch(
        name="w",
        adapter="html_page",
        url="https://example.test/",
        params_json=json.dumps({"cron": "0 0 * * *", "timezone": "America/Los_Angeles"}),
    )
    trigger = watch_trigger(watch, jitter_seconds=0, start=z("2026-03-02T00:00:00Z"))
    assert isinstance(trigger, LocalCronTrigger)
    assert describe_schedule(watch) == "cron 0 0 * * * America/Los_Angeles"
    bad = Watch(
        name="w",
        adapter="html_page",
        url="https://example.test/",
        params_json=json.dumps({"cron": "0 0 * * *", "timezone": "Mars/Olympus"}),
    )
    with pytest.raises(ConfigError, match="watch 'w': unknown time zone 'Mars/Olympus'"):
        watch_trigger(bad, jitter_seconds=0, start=z("2026-03-02T00:00:00Z"))


def test_a_six_field_crontab_puts_seconds_first_in_utc_and_in_local_time():
    # 06:00:30 local, 14:00:30Z in winter (PST) and 13:00:30Z in summer (PDT)
    assert fires("30 0 6 * * *", "2026-03-07T00:00:00Z", "2026-03-09T23:00:00Z") == [
        "03-07 14:00Z",
        "03-08 13:00Z",
        "03-09 13:00Z",
    ]
    watch = Watch(
        name="w",
        adapter="html_page",
        url="https://example.test/",
        params_json=json.dumps({"cron": "15 0 6 * * *"}),
    )
    trigger = watch_trigger(watch, jitter_seconds=0, start=z("2026-03-02T00:00:00Z"))
    assert trigger.get_next_fire_time(None, z("2026-03-02T00:00:00Z")) == z("2026-03-02T06:00:15Z")
