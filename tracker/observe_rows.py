"""One watch's observation rows inside its recording transaction, read ONCE and written
in batches with Core statements.

Why: recording a value used to cost two SELECTs, an ORM INSERT/UPDATE and a flush per
value (65 % of a 500-page first cycle, bench/RESULTS.md). Reading the watch's rows
once and writing every new row in one ``executemany`` keeps the same rows, ids (new
rows are inserted in the order the values were read), first/last seen and currency.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlmodel import Session

from claims.models import Observation, Snapshot, as_utc, dumps

OBS = Observation.__table__  # type: ignore[attr-defined]
SNAP = Snapshot.__table__  # type: ignore[attr-defined]

Key = tuple[int, str, str]  # subject id, attribute, qualifiers JSON (one per watch)

# Statements built once with bound parameters: building and hashing a new statement
# object per watch cost more CPU than running it (profile of a 300-page first cycle).
_ROWS = select(OBS.c.id, OBS.c.subject_id, OBS.c.attribute, OBS.c.qualifiers_json,
               OBS.c.value_key, OBS.c.value_json, OBS.c.last_seen, OBS.c.current).where(
    OBS.c.watch_id == bindparam("wid")).order_by(OBS.c.id)  # fmt: skip
_INSERT = insert(OBS)
_SEEN_AGAIN = (
    update(OBS)
    .where(OBS.c.id == bindparam("oid"))
    .values(last_seen=bindparam("ls"), snapshot_id=bindparam("sid"), current=bindparam("cur"))
)
_CONFIRM = (
    update(OBS)
    .where(OBS.c.watch_id == bindparam("wid"), OBS.c.current, OBS.c.last_seen < bindparam("seen"))
    .values(last_seen=bindparam("seen"))
)
_SAME_SNAPSHOT = (
    select(SNAP.c.id)
    .where(
        SNAP.c.watch_id == bindparam("wid"),
        SNAP.c.url == bindparam("url"),
        SNAP.c.sha256 == bindparam("sha"),
    )
    .limit(1)
)
_NEW_SNAPSHOT = insert(SNAP)


@dataclass(slots=True)
class Row:
    """The columns of one observation row that recording reads or changes."""

    id: int | None  # None until a pending insert is written
    value_key: str
    value_json: str
    last_seen: dt.datetime
    current: bool
    pending: dict[str, Any] | None = None  # the INSERT's values while not yet written


class WatchRows:
    """Every observation row of one watch, keyed by (subject, attribute, qualifiers), with
    the writes still to send. Call :meth:`flush` before anything else reads the table."""

    def __init__(self, s: Session, watch_id: int) -> None:
        self.s = s
        self.watch_id = watch_id
        self.by_key: dict[Key, list[Row]] = {}
        self._inserts: list[dict[str, Any]] = []
        self._updates: dict[int, dict[str, Any]] = {}
        self._retired: set[int] = set()
        for r in s.execute(_ROWS, {"wid": watch_id}):
            row = Row(r.id, r.value_key, r.value_json, as_utc(r.last_seen), bool(r.current))
            self.by_key.setdefault((r.subject_id, r.attribute, r.qualifiers_json), []).append(row)

    def record(
        self,
        key: Key,
        value_key: str,
        value: dict[str, Any],
        at: dt.datetime,
        snapshot_id: int | None,
        source_url: str,
    ) -> tuple[bool, Row | None]:
        """Record one value: returns (new row, the replaced current row or None).

        The same value seen again gets ``last_seen`` = ``at`` (never earlier), this
        snapshot, and is current again; a new value is a new row (first = last seen =
        ``at``) and every other current row of the same key becomes not current."""
        group = self.by_key.setdefault(key, [])
        row = next((r for r in group if r.value_key == value_key), None)
        previous = [r for r in group if r.current and r.value_key != value_key]
        if row is None:
            value_json = dumps(value)
            row = Row(None, value_key, value_json, at, True)
            group.append(row)
            row.pending = {
                "subject_id": key[0],
                "attribute": key[1],
                "qualifiers_json": key[2],
                "value_json": value_json,
                "value_key": value_key,
                "watch_id": self.watch_id,
                "snapshot_id": snapshot_id,
                "source_url": source_url,
                "first_seen": at,
                "last_seen": at,
                "current": True,
            }
            self._inserts.append(row.pending)
            new_row = True
        else:
            row.last_seen = max(row.last_seen, at)
            row.current = True
            self._set(row, last_seen=row.last_seen, snapshot_id=snapshot_id, current=True)
            new_row = False
        for old in previous:
            old.current = False
            self._set(old, current=False)
        return new_row, (previous[0] if previous else None)

    def _set(self, row: Row, **values: Any) -> None:
        if row.pending is not None:  # still a pending insert of this run
            row.pending.update(values)
            return
        if row.id is None:  # inserted by an earlier flush of this run
            self._load_ids()
        if values == {"current": False}:
            assert row.id is not None
            self._updates.pop(row.id, None)
            self._retired.add(row.id)
        else:
            assert row.id is not None
            self._retired.discard(row.id)
            self._updates[row.id] = values

    def _load_ids(self) -> None:
        """Fill in the ids of rows written by :meth:`flush` (needed only when a row
        inserted earlier in this run changes again after a mid-run flush)."""
        cols = (OBS.c.id, OBS.c.subject_id, OBS.c.attribute, OBS.c.qualifiers_json,
                OBS.c.value_key)  # fmt: skip
        for r in self.s.execute(select(*cols).where(OBS.c.watch_id == self.watch_id)):
            for row in self.by_key.get((r.subject_id, r.attribute, r.qualifiers_json), []):
                if row.value_key == r.value_key:
                    row.id = r.id

    def flush(self) -> None:
        """Send the pending writes: one INSERT (executemany), one UPDATE per row seen
        again (executemany) and one UPDATE for the rows no longer current."""
        if self._inserts:
            self.s.execute(_INSERT, self._inserts)
            for rows in self.by_key.values():
                for row in rows:
                    row.pending = None  # written; its id is not needed by recording
            self._inserts = []
        if self._updates:
            self.s.execute(
                _SEEN_AGAIN,
                [
                    {"oid": oid, "ls": v["last_seen"], "sid": v["snapshot_id"], "cur": v["current"]}
                    for oid, v in self._updates.items()
                ],
            )
            self._updates = {}
        if self._retired:
            ids = sorted(self._retired)
            self.s.execute(update(OBS).where(OBS.c.id.in_(ids)).values(current=False))
            self._retired = set()


def confirm_current(s: Session, watch_id: int, seen_at: dt.datetime) -> None:
    """A 304: every current value of the watch is seen again at ``seen_at`` (one UPDATE;
    ``last_seen`` never moves back)."""
    s.execute(_CONFIRM, {"wid": watch_id, "seen": seen_at})


def snapshot_id(
    s: Session, watch_id: int, url: str, sha256: str, row: dict[str, Any]
) -> int | None:
    """Id of this watch's snapshot row with the same URL and body, else of a new row made
    from ``row`` (a body fetched again unchanged is one snapshot, not one per run)."""
    same = s.execute(_SAME_SNAPSHOT, {"wid": watch_id, "url": url, "sha": sha256}).scalar()
    if same is not None:
        return int(same)
    return s.execute(_NEW_SNAPSHOT, row).inserted_primary_key[0]


def weights_others(s: Session, subject_id: int, value_key: str) -> list[tuple[int | None, str]]:
    """(watch id, qualifiers JSON) of every ``weights_available`` row of the subject with
    this value (all watches); pending writes must be flushed first."""
    return [
        (r.watch_id, r.qualifiers_json)
        for r in s.execute(
            select(OBS.c.watch_id, OBS.c.qualifiers_json).where(
                OBS.c.subject_id == subject_id,
                OBS.c.attribute == "weights_available",
                OBS.c.value_key == value_key,
            )
        )
    ]
