"""Stated dates in pt and en text, with their relation (on / before / by / after).

Input: text, a locale tag and the article's published date (the base for a missing
year and for relative dates). Output: :class:`DateSpan` items carrying a ``date``
:class:`claims.values.value.Value`. Month names come from CLDR via babel; relative phrases
("há 3 dias", "in two weeks") go through dateparser with the published date as base.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel.dates import get_date_format, get_month_names

from claims.extract.date_relations import NEGATED, relation_before, unit_before
from claims.extract.date_windows import window_of, window_pattern
from claims.extract.lexicon import alternation, phrases, words
from claims.extract.weekday_dates import read_weekday, weekday_pattern
from claims.extract.yearless import tense_before, yearless_year
from claims.values.numbers import NUMBER_WORDS_EN, NUMBER_WORDS_PT, normalize_locale, word_number
from claims.values.value import Value, date_value


@dataclass(frozen=True)
class DateReading:
    """A date read from text: ISO ``iso`` (``YYYY-MM-DD`` or ``YYYY-MM``), ``precision``
    (``day``/``month``), ``relation``, and ``moment`` (aware datetime) when a time was stated.
    ``denied``: the text negates the date without saying another ("not in March", "não
    ... até março"); it is no claim of a date. ``first``: for a window ("Q1 2027"), its
    first month (``iso`` is its last)."""

    iso: str
    precision: str = "day"
    relation: str = "on"
    moment: dt.datetime | None = None
    denied: bool = False
    first: str | None = None

    def to_value(self) -> Value:
        """The reading as a ``date`` :class:`Value` (the time of day is not part of it)."""
        return date_value(self.iso, self.relation, precision=self.precision)


@dataclass(frozen=True)
class DateSpan:
    """A date expression in text: offsets of the date itself (relation words excluded);
    ``negation``: the negation and relation words that govern it ("não … até"), or ""."""

    start: int
    end: int
    text: str
    reading: DateReading
    negation: str = ""

    def denial_note(self) -> str:
        """Why a denied date gives no claim: "a negated date ('não … até março') ..."."""
        return f"a negated date ('{self.negation} {self.text}') states no date: skipped"


@lru_cache(maxsize=8)
def _month_table(lang: str) -> dict[str, int]:
    """Month names and abbreviations (CLDR via babel), accent-folded and lower-case."""
    table: dict[str, int] = {}
    for width in ("wide", "abbreviated"):
        for ctx in ("format", "stand-alone"):
            for num, name in get_month_names(width, ctx, locale=lang).items():
                key = _fold(name.rstrip("."))
                table[key] = num
    if lang == "en":
        table["sept"] = 9
    return table


def _abbreviated(months: list[str], wide: str) -> str:
    """The abbreviated month names (``months`` less the ``wide`` alternation's), each only
    right before a year."""
    abbr = "|".join(sorted(set(months) - set(wide.split("|")), key=len, reverse=True))
    return rf"(?:{abbr})(?=\.?\s+\d{{4}}(?!\d))"


@lru_cache(maxsize=8)
def _wide(lang: str) -> frozenset[str]:
    return frozenset(_fold(n) for n in get_month_names("wide", locale=lang).values())


def _fold(s: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", s.lower()) if not unicodedata.combining(c)
    )


@lru_cache(maxsize=8)
def _unit_table(lang: str) -> dict[str, str]:
    """Folded unit word -> "days"/"weeks"/"months"/"years" (``lexicon/<lang>/time_units.txt``)."""
    pairs = (line.rsplit(None, 1) for line in words("time_units", lang))
    return {_fold(word): unit for word, unit in pairs}


def _units(lang: str) -> str:
    """The unit words of ``lang``'s relative dates, accented forms as listed."""
    return "|".join(re.escape(line.rsplit(None, 1)[0]) for line in words("time_units", lang))


# A part of a month right before a month name ("mid-", "late ", "meados de "): kept in
# the date's span (lexicon/<lang>/month_parts.txt; the month stays the value's precision).
_MONTH_PART = re.compile(r"\b(?:" + phrases("month_parts") + r")[\s-]+$", re.IGNORECASE)


# Whether a text has a "today" word at all (the "today" pattern is only tried then).
_TODAY_WORD = re.compile(r"\b(?:" + alternation("today_words") + r")\b", re.IGNORECASE)


@lru_cache(maxsize=8)
def _patterns(lang: str) -> tuple[re.Pattern[str], ...]:
    months = sorted(_month_table(lang), key=len, reverse=True)
    mon_alt = "|".join(months)
    # CLDR pt month names are unaccented except "março": allow [cç]
    mon = "(?P<mon>" + mon_alt.replace("marco", "mar[cç]o") + r")\.?"
    year = r"(?P<year>\d{4})"
    wide = "|".join(_fold(n) for n in get_month_names("wide", locale=lang).values()).replace(
        "marco", "mar[cç]o"
    )
    day = r"(?P<day>[0-3]?\d)(?:º|°|st|nd|rd|th)?"
    iso = r"(?<![\d/-])(?P<iy>\d{4})-(?P<im>[01]\d)-(?P<id>[0-3]\d)(?![\d-])"
    numeric = (
        r"(?<![\d/.])(?P<a>[0-3]?\d)/(?P<b>[01]?\d)/(?P<y>\d{4}|\d{2})(?![\d/])"
        r"(?:,?\s*(?:às\s+|at\s+)?(?P<hh>[0-2]?\d)[:h](?P<mm>[0-5]\d))?"
    )
    # Any short word before "/YY"; _read() keeps it only when it is a CLDR month (speed).
    monyy = r"(?<!\w)(?P<mon>[^\W\d_]{3,9})\.?/(?P<yy>\d{2})(?!\d)"
    if lang == "pt":
        named = rf"(?<!\d){day}\s+de\s+{mon}(?:\s+de\s+{year})?(?!\w)"
        named2 = r"(?!)"
        month_only = rf"\b(?=[jfmasondJFMASOND])(?P<mon>{wide})(?:\s+de\s+{year})?(?!\w)"
        words = NUMBER_WORDS_PT
        relative = (
            rf"\b(?P<rel>há|em|daqui\s+a|dentro\s+de)\s+(?P<n>\d+|{words})\s+"
            rf"(?P<unit>{_units(lang)})\b(?P<ago>\s+atr[aá]s)?"
        )
        endof = (
            r"\b(?:n?o\s+)?(?:fim|final)\s+d[oe]\s+(?:(?P<eo>ano|m[eê]s)\b"
            rf"|(?P<eom>{wide})(?:\s+de\s+(?P<eoy>\d{{4}}))?(?!\w))"
        )
    else:
        named = rf"\b{mon}\s+{day}(?:,?\s+{year})?(?!\w)"
        named2 = rf"(?<!\d){day}\s+{mon}(?:,?\s+{year})?(?!\w)"
        month_only = rf"\b(?=[jfmasondJFMASOND])(?P<mon>{wide}|{_abbreviated(months, wide)})\.?(?:\s+{year})?(?!\w)"
        words = NUMBER_WORDS_EN
        relative = (
            rf"(?:\b(?P<rel>in|within)\s+)?\b(?P<n>\d+|{words}|a)\s+"
            rf"(?P<unit>{_units(lang)})\b(?P<ago>\s+ago)?"
        )
        endof = (
            r"\b(?:the\s+)?end\s+of\s+(?:(?:the\s+)?(?P<eo>year|month)\b"
            rf"|(?P<eom>{wide})(?:,?\s+(?P<eoy>\d{{4}}))?(?!\w))"
        )
    flags = re.IGNORECASE
    today = alternation("today_words")
    return tuple(
        re.compile(p, flags)
        for p in (
            window_pattern(lang),
            iso,
            numeric,
            weekday_pattern(),
            named,
            named2,
            monyy,
            relative,
            endof,
            month_only,
            # "Today we release X", "Hoje, a Vega lança": the publication day, only opening a
            # sentence with a release verb right after (not "today's market", nor "o termo
            # mais honesto hoje", where it means nowadays)
            r"(?:\A|(?<=\n)|(?<=[.!?] ))(?:" + today + r")\b(?!['’]s)(?=,?\s+(?:[\w-]+\s+){0,3}?"
            r"(?:" + alternation("release_stems") + r"))"
            # mid-sentence, right before a release verb in the past: "Google DeepMind
            # today released Gemma 2", "a Meta hoje lançou" (not "today announced": an
            # announcement may be of a later release)
            r"|(?<=\s)(?:"
            + today
            + r")(?=\s+(?:"
            + alternation("released_today")
            + r")\b)"
            # or right after it: "a Meta lançou hoje o Llama 4", "released today"
            + r"|(?:"
            + "|".join(rf"(?<=\b{re.escape(w)}\s)" for w in _released_today())
            + r")(?:"
            + today
            + r")\b",
        )
    )


def _released_today() -> tuple[str, ...]:
    """Past release verbs a "today" may follow ("lançou hoje"): ``released_today.txt``."""
    return words("released_today")


def scan_dates(
    text: str, locale: str, published: dt.date | None, tz: str | None = None
) -> list[DateSpan]:
    """Every date expression in ``text`` (non-overlapping, in order) with its relation.

    A missing year (month + day, month alone, "the end of March") is the published year,
    or the next year when that would start the day or month more than six months (183
    days) before publication; in a future clause ("will be released in October") a month
    already past is next year's, in a past one ("was released in December") a month to
    come is last year's (:func:`claims.extract.yearless.yearless_year`); relative phrases are
    computed from ``published`` (skipped when it is ``None``), and "today"/"hoje" opening a
    sentence with a release verb ("Today we release X") is the published day. Numeric dates follow the CLDR short date
    order of ``locale`` (pt: day/month/year, en: month/day/year, en-GB: day/month), and
    ISO ``YYYY-MM-DD`` is never reordered (cases/C09).
    """
    loc = normalize_locale(locale)
    lang = loc.split("-")[0]
    if lang not in ("pt", "en"):
        lang = "en"
    taken: list[tuple[int, int]] = []
    out: list[DateSpan] = []
    for kind, pat in zip(
        (
            "window",
            "iso",
            "numeric",
            "weekday",
            "named",
            "named",
            "monyy",
            "relative",
            "endof",
            "month",
            "today",
        ),
        _patterns(lang),
        strict=True,
    ):
        if kind == "today" and not _TODAY_WORD.search(text):
            continue  # its lookbehinds before any word cost ~1.6 ms per 10 KB
        for m in pat.finditer(text):
            s, e = m.span()
            if m.group(0).strip() == "" or any(s < te and ts < e for ts, te in taken):
                continue
            dated = ("named", "month", "endof", "window", "weekday")
            tense = tense_before(text, s) if kind in dated else None
            reading = _read(kind, m, loc, lang, published, tz, tense)
            if reading is None:
                continue
            lead = len(m.group(0)) - len(m.group(0).lstrip())
            s += lead
            if text[e - 1] == "." and _fold(text[s:e].rstrip(".").split()[-1]) in _wide(lang):
                e -= 1  # a sentence's full stop after a full month name
            part = _MONTH_PART.search(text, max(0, s - 30), s) if kind == "month" else None
            if part:  # "mid-December": the span shows the part a reviewer must see
                s = part.start()
            rel, words, negation = relation_before(text, s)
            if kind in ("endof", "window"):
                rel = "by" if rel in ("on", "by") else rel
            if kind == "relative" and m.group("rel"):
                word = m.group("rel").lower()
                if word == "há":
                    rel = "on"
                elif word in ("within", "dentro de"):
                    rel = "by"
            iso, denied = reading.iso, False
            if negation:
                flipped = None if words.startswith("até") else NEGATED.get(rel)
                denied, rel = flipped is None, flipped or rel
            if reading.first and rel in ("before", "not_before"):
                iso = reading.first  # before a window: before its first month
            if rel == "not_before":
                iso, rel = unit_before(iso, reading.precision), "after"
            reading = DateReading(iso, reading.precision, rel, reading.moment, denied)
            taken.append((s, e))
            said = f"{negation} … {words}" if negation else ""
            out.append(DateSpan(s, e, text[s:e], reading, said))
    out.sort(key=lambda d: d.start)
    return out


def parse_date(
    text: str, locale: str, published: dt.date | None, tz: str | None = None
) -> DateReading | None:
    """The first date in a short string ("Publicado em 10/03/2026 às 09:15") or ``None``."""
    spans = scan_dates(text, locale, published, tz)
    return spans[0].reading if spans else None


def _year(y: str) -> int:
    return int(y) + 2000 if len(y) == 2 else int(y)


def _read(
    kind: str,
    m: re.Match[str],
    loc: str,
    lang: str,
    published: dt.date | None,
    tz: str | None,
    tense: str | None = None,
) -> DateReading | None:
    try:
        if kind == "window":
            return _window(m, lang, published, tense)
        if kind == "today":  # "Today we release ...", "hoje": the publication day
            return DateReading(published.isoformat()) if published else None
        if kind == "iso":
            d = dt.date(int(m["iy"]), int(m["im"]), int(m["id"]))
            return DateReading(d.isoformat())
        if kind == "numeric":
            a, b = int(m["a"]), int(m["b"])
            day, month = (a, b) if _day_first(loc) else (b, a)
            d = dt.date(_year(m["y"]), month, day)
            moment = None
            if m["hh"]:
                zone = ZoneInfo(tz) if tz else None
                moment = dt.datetime(
                    d.year, d.month, d.day, int(m["hh"]), int(m["mm"]), tzinfo=zone
                )
            return DateReading(d.isoformat(), moment=moment)
        if kind == "weekday":  # "nesta terça-feira (02/09)"
            wd = read_weekday(m, _day_first(loc), published, tense)
            return None if wd is None else DateReading(wd.isoformat())
        if kind == "named":
            month, day = _month_table(lang)[_fold(m["mon"])], int(m["day"])
            year = int(m["year"]) if m["year"] else yearless_year(month, day, published, tense)
            return None if year is None else DateReading(dt.date(year, month, day).isoformat())
        if kind in ("monyy", "month"):
            month = _month_table(lang)[_fold(m["mon"])]
            if kind == "monyy":
                year = _year(m["yy"])
            else:
                if lang == "en" and m["mon"][0].islower():
                    return None  # "may", "march" as words
                if lang == "pt" and m["mon"].lower() == "marco" and not m["year"]:
                    return None  # "um marco em ...": the noun (landmark), not "março"
                year = int(m["year"]) if m["year"] else yearless_year(month, None, published, tense)
                if year is None:
                    return None
            return DateReading(f"{year:04d}-{month:02d}", precision="month")
        if kind == "relative":
            return _relative(m, lang, published)
        if kind == "endof":
            if m["eom"]:
                return _end_of_month(m, lang, published, tense)
            if published is None:
                return None
            if m["eo"].lower() in ("ano", "year"):
                return DateReading(dt.date(published.year, 12, 31).isoformat(), relation="by")
            last = calendar.monthrange(published.year, published.month)[1]
            return DateReading(
                dt.date(published.year, published.month, last).isoformat(), relation="by"
            )
    except (ValueError, KeyError):
        return None
    return None


def _window(
    m: re.Match[str], lang: str, published: dt.date | None, tense: str | None
) -> DateReading | None:
    """ "Q1 2027", "no primeiro semestre": the window's last month, ``first`` its first
    (:mod:`claims.extract.date_windows`); a missing year as for a month alone, when the
    window may be written without one. A part of a year ("early", "late") in a past-tense
    clause describes a period, not an event: ``None``."""
    w = window_of(m["win"], lang)
    if w is None or not (m["wy"] or w.yearless):
        return None
    if tense == "past" and not w.yearless:
        return None  # "was the leading model in late 2025": a period described, no event
    year = int(m["wy"]) if m["wy"] else yearless_year(w.first, None, published, tense)
    if year is None:
        return None
    return DateReading(f"{year:04d}-{w.last:02d}", "month", "by", first=f"{year:04d}-{w.first:02d}")


def _end_of_month(
    m: re.Match[str], lang: str, published: dt.date | None, tense: str | None
) -> DateReading | None:
    """ "the end of December [2026]": that month's last day, a deadline ("by"). A missing
    year: see :func:`claims.extract.yearless.yearless_year` (the month is the one compared)."""
    month = _month_table(lang)[_fold(m["eom"])]
    year = int(m["eoy"]) if m["eoy"] else yearless_year(month, None, published, tense)
    if year is None:
        return None
    last = calendar.monthrange(year, month)[1]
    return DateReading(dt.date(year, month, last).isoformat(), relation="by")


def _relative(m: re.Match[str], lang: str, published: dt.date | None) -> DateReading | None:
    """N days/weeks/months before ("há", "ago") or after ("em", "in") the published date,
    computed by dateparser on the normalized span with the published date as base."""
    if published is None:
        return None
    ago = bool(m["ago"]) or (m["rel"] or "").lower() == "há"
    if not ago and not m["rel"]:
        return None  # "3 days" alone is a duration, not a date
    n_text = m["n"]
    n = (
        int(n_text)
        if n_text.isdigit()
        else (1 if n_text.lower() == "a" else word_number(n_text, lang))
    )
    if n is None:
        return None
    unit = _unit_table(lang)[_fold(m["unit"])]
    phrase = f"{n} {unit} ago" if ago else f"in {n} {unit}"
    d = _dateparser_relative(phrase, published)
    if d is None:
        return None
    return DateReading(d.isoformat())


@lru_cache(maxsize=128)
def _dateparser_relative(phrase: str, published: dt.date) -> dt.date | None:
    import dateparser

    base = dt.datetime(published.year, published.month, published.day, 12, 0)
    got = dateparser.parse(
        phrase,
        languages=["en"],
        settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "current_period"},
    )
    return got.date() if got else None


@lru_cache(maxsize=16)
def _day_first(loc: str) -> bool:
    pattern = get_date_format("short", locale=loc.replace("-", "_")).pattern
    return pattern.lower().find("d") < pattern.find("M")
