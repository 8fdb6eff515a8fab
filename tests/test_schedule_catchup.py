"""Scheduler catch-up and retries on a fake clock: a downtime's missed runs are one
recorded catch-up; edited and removed watches replace their saved schedule (cases/C30);
a failing watch is retried after minutes, doubling, through the real cycle."""

from __future__ import annotations

import datetime as dt
import json
import threading

import httpx
import pytest
from cycle_setup import add_page_watch
from fakeclock import FakeClock
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import Event, ScheduleState, Watch
from tracker.cli.main import app
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler
from tracker.schedule.triggers import retry_delay
from tracker.schedule.watchlist import list_watches, next_run_text
from tracker.snapshots.store import SnapshotStore

UTC = dt.UTC
FAST = ScheduleSettings(jitter_seconds=0, settle_seconds=0, executor="debug")
START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    c = FakeClock(START)
    c.patch_apscheduler(monkeypatch)
    return c


def scheduler(engine, clock: FakeClock, run_watch) -> Scheduler:
    return Scheduler(
        engine, run_watch, settings=FAST, clock=clock, scheduler_class=SteppedScheduler
    )


def advance_to(clock: FakeClock, moment: dt.datetime) -> None:
    clock.advance(seconds=(moment - clock()).total_seconds())


def test_a_three_day_downtime_is_one_catch_up_that_says_three_runs_were_missed(
    tmp_path, clock, monkeypatch
):
    db = tmp_path / "down.db"
    engine = make_engine(db)
    add_page_watch(engine, "daily", params={"cron": "0 0 * * *"})
    runs: list[dt.datetime] = []
    first = scheduler(engine, clock, lambda name: runs.append(clock()))
    first.start()
    advance_to(clock, dt.datetime(2026, 3, 3, tzinfo=UTC))
    first.run_pending()
    first.shutdown()  # down from 03-03 00:00 (saved next run: 03-04 00:00)
    advance_to(clock, dt.datetime(2026, 3, 6, 12, tzinfo=UTC))  # three midnights later
    second = scheduler(make_engine(db), clock, lambda name: runs.append(clock()))
    second.start()
    second.run_pending()
    assert second.aps.get_job("watch:daily").next_run_time == dt.datetime(2026, 3, 7, tzinfo=UTC)
    second.shutdown()

    assert runs == [dt.datetime(2026, 3, 3, tzinfo=UTC), dt.datetime(2026, 3, 6, 12, tzinfo=UTC)]
    with Session(engine) as s:
        events = s.exec(select(Event)).all()
    assert [(e.kind, e.audience, e.title, json.loads(e.detail_json)) for e in events] == [
        (
            "runs_missed",
            "operator",
            "daily: 3 runs missed, caught up once at 2026-03-06T12:00:00Z",
            {
                "watch": "daily",
                "missed": 3,
                "since": "2026-03-03T00:00:00Z",
                "caught_up_at": "2026-03-06T12:00:00Z",
            },
        )
    ]
    result = CliRunner().invoke(app, ["watches", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "daily: 3 runs missed, caught up once at 2026-03-06 12:00 UTC" in result.output
    listing = json.loads(CliRunner().invoke(app, ["watches", "--db", str(db), "--json"]).stdout)
    assert listing["watches"][0]["missed"] == {
        "missed": 3,
        "since": "2026-03-03T00:00:00Z",
        "caught_up_at": "2026-03-06T12:00:00Z",
        "text": "3 runs missed, caught up once at 2026-03-06T12:00:00Z",
    }


def test_an_ordinary_run_and_a_short_delay_record_no_missed_runs(engine, clock):
    add_page_watch(engine, "hourly", interval=60)
    sched = scheduler(engine, clock, lambda name: None)
    sched.start()
    for minutes in (0, 60, 100):  # on time, on time, then 40 min late (one run, late)
        advance_to(clock, START + dt.timedelta(minutes=minutes))
        sched.run_pending()
    sched.shutdown()
    with Session(engine) as s:
        assert s.exec(select(Event)).all() == []


def test_an_edited_schedule_replaces_the_saved_next_run_and_keeps_one_job(engine, clock):
    """cases/C30: config hour=10 saved 10:00 tomorrow; edited to hour=12 it must run at
    12:00, never at the stale 10:00, and there is one job for the watch."""
    add_page_watch(engine, "prices", params={"cron": "0 10 * * *"})
    sched = scheduler(engine, clock, lambda name: None)
    sched.start()
    sched.shutdown()
    with Session(engine) as s:
        assert s.get(ScheduleState, "watch:prices").next_run_at.hour == 10
        watch = s.exec(select(Watch)).one()
        watch.params_json = json.dumps({"cron": "0 12 * * *"})
        s.add(watch)
        s.commit()
    clock.advance(minutes=1)  # 12:01: today's 12:00 has passed
    sched = scheduler(engine, clock, lambda name: None)
    sched.start()
    try:
        jobs = [j for j in sched.aps.get_jobs() if j.id.startswith("watch:")]
        assert [(j.id, j.next_run_time) for j in jobs] == [
            ("watch:prices", dt.datetime(2026, 3, 3, 12, tzinfo=UTC))
        ]
    finally:
        sched.shutdown()


def test_a_watch_removed_while_stopped_loses_its_saved_schedule_at_start(engine, clock):
    add_page_watch(engine, "kept")
    add_page_watch(engine, "removed")
    sched = scheduler(engine, clock, lambda name: None)
    sched.start()
    sched.shutdown()
    with Session(engine) as s:
        s.delete(s.exec(select(Watch).where(Watch.name == "removed")).one())
        s.commit()
    sched = scheduler(engine, clock, lambda name: None)
    sched.start()
    try:
        assert sorted(j.id for j in sched.aps.get_jobs()) == ["after_cycle", "watch:kept"]
    finally:
        sched.shutdown()
    with Session(engine) as s:
        assert sorted(st.job_id for st in s.exec(select(ScheduleState))) == [
            "after_cycle",
            "watch:kept",
        ]


def test_retry_delay_doubles_from_five_minutes_up_to_the_period():
    minutes = [retry_delay(n, 3600).total_seconds() / 60 for n in range(0, 7)]
    assert minutes == [0, 5, 10, 20, 40, 60, 60]
    assert retry_delay(200, 12 * 3600) == dt.timedelta(hours=12)  # no overflow


def test_a_failing_live_watch_is_retried_minutes_later_doubling(engine, clock, tmp_path):
    """The real cycle path (run_check through a transport that answers 503): each failed
    run puts the next try 5, 10, 20, 40 min later, capped at the 60 min interval; the
    listing calls it a retry; a success returns to the interval (the last gap: 60)."""
    params = {"selector": "p", "subject": "Orca 9B", "attribute": "context_window"}
    add_page_watch(engine, "flaky", interval=60, params=params)
    answer = {"status": 503}

    def handler(request: httpx.Request) -> httpx.Response:
        if answer["status"] == 200:
            return httpx.Response(200, html="<p>128000</p>")
        return httpx.Response(answer["status"], text="busy")

    client = make_client(transport=httpx.MockTransport(handler))
    store = SnapshotStore(tmp_path / "snapshots")

    def run_watch(name: str) -> None:
        run_check(
            engine,
            client,
            snapshot_store=store,
            watch_names=[name],
            now=clock(),
            sleep=lambda seconds: None,
        )

    sched = scheduler(engine, clock, run_watch)
    sched.start()
    gaps = []
    try:
        for _ in range(6):
            sched.run_pending()
            nxt = sched.aps.get_job("watch:flaky").next_run_time
            gaps.append((nxt - clock()).total_seconds() / 60)
            if len(gaps) == 2:
                listing = list_watches(engine, now=clock())
                (row,) = listing["watches"]
                # two failures, below failing_after: retrying (claims/watchstate.py)
                assert (row["next_run_kind"], row["state"]) == ("retry", "retrying")
                assert next_run_text(row, clock()) == f"retry {row['next_run']}"
            advance_to(clock, nxt)
        answer["status"] = 200
        sched.run_pending()
        nxt = sched.aps.get_job("watch:flaky").next_run_time
        gaps.append((nxt - clock()).total_seconds() / 60)
        (row,) = list_watches(engine, now=clock())["watches"]
        assert row["next_run_kind"] == "scheduled"
    finally:
        sched.shutdown()
    assert gaps == [5, 10, 20, 40, 60, 60, 60]
    with Session(engine) as s:
        watch = s.exec(select(Watch)).one()
    assert (watch.consecutive_failures, watch.state) == (0, "ok")


def test_the_watches_page_shows_the_retry_time_and_the_missed_runs(engine, tmp_path):
    from claims.store.outbox import make_event
    from tracker.website import build_site

    last = dt.datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    with Session(engine) as s:
        s.add(
            Watch(
                name="daily",
                adapter="html_page",
                url="https://example.test/daily",
                params_json=json.dumps({"cron": "0 0 * * *", "timezone": "America/Los_Angeles"}),
                state="failing",
                consecutive_failures=3,
                last_run=last,
            )
        )
        s.flush()
        # what the scheduler saved after the third failure: its 20-minute retry
        s.add(ScheduleState(job_id="watch:daily", next_run_at=last + dt.timedelta(minutes=20)))
        s.add(
            make_event(
                "runs_missed",
                "daily: 3 runs missed, caught up once at 2026-03-06T12:00:00Z",
                detail={"watch": "daily", "missed": 3, "caught_up_at": "2026-03-06T12:00:00Z"},
                at=last,
            )
        )
        s.commit()
    build_site(engine, tmp_path / "site")
    html = (tmp_path / "site" / "watches.html").read_text()
    row = html[html.index('<tr id="watch-daily">') :].split("</tr>")[0]
    # the Next check column: the saved retry (third failure: 20 min), then why and the
    # schedule it returns to
    assert (
        '<td data-label="Next check" class="next"><time class="lines" '
        'datetime="2026-03-06T12:20:00Z"><span class="nowrap">2026-03-06</span> '
        '<span class="nowrap">12:20 UTC</span></time><br><small class="schedule">retry after '
        "a failure; cron 0 0 * * * America/Los_Angeles</small></td>"
    ) in row
    assert "No scheduler has saved a next run" not in html
    assert (
        '<small class="missed">3 runs missed, caught up once at '
        '<time datetime="2026-03-06T12:00:00Z">'
    ) in row


def test_a_run_that_outlasts_its_period_is_caught_up_when_it_ends(engine, clock):
    """Thread pool: the 12:00 run lasts until 15:05; the 13:00-15:00 fire times are
    skipped by max_instances=1 while it runs, then caught up by one run at once, which
    records the three runs it replaced."""
    add_page_watch(engine, "slow", interval=60)
    started, release = threading.Event(), threading.Event()
    runs: list[dt.datetime] = []

    def run_watch(name: str) -> None:
        runs.append(clock())
        if len(runs) == 1:
            started.set()
            assert release.wait(10)

    sched = Scheduler(
        engine,
        run_watch,
        settings=ScheduleSettings(jitter_seconds=0, settle_seconds=0),  # thread pool
        clock=clock,
        scheduler_class=SteppedScheduler,
    )
    sched.start()
    try:
        sched.aps.step()  # the 12:00 run starts and blocks
        assert started.wait(10)
        advance_to(clock, START + dt.timedelta(hours=3, minutes=5))
        sched.aps.step()  # due again: skipped, the first run is still going
        release.set()
        assert sched.wait_idle(10)
        assert sched.aps.get_job("watch:slow").next_run_time == clock()  # caught up at once
        sched.run_pending()
    finally:
        sched.shutdown()
    assert runs == [START, START + dt.timedelta(hours=3, minutes=5)]
    with Session(engine) as s:
        (event,) = s.exec(select(Event)).all()
    assert event.title == "slow: 3 runs missed, caught up once at 2026-03-02T15:05:00Z"


def test_a_downtime_is_one_log_line_however_many_watches_catch_up(tmp_path, clock, caplog):
    """After the demo, `tracker schedule` logged "NAME: 94 runs missed, caught up once"
    for every watch (fresh-user trial): one line says it; the events keep the counts."""
    import logging

    engine = make_engine(tmp_path / "down.db")
    for name in ("a", "b", "c"):
        add_page_watch(engine, name, params={"cron": "0 0 * * *"})
    first = scheduler(engine, clock, lambda name: None)
    first.start()
    advance_to(clock, dt.datetime(2026, 3, 3, tzinfo=UTC))
    first.run_pending()
    first.shutdown()
    advance_to(clock, dt.datetime(2026, 3, 6, 12, tzinfo=UTC))
    second = scheduler(engine, clock, lambda name: None)
    with caplog.at_level(logging.DEBUG, logger="tracker.schedule.daemon"):
        second.start()
        second.run_pending()
        second.shutdown()
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == [
        "watches missed runs while no scheduler was running; each catches up once now "
        "(`tracker watches` says how many runs each missed)"
    ]
    with Session(engine) as s:
        titles = sorted(e.title for e in s.exec(select(Event)))
    assert titles == [f"{n}: 3 runs missed, caught up once at 2026-03-06T12:00:00Z" for n in "abc"]


def test_after_cycle_skipped_lines_are_counted_not_logged():
    import logging

    from tracker.schedule.daemon import MergedRequests

    merged = MergedRequests()
    skipped = 'Execution of job "after_cycle (trigger: interval[1 day, 0:00:00], next run at: x)" skipped: maximum number of running instances reached (1)'
    other = 'Execution of job "watch:a (trigger: cron)" skipped: maximum number of running instances reached (1)'

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("apscheduler.scheduler", logging.WARNING, "", 0, msg, None, None)

    assert [merged.filter(record(m)) for m in (skipped, skipped, other)] == [False, False, True]
    assert merged.count == 2
