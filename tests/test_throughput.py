"""Speed claims against measurements with their conditions, and variant speed-ups
(claims.verify.throughput through claims.verify.judge)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from claims.values.value import quantity, value_range, with_extra
from claims.verify.facts import ClaimView, ObsView
from claims.verify.judge import judge_claim

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
OR = {"measured_by": "OpenRouter", "statistic": "p50", "window": "last 30 min"}


def _judge(claim: ClaimView, obs: list[ObsView]):
    return judge_claim(claim, obs, last_check=None, disputes=[], now=AT)


def _tps(i: int, n: str, provider: str, **q: str) -> ObsView:
    return ObsView(
        id=i, subject_id=2, attribute="output_tokens_per_second",
        value=quantity(n, "tokens_per_second", exact=True), first_seen=AT, last_seen=AT,
        qualifiers={"provider": provider, "endpoint": provider.lower(), **OR, **q},
    )  # fmt: skip


CEREBRAS_CLAIM = ClaimView(
    id=1, key="k", subject_id=2, subject="kimi-k3", attribute="output_tokens_per_second",
    value=value_range(1000, 2000, "tokens_per_second", open_high=True),
    qualifiers={"hardware": "Cerebras WSE-3T"}, claimant="Cerebras", source="Máquina Web",
)  # fmt: skip


def test_open_top_claim_confirmed_by_a_measurement_of_its_provider_inside_it():
    d = _judge(CEREBRAS_CLAIM, [_tps(5, "41.6", "Moonshot AI"), _tps(6, "1384", "Cerebras")])
    assert (d.status, d.evidence) == ("confirmed", (6,))
    assert d.reason == (
        "measured 1,384 tokens/s (provider Cerebras, endpoint cerebras, p50, last 30 min, "
        "measured by OpenRouter; observation #6) is inside the claimed 1,000–2,000+ tokens/s; "
        "conditions that differ: the claim states no prompt length, batch size or percentile"
    )


def test_a_measurement_below_an_unconditioned_claim_is_reported_not_a_contradiction():
    d = _judge(CEREBRAS_CLAIM, [_tps(6, "640", "Cerebras")])
    assert d.status == "unverified"
    assert d.reason.startswith("measured 640 tokens/s (provider Cerebras")
    assert d.reason.endswith(
        "is outside the claimed 1,000–2,000+ tokens/s, but not a contradiction: the claim "
        "states no prompt length, batch size or percentile"
    )


def test_another_providers_measurement_never_settles_the_claim():
    d = _judge(CEREBRAS_CLAIM, [_tps(5, "1500", "Groq")])
    assert (d.status, d.reason) == (
        "unverified",
        "no measurement of provider cerebras for kimi-k3",
    )


def _speedup(low: str, high: str) -> ClaimView:
    return ClaimView(
        id=2, key="s", subject_id=2, subject="kimi-k3.1-pro", attribute="speedup_factor",
        value=value_range(low, high, "times"),
        qualifiers={"variant": "Highspeed", "relative_to": "Standard"},
        claimant="Moonshot AI",
    )  # fmt: skip


def test_variant_speedup_is_the_ratio_of_the_two_measurements():
    obs = [_tps(7, "44.8", "Moonshot AI"), _tps(8, "112", "Moonshot AI", variant="Highspeed")]
    d = _judge(_speedup("2", "3"), obs)
    assert (d.status, d.evidence) == ("confirmed", (8, 7))
    assert d.reason == (
        "Highspeed runs at 2.50 × Standard (112 tokens/s vs 44.8 tokens/s, provider Moonshot AI, "
        "endpoint moonshot ai, p50, last 30 min, measured by OpenRouter; observations #8 and "
        "#7); claimed 2–3 times"
    )
    assert _judge(_speedup("3", "4"), obs).status == "contradicted"


def test_speedup_without_both_variants_measured_stays_unverified_and_says_what_is_missing():
    d = _judge(_speedup("2", "3"), [_tps(7, "44.8", "Moonshot AI")])
    assert d.status == "unverified"
    assert d.reason.endswith(
        "missing evidence: measurements of both variants of kimi-k3.1-pro under the same conditions"
    )


AA = {"measured_by": "Artificial Analysis", "prompt_length": "medium"}
PERCENTILES = (("p5", "980"), ("p25", "1190"), ("median", "1412"), ("p75", "1655"), ("p95", "2140"))


def _aa(first_id: int, provider: str, figures=PERCENTILES, **q: str) -> list[ObsView]:
    """Artificial Analysis' five statistics of one provider, as aa_providers stores them."""
    out = []
    for i, (stat, n) in enumerate(figures):
        v = quantity(n, "tokens_per_second", exact=True)
        if stat == "median":
            v = with_extra(v, p5=figures[0][1], p95=figures[-1][1])
        out.append(ObsView(
            id=first_id + i, subject_id=2, attribute="output_tokens_per_second", value=v,
            first_seen=AT, last_seen=AT,
            qualifiers={"provider": provider, "statistic": stat, **AA, **q},
        ))  # fmt: skip
    return out


def test_aa_median_and_openrouter_p50_both_inside_are_both_named():
    d = _judge(CEREBRAS_CLAIM, [*_aa(10, "Cerebras"), _tps(6, "1384", "Cerebras")])
    assert (d.status, d.evidence) == ("confirmed", (12, 6))
    assert d.reason == (
        "measured 1,412 tokens/s (provider Cerebras, median, prompt length medium, measured "
        "by Artificial Analysis, p5–p95 980–2,140 tokens/s; observation #12) and 1,384 "
        "tokens/s (provider Cerebras, endpoint cerebras, p50, last 30 min, measured by "
        "OpenRouter; observation #6) are inside the claimed 1,000–2,000+ tokens/s; "
        "conditions that differ: the claim states no prompt length, batch size or percentile"
    )


def test_a_percentile_inside_does_not_confirm_when_the_median_is_outside():
    low = (("p5", "420"), ("p25", "610"), ("median", "780"), ("p75", "990"), ("p95", "1210"))
    d = _judge(CEREBRAS_CLAIM, _aa(10, "Cerebras", low))
    assert (d.status, d.evidence) == ("unverified", (12,))
    assert d.reason == (
        "measured 780 tokens/s (provider Cerebras, median, prompt length medium, measured by "
        "Artificial Analysis, p5–p95 420–1,210 tokens/s; observation #12) is outside the "
        "claimed 1,000–2,000+ tokens/s, but not a contradiction: the claim states no prompt "
        "length, batch size or percentile"
    )
    p95 = replace(CEREBRAS_CLAIM, qualifiers={**CEREBRAS_CLAIM.qualifiers, "statistic": "p95"})
    d = _judge(p95, _aa(10, "Cerebras", low))
    assert (d.status, d.evidence) == ("confirmed", (14,))
    assert d.reason.endswith("conditions that differ: the claim states statistic")


def test_one_source_inside_and_one_outside_confirms_and_names_the_other():
    d = _judge(CEREBRAS_CLAIM, [*_aa(10, "Cerebras"), _tps(6, "640", "Cerebras")])
    assert (d.status, d.evidence) == ("confirmed", (12,))
    assert "; outside it: 640 tokens/s (provider Cerebras, endpoint cerebras, p50" in d.reason


def test_speedup_from_aa_medians_and_sources_that_disagree_stay_unverified():
    std = (("p5", "33"), ("median", "46.2"), ("p95", "58.4"))
    fast = (("p5", "84"), ("median", "118.5"), ("p95", "141"))
    aa = [*_aa(20, "Moonshot AI", std), *_aa(30, "Moonshot AI", fast, variant="Highspeed")]
    d = _judge(_speedup("2", "3"), aa)
    assert (d.status, d.evidence) == ("confirmed", (31, 21))
    assert d.reason == (
        "Highspeed runs at 2.56 × Standard (118.5 tokens/s vs 46.2 tokens/s, provider "
        "Moonshot AI, median, prompt length medium, measured by Artificial Analysis; "
        "observations #31 and #21); claimed 2–3 times"
    )
    slow_or = [_tps(7, "60", "Moonshot AI"), _tps(8, "90", "Moonshot AI", variant="Highspeed")]
    d = _judge(_speedup("2", "3"), [*aa, *slow_or])
    assert (d.status, d.evidence) == ("unverified", (31, 21, 8, 7))
    assert "Highspeed runs at 1.50 × Standard (90 tokens/s vs 60 tokens/s" in d.reason
    assert d.reason.endswith(
        "claimed 2–3 times; the sources disagree on whether it is inside the claim"
    )
