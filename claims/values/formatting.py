"""Values back to text in a locale ("2,8 trilhões", "cerca de 3T", "US$ 2,00 por milhão de
tokens", "antes de 4 de novembro de 2026"): the inverse of :mod:`claims.extract.figures` and
:mod:`claims.extract.dates`, used for display and for the round-trip property tests.
"""

from __future__ import annotations

from decimal import Decimal

from babel.dates import get_month_names
from babel.numbers import format_decimal

from claims.values.numbers import normalize_locale
from claims.values.value import Value, parse_iso_date, quantity

_SCALE_WORDS: dict[str, dict[int, str]] = {
    "pt-BR": {3: "mil", 6: "milhões", 9: "bilhões", 12: "trilhões"},
    "pt-PT": {3: "mil", 6: "milhões", 9: "mil milhões", 12: "biliões"},
    "en": {3: "thousand", 6: "million", 9: "billion", 12: "trillion"},
}
_WORDS = {
    "pt": {
        "approx": "cerca de",
        "at_least": "pelo menos",
        "at_most": "até",
        "range": "a",
        "times": "vezes",
        "before": "antes de",
        "by": "até",
        "after": "após",
        "on": "em",
    },
    "en": {
        "approx": "about",
        "at_least": "at least",
        "at_most": "up to",
        "range": "to",
        "times": "times",
        "before": "before",
        "by": "by",
        "after": "after",
        "on": "on",
    },
}


def format_number(d: Decimal, locale: str, decimals: int | None = None) -> str:
    """``d`` with the locale's CLDR separators (babel), with exactly ``decimals`` places
    (default: as many as ``d`` has)."""
    if decimals is None:
        decimals = max(0, -int(d.normalize().as_tuple().exponent))  # type: ignore[arg-type]
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    loc = normalize_locale(locale).replace("-", "_")
    return format_decimal(d, format=pattern, locale=loc, decimal_quantization=True)


def format_figure(v: Value, locale: str) -> str:
    """Text for a quantity, range or date value in ``locale`` that
    :func:`claims.extract.figures.parse_figure` / :func:`claims.extract.dates.parse_date` read back to ``v``.

    Quantities keep their stated precision ("2,80" stays two places) and pick the scale
    word that reproduces the value's interval. Raises :class:`ValueError` for text and
    boolean values, which have no figure form.
    """
    loc = normalize_locale(locale)
    lang = "pt" if loc.startswith("pt") else "en"
    w = _WORDS[lang]
    if v.kind == "date":
        return f"{w[v.relation or 'on']} {_format_date(v, lang)}"
    if v.kind == "range":
        assert v.low is not None and v.high is not None
        text = f"{format_number(v.low, loc)} {w['range']} {format_number(v.high, loc)}"
        text += "+" if v.open_high else ""
        return _with_unit((f"{w['approx']} " if v.approx else "") + text, v.unit, lang)
    if v.kind != "quantity":
        raise ValueError(f"value.kind: {v.kind} has no figure form")
    assert isinstance(v.value, Decimal)
    words = _SCALE_WORDS.get(loc, _SCALE_WORDS["en"])
    for exp in (12, 9, 6, 3, 0):
        scale = Decimal(10) ** exp
        step = Decimal(v.precision or "1")
        decimals = max(0, -int(step.as_tuple().exponent))  # type: ignore[arg-type]
        number = (v.value / scale).quantize(step) if decimals else (v.value / scale)
        if number != v.value / scale:
            continue
        again = quantity(
            f"{number:f}", v.unit or "count", scale=scale, approx=v.approx, relation=v.relation
        )
        if again != v:
            continue
        text = format_number(number, loc, decimals)
        if exp:
            text += " " + words[exp]
        prefix = ""
        if v.approx:
            prefix += w["approx"] + " "
        if v.relation in ("at_least", "at_most"):
            prefix += w[v.relation] + " "
        return _with_unit(prefix + text, v.unit, lang)
    raise ValueError(f"value: no stated form reproduces {v!r}")


def _with_unit(text: str, unit: str | None, lang: str) -> str:
    if unit == "percent":
        return text + "%"
    if unit == "times":
        return f"{text} {_WORDS[lang]['times']}"
    if unit == "usd_per_mtok":
        return f"US$ {text} por milhão de tokens" if lang == "pt" else f"${text} per 1M tokens"
    return text


def _format_date(v: Value, lang: str) -> str:
    d = parse_iso_date(str(v.value))
    month = get_month_names("wide", locale=lang)[d.month]
    if lang == "pt":
        month = month.lower()
        return (
            f"{month} de {d.year}" if v.precision == "month" else f"{d.day} de {month} de {d.year}"
        )
    return f"{month} {d.year}" if v.precision == "month" else f"{month} {d.day}, {d.year}"
