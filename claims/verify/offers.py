"""Whose offer a price or context-window claim is about (pure).

A price and a context window are terms of one provider's offer: Artificial Analysis and
LiteLLM list them per provider (``provider`` qualifier), and a reseller's price is not
the model vendor's. A claim naming a provider (or hardware) is compared with that
provider's figures (:func:`claims.verify.statements.provider_matches`); a claim naming
none is about the vendor's own offer, so a provider's figure counts only when that
provider is the claimant or the subject's vendor. With no vendor on record, whose offer
is the vendor's cannot be told, and every provider's figure counts.
"""

from __future__ import annotations

from claims.readings.prices import INPUT_ATTR, OUTPUT_ATTR
from claims.verify.facts import ClaimView, ObsView

OFFER_ATTRIBUTES: frozenset[str] = frozenset({INPUT_ATTR, OUTPUT_ATTR, "context_window"})


def _first_word(x: object) -> str:
    words = str(x or "").lower().split()
    return words[0] if words else ""


def offer_matches(claim: ClaimView, o: ObsView, vendor: str | None) -> bool:
    """Whether observation ``o`` is of the offer ``claim`` is about: always for other
    attributes, for a claim naming a provider or hardware, for an observation naming no
    provider and when ``vendor`` is unknown; else when the observation's provider starts
    like the claimant's or the vendor's name (LiteLLM's ``moonshot`` is Moonshot AI)."""
    provider = _first_word(o.qualifiers.get("provider"))
    if claim.attribute not in OFFER_ATTRIBUTES or not provider or not vendor:
        return True
    if claim.qualifiers.get("provider") or claim.qualifiers.get("hardware"):
        return True
    owners = {_first_word(claim.claimant), _first_word(vendor)} - {""}
    return provider in owners
