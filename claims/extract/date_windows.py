"""Date windows: a quarter, a half or part of a year ("Q1 2027", "H1 2027", "early 2027",
"no primeiro trimestre de 2027", "até ao final de 2026"), from the data files
``lexicon/<lang>/date_windows.txt`` (months, then the words before the year).

A window has a first and a last month. Read by :mod:`claims.extract.dates`, which stores
it in the date model (one date, a relation, month precision): "in"/"by" the window is
``by`` its last month (the promise's deadline; its start is not kept), "before" it is
``before`` its first month, "not before"/"won't ... until" it is ``after`` the month
before its first, "after" it is ``after`` its last month. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from claims.extract.lexicon import words

# Between the window's words and its year: "Q1 2027", "mid-2027", "first half of 2027",
# "primeiro trimestre de 2027", "início do ano de 2027".
_YEAR = (
    r"(?:[\s-]+(?:of\s+|de\s+|do\s+)?(?:the\s+year\s+|o\s+ano\s+(?:de\s+)?)?(?P<wy>\d{4})(?!\d))"
)


@dataclass(frozen=True)
class Window:
    """One line of a date_windows list: ``first``/``last`` month, whether the year may be
    left out (``yearless``), and the words' regex."""

    first: int
    last: int
    yearless: bool
    words: re.Pattern[str]


@cache
def windows(lang: str) -> tuple[Window, ...]:
    """The windows of ``lang``'s list. Raises ValueError naming the bad line."""
    out = []
    for line in words("date_windows", lang):
        months, sep, rx = line.partition("\t")
        m = re.fullmatch(r"(\d{1,2})-(\d{1,2})(\??)", months.strip())
        if not sep or m is None:
            raise ValueError(f"lexicon/{lang}/date_windows.txt: bad line {line!r}")
        first, last = int(m[1]), int(m[2])
        out.append(Window(first, last, bool(m[3]), re.compile(rf"(?:{rx.strip()})", re.I)))
    return tuple(out)


@cache
def window_pattern(lang: str) -> str:
    """The regex of every window of ``lang`` with an optional year (group ``wy``); the
    window's words are group ``win``."""
    alt = "|".join(w.words.pattern for w in windows(lang))
    return rf"\b(?:the\s+)?(?P<win>{alt})(?!\w){_YEAR}?"


def window_of(text: str, lang: str) -> Window | None:
    """The window whose words are ``text`` (the ``win`` group), or ``None``."""
    for w in windows(lang):
        if w.words.fullmatch(text):
            return w
    return None
