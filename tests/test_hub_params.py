"""Parameter counts of packed checkpoints: cases/C01 and the Kimi-like INT4 payload."""

from __future__ import annotations

from decimal import Decimal

from helpers_verify import real

from claims.readings.hub_params import find_quantization, param_count_value, parameter_count
from claims.values.value import intervals_overlap, quantity

MLX_CONFIG_4 = {
    "model_type": "orca_moe",
    "quantization": {"group_size": 64, "bits": 4},
    "quantization_config": {"group_size": 64, "bits": 4},
}
MLX_CONFIG_8 = {
    "model_type": "orca_moe",
    "quantization": {"group_size": 64, "bits": 8},
    "quantization_config": {"group_size": 64, "bits": 8},
}
INDEX_A = {"total_size": 68042750000, "total_parameters": 119912000000}


def test_c01_a1_declared_total_of_mlx_4bit():
    st = {"parameters": {"BF16": 4146375000, "U32": 14937500000}, "total": 19083875000}
    pc = parameter_count(st, MLX_CONFIG_4, INDEX_A)
    assert pc.total == 119_912_000_000
    assert pc.method == "declared_total"
    assert pc.warnings == ()


def test_c01_a2_8bit_sibling_same_size():
    st = {"parameters": {"BF16": 4146375000, "U32": 29875000000}, "total": 34021375000}
    pc = parameter_count(st, MLX_CONFIG_8, INDEX_A)
    assert pc.total == 119_912_000_000


def test_c01_a2_derived_without_declared_total_also_same_size():
    st = {"parameters": {"BF16": 4146375000, "U32": 29875000000}, "total": 34021375000}
    pc = parameter_count(st, MLX_CONFIG_8, {"total_size": 1})
    # 29,875,000,000 x 4 = 119.5B; 2 x 119.5B / 64 = 3,734,375,000 bookkeeping
    assert pc.total == 119_912_000_000
    assert pc.method == "derived_packed"


def test_c01_a3_derived_from_config():
    st = {"parameters": {"BF16": 4146375000, "U32": 14937500000}, "total": 19083875000}
    pc = parameter_count(st, MLX_CONFIG_4, {"total_size": 68042750000})
    assert pc.total == 119_912_000_000
    assert pc.method == "derived_packed"


def test_c01_120b_claim_consistent():
    st = {"parameters": {"BF16": 4146375000, "U32": 14937500000}, "total": 19083875000}
    observed = param_count_value(parameter_count(st, MLX_CONFIG_4, INDEX_A))
    assert intervals_overlap(quantity("120", "params", scale=10**9), observed)
    # the naive count would have contradicted it
    assert not intervals_overlap(
        quantity("120", "params", scale=10**9), quantity("19083875000", "params", exact=True)
    )


def test_c01_b_implausible_declared_total_rejected():
    st = {"parameters": {"BF16": 8030261248}, "total": 412160}
    pc = parameter_count(st, {"model_type": "orca"}, {"total_parameters": 412160})
    assert pc.total == 8_030_261_248
    assert pc.method == "element_count"
    assert any("declared total_parameters 412,160 rejected" in w for w in pc.warnings)
    assert any("safetensors.total 412,160" in w for w in pc.warnings)


def _kimi():
    return real("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")


def test_kimi_like_int4_compressed_tensors():
    info = _kimi()
    assert info["safetensors"]["total"] == 170_738_182_128  # the naive ~170.7B
    pc = parameter_count(info["safetensors"], info["_raw_config_json_excerpt"], None)
    # I32 126,835,891,200 x 8 + BF16 43,902,267,888 - scales (x8 / 32) + F32 23,040
    assert pc.total == 1_026_880_447_728
    assert pc.method == "derived_packed"
    assert any("weight_shape" in w for w in pc.warnings)
    one_t = quantity("1", "params", scale=10**12)  # "1T" -> 0.5T-1.5T
    assert one_t.interval() == (Decimal("500000000000"), Decimal("1500000000000"))
    assert intervals_overlap(one_t, param_count_value(pc))


def test_kimi_like_api_config_without_bits_is_a_lower_bound():
    info = _kimi()
    pc = parameter_count(info["safetensors"], info["config"], None)
    assert pc.total == 170_738_182_128
    assert pc.method == "lower_bound"
    v = param_count_value(pc)
    assert v.relation == "at_least" and v.interval() == (Decimal(170738182128), None)


def test_quantization_found_nested_in_text_config():
    cfg = {"model_type": "vl", "text_config": {"quantization": {"bits": 4, "group_size": 32}}}
    q = find_quantization(cfg)
    assert q is not None
    assert (q.bits, q.group_size, q.method, q.where) == (4, 32, "mlx", "text_config.quantization")


def test_fp8_checkpoint_counts_elements():
    cfg = real("hf_config_deepseek-ai_DeepSeek-V3.json")
    st = {"parameters": {"BF16": 3918786560, "F8_E4M3": 680571043840, "F32": 41555600}}
    pc = parameter_count(st, cfg, None)
    assert pc.total == 3918786560 + 680571043840 + 41555600
    assert pc.method == "element_count"


def test_gptq_layout_is_close_with_a_warning():
    # One 4096x4096 linear in GPTQ 4-bit, group 128 (qweight, qzeros, g_idx in I32; scales
    # F16) plus a 1000x4096 F16 embedding: true count 16,777,216 + 4,096,000 = 20,873,216.
    st = {"parameters": {"I32": 2_097_152 + 16_384 + 4_096, "F16": 131_072 + 4_096_000}}
    cfg = {"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}}
    pc = parameter_count(st, cfg, None)
    assert pc.total == 20_903_424  # g_idx words counted as weights: +0.14 %
    assert pc.method == "derived_packed"
    assert pc.warnings == ("zero points assumed stored beside scales; count is approximate",)
    assert abs(pc.total - 20_873_216) / 20_873_216 < 0.002
