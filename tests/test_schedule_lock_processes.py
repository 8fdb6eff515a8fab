"""The scheduler lease across processes (cases/C14): four workers start a scheduler on one SQLite file; one scheduled run per period."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time

from fakeclock import T0, FakeClock
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from claims.events import make_event
from claims.store.engine import make_engine
from claims.store.tables import Event, Observation, Subject, Watch
from claims.values.canonical import dumps
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler

ATTR = "price_input_usd_per_mtok"


def aggregator_prices(period: int) -> dict[str, str]:
    """What the (fake) aggregator returns; in period 2 orca's input price drops."""
    return {"acme/orca-9b": "0.57" if period == 1 else "0.45", "acme/lynx-2b": "0.20"}


class C14Jobs:
    """scrape_aggregator_prices writes observations + events through the real tables;
    rebuild_site counts runs and the most that ever ran at once."""

    def __init__(self, engine, clock: FakeClock) -> None:
        self.engine = engine
        self.clock = clock
        self.scrapes: list[list[str]] = []  # models written per run
        self.rebuilds = 0
        self._active = 0
        self.max_active = 0
        self._lock = threading.Lock()

    def scrape_aggregator_prices(self, watch_name: str) -> None:
        now = self.clock()
        period = int((now - T0).total_seconds() // 3600) + 1
        prices = aggregator_prices(period)  # the "fetch": no transaction is open here
        written: list[str] = []
        with Session(self.engine) as s:
            watch = s.exec(select(Watch).where(Watch.name == watch_name)).one()
            for slug, price in sorted(prices.items()):
                subject = s.exec(select(Subject).where(Subject.slug == slug)).one()
                value = {"kind": "quantity", "value": price, "unit": "USD/Mtok"}
                key = dumps(value)
                current = s.exec(
                    select(Observation).where(
                        Observation.subject_id == subject.id,
                        Observation.attribute == ATTR,
                        Observation.current == True,  # noqa: E712
                    )
                ).first()
                if current is not None and current.value_key == key:
                    current.last_seen = now
                    s.add(current)
                else:
                    if current is not None:
                        current.current = False
                        s.add(current)
                        old = json.loads(current.value_json)["value"]
                        event = make_event(
                            "price_changed",
                            f"{slug} input price {old} -> {price} USD/Mtok",
                            subject_id=subject.id,
                            watch_id=watch.id,
                            detail={"attribute": ATTR, "from": old, "to": price},
                        )
                        try:
                            with s.begin_nested():
                                s.add(event)
                        except IntegrityError:
                            pass  # the same change was already recorded: never alert twice
                    s.add(
                        Observation(
                            subject_id=subject.id,
                            attribute=ATTR,
                            value_json=key,
                            value_key=key,
                            watch_id=watch.id,
                            first_seen=now,
                            last_seen=now,
                        )
                    )
                written.append(slug)
            s.commit()  # one transaction per watch run
        with self._lock:
            self.scrapes.append(written)

    def rebuild_site(self) -> None:
        with self._lock:
            self._active += 1
            self.max_active = max(self.max_active, self._active)
        try:
            with Session(self.engine) as s:  # a reader, as a site build is
                s.exec(select(Observation)).all()
            time.sleep(0.01)  # widen the window in which an overlap would show
            self.rebuilds += 1
        finally:
            with self._lock:
                self._active -= 1


def test_c14_four_workers_one_scheduler_one_run_per_period(tmp_path, monkeypatch, caplog):
    db = tmp_path / "c14.db"
    setup = make_engine(db)
    with Session(setup) as s:
        s.add(Subject(slug="acme/orca-9b", name="Orca 9B"))
        s.add(Subject(slug="acme/lynx-2b", name="Lynx 2B"))
        s.add(
            Watch(
                name="scrape_aggregator_prices",
                adapter="openrouter_models",
                url="https://agg.test/",
            )
        )
        s.commit()
    clock = FakeClock()
    clock.patch_apscheduler(monkeypatch)
    jobs = C14Jobs(setup, clock)
    settings = ScheduleSettings(jitter_seconds=0, settle_seconds=0, max_workers=4)
    barrier = threading.Barrier(4)
    schedulers: list[Scheduler] = []
    started: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        sched = Scheduler(
            make_engine(db),  # each worker has its own engine, as a process would
            jobs.scrape_aggregator_prices,
            jobs.rebuild_site,
            settings=settings,
            clock=clock,
            scheduler_class=SteppedScheduler,
        )
        barrier.wait()
        ok = sched.try_start()
        with lock:
            schedulers.append(sched)
            started.append(ok)

    with caplog.at_level(logging.WARNING, logger="tracker.schedule.daemon"):
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert sorted(started) == [False, False, False, True]
    refusals = [r.getMessage() for r in caplog.records if r.name == "tracker.schedule.daemon"]
    assert len(refusals) == 3
    for message in refusals:
        assert message.startswith(f"a scheduler is already running against {db} (pid ")
        assert message.endswith("since 2026-03-02T12:00:00Z); not starting another")

    for _period in range(3):
        for sched in schedulers:
            if sched.aps is not None:
                sched.run_pending()
        clock.advance(hours=1)
    for sched in schedulers:
        sched.shutdown()

    assert jobs.scrapes == [["acme/lynx-2b", "acme/orca-9b"]] * 3  # 3 runs, not 12
    assert (jobs.rebuilds, jobs.max_active) == (3, 1)
    with Session(setup) as s:
        rows = s.exec(select(Observation).order_by(Observation.id)).all()
        seen = [
            (json.loads(o.value_json)["value"], o.first_seen, o.last_seen, o.current) for o in rows
        ]
        events = s.exec(select(Event)).all()
    hour = T0.replace(hour=13) - T0
    assert seen == [
        ("0.20", T0, T0 + 2 * hour, True),  # lynx: one row, seen in all 3 runs
        ("0.57", T0, T0, False),
        ("0.45", T0 + hour, T0 + 2 * hour, True),
    ]
    assert [(e.kind, json.loads(e.detail_json)) for e in events] == [
        ("price_changed", {"attribute": ATTR, "from": "0.57", "to": "0.45"})
    ]


CONTENDER = """
import pathlib, sys, time
from claims.store.engine import make_engine
from tracker.schedule.locks import Lease, SchedulerBusy
db, go, ready = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
end = pathlib.Path(sys.argv[4])
engine = make_engine(db)
ready.touch()
while not go.exists():
    time.sleep(0.005)
try:
    Lease(engine).acquire()
except SchedulerBusy as exc:
    print(exc)
    sys.exit(3)
print("won", flush=True)
# stay alive until the losers are done: a holder that has exited on this host would
# be taken over at once, and this test is about the race, not about crashes
while not end.exists():
    time.sleep(0.005)
"""


def test_c14_four_processes_race_for_the_lease_and_exactly_one_wins(tmp_path):
    db = tmp_path / "race.db"
    make_engine(db)  # schema first, as `tracker load` would have made it
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{i}" for i in range(4)]
    end = tmp_path / "end"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, *(str(a) for a in (db, go, ready[i], end))],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("ready*"))) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)  # all four at the start line, then one start signal
    go.touch()
    while sum(p.poll() is not None for p in procs) < 3 and time.monotonic() < deadline + 60:
        time.sleep(0.01)  # the three losers exit; then the winner may go
    end.touch()
    results = [(p.wait(60), p.stdout.read().strip(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert sorted(code for code, _, _ in results) == [0, 3, 3, 3], results
    assert [out for code, out, _ in results if code == 0] == ["won"]
    for code, out, _ in results:
        if code == 3:
            assert out.startswith(f"a scheduler is already running against {db} (pid ")
            assert out.endswith("); not starting another")
