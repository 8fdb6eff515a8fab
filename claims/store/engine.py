"""Database engine: SQLite (WAL, busy timeout) by default, PostgreSQL by URL.

``TRACKER_DATABASE_URL`` or an explicit URL/path picks the database; the default
file is ``data/tracker.db`` (git-ignored).
"""

from __future__ import annotations

import os

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from claims.store.rawdb import (
    BUSY_TIMEOUT_MS,
    RawDB,
    SchemaMissing,
    database_url,
    sqlite_pragmas,
)


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    sqlite_pragmas(dbapi_conn)


def connect(db: str | os.PathLike[str] | None = None) -> Engine:
    """An engine for ``db`` (see :func:`claims.store.rawdb.database_url`) whose schema is
    not looked at (``tracker db upgrade`` applies it; anything else uses
    :func:`make_engine`). SQLite connections get ``journal_mode=WAL`` and ``busy_timeout``
    (ms) so readers never block the writer and short write contention waits instead of
    failing (cases/C17). A SQLite file's folder is never made here: a mistyped path
    fails when connecting (the CLI names the missing folder before). Raises ``sqlalchemy.exc.ArgumentError`` for an
    unusable URL."""
    url = database_url(db)
    if url.startswith("sqlite:///"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def make_engine(db: str | os.PathLike[str] | None = None, *, upgrade: bool = True) -> Engine:
    """Create an engine for ``db`` (see :func:`claims.store.rawdb.database_url`).

    ``upgrade`` (what commands that write use): a database not at this release's schema
    revision is brought there (:func:`claims.store.migrate.upgrade`; an empty one gets
    the whole schema). ``upgrade=False`` (read-only commands): nothing is written; a
    database not at the revision raises :class:`~claims.store.rawdb.SchemaMissing`
    saying to run ``tracker db upgrade``. Either way the check reads ``alembic_version``
    with plain SQL, and alembic is imported only to upgrade. Connections are made by
    :func:`connect`; raises ``sqlalchemy.exc.ArgumentError`` for an unusable URL.
    """
    engine = connect(db)
    raw = RawDB.from_engine(engine)
    try:
        raw.check_schema()
    except SchemaMissing:
        raw.close()
        if not upgrade:
            engine.dispose()  # its pooled connection closed now, not by the collector
            raise
        from claims.store.migrate import upgrade as upgrade_schema

        upgrade_schema(engine)
        return engine
    except BaseException:
        raw.close()
        raise
    raw.close()
    return engine
