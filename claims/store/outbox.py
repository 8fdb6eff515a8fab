"""The one writer of event rows: the cycle (plain DB-API) and the ORM writers
(verification, review) both store events through :func:`write_event`.

An event's ``key`` hashes what it says (:func:`claims.events.event_key`), so storing is
``INSERT … ON CONFLICT (key) DO NOTHING`` on SQLite and PostgreSQL alike: two processes
recording the same event at once both succeed and one row is kept (a check-then-insert
alone let the second one fail on the unique index). Rows are the dicts of
:func:`claims.events.event_row`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from claims.events import event_row
from claims.store.rawdb import RawDB

if TYPE_CHECKING:
    from claims.store.tables import Event

_EXISTS = "SELECT 1 FROM event WHERE key = :key"
INSERT_EVENT = (
    "INSERT INTO event (key, kind, audience, subject_id, watch_id, title, detail_json, "
    "created_at) VALUES (:key, :kind, :audience, :subject_id, :watch_id, :title, "
    ":detail_json, :created_at) ON CONFLICT (key) DO NOTHING"
)
EVENT_COLUMNS = ("key", "kind", "audience", "subject_id", "watch_id", "title", "detail_json",
                 "created_at")  # fmt: skip


def write_event(db: RawDB, row: Mapping[str, Any]) -> int:
    """Store one event row unless an event with its key is stored; returns 1 when this
    call added it, else 0. Runs in the caller's transaction.

    The lookup first is not what makes it safe (the ``ON CONFLICT`` is): PostgreSQL draws
    an id from the sequence for every INSERT it attempts, also one the conflict skips, so
    the lookup keeps event ids as dense on PostgreSQL as on SQLite (the same data gives
    the same ids, and the same site, on both)."""
    if db.one(_EXISTS, {"key": row["key"]}) is not None:
        return 0
    return 1 if db.execute(INSERT_EVENT, {c: row[c] for c in EVENT_COLUMNS}).rowcount else 0


class Outbox:
    """The events of one transaction, written through :func:`write_event`; a key already
    written by this transaction is not looked up again. ``added`` counts new rows."""

    def __init__(self, db: RawDB) -> None:
        self.db = db
        self.keys: set[str] = set()
        self.added = 0

    def add(self, row: Mapping[str, Any]) -> None:
        """Write ``row`` (from :func:`claims.events.event_row`) unless seen or stored."""
        if row["key"] in self.keys:
            return
        self.keys.add(row["key"])
        self.added += write_event(self.db, row)


def session_db(session: Any) -> RawDB:
    """A SQLModel/SQLAlchemy ``session``'s connection as a :class:`RawDB`
    (:meth:`RawDB.from_connection`): what it writes joins the session's transaction
    (pending ORM changes are flushed first, so they come before it)."""
    session.flush()
    return RawDB.from_connection(session.connection())


def add_event(session: Any, event: Any) -> int:
    """Store ``event`` (an :class:`~claims.store.tables.Event` not yet added, e.g. from
    :func:`claims.events.make_event`, or an :func:`~claims.events.event_row` dict) in the
    ``session``'s transaction through :func:`write_event`; returns 1 when added, 0 when an
    event with its key is stored (a re-run, a restart or a second process)."""
    row = event if isinstance(event, Mapping) else {c: getattr(event, c) for c in EVENT_COLUMNS}
    return write_event(session_db(session), row)


def make_event(
    kind: str,
    title: str,
    *,
    subject_id: int | None = None,
    watch_id: int | None = None,
    detail: dict[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> Event:
    """:func:`claims.events.event_row` as an :class:`~claims.store.tables.Event` (not yet
    added to a session). Raises KeyError for unknown kinds."""
    from claims.store.tables import Event  # the ORM only for callers that use it, not the cycle

    row = event_row(kind, title, subject_id=subject_id, watch_id=watch_id, detail=detail, at=at)
    return Event(**row)
