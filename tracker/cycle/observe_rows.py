"""One watch's observation rows inside its recording transaction, read ONCE and written
in batches with Core statements.

Statements are plain SQL run through :class:`claims.store.rawdb.RawDB` (no ORM in a cycle
process). Why batched: recording a value used to cost two SELECTs, an ORM INSERT/UPDATE and a flush per
value (65 % of a 500-page first cycle, bench/RESULTS.md). Reading the watch's rows
once and writing every new row in one ``executemany`` keeps the same rows, ids (new
rows are inserted in the order the values were read), first/last seen and currency.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from claims.store.rawdb import RawDB
from claims.values.canonical import dumps
from claims.values.mojibake import is_misdecoding

Key = tuple[int, str, str]  # subject id, attribute, qualifiers JSON (one per watch)

_ROWS = (
    "SELECT id, subject_id, attribute, qualifiers_json, value_key, value_json, last_seen, "
    "current, snapshot_id FROM observation WHERE watch_id = :wid ORDER BY id"
)
_IDS = (
    "SELECT id, subject_id, attribute, qualifiers_json, value_key FROM observation "
    "WHERE watch_id = :wid"
)
_INSERT = (
    "INSERT INTO observation (subject_id, attribute, qualifiers_json, value_json, value_key, "
    "watch_id, snapshot_id, source_url, first_seen, last_seen, current) VALUES (:subject_id, "
    ":attribute, :qualifiers_json, :value_json, :value_key, :watch_id, :snapshot_id, "
    ":source_url, :first_seen, :last_seen, :current)"
)
_SEEN_AGAIN = (
    "UPDATE observation SET last_seen = :ls, snapshot_id = :sid, current = :cur WHERE id = :oid"
)
_RETIRE = "UPDATE observation SET current = :cur WHERE id = :oid"
# The same value read again with other provenance notes (``extra``: a licence file that
# appeared in the repo's listing): the row keeps the latest reading's notes.
_NOTES = "UPDATE observation SET value_json = :vj WHERE id = :oid"
_CONFIRM = (
    "UPDATE observation SET last_seen = :seen "
    "WHERE watch_id = :wid AND current AND last_seen < :seen"
)
_SAME_SNAPSHOT = (
    "SELECT id FROM snapshot WHERE watch_id = :wid AND url = :url AND sha256 = :sha LIMIT 1"
)
_WEIGHTS_OTHERS = (
    "SELECT watch_id, qualifiers_json, value_json, first_seen FROM observation "
    "WHERE subject_id = :sid AND attribute = 'weights_available' AND value_key = :vk"
)


@dataclass(slots=True)
class Row:
    """The columns of one observation row that recording reads or changes."""

    id: int | None  # None until a pending insert is written
    value_key: str
    value_json: str
    last_seen: dt.datetime
    current: bool
    pending: dict[str, Any] | None = None  # the INSERT's values while not yet written
    snapshot_id: int | None = None  # the body it was last read from


def _misdecoded(stored_json: str, value: dict[str, Any]) -> bool:
    """Whether a new text value is the stored one mis-decoded (cases/C28)."""
    if value.get("kind") != "text" or not isinstance(value.get("value"), str):
        return False
    stored = json.loads(stored_json)
    old = stored.get("value") if stored.get("kind") == "text" else None
    return isinstance(old, str) and is_misdecoding(old, value["value"])


class WatchRows:
    """Every observation row of one watch, keyed by (subject, attribute, qualifiers), with
    the writes still to send. Call :meth:`flush` before anything else reads the table."""

    def __init__(self, s: RawDB, watch_id: int) -> None:
        self.s = s
        self.watch_id = watch_id
        self.by_key: dict[Key, list[Row]] = {}
        self._inserts: list[dict[str, Any]] = []
        self._updates: dict[int, dict[str, Any]] = {}
        self._retired: set[int] = set()
        self._notes: dict[int, str] = {}  # id -> value_json with newer ``extra``
        # Values read differently from the very bytes their current value was read from
        # (cases/C28: a decoding, not a change); kept as they were, counted here.
        self.same_bytes: list[Key] = []
        for oid, sid, attribute, qj, vk, vj, last_seen, current, snap in s.execute(
            _ROWS, {"wid": watch_id}
        ):
            row = Row(oid, vk, vj, s.datetime(last_seen), bool(current), None, snap)  # type: ignore[arg-type]
            self.by_key.setdefault((sid, attribute, qj), []).append(row)

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
        ``at``) and every other current row of the same key becomes not current.

        Identical raw bytes are never a change (cases/C28): when the current value was
        read from this very snapshot (same watch, URL and sha256: one snapshot row) and
        the value now differs, the bytes were decoded or parsed differently, not
        changed: the current row is seen again, nothing is replaced, and the key is
        listed in :attr:`same_bytes`. So is a text value that is the current one decoded
        with the wrong charset (:func:`claims.values.mojibake.is_misdecoding`)."""
        group = self.by_key.setdefault(key, [])
        row = next((r for r in group if r.value_key == value_key), None)
        previous = [r for r in group if r.current and r.value_key != value_key]
        same = [
            r
            for r in previous
            if (snapshot_id is not None and r.snapshot_id == snapshot_id)
            or _misdecoded(r.value_json, value)
        ]
        if same:
            self.same_bytes.append(key)
            row, previous = same[0], []
        if row is None:
            value_json = dumps(value)
            row = Row(None, value_key, value_json, at, True, None, snapshot_id)
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
            row.snapshot_id = snapshot_id
            self._set(row, last_seen=row.last_seen, snapshot_id=snapshot_id, current=True)
            if not same:
                self._renote(row, dumps(value))
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

    def _renote(self, row: Row, value_json: str) -> None:
        """Keep the latest reading's ``extra`` on a row whose value (its key) is unchanged."""
        if value_json == row.value_json:
            return
        row.value_json = value_json
        if row.pending is not None:
            row.pending["value_json"] = value_json
            return
        if row.id is None:
            self._load_ids()
        assert row.id is not None
        self._notes[row.id] = value_json

    def _load_ids(self) -> None:
        """Fill in the ids of rows written by :meth:`flush` (needed only when a row
        inserted earlier in this run changes again after a mid-run flush)."""
        for oid, sid, attribute, qj, vk in self.s.execute(_IDS, {"wid": self.watch_id}):
            for row in self.by_key.get((sid, attribute, qj), []):
                if row.value_key == vk:
                    row.id = oid

    def flush(self) -> None:
        """Send the pending writes: one INSERT (executemany), one UPDATE per row seen
        again (executemany), one UPDATE for the rows no longer current, and one for rows
        whose ``extra`` changed."""
        if self._inserts:
            self.s.executemany(_INSERT, self._inserts)
            for rows in self.by_key.values():
                for row in rows:
                    row.pending = None  # written; its id is not needed by recording
            self._inserts = []
        if self._updates:
            self.s.executemany(
                _SEEN_AGAIN,
                [
                    {"oid": oid, "ls": v["last_seen"], "sid": v["snapshot_id"], "cur": v["current"]}
                    for oid, v in self._updates.items()
                ],
            )
            self._updates = {}
        if self._retired:
            self.s.executemany(
                _RETIRE, [{"oid": oid, "cur": False} for oid in sorted(self._retired)]
            )
            self._retired = set()
        if self._notes:
            self.s.executemany(_NOTES, [{"oid": o, "vj": v} for o, v in self._notes.items()])
            self._notes = {}


def confirm_current(s: RawDB, watch_id: int, seen_at: dt.datetime) -> None:
    """A 304: every current value of the watch is seen again at ``seen_at`` (one UPDATE;
    ``last_seen`` never moves back)."""
    s.execute(_CONFIRM, {"wid": watch_id, "seen": seen_at})


def snapshot_id(s: RawDB, watch_id: int, url: str, sha256: str, row: dict[str, Any]) -> int | None:
    """Id of this watch's snapshot row with the same URL and body, else of a new row made
    from ``row`` (a body fetched again unchanged is one snapshot, not one per run)."""
    same = s.one(_SAME_SNAPSHOT, {"wid": watch_id, "url": url, "sha": sha256})
    if same is not None:
        return int(same[0])
    return s.insert("snapshot", row)


def weights_others(
    s: RawDB, subject_id: int, value_key: str
) -> list[tuple[int | None, str, str, dt.datetime]]:
    """(watch id, qualifiers JSON, value JSON, first seen) of every ``weights_available``
    row of the subject with this value (all watches); pending writes must be flushed
    first."""
    rows = s.execute(_WEIGHTS_OTHERS, {"sid": subject_id, "vk": value_key}).fetchall()
    return [(wid, qj, vj, s.datetime(first)) for wid, qj, vj, first in rows]  # type: ignore[misc]


_ALIAS_EXISTS = "SELECT 1 FROM subjectalias WHERE namespace = 'huggingface' AND alias = :alias"
_ADD_ALIAS = (
    "INSERT INTO subjectalias (subject_id, namespace, alias) VALUES (:sid, 'huggingface', :alias)"
)


def add_alias(s: RawDB, subject_id: int, repo: str) -> None:
    """Keep ``repo`` (a renamed repo's new id) as a ``huggingface`` alias of the subject,
    so later listings under the new id match it; the old id stays an alias too
    (cases/C34). Nothing when some subject already has that alias."""
    if s.one(_ALIAS_EXISTS, {"alias": repo}) is None:
        s.execute(_ADD_ALIAS, {"sid": subject_id, "alias": repo})


_SUBJECT_HUB = "SELECT hub_org FROM subject WHERE id = :sid"
_SUBJECT_REPOS = (
    "SELECT lower(alias) FROM subjectalias WHERE subject_id = :sid AND namespace = 'huggingface'"
)
_SUBJECT_PRODUCERS = "SELECT DISTINCT watch_id FROM observation WHERE subject_id = :sid"
_HUB_WATCHES = (
    "SELECT id, adapter, url, params_json, last_success, last_error_kind FROM watch "
    "WHERE adapter IN ('huggingface_org', 'huggingface_model') AND id != :wid "
    "AND state != 'retired'"
)


def subject_hub_checks(
    s: RawDB, subject_id: int, watch_id: int
) -> list[tuple[dt.datetime | None, str | None]]:
    """(last successful check, last error kind) of every other live watch that would
    show the subject's weights (as :func:`claims.store.views.hub_watches_of` picks them:
    the ``huggingface_org`` watch of its ``hub_org``, a ``huggingface_model`` watch of
    one of its ``huggingface`` ids or that observed it), so a landing seen first by one
    watch is bounded by the checks of all (issue 16: the landing window)."""
    row = s.one(_SUBJECT_HUB, {"sid": subject_id})
    org = str(row[0] or "").lower() if row else ""
    repos = {str(r[0]) for r in s.execute(_SUBJECT_REPOS, {"sid": subject_id}).fetchall()}
    producers = {r[0] for r in s.execute(_SUBJECT_PRODUCERS, {"sid": subject_id}).fetchall()}
    out = []
    for wid, adapter, url, params_json, last_success, kind in s.execute(
        _HUB_WATCHES, {"wid": watch_id}
    ).fetchall():
        p = json.loads(params_json or "{}")
        if adapter == "huggingface_org":
            mine = bool(org) and str(p.get("org") or p.get("author") or "").lower() == org
        else:
            repo = p.get("repo") or p.get("repo_id") or _repo_of_url(str(url))
            mine = str(repo or "").lower() in repos or wid in producers
        if mine:
            out.append((s.datetime(last_success), kind))
    return out


def _repo_of_url(url: str) -> str | None:
    path = url.split("://", 1)[-1].partition("/")[2].split("?")[0]
    if path.startswith("api/models/"):
        return "/".join(path.removeprefix("api/models/").split("/")[:2]) or None
    return None
