"""Bring a claims database to this release's schema by its recorded history (alembic).

The revisions live in :mod:`claims.store.migrations` (``versions/0001_…``, shipped in the
package); ``alembic_version`` records the one a database is at. :func:`upgrade` applies the
missing ones in order, under the database's write lock (SQLite ``BEGIN IMMEDIATE``, a
PostgreSQL advisory lock), so two processes upgrading at once apply each revision once.
A database made by release 0.1.0 (its ``schemaversion`` list, no ``alembic_version``)
starts at the baseline revision, which adopts its tables with their rows.

Write commands call it through :func:`claims.store.engine.make_engine`; read-only commands
never do (:meth:`claims.store.rawdb.RawDB.check_schema` only reads ``alembic_version``).
Importing alembic costs time, so only this module does, and only when a database is not
at the head revision.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from claims.store.rawdb import SCHEMA_HEAD

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# pg_advisory_xact_lock key of a schema upgrade (any constant shared by every process).
_PG_LOCK_KEY = 0x7472_6163  # "trac"


def alembic_config(connection: Connection | None = None) -> Any:
    """An alembic ``Config`` for the shipped revisions; ``connection`` (when given) is the
    one ``env.py`` runs them on."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def revisions() -> list[str]:
    """Every revision id, oldest first (from the ``versions/`` scripts)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def current_revision(connection: Connection) -> str | None:
    """The revision ``alembic_version`` records, or None (no such table, or empty)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()


# How long an upgrade waits for another process's to finish: the busy timeout each try,
# then a pause, this many times (~10 min). Under load (the test suite on a busy 2-core
# machine) one upgrade took longer than the 10 s busy timeout and the others failed with
# "database is locked" instead of waiting for it.
UPGRADE_TRIES = 60
_PAUSE_SECONDS = 0.5


def _begin_immediate(conn: Connection, sleep: Callable[[float], None]) -> None:
    """Take SQLite's write lock (``BEGIN IMMEDIATE``), waiting while another connection
    holds it longer than the busy timeout (another process upgrading, under load): up to
    :data:`UPGRADE_TRIES` busy timeouts, logging once that it waits. Raises the driver's
    OperationalError for anything else, or when the lock never came."""
    for attempt in range(UPGRADE_TRIES):
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        except OperationalError as exc:
            if "locked" not in str(exc.orig) or attempt == UPGRADE_TRIES - 1:
                raise
            conn.rollback()
        if attempt == 0:
            log.warning("database is locked (another process upgrading it?); waiting for it")
        sleep(_PAUSE_SECONDS)


def upgrade(engine: Engine, *, sleep: Callable[[float], None] = time.sleep) -> list[str]:
    """Apply the revisions ``engine``'s database lacks, in order, in one transaction;
    returns their ids (empty when it was at :data:`~claims.store.rawdb.SCHEMA_HEAD`).

    An empty database gets the models' tables at once, and the change-token triggers
    (:func:`claims.store.changetokens.install`), and is stamped at the head (the
    alembic cookbook's "build from scratch"; tests/test_migrations.py checks that both
    ways give the same schema and triggers). Raises the driver's error when a revision
    fails (nothing of that upgrade is kept on PostgreSQL; on SQLite, DDL outside the
    rebuilds is kept, each revision being written to run again). While another process
    upgrades the same SQLite file, it waits for it (:func:`_begin_immediate`; ``sleep``
    between tries) and then finds the database at the head."""
    from alembic import command

    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:  # a table rebuild must not cascade deletes: keys off outside the transaction
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            _begin_immediate(conn, sleep)
        else:
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK_KEY})")
        try:
            before = current_revision(conn)
            if before == SCHEMA_HEAD:
                conn.rollback()
                return []
            cfg = alembic_config(conn)
            if before is None and not inspect(conn).get_table_names():
                from sqlmodel import SQLModel

                from claims.store import tables  # noqa: F401  (registers the tables)
                from claims.store.changetokens import install as install_change_tokens

                SQLModel.metadata.create_all(conn)
                install_change_tokens(conn)  # triggers: not part of the models
                command.stamp(cfg, "head")
            else:
                command.upgrade(cfg, "head")
            conn.commit()
        finally:
            if sqlite:
                conn.rollback()
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
    known = revisions()
    start = known.index(before) + 1 if before in known else 0
    return known[start:]
