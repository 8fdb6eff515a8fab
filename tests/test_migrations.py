"""The schema's recorded history (alembic, claims/store/migrations): a database made by
release 0.1.0 upgrades in place with every row kept, on SQLite and PostgreSQL; commands
that write upgrade by themselves, commands that read never do (a read-only PostgreSQL
role can run them); both ways of making a new database give the models' schema."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cycle_setup import DEMO_HAR, add_subjects, add_watches
from olddb import ROWS, postgresql_release_0_1_0, row_counts, sqlite_release_0_1_0
from sqlalchemy import inspect
from sqlmodel import SQLModel
from typer.testing import CliRunner

from claims.store import tables  # noqa: F401  (the models' metadata)
from claims.store.engine import connect, make_engine
from claims.store.migrate import alembic_config, current_revision, revisions, upgrade
from claims.store.rawdb import SCHEMA_HEAD, SCHEMA_REVISIONS, RawDB, SchemaMissing
from tracker.cli.main import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def _claims(conn) -> list[tuple]:
    return conn.exec_driver_sql("SELECT id, key, value_json FROM claim ORDER BY id").all()


def test_the_revisions_the_code_knows_are_alembics():
    assert (
        revisions()
        == list(SCHEMA_REVISIONS)
        == ["0001", "0002", "0003", "0004", "0005", "0006", "0007"]
    )
    assert SCHEMA_HEAD == "0007"


def _schema_diff(engine) -> list:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)


def test_every_revision_from_an_empty_database_gives_the_models_schema(tmp_path):
    """The long way (each revision in order) and the short one (create_all + stamp, what
    make_engine does for an empty database) agree with the models."""
    from alembic import command

    long_way = connect(tmp_path / "long.db")
    with long_way.connect() as conn:
        command.upgrade(alembic_config(conn), "head")
        conn.commit()
        assert current_revision(conn) == "0007"
    short_way = make_engine(tmp_path / "short.db")
    assert _schema_diff(long_way) == [] and _schema_diff(short_way) == []
    tables_of = {
        e: set(inspect(e).get_table_names()) for e in (long_way, short_way)
    }  # fmt: skip
    assert tables_of[long_way] == tables_of[short_way]
    assert "snapshotbody" in tables_of[short_way] and "schemaversion" not in tables_of[short_way]


def test_a_release_0_1_0_database_upgrades_in_place_with_every_row(tmp_path):
    db = sqlite_release_0_1_0(tmp_path / "old.db")
    with sqlite3.connect(db) as conn:
        before = conn.execute("SELECT id, key, value_json FROM claim ORDER BY id").fetchall()
        events = conn.execute("SELECT key, kind, title FROM event ORDER BY id").fetchall()
    code, out = _run("db", "upgrade", "--db", str(db))
    assert code == 0, out
    assert (
        out.strip() == "database upgraded to schema revision 0007 "
        "(applied 0001, 0002, 0003, 0004, 0005, 0006, 0007)"
    )
    engine = make_engine(db, upgrade=False)  # at the head now: a reader opens it
    with engine.connect() as conn:
        assert row_counts(conn) == ROWS
        assert _claims(conn) == before
        assert (
            conn.exec_driver_sql("SELECT key, kind, title FROM event ORDER BY id").all() == events
        )
        origins = {o for (o,) in conn.exec_driver_sql("SELECT origin FROM claim")}
        assert len(origins) == 4 and all(o.startswith("file:///") for o in origins)
        assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    assert "schemaversion" not in inspect(engine).get_table_names()
    code, out = _run("db", "upgrade", "--db", str(db))
    assert (code, out.strip()) == (0, "database already at schema revision 0007")
    code, out = _run("status", "kimi-k3.1-pro", "--db", str(db))
    assert code == 0 and "Kimi K3.1 Pro" in out


def test_a_claim_table_made_before_autoincrement_is_rebuilt_keeping_ids(tmp_path):
    """Revision 0002 runs code: SQLite cannot add AUTOINCREMENT in place, so the claim
    table is rebuilt (rows, ids, indexes and the verdicts pointing at them kept); then a
    removed claim's id is never given to another."""
    db = sqlite_release_0_1_0(tmp_path / "older.db", autoincrement=False)
    with sqlite3.connect(db) as conn:
        assert (
            "AUTOINCREMENT"
            not in conn.execute("SELECT sql FROM sqlite_master WHERE name = 'claim'").fetchone()[0]
        )
        before = conn.execute("SELECT id, key, value_json FROM claim ORDER BY id").fetchall()
    engine = make_engine(db)  # what a write command does
    with engine.begin() as conn:
        sql = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'claim'").scalar()
        assert "AUTOINCREMENT" in sql
        assert _claims(conn) == before
        assert row_counts(conn) == ROWS
        indexes = {r[0] for r in conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'claim'")}  # fmt: skip
        assert {"ix_claim_key", "ix_claim_attribute", "ix_claim_subject_id"} <= indexes
        assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
        conn.exec_driver_sql("DELETE FROM verdict WHERE claim_id = 40")
        conn.exec_driver_sql("DELETE FROM claim WHERE id = 40")
        conn.exec_driver_sql(
            "INSERT INTO claim (key, subject_id, attribute, qualifiers_json, value_json, "
            "source_id, created_at) VALUES ('new', 1, 'license', '{}', '{}', 1, '2026-12-01')"
        )
        assert conn.exec_driver_sql("SELECT id FROM claim WHERE key = 'new'").scalar() == 41
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1  # back on


def test_older_shapes_get_the_origin_column_and_the_scheduler_tables(tmp_path):
    """What migrations 2 and 3 of release 0.1.0's list did, the baseline revision does."""
    db = sqlite_release_0_1_0(tmp_path / "old.db", origin=False, scheduler=False)
    engine = make_engine(db)
    assert {"schedulerlock", "schedulestate"} <= set(inspect(engine).get_table_names())
    assert "origin" in {c["name"] for c in inspect(engine).get_columns("claim")}
    with engine.connect() as conn:
        assert {o for (o,) in conn.exec_driver_sql("SELECT origin FROM claim")} == {None}
        counts = row_counts(conn)
    assert counts == {**ROWS, "schedulestate": 0}  # the dropped table was recreated empty


def test_read_only_commands_never_upgrade_and_say_what_to_run(tmp_path):
    db = sqlite_release_0_1_0(tmp_path / "old.db")
    for args in (
        ["status", "kimi-k3"],
        ["discrepancies"],
        ["watches"],
        ["build", "--out", str(tmp_path / "s")],
    ):
        code, out = _run(*args, "--db", str(db))
        assert code == 1, (args, out)
        assert out.strip() == (
            "error: the database schema is release 0.1.0's, older than this release's "
            "(revision 0007): run `tracker db upgrade`"
        )
    with sqlite3.connect(db) as conn:
        tables_now = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "alembic_version" not in tables_now and "schemaversion" in tables_now


def test_a_write_command_upgrades_first(tmp_path):
    db = sqlite_release_0_1_0(tmp_path / "old.db")
    code, out = _run("verify", "--db", str(db))
    assert code == 0, out
    with connect(db).connect() as conn:
        assert current_revision(conn) == "0007"
        assert row_counts(conn)["verdict"] == 40


def test_an_older_revision_is_refused_by_readers_and_upgraded_by_writers(tmp_path):
    engine = make_engine(tmp_path / "t.db")
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0003'")
        conn.exec_driver_sql("CREATE TABLE schemaversion (version INTEGER PRIMARY KEY, "
                             "name VARCHAR NOT NULL, applied_at DATETIME NOT NULL)")  # fmt: skip
    with pytest.raises(SchemaMissing, match=r"revision 0003, older than this release's 0007"):
        RawDB.open(tmp_path / "t.db")
    with pytest.raises(SchemaMissing, match="run `tracker db upgrade`"):
        make_engine(tmp_path / "t.db", upgrade=False)
    assert upgrade(engine) == ["0004", "0005", "0006", "0007"]
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(SchemaMissing, match="0099, which this release does not know"):
        RawDB.open(tmp_path / "t.db")


def test_two_processes_upgrading_at_once_apply_each_revision_once(tmp_path):
    db = sqlite_release_0_1_0(tmp_path / "old.db")
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            results.append(upgrade(connect(db)))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(results) == [[], [], [], ["0001", "0002", "0003", "0004", "0005", "0006", "0007"]]
    with connect(db).connect() as conn:
        assert row_counts(conn) == ROWS


def test_an_upgrade_waits_for_a_write_lock_held_past_the_busy_timeout(
    tmp_path, monkeypatch, caplog
):
    """Under load another process's upgrade held the lock longer than the busy timeout
    and the waiting one failed with "database is locked": it waits instead. The busy
    timeout is cut to 1 ms; the other process commits while this one pauses."""
    from claims.store import engine as engine_module
    from claims.store import rawdb

    db = sqlite_release_0_1_0(tmp_path / "old.db")
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 1)
    monkeypatch.setattr(rawdb, "BUSY_TIMEOUT_MS", 1)
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("BEGIN IMMEDIATE")  # another process upgrading, slowly
    pauses: list[float] = []

    def other_finishes(seconds: float) -> None:
        pauses.append(seconds)
        other.execute("COMMIT")

    assert upgrade(connect(db), sleep=other_finishes) == list(SCHEMA_REVISIONS)
    assert pauses == [0.5]
    assert "database is locked (another process upgrading it?); waiting for it" in caplog.text
    other.close()
    with connect(db).connect() as conn:
        assert row_counts(conn) == ROWS


@pytest.mark.postgres
def test_a_release_0_1_0_database_upgrades_in_place_on_postgresql(pg_server):
    postgresql_release_0_1_0(pg_server, origin=False)
    engine = connect(pg_server)
    try:
        with engine.connect() as conn:
            before = _claims(conn)
        assert upgrade(engine) == ["0001", "0002", "0003", "0004", "0005", "0006", "0007"]
        with engine.connect() as conn:
            assert row_counts(conn) == ROWS
            assert _claims(conn) == before
            assert current_revision(conn) == "0007"
        assert "origin" in {c["name"] for c in inspect(engine).get_columns("claim")}
        assert _schema_diff(engine) == []
    finally:
        engine.dispose()


@pytest.fixture
def disposing(monkeypatch):
    """Engines the CLI makes in this process are disposed at the end (a command's process
    would close their connections by exiting)."""
    import claims.store.engine as engine_module

    made = []
    real = engine_module.create_engine

    def tracked(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(engine_module, "create_engine", tracked)
    yield
    for engine in made:
        engine.dispose()


@pytest.mark.postgres
def test_read_only_commands_work_for_a_read_only_postgresql_role(pg_server, tmp_path, disposing):
    """A role granted SELECT only: status, discrepancies, watches and build read what they
    need; a command that writes fails with one line, not a traceback."""
    postgresql_release_0_1_0(pg_server)
    owner = connect(pg_server)
    try:
        upgrade(owner)
        with owner.begin() as conn:
            conn.exec_driver_sql("DROP ROLE IF EXISTS reader")
            conn.exec_driver_sql("CREATE ROLE reader LOGIN")
            conn.exec_driver_sql("GRANT USAGE ON SCHEMA public TO reader")
            conn.exec_driver_sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
    finally:
        owner.dispose()
    reader = pg_server.replace("://tracker@", "://reader@")
    for args in (["status", "kimi-k3.1-pro"], ["discrepancies"], ["watches"],
                 ["build", "--out", str(tmp_path / "site")]):  # fmt: skip
        code, out = _run(*args, "--db", reader)
        assert code == 0, (args, out)
    assert (tmp_path / "site" / "index.html").is_file()
    code, out = _run("review", "1", "--dismiss", "not a real conflict", "--db", reader)
    assert code == 1 and out.startswith("error: database postgresql"), out  # which one
    assert ": permission denied" in out.splitlines()[0], out


def _modules_after_check(db: Path, tmp_path: Path) -> list[str]:
    """Run `tracker check --replay demo.har` in a fresh process; which of alembic and
    SQLAlchemy it loaded."""
    code = (
        "import json, sys\n"
        "from tracker.cli.main import app\n"
        "try:\n"
        f"    app(['check', '--replay', {str(DEMO_HAR)!r}, '--db', {str(db)!r},"
        f" '--snapshots', {str(tmp_path / 's')!r}, '--json'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps([m for m in ('alembic', 'sqlalchemy') if m in sys.modules]),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_check_loads_alembic_only_when_the_schema_needs_an_upgrade(tmp_path):
    """The lean cycle path: on an up-to-date database `tracker check` reads the revision
    with plain SQL (no alembic, no SQLAlchemy); on an older one it upgrades first."""
    db = tmp_path / "t.db"
    engine = make_engine(db)
    add_subjects(engine)
    add_watches(engine)
    engine.dispose()
    assert _modules_after_check(db, tmp_path) == []
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0003'")
        conn.execute("CREATE TABLE schemaversion (version INTEGER PRIMARY KEY)")
    assert _modules_after_check(db, tmp_path) == ["alembic", "sqlalchemy"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]


_WATCHES_0005 = (
    "INSERT INTO watch (name, adapter, url, params_json, interval_minutes, state, "
    "consecutive_failures, last_error, last_error_kind) VALUES "
    "('skipped-ok', 'artificial_analysis', 'https://a.example/', '{}', 60, 'ok', 0, "
    "'TRACKER_AA_API_KEY not set', 'skipped'), "
    "('failing', 'html_page', 'https://b.example/', '{}', 60, 'failing', 3, 'HTTP 503', "
    "'bad_status')"
)
_SKIPS = (
    "SELECT name, last_error, last_error_kind, skip_reason FROM watch "
    "WHERE name IN ('skipped-ok', 'failing') ORDER BY name"
)


def _skip_reason_revision_moves_stored_skips(engine) -> None:
    """At 0005 a skip was a ``last_error`` of kind ``skipped``: 0006 moves it to
    ``skip_reason`` (a failing watch's error stays), and back down again."""
    from alembic import command

    with engine.connect() as conn:
        command.downgrade(alembic_config(conn), "0005")
        conn.commit()
    assert "skip_reason" not in {c["name"] for c in inspect(engine).get_columns("watch")}
    with engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM watch WHERE name IN ('skipped-ok', 'failing')")
        conn.exec_driver_sql(_WATCHES_0005)
    assert upgrade(engine) == ["0006", "0007"]
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.exec_driver_sql(_SKIPS)] == [
            ("failing", "HTTP 503", "bad_status", None),
            ("skipped-ok", None, None, "TRACKER_AA_API_KEY not set"),
        ]
    assert _schema_diff(engine) == []
    with engine.connect() as conn:
        command.downgrade(alembic_config(conn), "0005")
        conn.commit()
        rows = conn.exec_driver_sql(_SKIPS.replace(", skip_reason", "")).all()
    assert [tuple(r) for r in rows] == [
        ("failing", "HTTP 503", "bad_status"),
        ("skipped-ok", "TRACKER_AA_API_KEY not set", "skipped"),
    ]
    assert upgrade(engine) == ["0006", "0007"]


def test_revision_0006_keeps_a_skip_apart_from_the_error(tmp_path):
    engine = make_engine(tmp_path / "t.db")
    try:
        _skip_reason_revision_moves_stored_skips(engine)
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_revision_0006_keeps_a_skip_apart_from_the_error_on_postgresql(pg_server):
    postgresql_release_0_1_0(pg_server)
    engine = connect(pg_server)
    try:
        upgrade(engine)
        _skip_reason_revision_moves_stored_skips(engine)
    finally:
        engine.dispose()


def _token_triggers(engine) -> list[str]:
    """The change-token triggers (and PostgreSQL's functions) as the database keeps
    them, whitespace collapsed."""
    if engine.dialect.name == "sqlite":
        sql = "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    else:
        sql = (
            "SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal "
            "UNION ALL SELECT pg_get_functiondef(oid) FROM pg_proc "
            "WHERE starts_with(proname, 'claimstoken') ORDER BY 1"
        )
    with engine.connect() as conn:
        return [" ".join(text.split()) for (text,) in conn.exec_driver_sql(sql)]


def test_both_ways_of_making_a_database_give_the_same_change_token_triggers(tmp_path):
    """Revision 0007 carries its own copy of the triggers; an empty database gets the
    code's (claims.store.changetokens): they must not drift apart."""
    from alembic import command

    long_way = connect(tmp_path / "long.db")
    with long_way.connect() as conn:
        command.upgrade(alembic_config(conn), "head")
        conn.commit()
    short_way = make_engine(tmp_path / "short.db")
    assert len(_token_triggers(short_way)) == 6
    assert _token_triggers(long_way) == _token_triggers(short_way)


def _tokens_revision_upgrades_and_downgrades(engine) -> None:
    """At 0006 with release 0.1.0's rows: 0007 gives each of the 3 subjects with claims
    its own token and the triggers; down again, both are gone and every row stays."""
    from alembic import command

    with engine.connect() as conn:
        command.downgrade(alembic_config(conn), "0006")
        conn.commit()
        counts = row_counts(conn)
    assert "subjectclaimstoken" not in inspect(engine).get_table_names()
    assert _token_triggers(engine) == []
    assert upgrade(engine) == ["0007"]
    with engine.connect() as conn:
        tokens = dict(
            conn.exec_driver_sql("SELECT subject_id, token FROM subjectclaimstoken").all()
        )
        subjects = {s for (s,) in conn.exec_driver_sql("SELECT DISTINCT subject_id FROM claim")}
        assert row_counts(conn) == counts
    assert set(tokens) == subjects and len(subjects) == 3 == len(set(tokens.values()))
    assert len(_token_triggers(engine)) == (6 if engine.dialect.name == "sqlite" else 10)
    assert _schema_diff(engine) == []
    with engine.begin() as conn:  # the triggers work on the upgraded database
        conn.exec_driver_sql("UPDATE claim SET note = 'edited' WHERE id = 1")
        first = conn.exec_driver_sql("SELECT subject_id FROM claim WHERE id = 1").scalar()
        after = dict(conn.exec_driver_sql("SELECT subject_id, token FROM subjectclaimstoken").all())
    assert {s for s in after if after[s] != tokens[s]} == {first}


def test_revision_0007_adds_change_tokens_to_a_database_with_rows(tmp_path):
    engine = make_engine(sqlite_release_0_1_0(tmp_path / "old.db"))
    try:
        _tokens_revision_upgrades_and_downgrades(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_revision_0007_adds_change_tokens_on_postgresql(pg_server):
    postgresql_release_0_1_0(pg_server)
    engine = connect(pg_server)
    try:
        upgrade(engine)
        _tokens_revision_upgrades_and_downgrades(engine)
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_both_ways_give_the_same_change_token_triggers_on_postgresql(pg_server):
    from alembic import command

    postgresql_release_0_1_0(pg_server)
    engine = connect(pg_server)
    try:
        upgrade(engine)
        long_way = _token_triggers(engine)
        with engine.connect() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE")
            conn.exec_driver_sql("CREATE SCHEMA public")
            conn.commit()
        upgrade(engine)  # an empty database: the models' tables and the code's triggers
        assert len(long_way) == 10 and _token_triggers(engine) == long_way
        with engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0006")
            conn.commit()
        assert _token_triggers(engine) == []
    finally:
        engine.dispose()
