"""Whose offer a price or context-window claim is about (claims.verify.offers through
claims.verify.judge): a provider's claim against that provider's Artificial Analysis
price, a vendor's list price never against a reseller's."""

from __future__ import annotations

import datetime as dt

from claims.values.value import quantity
from claims.verify.facts import ClaimView, ObsView
from claims.verify.judge import judge_claim

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
IN = "price_input_usd_per_mtok"


def _price(i: int, usd: str, provider: str, attribute: str = IN) -> ObsView:
    return ObsView(
        id=i, subject_id=2, attribute=attribute, value=quantity(usd, "usd_per_mtok", exact=True),
        first_seen=AT, last_seen=AT, qualifiers={"provider": provider},
    )  # fmt: skip


def _claim(usd: str, claimant: str, **q: str) -> ClaimView:
    return ClaimView(
        id=1, key="p", subject_id=2, subject="kimi-k3", attribute=IN,
        value=quantity(usd, "usd_per_mtok"), qualifiers=q, claimant=claimant,
    )  # fmt: skip


AA_PRICES = [_price(5, "3.00", "Moonshot AI"), _price(6, "2.25", "Cerebras")]


def _judge(claim: ClaimView, obs: list[ObsView]):
    return judge_claim(claim, obs, last_check=None, disputes=[], now=AT, vendors={2: "Moonshot AI"})


def test_a_providers_price_claim_is_checked_against_that_providers_price():
    d = _judge(_claim("2.25", "Cerebras", provider="Cerebras"), AA_PRICES)
    assert (d.status, d.evidence) == ("confirmed", (6,))
    assert d.reason == (
        "observed $2.25 per 1M tokens (observation #6) is within the claim's $2.25 per 1M "
        "tokens ($2.245–$2.255 per 1M tokens)"
    )
    d = _judge(_claim("2.00", "Cerebras", provider="Cerebras"), AA_PRICES)
    assert (d.status, d.evidence) == ("contradicted", (6,))
    assert d.reason.startswith("observed $2.25 per 1M tokens (observation #6) vs claimed $2.00")


def test_a_claim_naming_no_provider_is_the_vendors_offer_not_a_resellers():
    d = _judge(_claim("3.00", "Moonshot AI"), AA_PRICES)
    assert (d.status, d.evidence) == ("confirmed", (5,))
    # Only a reseller's price is observed: it neither confirms nor contradicts.
    d = _judge(_claim("3.00", "Moonshot AI"), [_price(6, "2.25", "Cerebras")])
    assert d.status == "unverified"
    assert d.reason.startswith("no observation of ")
