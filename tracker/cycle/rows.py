"""What a check cycle reads from the database before and while it runs: watch specs a
page at a time, the alias index, subject names on demand. Plain SQL through
:class:`claims.store.rawdb.RawDB` (no ORM in a cycle process), sized so memory barely grows
with the number of watches (issue 7).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NamedTuple

from claims.store.rawdb import RawDB
from claims.subjects.matching import AliasIndex
from claims.vocabulary import RETIRED_STATE
from tracker.cycle.types import WatchSpec


class _SubjectRow(NamedTuple):
    id: int
    name: str
    hub_org: str | None


class _AliasRow(NamedTuple):
    subject_id: int
    namespace: str
    alias: str


_WATCH_PAGE = (
    "SELECT id, name, adapter, url, params_json, etag, last_modified FROM watch "
    f"WHERE name > :after AND state != '{RETIRED_STATE}' ORDER BY name LIMIT :n"
)
WATCH_NAMED = "SELECT id FROM watch WHERE name = :name"
WATCH_RETIRED = f"SELECT id FROM watch WHERE name = :name AND state = '{RETIRED_STATE}'"
WATCH_PAGE_ROWS = 256


def iter_specs(raw: RawDB, wanted: set[str] | None) -> Iterator[WatchSpec]:
    """Watch specs in name order (only ``wanted`` names when given), read a page of rows
    at a time (keyset pagination on the unique name), so a cycle never holds every
    watch's params at once. No cursor stays open across the recording commits."""
    after = ""
    while True:
        rows = raw.execute(_WATCH_PAGE, {"after": after, "n": WATCH_PAGE_ROWS}).fetchall()
        for wid, name, adapter, url, params, etag, lm in rows:
            if wanted is None or name in wanted:
                yield WatchSpec(wid, name, adapter, url, json.loads(params), etag, lm)
        if len(rows) < WATCH_PAGE_ROWS:
            return
        after = rows[-1][1]


class SubjectNames:
    """Subject id -> display name, read from the database when first asked (events and
    warnings name few subjects; holding every name cost memory at 5,000 watches).
    Supports ``names.get(id, default)`` like the dict it replaces."""

    def __init__(self, raw: RawDB) -> None:
        self.raw = raw
        self._cache: dict[int | None, str | None] = {}

    def get(self, subject_id: int | None, default: Any = None) -> Any:
        if subject_id not in self._cache:
            row = self.raw.one("SELECT name FROM subject WHERE id = :id", {"id": subject_id})
            self._cache[subject_id] = row[0] if row else None
        name = self._cache[subject_id]
        return default if name is None else name


def load_subjects(raw: RawDB) -> tuple[AliasIndex, SubjectNames]:
    """The alias index (built from plain rows of the columns it needs) and subject names."""
    subjects = (_SubjectRow(*r) for r in raw.execute("SELECT id, name, hub_org FROM subject"))
    aliases = (
        _AliasRow(*r) for r in raw.execute("SELECT subject_id, namespace, alias FROM subjectalias")
    )
    index = AliasIndex.build(subjects, aliases)
    return index, SubjectNames(raw)
