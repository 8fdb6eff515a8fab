"""Derived checks: a figure verified from two observations, e.g. a price cut relative to
another subject ("about 33 % below K3") from both subjects' observed prices, or a price
factor between two variants of one subject ("Highspeed costs about twice the Standard")
from both variants' observed prices. A checkpoint's parameter count from the Hub's raw
counts plus its config's weight bits is :func:`claims.verify.paramcounts.derive_total_params`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal

from claims.readings.prices import INPUT_ATTR, OUTPUT_ATTR, price_change_pct
from claims.subjects.references import listed_variant
from claims.values.display import format_value
from claims.values.value import Value
from claims.verify.compare import BASE_OFFERING_NAMES, span_text, values_conflict
from claims.verify.facts import ClaimView, ObsView

# Qualifiers that name an offering rather than a measuring condition.
OFFERING_QUALIFIERS: tuple[str, ...] = ("offering", "repo")
SIDES: dict[str, str] = {"output": OUTPUT_ATTR, "input": INPUT_ATTR}


# A price factor pairs two variants of one subject: their variant qualifiers differ.
VARIANT_IGNORED: tuple[str, ...] = (*OFFERING_QUALIFIERS, "variant")
FACTOR_STEP = Decimal("0.01")  # a factor is judged as the reason shows it: 2.00 ×


def _conditions(o: ObsView, ignore: Sequence[str] = OFFERING_QUALIFIERS) -> dict[str, object]:
    return {k: v for k, v in o.qualifiers.items() if k not in ignore}


def _pairs(
    mine: Sequence[ObsView],
    theirs: Sequence[ObsView],
    ignore: Sequence[str] = OFFERING_QUALIFIERS,
) -> list[tuple[ObsView, ObsView]]:
    return [
        (a, b) for a in mine for b in theirs if _conditions(a, ignore) == _conditions(b, ignore)
    ]


def judge_price_change(
    claim: ClaimView,
    observations: Sequence[ObsView],
    subject_ids: Mapping[str, int],
) -> tuple[str, str, tuple[int, ...]] | None:
    """Verify a ``price_change_pct`` claim with qualifier ``relative_to`` (a subject slug)
    and optional ``side`` (``output``/``input``; without it output, then input) from the
    current ``price_*_usd_per_mtok`` observations of both subjects under the same
    conditions (provider etc.; offering ids may differ). Prices are Decimal USD per 1M
    (OpenRouter / LiteLLM via :mod:`claims.readings.prices`). Returns (status, reason, evidence)
    or None when no pair of observations exists."""
    other = subject_ids.get(str(claim.qualifiers.get("relative_to", "")))
    if other is None:
        return None
    side = claim.qualifiers.get("side")
    sides = [str(side)] if side in SIDES else list(SIDES)
    results = []
    for name in sides:
        attr = SIDES[name]
        mine = [
            o
            for o in observations
            if o.subject_id == claim.subject_id and o.attribute == attr and o.current
        ]
        theirs = [
            o for o in observations if o.subject_id == other and o.attribute == attr and o.current
        ]
        for a, b in sorted(_pairs(mine, theirs), key=lambda p: (p[0].id, p[1].id)):
            if not isinstance(a.value.value, type(b.value.value)) or b.value.value == 0:
                continue
            pct = price_change_pct(b.value.value, a.value.value)  # type: ignore[arg-type]
            observed = Value(kind="quantity", value=pct, unit="percent", low=pct, high=pct)
            rule, _ = values_conflict(claim.attribute, claim.value, observed)
            change = ("+" if pct > 0 else "") + format_value(observed)  # −33.3% with a minus
            reason = (
                f"observed {name} price {format_value(a.value)} (observation #{a.id}) vs "
                f"{format_value(b.value)} for {claim.qualifiers['relative_to']} (observation "
                f"#{b.id}): {change}, claim {format_value(claim.value)} "
                f"({span_text(claim.value)})"
            )
            results.append(("confirmed" if rule is None else "contradicted", reason, (a.id, b.id)))
            break
    if not results:
        return None
    return next((r for r in results if r[0] == "confirmed"), results[0])


def _variant_key(name: object) -> str | None:
    """A variant as observations carry it: missing or a base name ("Standard") is the base
    offering (as :func:`claims.verify.compare.qualifiers_compatible` reads it), others casefolded."""
    text = " ".join(str(name or "").split()).casefold()
    return None if text in ("", *BASE_OFFERING_NAMES) else text


def _prices(text_a: str, text_b: str) -> str:
    """``$20.00 vs $10.00 per 1M tokens``: the shared unit once."""
    unit = text_b.split(" ", 1)[1] if " " in text_b else ""
    if unit and text_a.endswith(" " + unit):
        text_a = text_a[: -len(unit) - 1]
    return f"{text_a} vs {text_b}"


def judge_price_factor(
    claim: ClaimView, observations: Sequence[ObsView], variants: Sequence[str]
) -> tuple[str, str, tuple[int, ...], dt.datetime | None] | None:
    """Verify a ``price_factor`` claim ("Highspeed costs about twice the Standard": value
    in times, qualifiers ``variant`` = A and ``relative_to`` = B, both among ``variants``,
    the subject's variant names) from the current ``price_*_usd_per_mtok`` observations of
    the claim's subject with variant A and with variant B (an observation without a
    ``variant`` qualifier, or "Standard", is the base offering) under the same other
    conditions (provider etc.; offering ids may differ). Optional ``side``
    (``output``/``input``); without it output, then input. The factor A/B is rounded to
    0.01 and judged by :func:`claims.verify.compare.values_conflict` (so "~2" allows 1 to 3);
    pairs with a zero (free) price are skipped.

    Returns (status, reason, evidence = the two observation ids, as_of = the later one's
    last_seen): confirmed or contradicted, preferring a confirming side; unverified when
    no pair of prices exists. None when the claim is not about two of the subject's
    variants (``relative_to`` naming another subject is left to other rules)."""
    a_name = listed_variant(claim.qualifiers.get("variant"), variants)
    b_name = listed_variant(claim.qualifiers.get("relative_to"), variants)
    if a_name is None or b_name is None or _variant_key(a_name) == _variant_key(b_name):
        return None
    side = claim.qualifiers.get("side")
    sides = [str(side)] if side in SIDES else list(SIDES)
    results = []
    for name in sides:
        prices = [
            o
            for o in observations
            if o.subject_id == claim.subject_id
            and o.attribute == SIDES[name]
            and o.current
            and isinstance(o.value.value, Decimal)
            and o.value.value != 0
        ]
        mine = [
            o for o in prices if _variant_key(o.qualifiers.get("variant")) == _variant_key(a_name)
        ]
        theirs = [
            o for o in prices if _variant_key(o.qualifiers.get("variant")) == _variant_key(b_name)
        ]
        pairs = sorted(_pairs(mine, theirs, VARIANT_IGNORED), key=lambda p: (p[0].id, p[1].id))
        if not pairs:
            continue
        a, b = pairs[0]
        factor = (Decimal(str(a.value.value)) / Decimal(str(b.value.value))).quantize(FACTOR_STEP)
        observed = Value(kind="quantity", value=factor, unit="times", low=factor, high=factor)
        rule, _ = values_conflict(claim.attribute, claim.value, observed)
        claimed, span = format_value(claim.value), span_text(claim.value)
        reason = (
            f"{a_name} costs {factor} × {b_name} ({name}: "
            f"{_prices(format_value(a.value), format_value(b.value))}, observations #{a.id} "
            f"and #{b.id}); claimed {claimed}" + (f" ({span})" if span != claimed else "")
        )
        status = "confirmed" if rule is None else "contradicted"
        results.append((status, reason, (a.id, b.id), max(a.last_seen, b.last_seen)))
    if not results:
        which = f"{side} " if side in SIDES else ""
        return (
            "unverified",
            f"no {which}prices of {claim.subject}'s {a_name} and {b_name} variants observed "
            "from the same provider and conditions: their price factor cannot be computed",
            (),
            None,
        )
    return next((r for r in results if r[0] == "confirmed"), results[0])
