"""The scheduler lease across processes (cases/C14): four workers start a scheduler on one
SQLite file; one scheduled run per period, each through the real watch cycle (run_check
against a mocked aggregator)."""

from __future__ import annotations

import json
import logging
import os
import select as io_select
import subprocess
import sys
import threading

import httpx
from fakeclock import T0, FakeClock
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Event, Observation, Subject, SubjectAlias, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler
from tracker.snapshots.store import SnapshotStore

ATTR = "price_input_usd_per_mtok"


def aggregator_prices(period: int) -> dict[str, str]:
    """What the (fake) aggregator returns; in period 2 orca's input price drops."""
    return {"acme/orca-9b": "0.57" if period == 1 else "0.45", "acme/lynx-2b": "0.20"}


def aggregator_body(period: int) -> bytes:
    """The aggregator's OpenRouter-style /models answer in that period (USD per token)."""
    per_token = {
        slug: f"{float(price) / 1e6:.8f}" for slug, price in aggregator_prices(period).items()
    }
    models = [{"id": slug, "pricing": {"prompt": p}} for slug, p in sorted(per_token.items())]
    return json.dumps({"data": models}).encode()


class C14Jobs:
    """scrape_aggregator_prices runs the real watch cycle (tracker.cycle.run.run_check)
    against the aggregator served by an httpx MockTransport; rebuild_site counts runs and
    the most that ever ran at once."""

    def __init__(self, engine, clock: FakeClock, snapshots) -> None:
        self.engine = engine
        self.clock = clock
        self.scrapes: list[int] = []  # observations the cycle recorded per run
        self.rebuilds = 0
        self._active = 0
        self.max_active = 0
        self._lock = threading.Lock()
        self.store = SnapshotStore(snapshots)

    def scrape_aggregator_prices(self, watch_name: str) -> None:
        now = self.clock()
        period = int((now - T0).total_seconds() // 3600) + 1
        body = aggregator_body(period)
        client = make_client(
            transport=httpx.MockTransport(lambda request: httpx.Response(200, content=body))
        )
        summary = run_check(
            self.engine,
            client,
            snapshot_store=self.store,
            watch_names=[watch_name],
            now=now,
            sleep=lambda seconds: None,
        )
        assert summary.failing == 0
        with self._lock:
            self.scrapes.append(summary.results[0].observations)

    def rebuild_site(self) -> None:
        with self._lock:
            self._active += 1
            self.max_active = max(self.max_active, self._active)
        try:
            with Session(self.engine) as s:  # a reader, as a site build is
                s.exec(select(Observation)).all()
            self.rebuilds += 1
        finally:
            with self._lock:
                self._active -= 1


def test_c14_four_workers_one_scheduler_one_run_per_period(tmp_path, monkeypatch, caplog):
    db = tmp_path / "c14.db"
    setup = make_engine(db)
    with Session(setup) as s:
        for slug, name in (("acme/orca-9b", "Orca 9B"), ("acme/lynx-2b", "Lynx 2B")):
            subject = Subject(slug=slug.replace("/", "-"), name=name)
            s.add(subject)
            s.flush()
            s.add(SubjectAlias(subject_id=subject.id, namespace="openrouter", alias=slug))
        s.add(
            Watch(
                name="scrape_aggregator_prices",
                adapter="openrouter_models",
                url="https://agg.test/api/v1/models",
                params_json='{"robots": false}',
            )
        )
        s.commit()
    clock = FakeClock()
    clock.patch_apscheduler(monkeypatch)
    jobs = C14Jobs(setup, clock, tmp_path / "snapshots")
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

    # 3 runs, not 12: new observation rows per run (both prices, orca's new price, none)
    assert jobs.scrapes == [2, 1, 0]
    assert (jobs.rebuilds, jobs.max_active) == (3, 1)
    with Session(setup) as s:
        rows = s.exec(select(Observation).order_by(Observation.id)).all()
        seen = [(str(o.value.value), o.first_seen, o.last_seen, o.current) for o in rows]
        events = s.exec(select(Event)).all()
    hour = T0.replace(hour=13) - T0
    assert seen == [
        ("0.2", T0, T0 + 2 * hour, True),  # lynx: one row, seen in all 3 runs
        ("0.57", T0, T0, False),
        ("0.45", T0 + hour, T0 + 2 * hour, True),
    ]
    assert [(e.kind, e.title) for e in events] == [
        (
            "price_changed",
            "Orca 9B: Input price changed from $0.57 per 1M tokens to $0.45 per 1M tokens",
        )
    ]
    detail = json.loads(events[0].detail_json)
    assert (detail["attribute"], detail["from"]["value"], detail["to"]["value"]) == (
        ATTR,
        0.57,
        0.45,
    )


CONTENDER = """
import os, select, sys
from claims.store.engine import make_engine
from tracker.schedule.locks import Lease, SchedulerBusy
db, go = sys.argv[1], int(sys.argv[2])
engine = make_engine(db)
print("ready", flush=True)
select.select([go], [], [], 60)  # the test closes the pipe: all four start at once
try:
    Lease(engine).acquire()
except SchedulerBusy as exc:
    print(exc)
    sys.exit(3)
print("won", flush=True)
# stay alive until the losers are done (the test then closes stdin): a holder that has
# exited on this host would be taken over at once, and this test is about the race,
# not about crashes
sys.stdin.read()
"""


def _line(proc: subprocess.Popen[str], seconds: float = 60) -> str:
    """The child's next line on stdout, waiting at most ``seconds`` (select on the pipe)."""
    ready, _, _ = io_select.select([proc.stdout], [], [], seconds)
    assert ready, "the child said nothing"
    return proc.stdout.readline().strip()


def test_c14_four_processes_race_for_the_lease_and_exactly_one_wins(tmp_path):
    db = tmp_path / "race.db"
    make_engine(db)  # schema first, as `tracker load` would have made it
    go_r, go_w = os.pipe()  # one start signal for all: closing the write end
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, str(db), str(go_r)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            pass_fds=(go_r,),
        )
        for _ in range(4)
    ]
    os.close(go_r)
    assert [_line(p) for p in procs] == ["ready"] * 4  # all four at the start line
    os.close(go_w)  # one start signal
    first = [_line(p) for p in procs]  # "won", or a loser's message (it then exits)
    losers = [p for p, line in zip(procs, first, strict=True) if line != "won"]
    for p in losers:
        p.wait(60)  # the three losers exit; then the winner may go
    for p in procs:
        p.stdin.close()
    results = [
        (p.wait(60), line + p.stdout.read().strip(), p.stderr.read())
        for p, line in zip(procs, first, strict=True)
    ]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert sorted(code for code, _, _ in results) == [0, 3, 3, 3], results
    assert [out for code, out, _ in results if code == 0] == ["won"]
    for code, out, _ in results:
        if code == 3:
            assert out.startswith(f"a scheduler is already running against {db} (pid ")
            assert out.endswith("); not starting another")
