"""The lease fencing check: a scheduler paused past its lease (fake clock) runs nothing
when it resumes, and two schedulers never run the same watch at once."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from fakeclock import T0, FakeClock
from lease_race import race_claim_and_takeover
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Observation, ScheduleState, Snapshot, Subject, SubjectAlias, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler
from tracker.schedule.locks import Lease, LockLost, current_fence
from tracker.snapshots.store import SnapshotStore

SETTINGS = ScheduleSettings(
    jitter_seconds=0, settle_seconds=0, executor="debug", lock_ttl_seconds=120
)


class Runs:
    """Which scheduler ran which watch, from when to when (fake clock)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.spans: list[tuple[str, str, dt.datetime, dt.datetime]] = []

    def job(self, who: str):
        def run_watch(name: str) -> None:
            start = self.clock()
            self.clock.advance(minutes=1)  # a run takes a minute of fake time
            self.spans.append((who, name, start, self.clock()))

        return run_watch


def make(db, clock: FakeClock, runs: Runs, who: str) -> Scheduler:
    return Scheduler(
        make_engine(db),
        runs.job(who),
        settings=SETTINGS,
        clock=clock,
        scheduler_class=SteppedScheduler,
    )


def test_a_scheduler_paused_past_its_lease_runs_nothing_when_it_resumes(tmp_path, monkeypatch):
    db = tmp_path / "fence.db"
    engine = make_engine(db)
    with Session(engine) as s:
        for name in ("hub", "prices"):
            s.add(Watch(name=name, adapter="html_page", url=f"https://example.test/{name}"))
        s.commit()
    clock = FakeClock()
    clock.patch_apscheduler(monkeypatch)
    runs = Runs(clock)
    a = make(db, clock, runs, "a")
    a.start()
    a.run_pending()  # both watches run at once (never checked)
    clock.advance(hours=1)  # A is paused (SIGSTOP, a suspended VM): no heartbeat
    b = make(db, clock, runs, "b")
    b.start()  # A's lease expired at T0+2 min (+2 min of runs): B takes it over
    b.run_pending()
    a.run_pending()  # A resumes: both watches are due for it too
    assert a.lease_lost and not a.lease.held
    with pytest.raises(LockLost):
        a.lease.renew()
    clock.advance(hours=1)
    a.run_pending()  # and it keeps running nothing
    b.run_pending()
    a.shutdown(release=False)
    b.shutdown()

    hour = dt.timedelta(hours=1)
    minute = dt.timedelta(minutes=1)
    assert [(who, name, start - T0) for who, name, start, _ in runs.spans] == [
        ("a", "hub", 0 * minute),
        ("a", "prices", 1 * minute),
        ("b", "hub", hour + 2 * minute),
        ("b", "prices", hour + 3 * minute),
        ("b", "hub", 2 * hour + 4 * minute),
        ("b", "prices", 2 * hour + 5 * minute),
    ]
    for watch in ("hub", "prices"):  # never two runs of one watch at once
        spans = sorted((s, e) for _, name, s, e in runs.spans if name == watch)
        assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:], strict=False))
    with Session(engine) as s:  # A's refused claims wrote nothing: B's starts stand
        started = {st.job_id: st.last_started_at for st in s.exec(select(ScheduleState))}
    assert started["watch:hub"].replace(tzinfo=dt.UTC) == T0 + 2 * hour + 4 * minute


def test_claim_run_checks_the_lease_and_records_the_start_in_one_step(engine):
    clock = FakeClock()
    mine = Lease(engine, ttl_seconds=60, clock=clock)
    mine.acquire()
    assert mine.claim_run("watch:hub")  # ours: claimed, start recorded, lease renewed
    clock.advance(minutes=5)  # expired, but nobody took it over: still ours
    assert mine.claim_run("watch:hub")
    assert mine.holder().expires_at == clock() + dt.timedelta(seconds=60)
    clock.advance(minutes=5)
    other = Lease(engine, ttl_seconds=60, clock=clock)
    other.acquire()  # takes over the expired lease
    clock.advance(seconds=1)
    assert not mine.claim_run("watch:hub")
    with Session(engine) as s:
        row = s.get(ScheduleState, "watch:hub")
    assert row.last_started_at.replace(tzinfo=dt.UTC) == T0 + dt.timedelta(minutes=5)


def test_a_claim_and_a_takeover_never_both_succeed_on_sqlite(tmp_path):
    db = tmp_path / "race.db"
    engines = []

    def make():
        engines.append(make_engine(db))
        return engines[-1]

    outcomes = race_claim_and_takeover(make)
    for engine in engines:
        engine.dispose()
    assert all(claimed != took for claimed, took in outcomes), outcomes


def test_a_scheduler_paused_mid_run_commits_nothing_of_that_run(tmp_path, monkeypatch):
    """The pause comes during the fetch of a real cycle run: meanwhile another scheduler
    takes the lease over; the resumed run's commit is fenced and rolled back whole."""
    db = tmp_path / "midrun.db"
    engine = make_engine(db)
    with Session(engine) as s:
        subject = Subject(slug="acme-orca-9b", name="Orca 9B")
        s.add(subject)
        s.flush()
        s.add(SubjectAlias(subject_id=subject.id, namespace="name", alias="Orca 9B"))
        params = {"selector": "p", "subject": "Orca 9B", "attribute": "context_window"}
        s.add(
            Watch(
                name="page",
                adapter="html_page",
                url="https://example.test/page",
                params_json=json.dumps(params),
            )
        )
        s.commit()
    clock = FakeClock()
    clock.patch_apscheduler(monkeypatch)
    newcomer = Lease(make_engine(db), ttl_seconds=120, clock=clock)

    def paused_server(request: httpx.Request) -> httpx.Response:
        clock.advance(minutes=10)  # SIGSTOP during the fetch: the lease expires...
        newcomer.acquire()  # ...and another scheduler takes it over
        return httpx.Response(200, html="<p>128000</p>")

    client = make_client(transport=httpx.MockTransport(paused_server))
    store = SnapshotStore(tmp_path / "snapshots")

    def run_watch(name: str) -> None:
        run_check(
            engine,
            client,
            snapshot_store=store,
            watch_names=[name],
            now=clock(),
            sleep=lambda seconds: None,
            fence=current_fence(),
        )

    sched = Scheduler(
        engine, run_watch, settings=SETTINGS, clock=clock, scheduler_class=SteppedScheduler
    )
    sched.start()
    sched.run_pending()
    assert sched.lease_lost
    sched.shutdown(release=False)
    assert newcomer.holder().owner == newcomer.owner  # the newcomer keeps its lease
    with Session(engine) as s:
        assert s.exec(select(Observation)).all() == []
        assert s.exec(select(Snapshot)).all() == []
        watch = s.exec(select(Watch)).one()
    assert (watch.last_run, watch.state) == (None, "new")
