"""Output speed claims against independent measurements, conditions side by side (pure).

A measurement (``output_tokens_per_second`` observation) states its conditions as
qualifiers: ``provider`` (who served it), ``endpoint``, ``statistic`` (``p50``...),
``window`` and ``measured_by``. A claim is comparable with measurements of the provider
its ``provider`` or ``hardware`` qualifier names, of the same variant. A claim with an
open top ("2,000+") or stating no conditions is confirmed only when such a measurement
falls inside it; one outside it is reported, not read as a contradiction, because the
claim's conditions (prompt length, batch, percentile) are unknown. Of a source that
publishes several percentiles (Artificial Analysis: p5, p25, median, p75, p95 per
provider) the one the claim states is compared, else the median; the reason names each
source's measurement with its conditions and the p5-p95 spread when published. A
speed-up factor between two variants is the ratio of their medians under the same
provider, statistic and source, per source; sources that disagree leave it unverified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from claims.values.value import Value, format_value
from claims.verify.facts import ClaimView, ObsView

TPS = "output_tokens_per_second"
# Condition qualifiers a measurement states, in the order reasons list them.
MEASUREMENT_CONDITIONS: tuple[str, ...] = (
    "provider",
    "conditions",
    "endpoint",
    "statistic",
    "window",
    "prompt_length",
    "parallel_queries",
    "prompt_tokens",
    "measured_by",
)
# Statistic names that mean the median (OpenRouter ``p50``, Artificial Analysis ``median``).
MEDIAN_NAMES: frozenset[str] = frozenset({"p50", "median"})
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


def _statistic(q: dict) -> str:
    st = _norm(q.get("statistic") or "")
    return "median" if st in MEDIAN_NAMES else st


def compared(claim: ClaimView, same: Sequence[ObsView]) -> list[ObsView]:
    """The measurements a claim is compared with: those of the statistic the claim
    states, else the medians; all of them when a source publishes neither."""
    want = _statistic(claim.qualifiers) if claim.qualifiers.get("statistic") else "median"
    picked = [o for o in same if _statistic(o.qualifiers) == want]
    return picked or [o for o in same if not o.qualifiers.get("statistic")] or list(same)


def _measured(o: ObsView) -> str:
    """``1,384 tokens/s (provider Cerebras, ..., measured by OpenRouter; observation #6)``,
    with ``p5–p95 low–high`` when the observation carries its spread."""
    spread = ""
    lo, hi = o.value.extra.get("p5"), o.value.extra.get("p95")
    if lo is not None and hi is not None:
        span = Value(kind="range", value=None, unit=o.value.unit, low=Decimal(lo), high=Decimal(hi))
        spread = f", p5–p95 {format_value(span)}"
    return f"{format_value(o.value)} ({conditions_text(o.qualifiers)}{spread}; observation #{o.id})"


def _source(o: ObsView) -> str:
    return _norm(o.qualifiers.get("measured_by") or "")


def _is(obs: Sequence[ObsView]) -> str:
    return "is" if len(obs) == 1 else "are"


def _per_source(obs: Sequence[ObsView]) -> list[ObsView]:
    """The first observation of each source (``measured_by``), in order."""
    seen: dict[str, ObsView] = {}
    for o in obs:
        seen.setdefault(_source(o), o)
    return list(seen.values())


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
    same = compared(claim, same)
    lo, hi = claim.value.interval()
    stated = [k for k in CLAIM_CONDITIONS if claim.qualifiers.get(k)]
    differ = (
        "the claim states no prompt length, batch size or percentile"
        if not stated
        else f"the claim states {', '.join(stated)}"
    )
    inside = [o for o in same if _inside(o.value.value, lo, hi)]
    settled = {_source(o) for o in inside}
    outside = [o for o in _per_source(same) if _source(o) not in settled]
    claimed = format_value(claim.value)
    if inside:
        shown = _per_source(inside)
        also = "; outside it: " + " and ".join(map(_measured, outside)) if outside else ""
        return SpeedDecision(
            "confirmed",
            f"measured {' and '.join(map(_measured, shown))} {_is(shown)} inside the claimed "
            f"{claimed}{also}; conditions that differ: {differ}",
            tuple(x.id for x in inside),
        )
    return SpeedDecision(
        "unverified",
        f"measured {' and '.join(map(_measured, outside))} {_is(outside)} outside the claimed "
        f"{claimed}, but not a contradiction: {differ}",
        tuple(o.id for o in outside),
    )


def _inside(v: object, lo: Decimal | None, hi: Decimal | None) -> bool:
    if not isinstance(v, Decimal):
        return False
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _ratios(fast: Sequence[ObsView], slow: Sequence[ObsView]) -> list[tuple[ObsView, ObsView]]:
    """Pairs (fast, slow) under the same provider, statistic and source, medians first,
    one pair per source."""
    keys = ("provider", "measured_by")
    pairs: dict[str, tuple[ObsView, ObsView]] = {}
    ordered = sorted(fast, key=lambda o: _statistic(o.qualifiers) != "median")
    for f in ordered:
        for s in slow:
            if any(_norm(f.qualifiers.get(k)) != _norm(s.qualifiers.get(k)) for k in keys):
                continue
            if _statistic(f.qualifiers) != _statistic(s.qualifiers):
                continue
            if not isinstance(f.value.value, Decimal) or not isinstance(s.value.value, Decimal):
                continue
            if s.value.value == 0:
                continue
            pairs.setdefault(_source(f), (f, s))
    return list(pairs.values())


def judge_speedup(claim: ClaimView, observations: Sequence[ObsView]) -> SpeedDecision | None:
    """``speedup_factor`` claim (qualifier ``variant``, ``relative_to`` another variant):
    ratio of the two variants' measurements under the same provider, statistic and
    source (medians preferred), one per source; confirmed or contradicted when every
    source agrees, unverified (both named) when they do not; None when either variant
    has no measurement."""
    variant = _variant(claim.qualifiers)
    base = _variant({"variant": claim.qualifiers.get("relative_to")})
    meas = measurements(claim.subject_id, observations)
    fast = [o for o in meas if _variant(o.qualifiers) == variant]
    slow = [o for o in meas if _variant(o.qualifiers) == base]
    pairs = _ratios(fast, slow)
    if not pairs:
        return None
    lo, hi = claim.value.interval()
    parts: list[str] = []
    verdicts: set[bool] = set()
    ids: list[int] = []
    for f, s in pairs:
        assert isinstance(f.value.value, Decimal) and isinstance(s.value.value, Decimal)
        ratio = (f.value.value / s.value.value).quantize(Decimal("0.01"))
        verdicts.add(_inside(ratio, lo, hi))
        ids.extend((f.id, s.id))
        parts.append(
            f"{claim.qualifiers.get('variant')} runs at {ratio} × "
            f"{claim.qualifiers.get('relative_to') or 'the base'} "
            f"({format_value(f.value)} vs {format_value(s.value)}, "
            f"{conditions_text(s.qualifiers)}; observations #{f.id} and #{s.id})"
        )
    if len(verdicts) > 1:
        status = "unverified"
        tail = "; the sources disagree on whether it is inside the claim"
    else:
        status = "confirmed" if verdicts == {True} else "contradicted"
        tail = ""
    return SpeedDecision(
        status, f"{'; '.join(parts)}; claimed {format_value(claim.value)}{tail}", tuple(ids)
    )
