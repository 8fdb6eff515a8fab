"""Locale-aware reading of written numbers: separators (CLDR via babel), scale words, number words.

Input: one numeric token as written ("2,8", "1.000.000", "1 048 576", "8.00") and a
locale tag (``pt-BR``, ``pt-PT``, ``en``...). Output: a :class:`NumberReading` with an
exact Decimal in ``.``-decimal text, or no number plus a warning when it is ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

# Space-like grouping characters: NBSP, NNBSP (CLDR fr/pt-PT), thin space, ordinary space.
SPACE_GROUPS = "\u00a0\u202f\u2009 "

# A numeric token: grouped digits (any separator) or plain digits with an optional fraction.
NUMBER_TOKEN = (
    r"\d{1,3}(?:[.,\u00a0\u202f\u2009 ]\d{3})+(?:[.,]\d+)?"
    r"|\d+(?:[.,]\d+)?"
)
_TOKEN_RE = re.compile(rf"^(?:{NUMBER_TOKEN})$")

SCALE_AMBIGUOUS = Decimal(-1)


# What a number read from a third party may be (issue 20): a 5,000-digit figure or
# "1e999999999" is garbage, and arithmetic on it overflows or takes forever.
MAX_DIGITS = 40
MAX_EXPONENT = 40


def bounded_decimal(raw: object) -> Decimal | None:
    """``raw`` (a str, int or Decimal; never bool) as a Decimal when it is a finite number
    of at most :data:`MAX_DIGITS` digits within 10^±:data:`MAX_EXPONENT`, else None
    (NaN, infinity, ``"1e999999999"``, a 5,000-digit string, text)."""
    if raw is None or isinstance(raw, bool):
        return None
    text = str(raw).strip()
    if len(text) > MAX_DIGITS + 12:  # sign, point, exponent: longer is too many digits
        return None
    try:
        d = Decimal(text)
    except (ArithmeticError, ValueError):
        return None
    if not d.is_finite() or len(d.as_tuple().digits) > MAX_DIGITS:
        return None
    if d and abs(d.adjusted()) > MAX_EXPONENT:
        return None
    return d


@dataclass(frozen=True)
class NumberReading:
    """A numeric token read in a locale.

    ``text`` is the number de-localized (``.`` decimal, no grouping), keeping trailing
    zeros so the stated precision survives ("2.00"); ``None`` when ambiguous.
    ``warnings`` explain nonstandard separators or why nothing was read.
    """

    text: str | None
    warnings: tuple[str, ...] = ()

    @property
    def value(self) -> Decimal | None:
        """The number as an exact Decimal, ``None`` when ambiguous."""
        return Decimal(self.text) if self.text is not None else None


def normalize_locale(tag: str | None) -> str:
    """``pt_br``/``pt-BR``/``pt`` -> ``pt-BR``; ``pt-pt`` -> ``pt-PT``; others kept; default ``en``.

    Bare ``pt`` means Brazilian Portuguese, the larger written variety (and the seeds').
    """
    if not tag:
        return "en"
    t = tag.replace("_", "-").strip()
    parts = t.split("-")
    lang = parts[0].lower()
    region = parts[1].upper() if len(parts) > 1 else ""
    if lang == "pt":
        return "pt-PT" if region == "PT" else "pt-BR"
    return f"{lang}-{region}" if region else lang


@lru_cache(maxsize=32)
def separators(locale: str) -> tuple[str, str]:
    """(decimal symbol, group symbol) of a locale from CLDR via babel.

    ``pt-BR`` -> (",", "."), ``pt-PT`` -> (",", NBSP), ``en`` -> (".", ",").
    Raises :class:`ValueError` for a locale babel does not know.
    """
    tag = normalize_locale(locale).replace("-", "_")
    try:
        loc = Locale.parse(tag)
    except (UnknownLocaleError, ValueError) as exc:
        raise ValueError(f"unknown locale {locale!r}") from exc
    return get_decimal_symbol(loc), get_group_symbol(loc)


@lru_cache(maxsize=4096)
def read_number(token: str, locale: str) -> NumberReading:
    """Read one numeric token in ``locale``; never guesses across a 100x/1000x ambiguity.

    Rules (CLDR separators via :func:`separators`, plus cases/C11):

    - the locale's own decimal/group symbols are read as such ("1.250,50" pt-BR = 1250.50);
    - a separator followed by other than exactly three digits cannot be grouping, so it
      is a decimal point even when it is not the locale's ("US$ 8.00" in pt = 8.00,
      flagged ``nonstandard decimal separator``);
    - several identical separators can only be grouping ("1.000.000" in en, flagged);
    - space-like grouping (NBSP, NNBSP, thin, space) is read in any locale whose CLDR group
      symbol is space-like, and NBSP/NNBSP/thin everywhere;
    - a single separator followed by exactly three digits that is not the locale's group
      symbol ("1,000" in pt, "1.000" in en) is ambiguous (1 or 1000?): no number, a
      warning; "0,125"/"0.125" is a decimal (no group starts with 0).

    Raises :class:`ValueError` if ``token`` is not a numeric token at all.
    """
    tok = token.strip()
    if not _TOKEN_RE.match(tok):
        raise ValueError(f"not a numeric token: {token!r}")
    dec, group = separators(locale)
    spacey_locale = group in SPACE_GROUPS or group.isspace()
    warnings: list[str] = []
    # Space-like grouping first.
    for ch in SPACE_GROUPS:
        if ch in tok:
            if ch == " " and not spacey_locale:
                return NumberReading(None, (f"{token!r}: space grouping is not used in {locale}",))
            tok = tok.replace(ch, "")
    seps = [c for c in tok if c in ".,"]
    if not seps:
        return NumberReading(_clean(tok), ())
    kinds = set(seps)
    if len(kinds) == 2:
        # Both present: the last one is the decimal separator.
        last = max(tok.rfind("."), tok.rfind(","))
        decimal_char = tok[last]
        group_char = "," if decimal_char == "." else "."
        if tok.count(decimal_char) > 1:
            return NumberReading(None, (f"{token!r}: cannot tell grouping from decimals",))
        if decimal_char != dec:
            warnings.append(f"{token!r}: nonstandard separators for {locale}")
        return NumberReading(
            _clean(tok.replace(group_char, "").replace(decimal_char, ".")), tuple(warnings)
        )
    sep = seps[0]
    parts = tok.split(sep)
    if len(parts) > 2:
        # Repeated separator: grouping only (the regex ensured 3-digit groups).
        if sep != group:
            warnings.append(f"{token!r}: nonstandard grouping separator for {locale}")
        return NumberReading(_clean(tok.replace(sep, "")), tuple(warnings))
    frac = parts[1]
    if len(frac) != 3:
        if sep != dec:
            warnings.append(f"{token!r}: nonstandard decimal separator for {locale}")
        return NumberReading(_clean(tok.replace(sep, ".")), tuple(warnings))
    # Exactly three digits after a single separator: grouping when it is the locale's
    # group symbol; a decimal only when the integer part is 0 (no group starts with 0).
    if parts[0] == "0":
        if sep != dec:
            warnings.append(f"{token!r}: nonstandard decimal separator for {locale}")
        return NumberReading(_clean(tok.replace(sep, ".")), tuple(warnings))
    if sep == group:
        return NumberReading(_clean(tok.replace(sep, "")), ())
    return NumberReading(None, (f"{token!r}: ambiguous in {locale} (thousands or decimals?)",))


def _clean(text: str) -> str:
    """Strip leading zeros of the integer part, keep the fraction as written."""
    if "." in text:
        whole, frac = text.split(".", 1)
        return f"{int(whole)}.{frac}"
    return str(int(text))


# -- scale words ---------------------------------------------------------------

_E3, _E6, _E9, _E12, _E18 = (Decimal(10) ** n for n in (3, 6, 9, 12, 18))

# Suffixes used in every locale (SI-like, as in "2.8T", "104B", "1M", "200K").
SUFFIX_SCALES: dict[str, Decimal] = {"k": _E3, "K": _E3, "M": _E6, "B": _E9, "T": _E12}

# Scale words keyed by locale, not language: Brazil uses the short scale, Portugal the
# long scale ("mil milhões" = 10^9, "bilião" = 10^12). Brazilian spellings (bilhão,
# trilhão, bi, tri) in a pt-PT text are ambiguous (10^9 or 10^12?) and yield no number.
SCALE_WORDS: dict[str, dict[str, Decimal]] = {
    "pt-BR": {
        "mil": _E3,
        "milhão": _E6,
        "milhões": _E6,
        "milhao": _E6,
        "milhoes": _E6,
        "mi": _E6,
        "bilhão": _E9,
        "bilhões": _E9,
        "bilhao": _E9,
        "bilhoes": _E9,
        "bi": _E9,
        "trilhão": _E12,
        "trilhões": _E12,
        "trilhao": _E12,
        "trilhoes": _E12,
        "tri": _E12,
        "bilião": _E9,
        "biliões": _E9,
    },
    "pt-PT": {
        "mil": _E3,
        "milhão": _E6,
        "milhões": _E6,
        "mil milhões": _E9,
        "mil milhão": _E9,
        "bilião": _E12,
        "biliões": _E12,
        "trilião": _E18,
        "triliões": _E18,
        "bilhão": SCALE_AMBIGUOUS,
        "bilhões": SCALE_AMBIGUOUS,
        "bi": SCALE_AMBIGUOUS,
        "trilhão": SCALE_AMBIGUOUS,
        "trilhões": SCALE_AMBIGUOUS,
        "tri": SCALE_AMBIGUOUS,
    },
    "en": {
        "thousand": _E3,
        "million": _E6,
        "millions": _E6,
        "mn": _E6,
        "mln": _E6,
        "billion": _E9,
        "billions": _E9,
        "bn": _E9,
        "trillion": _E12,
        "trillions": _E12,
    },
}

# Longest first so "mil milhões" wins over "mil".
SCALE_WORD_PATTERN = "|".join(
    sorted({re.escape(w) for table in SCALE_WORDS.values() for w in table}, key=len, reverse=True)
)


def scale_of(word: str, locale: str) -> Decimal | None:
    """Multiplier of a scale word or suffix in ``locale``.

    Returns ``None`` for an unknown word and :data:`SCALE_AMBIGUOUS` for a word whose
    meaning in that locale is not settled (e.g. "bilhões" in pt-PT).
    """
    if word in SUFFIX_SCALES:
        return SUFFIX_SCALES[word]
    w = " ".join(word.lower().split())
    loc = normalize_locale(locale)
    table = SCALE_WORDS.get(loc) or SCALE_WORDS.get(loc.split("-")[0]) or SCALE_WORDS["en"]
    return table.get(w)


# -- number words --------------------------------------------------------------

# Multiplicative words text2num does not cover.
FACTOR_WORDS: dict[str, Decimal] = {
    "dobro": Decimal(2),
    "triplo": Decimal(3),
    "metade": Decimal("0.5"),
    "twice": Decimal(2),
    "double": Decimal(2),
    "triple": Decimal(3),
    "half": Decimal("0.5"),
}

ORDINAL_WORDS: dict[str, int] = {
    "primeiro": 1,
    "segundo": 2,
    "terceiro": 3,
    "quarto": 4,
    "quinto": 5,
    "sexto": 6,
    "sétimo": 7,
    "oitavo": 8,
    "nono": 9,
    "décimo": 10,
    "primeira": 1,
    "segunda": 2,
    "terceira": 3,
    "quarta": 4,
    "quinta": 5,
    "sexta": 6,
    "sétima": 7,
    "oitava": 8,
    "nona": 9,
    "décima": 10,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}

NUMBER_WORDS_PT = (
    "um|uma|dois|duas|três|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|quinze|vinte|trinta"
)
NUMBER_WORDS_EN = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
)


@lru_cache(maxsize=256)
def word_number(word: str, lang: str) -> int | None:
    """Cardinal number word to int with text2num ("duas" pt -> 2, "two" en -> 2), else ``None``."""
    from text_to_num import text2num

    try:
        return int(text2num(word.lower(), lang.split("-")[0]))
    except ValueError:
        return None
