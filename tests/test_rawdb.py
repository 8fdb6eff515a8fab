"""claims.store.rawdb and the lean cycle path: the watch cycle writes through plain DB-API, and
what it writes is what the ORM (and the engine path) would have written, on SQLite and
on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import subprocess
import sys

import pytest
from cycle_setup import DEMO_HAR, add_subjects, add_watches
from olddb import postgresql_release_0_1_0, sqlite_release_0_1_0
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.migrate import revisions
from claims.store.rawdb import SCHEMA_HEAD, RawDB, SchemaMissing, sqlite_datetime
from claims.store.tables import Event, Observation, Snapshot, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def test_schema_version_is_the_last_migration():
    assert SCHEMA_HEAD == revisions()[-1]


def test_open_refuses_a_missing_or_schemaless_database(tmp_path):
    with pytest.raises(SchemaMissing, match="no such database"):
        RawDB.open(tmp_path / "absent.db")
    sqlite3.connect(tmp_path / "empty.db").close()
    with pytest.raises(SchemaMissing, match="no release-tracker schema"):
        RawDB.open(tmp_path / "empty.db")
    with pytest.raises(ValueError, match="unsupported database URL"):
        RawDB.open("mysql://x/y")


def test_open_refuses_an_older_schema(tmp_path):
    make_engine(tmp_path / "old.db").dispose()
    with sqlite3.connect(tmp_path / "old.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0002'")
    with pytest.raises(SchemaMissing, match=r"revision 0002, older than this release's 0007"):
        RawDB.open(tmp_path / "old.db")


def test_datetimes_are_stored_as_sqlalchemy_stores_them(engine, tmp_path):
    """The ORM reads back, aware, exactly the instant RawDB wrote (text format pinned)."""
    at = dt.datetime(2026, 11, 28, 7, 30, 5, 123456, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert sqlite_datetime(at) == "2026-11-28 06:30:05.123456"
    with Session(engine) as s:
        s.add(Watch(name="w", adapter="html_page", url="https://example.org/"))
        s.commit()
    raw = RawDB.from_engine(engine)
    with raw.transaction():
        raw.execute("UPDATE watch SET last_run = :at WHERE name = 'w'", {"at": at})
    assert raw.datetime(raw.one("SELECT last_run FROM watch")[0]) == at
    raw.close()
    with Session(engine) as s:
        assert s.exec(select(Watch)).one().last_run == at
    with pytest.raises(ValueError, match="timezone-aware"):
        raw.param(dt.datetime(2026, 11, 28))


def test_transaction_rolls_back_on_error(engine):
    raw = RawDB.from_engine(engine)
    with pytest.raises(RuntimeError), raw.transaction():
        raw.insert("watch", {"name": "w", "adapter": "a", "url": "u", "params_json": "{}",
                             "interval_minutes": 60, "state": "new", "consecutive_failures": 0})  # fmt: skip
        raise RuntimeError("boom")
    assert raw.one("SELECT count(*) FROM watch")[0] == 0
    raw.close()


def _stored(engine) -> dict:
    """Everything a cycle writes, in a form two databases can be compared by."""
    with Session(engine) as s:
        obs = sorted(
            (o.subject_id, o.attribute, o.qualifiers_json, o.value_json, o.watch_id,
             o.source_url, o.first_seen, o.last_seen, o.current)
            for o in s.exec(select(Observation))
        )  # fmt: skip
        events = sorted((e.key, e.kind, e.title, e.detail_json) for e in s.exec(select(Event)))
        snaps = sorted((n.watch_id, n.url, n.status, n.sha256, n.size, n.fetched_at)
                       for n in s.exec(select(Snapshot)))  # fmt: skip
        watches = sorted((w.name, w.state, w.etag, w.last_modified, w.last_run, w.last_success)
                         for w in s.exec(select(Watch)))  # fmt: skip
    return {"observations": obs, "events": events, "snapshots": snaps, "watches": watches}


def _demo_cycle(db, engine, tmp_path, name):
    add_subjects(engine)
    add_watches(engine)
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    store = SnapshotStore(tmp_path / f"snaps-{name}")
    with client:
        return run_check(db, client, snapshot_store=store, now=NOW)


def test_path_and_engine_paths_store_the_same_rows(tmp_path):
    """The lean path (a database path, no SQLAlchemy in the cycle) and an engine's pooled
    connection write identical rows for the demo recording."""
    a, b = make_engine(tmp_path / "a.db"), make_engine(tmp_path / "b.db")
    by_path = _demo_cycle(str(tmp_path / "a.db"), a, tmp_path, "a")
    by_engine = _demo_cycle(b, b, tmp_path, "b")
    assert (by_path.checked, by_path.changed, by_path.observations) == (16, 12, 46)
    assert by_path.to_dict() == by_engine.to_dict()
    stored = _stored(a)
    assert stored == _stored(b)
    assert len(stored["observations"]) == 46
    assert [kind for _key, kind, *_ in stored["events"]] == ["subject_discovered"]


def test_keep_results_false_keeps_totals_and_streams_results(engine, tmp_path):
    add_subjects(engine)
    add_watches(engine)
    seen = []
    with make_client(transport=HarReplayTransport(DEMO_HAR)) as client:
        summary = run_check(
            engine,
            client,
            snapshot_store=SnapshotStore(tmp_path / "s"),
            now=NOW,
            progress=seen.append,
            keep_results=False,
        )
    assert summary.results == []
    assert (summary.checked, summary.changed) == (16, 12)  # AA skipped: no key
    assert [r.name for r in seen] == sorted(r.name for r in seen) and len(seen) == 16
    assert sum(r.observations for r in seen) == summary.observations == 46


def _heavy_modules_after(imports: str) -> list[str]:
    code = (
        f"import json, sys, {imports};"
        "print(json.dumps(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'pydantic', 'click',"
        " 'rich', 'alembic') if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_cycle_process_loads_no_orm():
    """What the bench's cycle process imports: no SQLAlchemy/SQLModel/pydantic, and not
    httpx's command-line client (click, rich); nor does the whole CLI app (every command
    registered, what `tracker check` starts): rich loads only to print markup, a table or
    help."""
    cycle = "claims.store.rawdb, tracker.cycle.run, tracker.net.fetch, tracker.adapters, httpx"
    assert _heavy_modules_after(cycle) == []
    # adapters load on first use: a cycle over html_page watches never loads the others
    code = (
        f"import json, sys, {cycle}; from tracker.adapters.base import get_adapter;"
        "get_adapter('html_page');"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('tracker.adapters.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["tracker.adapters.base", "tracker.adapters.html_page"]
    assert (
        _heavy_modules_after(cycle + ", tracker.cli.main; from tracker.cli.main import app") == []
    )


def test_cycle_db_migrates_an_older_schema_and_refuses_a_missing_file(tmp_path):
    from tracker.cli.common import open_cycle_db
    from tracker.errors import TrackerError

    sqlite_release_0_1_0(tmp_path / "old.db", scheduler=False)
    raw = open_cycle_db(str(tmp_path / "old.db"))
    assert raw.one("SELECT version_num FROM alembic_version") == ("0007",)
    assert raw.one("SELECT count(*) FROM schedulestate") == (0,)
    raw.close()
    with pytest.raises(TrackerError, match="does not exist"):
        open_cycle_db(str(tmp_path / "absent.db"))
    assert not (tmp_path / "absent.db").exists()


@pytest.mark.postgres
def test_demo_cycle_on_postgresql_through_rawdb(pg_server, tmp_path):
    """The lean path on PostgreSQL: a URL goes to psycopg; the ORM reads back the same rows
    a SQLite run stores (ids aside)."""
    pg = make_engine(pg_server)
    try:
        with pg.begin() as conn:  # a clean slate: the server lives for the whole module
            for table in ("event", "observation", "snapshot", "subjectalias", "watch", "subject"):
                conn.exec_driver_sql(f"DELETE FROM {table}")
        summary = _demo_cycle(pg_server, pg, tmp_path, "pg")
        assert (summary.checked, summary.changed, summary.failing) == (16, 12, 0)
        lite = make_engine(tmp_path / "lite.db")
        _demo_cycle(str(tmp_path / "lite.db"), lite, tmp_path, "lite")

        def comparable(engine):
            stored = _stored(engine)
            # ids differ between servers: compare observation values and watch health
            obs = sorted((o[1], o[2], o[3], o[6], o[7], o[8]) for o in stored["observations"])
            return obs, [k for k, *_ in stored["events"]], stored["watches"]

        assert comparable(pg) == comparable(lite)
        again = _rerun(pg_server, tmp_path)
        assert (again.unchanged, again.observations, again.events) == (12, 0, 0)
    finally:
        pg.dispose()


def _rerun(db, tmp_path):
    with make_client(transport=HarReplayTransport(DEMO_HAR)) as client:
        return run_check(db, client, snapshot_store=SnapshotStore(tmp_path / "snaps-pg"), now=NOW)


def test_a_claim_table_without_origin_gets_the_column(tmp_path):
    """The baseline revision adds ``claim.origin`` (release 0.1.0's migration 3) to a
    database made before it; the rows already there keep their values, origin NULL."""
    from sqlalchemy import inspect

    sqlite_release_0_1_0(tmp_path / "old.db", origin=False)
    with sqlite3.connect(tmp_path / "old.db") as conn:
        conn.execute(
            "INSERT INTO claim (key, subject_id, attribute, qualifiers_json, value_json, "
            "source_id, created_at) VALUES ('c1', 1, 'license', '{}', '{}', 1, '2026-11-01')"
        )
    engine = make_engine(tmp_path / "old.db")
    assert "origin" in {c["name"] for c in inspect(engine).get_columns("claim")}
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT key, origin FROM claim").all()
    assert ("c1", None) in rows and {origin for _key, origin in rows} == {None}
    assert make_engine(tmp_path / "old.db") is not None  # applied once: no second ALTER


@pytest.mark.postgres
def test_the_origin_column_is_added_on_postgresql(pg_server):
    from sqlalchemy import inspect

    postgresql_release_0_1_0(pg_server, origin=False)
    pg = make_engine(pg_server)
    try:
        assert "origin" in {c["name"] for c in inspect(pg).get_columns("claim")}
    finally:
        pg.dispose()


def test_a_removed_claims_id_is_never_given_to_another(tmp_path):
    """`tracker load` removes corrected claims; SQLite without AUTOINCREMENT gave the
    next new claim the removed (highest) id, so an old `#claim-N` link or a review note
    naming it pointed at a different claim."""
    engine = make_engine(tmp_path / "t.db")
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO subject (id, slug, name) VALUES (1, 's', 'S')")
        conn.exec_driver_sql(
            "INSERT INTO source (id, key, title, kind) VALUES (1, 'k', 'T', 'press')"
        )
        for key in ("a", "b"):
            conn.exec_driver_sql(
                "INSERT INTO claim (key, subject_id, attribute, qualifiers_json, value_json, "
                f"source_id, created_at) VALUES ('{key}', 1, 'license', '{{}}', '{{}}', 1, "
                "'2026-11-01')"
            )
        conn.exec_driver_sql("DELETE FROM claim WHERE key = 'b'")
        conn.exec_driver_sql(
            "INSERT INTO claim (key, subject_id, attribute, qualifiers_json, value_json, "
            "source_id, created_at) VALUES ('c', 1, 'license', '{}', '{}', 1, '2026-11-01')"
        )
        ids = conn.exec_driver_sql("SELECT key, id FROM claim ORDER BY id").all()
    assert ids == [("a", 1), ("c", 3)]


def test_a_connection_made_while_another_holds_the_lock_past_the_timeout_still_opens(
    tmp_path, monkeypatch
):
    """Four processes upgrading one old (rollback-journal) file at once: the WAL switch
    of a new connection waited on another's write lock and failed with "database is
    locked" (the busy timeout was even set after it). It now opens in the file's mode;
    a later connection switches it."""
    from claims.store import rawdb

    db = tmp_path / "old.db"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")  # another process, mid-upgrade
    holder.execute("CREATE TABLE u (y)")
    monkeypatch.setattr(rawdb, "BUSY_TIMEOUT_MS", 1)
    late = sqlite3.connect(db, timeout=0.001, isolation_level=None)
    rawdb.sqlite_pragmas(late)  # raised OperationalError before
    assert late.execute("PRAGMA foreign_keys").fetchone() == (1,)
    holder.execute("COMMIT")
    assert late.execute("SELECT count(*) FROM t").fetchone() == (0,)
