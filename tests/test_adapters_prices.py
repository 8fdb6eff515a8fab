"""openrouter_models (cases/C07) and litellm_prices (cases/C08) on real payloads."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from cycle_setup import DATA

from tracker.adapters import Fetched, get_adapter
from tracker.errors import LayoutChanged

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)


def parse(kind, body, params=None):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return get_adapter(kind).parse(
        Fetched.from_body("https://example.org/x", raw, AT), params or {}
    )


def table(result):
    return {
        (v.subject_ref[1], v.attribute, tuple(sorted(v.qualifiers.items()))): v.value.value
        for v in result.values
    }


def test_openrouter_real_excerpt_prices_are_exact_per_million():
    result = parse(
        "openrouter_models", (DATA / "openrouter_models_excerpt_2025-11-08.json").read_bytes()
    )
    got = table(result)
    assert got[("moonshotai/kimi-k2-thinking", "price_input_usd_per_mtok", ())] == Decimal("0.6")
    assert got[("moonshotai/kimi-k2-thinking", "price_output_usd_per_mtok", ())] == Decimal("2.5")
    assert got[("moonshotai/kimi-k2-thinking", "context_window", ())] == Decimal(262144)
    assert got[("moonshotai/kimi-k2-0905", "price_input_usd_per_mtok", ())] == Decimal("0.39")
    assert got[
        ("moonshotai/kimi-k2-0905", "price_input_usd_per_mtok", (("offering", "exacto"),))
    ] == Decimal("0.6")
    assert got[("deepseek/deepseek-chat-v3-0324", "price_output_usd_per_mtok", ())] == Decimal(
        "0.84"
    )
    free = ("deepseek/deepseek-chat-v3-0324", "price_output_usd_per_mtok", (("offering", "free"),))
    assert got[free] == Decimal(0)
    # 30 prices and contexts + 8 listing days (`created`; none for a :suffix offering)
    assert len(result.values) == 38 and result.warnings == []
    listed = {v.subject_ref[1]: v.value for v in result.values if v.attribute == "release_date"}
    k2t_day = listed["moonshotai/kimi-k2-thinking"]
    assert (k2t_day.value, k2t_day.relation) == ("2025-11-06", "on")  # created 1762440622
    assert k2t_day.extra["created"] == "2025-11-06T14:50:22+00:00"
    k2t = next(v for v in result.values if v.subject_ref[1] == "moonshotai/kimi-k2-thinking")
    assert k2t.alt_refs == (("huggingface", "moonshotai/Kimi-K2-Thinking"),)
    assert k2t.value.extra == {"per_token": "0.0000006"}
    cloaked = next(v for v in result.values if v.subject_ref[1] == "openrouter/polaris-alpha")
    assert cloaked.alt_refs == ()  # hugging_face_id "" is no Hub ref


def test_c07_sentinel_and_free_offering():
    body = json.loads((DATA / "c07_openrouter_models.json").read_text())
    result = parse("openrouter_models", body)
    assert table(result) == {
        ("router/auto", "context_window", ()): Decimal(1000000),
        ("acme/orca-9b", "price_input_usd_per_mtok", ()): Decimal("0.57"),
        ("acme/orca-9b", "price_output_usd_per_mtok", ()): Decimal("3.3"),
        ("acme/orca-9b", "context_window", ()): Decimal(131072),
        ("acme/orca-9b", "price_input_usd_per_mtok", (("offering", "free"),)): Decimal(0),
        ("acme/orca-9b", "price_output_usd_per_mtok", (("offering", "free"),)): Decimal(0),
        ("acme/orca-9b", "context_window", (("offering", "free"),)): Decimal(131072),
    }
    prices = [v.value for v in result.values if v.attribute.startswith("price")]
    assert [p.display() for p in prices[:2]] == ["$0.57 per 1M tokens", "$3.30 per 1M tokens"]
    assert result.warnings == []


def test_openrouter_without_data_is_layout_changed():
    with pytest.raises(LayoutChanged):
        parse("openrouter_models", {"error": {"code": 429}})


def test_litellm_real_excerpt():
    result = parse(
        "litellm_prices",
        (DATA / "litellm_model_prices_moonshot_excerpt.json").read_bytes(),
        {"variants": {"moonshot/kimi-k3.1-pro-highspeed": "Highspeed"}},
    )
    got = table(result)
    moon = (("provider", "moonshot"),)
    assert got[("moonshot/kimi-k3.1-pro", "price_input_usd_per_mtok", moon)] == Decimal(2)
    assert got[("moonshot/kimi-k3.1-pro", "price_output_usd_per_mtok", moon)] == Decimal(10)
    assert got[("moonshot/kimi-k3.1-pro", "context_window", moon)] == Decimal(1048576)
    fast = (("provider", "moonshot"), ("variant", "Highspeed"))
    assert got[("moonshot/kimi-k3.1-pro-highspeed", "price_input_usd_per_mtok", fast)] == Decimal(4)
    assert got[("moonshot/kimi-k3.1-pro-highspeed", "price_output_usd_per_mtok", fast)] == Decimal(
        20
    )
    assert got[("moonshot/kimi-k3", "price_output_usd_per_mtok", moon)] == Decimal(15)
    bedrock = (("provider", "bedrock_converse"),)
    assert got[("moonshot.kimi-k2-thinking", "price_output_usd_per_mtok", bedrock)] == Decimal(
        "2.5"
    )
    keys = {k[0] for k in got}
    assert "sample_spec" not in keys and "moonshot/kimi-latest" not in keys
    assert result.warnings == []


def test_c08_per_token_field_with_an_implausible_figure_is_a_unit_error():
    body = (
        b'{"acme/orca-9b": {"input_cost_per_token": 0.045, "output_cost_per_token": 0.18, '
        b'"litellm_provider": "acme", "mode": "chat"}}'
    )
    result = parse("litellm_prices", body)
    assert result.values == []
    assert result.warnings == [
        "litellm acme/orca-9b: input_cost_per_token 0.045 is 45000.000 USD per 1M tokens, "
        "implausible; rejected as a unit error",
        "litellm acme/orca-9b: output_cost_per_token 0.18 is 180000.00 USD per 1M tokens, "
        "implausible; rejected as a unit error",
    ]
