"""Snapshot bodies stored in the claims database itself (the ``snapshotbody`` table, schema
revision 0003): what a PostgreSQL deployment uses, so every host of a team (scheduler,
command line) reads the bodies any of them fetched. On SQLite the bodies stay in their
local file (:class:`tracker.snapshots.store.SnapshotStore`); :func:`tracker.snapshots.store.open_store`
picks one by the database.

The same interface as that file store: ``put`` / ``get`` / ``in`` / ``find`` / ``close``.
Plain DB-API through :class:`~claims.store.rawdb.RawDB` (the cycle loads no ORM), on a
connection of its own in autocommit: a body is stored before the observations that cite
it are committed, as with the file.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from types import TracebackType

from claims.store.rawdb import RawDB

_SHA = re.compile(r"^[0-9a-f]{64}$")
_PUT = (
    "INSERT INTO snapshotbody (sha256, data) VALUES (:sha, :data) ON CONFLICT (sha256) DO NOTHING"
)
_GET = "SELECT data FROM snapshotbody WHERE sha256 = :sha"
_FIND = (
    "SELECT sha256 FROM snapshotbody WHERE sha256 >= :low AND sha256 < :high "
    "ORDER BY sha256 LIMIT :n"
)


def _check(sha: str) -> str:
    if not _SHA.match(sha):
        raise ValueError(f"not a sha256 hex digest: {sha!r}")
    return sha


class TableBodies:
    """Bodies keyed by sha256 in the database at ``db`` (a URL or path, see
    :func:`claims.store.rawdb.database_url`). ``put`` is idempotent (``ON CONFLICT DO
    NOTHING``); thread-safe (one connection behind a lock: the cycle's fetch workers
    share a store). The connection opens on first use; ``close`` (or ``with``) ends it.
    Raises :class:`~claims.store.rawdb.SchemaMissing` on first use when the database is
    not at this release's schema."""

    def __init__(self, db: str | os.PathLike[str] | None) -> None:
        self.db = db
        self._raw: RawDB | None = None
        self._lock = threading.Lock()

    def check(self) -> None:
        """Open the connection now: raises SchemaMissing before a cycle fetches when the
        database is not at this release's schema (alembic versions this table)."""
        with self._lock:
            self._conn()

    def _conn(self) -> RawDB:
        if self._raw is None:
            raw = RawDB.open(self.db)
            raw.rollback()  # the schema check's read; from here on, autocommit
            raw.conn.autocommit = True
            self._raw = raw
        return self._raw

    def put(self, body: bytes, sha: str | None = None) -> str:
        """Store ``body``; return its sha256 hex digest (``sha``, when the caller has
        it, must be the body's; ValueError when it is not a digest)."""
        sha = hashlib.sha256(body).hexdigest() if sha is None else _check(sha)
        with self._lock:
            self._conn().execute(_PUT, {"sha": sha, "data": body})
        return sha

    def __contains__(self, sha: str) -> bool:
        with self._lock:
            return self._conn().one(_GET, {"sha": _check(sha)}) is not None

    def get(self, sha: str) -> bytes:
        """The stored body; KeyError naming ``sha`` when absent, ValueError for a
        malformed digest."""
        with self._lock:
            row = self._conn().one(_GET, {"sha": _check(sha)})
        if row is None:
            raise KeyError(f"snapshot {sha} is not in the database")
        return bytes(row[0])

    def find(self, prefix: str, limit: int = 10) -> list[str]:
        """Stored digests starting with ``prefix`` (4 to 64 hex digits, else
        ValueError), sorted, at most ``limit``."""
        if not re.fullmatch(r"[0-9a-f]{4,64}", prefix):
            raise ValueError(
                f"not the start of a sha256 hex digest: {prefix!r} (give 4 to 64 hex digits)"
            )
        with self._lock:
            rows = self._conn().execute(_FIND, {"low": prefix, "high": prefix + "g", "n": limit})
            return [r[0] for r in rows]

    def close(self) -> None:
        """Close the connection (a later call opens it again)."""
        with self._lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = None

    def __enter__(self) -> TableBodies:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
