"""The one writer of event rows (claims.store.outbox): every path stores through it, and
two processes storing the same event at once both succeed with one row, on SQLite and
on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import multiprocessing
from pathlib import Path

import pytest
from outbox_race import the_event, writer_a, writer_b
from sqlmodel import Session, func, select

from claims.store.engine import make_engine
from claims.store.outbox import INSERT_EVENT, Outbox, add_event, session_db, write_event
from claims.store.rawdb import RawDB
from claims.store.tables import Event

ROOT = Path(__file__).resolve().parent.parent
_AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def _race(db: str) -> dict[str, int]:
    ctx = multiprocessing.get_context("spawn")
    a_inserted, b_inserting, out = ctx.Event(), ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=fn, args=(db, a_inserted, b_inserting, out))
        for fn in (writer_a, writer_b)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    return dict(out.get(timeout=5) for _ in range(3))


def _events(db) -> int:
    engine = make_engine(db)
    try:
        with Session(engine) as s:
            return s.exec(select(func.count()).select_from(Event)).one()
    finally:
        engine.dispose()


def test_two_processes_storing_one_event_at_once_on_sqlite(tmp_path):
    db = str(tmp_path / "race.db")
    make_engine(db).dispose()
    assert _race(db) == {"a": 1, "b": 0, "b inserted before a committed": 1}
    assert _events(db) == 1


@pytest.mark.postgres
def test_two_processes_storing_one_event_at_once_on_postgresql(pg_server):
    engine = make_engine(pg_server)
    with engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM event")
    engine.dispose()
    assert _race(pg_server) == {"a": 1, "b": 0, "b inserted before a committed": 1}
    assert _events(pg_server) == 1


def test_the_statement_skips_a_conflict_rather_than_failing(engine):
    """The INSERT itself, without the lookup, is safe: a second one adds nothing."""
    raw = RawDB.from_engine(engine)
    row = the_event()
    with raw.transaction():
        assert raw.execute(INSERT_EVENT, row).rowcount == 1
        assert raw.execute(INSERT_EVENT, row).rowcount == 0
    assert write_event(raw, row) == 0
    raw.close()
    assert _events(engine.url.database) == 1


def test_the_orm_and_the_cycle_write_the_same_row(tmp_path):
    """An event stored through a session and one stored through the cycle's connection
    are the same row (the datetime text pinned as SQLAlchemy writes it)."""
    rows = {}
    for how in ("session", "raw"):
        engine = make_engine(tmp_path / f"{how}.db")
        if how == "session":
            with Session(engine) as s:
                assert add_event(s, the_event() | {"created_at": _AT}) == 1
                assert add_event(s, the_event() | {"created_at": _AT}) == 0
                s.commit()
        else:
            raw = RawDB.from_engine(engine)
            with raw.transaction():
                outbox = Outbox(raw)
                outbox.add(the_event() | {"created_at": _AT})
                outbox.add(the_event() | {"created_at": _AT})
            raw.close()
            assert outbox.added == 1
        with Session(engine) as s:
            e = s.exec(select(Event)).one()
            rows[how] = (e.key, e.kind, e.audience, e.title, e.detail_json, e.created_at)
        with engine.connect() as conn:
            rows[how + " text"] = conn.exec_driver_sql("SELECT created_at FROM event").scalar()
    assert rows["session"] == rows["raw"]
    assert rows["session text"] == rows["raw text"] == "2026-11-28 06:00:00.000000"


def test_session_db_joins_the_sessions_transaction(engine):
    with Session(engine) as s:
        write_event(session_db(s), the_event())
        s.rollback()
    assert _events(engine.url.database) == 0


def test_no_other_module_writes_event_rows():
    """One writer: no INSERT INTO event and no ORM Event(...) added outside the outbox
    (tests and the model's module aside)."""
    offenders = []
    for path in [*(ROOT / "claims").rglob("*.py"), *(ROOT / "tracker").rglob("*.py")]:
        text = path.read_text()
        rel = str(path.relative_to(ROOT))
        if rel == "claims/store/outbox.py":
            continue
        if "INSERT INTO event" in text or "s.add(Event(" in text or "session.add(Event(" in text:
            offenders.append(rel)
    assert offenders == []
