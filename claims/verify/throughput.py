"""Output speed claims against independent measurements, conditions side by side (pure).

A measurement (``output_tokens_per_second`` observation) states its conditions as
qualifiers: ``provider`` (who served it), ``endpoint``, ``statistic`` (``p50``...),
``window`` and ``measured_by``. A claim is comparable with measurements of the provider
its ``provider`` or ``hardware`` qualifier names, of the same variant. A claim with an
open top ("2,000+") or stating no conditions is confirmed only when such a measurement
falls inside it; one outside it is reported, not read as a contradiction, because the
claim's conditions (prompt length, batch, percentile) are unknown. A speed-up factor
between two variants is the ratio of their medians under the same provider, statistic
and source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from claims.values.value import format_value
from claims.verify.facts import ClaimView, ObsView

TPS = "output_tokens_per_second"
# Condition qualifiers a measurement states, in the order reasons list them.
MEASUREMENT_CONDITIONS: tuple[str, ...] = (
    "provider",
    "conditions",
    "endpoint",
    "statistic",
    "window",
    "prompt_tokens",
    "measured_by",
)
# Conditions a claim would have to state to be refuted by a measurement.
CLAIM_CONDITIONS: tuple[str, ...] = ("prompt_tokens", "batch", "statistic")


@dataclass(frozen=True)
class SpeedDecision:
    """status, reason, evidence observation ids."""

    status: str
    reason: str
    evidence: tuple[int, ...]


def _norm(x: object) -> str:
    return " ".join(str(x).lower().split())


def _claim_provider(claim: ClaimView, measured: set[str]) -> str | None:
    """The provider a claim is about: its ``provider`` qualifier, the first word of its
    ``hardware`` (``Cerebras WSE-3T``), else its claimant when that is a measured
    provider (a provider quoting its own speed)."""
    q = claim.qualifiers
    if q.get("provider"):
        return _norm(q["provider"])
    if q.get("hardware"):
        return _norm(str(q["hardware"]).split()[0])
    if claim.claimant and _norm(claim.claimant) in measured:
        return _norm(claim.claimant)
    return None


def _variant(q: dict) -> str | None:
    v = q.get("variant")
    return None if not v or _norm(v) in ("standard", "base", "default") else _norm(v)


def conditions_text(q: dict) -> str:
    """``provider Cerebras, endpoint cerebras, p50, last 30 min, by OpenRouter``."""
    parts = []
    for k in MEASUREMENT_CONDITIONS:
        if q.get(k):
            parts.append(
                str(q[k]) if k in ("statistic", "window") else f"{k.replace('_', ' ')} {q[k]}"
            )
    return ", ".join(parts)


def measurements(subject_id: int, observations: Sequence[ObsView]) -> list[ObsView]:
    """The subject's tokens/s observations that state a provider (a measurement)."""
    return [
        o
        for o in observations
        if o.subject_id == subject_id and o.attribute == TPS and o.qualifiers.get("provider")
    ]


def judge_speed(claim: ClaimView, observations: Sequence[ObsView]) -> SpeedDecision | None:
    """``output_tokens_per_second`` claim vs measurements; None when there is none of
    the claim's subject (the caller's default reason applies)."""
    meas = measurements(claim.subject_id, observations)
    if not meas:
        return None
    provider = _claim_provider(claim, {_norm(o.qualifiers["provider"]) for o in meas})
    if provider is None:
        listed = ", ".join(sorted({str(o.qualifiers["provider"]) for o in meas}))
        return SpeedDecision(
            "unverified",
            f"the claim names no provider or hardware; measured for {listed}",
            (),
        )
    same = [
        o
        for o in meas
        if _norm(o.qualifiers["provider"]) == provider
        and _variant(o.qualifiers) == _variant(claim.qualifiers)
    ]
    if not same:
        return SpeedDecision(
            "unverified", f"no measurement of provider {provider} for {claim.subject}", ()
        )
    lo, hi = claim.value.interval()
    stated = [k for k in CLAIM_CONDITIONS if claim.qualifiers.get(k)]
    differ = (
        "the claim states no prompt length, batch size or percentile"
        if not stated
        else f"the claim states {', '.join(stated)}"
    )
    inside = [o for o in same if _inside(o.value.value, lo, hi)]
    o = inside[0] if inside else same[0]
    measured = (
        f"measured {format_value(o.value)} ({conditions_text(o.qualifiers)}; observation #{o.id})"
    )
    if inside:
        return SpeedDecision(
            "confirmed",
            f"{measured} is inside the claimed {format_value(claim.value)}; conditions that "
            f"differ: {differ}",
            tuple(x.id for x in inside),
        )
    return SpeedDecision(
        "unverified",
        f"{measured} is outside the claimed {format_value(claim.value)}, but not a "
        f"contradiction: {differ}",
        (o.id,),
    )


def _inside(v: object, lo: Decimal | None, hi: Decimal | None) -> bool:
    if not isinstance(v, Decimal):
        return False
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def judge_speedup(claim: ClaimView, observations: Sequence[ObsView]) -> SpeedDecision | None:
    """``speedup_factor`` claim (qualifier ``variant``, ``relative_to`` another variant):
    ratio of the two variants' measurements under the same provider, statistic and
    source; None when either variant has no measurement."""
    variant = _variant(claim.qualifiers)
    base = _variant({"variant": claim.qualifiers.get("relative_to")})
    meas = measurements(claim.subject_id, observations)
    fast = [o for o in meas if _variant(o.qualifiers) == variant]
    slow = [o for o in meas if _variant(o.qualifiers) == base]
    for f in fast:
        for s in slow:
            keys = ("provider", "statistic", "measured_by")
            if any(_norm(f.qualifiers.get(k)) != _norm(s.qualifiers.get(k)) for k in keys):
                continue
            if not isinstance(f.value.value, Decimal) or not isinstance(s.value.value, Decimal):
                continue
            if s.value.value == 0:
                continue
            ratio = (f.value.value / s.value.value).quantize(Decimal("0.01"))
            lo, hi = claim.value.interval()
            ok = _inside(ratio, lo, hi)
            return SpeedDecision(
                "confirmed" if ok else "contradicted",
                f"{claim.qualifiers.get('variant')} runs at {ratio} × "
                f"{claim.qualifiers.get('relative_to') or 'the base'} "
                f"({format_value(f.value)} vs {format_value(s.value)}, "
                f"{conditions_text(s.qualifiers)}; observations #{f.id} and #{s.id}); "
                f"claimed {format_value(claim.value)}",
                (f.id, s.id),
            )
    return None
