"""The site build's lean read path (claims/store/rows.py, siteread.py): `tracker build`
loads no ORM, and the plain rows hold what the ORM's rows hold."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sitefixture import populate
from sqlmodel import Session, select

from claims.store import tables
from claims.store.engine import make_engine
from claims.store.rawdb import RawDB
from claims.store.rows import (
    AliasRow,
    ClaimRow,
    DiscrepancyRow,
    EventRow,
    ObservationRow,
    ScheduleRow,
    SourceRow,
    SubjectRow,
    WatchRow,
    read_rows,
)
from claims.values.canonical import as_utc

HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "alembic")
PAIRS = [
    (SubjectRow, tables.Subject),
    (AliasRow, tables.SubjectAlias),
    (SourceRow, tables.Source),
    (ClaimRow, tables.Claim),
    (WatchRow, tables.Watch),
    (ScheduleRow, tables.ScheduleState),
    (ObservationRow, tables.Observation),
    (DiscrepancyRow, tables.Discrepancy),
    (EventRow, tables.Event),
]


def _build_in_new_process(db: str, out: Path) -> tuple[dict, list[str]]:
    """`tracker build --json` in a fresh interpreter: its JSON report, and which of
    :data:`HEAVY` it imported."""
    code = (
        "import json, sys\n"
        "from tracker.cli.main import app\n"
        "try:\n"
        f"    app(['build', '--db', {db!r}, '--out', {str(out)!r}, '--json'],"
        " standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])


def _files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()
    }


def _orm_values(obj: object, names: list[str]) -> dict[str, object]:
    """The ORM row's columns, its naive SQLite datetimes read as the UTC they are."""
    out = {}
    for n in names:
        v = getattr(obj, n)
        out[n] = as_utc(v) if isinstance(v, dt.datetime) else v
    return out


def _schedule_row(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        s.add(
            tables.ScheduleState(
                job_id="watch:hf", next_run_at=dt.datetime(2026, 12, 1, 6, tzinfo=dt.UTC)
            )
        )
        s.commit()


def _assert_rows_match(engine) -> None:  # type: ignore[no-untyped-def]
    raw = RawDB.from_engine(engine)
    try:
        with Session(engine) as s:
            for row_cls, table in PAIRS:
                names = [f.name for f in dataclasses.fields(row_cls)]
                key = names[0]
                plain = sorted(read_rows(raw, row_cls), key=lambda r: getattr(r, key))
                orm = sorted(s.exec(select(table)).all(), key=lambda r: getattr(r, key))
                assert len(plain) == len(orm) > 0, table
                for p, o in zip(plain, orm, strict=True):
                    assert dataclasses.asdict(p) == _orm_values(o, names), table
                    times = [getattr(p, n) for n in names if isinstance(getattr(p, n), dt.datetime)]
                    assert all(t.tzinfo is dt.UTC for t in times), table  # aware UTC
                    if isinstance(p, ObservationRow):
                        assert type(p.current) is bool and p.current == o.current
                        assert (p.value, p.qualifiers) == (o.value, o.qualifiers)
    finally:
        raw.close()


def test_plain_rows_hold_what_the_orm_rows_hold(engine):
    populate(engine)
    _schedule_row(engine)
    _assert_rows_match(engine)


def test_tracker_build_loads_no_orm_and_builds_the_same_site(engine, tmp_path):
    """A new `tracker build` process imports none of SQLAlchemy, SQLModel, pydantic or
    alembic, and writes the files an in-process build (through an engine) writes."""
    from tracker.website.build import build_site, clear_build_caches

    populate(engine)
    clear_build_caches()
    build_site(engine, tmp_path / "in-process")
    db = str(tmp_path / "test.db")
    report, heavy = _build_in_new_process(db, tmp_path / "site")
    assert heavy == []
    assert report["files"] == report["pages_written"] > 20
    assert _files(tmp_path / "site") == _files(tmp_path / "in-process")


def test_tracker_build_of_a_missing_database_is_one_line(tmp_path):
    from typer.testing import CliRunner

    from tracker.cli.main import app

    result = CliRunner().invoke(
        app, ["build", "--db", str(tmp_path / "absent.db"), "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: database {tmp_path / 'absent.db'} does not exist; "
        "run `tracker demo` or `tracker load` first"
    )
    assert not (tmp_path / "absent.db").exists()


@pytest.mark.postgres
def test_on_postgresql_the_same_rows_and_site_without_the_orm(pg_server, engine, tmp_path):
    """psycopg straight (no SQLAlchemy): the same row values as the ORM's, and the same
    site as from SQLite."""
    pg = make_engine(pg_server)
    try:
        populate(pg)
        _schedule_row(pg)
        _assert_rows_match(pg)
    finally:
        pg.dispose()
    populate(engine)
    _, heavy = _build_in_new_process(pg_server, tmp_path / "site-pg")
    assert heavy == []
    _build_in_new_process(str(tmp_path / "test.db"), tmp_path / "site-lite")
    assert _files(tmp_path / "site-pg") == _files(tmp_path / "site-lite")
