"""Prices: OpenRouter strings, LiteLLM floats, vendor text (cases/C07, C08)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

from helpers_verify import real

from claims.readings.prices import (
    litellm_price,
    openrouter_price,
    parse_price_text,
    price_change_pct,
    price_history,
)

C07 = json.loads((Path(__file__).parent / "data" / "c07_openrouter_models.json").read_text())


def test_c07_dynamic_price_has_no_number():
    p = openrouter_price(C07["data"][0])
    assert p.dynamic is True
    assert (p.input, p.output) == (None, None)


def test_c07_exact_decimal_and_vendor_match():
    p = openrouter_price(C07["data"][1])
    assert (p.input, p.output) == (Decimal("0.57"), Decimal("3.3"))
    assert str(p.input) == "0.57" and str(p.output) == "3.3"
    vendor = parse_price_text("$0.57 / 1M input tokens, $3.30 / 1M output tokens")
    assert vendor == {"input": Decimal("0.57"), "output": Decimal("3.30")}
    assert vendor["input"] == p.input and vendor["output"] == p.output


def test_c07_free_is_a_separate_offering():
    paid, free = openrouter_price(C07["data"][1]), openrouter_price(C07["data"][2])
    assert (free.offering, free.base_id) == ("acme/orca-9b:free", "acme/orca-9b")
    assert (free.input, free.output) == (Decimal(0), Decimal(0))
    assert free.offering != paid.offering


def test_c08_a_vendor_text_per_million():
    assert parse_price_text("Orca 9B — $0.45 per 1M input tokens · $1.80 per 1M output tokens") == {
        "input": Decimal("0.45"),
        "output": Decimal("1.80"),
    }


def test_c08_b_litellm_unit_error_rejected():
    p = litellm_price(
        "acme/orca-9b", {"input_cost_per_token": 0.045, "output_cost_per_token": 0.18}
    )
    assert p is not None
    assert (p.input, p.output) == (None, None)
    assert len(p.warnings) == 2
    assert "45000.000 USD per 1M tokens, implausible" in p.warnings[0]


def test_c08_c_portuguese_per_thousand_decimal_comma():
    text = "US$ 0,0032 por mil tokens de entrada e US$ 0,0097 por mil tokens de saída"
    assert parse_price_text(text) == {"input": Decimal("3.2"), "output": Decimal("9.7")}


def test_litellm_real_excerpt():
    data = real("litellm_model_prices_moonshot_excerpt.json")
    assert litellm_price("sample_spec", data["sample_spec"]) is None
    assert litellm_price("moonshot/kimi-latest", data["moonshot/kimi-latest"]) is None
    p = litellm_price("moonshot/kimi-k3.1-pro", data["moonshot/kimi-k3.1-pro"])
    assert p is not None and (p.input, p.output, p.warnings) == (Decimal(2), Decimal(10), ())
    k27 = litellm_price("moonshot/kimi-k2.7-code", data["moonshot/kimi-k2.7-code"])
    assert k27 is not None and (k27.input, k27.output) == (Decimal("0.95"), Decimal(4))


def test_openrouter_real_kimi_k2_thinking():
    item = real("openrouter_model_moonshotai_kimi-k2-thinking.json")
    item = item.get("data", item)
    p = openrouter_price(item)
    assert (p.input, p.output) == (Decimal("0.6"), Decimal("2.5"))


def test_price_history_keeps_old_prices_with_dates():
    t = [dt.datetime(2026, 10, d, tzinfo=dt.UTC) for d in (1, 5, 9)]
    hist = price_history(
        [(Decimal(3), t[0], t[1]), (Decimal(2), t[1], t[2]), (Decimal(2), t[2], t[2])]
    )
    assert [(p.value, p.effective_from, p.effective_to) for p in hist] == [
        (Decimal(3), t[0], t[1]),
        (Decimal(2), t[1], None),
    ]
    assert price_change_pct(Decimal(15), Decimal(10)) == Decimal("-33.3")
