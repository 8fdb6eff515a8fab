"""Per-subject digests of the claim rows, for the site build's per-subject records.

A site build in a new process keeps, per subject, what the site-wide files need of its
claim views (``tracker/website/records.py``); to know which subjects' claims changed
since, it needs a fingerprint of every subject's claim and verdict rows that is much
cheaper than reading them (30,000 rows of 17 columns: 0.1 s to read, more to compare).

Normally that is the subject's change token, which the database's triggers renew on
every change of those rows (:mod:`claims.store.changetokens`): one read of ~1,000 short
rows. Where the triggers are not all in place (see
:func:`claims.store.changetokens.read_tokens`) the **aggregate** below stands in: the
database concatenates each subject's rows itself, one aggregate grouped by subject,
and only the ~1,000 concatenations are hashed here (0.1 s at 30,000 claims).

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
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from claims.store.changetokens import read_tokens
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

# Unordered (gathered into sets): ordered by claim id, SQLite walked every claim first
# (7.7 ms at 30,000 claims citing nothing; 2 ms unordered)
_EVIDENCE = """
SELECT claim.subject_id, verdict.evidence_json
FROM verdict JOIN claim ON claim.id = verdict.claim_id
WHERE verdict.evidence_json IS NOT NULL AND verdict.evidence_json <> '[]'
"""


@dataclass(frozen=True)
class ClaimInput:
    """One subject's claim rows in short: ``digest``, a text that changes whenever its
    claim and verdict rows (:data:`CLAIM_DIGEST_COLUMNS`) do (its change token as
    ``token:<token>``, or the sha256 hex of the rows' aggregate), the ids of the sources
    its claims cite and of the observations its verdicts cite as evidence (both sorted,
    no repeats)."""

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


# With tokens: each subject's cited sources in one grouped read of ``claim`` (its
# subject_id and source_id only; 8 ms at 30,000 claims on SQLite).
_SOURCES = {
    "sqlite": "SELECT subject_id, group_concat(DISTINCT source_id) FROM claim GROUP BY subject_id",
    "postgresql": (
        "SELECT subject_id, string_agg(DISTINCT source_id::text, ',') FROM claim "
        "GROUP BY subject_id"
    ),
}


def _only(subject_ids: Iterable[int]) -> str:
    """``subject_id IN (...)`` for ``subject_ids``: integers written into the text
    (``int()`` of each, as ``siteread.claim_rows`` does), nothing to bind."""
    return f"subject_id IN ({','.join(str(int(i)) for i in subject_ids) or 'NULL'})"


def _evidence(raw: RawDB, only: str = "") -> dict[int, set[int]]:
    evidence: dict[int, set[int]] = {}
    sql = _EVIDENCE + (f" AND claim.{only}" if only else "")
    for sid, text in raw.execute(sql).fetchall():
        evidence.setdefault(sid, set()).update(int(i) for i in json.loads(text))
    return evidence


def _ids(text: object) -> tuple[int, ...]:
    return tuple(sorted({int(i) for i in str(text).split(",")}))


def _aggregate(raw: RawDB) -> list[tuple[int, str, str]]:
    """(subject id, digest of its rows, its source ids joined by commas), by subject."""
    sql = (_SQLITE if raw.dialect == "sqlite" else _POSTGRES).format(row=_row_sql(raw.dialect))
    return [
        (sid, hashlib.sha256(text.encode("utf-8")).hexdigest(), source_ids)
        for sid, text, source_ids in raw.execute(sql).fetchall()
    ]


def _tokened(raw: RawDB, tokens: dict[int, str], only: str = "") -> list[tuple[int, str, str]]:
    """(subject id, ``token:`` and its token, its source ids joined by commas) of every
    subject with claims (``only``: of those :func:`_only` names). A subject with claims
    and no token (its row deleted by hand) gets a new random digest, so its record is
    never used."""
    sql = _SOURCES[raw.dialect]
    if only:
        sql = sql.replace(" GROUP BY", f" WHERE {only} GROUP BY")
    return [
        (sid, "token:" + (tokens.get(sid) or "none-" + secrets.token_hex(16)), source_ids)
        for sid, source_ids in raw.execute(sql).fetchall()
    ]


def _known_inputs(
    raw: RawDB, tokens: dict[int, str], known: Mapping[str, ClaimInput]
) -> dict[int, ClaimInput]:
    """:func:`claim_inputs` with tokens, taking from ``known`` (by digest) the inputs of
    every subject whose token is one a build cache saw: the token is renewed on any
    change of the subject's claim and verdict rows, which hold the cited sources and
    evidence, and no two subjects ever share one (random). Only the other subjects'
    sources and evidence are read (two grouped reads of every claim were ~12 ms of a
    one-claim rebuild at 30,000 claims); which subjects have claims is one index read."""
    out: dict[int, ClaimInput] = {}
    fresh: list[int] = []
    for (sid,) in raw.execute("SELECT DISTINCT subject_id FROM claim").fetchall():
        token = tokens.get(sid)
        got = known.get("token:" + token) if token else None
        if got is None:
            fresh.append(sid)
        else:
            out[sid] = got
    if fresh:
        only = _only(fresh)
        evidence = _evidence(raw, only)
        for sid, digest, source_ids in _tokened(raw, tokens, only):
            out[sid] = ClaimInput(digest, _ids(source_ids), tuple(sorted(evidence.get(sid, ()))))
    return out


def claim_inputs(
    raw: RawDB, known: Mapping[str, ClaimInput] | None = None
) -> dict[int, ClaimInput] | None:
    """Subject id -> :class:`ClaimInput` of every subject with claims, through ``raw``;
    None on a database other than SQLite and PostgreSQL (the caller then reads every
    row). The digest is the subject's change token (``token:…``;
    :mod:`claims.store.changetokens`) when the triggers keeping them are in place, else
    the sha256 of its rows' aggregate (see the module docstring). ``known``: inputs a
    build cache kept, by digest; a subject whose token is among them gets those
    (:func:`_known_inputs`; aggregate digests are never taken from it). Read in the
    caller's transaction before its claim rows, so a change in between only renews a
    token the next build sees. Raises the driver's error when the schema lacks the
    tables."""
    if raw.dialect not in ("sqlite", "postgresql"):
        return None
    tokens = read_tokens(raw)
    if tokens is not None and known:
        return _known_inputs(raw, tokens, known)
    rows = _aggregate(raw) if tokens is None else _tokened(raw, tokens)
    evidence = _evidence(raw)
    return {
        sid: ClaimInput(digest, _ids(source_ids), tuple(sorted(evidence.get(sid, ()))))
        for sid, digest, source_ids in rows
    }
