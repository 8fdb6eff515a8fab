"""Verdict decisions per attribute (claims/verify/judge.py), on values in the stored formats."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from helpers_verify import cv, ov, real, ts

from claims.values.value import Value, quantity, text_value, value_range
from claims.verify.compare import Finding
from claims.verify.judge import judge_claim
from claims.verify.paramcounts import effective_value

NOW = ts("2026-11-29T12:00Z")


def judge(claim, obs, disputes=()):
    return judge_claim(claim, obs, last_check=None, disputes=list(disputes), now=NOW)


def kimi_obs_value(*, raw_config=True) -> Value:
    info = real("synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json")
    total = Decimal(info["safetensors"]["total"])
    cfg = info["_raw_config_json_excerpt"] if raw_config else info["config"]
    return Value(
        kind="quantity",
        value=total,
        unit="params",
        low=total,
        high=total,
        extra={"safetensors": info["safetensors"], "config": cfg},
    )


def test_k2_thinking_1t_confirmed_against_packed_int4_counts():
    claim = cv(1, "total_params", quantity("1", "params", scale=10**12), subject=3)
    raw = kimi_obs_value()
    assert effective_value("total_params", raw).value == Decimal(1026880447728)
    obs = ov(5, "total_params", effective_value("total_params", raw), subject=3)
    d = judge(claim, [obs])
    assert (d.status, d.evidence) == ("confirmed", (5,))
    assert d.reason == (
        "observed 1.03T (1,026,880,447,728) params (observation #5) is within the claim's 1T params "
        "(500B–1.5T params); the Hub count is derived from packed quantized weights"
    )


def test_naive_hub_total_would_contradict_and_says_by_how_much():
    claim = cv(1, "total_params", quantity("1", "params", scale=10**12), subject=3)
    naive = quantity("170738182128", "params", exact=True)
    d = judge(claim, [ov(6, "total_params", naive, subject=3)])
    assert d.status == "contradicted"
    assert d.reason == (
        "observed 170.74B (170,738,182,128) params (observation #6) vs claimed 1T params "
        "(500B–1.5T params): 829.26B (829,261,817,872) params apart, off by 329.26B "
        "(329,261,817,872) params beyond the stated precision, -82.9 %"
    )


def test_a_contradiction_gives_the_figures_gap_and_the_part_beyond_precision():
    """A trial read "off by $1.50" for a claimed $10 and an observed $12 as a wrong gap."""
    claim = cv(1, "price_output_usd_per_mtok", quantity("10", "usd_per_mtok"), subject=3)
    d = judge(
        claim,
        [ov(7, "price_output_usd_per_mtok", quantity("12", "usd_per_mtok", exact=True), subject=3)],
    )
    assert d.reason == (
        "observed $12.00 per 1M tokens (observation #7) vs claimed $10.00 per 1M tokens "
        "($9.50–$10.50 per 1M tokens): $2.00 per 1M tokens apart, off by $1.50 per 1M tokens "
        "beyond the stated precision, +20.0 %"
    )


def test_hub_config_without_bits_gives_a_bound_only():
    claim = cv(1, "total_params", quantity("1", "params", scale=10**12), subject=3)
    eff = effective_value("total_params", kimi_obs_value(raw_config=False))
    d = judge(claim, [ov(7, "total_params", eff, subject=3)])
    assert d.status == "unverified"
    assert d.reason.startswith(
        "only a bound is observed: at least 170.74B (170,738,182,128) params"
    )


def test_context_window_256k_confirmed():
    claim = cv(1, "context_window", quantity("256", "tokens", scale=1024, exact=True))
    d = judge(claim, [ov(3, "context_window", quantity("262144", "tokens", exact=True))])
    assert d.status == "confirmed"


def test_price_exact_match_free_offering_and_history():
    # as the openrouter_models adapter stores them: the base id has no offering
    # qualifier, ":free" gives qualifier offering="free" (C07)
    price = "price_input_usd_per_mtok"
    claim = cv(1, price, quantity("0.57", "usd_per_mtok", exact=True))
    ok = ov(2, price, quantity("0.57", "usd_per_mtok", exact=True))
    free = ov(3, price, quantity("0", "usd_per_mtok", exact=True), q={"offering": "free"})
    d = judge(claim, [ok, free])
    assert (d.status, d.evidence) == ("confirmed", (2,))  # :free is another offering
    assert judge(claim, [free]).status == "unverified"
    free_claim = cv(4, price, quantity("0", "usd_per_mtok", exact=True), q={"offering": "free"})
    assert judge(free_claim, [ok, free]).evidence == (3,)
    old = ov(5, price, quantity("0.80", "usd_per_mtok", exact=True), current=False)
    assert judge(claim, [old, ok]).status == "confirmed"  # history does not contradict
    d = judge(claim, [old])
    assert d.status == "contradicted"
    assert d.reason == (
        "observed $0.80 per 1M tokens (observation #5) vs claimed $0.57 per 1M tokens: off by "
        "$0.23 per 1M tokens beyond the stated precision, +40.4 %"
    )


def test_highspeed_price_never_judges_the_standard_claim():
    price = "price_output_usd_per_mtok"
    claim = cv(1, price, quantity("10", "usd_per_mtok"))
    fast = ov(2, price, quantity("20", "usd_per_mtok", exact=True), q={"variant": "Highspeed"})
    assert judge(claim, [fast]).status == "unverified"
    std = cv(3, price, quantity("10", "usd_per_mtok"), q={"variant": "Standard"})
    base = ov(4, price, quantity("10", "usd_per_mtok", exact=True), q={"provider": "moonshot"})
    assert judge(std, [fast, base]).evidence == (4,)


def test_throughput_unverified_without_measurement_conditions():
    claim = cv(
        1,
        "output_tokens_per_second",
        value_range(1000, 2000, "tokens_per_second", open_high=True),
        claimant="Cerebras",
    )
    bare = ov(2, "output_tokens_per_second", quantity("2500", "tokens_per_second", exact=True))
    d = judge(claim, [bare])
    assert (d.status, d.reason) == (
        "unverified",
        "no throughput measurement with stated conditions (provider, batch, context); "
        "missing evidence: a measurement with stated conditions (provider, percentile) "
        "for kimi-k3.1-pro",
    )
    measured = ov(
        3,
        "output_tokens_per_second",
        quantity("2500", "tokens_per_second", exact=True),
        q={"provider": "Cerebras", "conditions": "batch 1, 8K context"},
    )
    d = judge(claim, [bare, measured])
    assert (d.status, d.evidence) == ("confirmed", (3,))
    assert d.reason == (
        "measured 2,500 tokens/s (provider Cerebras, conditions batch 1, 8K context; "
        "observation #3) is inside the claimed 1,000–2,000+ tokens/s; conditions that "
        "differ: the claim states no prompt length, batch size or percentile"
    )


def test_licence_id_and_properties():
    obs = ov(4, "license", text_value("modified-mit"), subject=3)
    assert (
        judge(cv(1, "license", text_value("Modified MIT"), subject=3), [obs]).status == "confirmed"
    )
    d = judge(cv(2, "license", text_value("mit"), subject=3), [obs])
    assert (d.status, d.reason) == (
        "contradicted",
        "observed modified-mit (observation #4) vs claimed mit",
    )
    d = judge(cv(3, "license", text_value("commercial use allowed"), subject=3), [obs])
    assert (d.status, d.reason) == (
        "confirmed",
        "licence modified-mit (observation #4) has property commercial_use",
    )
    assert (
        judge(cv(5, "license", text_value("permissive"), subject=3), [obs]).status == "unverified"
    )


def test_disputed_when_sources_disagree_without_observation():
    claim = cv(
        1,
        "benchmark_score",
        quantity("65.7", "percent"),
        q={"benchmark": "Terminal-Bench", "version": "4.0"},
    )
    f = Finding("k", "same_value_different_version", 1, "benchmark_score", (1, 2), "why")
    d = judge(claim, [], [f])
    assert (d.status, d.reason) == (
        "disputed",
        "no observation; sources disagree: the same score reported for two versions of a benchmark: why",
    )
    assert judge(claim, []).reason == (
        "no observation of benchmark score for kimi-k3.1-pro; missing evidence: a watched "
        "board that publishes this benchmark for kimi-k3.1-pro"
    )


def test_price_cut_relative_to_another_subject_from_litellm_prices():
    from claims.readings.prices import litellm_price, price_value

    data = real("litellm_model_prices_moonshot_excerpt.json")
    k31 = litellm_price("moonshot/kimi-k3.1-pro", data["moonshot/kimi-k3.1-pro"])
    k3 = litellm_price("moonshot/kimi-k3", data["moonshot/kimi-k3"])
    assert k31 is not None and k3 is not None
    assert (k31.output, k3.output) == (Decimal(10), Decimal(15))
    q = {"provider": "moonshot"}
    obs = [
        ov(
            1,
            "price_output_usd_per_mtok",
            price_value(k31.output),
            subject=1,
            q={**q, "offering": k31.offering},
        ),
        ov(
            2,
            "price_output_usd_per_mtok",
            price_value(k3.output),
            subject=2,
            q={**q, "offering": k3.offering},
        ),
    ]
    claim = cv(
        9,
        "price_change_pct",
        quantity("-33", "percent", approx=True),
        q={"relative_to": "kimi-k3", "side": "output"},
    )
    d = judge_claim(
        claim,
        obs,
        last_check=None,
        disputes=[],
        now=NOW,
        subject_ids={"kimi-k3.1-pro": 1, "kimi-k3": 2},
    )
    assert (d.status, d.evidence) == ("confirmed", (1, 2))
    assert d.reason == (
        "observed output price $10.00 per 1M tokens (observation #1) vs $15.00 per 1M tokens "
        "for kimi-k3 (observation #2): \u221233.3%, claim about \u221233% "
        "(\u221236.3% to \u221229.7%)"
    )  # real minus signs (U+2212), and "to" rather than a dash between negatives
    wrong = cv(10, "price_change_pct", quantity("-50", "percent"), q={"relative_to": "kimi-k3"})
    d = judge_claim(
        wrong,
        obs,
        last_check=None,
        disputes=[],
        now=NOW,
        subject_ids={"kimi-k3.1-pro": 1, "kimi-k3": 2},
    )
    assert d.status == "contradicted"
    unknown = cv(11, "price_change_pct", quantity("-50", "percent"), q={"relative_to": "kimi-k9"})
    assert judge(unknown, obs).status == "unverified"


def test_a_price_change_verdict_is_as_of_its_evidence():
    """A derived price change carries the time of the two prices it rests on (the later
    sighting), as every other verdict does; `claims list --json` gave it `as_of: null`."""
    from claims.values.stated import parse_stated

    q = {"provider": "moonshot"}
    obs = [
        ov(1, "price_output_usd_per_mtok", parse_stated("10", "price_output_usd_per_mtok"),
           subject=1, q=q, first="2026-11-20T06:00Z", last="2026-11-28T06:00Z"),
        ov(2, "price_output_usd_per_mtok", parse_stated("15", "price_output_usd_per_mtok"),
           subject=2, q=q, first="2026-11-20T06:00Z", last="2026-11-27T18:00Z"),
    ]  # fmt: skip
    claim = cv(9, "price_change_pct", quantity("-33", "percent", approx=True),
               q={"relative_to": "kimi-k3", "side": "output"})  # fmt: skip
    d = judge_claim(claim, obs, last_check=None, disputes=[], now=NOW,
                    subject_ids={"kimi-k3.1-pro": 1, "kimi-k3": 2})  # fmt: skip
    assert (d.status, d.evidence) == ("confirmed", (1, 2))
    assert d.as_of == dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
