"""Active parameters per token from config.json (claims.readings.moe_params): the MoE
arithmetic on real configs, with the embeddings convention stated in the formula."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims.readings.moe_params import active_parameters

DATA = Path(__file__).resolve().parent / "data"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "real"

# Kimi K2's architecture (DeepSeek-V3 layout with 64 heads, 384 experts, 1 dense layer),
# as the demo's config.json and public inference code give it.
KIMI_K2 = {
    "model_type": "kimi_k2",
    "hidden_size": 7168,
    "vocab_size": 163840,
    "num_hidden_layers": 61,
    "first_k_dense_replace": 1,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "n_routed_experts": 384,
    "n_shared_experts": 1,
    "num_experts_per_tok": 8,
    "num_attention_heads": 64,
    "q_lora_rank": 1536,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
}


def _deepseek_v3() -> dict:
    path = DATA / "hf_config_deepseek-ai_DeepSeek-V3.json"
    if not path.exists():
        path = SHARED / "hf_config_deepseek-ai_DeepSeek-V3.json"
    if not path.exists():
        pytest.skip("DeepSeek-V3 config fixture not present")
    return json.loads(path.read_text())


def test_deepseek_v3_real_config_gives_its_published_37b_active_within_2_percent():
    r = _deepseek_v3()
    reading = active_parameters(r)
    assert reading.family == "deepseek"
    assert reading.active == 36_624_596_992
    assert abs(reading.active - 37e9) / 37e9 < 0.02  # -1.0 %
    # the same arithmetic over all experts gives the published 671B total (MTP excluded)
    assert reading.total == 671_025_397_760
    assert reading.formula == (
        "61 layers x MLA attention 128 heads (q_lora 1536, kv_lora 512) (187,105,280) + "
        "3 dense MLP layers x 396,361,728 + 58 MoE layers x (active experts 396,361,728 + "
        "router 1,835,008) + output head 926,679,040 = 36,624,596,992; input embedding not "
        "counted (a lookup), output head counted, multi-token-prediction layers and norms "
        "not counted"
    )


def test_kimi_k2_architecture_gives_32b_active_and_the_hubs_1_03t_total():
    reading = active_parameters(KIMI_K2)
    assert reading.active == 31_686_066_176  # "32B activated"
    assert reading.total == 1_026_407_202_816  # the Hub counts 1,026,880,447,728 (norms)


def test_qwen3_moe_with_grouped_query_attention():
    # Qwen3-235B-A22B's published config values (the fixture's expand[] excerpt keeps only
    # the expert counts: num_experts 128, num_experts_per_tok 8)
    excerpt = json.loads(
        (DATA / "hf_model_info_expand_Qwen_Qwen3-235B-A22B_note_excerpt.json").read_text()
    )
    cfg = dict(excerpt["config"])
    assert active_parameters(cfg).active is None  # widths missing: never a guess
    assert "lacks a width" in str(active_parameters(cfg).reason)
    cfg.update(
        hidden_size=4096, vocab_size=151936, num_hidden_layers=94, num_attention_heads=64,
        num_key_value_heads=4, head_dim=128, moe_intermediate_size=1536,
    )  # fmt: skip
    reading = active_parameters(cfg)
    assert reading.family == "qwen_moe"
    assert reading.active == 21_567_635_456  # "A22B", -2.0 %
    assert reading.total == 235_092_836_352  # "235B"


def test_mixtral_every_layer_sparse():
    cfg = {
        "model_type": "mixtral", "hidden_size": 4096, "vocab_size": 32000,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2,
    }  # fmt: skip
    reading = active_parameters(cfg)
    assert reading.family == "mixtral"
    assert reading.active == 12_748_587_008  # published 12.9B counts the embedding too
    assert reading.total == 46_702_526_464  # published 46.7B


def test_dense_or_empty_config_has_no_active_count():
    assert active_parameters(None).reason == "no config.json"
    dense = {"hidden_size": 4096, "num_hidden_layers": 32, "vocab_size": 32000}
    assert active_parameters(dense).reason == "config.json describes no mixture of experts"


def test_multimodal_wrapper_reads_the_text_config():
    wrapped = {
        "model_type": "kimi_k25",
        "vision_config": {"hidden_size": 1152},
        "text_config": KIMI_K2,
    }
    assert active_parameters(wrapped).active == 31_686_066_176
