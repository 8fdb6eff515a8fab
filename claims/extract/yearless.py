"""The year of a date stated without one ("March", "4 de janeiro", "the end of March").

Used by :mod:`claims.extract.dates`: with no tense auxiliary in the clause, the occurrence not
more than six months before the article (a November article's "March" is next March). A
future clause ("will be released in October" in a November article) never takes a month
already past: next year's; a past one ("was released in December") never one still to
come: last year's.
"""

from __future__ import annotations

import datetime as dt
import re

from claims.extract.lexicon import words

# Auxiliaries only: a participle ("released") also follows "will be", so it says nothing.
_PAST = frozenset(words("past_auxiliaries"))
_FUTURE = frozenset(words("future_auxiliaries"))
# A past auxiliary with a plan's participle ("foram prometidos para 4 de novembro", "was
# scheduled for March") dates the plan, not the event: no tense, the six-month rule.
_PLANNED = frozenset(words("plan_participles"))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_CLAUSE_END = re.compile(r"[.!?;:\n](?:\s|$)|,?\s+(?:and|but|while|e|mas|enquanto)\s")
_LOOK_BACK = 400  # characters: a clause is shorter, and a longer look made scans quadratic


def tense_before(text: str, start: int) -> str | None:
    """ "past" or "future" by the nearest tense auxiliary before ``start`` in its sentence,
    ``None`` when there is none or a plan's participle comes first ("were promised for").

    ``text``: the article; ``start``: offset of the date. The clause runs back to the
    last ``. ! ? ; :`` followed by a space (so "K3.1" does not end it), line break, or
    "and/but/while/e/mas/enquanto" ("was announced in March and ships in December": the
    second clause has no tense), at most 400 characters.
    "It was said the weights will ship in March" is future (nearest is "will").
    """
    head = text[max(0, start - _LOOK_BACK) : start]
    ends = list(_CLAUSE_END.finditer(head))
    clause = head[ends[-1].end() :] if ends else head
    for word in reversed(_WORD.findall(clause.lower())):
        if word in _PLANNED:
            return None
        if word in _PAST:
            return "past"
        if word in _FUTURE:
            return "future"
    return None


def yearless_year(
    month: int, day: int | None, published: dt.date | None, tense: str | None
) -> int | None:
    """The year for ``month``/``day`` stated without one; ``None`` without ``published``.

    ``day`` is ``None`` for a month alone ("in October", "the end of March"): then months
    are compared, and its first day for the six-month rule. ``tense`` (:func:`tense_before`):
    "future" takes next year when the day (month) is before ``published``'s; "past" takes
    last year when it is after; ``None``: the published year, or the next one when that
    day is more than six months (183 days) before ``published`` ("4 de janeiro" in a
    December article).
    """
    if published is None:
        return None
    year = published.year
    if day is None:
        stated, pub = (month, 0), (published.month, 0)
    else:
        stated, pub = (month, day), (published.month, published.day)
    if tense == "future":
        return year + (stated < pub)
    if tense == "past":
        return year - (stated > pub)
    if (published - dt.date(year, month, day or 1)).days > 183:
        year += 1
    return year
