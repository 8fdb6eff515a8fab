"""Per-subject digests of the claim rows, for the site build's per-subject records.

A site build in a new process keeps, per subject, what the site-wide files need of its
claim views (``tracker/website/records.py``); to know which subjects' claims changed
since, it needs a fingerprint of every subject's claim and verdict rows that is much
cheaper than reading them (30,000 rows of 17 columns: 0.1 s to read, more to compare).
So the database concatenates each subject's rows itself, one aggregate grouped by
subject, and only the ~1,000 concatenations are hashed here.

Values are joined so that a concatenation reads back as exactly one sequence of rows
and values (two different row sets never give the same text): on PostgreSQL each is an
SQL literal (``quote_nullable``: quotes doubled, NULL as ``NULL``); on SQLite, where
``quote()`` on every column was a third of the query, free text (:data:`FREE_TEXT`) is
``quote()``-d, integers written as they are, and the other columns (JSON written by
``json.dumps``, which escapes every control character; hex keys; vocabulary words;
datetimes) taken as they are with NULL as ``char(29)``, between ``char(31)`` (values)
and ``char(30)`` (rows), control characters none of them can hold. Rows are concatenated in claim id order (SQLite follows the
inner query's order; PostgreSQL is told): a different order only makes a digest
differ, which costs the build time, never correctness.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from claims.store.rawdb import RawDB
from claims.store.siteread import CLAIM_COLUMNS

# The claim and verdict columns a claim view is made from (the site's claim read).
CLAIM_DIGEST_COLUMNS = CLAIM_COLUMNS


# Columns that may hold any text (a control character too): quoted on SQLite.
FREE_TEXT = frozenset(
    {
        "claim.raw_text",
        "claim.claimant",
        "claim.locator",
        "claim.stated_date",
        "claim.note",
        "verdict.reason",
    }
)
INTEGERS = frozenset({"claim.id", "claim.subject_id", "claim.source_id"})

_SQLITE = """
SELECT subject_id, group_concat(r, char(30)), group_concat(DISTINCT source_id)
FROM (
  SELECT claim.subject_id AS subject_id, claim.source_id AS source_id, {row} AS r
  FROM claim LEFT OUTER JOIN verdict ON verdict.claim_id = claim.id
  ORDER BY claim.id
)
GROUP BY subject_id
"""

_POSTGRES = """
SELECT claim.subject_id,
       string_agg({row}, chr(30) ORDER BY claim.id),
       string_agg(DISTINCT claim.source_id::text, ',')
FROM claim LEFT OUTER JOIN verdict ON verdict.claim_id = claim.id
GROUP BY claim.subject_id
"""

_EVIDENCE = """
SELECT claim.subject_id, verdict.evidence_json
FROM verdict JOIN claim ON claim.id = verdict.claim_id
WHERE verdict.evidence_json IS NOT NULL AND verdict.evidence_json <> '[]'
ORDER BY claim.id
"""


@dataclass(frozen=True)
class ClaimInput:
    """One subject's claim rows in short: ``digest`` (sha256 hex of its claim and verdict
    rows, :data:`CLAIM_DIGEST_COLUMNS`), the ids of the sources its claims cite and of
    the observations its verdicts cite as evidence (both sorted, no repeats)."""

    digest: str
    source_ids: tuple[int, ...]
    evidence_ids: tuple[int, ...]


def _sqlite_value(column: str) -> str:
    if column in INTEGERS:
        return column
    if column in FREE_TEXT:
        return f"quote({column})"
    return f"ifnull({column}, char(29))"


def _row_sql(dialect: str) -> str:
    if dialect == "sqlite":
        return " || char(31) || ".join(_sqlite_value(c) for c in CLAIM_DIGEST_COLUMNS)
    return " || ',' || ".join(f"quote_nullable({c})" for c in CLAIM_DIGEST_COLUMNS)


def claim_inputs(raw: RawDB) -> dict[int, ClaimInput] | None:
    """Subject id -> :class:`ClaimInput` of every subject with claims, in two queries
    through ``raw``; None on a database other than SQLite and PostgreSQL (the caller
    then reads every row). Raises the driver's error when the schema lacks the
    tables."""
    if raw.dialect == "sqlite":
        sql = _SQLITE.format(row=_row_sql(raw.dialect))
    elif raw.dialect == "postgresql":
        sql = _POSTGRES.format(row=_row_sql(raw.dialect))
    else:
        return None
    rows = raw.execute(sql).fetchall()
    cited = raw.execute(_EVIDENCE).fetchall()
    evidence: dict[int, set[int]] = {}
    for sid, text in cited:
        evidence.setdefault(sid, set()).update(int(i) for i in json.loads(text))
    out: dict[int, ClaimInput] = {}
    for sid, text, source_ids in rows:
        out[sid] = ClaimInput(
            hashlib.sha256(text.encode("utf-8")).hexdigest(),
            tuple(sorted({int(i) for i in str(source_ids).split(",")})),
            tuple(sorted(evidence.get(sid, ()))),
        )
    return out
