"""Content-addressed store of fetched bodies: one SQLite file, ``<root>/bodies.sqlite3``
(on PostgreSQL, the database's own table instead: :func:`open_store`).

Input: bytes; output: their sha256 (hex). Storage only; the refetch policy
(validators, 304) lives in ``tracker.net.fetch`` (the scrapy httpcache split).

Why SQLite and not a file per body: small blobs read and write faster from one SQLite
file than from the filesystem ("35 % Faster Than The Filesystem",
https://www.sqlite.org/fasterthanfs.html). Here one file per body cost ~1 ms of kernel
time per page, a quarter of a first cycle's CPU (issue 7; bench/RESULTS.md), against
~0.07 ms for a row. Bodies stored by earlier versions as ``<root>/<sha[:2]>/<sha>``
files are still read.

Schema versions: the file records its schema in SQLite's own ``PRAGMA user_version``
(https://www.sqlite.org/pragma.html#pragma_user_version), upgraded on open by the steps
in :data:`UPGRADES`, each in one transaction with the new number (version 0: a new file,
or one an earlier release made with the same ``body`` table and no number). Not alembic,
which versions the claims database (PostgreSQL keeps its bodies there, revision 0003):
this file is a side cache of one table, opened by the cycle's fetch workers with no ORM
or migration environment loaded, which alembic's version table and script folder would
add for one ``CREATE TABLE`` (docs/database.md, "Snapshot bodies"). A file of a newer
schema than this code knows, or one that is not a SQLite database, is refused with a
:class:`~tracker.errors.BodyStoreError` naming it, and left exactly as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from tracker.errors import BodyStoreError

if TYPE_CHECKING:
    from claims.store.bodies import TableBodies

SNAPSHOT_FOLDER = "snapshots"  # beside the SQLite database file (default_root)
DEFAULT_ROOT = Path("data") / SNAPSHOT_FOLDER  # that of the default data/tracker.db
FILE_NAME = "bodies.sqlite3"
_SHA = re.compile(r"^[0-9a-f]{64}$")
# UPGRADES[n] takes a file from schema version n to n + 1 (statements run in one
# transaction, which also sets the new version). Append; never edit a shipped step.
UPGRADES: tuple[tuple[str, ...], ...] = (
    # 0 -> 1: the body table (files of earlier releases have it already: a no-op there).
    ("CREATE TABLE IF NOT EXISTS body (sha256 TEXT PRIMARY KEY, data BLOB NOT NULL)",),
)
SCHEMA_VERSION = len(UPGRADES)


class BodyStore(Protocol):
    """What the cycle and ``tracker snapshot`` need of a body store: :class:`SnapshotStore`
    (the local file) or :class:`claims.store.bodies.TableBodies` (the database's table)."""

    def put(self, body: bytes, sha: str | None = None) -> str: ...
    def get(self, sha: str) -> bytes: ...
    def find(self, prefix: str, limit: int = 10) -> list[str]: ...
    def __contains__(self, sha: str) -> bool: ...
    def check(self) -> None: ...
    def close(self) -> None: ...


def _check(sha: str) -> str:
    if not _SHA.match(sha):
        raise ValueError(f"not a sha256 hex digest: {sha!r}")
    return sha


def _upgrade(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the open file at ``path`` to :data:`SCHEMA_VERSION`, or raise BodyStoreError
    (nothing changed) when it is newer. One ``BEGIN IMMEDIATE`` transaction: two
    processes opening an old file upgrade it once."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    if version > SCHEMA_VERSION:
        raise BodyStoreError(
            f"{path}: snapshot body file has schema version {version}, newer than this "
            f"release-tracker knows ({SCHEMA_VERSION}); upgrade release-tracker (the file "
            "was not changed)"
        )
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # under the lock
        for steps in UPGRADES[version:]:
            for statement in steps:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@contextmanager
def _named(path: Path) -> Iterator[None]:
    """sqlite3's "file is not a database" / "database disk image is malformed" as a
    BodyStoreError naming ``path`` (a locked or busy file stays sqlite3's own error)."""
    try:
        yield
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as exc:
        raise BodyStoreError(
            f"{path}: snapshot body file cannot be read: {exc} (the file was not changed; "
            "move it aside to start an empty one, or restore it from a backup)"
        ) from exc


class SnapshotStore:
    """Bodies keyed by sha256 in ``root/bodies.sqlite3`` (commands pass
    :func:`default_root`: ``snapshots/`` beside the database file; ``data/snapshots/``,
    git-ignored, for the default database).

    ``put`` is idempotent and atomic: each body is one committed transaction (WAL
    journal), so a killed process never leaves half a body, and a body is stored before
    the observations that cite it are recorded (after a power loss the last commits may
    be gone; the body is fetched again). Thread-safe (one connection behind a lock;
    the cycle's fetch workers share a store); several processes may share the file
    (SQLite's locking, 30 s busy timeout). The file is opened on first use; ``close``
    (or ``with``) releases it.
    """

    def __init__(self, root: str | os.PathLike[str] = DEFAULT_ROOT) -> None:
        self.root = Path(root)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        """The open connection (caller holds the lock); creates root and file, upgrades
        its schema; raises BodyStoreError for a newer or unreadable file."""
        if self._conn is None:
            self.root.mkdir(parents=True, exist_ok=True)
            path = self.root / FILE_NAME
            conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            try:
                with _named(path):
                    _upgrade(conn, path)  # before WAL: a newer file is left as it was
                    self._configure(conn)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives the process being killed (not a power loss,
        # which may drop the last commits; a body is refetched then).
        conn.execute("PRAGMA synchronous=NORMAL")
        # Write-mostly (a cycle never reads a body back): a small page cache keeps a
        # long cycle's memory flat (issue 7: RSS at 5,000 pages) instead of 2 MiB.
        conn.execute("PRAGMA cache_size=-256")

    def check(self) -> None:
        """Open the file now (creating or upgrading it): raises BodyStoreError naming it
        when it is newer than this code or not a database, before a cycle fetches."""
        with self._lock:
            self._db()

    def path(self, sha: str) -> Path:
        """Where an earlier version filed the body of ``sha`` (read as a fallback);
        raises ValueError for a malformed digest."""
        return self.root / _check(sha)[:2] / sha

    def put(self, body: bytes, sha: str | None = None) -> str:
        """Store ``body``; return its sha256 hex digest. ``sha``, when the caller already
        has it (a fetch hashes every body), saves hashing twice; it must be the body's
        (ValueError when it is not a digest)."""
        sha = hashlib.sha256(body).hexdigest() if sha is None else _check(sha)
        with self._lock, _named(self.root / FILE_NAME):
            self._db().execute("INSERT OR IGNORE INTO body VALUES (?, ?)", (sha, body))
        return sha

    def _row(self, sha: str) -> bytes | None:
        if self._conn is None and not (self.root / FILE_NAME).exists():
            return None  # reading must not create a store
        with self._lock, _named(self.root / FILE_NAME):
            row = self._db().execute("SELECT data FROM body WHERE sha256 = ?", (sha,)).fetchone()
        return None if row is None else bytes(row[0])

    def __contains__(self, sha: str) -> bool:
        return self._row(_check(sha)) is not None or self.path(sha).exists()

    def get(self, sha: str) -> bytes:
        """The stored body; raises KeyError naming ``sha`` when absent, ValueError for a
        malformed digest."""
        body = self._row(_check(sha))
        if body is not None:
            return body
        try:
            return self.path(sha).read_bytes()
        except FileNotFoundError:
            raise KeyError(f"snapshot {sha} is not in {self.root}") from None

    def find(self, prefix: str, limit: int = 10) -> list[str]:
        """Stored digests starting with ``prefix`` (hex, as the site shows a snapshot's
        short hash), sorted, at most ``limit``; raises ValueError for a prefix that is not
        4 to 64 hex digits (4, as git asks of an abbreviated hash)."""
        if not re.fullmatch(r"[0-9a-f]{4,64}", prefix):
            raise ValueError(
                f"not the start of a sha256 hex digest: {prefix!r} (give 4 to 64 hex digits)"
            )
        found: set[str] = set()
        if self._conn is not None or (self.root / FILE_NAME).exists():
            with self._lock, _named(self.root / FILE_NAME):
                rows = self._db().execute(
                    "SELECT sha256 FROM body WHERE sha256 >= ? AND sha256 < ? LIMIT ?",
                    (prefix, prefix + "g", limit),
                )
                found.update(r[0] for r in rows)
        if (self.root / prefix[:2]).is_dir():  # an earlier version's files
            found.update(p.name for p in (self.root / prefix[:2]).glob(prefix + "*"))
        return sorted(sha for sha in found if _SHA.match(sha))[:limit]

    def close(self) -> None:
        """Close the file (a later call opens it again)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> SnapshotStore:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def follows_database(db: str | os.PathLike[str] | None) -> bool:
    """Whether bodies for the database ``db`` (path or URL, see
    :func:`claims.store.rawdb.database_url`; None: ``TRACKER_DATABASE_URL``, else the
    default file) are stored in it: PostgreSQL yes (a team on
    several hosts shares them), SQLite no (the local file)."""
    from claims.store.rawdb import database_url
    from tracker import settings

    scheme = database_url(db or settings.database_url()).partition("://")[0]
    return scheme.split("+")[0] in ("postgresql", "postgres")


def default_root(db: str | os.PathLike[str] | None) -> Path:
    """The snapshot folder of the SQLite database ``db`` (path or URL; None:
    ``TRACKER_DATABASE_URL``, else the default file) when ``--snapshots`` is not given:
    ``snapshots/`` beside the database file, so the default ``data/tracker.db`` keeps
    ``data/snapshots/`` and ``--db elsewhere/my.db`` gets ``elsewhere/snapshots/``
    wherever the command runs from. The one rule (every command and the scheduler use
    it); an in-memory database gets :data:`DEFAULT_ROOT`. Relative as ``db`` is."""
    from claims.store.rawdb import database_url
    from tracker import settings

    scheme, _, rest = database_url(db or settings.database_url()).partition("://")
    # sqlite:///relative/file.db, sqlite:////absolute/file.db (query string dropped)
    file = rest[1:].partition("?")[0] if scheme.split("+")[0] == "sqlite" else ""
    if not file or file == ":memory:":
        return DEFAULT_ROOT
    return Path(file).parent / SNAPSHOT_FOLDER


def legacy_roots(root: str | os.PathLike[str]) -> list[Path]:
    """Where earlier releases filed bodies for every database, ``data/snapshots/`` under
    the folder a command ran in, that exist and are not ``root`` (the hint of a lookup
    that finds nothing): under the current folder, and under the database's own folder
    (``root``'s parent, for the default ``root``), where a user who ran there has them."""
    found: list[Path] = []
    for folder in (DEFAULT_ROOT, Path(root).parent / DEFAULT_ROOT):
        resolved = folder.resolve()
        if folder.is_dir() and resolved != Path(root).resolve():
            if all(resolved != f.resolve() for f in found):
                found.append(folder)
    return found


def open_store(
    db: str | os.PathLike[str] | None, root: str | os.PathLike[str] | None = None
) -> SnapshotStore | TableBodies:  # both are BodyStores
    """The body store for database ``db``: its ``snapshotbody`` table on PostgreSQL
    (:class:`claims.store.bodies.TableBodies`), else the file under ``root`` (None:
    :func:`default_root`, beside the database file)."""
    if follows_database(db):
        from claims.store.bodies import TableBodies
        from tracker import settings

        return TableBodies(db or settings.database_url())
    return SnapshotStore(default_root(db) if root is None else root)
