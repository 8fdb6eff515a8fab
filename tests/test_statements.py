"""The claim's second status, "stated by the claimant: yes / no / not checked", and the
two cases where a page's statement is evidence for the verdict (claims.verify.statements
through claims.verify.judge)."""

from __future__ import annotations

import datetime as dt

from claims.values.value import quantity, with_extra
from claims.verify.facts import ClaimView, ObsView
from claims.verify.judge import judge_claim
from claims.verify.statements import statement_of

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
CHECKED = ["hardware_units", "total_params", "weights_precision_bits"]


def _page(i: int, attribute: str, text: str, unit: str, by: str, quote: str, **q: str) -> ObsView:
    v = with_extra(quantity(text, unit), quote=quote, span=[10, 10 + len(quote)], checked=CHECKED)
    return ObsView(
        id=i, subject_id=2, attribute=attribute, value=v, first_seen=AT, last_seen=AT,
        qualifiers={"stated_by": by, **q},
    )  # fmt: skip


def _claim(attribute: str, text: str, unit: str, claimant: str = "Cerebras", **q) -> ClaimView:
    return ClaimView(
        id=1, key="k", subject_id=2, subject="kimi-k3", attribute=attribute,
        value=quantity(text, unit), qualifiers=q, claimant=claimant, source="Máquina Web",
    )  # fmt: skip


WAFERS = _page(5, "hardware_units", "59", "wafers", "Cerebras", "59 WSE-3T wafers",
               hardware="Cerebras WSE-3T")  # fmt: skip


def _judge(claim, obs, vendors=None):
    return judge_claim(claim, obs, last_check=None, disputes=[], now=AT, vendors=vendors)


def test_stated_yes_with_the_quote_and_own_hardware_makes_the_page_the_primary_source():
    claim = _claim("hardware_units", "59", "wafers", hardware="Cerebras WSE-3T")
    d = _judge(claim, [WAFERS])
    assert d.statement.status == "yes"
    assert d.statement.reason == (
        "Cerebras's page states “59 WSE-3T wafers” at chars 10-26 (read as 59 wafers; "
        "observation #5)"
    )
    assert (d.status, d.evidence) == ("confirmed", (5,))
    assert d.reason.endswith(
        "Cerebras runs the hardware it counts, so its own page is the primary source for "
        "this figure"
    )


def test_a_page_stating_another_value_says_no_and_the_claim_stays_unverified():
    claim = _claim("hardware_units", "64", "wafers", hardware="Cerebras WSE-3T")
    d = _judge(claim, [WAFERS])
    assert d.statement.status == "no"
    assert d.statement.reason.endswith("not 64 wafers")
    assert d.status == "unverified"


def test_looked_for_and_absent_is_no_never_looked_for_is_not_checked():
    looked = _claim("weights_precision_bits", "4", "bits")
    assert statement_of(looked, [WAFERS]).status == "no"
    assert statement_of(looked, [WAFERS]).reason == (
        "Cerebras's page (observation #5) does not state weight precision for kimi-k3"
    )
    never = _claim("output_tokens_per_second", "2000", "tokens_per_second")
    assert statement_of(never, [WAFERS]).status == "not checked"
    assert statement_of(_claim("hardware_units", "59", "wafers", claimant="Groq"), [WAFERS]).status == "not checked"  # fmt: skip


def test_the_vendors_page_settles_its_own_parameter_count_claims_like_anyone_elses():
    moonshot = _page(9, "total_params", "2.8", "params", "Moonshot AI", "2.8T total parameters")
    moonshot = ObsView(**{**moonshot.__dict__, "value": with_extra(quantity("2.8", "params", scale=10**12), quote="2.8T total parameters")})  # fmt: skip
    own = _claim("total_params", "2.8", "params", claimant="Moonshot AI")
    own = ClaimView(**{**own.__dict__, "value": quantity("2.8", "params", scale=10**12)})
    d = _judge(own, [moonshot], vendors={2: "Moonshot AI"})
    assert (d.status, d.evidence, d.statement.status) == ("confirmed", (9,), "yes")
    assert d.reason.endswith(
        "the model's vendor states “2.8T total parameters” on its own page "
        "(the vendor's figure, not counted from the weights)"
    )


def test_the_claimants_own_word_is_never_evidence_for_its_other_claims():
    bits = _page(9, "weights_precision_bits", "4", "bits", "Moonshot AI", "4-bit weights")
    own = _claim("weights_precision_bits", "4", "bits", claimant="Moonshot AI")
    d = _judge(own, [bits], vendors={2: "Moonshot AI"})
    assert (d.status, d.statement.status) == ("unverified", "yes")


def test_the_vendors_page_is_evidence_for_what_others_claim_about_its_model():
    moonshot = ObsView(
        id=9, subject_id=2, attribute="total_params",
        value=with_extra(quantity("2.8", "params", scale=10**12), quote="2.8T total parameters"),
        first_seen=AT, last_seen=AT, qualifiers={"stated_by": "Moonshot AI"},
    )  # fmt: skip
    cerebras = ClaimView(
        id=1, key="k", subject_id=2, subject="kimi-k3", attribute="total_params",
        value=quantity("3", "params", scale=10**12, approx=True), claimant="Cerebras",
    )  # fmt: skip
    d = _judge(cerebras, [moonshot], vendors={2: "Moonshot AI"})
    assert (d.status, d.evidence) == ("confirmed", (9,))
    assert d.reason.endswith(
        "the model's vendor states “2.8T total parameters” on its own page "
        "(the vendor's figure, not counted from the weights)"
    )
    assert _judge(cerebras, [moonshot]).status == "unverified"  # no vendor known: no evidence


def test_not_checked_names_the_watched_page_and_what_it_looks_for_whoever_the_claimant():
    """Another claimant's page watched for the subject: the reason says whose it is and what
    it looks for, as it does when the claimant's own page does not look for the figure."""
    score = ClaimView(
        id=1, key="k", subject_id=2, subject="kimi-k3", attribute="benchmark_score",
        value=quantity("64", "percent"), claimant="Artificial Analysis",
    )  # fmt: skip
    looks = (
        "the watched page of Cerebras looks for hardware units, total parameters and "
        "weight precision"
    )
    st = statement_of(score, [WAFERS])
    assert (st.status, st.reason) == (
        "not checked", f"no page of Artificial Analysis is watched for kimi-k3; {looks}"
    )  # fmt: skip
    own = ClaimView(**{**score.__dict__, "claimant": "Cerebras"})
    assert statement_of(own, [WAFERS]).reason == (
        f"the watch of Cerebras's page does not look for benchmark score; {looks}"
    )
    assert statement_of(score, []).reason == "no page of Artificial Analysis is watched for kimi-k3"
