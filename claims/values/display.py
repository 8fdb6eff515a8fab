"""How a value reads in English on the site, in the CLI and in event titles
(``2.8T params``, ``$0.60 per 1M tokens``, ``before 2026-11-04``, ``−36.3% to −29.7%``).
Localized text (pt, en) for round trips is :mod:`claims.values.formatting`.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Protocol


class ValueLike(Protocol):
    """What display reads of a :class:`claims.values.value.Value` (described here, not
    imported: value.py imports this module for :meth:`Value.display`)."""

    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> Decimal | str | bool | None: ...
    @property
    def unit(self) -> str | None: ...
    @property
    def low(self) -> Decimal | None: ...
    @property
    def high(self) -> Decimal | None: ...
    @property
    def approx(self) -> bool: ...
    @property
    def relation(self) -> str | None: ...
    @property
    def open_high(self) -> bool: ...
    @property
    def precision(self) -> str | None: ...
    def as_date(self) -> dt.date: ...
    def display(self) -> str: ...


_SUFFIXES = (
    (Decimal(10) ** 12, "T"),
    (Decimal(10) ** 9, "B"),
    (Decimal(10) ** 6, "M"),
    (Decimal(10) ** 3, "K"),
)
_UNIT_LABEL = {
    "params": "params",
    "tokens": "tokens",
    "usd_per_mtok": "USD/1M tok",
    "percent": "%",
    "points": "points",
    "tokens_per_second": "tokens/s",
    "wafers": "wafers",
    "bits": "bits",
    "rank": "",
}


# People read a hyphen before a number as a dash ("-36.3–-29.7%"): a real minus sign.
MINUS = "\u2212"


def _short(x: Decimal, unit: str | None, exact: bool = False) -> str:
    if x < 0:
        return MINUS + _short(-x, unit, exact)
    if unit == "tokens" and x >= 1024 and x % 1000 != 0:
        # Context windows are powers of two: 256K = 262,144; 1M = 1,048,576.
        for pow2, suffix in ((1 << 20, "M"), (1 << 10, "K")):
            if x % pow2 == 0:
                return f"{int(x) // pow2}{suffix} ({int(x):,})"
    if unit in ("params", "tokens"):
        for size, suffix in _SUFFIXES:
            if abs(x) >= size:
                q = (x / size).normalize()
                if -q.as_tuple().exponent > 2:  # type: ignore[operator]
                    # Readable and exact. "≈" only on a figure that is itself inexact:
                    # readers took "≈1.03T (1,026,880,447,728)" for an estimate.
                    mark = "" if exact else "≈"
                    return f"{mark}{q:.2f}{suffix} ({x:,f})"
                return f"{q:f}{suffix}"
    if unit == "usd_per_mtok":
        return f"${x:.2f}" if x == x.quantize(Decimal("0.01")) else f"${x.normalize():f}"
    if unit == "rank":
        return f"#{x:f}"
    if x == x.to_integral_value():
        return f"{int(x):,}"
    return f"{x.normalize():f}"


def _exact(v: ValueLike) -> bool:
    """A quantity with no width: read from an API (``quantity(..., exact=True)``) or
    computed from such figures (a gap), not stated to a precision."""
    if v.approx:
        return False
    low = v.low if v.low is not None else v.value
    high = v.high if v.high is not None else v.value
    return low == high == v.value


def _stated_decimals(v: ValueLike) -> tuple[int, Decimal] | None:
    """(decimals, scale) of a figure stated to a step below 1 in the unit it was written
    in ("65.0%": 1 and 1; "2.80T": 2 and 10^12): the scale is recovered from its interval,
    one step wide (:func:`claims.values.value.quantity`). None for an exact, an "about"
    (its interval is wider) or a whole-number figure."""
    if v.approx or v.precision is None or v.low is None or v.high is None or v.low >= v.high:
        return None
    try:
        step = Decimal(v.precision)
    except ArithmeticError:
        return None
    if not 0 < step < 1:
        return None
    return -int(step.normalize().as_tuple().exponent), (v.high - v.low) / step


def _with_stated_decimals(core: str, v: ValueLike) -> str:
    """``core`` (:func:`_short`'s text) with the decimals the figure was written with, when
    it dropped some: "65.0%" stored as 65 with precision 0.1 reads 65.0, not 65; "2.80T"
    reads 2.80T. Any other text (an exact count, a suffix other than the stated scale)
    is left as it is."""
    stated = _stated_decimals(v)
    if stated is None or not isinstance(v.value, Decimal):
        return core
    decimals, scale = stated
    x = abs(v.value) / scale
    if -int(x.normalize().as_tuple().exponent) >= decimals:
        return core  # nothing lost
    sign = MINUS if v.value < 0 else ""
    if v.unit in ("params", "tokens"):
        suffix = next((s for size, s in _SUFFIXES if size == scale), None)
        if suffix is None or core != f"{sign}{x.normalize():f}{suffix}":
            return core
        return f"{sign}{x:.{decimals}f}{suffix}"
    if scale != 1 or v.unit == "rank":
        return core
    if v.unit == "usd_per_mtok":
        return f"{sign}${x:.{max(decimals, 2)}f}"
    return f"{sign}{x:,.{decimals}f}"


def format_value(v: ValueLike) -> str:
    """Human text for a value; stable, used in the site and the CLI. A long exact count
    reads ``1.03T (1,026,880,447,728)``; a stated figure shortened in the same way keeps
    its ``≈``; a figure keeps the decimals it was stated with ("65.0%", not "65%")."""
    unit = _UNIT_LABEL.get(v.unit or "", v.unit or "")
    sep = "" if unit in ("%", "") else " "
    if v.kind == "quantity":
        assert isinstance(v.value, Decimal)
        core = _with_stated_decimals(_short(v.value, v.unit, _exact(v)), v)
        prefix = "about " if v.approx else ""
        if v.relation == "at_least":
            prefix += "at least "
        elif v.relation == "at_most":
            prefix += "at most "
        if v.unit == "usd_per_mtok":
            return f"{prefix}{core} per 1M tokens"
        return f"{prefix}{core}{sep}{unit}".strip()
    if v.kind == "range":
        assert v.low is not None and v.high is not None
        top = _short(v.high, v.unit) + ("+" if v.open_high else "")
        if v.low < 0:  # "−36% to −30%": a dash between two minus signs reads badly
            return f"{_short(v.low, v.unit)}{sep}{unit} to {top}{sep}{unit}".strip()
        return f"{_short(v.low, v.unit)}–{top}{sep}{unit}".strip()
    if v.kind == "date":
        return f"{v.relation} {v.value}"
    if v.kind == "boolean":
        return "yes" if v.value else "no"
    return str(v.value)


def _date_words(day: dt.date, precision: str | None) -> str:
    if precision == "year":
        return str(day.year)
    from babel.dates import get_month_names  # CLDR names, as claims.values.formatting uses

    month = get_month_names("wide", locale="en")[day.month]
    return f"{month} {day.year}" if precision == "month" else f"{day.day} {month} {day.year}"


def _next_unit(day: dt.date, precision: str | None) -> dt.date:
    """The first day after the day, month or year that ``day`` starts."""
    if precision == "year":
        return dt.date(day.year + 1, 1, 1)
    if precision == "month":
        return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return day + dt.timedelta(days=1)


def date_meaning(v: ValueLike) -> str:
    """A date value in words, as :func:`claims.verify.compare.date_window` reads it:
    ``on 2027-03`` -> ``in March 2027``, ``on 2027-03-05`` -> ``on 5 March 2027``,
    ``before 2027-03-05`` -> ``before 5 March 2027``, ``by 2027-03`` -> ``by the end of
    March 2027``, and ``after D`` -> not before the next day, month or year (``after
    2027-02`` -> ``not before March 2027``: "won't ship until March 2027" is stored so,
    and :mod:`claims.verify.promises` sets it no deadline). Raises
    :class:`claims.values.value.ValueError_` for a value that is not a date."""
    day, precision = v.as_date(), v.precision
    if v.relation == "after":
        return f"not before {_date_words(_next_unit(day, precision), precision)}"
    words = _date_words(day, precision)
    if v.relation == "before":
        return f"before {words}"
    if v.relation == "by":
        return f"by the end of {words}" if precision in ("month", "year") else f"by {words}"
    return f"in {words}" if precision in ("month", "year") else f"on {words}"


def candidate_value_text(v: ValueLike) -> str:
    """A candidate's value as ``tracker claims extract`` shows it beside the quoted text:
    :meth:`Value.display`, except that an ``after`` date leads with its meaning in words,
    ``not before March 2027 (stored: after 2027-02)``: the stored month before the quoted
    one read as a contradiction of the quote."""
    if v.kind == "date" and v.relation == "after":
        return f"{date_meaning(v)} (stored: {v.display()})"
    return v.display()
