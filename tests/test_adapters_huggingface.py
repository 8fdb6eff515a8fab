"""Hub adapters on real / real-format payloads (tests/data, copied from fixtures/real)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from cycle_setup import DATA

from tracker.adapters import Fetched, get_adapter
from tracker.adapters.base import register
from tracker.errors import ConfigError, LayoutChanged, ParseError

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)


def fetched(url: str, name_or_obj, headers=None) -> Fetched:
    if isinstance(name_or_obj, str):
        body = (DATA / name_or_obj).read_bytes()
    else:
        body = json.dumps(name_or_obj).encode()
    return Fetched.from_body(url, body, AT, headers=headers)


def by_attr(values):
    return {v.attribute: v for v in values}


def test_org_listing_page_gives_weights_available_per_repo_and_next_cursor():
    page = json.loads((DATA / "synthetic_hf_models_list_paginated_response.json").read_text())
    f = fetched(page["request"]["url"], page["body"], headers=page["headers"])
    result = get_adapter("huggingface_org").parse(f, {"org": "moonshotai"})
    assert [
        (v.subject_ref, v.attribute, v.value.value, dict(v.qualifiers)) for v in result.values
    ] == [
        (
            ("huggingface", "moonshotai/Kimi-K2-Thinking"),
            "weights_available",
            True,
            {"repo": "moonshotai/Kimi-K2-Thinking"},
        ),
        (
            ("huggingface", "MiniMaxAI/MiniMax-M2"),
            "weights_available",
            True,
            {"repo": "MiniMaxAI/MiniMax-M2"},
        ),
    ]
    assert result.values[0].value.extra == {"created_at": "2025-11-04T08:25:31.000Z"}
    assert result.next_url == (
        "https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1"
        "&limit=2&cursor=PLACEHOLDER_OPAQUE_CURSOR"
    )


def test_org_listing_last_page_has_no_next():
    f = fetched(
        "https://huggingface.co/api/models?author=x",
        "hf_models_list_default_fields_excerpt_2025-11.json",
    )
    assert get_adapter("huggingface_org").parse(f, {}).next_url is None


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"error": "Invalid username or password."}', "expected a JSON list"),
        (b"<html>Just a moment...</html>", "body is not JSON"),
        (b'[{"name": "no id"}]', "item 0 has no model id"),
    ],
)
def test_org_listing_failure_shapes(body, message):
    f = Fetched.from_body("https://huggingface.co/api/models?author=x", body, AT)
    with pytest.raises(ParseError, match=message):
        get_adapter("huggingface_org").parse(f, {})


def test_model_info_int4_kimi_like():
    f = fetched(
        "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking",
        "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json",
    )
    values = get_adapter("huggingface_model").parse(f, {}).values
    got = by_attr(values)
    assert sorted(got) == ["hub_params_raw", "license", "repo_created", "weights_available"]
    assert all(v.qualifiers == {"repo": "moonshotai/Kimi-K2-Thinking"} for v in values)
    assert got["license"].value.value == "modified-mit"
    assert got["repo_created"].value.value == "2025-11-04"
    assert got["repo_created"].value.relation == "on"
    raw = got["hub_params_raw"].value
    assert raw.value == Decimal(170738182128)
    assert raw.extra["parameters"] == {"BF16": 43902267888, "F32": 23040, "I32": 126835891200}
    assert raw.extra["total"] == 170738182128
    assert raw.extra["quant_method"] == "compressed-tensors"
    assert raw.extra["config"] == {
        "architectures": ["DeepseekV3ForCausalLM"],
        "model_type": "kimi_k2",
    }


def test_model_info_bert_real_capture():
    f = fetched(
        "https://huggingface.co/api/models/google-bert/bert-base-uncased",
        "hf_model_info_google-bert_bert-base-uncased.json",
    )
    got = by_attr(get_adapter("huggingface_model").parse(f, {}).values)
    assert got["license"].value.value == "apache-2.0"
    assert got["gated"].value.value == "false"
    assert got["weights_available"].value.value is True
    assert "repo_created" not in got  # 2022-03-02T23:29:04 is the "unknown" placeholder
    assert got["hub_params_raw"].value.value == Decimal(110106428)
    assert got["hub_params_raw"].value.extra["parameters"] == {"F32": 110106428}
    assert "quant_method" not in got["hub_params_raw"].value.extra


def test_model_info_licence_from_tag_and_gated_manual():
    info = {"id": "meta-llama/Llama-3.1-8B", "gated": "manual", "tags": ["license:llama3.1"]}
    got = by_attr(get_adapter("huggingface_model").parse(fetched("https://h/x", info), {}).values)
    assert got["license"].value.value == "llama3.1"
    assert got["gated"].value.value == "manual"


def test_model_info_without_id_is_layout_changed():
    with pytest.raises(LayoutChanged):
        get_adapter("huggingface_model").parse(fetched("https://h/x", {"error": "x"}), {})


def test_config_json_deepseek_v3_real():
    f = fetched(
        "https://huggingface.co/deepseek-ai/DeepSeek-V3/resolve/main/config.json",
        "hf_config_deepseek-ai_DeepSeek-V3.json",
    )
    got = by_attr(get_adapter("huggingface_config").parse(f, {}).values)
    assert got["context_window"].value.value == Decimal(163840)
    assert got["context_window"].value.extra == {"key": "max_position_embeddings"}
    assert got["context_window"].subject_ref == ("huggingface", "deepseek-ai/DeepSeek-V3")
    assert "weights_precision_bits" not in got  # fp8 block quantization states no num_bits


@pytest.mark.parametrize(
    ("config", "expected", "key"),
    [
        (
            {
                "max_position_embeddings": None,
                "text_config": {"max_position_embeddings": 262144},
                "vision_config": {"max_position_embeddings": 1024},
            },
            262144,
            "text_config.max_position_embeddings",
        ),
        (
            {"model_type": "orca", "max_position_embeddings": 131072},
            131072,
            "max_position_embeddings",
        ),
        ({"model_type": "orca_linear", "model_max_length": 1048576}, 1048576, "model_max_length"),
    ],
)
def test_config_context_c03(config, expected, key):
    f = fetched("https://huggingface.co/acme/Orca/resolve/main/config.json", config)
    got = by_attr(get_adapter("huggingface_config").parse(f, {}).values)
    assert got["context_window"].value.value == Decimal(expected)
    assert got["context_window"].value.extra["key"] == key


def test_config_without_context_gives_nothing_not_a_default():
    f = fetched("https://huggingface.co/acme/Orca/resolve/main/config.json", {"model_type": "x"})
    assert get_adapter("huggingface_config").parse(f, {}).values == []


def test_config_kimi_int4_bits():
    synth = json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )
    f = fetched(
        "https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/config.json",
        synth["_raw_config_json_excerpt"],
    )
    got = by_attr(get_adapter("huggingface_config").parse(f, {}).values)
    assert got["context_window"].value.value == Decimal(262144)
    assert got["weights_precision_bits"].value.value == Decimal(4)


def test_registry_rejects_unknown_and_duplicate_kinds():
    with pytest.raises(ConfigError, match="unknown adapter kind 'nope'"):
        get_adapter("nope")
    with pytest.raises(ConfigError, match="'huggingface_org' is registered twice"):
        register("huggingface_org")(lambda f, p: None)
