"""Claims against claims: which pairs are comparable and which cannot both hold.

Input: :class:`claims.verify.facts.ClaimView` lists; output: :class:`Finding` records that
:mod:`claims.store.verification` stores as Discrepancy rows. Rules: DESIGN.md "Precision" and
issue 4 (benchmarks, leaderboards, dates); claims about different subjects are never
compared.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from claims.readings.licenses import normalize_license_text
from claims.values.canonical import dumps
from claims.values.display import MINUS, format_value
from claims.values.tiers import canonical_condition
from claims.values.value import (
    Value,
    binary_reading,
    distance,
    intervals_overlap,
    normalize_decimal,
)
from claims.verify.facts import ClaimView

# Rule names stored in Discrepancy.rule.
VALUES_DISAGREE = "values_disagree"  # numeric intervals / texts / booleans cannot both hold
DATES_DISAGREE = "dates_disagree"  # two dated promises whose windows do not meet
DATE_RELATION_MISMATCH = "date_relation_mismatch"  # same date, relations exclude each other
SAME_VALUE_DIFFERENT_VERSION = "same_value_different_version"  # one score, two versions
CONTRADICTED_BY_OBSERVATION = "contradicted_by_observation"  # set by claims.store.verification
DIFFERENT_SUBJECT = "different_subject"  # a note, recorded dismissed: never a conflict
RULES: tuple[str, ...] = (
    VALUES_DISAGREE,
    DATES_DISAGREE,
    DATE_RELATION_MISMATCH,
    SAME_VALUE_DIFFERENT_VERSION,
    CONTRADICTED_BY_OBSERVATION,
    DIFFERENT_SUBJECT,
)

# Qualifiers an attribute needs on both sides before two figures are comparable.
REQUIRED_QUALIFIERS: dict[str, tuple[str, ...]] = {
    "benchmark_score": ("benchmark",),
    "leaderboard_rank": ("leaderboard", "date"),
    "hardware_units": ("hardware",),
}
# Qualifiers naming an offering: missing (or "standard") is the base offering (C07 :free).
OFFERING_QUALIFIERS: tuple[str, ...] = ("variant", "offering")
# Qualifiers that, on these attributes, name a tier of the offering: missing is the base
# tier, so a price for prompts over 128K tokens (``conditions``, read from a tiered price
# table) never confirms or contradicts the headline price.
TIER_QUALIFIERS: dict[str, tuple[str, ...]] = {
    "price_input_usd_per_mtok": ("conditions",),
    "price_output_usd_per_mtok": ("conditions",),
}
BASE_OFFERING_NAMES: tuple[str, ...] = ("standard", "default", "base")
# Attributes whose values are dates with a relation.
DATE_ATTRIBUTES: tuple[str, ...] = ("release_date", "weights_release_date")


@dataclass(frozen=True)
class PairCheck:
    """Result of comparing two claims: ``rule`` is set when they cannot both hold."""

    comparable: bool
    rule: str | None
    reason: str


@dataclass(frozen=True)
class Finding:
    """A discrepancy found among claims; ``state`` is ``open`` (or ``dismissed`` for notes)."""

    key: str
    rule: str
    subject_id: int
    attribute: str
    claim_ids: tuple[int, ...]
    reason: str
    state: str = "open"


def _norm(x: Any) -> str:
    return " ".join(str(x).strip().lower().split())


def offering_name(x: Any) -> str | None:
    """An offering qualifier's value as compared: lower-case, None for a missing or base
    one (:data:`BASE_OFFERING_NAMES`)."""
    if x is None or str(x).strip() == "":
        return None
    n = _norm(x)
    return None if n in BASE_OFFERING_NAMES else n


def qualifier_date(claim_qualifiers: dict[str, Any], stated_date: str | None) -> str | None:
    """The date a rank or score is "as of": the ``date`` qualifier, else the stated date."""
    d = claim_qualifiers.get("date")
    return str(d) if d else stated_date


def qualifiers_compatible(attribute: str, a: dict[str, Any], b: dict[str, Any]) -> tuple[bool, str]:
    """Whether two qualifier sets allow comparing figures of ``attribute``.

    A qualifier present on both sides must be equal (case-insensitive); one missing on a
    side is unknown, not different, except the ones :data:`REQUIRED_QUALIFIERS` names
    (benchmark; leaderboard + date for ranks; hardware) and the offering qualifiers
    (``variant``, ``offering``): missing there means the base offering, so a Highspeed
    price never confirms or contradicts the standard one; likewise a tier qualifier
    (:data:`TIER_QUALIFIERS`: a price's ``conditions``) missing on one side is the base
    tier, and two tiers compare in canonical form
    (:func:`claims.values.tiers.canonical_condition`). Returns (ok, why not)."""
    for q in REQUIRED_QUALIFIERS.get(attribute, ()):
        if not a.get(q) or not b.get(q):
            return False, f"{q} not stated on both sides"
    for q in TIER_QUALIFIERS.get(attribute, ()):
        if bool(a.get(q)) != bool(b.get(q)):
            return False, f"different {q} ({a.get(q) or 'base tier'} vs {b.get(q) or 'base tier'})"
    for q in OFFERING_QUALIFIERS:
        va, vb = offering_name(a.get(q)), offering_name(b.get(q))
        if va != vb:
            return False, f"different {q} ({a.get(q) or 'base'} vs {b.get(q) or 'base'})"
    tiers = TIER_QUALIFIERS.get(attribute, ())
    for q in sorted(set(a) & set(b)):
        if a[q] is None or b[q] is None:
            continue
        if q in tiers:  # "> 128,000 tokens" (a table's row) is "> 128K tokens" (prose)
            same = _norm(canonical_condition(a[q])) == _norm(canonical_condition(b[q]))
        else:
            same = _norm(a[q]) == _norm(b[q])
        if not same:
            return False, f"different {q} ({a[q]} vs {b[q]})"
    return True, ""


def date_window(v: Value) -> tuple[dt.date | None, dt.date | None]:
    """Days a dated value allows: on D -> [D, D] (a month: its first to last day);
    before D -> (-inf, D-1]; by D -> (-inf, D]; after D -> [D+1, +inf)."""
    start = v.as_date()
    if v.precision == "month":
        end = start.replace(day=calendar.monthrange(start.year, start.month)[1])
    elif v.precision == "year":
        end = start.replace(month=12, day=31)
    else:
        end = start
    one = dt.timedelta(days=1)
    if v.relation == "before":
        return None, start - one
    if v.relation == "by":
        return None, end
    if v.relation == "after":
        return end + one, None
    return start, end


def _windows_meet(a: Value, b: Value) -> bool:
    alo, ahi = date_window(a)
    blo, bhi = date_window(b)
    if ahi is not None and blo is not None and ahi < blo:
        return False
    if bhi is not None and alo is not None and bhi < alo:
        return False
    return True


def span_text(v: Value) -> str:
    """The interval a numeric value allows, e.g. ``2.75T–2.85T params``; ``∞`` for an
    open end; with a negative end both ends keep their unit, joined by "to" and written
    with a minus sign (``−36.3% to −29.7%``)."""
    lo, hi = v.interval()

    def one(x: Any) -> str:
        return format_value(Value(kind="quantity", value=x, unit=v.unit))

    low = one(lo) if lo is not None else MINUS + "∞"
    high = one(hi) if hi is not None else "∞"
    if lo is None or lo < 0:
        return f"{low} to {high}"
    unit = " " + high.split(" ", 1)[1] if " " in high else ("%" if high.endswith("%") else "")
    if unit and low.endswith(unit):
        low = low[: -len(unit)]
    return f"{low}–{high}"


def _whole_number(v: Value) -> bool:
    """A figure stated to within a thousandth of itself ("512,000 tokens", ±0.5): its
    interval says nothing the figure does not, and its ends would print as ≈512.00K
    (511,999.5). A price of "$10" (±$0.50) keeps its interval."""
    lo, hi = v.interval()
    return (
        isinstance(v.value, Decimal)
        and v.value != 0
        and lo is not None
        and hi is not None
        and (hi - lo) < abs(v.value) / 1000
    )


def span_note(v: Value) -> str:
    """`` (2.75T–2.85T params)`` after a figure whose interval says more than the figure;
    empty for an exact value or a whole number (``256K (262,144) tokens`` would read
    ``(256K–256K (262,144) tokens)``)."""
    lo, hi = v.interval()
    if not v.numeric or (lo is not None and lo == hi) or _whole_number(v):
        return ""
    alt = binary_reading(v)
    if alt is not None and alt.high is not None and isinstance(alt.value, Decimal):
        half = normalize_decimal(alt.high - alt.value)
        return f" ({span_text(v)}, or {alt.value:,} ±{half:,} read in binary)"
    return f" ({span_text(v)})"


def _span(v: Value) -> str:
    return format_value(v) + span_note(v)


def values_conflict(attribute: str, a: Value, b: Value) -> tuple[str | None, str]:
    """Whether two values of one attribute cannot both hold: (rule or None, reason).

    Numbers: intervals from stated precision must meet (DESIGN.md "Precision").
    Dates: the windows of their relations must meet; the same date under relations that
    exclude each other ("before 2026-11-04" vs "on 2026-11-04") is
    ``date_relation_mismatch``. Texts compare as normalized ids; booleans by equality."""
    if a.numeric and b.numeric:
        if intervals_overlap(a, b):
            return None, f"{_span(a)} and {_span(b)} overlap"
        exact = _whole_number(a) and _whole_number(b)

        def amount(x: Any) -> str:
            # a difference of percentages is in percentage points: 78.4% vs 81.2% differ
            # by 2.8 points, not by 2.8% (which would be 2.8% of 78.4)
            if a.unit == "percent":
                n = format_value(Value(kind="quantity", value=x, unit=None))
                return f"{n} point" if x == 1 else f"{n} points"
            return format_value(Value(kind="quantity", value=x, unit=a.unit))

        if exact:
            gap = amount(abs(a.value - b.value))  # type: ignore[operator]
            return (
                VALUES_DISAGREE,
                f"{_span(a)} vs {_span(b)}: different whole numbers (apart by {gap})",
            )
        # "apart by" the figures' own difference (210 vs 250: 40), then how far apart the
        # intervals' nearest ends are (209.5–210.5 and 249.5–250.5: 39), said as that
        ends = amount(distance(a, b))
        said = (
            f"the figures differ by {amount(abs(a.value - b.value))}; the intervals' nearest "  # type: ignore[operator]
            f"ends are {ends} apart"
            if isinstance(a.value, Decimal) and isinstance(b.value, Decimal)
            else f"the intervals' nearest ends are {ends} apart"
        )
        return VALUES_DISAGREE, f"{_span(a)} vs {_span(b)}: intervals do not overlap ({said})"
    if a.kind == "date" and b.kind == "date":
        if _windows_meet(a, b):
            return None, f"{format_value(a)} and {format_value(b)} can both hold"
        if a.value == b.value:
            da, db = date_window(a)[1], date_window(b)[1]
            return DATE_RELATION_MISMATCH, (
                f"“{format_value(a)}” vs “{format_value(b)}”: different promises "
                f"(last day {da} vs {db})"
            )
        return DATES_DISAGREE, f"“{format_value(a)}” vs “{format_value(b)}” cannot both hold"
    if a.kind == "text" and b.kind == "text":
        ta, tb = normalize_license_text(str(a.value)), normalize_license_text(str(b.value))
        if ta == tb:
            return None, f"both {ta}"
        return VALUES_DISAGREE, f"{a.value} vs {b.value}"
    if a.kind == "boolean" and b.kind == "boolean":
        if a.value == b.value:
            return None, "same"
        return VALUES_DISAGREE, f"{format_value(a)} vs {format_value(b)}"
    return None, f"{a.kind} and {b.kind} values are not comparable"


def compare_claims(
    a: ClaimView, b: ClaimView, who_a: str | None = None, who_b: str | None = None
) -> PairCheck:
    """Compare two claims (rules of issue 4, "Discrepancies"). ``who_a`` / ``who_b`` name
    each side in the reason when a side is several claims (default: the claim's own
    :meth:`~claims.verify.facts.ClaimView.who`).

    Different subjects: never comparable (the reason still says whether the intervals
    would overlap: Cerebras' "about 3T" about Kimi K3 vs Moonshot's 2.8T about K3.1 Pro).
    Benchmark scores under the same benchmark but different versions: not comparable as
    scores, but the *same* value under both is ``same_value_different_version``.
    Otherwise qualifiers must be compatible, then :func:`values_conflict` decides."""
    who_a, who_b = who_a or a.who(), who_b or b.who()
    if a.subject_id != b.subject_id:
        why = f"different subjects ({a.subject} vs {b.subject}): never compared"
        if a.attribute == b.attribute and a.value.numeric and b.value.numeric:
            overlap = intervals_overlap(a.value, b.value)
            why += "; the intervals overlap anyway" if overlap else "; the intervals differ"
            why += f" ({_span(a.value)} vs {_span(b.value)})"
        return PairCheck(False, None, why)
    if a.attribute != b.attribute:
        return PairCheck(False, None, "different attributes")
    qa, qb = dict(a.qualifiers), dict(b.qualifiers)
    if a.attribute == "leaderboard_rank":
        qa["date"], qb["date"] = (
            qualifier_date(qa, a.stated_date),
            qualifier_date(qb, b.stated_date),
        )
    if (
        a.attribute == "benchmark_score"
        and qa.get("benchmark")
        and _norm(qa.get("benchmark")) == _norm(qb.get("benchmark"))
        and qa.get("version")
        and qb.get("version")
        and _norm(qa["version"]) != _norm(qb["version"])
    ):
        if a.value.key() == b.value.key():
            bench = qa["benchmark"]
            return PairCheck(
                True,
                SAME_VALUE_DIFFERENT_VERSION,
                f"{format_value(a.value)} reported for {bench} {qa['version']} by {who_a} and "
                f"for {bench} {qb['version']} by {who_b}: one of the versions is wrong",
            )
        return PairCheck(
            False, None, f"different benchmark versions ({qa['version']} vs {qb['version']})"
        )
    ok, why = qualifiers_compatible(a.attribute, qa, qb)
    if not ok:
        return PairCheck(False, None, why)
    rule, why = values_conflict(a.attribute, a.value, b.value)
    if rule is None:
        return PairCheck(True, None, why)
    return PairCheck(True, rule, f"{why} ({who_a} vs {who_b})")


def side_who(side: Sequence[ClaimView]) -> str:
    """Everyone on one side: ``Moonshot AI via Máquina Web and “Kimi K3.1 Pro launch…”``
    (one claimant named once when all of them share it)."""
    claimants = {c.claimant for c in side}
    if len(claimants) == 1 and None not in claimants and len(side) > 1:
        claimant = str(side[0].claimant)
        sources = [c.source or f"claim #{c.id}" for c in side]
        others = [s for s in dict.fromkeys(sources) if s.casefold() != claimant.casefold()]
        return f"{claimant} via {' and '.join(others)}" if others else claimant
    return " and ".join(dict.fromkeys(c.who() for c in side))


def side_key(c: ClaimView) -> str:
    """What one side of a discrepancy says: qualifiers + value (several sources, one side)."""
    return dumps({"q": c.qualifiers, "v": c.value.key()})


def discrepancy_key(rule: str, subject: str, attribute: str, sides: Sequence[str]) -> str:
    """sha256 of rule, subject, attribute and the sorted side keys. Another source that
    repeats one side joins the same discrepancy, so a dismissal still holds for it."""
    payload = dumps(
        {"rule": rule, "subject": subject, "attribute": attribute, "sides": sorted(sides)}
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def find_conflicts(claims: Sequence[ClaimView]) -> list[Finding]:
    """All discrepancies among claims of one subject and attribute (pure).

    Claims stating the same fact form one side (:func:`fact_sides`: "256K" and
    "256,000" from two sources are one side, issue 17 item 6); each pair of sides
    that cannot both hold gives one :class:`Finding` listing every claim of both. Two
    sides conflict when some figure of one and some figure of the other cannot both
    hold (checked between their distinct statements, lowest claim ids first), so a
    conflict between two figures is never lost to the grouping. The key is made of
    each side's first claim (:func:`side_key`): a source repeating a side, in any
    notation, joins the same discrepancy, so a dismissal still holds for it."""
    groups: dict[tuple[int, str], list[ClaimView]] = {}
    for c in sorted(claims, key=lambda c: c.id):
        groups.setdefault((c.subject_id, c.attribute), []).append(c)
    out: list[Finding] = []
    for (subject_id, attribute), group in sorted(groups.items()):
        sides = fact_sides(attribute, group)
        for i, sa in enumerate(sides):
            for sb in sides[i + 1 :]:
                check = _sides_conflict(sa, sb)
                if check is None:
                    continue
                rule, reason = check
                ids = tuple(sorted(c.id for c in sa + sb))
                key = discrepancy_key(
                    rule, sa[0].subject, attribute, [side_key(sa[0]), side_key(sb[0])]
                )
                out.append(Finding(key, rule, subject_id, attribute, ids, reason))
    return out


def _compared_qualifiers(c: ClaimView) -> dict[str, Any]:
    """The qualifiers :func:`compare_claims` compares: a rank's date is its ``date``
    qualifier, else the stated date (two ranks of different days are two facts)."""
    if c.attribute != "leaderboard_rank":
        return c.qualifiers
    return {**c.qualifiers, "date": qualifier_date(c.qualifiers, c.stated_date)}


def _distinct(side: Sequence[ClaimView]) -> list[ClaimView]:
    """The first claim (lowest id) of each distinct statement (:func:`side_key`) of a side."""
    firsts: dict[str, ClaimView] = {}
    for c in sorted(side, key=lambda c: c.id):
        firsts.setdefault(side_key(c), c)
    return list(firsts.values())


def fact_sides(attribute: str, claims: Sequence[ClaimView]) -> list[list[ClaimView]]:
    """``claims`` of one subject and ``attribute`` (in id order) as sides of a
    discrepancy: claims stating the same fact (:func:`same_fact`, on the qualifiers
    :func:`compare_claims` compares) with every other claim of their side, so no side
    holds two figures that differ (``256K`` may join ``262,144`` or ``256,000``, never
    both). In first-seen order."""
    sides: list[list[ClaimView]] = []
    buckets: dict[tuple[Any, ...], list[list[ClaimView]]] = {}
    for c in claims:
        q = _compared_qualifiers(c)
        bucket = buckets.setdefault(qualifier_key(q), [])
        for side in bucket:
            if all(same_value(m.value, c.value) for m in side):
                side.append(c)
                break
        else:
            bucket.append([c])
            sides.append(bucket[-1])
    return sides


def _sides_conflict(sa: Sequence[ClaimView], sb: Sequence[ClaimView]) -> tuple[str, str] | None:
    """``(rule, reason)`` of the first pair of distinct statements, one per side, that
    cannot both hold (:func:`compare_claims`, each side named by :func:`side_who`); None
    when every pair can."""
    who_a, who_b = side_who(sa), side_who(sb)
    for a in _distinct(sa):
        for b in _distinct(sb):
            check = compare_claims(a, b, who_a, who_b)
            if check.rule is not None:
                return check.rule, check.reason
    return None


def find_cross_subject_notes(claims: Sequence[ClaimView]) -> list[Finding]:
    """Notes (state ``dismissed``) for figures of one attribute that one source gives about
    two different subjects, e.g. a press article quoting Cerebras' "about 3T" for Kimi K3
    beside Moonshot's 2.8T for K3.1 Pro: recorded so a reader sees why it is no conflict.
    Skipped when one claimant gives two different figures (a board ranking two models)."""
    out: list[Finding] = []
    by_source: dict[tuple[int, str], list[ClaimView]] = {}
    for c in claims:
        by_source.setdefault((c.source_id, c.attribute), []).append(c)
    for (_source, attribute), group in sorted(by_source.items()):
        group = sorted(group, key=lambda c: c.id)
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if a.subject_id == b.subject_id or a.qualifiers != b.qualifiers:
                    continue
                same_voice = _norm(a.claimant or "") == _norm(b.claimant or "")
                if same_voice and values_conflict(attribute, a.value, b.value)[0] is not None:
                    continue  # one claimant ranking two models: plainly two figures
                check = compare_claims(a, b)
                first, second = (a, b) if a.subject <= b.subject else (b, a)
                key = discrepancy_key(
                    DIFFERENT_SUBJECT,
                    f"{first.subject}|{second.subject}",
                    attribute,
                    [side_key(first), side_key(second)],
                )
                out.append(
                    Finding(
                        key,
                        DIFFERENT_SUBJECT,
                        first.subject_id,
                        attribute,
                        (a.id, b.id),
                        f"not a conflict: {check.reason}",
                        state="dismissed",
                    )
                )
    return out


# -- one fact, many sources -------------------------------------------------------


def _same_number(a: Value, b: Value) -> bool:
    """Each stated figure lies inside what the other's precision allows: ``$10`` and
    ``$10.00`` are one figure; ``2.8T`` and ``about 3T`` are not (3T is outside
    2.75T-2.85T, although the intervals meet)."""
    if a.kind != b.kind or a.unit != b.unit or a.relation != b.relation:
        return False
    if a.kind == "range":
        return (a.low, a.high, a.open_high) == (b.low, b.high, b.open_high)
    return _figure_inside(a, b) and _figure_inside(b, a)


def _figure_inside(a: Value, b: Value) -> bool:
    """Some reading of ``a``'s figure lies inside some reading of ``b``
    (:meth:`Value.readings`: "128K" is 128,000 or 131,072)."""
    figures = [a.value] + [alt.value for alt in [binary_reading(a)] if alt is not None]
    return any(
        (lo is None or lo <= x) and (hi is None or x <= hi)  # type: ignore[operator]
        for x in figures
        for lo, hi in b.readings()
    )


def qualifier_key(qualifiers: dict[str, Any]) -> tuple[Any, ...]:
    """What two figures' qualifiers must share to state the same fact: every qualifier
    but the offering ones, case and spacing aside, and the offering (a missing or base
    one is the base offering, :func:`offering_name`). Hashable."""
    rest = tuple(
        sorted(
            (k, _norm(v))
            for k, v in qualifiers.items()
            if v is not None and k not in OFFERING_QUALIFIERS
        )
    )
    return (rest, tuple(offering_name(qualifiers.get(q)) for q in OFFERING_QUALIFIERS))


def same_value(a: Value, b: Value) -> bool:
    """Two values state the same thing: numbers within their stated precision
    (:func:`_same_number`); dates by relation, date and precision; texts
    case-insensitively; booleans exactly."""
    if a.numeric and b.numeric:
        return _same_number(a, b)
    if a.kind != b.kind:
        return False
    if a.kind == "date":
        return (a.value, a.relation, a.precision or "day") == (
            b.value,
            b.relation,
            b.precision or "day",
        )
    if a.kind == "text":
        return _norm(a.value) == _norm(b.value)
    return a.value == b.value


def same_fact(attribute: str, qa: dict[str, Any], a: Value, qb: dict[str, Any], b: Value) -> bool:
    """Whether two figures of one subject's ``attribute`` state the same thing: equal
    :func:`qualifier_key` and :func:`same_value`. Symmetric. The site groups claims with
    it (one row, many sources) and shows one discrepancy per fact."""
    del attribute  # one rule for every attribute: the qualifiers say what is measured
    return qualifier_key(qa) == qualifier_key(qb) and same_value(a, b)


def group_facts(
    attribute: str, items: Sequence[Any], fact: Any, key: Any = None
) -> list[list[Any]]:
    """``items`` of one subject and ``attribute`` in groups stating the same fact
    (:func:`same_fact`), in first-seen order; ``fact(item)`` gives its
    ``(qualifiers dict, Value)``. Each item joins the first group whose first item states
    the same fact, so the result depends only on the input order. Items are bucketed by
    :func:`qualifier_key` first (``key(item)`` when given, e.g. memoized by the caller):
    values are compared only within a bucket."""
    del attribute
    groups: list[list[Any]] = []
    firsts: dict[tuple[Any, ...], list[tuple[Value, list[Any]]]] = {}
    for item in items:
        q, v = fact(item)
        bucket = firsts.setdefault(key(item) if key else qualifier_key(q), [])
        for gv, members in bucket:
            if same_value(gv, v):
                members.append(item)
                break
        else:
            members = [item]
            bucket.append((v, members))
            groups.append(members)
    return groups
