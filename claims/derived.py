"""Derived checks: a figure verified from two observations, e.g. a price cut relative to
another subject ("about 33 % below K3") from both subjects' observed prices, or a
checkpoint's parameter count from the Hub's raw counts plus its config's weight bits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from claims.compare import span_text, values_conflict
from claims.facts import ClaimView, ObsView
from claims.hub_params import param_count_value, parameter_count
from claims.prices import INPUT_ATTR, OUTPUT_ATTR, price_change_pct
from claims.values import Value, format_value

# Qualifiers that name an offering rather than a measuring condition.
OFFERING_QUALIFIERS: tuple[str, ...] = ("offering", "repo")
SIDES: dict[str, str] = {"output": OUTPUT_ATTR, "input": INPUT_ATTR}


def _conditions(o: ObsView) -> dict[str, object]:
    return {k: v for k, v in o.qualifiers.items() if k not in OFFERING_QUALIFIERS}


def _pairs(mine: Sequence[ObsView], theirs: Sequence[ObsView]) -> list[tuple[ObsView, ObsView]]:
    return [(a, b) for a in mine for b in theirs if _conditions(a) == _conditions(b)]


def judge_price_change(
    claim: ClaimView,
    observations: Sequence[ObsView],
    subject_ids: Mapping[str, int],
) -> tuple[str, str, tuple[int, ...]] | None:
    """Verify a ``price_change_pct`` claim with qualifier ``relative_to`` (a subject slug)
    and optional ``side`` (``output``/``input``; without it output, then input) from the
    current ``price_*_usd_per_mtok`` observations of both subjects under the same
    conditions (provider etc.; offering ids may differ). Prices are Decimal USD per 1M
    (OpenRouter / LiteLLM via :mod:`claims.prices`). Returns (status, reason, evidence)
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


def derive_total_params(observations: Sequence[ObsView]) -> list[ObsView]:
    """``total_params`` observations derived from ``hub_params_raw`` ones (tracker's
    ``huggingface_model`` adapter: ``safetensors.total`` with ``extra`` = ``parameters``
    per dtype, ``total``, ``quant_method``, ``config`` subset) and, for the same subject
    and ``repo``, the ``weights_precision_bits`` read from the raw ``config.json``
    (``huggingface_config`` adapter). Counted by :func:`claims.hub_params.parameter_count`;
    each derived view keeps the raw observation's id as its evidence."""
    bits: dict[tuple[int, str], Decimal] = {}
    for o in observations:
        if (
            o.attribute == "weights_precision_bits"
            and o.current
            and isinstance(o.value.value, Decimal)
        ):
            bits[(o.subject_id, str(o.qualifiers.get("repo", "")))] = o.value.value
    out: list[ObsView] = []
    for o in observations:
        if o.attribute != "hub_params_raw" or not isinstance(o.value.extra.get("parameters"), dict):
            continue
        extra = o.value.extra
        config: dict[str, Any] = dict(extra.get("config") or {})
        qm = extra.get("quant_method")
        b = bits.get((o.subject_id, str(o.qualifiers.get("repo", ""))))
        if qm or b is not None:
            qc: dict[str, Any] = {"quant_method": qm} if qm else {}
            if b is not None:
                qc["bits"] = int(b)
            config["quantization_config"] = qc
        st = {"parameters": extra["parameters"], "total": extra.get("total")}
        count = parameter_count(st, config, extra.get("index_metadata"))
        out.append(replace(o, attribute="total_params", value=param_count_value(count)))
    return out
