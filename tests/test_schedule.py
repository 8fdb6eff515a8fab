"""Scheduler with a fake clock: job options, coalesced catch-up, restart, lease, watch sync."""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading

import pytest
from apscheduler.events import EVENT_JOB_MODIFIED
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
from cycle_setup import add_page_watch
from fakeclock import T0, FakeClock
from sqlmodel import Session, select

from claims.store.tables import SchedulerLock, ScheduleState, Watch
from tracker.errors import ConfigError
from tracker.schedule.daemon import (
    AFTER_CYCLE,
    Scheduler,
    ScheduleSettings,
    SteppedScheduler,
)
from tracker.schedule.locks import Lease, LockLost, SchedulerBusy
from tracker.schedule.triggers import watch_trigger

FAST = ScheduleSettings(jitter_seconds=0, settle_seconds=0, executor="debug")


class Recorder:
    """Injected jobs that only count calls (and when, on the fake clock)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.watch_runs: list[tuple[str, dt.datetime]] = []
        self.rebuilds: list[dt.datetime] = []
        self.drains: list[dt.datetime] = []

    def run_watch(self, name: str) -> None:
        self.watch_runs.append((name, self.clock()))

    def rebuild_site(self) -> None:
        self.rebuilds.append(self.clock())

    def drain_outbox(self) -> None:
        self.drains.append(self.clock())


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    c = FakeClock()
    c.patch_apscheduler(monkeypatch)
    return c


def make(engine, rec: Recorder, settings: ScheduleSettings = FAST) -> Scheduler:
    return Scheduler(
        engine,
        rec.run_watch,
        rec.rebuild_site,
        rec.drain_outbox,
        settings=settings,
        clock=rec.clock,
        scheduler_class=SteppedScheduler,
    )


def state(engine, job_id: str) -> ScheduleState:
    with Session(engine) as s:
        row = s.get(ScheduleState, job_id)
        assert row is not None
        return row


def test_jobs_use_utc_jitter_coalesce_one_instance_and_a_long_misfire_grace(engine, clock):
    add_page_watch(engine, "hub", interval=60)
    add_page_watch(engine, "prices", params={"cron": "30 */6 * * *"})
    sched = make(engine, Recorder(clock), ScheduleSettings(jitter_seconds=30))
    sched.start()
    try:
        assert str(sched.aps.timezone) == "UTC"
        jobs = {j.id: j for j in sched.aps.get_jobs()}
        assert sorted(jobs) == [AFTER_CYCLE, "watch:hub", "watch:prices"]
        hub, prices = jobs["watch:hub"], jobs["watch:prices"]
        for job in jobs.values():
            assert (job.coalesce, job.max_instances) == (True, 1)
        assert isinstance(hub.trigger, IntervalTrigger)
        assert hub.trigger.interval_length == 3600
        assert hub.trigger.jitter == 30
        assert hub.misfire_grace_time == 3600 + 30 + 1
        assert hub.next_run_time == T0  # a new watch runs at once
        assert isinstance(prices.trigger, CronTrigger)
        due = dt.datetime(2026, 3, 2, 12, 30, tzinfo=dt.UTC)  # the next cron time, + jitter
        assert due <= prices.next_run_time <= due + dt.timedelta(seconds=30)
        assert prices.misfire_grace_time == 6 * 3600 + 30 + 1
        assert jobs[AFTER_CYCLE].next_run_time == T0 + dt.timedelta(days=1)
    finally:
        sched.shutdown()


def test_a_watch_checked_before_the_scheduler_started_waits_for_its_interval(engine, clock):
    """No saved schedule, but `tracker check` ran it 20 minutes ago: the first run is one
    interval after that check (what `tracker watches` shows as due), not at once."""
    add_page_watch(engine, "hub", interval=60)
    add_page_watch(engine, "prices", interval=60)
    with Session(engine) as s:
        hub = s.exec(select(Watch).where(Watch.name == "hub")).one()
        hub.last_run = T0 - dt.timedelta(minutes=20)
        s.add(hub)
        s.commit()
    sched = make(engine, Recorder(clock))
    sched.start()
    try:
        jobs = {j.id: j for j in sched.aps.get_jobs()}
        assert jobs["watch:hub"].next_run_time == T0 + dt.timedelta(minutes=40)
        assert jobs["watch:prices"].next_run_time == T0  # never checked: at once
        assert state(engine, "watch:hub").next_run_at == T0 + dt.timedelta(minutes=40)
    finally:
        sched.shutdown()


def test_bad_cron_expression_names_the_watch(engine):
    add_page_watch(engine, "bad", params={"cron": "every day"})
    with Session(engine) as s:
        w = s.exec(select(Watch)).one()
    with pytest.raises(ConfigError, match="watch 'bad': bad cron expression 'every day'"):
        watch_trigger(w, jitter_seconds=0, start=T0)


def test_each_watch_run_is_followed_by_one_drain_then_rebuild(engine, clock):
    add_page_watch(engine, "a")
    rec = Recorder(clock)
    sched = make(engine, rec)
    sched.start()
    sched.run_pending()
    assert rec.watch_runs == [("a", T0)]
    assert (rec.drains, rec.rebuilds) == ([T0], [T0])
    clock.advance(minutes=30)
    sched.run_pending()
    assert len(rec.watch_runs) == 1
    clock.advance(minutes=30)
    sched.run_pending()
    assert rec.watch_runs == [("a", T0), ("a", T0 + dt.timedelta(hours=1))]
    assert len(rec.rebuilds) == 2
    sched.shutdown()
    assert state(engine, "watch:a").last_outcome == "ok"


def test_missed_runs_coalesce_into_one_catch_up_run(engine, clock):
    add_page_watch(engine, "a", interval=60)
    rec = Recorder(clock)
    sched = make(engine, rec)
    sched.start()
    sched.run_pending()
    clock.advance(hours=5, minutes=10)  # five runs missed (e.g. the machine slept)
    sched.run_pending()
    sched.shutdown()
    # one catch-up run for the latest missed time (T0+5h), not five, none skipped
    assert [t for _, t in rec.watch_runs] == [T0, T0 + dt.timedelta(hours=5, minutes=10)]
    row = state(engine, "watch:a")
    assert row.next_run_at == T0 + dt.timedelta(hours=6)
    assert row.last_outcome == "ok"


def test_restart_resumes_the_persisted_schedule_and_catches_up_once(engine, clock):
    add_page_watch(engine, "a", interval=60)
    rec = Recorder(clock)
    first = make(engine, rec)
    first.start()
    first.run_pending()
    clock.advance(minutes=10)
    first.shutdown()
    assert state(engine, "watch:a").next_run_at == T0 + dt.timedelta(hours=1)

    clock.advance(minutes=10)  # restart 20 min after the first run: not due yet
    second = make(engine, rec)
    second.start()
    second.run_pending()
    assert len(rec.watch_runs) == 1
    clock.advance(minutes=40)
    second.run_pending()
    assert [t for _, t in rec.watch_runs] == [T0, T0 + dt.timedelta(hours=1)]
    second.shutdown()

    clock.advance(hours=7, minutes=30)  # down for 7.5 h
    third = make(engine, rec)
    third.start()
    third.run_pending()
    third.run_pending()
    third.shutdown()
    assert len(rec.watch_runs) == 3
    assert rec.watch_runs[-1][1] == T0 + dt.timedelta(hours=8, minutes=30)
    assert state(engine, "watch:a").next_run_at == T0 + dt.timedelta(hours=9)


def test_second_scheduler_on_the_same_database_refuses_to_start(engine, clock, tmp_path, caplog):
    add_page_watch(engine, "a")
    rec = Recorder(clock)
    first = make(engine, rec)
    first.start()
    second = make(engine, rec)
    expected = (
        f"a scheduler is already running against {tmp_path / 'test.db'} "
        f"(pid {os.getpid()} on host {socket.gethostname()} since 2026-03-02T12:00:00Z); "
        "not starting another"
    )
    with pytest.raises(SchedulerBusy) as info:
        second.start()
    assert str(info.value) == expected
    assert second.aps is None
    with caplog.at_level(logging.WARNING, logger="tracker.schedule.daemon"):
        assert second.try_start() is False
    assert [r.getMessage() for r in caplog.records if r.name == "tracker.schedule.daemon"] == [
        expected
    ]
    first.shutdown()
    with Session(engine) as s:
        assert s.exec(select(SchedulerLock)).all() == []
    assert second.try_start() is True
    second.shutdown()


def test_stale_lease_is_taken_over_after_expiry_and_the_old_holder_stops(engine, clock):
    crashed = Lease(engine, ttl_seconds=120, clock=clock, pid=111, host="old")
    crashed.acquire()  # never renewed nor released: the process died
    newcomer = Lease(engine, ttl_seconds=120, clock=clock, pid=222, host="new")
    clock.advance(seconds=119)
    with pytest.raises(SchedulerBusy, match=r"\(pid 111 on host old since"):
        newcomer.acquire()
    clock.advance(seconds=2)
    newcomer.acquire()
    holder = newcomer.holder()
    assert (holder.pid, holder.host, holder.acquired_at) == (222, "new", clock())
    with pytest.raises(LockLost):
        crashed.renew()
    assert crashed.release() is False  # never deletes another owner's row
    newcomer.renew()
    assert newcomer.holder().expires_at == clock() + dt.timedelta(seconds=120)
    assert newcomer.release() is True
    assert newcomer.holder() is None


def test_watches_added_changed_and_removed_are_picked_up(engine, clock):
    add_page_watch(engine, "a", interval=60)
    rec = Recorder(clock)
    sched = make(engine, rec)
    sched.start()
    sched.run_pending()
    add_page_watch(engine, "b", interval=30)
    with Session(engine) as s:
        a = s.exec(select(Watch).where(Watch.name == "a")).one()
        a.interval_minutes = 15
        s.add(a)
        s.commit()
    sched.sync_watches()
    jobs = {j.id: j for j in sched.aps.get_jobs()}
    assert jobs["watch:a"].trigger.interval_length == 900
    assert jobs["watch:a"].next_run_time == T0 + dt.timedelta(minutes=15)  # capped to 1 period
    assert jobs["watch:b"].next_run_time == T0
    with Session(engine) as s:
        s.delete(s.exec(select(Watch).where(Watch.name == "b")).one())
        s.commit()
    sched.sync_watches()
    assert sorted(j.id for j in sched.aps.get_jobs()) == [AFTER_CYCLE, "watch:a"]
    with Session(engine) as s:  # `tracker load --prune` retires a watch its file dropped
        a = s.exec(select(Watch).where(Watch.name == "a")).one()
        a.state = "retired"
        s.add(a)
        s.commit()
    sched.sync_watches()
    assert sorted(j.id for j in sched.aps.get_jobs()) == [AFTER_CYCLE]
    sched.shutdown()


def test_a_failing_watch_job_is_recorded_and_does_not_stop_the_others(engine, clock):
    add_page_watch(engine, "bad")
    add_page_watch(engine, "good")
    rec = Recorder(clock)

    def run_watch(name: str) -> None:
        if name == "bad":
            raise RuntimeError("boom")
        rec.run_watch(name)

    sched = Scheduler(
        engine,
        run_watch,
        rec.rebuild_site,
        settings=FAST,
        clock=clock,
        scheduler_class=SteppedScheduler,
    )
    sched.start()
    sched.run_pending()
    sched.shutdown()
    assert rec.watch_runs == [("good", T0)]
    assert len(rec.rebuilds) == 1
    bad = state(engine, "watch:bad")
    assert (bad.last_outcome, bad.last_error) == ("error", "boom")
    assert bad.next_run_at == T0 + dt.timedelta(hours=1)


def test_a_bad_cron_added_while_running_is_logged_and_the_rest_keep_running(engine, clock, caplog):
    add_page_watch(engine, "a")
    rec = Recorder(clock)
    sched = make(engine, rec)
    sched.start()
    add_page_watch(engine, "bad", params={"cron": "61 * * * *"})
    with caplog.at_level(logging.ERROR, logger="tracker.schedule.daemon"):
        sched.sync_watches(strict=False)
    assert [r.getMessage() for r in caplog.records if r.name == "tracker.schedule.daemon"] == [
        "watch 'bad': bad cron expression '61 * * * *': "
        "Error validating expression '61': the last value (61) is higher than the maximum "
        "value (59); keeping its previous schedule"
    ]
    assert sorted(j.id for j in sched.aps.get_jobs()) == [AFTER_CYCLE, "watch:a"]
    sched.run_pending()
    assert rec.watch_runs == [("a", T0)]
    sched.shutdown()
    with pytest.raises(ConfigError, match="watch 'bad'"):
        make(engine, rec).start()  # at start a bad schedule is refused outright
    with Session(engine) as s:
        assert s.exec(select(SchedulerLock)).all() == []  # and the lease is not left behind


def test_run_until_stops_when_another_process_took_the_lease_over(engine, clock):
    add_page_watch(engine, "a")
    rec = Recorder(clock)
    settings = ScheduleSettings(
        jitter_seconds=0, settle_seconds=0, executor="debug", heartbeat_seconds=0.01
    )
    sched = make(engine, rec, settings)
    sched.start()
    clock.advance(seconds=settings.lock_ttl_seconds + 1)  # we "hung" past our lease
    thief = Lease(engine, clock=clock, pid=999, host="other")
    thief.acquire()
    with pytest.raises(LockLost):
        sched.run_until(threading.Event())
    assert sched.aps is None
    assert thief.holder().owner == thief.owner  # the new holder's row is left alone


def test_a_watch_finishing_during_a_rebuild_gets_a_rebuild_after_it(engine, clock):
    """max_instances=1 skips the request made while the rebuild runs; the rebuild loops
    (and re-requests itself), so the last watch run still reaches the site."""
    add_page_watch(engine, "a")
    add_page_watch(engine, "b")
    rebuild_started, release, a_done, b_done = (threading.Event() for _ in range(4))
    seen_by_rebuild: list[list[str]] = []
    finished: list[str] = []
    active = [0, 0]  # now, most ever

    def run_watch(name: str) -> None:
        if name == "b":
            assert rebuild_started.wait(10)  # b finishes while the first rebuild runs
        finished.append(name)
        (a_done if name == "a" else b_done).set()

    def rebuild_site() -> None:
        active[0] += 1
        active[1] = max(active)
        seen_by_rebuild.append(sorted(finished))
        rebuild_started.set()
        assert release.wait(10)
        active[0] -= 1

    sched = Scheduler(
        engine,
        run_watch,
        rebuild_site,
        settings=ScheduleSettings(jitter_seconds=0, settle_seconds=0),  # thread pool
        clock=clock,
        scheduler_class=SteppedScheduler,
    )
    sched.start()
    # A watch job's last act is to request the rebuild (move the after-cycle job to now):
    # APScheduler's job-modified event says when, no polling.
    requested = threading.Event()

    def on_modified(event) -> None:
        if event.job_id == AFTER_CYCLE:
            requested.set()

    sched.aps.add_listener(on_modified, EVENT_JOB_MODIFIED)

    def after_cycle_requested() -> bool:
        ok = requested.wait(10) and sched.aps.get_job(AFTER_CYCLE).next_run_time <= clock()
        requested.clear()
        return ok

    sched.aps.step()  # submits a and b
    assert a_done.wait(10) and after_cycle_requested()
    sched.aps.step()  # a's request: the first rebuild starts and blocks
    assert b_done.wait(10) and after_cycle_requested()
    sched.aps.step()  # b's request: skipped, the rebuild is still running
    release.set()
    assert sched.wait_idle(10)
    assert seen_by_rebuild == [["a"], ["a", "b"]]  # looped once more for b
    clock.advance(seconds=1)
    sched.run_pending()  # the re-request made when b's was skipped
    sched.shutdown()
    assert seen_by_rebuild == [["a"], ["a", "b"], ["a", "b"]]
    assert active[1] == 1


def test_a_database_made_before_the_scheduler_tables_upgrades_in_place(tmp_path):
    from olddb import sqlite_release_0_1_0
    from sqlalchemy import inspect

    from claims.store.engine import make_engine

    sqlite_release_0_1_0(tmp_path / "old.db", scheduler=False)  # as version 1 left it
    engine = make_engine(tmp_path / "old.db")
    assert {"schedulerlock", "schedulestate"} <= set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        versions = conn.exec_driver_sql("SELECT version_num FROM alembic_version")
        assert [v for (v,) in versions] == ["0007"]
