"""Database engine: SQLite (WAL, busy timeout) by default, PostgreSQL by URL.

``TRACKER_DATABASE_URL`` or an explicit URL/path picks the database; the default
file is ``data/tracker.db`` (git-ignored).
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine, select

from claims.store import tables as models
from claims.store.rawdb import (
    BUSY_TIMEOUT_MS,
    database_url,
    sqlite_pragmas,
)

# Ordered schema migrations: (version, name). Version 1 is the initial create_all.
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, "initial schema"),
    (2, "scheduler lock and schedule state tables"),
    (3, "claim origin column"),
)
# Columns added to an existing table by a migration (create_all makes new tables only).
_ADDED_COLUMNS: dict[int, tuple[str, str, str]] = {3: ("claim", "origin", "VARCHAR")}


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    sqlite_pragmas(dbapi_conn)


def make_engine(db: str | os.PathLike[str] | None = None) -> Engine:
    """Create an engine and make sure the schema exists.

    SQLite connections get ``journal_mode=WAL`` and ``busy_timeout`` (ms) so readers
    never block the writer and short write contention waits instead of failing
    (cases/C17). Raises ``sqlalchemy.exc.ArgumentError`` for an unusable URL.
    """
    url = database_url(db)
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if str(path) not in ("", ":memory:"):
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        )
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    migrate(engine)
    return engine


def migrate(engine: Engine) -> list[int]:
    """Apply missing migrations in order and record them; returns versions applied.

    New tables come from the models (``create_all``); a column a migration adds to an
    existing table is added with ``ALTER TABLE … ADD COLUMN`` (SQLite and PostgreSQL),
    unless the table was just created with it."""
    SQLModel.metadata.create_all(engine)
    applied: list[int] = []
    with Session(engine) as session:
        done = {v.version for v in session.exec(select(models.SchemaVersion)).all()}
        for version, name in MIGRATIONS:
            if version in _ADDED_COLUMNS and version not in done:
                table, column, sql_type = _ADDED_COLUMNS[version]
                present = {c["name"] for c in inspect(session.connection()).get_columns(table)}
                if column not in present:
                    session.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {sql_type}"))
            if version not in done:
                session.add(models.SchemaVersion(version=version, name=name))
                applied.append(version)
        session.commit()
    return applied
