"""Stated figures in running text: number, scale, approximation, bound, range, %, x, money per unit.

Input: text and a locale tag. Output: :class:`Figure` spans (character offsets) whose
:meth:`Figure.to_value` gives a :class:`claims.values.value.Value` once the unit is known
(the extractor decides the unit from context words). :func:`parse_figure` reads one span.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from claims.extract.lexicon import alternation, phrases
from claims.values.numbers import (
    NUMBER_WORDS_EN,
    NUMBER_WORDS_PT,
    SCALE_AMBIGUOUS,
    SCALE_WORD_PATTERN,
    SPACE_GROUPS,
    normalize_locale,
    read_number,
    scale_of,
    separators,
    word_number,
)
from claims.values.value import Value, quantity, value_range

# The words of lexicon/<lang>/*.txt named below, as regex alternations (signs and codes here).
APPROX_WORDS = phrases("approx_words") + "|~|≈"
LOWER_BOUND_WORDS = phrases("lower_bound_words")
UPPER_BOUND_WORDS = phrases("upper_bound_words")
CURRENCY_BEFORE = r"US\$|U\$|USD|US|R\$|\$|€|EUR|£"
CURRENCY_AFTER = alternation("currency_words") + "|USD|€|EUR"
PER_UNIT = alternation("per_units") + "|(?i:mtok|ktok)|M|K|k"  # "per MTok" as a card writes it
_BETWEEN = alternation("between_words")

_CURRENCY_CODES = {
    "US$": "usd",
    "U$": "usd",
    "USD": "usd",
    "US": "usd",
    "$": "usd",
    "dólares": "usd",
    "dolares": "usd",
    "dollars": "usd",
    "R$": "brl",
    "reais": "brl",
    "€": "eur",
    "EUR": "eur",
    "euro": "eur",
    "euros": "eur",
    "£": "gbp",
}
_PER_SCALE = {
    "milhão": Decimal(10) ** 6,
    "milhao": Decimal(10) ** 6,
    "million": Decimal(10) ** 6,
    "M": Decimal(10) ** 6,
    "mtok": Decimal(10) ** 6,
    "mil": Decimal(1000),
    "thousand": Decimal(1000),
    "K": Decimal(1000),
    "k": Decimal(1000),
    "ktok": Decimal(1000),
    "token": Decimal(1),
}


_TRAILING_DE = re.compile(r"\s+de$")
_GLUED_LABELS = Path(__file__).with_name("lexicon") / "glued_labels.txt"


@lru_cache(maxsize=1)
def _after_glued_label() -> str:
    """Lookbehinds for a number glued to a spec label ("Context window128K"): one per word
    of ``lexicon/glued_labels.txt`` as written and capitalized (fixed width each)."""
    lines = _GLUED_LABELS.read_text(encoding="utf-8").splitlines()
    labels = {w.strip() for w in lines if w.strip() and not w.startswith("#")}
    forms = sorted({f for w in labels for f in (w, w.capitalize())})
    return "|".join(f"(?<={re.escape(f)})" for f in forms)


# "355B total/32B active": a parameter count right after a word and a slash is a figure
# (only a count of billions or trillions; "4/5", "tokens/s" and "12/2025" stay no figure).
_AFTER_WORD_SLASH = r"(?<=[^\W\d_]{2}/)(?=\d+(?:[.,]\d+)?\s?[BT]\b)"
# "HumanEval92%": a flattened score table glues a percent to the benchmark name before it
# (only a percent; "GPT4", "H100" and "Llama3" stay names).
_GLUED_PERCENT = r"(?<=[^\W\d_]{2})(?=\d+(?:[.,]\d+)?\s?%)"
# "Created Jun 23, 20244,096 context": a router page glues a date's year to the next
# count; the count starts after the year (only a grouped count: "4,096"), never with it.
_YEAR_GLUED_COUNT = r"(?:19|20)\d\d\d{1,3}(?:,\d{3})+(?!\d)"
_AFTER_GLUED_YEAR = r"(?<=\d, (?:19|20)\d\d)(?=\d{1,3}(?:,\d{3})+(?!\d))"
_NOT_GLUED_YEAR = rf"(?!(?<=\d, ){_YEAR_GLUED_COUNT})"


# "1.6 T", "490 B", "384 K tokens": a scale letter one space after its number, only before
# a size or token word, a line's end or a dash/comma ("Total parameters: 1.6 T").
_SPACED_SCALE = (
    r"(?:[ \u00a0](?=[KMBT](?:\s+(?:total|tokens?|param|activ)|[ \t]*(?:\n|$)|\s*[—–,;)])))?"
)


# "mil" with no number before it, right before "milhões"/"milhão" ("um modelo de mil milhões
# de parâmetros"): a thousand, the number of the scale word after it.
_THOUSAND_BEFORE_MILLIONS = r"(?<![\w-])(?i:mil)(?=\s+(?i:milh))"


@lru_cache(maxsize=16)
def figure_regex(locale: str) -> re.Pattern[str]:
    """The compiled figure pattern for ``locale`` (space grouping only where CLDR uses it)."""
    _, group = separators(locale)
    spaces = SPACE_GROUPS if (group in SPACE_GROUPS or group.isspace()) else SPACE_GROUPS.strip(" ")
    num = rf"\d{{1,3}}(?:[.,{spaces}]\d{{3}})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
    words = NUMBER_WORDS_PT if locale.startswith("pt") else NUMBER_WORDS_EN
    # "a trillion-parameter model", "a billion tokens": "a" is one only before a scale word
    one = (
        rf"(?<![\w-])a(?=\s+(?:{alternation('large_number_words', 'en')})\b)"
        if not locale.startswith("pt")
        else _THOUSAND_BEFORE_MILLIONS  # "mil milhões de parâmetros": 10^9 (pt-PT)
    )
    number = rf"(?:{num}|(?i:\b(?:{words})\b)|{one})"
    scale = (
        # "a one-million-token window": a hyphen may join the scale word of a token count
        # (not "a 10-billion-parameter dense transformer": a compound naming a part)
        rf"(?:(?:\s*|-(?=(?:{SCALE_WORD_PATTERN})-tokens?\b))(?P<{{s}}>{SCALE_WORD_PATTERN})\b(?:\s+de\b)?"
        rf"|{_SPACED_SCALE}(?P<{{x}}>[kKMBT])(?:(?![\w-])|(?=-(?:tokens?|param))))"
    )
    pattern = (
        rf"(?:(?P<approx>(?i:{APPROX_WORDS}))\s*)?"
        rf"(?:(?P<lo>(?i:{LOWER_BOUND_WORDS}))\s+|(?P<hi>(?i:{UPPER_BOUND_WORDS}))\s+)?"
        rf"(?:(?P<between>(?i:{_BETWEEN}))\s+)?"
        rf"(?:(?:(?<![\w$])|{_after_glued_label()})(?P<cur>{CURRENCY_BEFORE})\s?)?"
        rf"(?:(?<![\w.,/-])(?P<neg>[-−])|(?<![\w.,/-])|{_after_glued_label()}|{_AFTER_WORD_SLASH}"
        rf"|{_GLUED_PERCENT}|{_AFTER_GLUED_YEAR}){_NOT_GLUED_YEAR}"
        rf"(?P<n1>{number})(?P<ord>º|ª|°|st\b|nd\b|rd\b|th\b)?"
        + scale.format(s="s1", x="x1")
        + "?"
        + r"(?:\s*(?P<rsep>a|to|até|–|—|-|(?(between)(?:e|and)|(?!)))\s*"
        # the high end repeats the low end's currency only: "Sonnet 4 a US$ 3" is a
        # name's number and a price, not a range
        + rf"(?(cur)(?:{CURRENCY_BEFORE})?|)\s?(?P<n2>{number})"
        + scale.format(s="s2", x="x2")
        + "?)?"
        rf"(?P<plus>\+)?"
        rf"(?:(?P<pct>\s?%|\s+(?:{phrases('percent_words')})\b)"
        rf"|(?P<times>\s?[x×](?![\w-])|\s+(?:{alternation('times_words')})\b))?"
        rf"(?:\s+(?P<cur2>{CURRENCY_AFTER})(?!\w))?"
        rf"(?P<pertail>\s*(?:/|\bpor(?:\s+cada)?\b|\bper\b|\ba\s+cada\b)\s*(?:1\s*)?(?P<per>{PER_UNIT})(?!\w))?"
    )
    return re.compile(pattern)


@lru_cache(maxsize=16)
def _anchor_regexes(locale: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(number anchor, prefix-before-anchor) patterns: the figure pattern is tried only where
    a number starts, from the earliest approx/bound/currency words before it (speed)."""
    words = NUMBER_WORDS_PT if locale.startswith("pt") else NUMBER_WORDS_EN
    one = (
        rf"|(?<![\w-])a(?=\s+(?:{alternation('large_number_words', 'en')})\b)"
        if not locale.startswith("pt")
        else "|" + _THOUSAND_BEFORE_MILLIONS
    )
    anchor = re.compile(
        # one digit, not consumed past: a count glued after a year starts inside a digit run
        rf"(?:(?<![^\W_])|{_after_glued_label()}|{_GLUED_PERCENT}|{_AFTER_GLUED_YEAR})\d"
        rf"|(?i:\b(?:{words})\b){one}"
    )
    # Any one prefix piece (with the spaces after it); chained backwards from an anchor.
    piece = re.compile(
        rf"(?:(?<!\w)(?i:{APPROX_WORDS}|{LOWER_BOUND_WORDS}|{UPPER_BOUND_WORDS}|{_BETWEEN})(?!\w)"
        rf"|(?:(?<![\w$])|{_after_glued_label()})(?:{CURRENCY_BEFORE})|[-−~≈]|aprox\.)\s*"
    )
    return anchor, piece


@dataclass(frozen=True)
class Figure:
    """One stated figure found in text.

    ``start``/``end`` are character offsets of the whole span (approx/bound words and
    money tail included); ``low_text``/``high_text`` are de-localized numbers ("2.8");
    ``scale`` multiplies them (10^12 for "trilhões"); ``kind`` is ``plain``, ``percent``,
    ``times`` or ``money``; for money, ``currency`` (``usd``...) and ``per`` (tokens per
    price unit, or ``month``). ``value`` is ``None`` when the text was ambiguous, and
    ``warnings`` say why.
    """

    start: int
    end: int
    text: str
    low_text: str | None
    high_text: str | None = None
    scale: Decimal = Decimal(1)
    scaled: bool = False
    # A range's low end with its own scale word ("600 million to 32 billion"); else None
    # (the one scale word after the range is both ends': "1,5 a 70 bilhões").
    low_scale: Decimal | None = None
    approx: bool = False
    relation: str | None = None
    open_high: bool = False
    negative: bool = False
    kind: str = "plain"
    currency: str | None = None
    per: str | None = None
    word_number: bool = False
    warnings: tuple[str, ...] = field(default=())

    @property
    def is_range(self) -> bool:
        """True for "X a Y", "X-Y", "entre X e Y"."""
        return self.high_text is not None

    @property
    def readable(self) -> bool:
        """False when a number or scale word was ambiguous in the locale."""
        return self.low_text is not None and not any("ambiguous" in w for w in self.warnings)

    def to_value(self, unit: str | None = None) -> Value | None:
        """The figure as a :class:`Value` in ``unit`` (default: from its kind), or ``None``.

        Money is normalized to ``<cur>_per_mtok`` (e.g. ``usd_per_mtok``) with exact Decimal
        arithmetic when ``per`` names a token count ("per 1K" x 1000), ``<cur>_per_month``
        for "por mês", else ``<cur>``. A negative sign flips the number.
        """
        if not self.readable:
            return None
        assert self.low_text is not None
        scale = self.scale
        u = unit or self.default_unit()
        if self.kind == "money" and self.per in _PER_SCALE:
            scale = scale * (Decimal(10) ** 6 / _PER_SCALE[self.per])
        sign = "-" if self.negative else ""
        if self.is_range:
            assert self.high_text is not None
            low_scale = scale if self.low_scale is None else scale / self.scale * self.low_scale
            lo, hi = (
                Decimal(sign + self.low_text) * low_scale,
                Decimal(sign + self.high_text) * scale,
            )
            if lo > hi:
                lo, hi = hi, lo
            return value_range(lo, hi, u, open_high=self.open_high, approx=self.approx)
        return quantity(
            sign + self.low_text, u, scale=scale, approx=self.approx, relation=self.relation
        )

    def default_unit(self) -> str:
        """``percent``, ``times``, ``<cur>_per_mtok``, ``<cur>_per_month``, ``<cur>``, ``count``."""
        if self.kind == "percent":
            return "percent"
        if self.kind == "times":
            return "times"
        if self.kind == "money":
            cur = self.currency or "usd"
            if self.per in _PER_SCALE:
                return f"{cur}_per_mtok"
            if self.per:
                return f"{cur}_per_month"
            return cur
        return "count"


def scan_figures(text: str, locale: str) -> list[Figure]:
    """Every figure in ``text`` read in ``locale``, in order, non-overlapping.

    Digits glued to letters or hyphens ("K3.1", "WSE-3T", "GPT-6", "FP16") are not figures.
    """
    loc = normalize_locale(locale)
    full = figure_regex(loc)
    anchor, piece = _anchor_regexes(loc)
    starts_by_end: dict[int, int] = {}
    for p in piece.finditer(text):
        starts_by_end.setdefault(p.end(), p.start())
    out: list[Figure] = []
    done = 0
    for a in anchor.finditer(text):
        if a.start() < done:
            continue
        start = a.start()
        for _ in range(5):  # approx, bound, "entre", currency, sign
            before = starts_by_end.get(start)
            if before is None or before < done:
                break
            start = before
        m = full.match(text, start)
        while m is None or m.group("n1") is None or m.start("n1") != a.start():
            # A prefix that is not one (e.g. "a" read as a range word): retry closer.
            if start >= a.start():
                m = None
                break
            start += 1
            m = full.match(text, start)
        if m is None:
            continue
        done = m.end()
        fig = _figure_from_match(m, loc)
        if fig is not None:
            out.append(fig)
    return out


def parse_figure(text: str, locale: str, unit: str | None = None) -> Value | None:
    """Read the first figure of a short span ("2,8 trilhões", "US$ 8.00 por milhão") as a Value.

    Returns ``None`` when there is no figure or it is ambiguous (cases/C11).
    """
    figs = scan_figures(text, locale)
    return figs[0].to_value(unit) if figs else None


def _number(token: str, loc: str, warnings: list[str]) -> tuple[str | None, bool]:
    if token[0].isdigit():
        r = read_number(token, loc)
        warnings.extend(r.warnings)
        return r.text, False
    n = 1 if token.lower() == "a" else word_number(token, loc)
    return (str(n) if n is not None else None), True


def _scale(
    g: dict[str, str | None], s: str, x: str, loc: str, warnings: list[str]
) -> Decimal | None:
    word = g[s] or g[x]
    if not word:
        return None
    sc = scale_of(word, loc)
    if sc == SCALE_AMBIGUOUS:
        warnings.append(f"{word!r}: ambiguous scale word in {loc} (short or long scale?)")
        return None
    return sc


def _figure_from_match(m: re.Match[str], loc: str) -> Figure | None:
    g = m.groupdict()
    warnings: list[str] = []
    n1, is_word = _number(g["n1"], loc, warnings)
    n2 = _number(g["n2"], loc, warnings)[0] if g["n2"] else None
    s1 = _scale(g, "s1", "x1", loc, warnings)
    s2 = _scale(g, "s2", "x2", loc, warnings) if g["n2"] else None
    if any("ambiguous scale" in w for w in warnings):
        n1 = None
    cur = g["cur"] or g["cur2"]
    kind = "plain"
    if g["ord"]:
        kind = "ordinal"
    elif g["pct"]:
        kind = "percent"
    elif g["times"]:
        kind = "times"
    elif cur:
        kind = "money"
    if is_word and kind == "plain" and not (s1 or s2):
        return None  # bare number words ("um", "duas") are not figures on their own
    if g["n2"] and n2 is None:
        n1 = None
    per = g["per"] if kind == "money" else None
    end = m.end() if (per or not g["pertail"]) else m.start("pertail")
    text = _TRAILING_DE.sub("", m.string[m.start() : end].rstrip())
    is_range = g["n2"] is not None
    relation = None
    if not is_range:
        if g["lo"] or g["plus"]:
            relation = "at_least"
        elif g["hi"]:
            relation = "at_most"
    if per and per.lower() == "milhao":
        per = "milhão"
    elif per and per.lower() in ("mtok", "ktok"):
        per = per.lower()
    return Figure(
        start=m.start(),
        end=m.start() + len(text),
        text=text,
        low_text=n1,
        high_text=n2 if is_range else None,
        scale=s2 or s1 or Decimal(1),
        scaled=bool(s1 or s2),
        low_scale=s1 if s1 and s2 and s1 != s2 else None,
        approx=bool(g["approx"]),
        relation=relation,
        open_high=bool(g["plus"]) and is_range,
        negative=bool(g["neg"]),
        kind=kind,
        currency=_CURRENCY_CODES.get(cur) if cur else None,
        per=per,
        word_number=is_word,
        warnings=tuple(warnings),
    )
