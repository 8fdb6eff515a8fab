"""cases/C17 and issue 7: concurrent jobs, writers and readers on one SQLite file (WAL)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, func, select

from claims.store.engine import make_engine
from claims.store.outbox import add_event, make_event
from claims.store.rawdb import RawDB
from claims.store.tables import Event, Observation, ScheduleState, Subject, SubjectAlias, Watch
from claims.values.canonical import utcnow
from claims.values.value import quantity
from tracker.adapters.base import ObservedValue, ParseResult
from tracker.cycle.observe import record_success
from tracker.cycle.rows import load_subjects
from tracker.cycle.types import WatchSpec
from tracker.net.response import Fetched
from tracker.schedule.daemon import Scheduler, ScheduleSettings
from tracker.schedule.watchlist import list_watches


def seed_subject(engine) -> int:
    with Session(engine) as s:
        subject = Subject(slug="acme/orca-9b", name="Orca 9B")
        s.add(subject)
        s.commit()
        assert subject.id is not None
        s.add(SubjectAlias(subject_id=subject.id, namespace="openrouter", alias="acme/orca-9b"))
        s.commit()
        return subject.id


def seed_watches(engine, n: int) -> list[WatchSpec]:
    """``n`` watches ``w0``... (as `tracker load` stores them), as the cycle sees them."""
    with Session(engine) as s:
        rows = [Watch(name=f"w{i}", adapter="openrouter_models", url=f"https://example.test/{i}")
                for i in range(n)]  # fmt: skip
        s.add_all(rows)
        s.commit()
        return [WatchSpec(w.id, w.name, w.adapter, w.url, {}, None, None) for w in rows]  # type: ignore[arg-type]


def record_price(raw: RawDB, spec: WatchSpec, i: int) -> None:
    """One watch run through the cycle's real recording step
    (:func:`tracker.cycle.observe.record_success`, one transaction): the watch read input
    price ``i`` for Orca 9B, a new value each run (a new row; the old one stops being
    current, with a price_changed event)."""
    at = T0 + dt.timedelta(seconds=i)
    body = f"price {i}".encode()
    page = Fetched(spec.url, spec.url, 200, {}, body, at, hashlib.sha256(body).hexdigest())
    value = quantity(Decimal(i), "usd_per_mtok", exact=True)
    seen = ObservedValue(("openrouter", "acme/orca-9b"), "price_input_usd_per_mtok", value)
    index, names = load_subjects(raw)
    record_success(raw, spec, [(page, ParseResult([seen]))], None, index, names)


T0 = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def observation(subject_id: int, key: str) -> Observation:
    now = utcnow()
    return Observation(
        subject_id=subject_id,
        attribute="price_input_usd_per_mtok",
        value_json="{}",
        value_key=key,
        first_seen=now,
        last_seen=now,
    )


def count(engine, table) -> int:
    with Session(engine) as s:
        return s.exec(select(func.count()).select_from(table)).one()


def subjects_observed(engine) -> set[int]:
    with Session(engine) as s:
        return set(s.exec(select(Observation.subject_id)))


def is_lock_error(exc: BaseException) -> bool:
    return isinstance(exc, OperationalError) and "database is locked" in str(exc)


def job_b_alert_dispatcher(engine) -> None:
    """One alert row (through the outbox's one writer, as every event is stored) plus one
    log row (the job's own run record), in one transaction."""
    with Session(engine) as s:
        add_event(
            s, make_event("price_changed", "orca input price 0.57 -> 0.45", detail={"to": "0.45"})
        )
        s.add(
            ScheduleState(job_id="alert_dispatcher", last_finished_at=utcnow(), last_outcome="ok")
        )
        s.commit()


def test_c17_connection_reports_wal_and_busy_timeout(tmp_path):
    engine = make_engine(tmp_path / "p.db")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


def test_c17_job_a_fetches_without_a_write_transaction_so_b_commits_at_once(tmp_path):
    engine = make_engine(tmp_path / "ab.db")
    subject_id = seed_subject(engine)
    a_fetching = threading.Event()
    b_done = threading.Event()
    outcome: dict[str, object] = {}
    errors: list[BaseException] = []

    def job_a() -> None:
        try:
            with Session(engine) as s:  # read the model list, then close the session
                models = s.exec(select(Subject)).all()
            a_fetching.set()
            # the 6 s remote page, mocked: it "returns" when B is done (2 s at most)
            outcome["b_done_during_fetch"] = b_done.wait(timeout=2.0)
            with Session(engine) as s:
                for i in range(200):
                    s.add(observation(models[0].id, f"a-{i}"))
                s.commit()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def job_b() -> None:
        a_fetching.wait(10)  # B starts once A is inside its fetch
        started = time.monotonic()
        try:
            job_b_alert_dispatcher(engine)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        outcome["b_seconds"] = time.monotonic() - started
        b_done.set()

    threads = [threading.Thread(target=job_a), threading.Thread(target=job_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert outcome["b_done_during_fetch"] is True
    assert outcome["b_seconds"] < 1.0  # C17: B completes within 1 s (a lock wait is 10 s)
    assert count(engine, Observation) == 200
    assert count(engine, Event) == 1
    assert subject_id == 1


def test_c17_control_a_write_transaction_held_across_the_fetch_does_block_b(tmp_path):
    """The check above can fail: hold a write transaction over the fetch and B times out."""
    engine = make_engine(tmp_path / "bad.db")
    seed_subject(engine)
    impatient = make_engine(tmp_path / "bad.db")

    @sa_event.listens_for(impatient, "connect")
    def _short_timeout(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_conn.execute("PRAGMA busy_timeout=200")

    impatient.dispose()
    with Session(engine) as a:
        a.add(observation(1, "a-0"))
        a.flush()  # A now holds SQLite's write lock, then "fetches"
        with pytest.raises(OperationalError, match="database is locked"):
            job_b_alert_dispatcher(impatient)
        a.rollback()


def test_c17_four_writers_250_rows_each_while_a_reader_polls(tmp_path):
    engine = make_engine(tmp_path / "stress.db")
    subject_id = seed_subject(engine)
    lock_errors: list[BaseException] = []
    other_errors: list[BaseException] = []
    writers_done = threading.Event()
    reads: list[int] = []

    specs = seed_watches(engine, 4)

    def writer(n: int) -> None:
        raw = RawDB.open(tmp_path / "stress.db")  # a connection per writer, as a process has
        for i in range(250):
            try:  # one short transaction per watch run, as the cycle records
                record_price(raw, specs[n], i)
            except BaseException as exc:  # noqa: BLE001
                (lock_errors if is_lock_error(exc) else other_errors).append(exc)
        raw.close()

    def reader() -> None:  # the "site rebuild": read all rows every 100 ms
        own = make_engine(tmp_path / "stress.db")
        while True:
            try:
                with Session(own) as s:
                    reads.append(len(s.exec(select(Observation)).all()))
            except BaseException as exc:  # noqa: BLE001
                (lock_errors if is_lock_error(exc) else other_errors).append(exc)
            if writers_done.wait(0.1):
                return

    read_thread = threading.Thread(target=reader)
    read_thread.start()
    writers = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in writers:
        t.start()
    for t in writers:
        t.join(120)
    writers_done.set()
    read_thread.join(30)
    assert (lock_errors, other_errors) == ([], [])
    assert count(engine, Observation) == 1000
    assert subjects_observed(engine) == {subject_id}  # matched through the alias table
    assert reads and reads == sorted(reads)  # the reader ran and never saw rows vanish


def test_issue7_scheduler_site_build_and_cli_readers_at_once_1000_writes_no_lock_errors(tmp_path):
    db = tmp_path / "issue7.db"
    engine = make_engine(db)
    subject_id = seed_subject(engine)
    specs = {spec.name: spec for spec in seed_watches(engine, 4)}
    lock_errors: list[BaseException] = []
    other_errors: list[BaseException] = []
    readers_running = threading.Event()
    all_written = threading.Event()
    finished: list[str] = []
    rebuilds: list[int] = []
    saw_every_write = threading.Event()  # a rebuild read all 1000 rows
    guard = threading.Lock()

    def record(exc: BaseException) -> None:
        (lock_errors if is_lock_error(exc) else other_errors).append(exc)

    def run_watch(name: str) -> None:  # 250 watch runs, each its own short transaction
        readers_running.wait(30)
        raw = RawDB.from_engine(engine)  # the scheduler's jobs share its engine
        for i in range(250):
            try:
                record_price(raw, specs[name], i)
            except BaseException as exc:  # noqa: BLE001
                record(exc)
        raw.close()
        with guard:
            finished.append(name)
            if len(finished) == 4:
                all_written.set()

    def rebuild_site() -> None:  # a site build: read everything
        with Session(engine) as s:
            rows = s.exec(select(Observation)).all()
        with guard:
            rebuilds.append(len(rows))
        if len(rows) == 1000:
            saw_every_write.set()

    def cli_reader() -> None:  # what `tracker watches` runs, on its own engine
        own = make_engine(db)
        readers_running.set()
        while not all_written.is_set():
            try:
                listing = list_watches(own)
                assert [w["name"] for w in listing["watches"]] == ["w0", "w1", "w2", "w3"]
            except BaseException as exc:  # noqa: BLE001
                record(exc)
            all_written.wait(0.02)  # paced reads; ends as soon as the writers are done

    sched = Scheduler(
        engine,
        run_watch,
        rebuild_site,
        settings=ScheduleSettings(jitter_seconds=0, settle_seconds=0, max_workers=4),
    )
    readers = [threading.Thread(target=cli_reader) for _ in range(2)]
    sched.start()
    for t in readers:
        t.start()
    assert all_written.wait(120)
    for t in readers:
        t.join(30)
    assert saw_every_write.wait(60)  # the last run's rebuild request is served
    sched.shutdown()
    assert (lock_errors, other_errors) == ([], [])
    assert sorted(finished) == ["w0", "w1", "w2", "w3"]
    assert count(engine, Observation) == 1000
    assert subjects_observed(engine) == {subject_id}
    assert rebuilds[-1] == 1000  # the site build saw every write
    assert rebuilds == sorted(rebuilds)


TRACKER = str(Path(sys.executable).with_name("tracker"))
ROOT = Path(__file__).resolve().parent.parent


def _tracker(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TRACKER, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def _loaded_and_checked(db: str, snapshots: Path) -> None:
    """Claims and observations of the demo, no verdict yet (what `verify` races on)."""
    replay = ["--replay", "data/recordings/demo.har", "--snapshots", str(snapshots)]
    for args in (["load"], ["check", *replay]):
        done = _tracker(*args, "--db", db)
        assert done.returncode == 0, done.stderr


def _verify_at_once(db: str, runs: int) -> list[subprocess.CompletedProcess]:
    procs = [
        subprocess.Popen([TRACKER, "verify", "--db", db, "--json"], cwd=ROOT, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(runs)
    ]  # fmt: skip
    return [subprocess.CompletedProcess(p.args, p.wait(300), *p.communicate()) for p in procs]


def _verified(engine) -> tuple[int, int, int, int]:
    with engine.connect() as conn:
        one = conn.exec_driver_sql
        return (
            one("SELECT count(*) FROM claim").scalar(),
            one("SELECT count(*) FROM verdict").scalar(),
            one("SELECT count(DISTINCT claim_id) FROM verdict").scalar(),
            one("SELECT count(*) FROM discrepancy").scalar(),
        )


def test_twenty_concurrent_verify_runs_on_one_sqlite_database_all_succeed(tmp_path):
    """Issue 20 item 7: the real `tracker verify`, 20 processes at once on one SQLite file:
    every run exits 0 (verdicts and discrepancies are upserts keyed on claim and content,
    events go through the outbox), and each claim has one verdict."""
    db = str(tmp_path / "verify.db")
    _loaded_and_checked(db, tmp_path / "snapshots")
    done = _verify_at_once(db, 20)
    assert [(d.returncode, d.stderr) for d in done] == [(0, "")] * 20
    claims, verdicts, distinct, discrepancies = _verified(make_engine(db))
    assert claims == verdicts == distinct == 40
    assert discrepancies == 3  # the Terminal-Bench one settled by the board's 3.0 score, once
    again = _tracker("verify", "--db", db, "--json")
    assert json.loads(again.stdout)["events_added"] == 0  # settled: nothing left to add


@pytest.mark.postgres
def test_concurrent_verify_runs_on_postgresql_all_succeed(pg_server, tmp_path):
    engine = make_engine(pg_server)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    engine.dispose()
    _loaded_and_checked(pg_server, tmp_path / "snapshots")
    done = _verify_at_once(pg_server, 4)
    assert [(d.returncode, d.stderr) for d in done] == [(0, "")] * 4
    engine = make_engine(pg_server)
    try:
        assert _verified(engine) == (40, 40, 40, 3)
    finally:
        engine.dispose()
