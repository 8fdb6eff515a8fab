"""Rows of the claims database as plain objects, read through :class:`RawDB` (no ORM).

Why: ``tracker build`` only reads, and importing SQLAlchemy + SQLModel + pydantic was a
third of a one-claim rebuild in a new process (0.5 of 1.5 CPU s, bench/RESULTS.md).
Each class here mirrors one table of :mod:`claims.store.tables` (same attribute names,
same ``qualifiers`` / ``value`` / ``params`` / ``short_name`` helpers), so code written
against the ORM rows reads these unchanged. Values are as the ORM gives them, a little
stricter: datetimes are aware UTC on every database (the ORM hands SQLite's back naive,
which every reader passes through :func:`claims.values.canonical.as_utc`), booleans are
``bool`` (SQLite stores 0/1), JSON columns stay text.

:func:`reader` gives a :class:`RawDB` for either a RawDB or an ORM ``Session`` (its
connection, in its transaction), so one query serves the site and the ORM commands.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from claims.store.rawdb import RawDB
from claims.subjects.sourcenames import base_name
from claims.values.value import Value


def reader(db: Any) -> RawDB:
    """``db`` itself when it is a :class:`RawDB`; for an ORM ``Session``, a RawDB over
    its connection (pending changes flushed first, so the reads see them; closing it
    leaves the session's connection open)."""
    if isinstance(db, RawDB):
        return db
    db.flush()
    return RawDB.from_connection(db.connection())


class _StoredValue:
    """The ``qualifiers`` and ``value`` of a row with ``qualifiers_json`` and
    ``value_json`` columns (claims, observations), parsed as the ORM tables do."""

    __slots__ = ()
    qualifiers_json: str
    value_json: str

    @property
    def qualifiers(self) -> dict[str, str]:
        """The stored qualifiers."""
        return json.loads(self.qualifiers_json)  # type: ignore[no-any-return]

    @property
    def value(self) -> Value:
        """The stored value."""
        return Value.from_dict(json.loads(self.value_json))


@dataclass(slots=True)
class SubjectRow:
    """A ``subject`` row (:class:`claims.store.tables.Subject`)."""

    TABLE: ClassVar[str] = "subject"
    id: int
    slug: str
    name: str
    organization: str | None
    family: str | None
    hub_org: str | None
    description: str | None


@dataclass(slots=True)
class AliasRow:
    """A ``subjectalias`` row (:class:`claims.store.tables.SubjectAlias`)."""

    TABLE: ClassVar[str] = "subjectalias"
    id: int
    subject_id: int
    namespace: str
    alias: str


@dataclass(slots=True)
class SourceRow:
    """A ``source`` row (:class:`claims.store.tables.Source`)."""

    TABLE: ClassVar[str] = "source"
    id: int
    key: str
    url: str | None
    title: str
    publisher: str | None
    published: str | None
    published_precision: str | None
    language: str | None
    kind: str

    @property
    def short_name(self) -> str:
        """As :attr:`claims.store.tables.Source.short_name`."""
        return base_name(self)


@dataclass(slots=True)
class ClaimRow(_StoredValue):
    """A ``claim`` row (:class:`claims.store.tables.Claim`)."""

    TABLE: ClassVar[str] = "claim"
    TIMES: ClassVar[tuple[str, ...]] = ("created_at",)
    id: int
    key: str
    subject_id: int
    attribute: str
    qualifiers_json: str
    value_json: str
    raw_text: str | None
    source_id: int
    claimant: str | None
    locator: str | None
    stated_date: str | None
    note: str | None
    created_at: dt.datetime
    origin: str | None


@dataclass(slots=True)
class WatchRow:
    """A ``watch`` row (:class:`claims.store.tables.Watch`)."""

    TABLE: ClassVar[str] = "watch"
    TIMES: ClassVar[tuple[str, ...]] = ("last_run", "last_success", "failing_since")
    id: int
    name: str
    adapter: str
    url: str
    params_json: str
    interval_minutes: int
    state: str
    consecutive_failures: int
    last_run: dt.datetime | None
    last_success: dt.datetime | None
    last_error: str | None
    last_error_kind: str | None
    skip_reason: str | None
    failing_since: dt.datetime | None
    etag: str | None
    last_modified: str | None

    @property
    def params(self) -> dict[str, Any]:
        """The stored adapter parameters."""
        return json.loads(self.params_json)  # type: ignore[no-any-return]


@dataclass(slots=True)
class ScheduleRow:
    """A ``schedulestate`` row (:class:`claims.store.tables.ScheduleState`)."""

    TABLE: ClassVar[str] = "schedulestate"
    TIMES: ClassVar[tuple[str, ...]] = ("next_run_at", "last_started_at", "last_finished_at")
    job_id: str
    next_run_at: dt.datetime | None
    last_started_at: dt.datetime | None
    last_finished_at: dt.datetime | None
    last_outcome: str | None
    last_error: str | None


@dataclass(slots=True)
class SnapshotRow:
    """The columns of a ``snapshot`` row the site shows (:class:`claims.store.tables.Snapshot`)."""

    TABLE: ClassVar[str] = "snapshot"
    TIMES: ClassVar[tuple[str, ...]] = ("fetched_at",)
    id: int
    url: str
    sha256: str
    fetched_at: dt.datetime


@dataclass(slots=True)
class ObservationRow(_StoredValue):
    """An ``observation`` row (:class:`claims.store.tables.Observation`)."""

    TABLE: ClassVar[str] = "observation"
    TIMES: ClassVar[tuple[str, ...]] = ("first_seen", "last_seen")
    FLAGS: ClassVar[tuple[str, ...]] = ("current",)
    id: int
    subject_id: int
    attribute: str
    qualifiers_json: str
    value_json: str
    value_key: str
    watch_id: int | None
    snapshot_id: int | None
    source_url: str | None
    first_seen: dt.datetime
    last_seen: dt.datetime
    current: bool


@dataclass(slots=True)
class DiscrepancyRow:
    """A ``discrepancy`` row (:class:`claims.store.tables.Discrepancy`)."""

    TABLE: ClassVar[str] = "discrepancy"
    TIMES: ClassVar[tuple[str, ...]] = ("opened_at", "closed_at")
    id: int
    key: str
    subject_id: int
    attribute: str
    rule: str
    claim_ids_json: str
    observation_ids_json: str
    state: str
    reason: str
    note: str | None
    opened_at: dt.datetime
    closed_at: dt.datetime | None


@dataclass(slots=True)
class EventRow:
    """An ``event`` row (:class:`claims.store.tables.Event`)."""

    TABLE: ClassVar[str] = "event"
    TIMES: ClassVar[tuple[str, ...]] = ("created_at",)
    id: int
    key: str
    kind: str
    audience: str
    subject_id: int | None
    watch_id: int | None
    title: str
    detail_json: str
    created_at: dt.datetime


R = TypeVar("R")


_LAYOUTS: dict[Any, tuple[str, list[int], list[int]]] = {}


def _layout(cls: Any) -> tuple[str, list[int], list[int]]:
    """The column list of ``cls``'s SELECT and the positions of its datetime and
    boolean columns (worked out once per class)."""
    if cls in _LAYOUTS:
        return _LAYOUTS[cls]
    names = [f.name for f in fields(cls)]
    times, flags = getattr(cls, "TIMES", ()), getattr(cls, "FLAGS", ())
    layout = _LAYOUTS[cls] = (
        ", ".join(f'"{n}"' for n in names),
        [i for i, n in enumerate(names) if n in times],
        [i for i, n in enumerate(names) if n in flags],
    )
    return layout


def read_rows(
    raw: RawDB, cls: type[R], tail: str = "", params: Mapping[str, Any] | None = None
) -> list[R]:
    """Rows of ``cls``'s table as ``cls`` objects: ``SELECT <its columns> FROM <table>
    <tail>``, ``tail`` being the statement's WHERE / ORDER BY text (``:name`` parameters
    from ``params``). Datetimes become aware UTC (:meth:`RawDB.datetime`), flags bool."""
    columns, times, flags = _layout(cls)
    sql = f"SELECT {columns} FROM {cls.TABLE} {tail}"  # type: ignore[attr-defined]
    rows = raw.execute(sql, params).fetchall()
    if not times and not flags:
        return [cls(*r) for r in rows]
    out = []
    for r in rows:
        values = list(r)
        for i in times:
            values[i] = raw.datetime(values[i])
        for i in flags:
            values[i] = bool(values[i])
        out.append(cls(*values))
    return out
