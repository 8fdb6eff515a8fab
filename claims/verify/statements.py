"""Was the figure stated by the claimant? A claim's second, independent status (pure).

A watch of the claimant's own page (adapter ``claimant_page``) records each figure it
finds there as an observation qualified ``stated_by`` = the claimant, with the quote
and its span in ``extra``. Such observations are the claimant's word, not a primary
source, so the verdict never rests on them (:func:`is_statement`), with one exception:
a count of the claimant's own hardware (``hardware_units`` whose ``hardware`` qualifier
starts with the claimant's name) has no other primary source than the claimant.

The model's vendor is the other exception: what Moonshot AI's own page states about its
own model is a primary source for a figure someone else (Cerebras) claims about it, never
for Moonshot AI's own claims (a statement cannot confirm itself).

Statuses: ``yes`` (found, and the re-read value agrees), ``no`` (the page was read and
the figure is not there, or it states another value), ``not checked`` (no page of this
claimant about this subject is watched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from claims.values.value import format_value
from claims.verify.compare import values_conflict
from claims.verify.facts import ClaimView, ObsView
from claims.vocabulary import attribute_phrase

STATED_BY = "stated_by"
STATEMENT_STATUSES: tuple[str, ...] = ("yes", "no", "not checked")
# Attributes the claimant is the primary source for when it names its own hardware.
SELF_REPORTED: tuple[str, ...] = ("hardware_units",)
# The model's architecture as its vendor specifies it: its page is a primary source for
# every claim of these, the vendor's own included (docs/verification.md, total_params).
VENDOR_SPECS: tuple[str, ...] = ("total_params", "active_params")


@dataclass(frozen=True)
class Statement:
    """``status`` (one of :data:`STATEMENT_STATUSES`), ``reason``, evidence ids."""

    status: str
    reason: str
    evidence: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Stored form (``verdict.statement_json``)."""
        return {"status": self.status, "reason": self.reason, "evidence": list(self.evidence)}


NOT_CHECKED = Statement("not checked", "no page of the claimant is watched for the subject")


def _norm(x: object) -> str:
    return " ".join(str(x or "").lower().split())


def is_statement(o: ObsView) -> bool:
    """True for an observation that records what a claimant states (not a measurement)."""
    return bool(o.qualifiers.get(STATED_BY))


def statement_of(claim: ClaimView, observations: Sequence[ObsView]) -> Statement:
    """The claim's "stated by the claimant" status from the claimant-page observations.

    One rule for every "not checked": when a page of anyone is watched for the subject,
    the reason says whose it is and what its watch looks for (:func:`_watched_pages`)."""
    if not claim.claimant:
        return Statement("not checked", "the claim names no claimant")
    pages = [o for o in observations if is_statement(o) and o.subject_id == claim.subject_id]
    page = [o for o in pages if _norm(o.qualifiers[STATED_BY]) == _norm(claim.claimant)]
    if not page:
        why = f"no page of {claim.claimant} is watched for {claim.subject}"
        if pages:
            why += "; " + _watched_pages(pages)
        return Statement("not checked", why)
    same = [o for o in page if o.attribute == claim.attribute]
    if not same:
        looked = [o for o in page if claim.attribute in _checked(o)]
        if not looked:
            return Statement(
                "not checked",
                f"the watch of {claim.claimant}'s page does not look for "
                f"{attribute_phrase(claim.attribute)}; {_watched_pages(page)}",
            )
        return Statement(
            "no",
            f"{claim.claimant}'s page (observation #{looked[0].id}) does not state "
            f"{attribute_phrase(claim.attribute)} for {claim.subject}",
            (looked[0].id,),
        )
    for o in same:
        if values_conflict(claim.attribute, claim.value, o.value)[0] is None:
            return Statement("yes", f"{claim.claimant}'s page states {_quote(o)}", (o.id,))
    o = same[0]
    return Statement(
        "no",
        f"{claim.claimant}'s page states {_quote(o)}, not {format_value(claim.value)}",
        (o.id,),
    )


def _checked(o: ObsView) -> list[str]:
    return list(o.value.extra.get("checked") or [o.attribute])


def _watched_pages(pages: Sequence[ObsView]) -> str:
    """``the watched page of Moonshot AI looks for total parameters and context window``
    (one clause per page owner, attributes in the watch's order)."""
    looks: dict[str, list[str]] = {}
    for o in pages:
        names = looks.setdefault(str(o.qualifiers[STATED_BY]), [])
        for a in _checked(o):
            if attribute_phrase(a) not in names:
                names.append(attribute_phrase(a))
    parts = []
    for owner, names in looks.items():
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"the watched page of {owner} looks for {listed}")
    return "; ".join(parts)


def _quote(o: ObsView) -> str:
    quote = o.value.extra.get("quote")
    where = o.value.extra.get("span")
    text = f"“{quote}”" if quote else format_value(o.value)
    at = f" at chars {where[0]}-{where[1]}" if isinstance(where, list) and len(where) == 2 else ""
    return f"{text}{at} (read as {format_value(o.value)}; observation #{o.id})"


def self_reported(claim: ClaimView, statement: Statement) -> bool:
    """Whether the claimant's own statement is the primary source: a count of its own
    hardware (``hardware`` qualifier starting with the claimant's name), found on its page."""
    hw = _norm(claim.qualifiers.get("hardware"))
    return (
        statement.status == "yes"
        and claim.attribute in SELF_REPORTED
        and bool(claim.claimant)
        and hw.startswith(_norm(claim.claimant))
    )


def vendor_statement(claim: ClaimView, o: ObsView, vendor: str | None) -> bool:
    """Whether a page statement ``o`` is the subject's vendor's word that is evidence for
    the verdict: on a claim made by someone else, or on the model's parameter counts
    (:data:`VENDOR_SPECS`) whoever claims them."""
    stated_by = _norm(o.qualifiers.get(STATED_BY))
    if not vendor or stated_by != _norm(vendor):
        return False
    return _norm(claim.claimant) != stated_by or claim.attribute in VENDOR_SPECS


def provider_matches(claim_q: dict, obs_q: dict) -> bool:
    """A claim naming hardware or a provider (``Cerebras WSE-3T``) is compared only with
    observations of that provider; an observation without one, or a claim naming none,
    always matches."""
    provider = obs_q.get("provider")
    named = claim_q.get("provider") or claim_q.get("hardware")
    if not provider or not named:
        return True
    return _norm(named).startswith(_norm(provider).split(" ")[0])
