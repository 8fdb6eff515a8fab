"""Price factor between two variants of one subject, from both variants' observed prices
(claims/verify/derived.py ``judge_price_factor`` through claims/verify/judge.py ``judge_claim``)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers_verify import cv, ov, ts
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store import tables as models
from claims.store.engine import make_engine
from claims.values.value import quantity
from claims.verify.derived import judge_price_factor
from claims.verify.judge import judge_claim

ROOT = Path(__file__).resolve().parent.parent
NOW = ts("2026-11-29T12:00Z")
OUT, IN = "price_output_usd_per_mtok", "price_input_usd_per_mtok"
VARIANTS = {1: ("Standard", "Highspeed")}
FAST, STD = {"provider": "moonshot", "variant": "Highspeed"}, {"provider": "moonshot"}
ABOUT_TWICE = {"variant": "Highspeed", "relative_to": "Standard"}


def price(usd: str):
    return quantity(usd, "usd_per_mtok", exact=True)


def factor_claim(value: str = "~2", **q):
    approx = value.startswith("~")
    return cv(7, "price_factor", quantity(value.lstrip("~"), "times", approx=approx), q=q)


def judge(claim, obs, variants=VARIANTS):
    return judge_claim(claim, obs, last_check=None, disputes=[], now=NOW, variants=variants)


def demo_prices(fast_out: str = "20", fast_in: str = "4"):
    """The demo's prices: Standard $2 / $10 (no variant qualifier: the base offering),
    Highspeed ``fast_in`` / ``fast_out`` per 1M tokens, all from provider moonshot."""
    return [
        ov(11, IN, price("2"), q=STD),
        ov(12, OUT, price("10"), q=STD),
        ov(14, IN, price(fast_in), q=FAST),
        ov(15, OUT, price(fast_out), q=FAST, last="2026-11-29T06:00Z"),
    ]


def test_highspeed_at_exactly_twice_the_standard_price_confirms_about_twice():
    d = judge(factor_claim(**ABOUT_TWICE), demo_prices())
    assert (d.status, d.evidence, d.as_of) == ("confirmed", (15, 12), ts("2026-11-29T06:00Z"))
    assert d.reason == (
        "Highspeed costs 2.00 × Standard (output: $20.00 vs $10.00 per 1M tokens, "
        "observations #15 and #12); claimed about 2 times (1–3 times)"
    )


def test_three_times_the_price_contradicts_a_stated_twice():
    d = judge(factor_claim("2", **ABOUT_TWICE), demo_prices(fast_out="30", fast_in="6"))
    assert (d.status, d.evidence) == ("contradicted", (15, 12))
    assert d.reason == (
        "Highspeed costs 3.00 × Standard (output: $30.00 vs $10.00 per 1M tokens, "
        "observations #15 and #12); claimed 2 times (1.5–2.5 times)"
    )
    # as for price_change_pct, a side that holds wins over one that does not
    d = judge(factor_claim("2", **ABOUT_TWICE), demo_prices(fast_out="30"))
    assert (d.status, d.evidence) == ("confirmed", (14, 11))
    assert d.reason.startswith("Highspeed costs 2.00 × Standard (input: $4.00 vs $2.00 per")
    d = judge(factor_claim("2", **ABOUT_TWICE, side="output"), demo_prices(fast_out="30"))
    assert (d.status, d.evidence) == ("contradicted", (15, 12))


def test_about_twice_allows_one_to_three_times_as_data_md_says():
    # "~2" allows 1 to 3 (docs/data.md), so 3x still confirms it; 4x does not.
    d = judge(factor_claim(**ABOUT_TWICE), demo_prices(fast_out="30", fast_in="6"))
    assert (d.status, d.evidence) == ("confirmed", (15, 12))
    d = judge(factor_claim(**ABOUT_TWICE), demo_prices(fast_out="40", fast_in="8"))
    assert d.status == "contradicted"
    assert d.reason.startswith("Highspeed costs 4.00 × Standard (output: $40.00 vs $10.00")


def test_a_missing_variant_price_leaves_the_claim_unverified_and_says_which():
    only_fast = [o for o in demo_prices() if o.qualifiers == FAST]
    d = judge(factor_claim(**ABOUT_TWICE), only_fast)
    assert (d.status, d.evidence) == ("unverified", ())
    assert d.reason == (
        "no prices of kimi-k3.1-pro's Highspeed and Standard variants observed from the "
        "same provider and conditions: their price factor cannot be computed"
    )


def test_prices_from_different_providers_do_not_pair():
    fast_x = ov(1, OUT, price("20"), q={"provider": "x", "variant": "Highspeed"})
    std_y = ov(2, OUT, price("10"), q={"provider": "y"})
    assert judge(factor_claim(**ABOUT_TWICE), [fast_x, std_y]).status == "unverified"
    std_x = ov(3, OUT, price("10"), q={"provider": "x"})
    d = judge(factor_claim(**ABOUT_TWICE), [fast_x, std_y, std_x])
    assert (d.status, d.evidence) == ("confirmed", (1, 3))


def test_source_offering_ids_may_differ_between_the_variants():
    fast = ov(1, OUT, price("20"), q={**FAST, "offering": "moonshot/kimi-k3.1-pro-highspeed"})
    std = ov(2, OUT, price("10"), q={**STD, "offering": "moonshot/kimi-k3.1-pro"})
    assert judge(factor_claim(**ABOUT_TWICE), [fast, std]).evidence == (1, 2)


def test_side_input_and_the_input_fallback_are_named_in_the_reason():
    d = judge(factor_claim(**ABOUT_TWICE, side="input"), demo_prices(fast_out="50"))
    assert (d.status, d.evidence) == ("confirmed", (14, 11))
    assert d.reason.startswith("Highspeed costs 2.00 × Standard (input: $4.00 vs $2.00 per")
    # without a side: output first; with no output pair, the input prices decide
    inputs = [o for o in demo_prices() if o.attribute == IN]
    d = judge(factor_claim(**ABOUT_TWICE), inputs)
    assert d.reason.startswith("Highspeed costs 2.00 × Standard (input: ")


def test_superseded_and_free_prices_are_not_used():
    old = ov(15, OUT, price("20"), q=FAST, current=False)
    free = ov(16, OUT, price("0"), q=FAST)
    std = ov(12, OUT, price("10"), q=STD)
    assert judge(factor_claim(**ABOUT_TWICE), [old, free, std]).status == "unverified"


def test_variant_names_compare_case_insensitively():
    claim = factor_claim(variant="Highspeed", relative_to="standard")
    d = judge(claim, demo_prices())
    assert d.status == "confirmed"
    assert d.reason.startswith("Highspeed costs 2.00 × Standard (")  # the listed spelling


def test_relative_to_another_subject_is_not_a_variant_factor():
    claim = factor_claim(variant="Highspeed", relative_to="kimi-k3")
    assert judge_price_factor(claim, demo_prices(), VARIANTS[1]) is None
    d = judge(claim, demo_prices())
    assert (d.status, d.reason) == (
        "unverified",
        "no observation of price factor for kimi-k3.1-pro",
    )
    # without the subject's variant list nothing is guessed either
    assert judge(factor_claim(**ABOUT_TWICE), demo_prices(), variants=None).status == ("unverified")


def test_demo_confirms_the_highspeed_price_factor(tmp_path, monkeypatch):
    """Fresh-user trial: the demo showed both variants' prices yet called the factor
    unverified."""
    from tracker.cli.main import app

    monkeypatch.chdir(ROOT)  # the demo reads data/ relative to the checkout
    db = tmp_path / "t.db"
    result = CliRunner().invoke(app, ["demo", "--db", str(db), "--out", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    with Session(make_engine(db)) as s:
        row = s.exec(
            select(models.Verdict, models.Claim)
            .where(models.Verdict.claim_id == models.Claim.id)
            .where(models.Claim.attribute == "price_factor")
        ).one()
        verdict = row[0]
        evidence = [s.get(models.Observation, i) for i in json.loads(verdict.evidence_json)]
    assert verdict.status == "confirmed"
    assert verdict.reason.startswith(
        "Highspeed costs 2.00 × Standard (output: $20.00 vs $10.00 per 1M tokens, observations #"
    )
    assert verdict.reason.endswith("; claimed about 2 times (1–3 times)")
    assert [(o.attribute, json.loads(o.qualifiers_json).get("variant")) for o in evidence] == [
        (OUT, "Highspeed"),
        (OUT, None),
    ]
    # The subject page's Observed rows of those prices link to the claim they check
    # (the trial saw "no claim states this" on the Highspeed price beside the verdict).
    page = (tmp_path / "s" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    rows = [r for r in page.split("<tr") if "$20.00" in r and "#attr-" in r]
    assert rows and all('href="#attr-price_factor">checks a claim</a>' in r for r in rows)
