"""Verdict decisions: one claim + its subject's observations -> Decision (pure).

Statuses from DESIGN.md: confirmed, contradicted, pending, overdue, unverified, disputed.
Attribute rules from issue 4: packed-checkpoint params (:mod:`claims.readings.hub_params`),
promises (:mod:`claims.verify.promises`), licence properties (:mod:`claims.readings.licenses`),
throughput only against measurements with stated conditions.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from claims.readings.hub_params import method_phrase
from claims.readings.licenses import license_has_property, license_property, normalize_license_text
from claims.values.display import format_value
from claims.values.value import Value, distance, reading_used
from claims.verify.compare import Finding, qualifiers_compatible, span_note, values_conflict
from claims.verify.derived import judge_price_change, judge_price_factor
from claims.verify.facts import ClaimView, ObsView
from claims.verify.offers import offer_matches
from claims.verify.promises import evaluate_promise
from claims.verify.scores import judge_rank, judge_score
from claims.verify.statements import (
    NOT_CHECKED,
    Statement,
    is_statement,
    provider_matches,
    self_reported,
    statement_of,
    vendor_statement,
)
from claims.verify.throughput import judge_speed, judge_speedup
from claims.vocabulary import attribute_phrase, rule_label

# Qualifiers a tokens/s observation must carry to count as a measurement.
THROUGHPUT_CONDITIONS: tuple[str, ...] = ("conditions", "provider")
THROUGHPUT_ATTRIBUTES: tuple[str, ...] = ("output_tokens_per_second",)
# What would settle a claim of each attribute, named in an `unverified` reason when no
# observation does ({subject} is the claim's subject slug).
MISSING_EVIDENCE: dict[str, str] = {
    "total_params": "the weights' safetensors counts on the Hub (no watched repo of {subject} has them)",
    "active_params": "the weights' config.json with expert counts and widths (no watched repo of {subject} has one)",
    "context_window": "a config.json or an API listing's context length for {subject}",
    "release_date": "an API listing's created time for {subject}",
    "benchmark_score": "a watched board that publishes this benchmark for {subject}",
    "leaderboard_rank": "a watched board that ranks {subject} on this leaderboard",
    "hardware_units": "the claimant's own page stating the count (no such page is watched)",
    "weights_precision_bits": "a config.json or a provider endpoint stating {subject}'s weight precision",
    "output_tokens_per_second": "a measurement with stated conditions (provider, percentile) for {subject}",
    "speedup_factor": "measurements of both variants of {subject} under the same conditions",
}


@dataclass(frozen=True)
class Decision:
    """A verdict before it is stored: status, reason, evidence observation ids, as_of;
    ``statement``: whether the claimant states it on its own page
    (:mod:`claims.verify.statements`), independent of the status."""

    status: str
    reason: str
    evidence: tuple[int, ...]
    as_of: dt.datetime | None
    statement: Statement = NOT_CHECKED


def relevant_observations(
    claim: ClaimView, observations: Sequence[ObsView], vendor: str | None = None
) -> list[ObsView]:
    """Observations of the claim's subject and attribute with compatible qualifiers.

    Current observations when any exist (a superseded price does not confirm a claim about
    today's price), else the most recently seen ones. Throughput needs a measurement with
    stated conditions (a ``conditions`` or ``provider`` qualifier). A claim naming
    hardware (``Cerebras WSE-3T``) takes only observations of that provider; a price or
    context-window claim naming none only the claimant's or vendor's offer
    (:func:`claims.verify.offers.offer_matches`). What a page
    states (``stated_by``) counts only when it is the subject's ``vendor``'s own page and
    the claim is someone else's (:func:`claims.verify.statements.vendor_statement`)."""
    found = []
    for o in observations:
        if o.subject_id != claim.subject_id or o.attribute != claim.attribute:
            continue
        if is_statement(o) and not vendor_statement(claim, o, vendor):
            continue  # the claimant's own word is its statement status, not evidence
        if not provider_matches(claim.qualifiers, o.qualifiers):
            continue
        if not offer_matches(claim, o, vendor):
            continue  # another provider's price or window is not the vendor's offer
        ok, _ = qualifiers_compatible(claim.attribute, claim.qualifiers, o.qualifiers)
        if not ok:
            continue
        if claim.attribute in THROUGHPUT_ATTRIBUTES and not any(
            o.qualifiers.get(q) for q in THROUGHPUT_CONDITIONS
        ):
            continue
        found.append(o)
    current = [o for o in found if o.current]
    if current:
        return current
    if not found:
        return []
    latest = max(o.last_seen for o in found)
    return [o for o in found if o.last_seen == latest]


def _fmt(v: Value) -> str:
    return format_value(v)


def _apart(claimed: Value, observed: Value, gap: Decimal) -> str:
    """``$2.00 apart, `` (the figures' own difference, before the part beyond the stated
    precision: a trial read "off by $1.50" for $10 vs $12 as a wrong gap); empty when
    it is the same as ``gap`` (an exact claim) or the two are not plain numbers."""
    a, b = claimed.value, observed.value
    if not isinstance(a, Decimal) or not isinstance(b, Decimal) or abs(b - a) == gap:
        return ""
    return f"{_fmt(Value(kind='quantity', value=abs(b - a), unit=claimed.unit))} apart, "


def _pct(claimed: Value, observed: Value) -> str:
    if not isinstance(claimed.value, Decimal) or not isinstance(observed.value, Decimal):
        return ""
    if claimed.value == 0:
        return ""
    pct = (observed.value - claimed.value) / claimed.value * 100
    return f", {pct:+.1f} %"


def _judge_numeric(claim: ClaimView, obs: Sequence[ObsView]) -> Decision | None:
    agree, bounds, disagree = [], [], []
    for o in obs:
        rule, _ = values_conflict(claim.attribute, claim.value, o.value)
        if rule is not None:
            disagree.append(o)
        elif o.value.relation in ("at_least", "at_most"):
            bounds.append(o)
        else:
            agree.append(o)
    if agree:
        o = agree[0]
        return Decision(
            "confirmed",
            f"observed {_fmt(o.value)} (observation #{o.id}) is within the claim's "
            f"{_fmt(claim.value)}{span_note(claim.value)}"
            + _reading(claim.value, o.value)
            + _note(o.value, claim.value),
            tuple(x.id for x in agree),
            max(x.last_seen for x in agree),
        )
    if disagree:
        o = min(disagree, key=lambda x: distance(claim.value, x.value))
        gap = distance(claim.value, o.value)
        return Decision(
            "contradicted",
            f"observed {_fmt(o.value)} (observation #{o.id}) vs claimed {_fmt(claim.value)}"
            f"{span_note(claim.value)}: {_apart(claim.value, o.value, gap)}off by "
            f"{_fmt(Value(kind='quantity', value=gap, unit=claim.value.unit))} beyond the "
            f"stated precision{_pct(claim.value, o.value)}" + _note(o.value),
            tuple(x.id for x in disagree),
            max(x.last_seen for x in disagree),
        )
    if bounds:
        o = bounds[0]
        return Decision(
            "unverified",
            f"only a bound is observed: {_fmt(o.value)} (observation #{o.id}), consistent with "
            f"{_fmt(claim.value)} but not a confirmation" + _note(o.value),
            tuple(x.id for x in bounds),
            max(x.last_seen for x in bounds),
        )
    return None


def _reading(claimed: Value, observed: Value) -> str:
    """``; 128K read as 131,072 (2^17)`` when only the binary reading of the claim
    (:meth:`Value.readings`) meets the observation."""
    used = reading_used(claimed, observed)
    return f"; {used}" if used else ""


VENDOR_WORD = "the vendor's figure, not counted from the weights"


def _note(v: Value, claimed: Value | None = None) -> str:
    """What the reason adds about how the observed figure was read; the catalogue's
    context semantics only when the claim is above the input limit (it rests on them)."""
    method = v.extra.get("method")
    note = f"; {method_phrase(method)}" if method else ""
    formula = v.extra.get("formula")  # active parameters: the arithmetic and its convention
    note += f"; from config.json: {formula}" if formula else ""
    above = (
        claimed is not None
        and isinstance(claimed.value, Decimal)
        and isinstance(v.value, Decimal)
        and claimed.value > v.value
    )
    if v.extra.get("context_note") and above:  # a catalogue's input + output (C24)
        note += f"; {v.extra['context_note']}"
    if v.extra.get("tier"):  # a long-context price tier
        note += f"; the tier {v.extra['tier']}"
    quote = v.extra.get("quote")  # a vendor's own page (claims.verify.statements)
    # Said so a reader does not take the vendor's word for a count made from the weights.
    vendor = f"; the model's vendor states “{quote}” on its own page ({VENDOR_WORD})"
    return note + (vendor if quote else "")


def _judge_text(claim: ClaimView, obs: Sequence[ObsView]) -> Decision | None:
    o = max(obs, key=lambda x: (x.last_seen, x.id))
    observed = normalize_license_text(str(o.value.value))
    prop = license_property(str(claim.value.value)) if claim.attribute == "license" else None
    if prop is not None:
        has = license_has_property(observed, prop)
        if has is None:
            return Decision(
                "unverified",
                f"licence {observed} (observation #{o.id}): whether it is {prop} is not encoded",
                (o.id,),
                o.last_seen,
            )
        status = "confirmed" if has else "contradicted"
        verb = "has" if has else "does not have"
        return Decision(
            status,
            f"licence {observed} (observation #{o.id}) {verb} property {prop}",
            (o.id,),
            o.last_seen,
        )
    claimed = normalize_license_text(str(claim.value.value))
    if claimed == observed:
        return Decision(
            "confirmed", f"observed {observed} (observation #{o.id})", (o.id,), o.last_seen
        )
    return Decision(
        "contradicted",
        f"observed {observed} (observation #{o.id}) vs claimed {claimed}",
        (o.id,),
        o.last_seen,
    )


def _judge_exact(claim: ClaimView, obs: Sequence[ObsView]) -> Decision | None:
    o = max(obs, key=lambda x: (x.last_seen, x.id))
    rule, why = values_conflict(claim.attribute, claim.value, o.value)
    if rule is None:
        return Decision(
            "confirmed", f"observed {_fmt(o.value)} (observation #{o.id})", (o.id,), o.last_seen
        )
    return Decision(
        "contradicted",
        f"observed {_fmt(o.value)} (observation #{o.id}): {why}",
        (o.id,),
        o.last_seen,
    )


def _as_of(evidence: Sequence[int], observations: Sequence[ObsView]) -> dt.datetime | None:
    seen = [o.last_seen for o in observations if o.id in evidence]
    return max(seen) if seen else None


def _board_or_speed(claim: ClaimView, observations: Sequence[ObsView]) -> Decision | None:
    """Scores, ranks, speeds and speed-ups: their own rules (scores, throughput)."""
    rules = {
        "benchmark_score": judge_score,
        "leaderboard_rank": judge_rank,
        "output_tokens_per_second": judge_speed,
        "speedup_factor": judge_speedup,
    }
    rule = rules.get(claim.attribute)
    found = rule(claim, observations) if rule is not None else None
    if found is None:
        return None
    return Decision(
        found.status, found.reason, found.evidence, _as_of(found.evidence, observations)
    )


def judge_claim(
    claim: ClaimView,
    observations: Sequence[ObsView],
    *,
    last_check: dt.datetime | None,
    disputes: Sequence[Finding],
    now: dt.datetime,
    first_looks: Collection[int] = (),
    subject_ids: Mapping[str, int] | None = None,
    variants: Mapping[int, Sequence[str]] | None = None,
    vendors: Mapping[int, str] | None = None,
) -> Decision:
    """The verdict of one claim (see :func:`decide`; ``vendors``: subject id -> its
    organization, whose own page is a primary source for claims others make) with its "stated by the claimant"
    status (:func:`claims.verify.statements.statement_of`). A claim still unverified whose
    claimant is its primary source (its own hardware, stated on its page) is confirmed."""
    d = decide(
        claim,
        observations,
        last_check=last_check,
        disputes=disputes,
        now=now,
        first_looks=first_looks,
        subject_ids=subject_ids,
        variants=variants,
        vendor=(vendors or {}).get(claim.subject_id),
    )
    st = statement_of(claim, observations)
    if d.status == "unverified" and self_reported(claim, st):
        reason = (
            f"{st.reason}; {claim.claimant} runs the hardware it counts, so its own page "
            "is the primary source for this figure"
        )
        return Decision("confirmed", reason, st.evidence, _as_of(st.evidence, observations), st)
    return Decision(d.status, d.reason, d.evidence, d.as_of, st)


def decide(
    claim: ClaimView,
    observations: Sequence[ObsView],
    *,
    last_check: dt.datetime | None,
    disputes: Sequence[Finding],
    now: dt.datetime,
    first_looks: Collection[int] = (),
    subject_ids: Mapping[str, int] | None = None,
    variants: Mapping[int, Sequence[str]] | None = None,
    vendor: str | None = None,
) -> Decision:
    """The verdict of one claim (DESIGN.md "Verdict statuses").

    ``observations``: the subject's observations with effective values; ``last_check``:
    the last successful check of a watch that would show the subject's weights (promises);
    ``disputes``: open claim-vs-claim findings that include this claim; ``first_looks``:
    ids of weights sightings made at their watch's first look
    (:func:`claims.verify.promises.landed_at_first_look`);
    ``subject_ids``: slug -> id, for ``price_change_pct`` ``relative_to`` another subject
    (:func:`claims.verify.derived.judge_price_change`); ``variants``: subject id -> its variant
    names, for ``price_factor`` ``relative_to`` another variant
    (:func:`claims.verify.derived.judge_price_factor`).

    weights_release_date -> :func:`claims.verify.promises.evaluate_promise` (met = confirmed,
    met late = contradicted "late by N days"); numbers -> confirmed when an observation
    lies within the claim's precision interval, contradicted (by how much) when none does;
    texts (licences, incl. property claims) and booleans/dates by equality; no usable
    observation -> disputed when sources disagree, else unverified."""
    if claim.attribute == "weights_release_date" and claim.value.kind == "date":
        own = observations_of(claim, observations)
        out = evaluate_promise(claim.value, own, last_check, now, first_looks)
        reason = out.reason
        if disputes and out.status in ("pending", "overdue", "unknown"):
            reason += "; sources disagree: " + "; ".join(rule_label(f.rule) for f in disputes)
        return Decision(out.verdict, reason, out.evidence, out.as_of)
    if claim.attribute == "price_change_pct" and claim.qualifiers.get("relative_to"):
        derived = judge_price_change(claim, observations, subject_ids or {})
        if derived is not None:  # as of its evidence, as every verdict (was: None)
            return Decision(*derived, _as_of(derived[2], observations))
    factor = None
    if claim.attribute == "price_factor":
        own_variants = (variants or {}).get(claim.subject_id, ())
        factor = judge_price_factor(claim, observations, own_variants)
        if factor is not None and factor[0] != "unverified":
            return Decision(*factor)
    decision = _board_or_speed(claim, observations)
    if decision is not None and decision.status != "unverified":
        return decision
    obs = relevant_observations(claim, observations, vendor)
    if obs and decision is None:
        if claim.value.numeric:
            decision = _judge_numeric(claim, [o for o in obs if o.value.numeric])
        elif claim.value.kind == "text":
            decision = _judge_text(claim, [o for o in obs if o.value.kind == "text"] or obs)
        else:
            decision = _judge_exact(claim, obs)
    if decision is not None and decision.status != "unverified":
        return decision
    if disputes:
        return Decision(
            "disputed",
            "no observation; sources disagree: "
            + "; ".join(f"{rule_label(f.rule)}: {f.reason}" for f in disputes),
            (),
            None,
        )
    if decision is not None:
        return decision
    if factor is not None:  # names the two variants whose prices are missing
        return Decision(*factor)
    if claim.attribute in THROUGHPUT_ATTRIBUTES:
        why = "no throughput measurement with stated conditions (provider, batch, context)"
    else:
        why = f"no observation of {attribute_phrase(claim.attribute)} for {claim.subject}"
    missing = MISSING_EVIDENCE.get(claim.attribute)
    if missing:
        why += "; missing evidence: " + missing.format(subject=claim.subject)
    return Decision("unverified", why, (), None)


def observations_of(claim: ClaimView, observations: Sequence[ObsView]) -> list[ObsView]:
    """The claim's subject's observations (promises look at weights_available ones)."""
    return [o for o in observations if o.subject_id == claim.subject_id]


def settle_versions(
    findings: Sequence[Finding], decisions: Mapping[int, Decision], claims: Sequence[ClaimView]
) -> dict[int, Decision]:
    """Second pass for ``same_value_different_version`` (issue 4, benchmarks): when an
    observation confirms the score under one version, the claims giving the same score
    under another version, with no observation of their own, become contradicted.
    Returns only the changed decisions."""
    by_id = {c.id: c for c in claims}
    out: dict[int, Decision] = {}
    for f in findings:
        if f.rule != "same_value_different_version":
            continue
        confirmed = [
            i for i in f.claim_ids if i in decisions and decisions[i].status == "confirmed"
        ]
        if not confirmed:
            continue
        ref = by_id[confirmed[0]]
        evidence = decisions[confirmed[0]].evidence
        for i in f.claim_ids:
            d = decisions.get(i)
            c = by_id.get(i)
            if d is None or c is None or d.status not in ("unverified", "disputed"):
                continue
            bench = c.qualifiers.get("benchmark")
            out[i] = Decision(
                "contradicted",
                f"{format_value(c.value)} is observed for {bench} {ref.qualifiers.get('version')} "
                f"(observation {', '.join(f'#{e}' for e in evidence)}), not for version "
                f"{c.qualifiers.get('version')}",
                evidence,
                decisions[confirmed[0]].as_of,
                d.statement,
            )
    return out
