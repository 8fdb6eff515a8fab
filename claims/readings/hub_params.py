"""Parameter count of a Hub checkpoint: Hub ``safetensors`` counts + ``config.json`` -> ParamCount.

The Hub's ``safetensors.parameters`` are element counts per dtype. Packed quantized
weights (INT4/INT8 in I32/U32 words: MLX ``quantization``, compressed-tensors
``pack-quantized``, GPTQ/AWQ ``qweight``) undercount by the packing factor, and the
per-group scales / biases / zero points are bookkeeping, not parameters
(cases/C01, fixtures/real/synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from claims.readings.config_scopes import config_scopes
from claims.values.value import Value

# Integer dtypes that hold packed sub-byte weights, with their width in bits.
PACKED_DTYPES: dict[str, int] = {"I32": 32, "U32": 32, "I8": 8, "U8": 8}
# Float dtypes that can hold per-group scales/biases, in preference order.
SCALE_DTYPES: tuple[str, ...] = ("BF16", "F16", "F32")


@dataclass(frozen=True)
class QuantSettings:
    """Quantization settings as read from ``config.json``; ``where`` names the key path."""

    bits: int | None
    group_size: int | None
    method: str | None  # mlx, compressed-tensors, gptq, awq, fp8, ...
    fmt: str | None = None  # compressed-tensors "format", e.g. pack-quantized
    symmetric: bool | None = None
    where: str = ""


@dataclass(frozen=True)
class ParamCount:
    """A parameter count with how it was obtained.

    ``method``: ``declared_total`` (index metadata ``total_parameters``, plausible),
    ``derived_packed`` (packed words x packing factor, minus bookkeeping),
    ``element_count`` (sum of per-dtype counts; exact for unquantized checkpoints),
    ``lower_bound`` (packed weights present but bits unknown: the true count is larger).
    """

    total: int
    method: str
    warnings: tuple[str, ...] = field(default_factory=tuple)


# ParamCount.method as a clause for people (verdict reasons); Value.extra keeps the name.
METHOD_PHRASES: dict[str, str] = {
    "declared_total": "the Hub count is the total declared in the checkpoint index",
    "derived_packed": "the Hub count is derived from packed quantized weights",
    "element_count": "the Hub count sums the tensors' element counts",
    "lower_bound": "the Hub count is a lower bound (packed weights of unknown bit width)",
}


def method_phrase(method: str) -> str:
    """``derived_packed`` -> ``the Hub count is derived from packed quantized weights``."""
    return METHOD_PHRASES.get(method) or f"Hub count method: {method.replace('_', ' ')}"


def _as_int(x: Any) -> int | None:
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, str) and x.strip().isdigit():
        return int(x)
    return None


def _read_one(q: dict[str, Any], where: str, method_hint: str | None) -> QuantSettings:
    method = q.get("quant_method") or method_hint
    bits = _as_int(q.get("bits"))
    if bits is None:
        bits = _as_int(q.get("w_bit") or q.get("num_bits"))
    group = _as_int(q.get("group_size") or q.get("q_group_size"))
    symmetric = q.get("sym") if isinstance(q.get("sym"), bool) else None
    fmt = q.get("format") if isinstance(q.get("format"), str) else None
    groups = q.get("config_groups")
    if isinstance(groups, dict):  # compressed-tensors: config_groups.<name>.weights
        for g in groups.values():
            w = g.get("weights") if isinstance(g, dict) else None
            if isinstance(w, dict):
                bits = bits if bits is not None else _as_int(w.get("num_bits"))
                group = group if group is not None else _as_int(w.get("group_size"))
                if isinstance(w.get("symmetric"), bool):
                    symmetric = w["symmetric"]
                break
    if method is None and "bits" in q and "group_size" in q:
        method = "mlx"
    return QuantSettings(bits, group, method, fmt, symmetric, where)


def find_quantization(config: dict[str, Any] | None) -> QuantSettings | None:
    """Quantization settings wherever ``config.json`` puts them.

    Looks at the top level (``quantization``: MLX; ``quantization_config``: transformers,
    compressed-tensors, GPTQ, AWQ, FP8) and then inside ``text_config`` / ``language_config`` /
    ``llm_config``. When several carry bits, the first with bits wins; a block with only
    ``quant_method`` (the Hub API's trimmed ``config``) gives ``bits=None``.
    """
    if not config:
        return None
    candidates: list[QuantSettings] = []
    for prefix, scope in config_scopes(config):
        for key, hint in (("quantization", "mlx"), ("quantization_config", None)):
            q = scope.get(key)
            if isinstance(q, dict):
                candidates.append(_read_one(q, prefix + key, hint))
    if not candidates:
        return None
    for c in candidates:
        if c.bits is not None:
            return c
    return candidates[0]


def _params_of(safetensors: dict[str, Any]) -> dict[str, int]:
    raw = safetensors.get("parameters", safetensors)
    out: dict[str, int] = {}
    for dtype, n in (raw or {}).items():
        v = _as_int(n)
        if v is not None:
            out[str(dtype).upper()] = v
    return out


def parameter_count(
    safetensors: dict[str, Any],
    config: dict[str, Any] | None = None,
    index_metadata: dict[str, Any] | None = None,
) -> ParamCount:
    """True parameter count from the Hub API ``safetensors`` block (cases/C01).

    ``safetensors``: ``{"parameters": {dtype: count}, "total": n}`` as the Hub returns it
    (``total`` is never trusted over the per-dtype sum). ``config``: ``config.json``.
    ``index_metadata``: the ``metadata`` of ``model.safetensors.index.json``.

    Rules, in order:

    1. Unquantized (no packed dtype, or no quantization settings): the element sum is exact;
       a declared ``total_parameters`` below it is rejected with a warning (C01 B).
    2. Quantized with packed dtypes: a declared total is used when it is plausible, i.e.
       between the packed element sum and the sum with every packed word fully unpacked
       to 1-bit weights (C01 A1/A2).
    3. Otherwise derive: packed words x (storage bits / bits), minus the per-group
       bookkeeping (MLX: scales + biases = 2 per group; compressed-tensors symmetric:
       1 scale per group; asymmetric / GPTQ / AWQ: scale + zero point) taken out of the
       float dtype that holds them (C01 A3; Kimi-like INT4 in I32: 1,026,880,447,728).
    4. Packed dtypes but unknown bits: ``lower_bound`` with a warning.
    """
    params = _params_of(safetensors)
    warnings: list[str] = []
    element_sum = sum(params.values())
    hub_total = _as_int(safetensors.get("total")) if isinstance(safetensors, dict) else None
    if hub_total is not None and hub_total != element_sum:
        warnings.append(
            f"hub safetensors.total {hub_total:,} differs from the per-dtype sum {element_sum:,}"
        )
    declared = _as_int((index_metadata or {}).get("total_parameters"))
    quant = find_quantization(config)
    packed = {d: n for d, n in params.items() if d in PACKED_DTYPES}
    quantized = bool(packed) and quant is not None and quant.method not in ("fp8",)

    if not quantized:
        return _unquantized(element_sum, declared, warnings)

    assert quant is not None
    max_unpacked = element_sum + sum(n * (PACKED_DTYPES[d] - 1) for d, n in packed.items())
    if declared is not None:
        if element_sum <= declared <= max_unpacked:
            return ParamCount(declared, "declared_total", tuple(warnings))
        warnings.append(
            f"declared total_parameters {declared:,} rejected: outside the plausible range "
            f"{element_sum:,}-{max_unpacked:,} for this packed checkpoint"
        )
    if quant.bits is None:
        warnings.append(
            f"packed dtypes {sorted(packed)} present but the quantization bits are unknown "
            f"({quant.where or 'config'}); the count is a lower bound"
        )
        return ParamCount(element_sum, "lower_bound", tuple(warnings))

    return _derived_packed(params, packed, quant, quant.bits, warnings)


def _unquantized(element_sum: int, declared: int | None, warnings: list[str]) -> ParamCount:
    """Rule 1 of :func:`parameter_count`: the element sum is exact; a differing declared
    ``total_parameters`` only adds a warning (C01 B)."""
    if declared is not None and declared != element_sum:
        if declared < element_sum:
            warnings.append(
                f"declared total_parameters {declared:,} rejected: below the element count "
                f"{element_sum:,} of an unquantized checkpoint"
            )
        else:
            warnings.append(
                f"declared total_parameters {declared:,} differs from the element count "
                f"{element_sum:,}; element count kept"
            )
    return ParamCount(element_sum, "element_count", tuple(warnings))


def _derived_packed(
    params: dict[str, int],
    packed: dict[str, int],
    quant: QuantSettings,
    bits: int,
    warnings: list[str],
) -> ParamCount:
    """Rule 3 of :func:`parameter_count`: packed words x (storage bits / ``bits``), minus
    the per-group bookkeeping taken out of the float dtype that holds it (C01 A3)."""
    unpacked = sum(n * (PACKED_DTYPES[d] // bits) for d, n in packed.items())
    per_group = 1
    method = (quant.method or "").lower()
    if method == "mlx" or quant.where.endswith("quantization"):
        per_group = 2  # MLX affine: one scale and one bias per group
    elif quant.symmetric is False or method in ("gptq", "awq"):
        per_group = 2
        warnings.append("zero points assumed stored beside scales; count is approximate")
    bookkeeping = 0
    if quant.group_size:
        bookkeeping = per_group * unpacked // quant.group_size
    else:
        warnings.append(
            "group size unknown: per-group scales not subtracted, the count is slightly high"
        )
    rest = {d: n for d, n in params.items() if d not in PACKED_DTYPES}
    holder = next((d for d in SCALE_DTYPES if rest.get(d, 0) >= bookkeeping), None)
    if bookkeeping and holder is None:
        warnings.append(
            f"per-group bookkeeping {bookkeeping:,} does not fit any float dtype; not subtracted"
        )
    elif holder is not None:
        rest[holder] -= bookkeeping
    if "compressed" in method:
        warnings.append(
            "weight_shape tensors (I32) cannot be separated from packed weights in per-dtype "
            "counts; overcount of a few million at most"
        )
    total = unpacked + sum(rest.values())
    return ParamCount(total, "derived_packed", tuple(warnings))


def param_count_value(count: ParamCount) -> Value:
    """The observed ``total_params`` value for a :class:`ParamCount` (exact; a lower bound
    becomes ``relation="at_least"``), with ``extra`` {method, warnings}."""
    v = Decimal(count.total)
    return Value(
        kind="quantity",
        value=v,
        unit="params",
        low=v,
        high=v,
        relation="at_least" if count.method == "lower_bound" else None,
        extra={"method": count.method, "warnings": list(count.warnings)},
    )
