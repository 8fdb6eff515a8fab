"""Derived observations: total_params from hub_params_raw + weights_precision_bits."""

from __future__ import annotations

from decimal import Decimal

from helpers_verify import ov, real

from claims.values.value import Value, quantity
from claims.verify.paramcounts import derive_total_params

REPO = {"repo": "moonshotai/Kimi-K2-Thinking"}


def _raw() -> Value:
    info = real("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    total = Decimal(info["safetensors"]["total"])
    return Value(
        kind="quantity",
        value=total,
        unit="params",
        low=total,
        high=total,
        extra={
            "parameters": info["safetensors"]["parameters"],
            "total": info["safetensors"]["total"],
            "quant_method": "compressed-tensors",
            "config": {"model_type": "kimi_k2"},
        },
    )


def test_raw_counts_plus_config_bits():
    raw = ov(4, "hub_params_raw", _raw(), subject=3, q=REPO)
    bits = ov(5, "weights_precision_bits", quantity("4", "bits", exact=True), subject=3, q=REPO)
    (d,) = derive_total_params([raw, bits])
    assert (d.id, d.attribute, d.qualifiers) == (4, "total_params", REPO)
    # 126,835,891,200 x 8 + 43,902,267,888 + 23,040; group size unknown: scales kept
    assert d.value.value == Decimal(1_058_589_420_528)
    assert d.value.extra["method"] == "derived_packed"
    assert d.value.extra["warnings"][0] == (
        "group size unknown: per-group scales not subtracted, the count is slightly high"
    )


def test_raw_counts_without_bits_are_a_lower_bound():
    raw = ov(4, "hub_params_raw", _raw(), subject=3, q=REPO)
    other_repo = ov(
        5,
        "weights_precision_bits",
        quantity("4", "bits", exact=True),
        subject=3,
        q={"repo": "moonshotai/Kimi-K2-Instruct"},
    )
    (d,) = derive_total_params([raw, other_repo])
    assert (d.value.value, d.value.relation) == (Decimal(170_738_182_128), "at_least")


def test_unquantized_raw_counts_are_exact():
    v = Value(
        kind="quantity",
        value=Decimal(412160),
        unit="params",
        low=Decimal(412160),
        high=Decimal(412160),
        extra={"parameters": {"BF16": 8030261248}, "total": 412160},
    )
    (d,) = derive_total_params([ov(1, "hub_params_raw", v)])
    assert (d.value.value, d.value.extra["method"]) == (Decimal(8_030_261_248), "element_count")
