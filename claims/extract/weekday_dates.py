"""A weekday with the day of the month in brackets after it, as Brazilian news dates an
event: "nesta terça-feira (02/09)", "na sexta (5)", "desta segunda-feira (17, madrugada de
terça no Brasil)" (words after the day's comma), or the day alone between commas
after it ("nesta quinta-feira, 18, o lançamento") (lexicon/<lang>/weekdays.txt: each
weekday word and its ISO number, 1 = Monday).

The bracket holds the day, or day and month in the locale's order ("02/09": 2 September
in pt, 9 February in en). The year is that of a date stated without one
(:func:`claims.extract.yearless.yearless_year`); a day alone is in the publication month,
or the month before when that day is still to come. The reading stands only when the
weekday named is that date's weekday: a bracket holding anything else is no date.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from claims.extract.lexicon import words
from claims.extract.yearless import yearless_year


@cache
def _weekdays() -> dict[str, int]:
    out: dict[str, int] = {}
    for line in words("weekdays"):
        word, number = line.rsplit(maxsplit=1)
        out[word.casefold()] = int(number)
    return out


def weekday_pattern() -> str:
    """The regex of a weekday word and its bracket, groups ``wd`` (the word), ``wa`` and
    ``wb`` (the bracket's first and second number, ``wb`` maybe missing; a comma and a few
    words may follow them in the bracket), or ``wc`` (a
    day alone between commas: "quinta-feira, 18,")."""
    alt = "|".join(re.escape(w) for w in sorted(_weekdays(), key=len, reverse=True))
    # a weekday named without its day ("na última sexta-feira") only in its full form:
    # "segunda", "quarta" alone are ordinals too ("nesta segunda fase")
    full = "|".join(re.escape(w) for w in sorted(_weekdays(), key=len, reverse=True) if _full(w))
    # every branch starts with a weekday or one of n/ú/u/p/e (na, última, passado, esta): a
    # lookahead on those letters spares trying each branch at every position (~2 ms / 10 KB)
    firsts = "".join(sorted({w[0].lower() for w in _weekdays()} | set("nuúpe")))
    return (
        rf"(?=[{re.escape(firsts)}])(?:"
        rf"\b(?P<wd>{alt})(?:\s*\((?P<wa>[0-3]?\d)(?:/(?P<wb>[01]?\d))?(?:,[^()\n]{{1,40}})?\)"
        r"|\s*,\s*(?P<wc>[0-3]?\d)(?=\s*,))"
        # the last one before the article: "na última sexta-feira", "no sábado passado"
        rf"|\b(?:n[ao]\s+)?(?:últim[ao]|passad[ao])\s+(?P<lw>{full})\b"
        rf"|\b(?:n[ao]\s+)?(?P<pw>{full})\s+passad[ao]\b"
        # the article's week: "nesta quarta-feira", "esta quarta-feira" (no day after it)
        rf"|\b(?:n?est[ae]|n?ess[ae])\s+(?P<tw>{full})\b(?!\s*[(,]\s*\d))"
    )


def _full(word: str) -> bool:
    """A weekday word that is no other word: "terça-feira", "sábado", not "quarta"."""
    return "-" in word or word.casefold() in ("sábado", "sabado", "domingo")


def _relative_weekday(m: re.Match[str], published: dt.date, tense: str | None) -> dt.date:
    """The date of a weekday named without its day: the last one before ``published``
    ("na última sexta-feira"), or the one of its week, on or before it (on or after it in a
    future clause: "nesta quarta-feira será lançado")."""
    target = _weekdays()[(m["lw"] or m["pw"] or m["tw"]).casefold()]
    today = published.isoweekday()
    if m["tw"] and tense == "future":
        return published + dt.timedelta(days=(target - today) % 7)
    back = (today - target) % 7
    if not m["tw"] and back == 0:
        back = 7  # "na última sexta-feira" said on a Friday: a week ago
    return published - dt.timedelta(days=back)


def read_weekday(
    m: re.Match[str], day_first: bool, published: dt.date | None, tense: str | None
) -> dt.date | None:
    """The date a :func:`weekday_pattern` match states, or ``None`` (no year to give it,
    an impossible day, or a weekday that is not that date's)."""
    if not m["wd"]:  # "na última sexta-feira", "nesta quarta-feira": from the article's day
        return None if published is None else _relative_weekday(m, published, tense)
    a, b = int(m["wa"] or m["wc"]), m["wb"]
    if b is None:
        if published is None:
            return None
        first = published.replace(day=1)
        month_start = first if a <= published.day else (first - dt.timedelta(days=1)).replace(day=1)
        try:
            d = month_start.replace(day=a)
        except ValueError:
            return None
    else:
        day, month = (a, int(b)) if day_first else (int(b), a)
        try:
            year = yearless_year(month, day, published, tense)
            if year is None:
                return None
            d = dt.date(year, month, day)
        except ValueError:
            return None
    return d if d.isoweekday() == _weekdays()[m["wd"].casefold()] else None
