"""The site build's reads: every table it shows, in plain SQL through :class:`RawDB`.

``tracker build`` only reads, so it loads no ORM (:mod:`claims.store.rows` says why);
each function returns the rows in the order the site lists them, as
:mod:`claims.store.rows` objects, or, for the 30,000-row claim read, as plain tuples.
"""

from __future__ import annotations

from collections.abc import Collection
from operator import itemgetter
from typing import Any

from claims.store.rawdb import RawDB
from claims.store.rows import (
    DiscrepancyRow,
    EventRow,
    ObservationRow,
    SnapshotRow,
    SourceRow,
    SubjectRow,
    WatchRow,
    read_rows,
)

# The columns of :func:`claim_rows`, in the order its tuples unpack (one outer join: a
# claim and its verdict, if any, in one row).
CLAIM_COLUMNS = (
    "claim.id",
    "claim.subject_id",
    "claim.attribute",
    "claim.qualifiers_json",
    "claim.value_json",
    "claim.raw_text",
    "claim.source_id",
    "claim.claimant",
    "claim.locator",
    "claim.stated_date",
    "claim.key",
    "claim.note",
    "verdict.status",
    "verdict.reason",
    "verdict.evidence_json",
    "verdict.as_of",
    "verdict.statement_json",
)
EVIDENCE_COLUMN = CLAIM_COLUMNS.index("verdict.evidence_json")
_CLAIMS_SQL = (
    f"SELECT {', '.join(CLAIM_COLUMNS)} FROM claim "
    "LEFT OUTER JOIN verdict ON verdict.claim_id = claim.id ORDER BY claim.id"
)


def claim_rows(raw: RawDB, subject_ids: Collection[int] | None = None) -> list[tuple[Any, ...]]:
    """Every claim with its verdict's columns (None without one), by attribute and id,
    in :data:`CLAIM_COLUMNS` order, as the driver returns them (PEP 249 ``fetchall``):
    result-row objects and type processing cost 0.2 of a 0.45 CPU s one-claim rebuild
    at 30,000 claims, and each build reads every row to see which subjects changed. So
    ``verdict.as_of`` is SQLite's text or PostgreSQL's datetime (the site's
    ``stored_time`` reads either). Read in id order (the table's own) and sorted here by
    attribute (stable, so by id within one, and the same order on every database): the
    database's sort of 30,000 wide rows cost a quarter of the read again.
    ``subject_ids``: only those subjects' claims (None: every claim; the site build
    reads only the subjects its per-subject records do not stand in for)."""
    sql = _CLAIMS_SQL
    if subject_ids is not None:
        # integers written into the text (int() of each): nothing to bind, any number
        wanted = ",".join(str(int(i)) for i in sorted(subject_ids)) or "NULL"
        sql = sql.replace(" ORDER BY", f" WHERE claim.subject_id IN ({wanted}) ORDER BY")
    rows = [tuple(r) for r in raw.execute(sql).fetchall()]
    rows.sort(key=itemgetter(2))  # claim.attribute
    return rows


def subjects(raw: RawDB) -> list[SubjectRow]:
    """Every subject, by slug."""
    return read_rows(raw, SubjectRow, "ORDER BY slug")


def subject_names(raw: RawDB, table: str, column: str, where: str = "") -> list[tuple[int, str]]:
    """(subject id, ``column``) of every row of ``table`` (``subjectalias`` or
    ``subjectvariant``) matching ``where`` (fixed SQL text), by that column."""
    where = f"WHERE {where} " if where else ""
    sql = f'SELECT subject_id, "{column}" FROM {table} {where}ORDER BY "{column}"'
    return [(sid, text) for sid, text in raw.execute(sql).fetchall()]


def name_aliases(raw: RawDB) -> list[tuple[int, str]]:
    """(subject id, alias) of every ``name`` alias, by alias."""
    return subject_names(raw, "subjectalias", "alias", "namespace = 'name'")


def variants(raw: RawDB) -> list[tuple[int, str]]:
    """(subject id, variant name) of every variant, by name."""
    return subject_names(raw, "subjectvariant", "name")


def sources(raw: RawDB) -> list[SourceRow]:
    """Every source, by key."""
    return read_rows(raw, SourceRow, 'ORDER BY "key"')


def snapshots(raw: RawDB) -> list[SnapshotRow]:
    """Every snapshot's id, URL, sha256 and fetch time (the bodies stay on disk)."""
    return read_rows(raw, SnapshotRow)


def observations(raw: RawDB) -> list[ObservationRow]:
    """Every observation, by id."""
    return read_rows(raw, ObservationRow, "ORDER BY id")


def discrepancies(raw: RawDB) -> list[DiscrepancyRow]:
    """Every discrepancy, by id."""
    return read_rows(raw, DiscrepancyRow, "ORDER BY id")


def events(raw: RawDB) -> list[EventRow]:
    """Every event, newest first (by time, then id)."""
    return read_rows(raw, EventRow, "ORDER BY created_at DESC, id DESC")


def watches(raw: RawDB) -> list[WatchRow]:
    """Every watch, by name."""
    return read_rows(raw, WatchRow, 'ORDER BY "name"')
