"""Claim views of each subject, made from the claim rows and kept between builds.

A subject's claim views (by attribute), its facts (``summary.subject_facts``) and the
digest of its claims depend only on its claim rows (claim and verdict columns), its
slug and name, the sources its claims cite and the observations its verdicts cite.
:class:`ClaimMemo` keeps them by exactly those inputs (compared whole, not by a hash),
so a rebuild in the same process (the scheduler's) makes views only for subjects whose
inputs changed. The views are immutable (named tuples), so sharing them is safe.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claims.store.rawdb import sqlite_datetime
from claims.store.siteread import CLAIM_COLUMNS, EVIDENCE_COLUMN, claim_rows
from claims.values.canonical import as_utc
from claims.values.value import Value
from claims.verify.compare import qualifier_key
from claims.vocabulary import qualifiers_text
from tracker.website.anchors import claim_anchor
from tracker.website.pagehash import key_of
from tracker.website.summary import CardLine, Fact, subject_facts
from tracker.website.views import (
    ClaimView,
    EvidenceView,
    SourceClaim,
    SourceInfo,
    StatementView,
    VerdictView,
)

if TYPE_CHECKING:
    from claims.store.rawdb import RawDB
    from claims.store.rows import ObservationRow


def read_claim_rows(
    raw: RawDB, subject_ids: Collection[int] | None = None
) -> list[tuple[Any, ...]]:
    """Every claim with its verdict's columns, as plain tuples in
    :data:`claims.store.siteread.CLAIM_COLUMNS` order, by attribute and id
    (:func:`claims.store.siteread.claim_rows`); ``subject_ids``: only those subjects'
    claims (None: every claim)."""
    return claim_rows(raw, subject_ids)


def stored_time(value: Any) -> dt.datetime:
    """A stored datetime as the driver returns it: a datetime (PostgreSQL), or SQLite's
    text ``YYYY-MM-DD HH:MM:SS[.ffffff]`` (SQLAlchemy's storage format, UTC)."""
    return dt.datetime.fromisoformat(value) if isinstance(value, str) else value


def statement_of_row(statement_json: str | None) -> StatementView:
    """The stored "stated by the claimant" status; ``not checked`` for rows written
    before it was kept (verdict.statement_json NULL)."""
    if not statement_json:
        return StatementView("not checked", "", [])
    d = json.loads(statement_json)
    return StatementView(
        str(d.get("status")), str(d.get("reason") or ""), list(d.get("evidence") or [])
    )


def stored_ids(text: str | None) -> list[int]:
    """A stored JSON list of ids (``[]`` for NULL); most verdicts have none, so the
    decoder is skipped then."""
    return [] if not text or text == "[]" else [int(i) for i in json.loads(text)]


def _decode_all(texts: list[str]) -> list[Any]:
    """``[json.loads(t) for t in texts]`` in one decoder call: 30,000 separate calls
    cost twice as much, and one call shares the decoded keys. A bad text raises the
    error that decoding it alone would."""
    try:
        decoded = json.loads(f"[{','.join(texts)}]")
    except json.JSONDecodeError:
        decoded = [json.loads(t) for t in texts]  # raises for the bad one
    if len(decoded) != len(texts):  # a text such as '1,2' holds more than one value
        decoded = [json.loads(t) for t in texts]
    return decoded


@dataclass
class Evidence:
    """Observations (by id) as :class:`EvidenceView` s, each made once: one observation
    backs many verdicts."""

    observations: dict[int, ObservationRow]
    snapshots: dict[int, Any]
    slugs: dict[int, str] = field(default_factory=dict)  # subject id -> slug
    made: dict[int, EvidenceView | None] = field(default_factory=dict)

    def __call__(self, oid: int) -> EvidenceView | None:
        """The evidence view of observation ``oid``; None if it is gone."""
        if oid in self.made:
            return self.made[oid]
        o = self.observations.get(oid)
        view = None
        if o is not None:
            snap = self.snapshots.get(o.snapshot_id) if o.snapshot_id else None
            view = EvidenceView(
                observation_id=oid,
                attribute=o.attribute,
                value=o.value.display(),
                first_seen=as_utc(o.first_seen),
                last_seen=as_utc(o.last_seen),
                current=o.current,
                source_url=o.source_url or (snap.url if snap else None),
                sha256=snap.sha256 if snap else None,
                fetched_at=as_utc(snap.fetched_at) if snap else None,
                subject_slug=self.slugs.get(o.subject_id),
            )
        self.made[oid] = view
        return view

    def views(self, ids: list[int]) -> list[EvidenceView]:
        """The views of ``ids`` that still exist, in order."""
        if not ids:  # most verdicts cite none
            return []
        return [e for e in (self(i) for i in ids) if e is not None]


@dataclass
class ClaimViews:
    """Claim views by id, with each claim's parsed value and qualifier key (grouping
    claims by fact)."""

    views: dict[int, ClaimView]
    value_of: dict[int, Value]
    qkey_of: dict[int, tuple[Any, ...]]


class Shown:
    """Display text, parsed values and qualifier keys by stored JSON: many claims state
    the same value or qualifiers, and parsing a Value to format it was a third of
    collect on the 30,000-claim bench."""

    def __init__(self) -> None:
        self.value: dict[str, tuple[Value, str]] = {}
        self.quals: dict[str, tuple[tuple[Any, ...], str]] = {}

    def value_of(self, value_json: str, value_dict: dict[str, Any]) -> tuple[Value, str]:
        """(parsed value, display text) of a stored value (``value_dict`` decoded)."""
        got = self.value.get(value_json)
        if got is None:
            parsed = Value.from_dict(value_dict)
            got = self.value[value_json] = (parsed, parsed.display())
        return got

    def quals_of(self, quals_json: str, quals: dict[str, Any]) -> tuple[tuple[Any, ...], str]:
        """(qualifier key, display text) of stored qualifiers (``quals`` decoded)."""
        got = self.quals.get(quals_json)
        if got is None:
            got = self.quals[quals_json] = (qualifier_key(quals), qualifiers_text(quals))
        return got


def verdict_view(
    status: str | None,
    reason: str | None,
    evidence_json: str | None,
    as_of: Any,
    statement_json: str | None,
    *,
    evidence: Evidence,
) -> VerdictView | None:
    """A claim's verdict from its joined columns; None when the claim has none."""
    if status is None:
        return None
    ids = stored_ids(evidence_json)
    return VerdictView(
        status=status,
        reason=reason,  # type: ignore[arg-type]
        as_of=as_utc(stored_time(as_of)) if as_of else None,
        evidence=evidence.views(ids),
        evidence_ids=ids,
        statement=statement_of_row(statement_json),
    )


def claim_views(
    claim_rows: list[Any],
    names: dict[int, tuple[str, str]],
    sources: dict[int, SourceInfo],
    evidence: Evidence,
    shown: Shown | None = None,
) -> ClaimViews:
    """A :class:`ClaimView` per row of :func:`read_claim_rows`; ``names`` gives each
    subject id's (slug, name); ``shown`` (shared by calls) the texts by stored JSON."""
    out = ClaimViews({}, {}, {})
    all_quals = _decode_all([c[3] for c in claim_rows])  # Claim.qualifiers_json
    all_values = _decode_all([c[4] for c in claim_rows])  # Claim.value_json
    shown = shown or Shown()
    # Rows unpack as tuples, in the select's column order: a Row read by attribute
    # costs a lookup per column, 14 per claim.
    for row, quals, value_dict in zip(claim_rows, all_quals, all_values, strict=True):
        (claim_id, subject_id, attribute, quals_json, value_json, raw_text, source_id) = row[:7]
        (claimant, locator, stated_date, claim_key, note, *verdict_cols) = row[7:]
        value, value_text = shown.value_of(value_json, value_dict)
        out.value_of[claim_id] = value
        out.qkey_of[claim_id], quals_text = shown.quals_of(quals_json, quals)
        slug, name = names[subject_id]
        out.views[claim_id] = ClaimView(
            id=claim_id,
            subject_id=subject_id,
            subject_slug=slug,
            subject_name=name,
            attribute=attribute,
            qualifiers=quals_text,
            qualifiers_dict=quals,
            value=value_text,
            value_dict=value_dict,
            raw_text=raw_text,
            claimant=claimant,
            locator=locator,
            stated_date=stated_date,
            source=sources[source_id],
            verdict=verdict_view(*verdict_cols, evidence=evidence),
            anchor=claim_anchor(claim_key),
            note=note,
        )
    return out


@dataclass(frozen=True)
class SubjectClaims:
    """One subject's claim views by attribute (``groups``), its facts and ``digest``
    (:func:`inputs_digest` of what they are made from: the key of everything its claims
    show); ``listed``: each claim (by id) as ``sources.html`` lists it, and
    ``listed_digest`` the key of those with each claim's source key (what that page
    shows of this subject)."""

    groups: list[tuple[str, list[ClaimView]]]
    facts: list[Fact]
    digest: str
    listed: dict[int, SourceClaim] = field(default_factory=dict)
    listed_digest: str = ""
    # the summary card made from these facts, by the key of the observations it was
    # made with (only the latest kept): summary.card_lines depends on nothing else
    cards: dict[str, list[CardLine]] = field(default_factory=dict)
    # what collect derives from that card alone (table cells by headline benchmarks,
    # stated licence, benchmark names): kept while the card is (collect.card_derived)
    derived: dict[Any, Any] = field(default_factory=dict)


class MemoKey:
    """A subject's inputs (a tuple of every row it is made from) with their hash made
    once: a tuple does not keep its hash, and each dict lookup hashed 30 rows of 17
    columns again."""

    __slots__ = ("inputs", "_hash")

    def __init__(self, inputs: tuple[Any, ...]) -> None:
        self.inputs = inputs
        self._hash = hash(inputs)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MemoKey) and self._hash == other._hash and self.inputs == other.inputs
        )


@dataclass
class ClaimMemo:
    """:class:`SubjectClaims` by their inputs, kept from one build to the next (entries
    the last build did not use are dropped). ``fingerprint`` is the code and templates'
    (``pagehash.code_fingerprint``): views made by other code are not reused."""

    fingerprint: str = ""
    kept: dict[Any, SubjectClaims] = field(default_factory=dict)
    used: dict[Any, SubjectClaims] = field(default_factory=dict)
    made: int = 0
    shown: Shown = field(default_factory=lambda: Shown())

    def start_build(self) -> None:
        """Forget what the previous build did not use."""
        self.kept, self.used, self.made = self.used or self.kept, {}, 0


def subject_claims(
    rows: list[Any],
    names: dict[int, tuple[str, str]],
    sources: dict[int, SourceInfo],
    evidence: Evidence,
    memo: ClaimMemo,
) -> dict[int, SubjectClaims]:
    """Each subject's :class:`SubjectClaims` (by subject id; subjects without claims
    absent) from :func:`read_claim_rows` rows, taken from ``memo`` when a subject's
    inputs are those of the last build."""
    rows_of: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        rows_of[row[1]].append(row)
    source_sig = {
        i: (s.key, s.title, s.url, s.publisher, s.published, s.language, s.kind)
        + (s.published_precision,)
        for i, s in sources.items()
    }
    out: dict[int, SubjectClaims] = {}
    for sid, mine in rows_of.items():
        cited = tuple(
            tuple(evidence.views(stored_ids(r[EVIDENCE_COLUMN])))
            for r in mine
            if r[EVIDENCE_COLUMN] and r[EVIDENCE_COLUMN] != "[]"
        )
        key = MemoKey((names[sid], tuple(mine), tuple(source_sig[r[6]] for r in mine), cited))
        got = memo.kept.get(key)
        if got is None:
            got = _make(mine, names, sources, evidence, memo.shown, inputs_digest(key))
            memo.made += 1
        memo.used[key] = out[sid] = got
    return out


def inputs_digest(key: MemoKey) -> str:
    """sha256 hex of a subject's claim inputs (rows of plain values, names, its sources'
    columns, the evidence its verdicts cite; ``repr`` of tuples of them, the same text
    in every process): the key of its claim views, which are made from these alone by
    code the build's fingerprint covers (``pagehash.CODE_MODULES``). Hashing the inputs
    costs under half of encoding the views as JSON (0.07 against 0.17 CPU s for
    30,000 claims). ``verdict.as_of``, a datetime from PostgreSQL's driver, is hashed
    as SQLite's text of it, so both databases give a site the same keys."""
    names, rows, sigs, cited = key.inputs
    plain = (names, [_as_sqlite_text(r) for r in rows], sigs, cited)
    return hashlib.sha256(repr(plain).encode("utf-8", "surrogatepass")).hexdigest()


AS_OF_COLUMN = CLAIM_COLUMNS.index("verdict.as_of")


def _as_sqlite_text(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """``row`` with a datetime ``verdict.as_of`` as SQLite stores it (its text as is)."""
    t = row[AS_OF_COLUMN]
    if t is None or t.__class__ is str:
        return row
    return (*row[:AS_OF_COLUMN], sqlite_datetime(as_utc(t)), *row[AS_OF_COLUMN + 1 :])


def _make(
    rows: list[Any],
    names: dict[int, tuple[str, str]],
    sources: dict[int, SourceInfo],
    evidence: Evidence,
    shown: Shown,
    digest: str,
) -> SubjectClaims:
    made = claim_views(rows, names, sources, evidence, shown)
    grouped: dict[str, list[ClaimView]] = defaultdict(list)
    for cv in made.views.values():
        grouped[cv.attribute].append(cv)
    groups = sorted(grouped.items())
    facts = subject_facts(groups, made.value_of, made.qkey_of)
    listed = {cv.id: source_claim(cv) for cv in made.views.values()}
    listed_digest = key_of([(cv.source.key, listed[cv.id]) for cv in made.views.values()])
    return SubjectClaims(groups, facts, digest, listed, listed_digest)


def source_claim(cv: ClaimView) -> SourceClaim:
    """A claim as ``sources.html`` lists it."""
    return SourceClaim(
        id=cv.id,
        subject_slug=cv.subject_slug,
        subject_name=cv.subject_name,
        attribute=cv.attribute,
        value=cv.value,
        qualifiers=cv.qualifiers,
        status=cv.verdict.status if cv.verdict else None,
    )
