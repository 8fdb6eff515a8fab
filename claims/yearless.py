"""The year of a date stated without one ("March", "4 de janeiro", "the end of March").

Used by :mod:`claims.dates`: the occurrence not more than six months before the article
(a November article's "March" is next March), unless the clause is explicitly past tense
("was released in March" keeps the article's year). A promise ("will be released in
March") or a clause with no tense auxiliary takes the next occurrence.
"""

from __future__ import annotations

import datetime as dt
import re

# Auxiliaries only: a participle ("released") also follows "will be", so it says nothing.
_PAST = frozenset("was were had did foi foram fora tinha tinham havia haviam".split())
_FUTURE = frozenset(
    "will would shall won't won’t vai vão irá irão será serão terá terão plans planeja "
    "planejam pretende pretendem promete prometem expects espera".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_CLAUSE_END = re.compile(r"[.!?;:\n](?:\s|$)")


def past_tense_before(text: str, start: int) -> bool:
    """True when the nearest tense auxiliary before ``start`` in its sentence is a past one.

    ``text``: the article; ``start``: offset of the date. The sentence runs back to the
    last ``. ! ? ; :`` followed by a space (so "K3.1" does not end it) or a line break.
    "It was said the weights will ship in March" is future (nearest is "will").
    """
    head = text[:start]
    ends = list(_CLAUSE_END.finditer(head))
    clause = head[ends[-1].end() :] if ends else head
    for word in reversed(_WORD.findall(clause.lower())):
        if word in _PAST:
            return True
        if word in _FUTURE:
            return False
    return False


def yearless_year(month: int, day: int, published: dt.date | None, roll: bool) -> int | None:
    """The year for ``month``/``day`` stated without one; ``None`` without ``published``.

    The published year, or the next one when ``roll`` and that day is more than six months
    (183 days) before ``published`` ("4 de janeiro" in a December article). For a month
    alone pass ``day=1``: its first day is compared (as for "the end of March").
    """
    if published is None:
        return None
    year = published.year
    if roll and (published - dt.date(year, month, day)).days > 183:
        year += 1
    return year
