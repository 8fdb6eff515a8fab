"""The shared cases the verification issue names, end to end through the readers and the
judge: C21 (safetensors sum vs a declared total), C24 (context window vs input limit vs a
price-tier threshold), C26 (one model, several catalogue rows: :free offers, a delisted
row keeps its last price)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from claims.readings.hub_params import param_count_value, parameter_count
from claims.readings.prices import catalogue_context, litellm_tiers
from claims.values.stated import parse_stated
from claims.values.value import quantity
from claims.verify.facts import ClaimView, ObsView
from claims.verify.judge import judge_claim
from tracker.adapters import Fetched, get_adapter

DAY1 = dt.datetime(2026, 4, 1, 6, 0, tzinfo=dt.UTC)
DAY2 = dt.datetime(2026, 4, 2, 6, 0, tzinfo=dt.UTC)


def _claim(attribute: str, text: str, **q: str) -> ClaimView:
    return ClaimView(
        id=1, key="k", subject_id=1, subject="acme", attribute=attribute,
        value=parse_stated(text, attribute), qualifiers=q, claimant="Article A",
    )  # fmt: skip


def _obs(i, attribute, value, *, current=True, seen=DAY1, **q) -> ObsView:
    return ObsView(
        id=i, subject_id=1, attribute=attribute, value=value, first_seen=DAY1,
        last_seen=seen, qualifiers=q, current=current,
    )  # fmt: skip


def _judge(claim, obs):
    return judge_claim(claim, obs, last_check=None, disputes=[], now=DAY2)


def test_c21_the_per_dtype_sum_wins_over_a_declared_total_that_contradicts_it():
    orca = parameter_count({"parameters": {"BF16": 7615616512}, "total": 333312}, {}, None)
    assert (orca.total, orca.method) == (7_615_616_512, "element_count")
    assert orca.warnings == ("hub safetensors.total 333,312 differs from the per-dtype sum 7,615,616,512",)  # fmt: skip
    embed = parameter_count({"parameters": {"I64": 514, "F32": 278043648}, "total": 278044162}, None, None)  # fmt: skip
    assert embed.total == 278_044_162  # the sum, not the largest entry (278,043,648)
    obs = [_obs(5, "total_params", param_count_value(orca))]
    assert _judge(_claim("total_params", "7.6B"), obs).status == "confirmed"
    chip = ClaimView(**{**_claim("total_params", "7.6B").__dict__, "value": quantity("333", "params", scale=1000)})  # fmt: skip
    assert _judge(chip, obs).status == "contradicted"  # "333K" from the model-card chip


# C24's catalogue entries (model_prices_and_context_window.json format).
GPT5 = {"max_input_tokens": 272000, "max_output_tokens": 128000, "max_tokens": 128000}


def test_c24_context_window_is_input_plus_output_not_the_input_limit():
    v = catalogue_context(GPT5)
    assert (v.value, v.low, v.high) == (Decimal(272000), Decimal(272000), Decimal(400000))
    d = _judge(_claim("context_window", "400K"), [_obs(7, "context_window", v)])
    assert d.status == "confirmed"  # never "contradicted (272K ≠ 400K)"
    assert d.reason.endswith(
        "the catalogue's input limit 272,000 + output limit 128,000 = 400,000: a context "
        "window holds both"
    )


def test_c24_legacy_max_tokens_alone_is_no_context_window():
    assert catalogue_context({"max_tokens": 33792, "input_cost_per_token": 1e-07}) is None


def test_c24_a_price_tier_threshold_is_not_a_context_window_and_prices_keep_their_tiers():
    entry = {
        "max_input_tokens": 1048576,
        "max_output_tokens": 65536,
        "input_cost_per_token": 3e-07,
        "input_cost_per_token_above_512k_tokens": 6e-07,
        "output_cost_per_token": 1.2e-06,
        "output_cost_per_token_above_512k_tokens": 2.4e-06,
        "litellm_provider": "acme",
        "mode": "chat",
    }
    tiers = litellm_tiers(entry)
    assert [(t.side, t.above, t.usd_per_mtok, t.label) for t in tiers] == [
        ("input", 512000, Decimal("0.6"), "above 512K tokens"),
        ("output", 512000, Decimal("2.4"), "above 512K tokens"),
    ]
    body = json.dumps({"acme/minimax-m3": entry}).encode()
    result = get_adapter("litellm_prices").parse(Fetched.from_body("https://x.test/p.json", body, DAY1), {})  # fmt: skip
    ctx = [v.value for v in result.values if v.attribute == "context_window"]
    assert [c.value for c in ctx] == [Decimal(1048576)]  # never 512,000
    prices = {(v.attribute, v.qualifiers.get("tier")): v.value.value for v in result.values}
    assert prices[("price_input_usd_per_mtok", None)] == Decimal("0.3")
    assert prices[("price_input_usd_per_mtok", "above 512K tokens")] == Decimal("0.6")
    # a claim of the higher rate is checked against that tier, and says so
    obs = [
        _obs(i, v.attribute, v.value, **v.qualifiers)
        for i, v in enumerate(result.values, start=1)
        if v.attribute == "price_input_usd_per_mtok"
    ]
    d = _judge(_claim("price_input_usd_per_mtok", "0.60"), obs)
    assert d.status == "confirmed" and d.reason.endswith("; the tier above 512K tokens")
    assert _judge(_claim("price_input_usd_per_mtok", "0.30"), obs).status == "confirmed"


C26_DAY1 = {
    "data": [
        {"id": "acme/orca-9b", "created": 1767225600,
         "pricing": {"prompt": "0.0000001", "completion": "0.0000003", "request": "0", "image": "0"}},
        {"id": "acme/orca-9b:free", "created": 1767225600,
         "pricing": {"prompt": "0", "completion": "0", "request": "0", "image": "0"}},
    ]
}  # fmt: skip


def test_c26_free_is_an_offer_of_the_model_and_a_delisted_row_keeps_its_last_price():
    body = json.dumps(C26_DAY1).encode()
    result = get_adapter("openrouter_models").parse(Fetched.from_body("https://x.test/m", body, DAY1), {})  # fmt: skip
    prices = {
        (v.subject_ref[1], v.attribute, v.qualifiers.get("offering")): v.value.value
        for v in result.values
        if v.attribute.startswith("price_")
    }
    assert prices == {
        ("acme/orca-9b", "price_input_usd_per_mtok", None): Decimal("0.1"),
        ("acme/orca-9b", "price_output_usd_per_mtok", None): Decimal("0.3"),
        ("acme/orca-9b", "price_input_usd_per_mtok", "free"): Decimal(0),
        ("acme/orca-9b", "price_output_usd_per_mtok", "free"): Decimal(0),
    }  # one model (base id), two offers; the base price is never 0
    base = next(v for v in result.values if v.attribute == "price_output_usd_per_mtok" and not v.qualifiers)  # fmt: skip
    free = next(v for v in result.values if v.attribute == "price_output_usd_per_mtok" and v.qualifiers)  # fmt: skip
    # day 2: the base row is delisted (no longer current), :free still listed
    obs = [
        _obs(1, base.attribute, base.value, current=False, seen=DAY1),
        _obs(2, free.attribute, free.value, seen=DAY2, offering="free"),
    ]
    d = _judge(_claim("price_output_usd_per_mtok", "0.30"), obs)
    assert (d.status, d.evidence) == ("confirmed", (1,))  # the last price, not 0
    assert (
        _judge(_claim("price_output_usd_per_mtok", "0", offering="free"), obs).status == "confirmed"
    )
