"""Context window from config.json: cases/C03 and rope scaling."""

from __future__ import annotations

from helpers_verify import real

from claims.readings.config_context import context_window
from claims.values.value import intervals_overlap, quantity

C03_A = {
    "architectures": ["OrcaVLForConditionalGeneration"],
    "model_type": "orca_vl",
    "max_position_embeddings": None,
    "text_config": {
        "model_type": "orca_text",
        "hidden_size": 4096,
        "max_position_embeddings": 262144,
        "rope_theta": 10000000,
    },
    "vision_config": {
        "model_type": "orca_vision",
        "max_position_embeddings": 1024,
        "image_size": 448,
    },
}


def test_c03_a_nested_text_config():
    r = context_window(C03_A)
    assert r.tokens == 262144
    assert r.provenance == "text_config.max_position_embeddings"
    claim = quantity("256", "tokens", scale=1024, exact=True)  # "256 mil" = 256K = 262,144
    assert intervals_overlap(claim, quantity(str(r.tokens), "tokens", exact=True))


def test_c03_b_top_level_wins():
    cfg = {
        "model_type": "orca",
        "max_position_embeddings": 131072,
        "text_config": {"max_position_embeddings": 4096},
    }
    assert context_window(cfg).tokens == 131072
    assert context_window({"model_type": "orca", "max_position_embeddings": 131072}).provenance == (
        "max_position_embeddings"
    )


def test_c03_c_model_max_length():
    r = context_window({"model_type": "orca_linear", "model_max_length": 1048576})
    assert (r.tokens, r.provenance) == (1048576, "model_max_length")


def test_unknown_is_none_with_reason_never_the_vision_tower():
    r = context_window({"model_type": "x", "vision_config": {"max_position_embeddings": 1024}})
    assert r.tokens is None
    assert r.reason == (
        "none of max_position_embeddings, n_positions, max_sequence_length, model_max_length "
        "found at the top level or in text_config"
    )


def test_yarn_deepseek_agrees_with_its_own_length():
    cfg = real("hf_config_deepseek-ai_DeepSeek-V3.json")
    r = context_window(cfg)
    assert (r.tokens, r.provenance, r.native) == (163840, "max_position_embeddings", None)


def test_yarn_extends_a_shorter_native_window():
    cfg = {
        "max_position_embeddings": 32768,
        "rope_scaling": {
            "rope_type": "yarn",
            "factor": 4.0,
            "original_max_position_embeddings": 32768,
        },
    }
    r = context_window(cfg)
    assert (r.tokens, r.native) == (131072, 32768)
    assert r.provenance == "rope_scaling(yarn).factor x original_max_position_embeddings"


def test_context_value_for_observations():
    from decimal import Decimal

    from claims.readings.config_context import context_value

    v = context_value(context_window(C03_A))
    assert v is not None
    assert (v.value, v.unit, v.extra) == (
        Decimal(262144),
        "tokens",
        {"provenance": "text_config.max_position_embeddings"},
    )
    assert context_value(context_window({})) is None
