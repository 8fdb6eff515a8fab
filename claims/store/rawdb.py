"""Plain DB-API access to the claims database, for the watch cycle.

Why not the ORM: importing SQLAlchemy + SQLModel + pydantic costs a cycle process
about 40 MiB and 0.8 s before any work, more than the rest of a 500-page cycle
(issue 7, bench/RESULTS.md). The cycle's statements are few and fixed, so it runs
them through the database's own driver (PEP 249): ``sqlite3`` for SQLite, ``psycopg``
for PostgreSQL. The schema stays defined once, by :mod:`claims.store.tables` and the
revisions of :mod:`claims.store.migrations`, which :func:`claims.store.migrate.upgrade`
applies; :meth:`RawDB.open` refuses a database whose schema is missing or not at this
code's revision (:class:`SchemaMissing`), reading ``alembic_version`` with plain SQL.

Values are stored exactly as SQLAlchemy stores them, so ORM readers see the same
rows: datetimes are UTC, on SQLite as text ``YYYY-MM-DD HH:MM:SS.ffffff`` (SQLAlchemy's
SQLite ``DATETIME`` format, read back as aware UTC like SQLModel's ``UTCDateTime``) and
on PostgreSQL as ``timestamp with time zone``;
booleans are 0/1 on SQLite. SQL is written with ``:name`` parameters (sqlite3's
named style) and rewritten to ``%(name)s`` for psycopg.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from claims.errors import ClaimsError

# claims.store.engine takes these from here (this module must not import SQLAlchemy).
BUSY_TIMEOUT_MS = 10_000
DEFAULT_DB_PATH = Path("data") / "tracker.db"
# The schema revisions of claims/store/migrations/versions, oldest first, and the head this
# code reads and writes (tests/test_migrations.py keeps them equal to alembic's list).
SCHEMA_REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006", "0007")
SCHEMA_HEAD = SCHEMA_REVISIONS[-1]

_PARAM = re.compile(r"(?<!:):([A-Za-z_][A-Za-z0-9_]*)")


class SchemaMissing(ClaimsError, RuntimeError):
    """The database has no release-tracker schema, or not this release's revision: run
    ``tracker db upgrade`` (or a command that writes, e.g. ``tracker load``) first."""

    kind = "database"


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """Resolve ``--db`` (a path or URL), else the default file (``data/tracker.db``).
    The one rule; :mod:`claims.store.engine` uses it too. ``TRACKER_DATABASE_URL`` is
    read by the caller (:mod:`tracker.settings`) and passed as ``db``."""
    if db:
        text = str(db)
        return text if "://" in text else f"sqlite:///{Path(text)}"
    return f"sqlite:///{DEFAULT_DB_PATH}"


def sqlite_pragmas(conn: Any) -> None:
    """WAL (readers never block the writer), a busy timeout (short write contention waits
    instead of failing, cases/C17), foreign keys, ``synchronous=NORMAL``: for every
    SQLite connection, the ORM's (:func:`claims.store.engine.make_engine`) and the cycle's."""
    cur = conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: the WAL switch waits too
    try:
        cur.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        # Another connection holds the lock past the timeout (a long upgrade under load).
        # It set WAL when it connected (every connection does, first), and the mode
        # stays in the file; this one works in the file's mode meanwhile.
        if "locked" not in str(exc):
            raise
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def sqlite_datetime(t: dt.datetime) -> str:
    """Aware ``t`` in UTC as SQLAlchemy's SQLite DATETIME text, e.g.
    ``2026-11-28 06:00:00.000000``."""
    t = t.astimezone(dt.UTC)
    return f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}"


class RawDB:
    """One DB-API connection to the claims database with the few helpers the cycle needs.

    ``dialect`` is ``"sqlite"`` or ``"postgresql"``. Use :meth:`open` (a URL or path; no
    SQLAlchemy import) or :meth:`from_engine` (a connection from an existing engine's
    pool, e.g. in tests and in processes that already use the ORM). Write through
    :meth:`transaction`; reads may run outside one.
    """

    def __init__(self, conn: Any, dialect: str, release: Any = None) -> None:
        self.conn = conn
        self.dialect = dialect
        self._release = release or conn.close
        self._sql: dict[str, str] = {}
        self._dt_text: dict[dt.datetime, str] = {}  # one watch's rows share a few times
        self._grouped = False  # inside grouped(): transactions are savepoints
        self._group_open = False  # the group's transaction has begun
        self._through: Any = None  # a SQLAlchemy Connection statements go through

    @classmethod
    def open(cls, db: str | os.PathLike[str] | None = None) -> RawDB:
        """Connect to ``db`` (path or URL, see :func:`database_url`). SQLite gets the same
        pragmas as :func:`claims.store.engine.make_engine` (WAL, busy timeout, foreign keys).
        Raises :class:`SchemaMissing` when the schema is absent or older than this code,
        ``ValueError`` for a URL scheme other than sqlite/postgresql, and the driver's
        error when the database cannot be opened."""
        url = database_url(db)
        scheme, sep, rest = url.partition("://")
        if scheme.split("+")[0] == "sqlite" and sep:
            path = rest.removeprefix("/")
            if path in ("", ":memory:"):
                raise SchemaMissing("an in-memory database has no schema; use a file")
            import sqlite3

            if not Path(path).exists():
                raise SchemaMissing(f"{path}: no such database (run `tracker load` first)")
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
            sqlite_pragmas(conn)
            raw = cls(conn, "sqlite")
        elif scheme.split("+")[0] in ("postgresql", "postgres") and sep:
            import psycopg

            raw = cls(psycopg.connect("postgresql://" + rest), "postgresql")
        else:
            raise ValueError(f"unsupported database URL {url!r} (sqlite:/// or postgresql://)")
        try:
            raw.check_schema()
        except BaseException:
            raw.close()  # not left to the garbage collector (a ResourceWarning)
            raise
        return raw

    @classmethod
    def from_engine(cls, engine: Any) -> RawDB:
        """A pooled DB-API connection of a SQLAlchemy ``engine`` (made by
        :func:`claims.store.engine.make_engine`, so its schema and pragmas are in place); closing
        returns it to the pool."""
        fairy = engine.raw_connection()
        dialect = "sqlite" if engine.dialect.name == "sqlite" else "postgresql"
        return cls(fairy.driver_connection, dialect, release=fairy.close)

    @classmethod
    def from_connection(cls, connection: Any) -> RawDB:
        """Statements run through a SQLAlchemy ``connection`` (e.g. an ORM session's,
        ``session.connection()``): in its transaction, raising SQLAlchemy's error types,
        with values stored as this class stores them. Closing leaves the connection open."""
        dialect = "sqlite" if connection.dialect.name == "sqlite" else "postgresql"
        raw = cls(connection.connection.driver_connection, dialect, release=lambda: None)
        raw._through = connection
        return raw

    def check_schema(self) -> None:
        """Raise :class:`SchemaMissing` unless ``alembic_version`` records
        :data:`SCHEMA_HEAD` (plain SQL: no alembic import, no write; a read-only role
        passes). The message says what to run."""
        try:
            row = self.one("SELECT version_num FROM alembic_version")
        except Exception as exc:  # noqa: BLE001 - the driver's "no such table"
            self.rollback()
            legacy = self._has_table("schemaversion")
            if legacy:
                raise SchemaMissing(
                    "the database schema is release 0.1.0's, older than this release's "
                    f"(revision {SCHEMA_HEAD}): run `tracker db upgrade`"
                ) from None
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise SchemaMissing(
                f"no release-tracker schema in this database ({reason}); create it: "
                "`tracker db upgrade --db URL`, or `tracker load`/`tracker demo` with --db"
            ) from exc
        revision = row[0] if row else None
        if revision == SCHEMA_HEAD:
            return
        if revision in SCHEMA_REVISIONS:
            raise SchemaMissing(
                f"the database schema is at revision {revision}, older than this release's "
                f"{SCHEMA_HEAD}: run `tracker db upgrade`"
            )
        raise SchemaMissing(
            f"the database schema is at revision {revision}, which this release does not "
            f"know (its newest is {SCHEMA_HEAD}): use the release that made it"
        )

    def _has_table(self, name: str) -> bool:
        sql = (
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :name"
            if self.dialect == "sqlite"
            else "SELECT 1 FROM information_schema.tables WHERE table_name = :name"
        )
        try:
            return self.one(sql, {"name": name}) is not None
        finally:
            self.rollback()

    def _prepare(self, sql: str) -> str:
        if self.dialect == "sqlite":
            return sql
        out = self._sql.get(sql)
        if out is None:
            out = self._sql[sql] = _PARAM.sub(r"%(\1)s", sql)
        return out

    def param(self, value: Any) -> Any:
        """A Python value as this driver should receive it (datetimes in UTC, as stored)."""
        if isinstance(value, dt.datetime):
            if value.tzinfo is None:  # as SQLModel's UTCDateTime: never guess a zone
                raise ValueError("datetimes must be timezone-aware (UTC is stored)")
            if self.dialect != "sqlite":
                return value.astimezone(dt.UTC)
            text = self._dt_text.get(value)
            if text is None:
                if len(self._dt_text) > 256:
                    self._dt_text.clear()
                text = self._dt_text[value] = sqlite_datetime(value)
            return text
        return value

    def _params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        out = dict(params or {})
        for k, v in out.items():
            if isinstance(v, dt.datetime):
                out[k] = self.param(v)
        return out

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        """Run one statement; returns the DB-API cursor (iterate it for rows as tuples;
        through a SQLAlchemy connection, its result, which iterates the same)."""
        if self._through is not None:
            return self._through.exec_driver_sql(self._prepare(sql), self._params(params))
        cur = self.conn.cursor()
        cur.execute(self._prepare(sql), self._params(params))
        return cur

    def executemany(self, sql: str, rows: Iterable[Mapping[str, Any]]) -> None:
        """Run one statement for each parameter mapping in ``rows``."""
        batch = [self._params(r) for r in rows]
        if batch:
            self.conn.cursor().executemany(self._prepare(sql), batch)

    def insert(self, table: str, row: Mapping[str, Any]) -> int:
        """INSERT ``row`` (column -> value) into ``table``; returns the new ``id``."""
        cols = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join(f":{c}" for c in row)
        sql = f"INSERT INTO {table} ({cols}) VALUES ({marks})"
        if self.dialect == "sqlite":
            return int(self.execute(sql, row).lastrowid)
        return int(self.execute(sql + " RETURNING id", row).fetchone()[0])

    def one(self, sql: str, params: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        """The first row of a query, or None."""
        return self.execute(sql, params).fetchone()

    def datetime(self, value: Any) -> dt.datetime | None:
        """A stored datetime (SQLite text or a driver datetime) as aware UTC, or None."""
        if value is None:
            return None
        if isinstance(value, str):
            value = dt.datetime.fromisoformat(value)
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)

    @contextmanager
    def transaction(self) -> Iterator[RawDB]:
        """One write transaction: commit on success, roll back on any exception. On SQLite
        it starts with ``BEGIN IMMEDIATE``: the write lock is taken (waiting up to the busy
        timeout) before anything is read, so the reads see what the writes build on.

        Inside :meth:`grouped` it is a SAVEPOINT of the group's transaction instead:
        rolled back alone on an exception, made durable by :meth:`commit_group`."""
        if self._grouped:
            with self._savepoint():
                yield self
            return
        if self.dialect == "sqlite":
            self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        self.conn.commit()

    @contextmanager
    def _savepoint(self) -> Iterator[None]:
        if not self._group_open:
            if self.dialect == "sqlite":
                self.conn.execute("BEGIN IMMEDIATE")
            self._group_open = True
        self.conn.execute("SAVEPOINT one")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK TO SAVEPOINT one")
            self.conn.execute("RELEASE SAVEPOINT one")
            raise
        self.conn.execute("RELEASE SAVEPOINT one")

    @contextmanager
    def grouped(self) -> Iterator[RawDB]:
        """Group commit: the :meth:`transaction` blocks run inside become savepoints of
        one transaction that :meth:`commit_group` commits (the caller decides when: a
        BEGIN + COMMIT per watch was about a tenth of a cycle's recording time, issue 7),
        and that is committed when the block ends, also when it ends with an exception
        (the failed block was already rolled back to its savepoint). While a group is
        open the SQLite write lock is held: commit before any wait (e.g. for the
        network). A crash loses the uncommitted blocks whole, never part of one."""
        self._grouped = True
        try:
            yield self
        except BaseException:
            try:
                self.commit_group()
            except Exception:  # noqa: BLE001 - the original error is the one to report
                self._group_open = False
                self.rollback()
            raise
        finally:
            self._grouped = False
        self.commit_group()

    def commit_group(self) -> None:
        """Commit the open group's transaction, if one has begun (see :meth:`grouped`)."""
        if self._group_open:
            self._group_open = False
            try:
                self.conn.commit()
            except BaseException:
                self.rollback()
                raise

    def rollback(self) -> None:
        """Roll back the open transaction, if any."""
        self.conn.rollback()

    def close(self) -> None:
        """Close the connection (or return it to its engine's pool)."""
        self._release()

    def __enter__(self) -> RawDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
