"""Parameter counts as the Hub's raw figures give them, for comparing with claims: an
observation's effective value (a ``total_params`` recounted from its safetensors block)
and the ``total_params`` observations derived from ``hub_params_raw`` ones. Apart from
the verdict rules (:mod:`claims.verify.judge`, :mod:`claims.verify.derived`): the site
build turns observations into views with these alone, without loading those rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from claims.readings.hub_params import param_count_value, parameter_count
from claims.values.value import Value
from claims.verify.facts import ObsView

PARAM_ATTRIBUTES: tuple[str, ...] = ("total_params",)


def effective_value(attribute: str, value: Value) -> Value:
    """The value to compare for an observation.

    ``total_params`` observed from the Hub with ``extra["safetensors"]`` (the API's
    ``safetensors`` block; or ``extra["safetensors_parameters"]``: its per-dtype dict),
    ``extra["config"]`` (``config.json``) and ``extra["index_metadata"]`` (index file
    ``metadata``) is recounted by :func:`claims.readings.hub_params.parameter_count`; anything else
    is used as stored."""
    extra: dict[str, Any] = value.extra
    if attribute in PARAM_ATTRIBUTES and (
        "safetensors" in extra or "safetensors_parameters" in extra
    ):
        st = extra.get("safetensors") or {"parameters": extra["safetensors_parameters"]}
        count = parameter_count(st, extra.get("config"), extra.get("index_metadata"))
        return param_count_value(count)
    return value


def derive_total_params(observations: Sequence[ObsView]) -> list[ObsView]:
    """``total_params`` observations derived from ``hub_params_raw`` ones (tracker's
    ``huggingface_model`` adapter: ``safetensors.total`` with ``extra`` = ``parameters``
    per dtype, ``total``, ``quant_method``, ``config`` subset) and, for the same subject
    and ``repo``, the ``weights_precision_bits`` read from the raw ``config.json``
    (``huggingface_config`` adapter). Counted by :func:`claims.readings.hub_params.parameter_count`;
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
