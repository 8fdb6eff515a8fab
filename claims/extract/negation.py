"""Negated figures: "It does not have 2.8T parameters", "não custa o dobro" state no figure.

Pure. :func:`affirmed` is asked about each candidate with the text of its clause before
the figure; a negation a few words before it ("does not have", "isn't", "não tem",
"não é") drops the candidate with a warning. "not only 2T", "não apenas 2T" still state
the figure; negated bounds ("no fewer than 2T", "não menos de 2T") are read as bounds by
:mod:`claims.extract.figures`.
"""

from __future__ import annotations

import re
from typing import Protocol

from claims.extract.lexicon import alternation, phrases

# A negation word, then at most three words (no punctuation between) up to the figure.
# The one negation list (lexicon/*/negation.txt), shared with dates and plans.
NEGATION_WORDS = alternation("negation")
_NEG_RE = re.compile(
    rf"(?:\b(?:{NEGATION_WORDS})\b|n['’]t\b)(?P<gap>(?:\s+[^\s;:,.!?]+){{0,3}}?)\s*$",
    re.I,
)
# "not only 2T but ...", "não é apenas 2T": the figure is stated, something is added.
# Words after which "not" adds rather than denies (figures here, dates in date_relations).
NOT_NEGATING_WORDS = alternation("not_negating")
_NOT_NEGATING_RE = re.compile(rf"(?<!\w)(?:{NOT_NEGATING_WORDS})(?!\w)", re.I)
# "isn't cheap at $3", "não é pequeno com 2,8T", "not far from 90%": the negation is about
# something else and the figure is stated (after a preposition, or "far from").
_STATED_AFTER_RE = re.compile(r"(?<!\w)(?:" + phrases("stated_after") + r")\s*$", re.I)


class _Stated(Protocol):
    start: int
    text: str


def negation(before: str) -> str | None:
    """The negation governing a figure ("not have"), given its clause text ``before`` it."""
    m = _NEG_RE.search(before)
    if m is None or _NOT_NEGATING_RE.search(m.group("gap")) or _STATED_AFTER_RE.search(before):
        return None
    return " ".join(m.group(0).split())


def affirmed(c: _Stated, before: str, warnings: list[str]) -> bool:
    """False (and a warning in ``warnings``) when the figure of ``c`` is negated."""
    neg = negation(before)
    if neg is None:
        return True
    warnings.append(f"at {c.start}: {c.text!r}: negated ({neg!r}), not a claim: skipped")
    return False
