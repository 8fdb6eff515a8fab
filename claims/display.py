"""How a value reads in English on the site, in the CLI and in event titles
(``2.8T params``, ``$0.60 per 1M tokens``, ``before 2026-11-04``, ``−36.3% to −29.7%``).
Localized text (pt, en) for round trips is :mod:`claims.formatting`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claims.values import Value

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


def _short(x: Decimal, unit: str | None) -> str:
    if x < 0:
        return MINUS + _short(-x, unit)
    if unit == "tokens" and x >= 1024 and x % 1000 != 0:
        # Context windows are powers of two: 256K = 262,144; 1M = 1,048,576.
        for size, suffix in ((1 << 20, "M"), (1 << 10, "K")):
            if x % size == 0:
                return f"{int(x) // size}{suffix} ({int(x):,})"
    if unit in ("params", "tokens"):
        for size, suffix in _SUFFIXES:
            if abs(x) >= size:
                q = (x / size).normalize()
                if -q.as_tuple().exponent > 2:  # type: ignore[operator]
                    return f"≈{q:.2f}{suffix} ({x:,f})"  # a measured count: readable and exact
                return f"{q:f}{suffix}"
    if unit == "usd_per_mtok":
        return f"${x:.2f}" if x == x.quantize(Decimal("0.01")) else f"${x.normalize():f}"
    if unit == "rank":
        return f"#{x:f}"
    if x == x.to_integral_value():
        return f"{int(x):,}"
    return f"{x.normalize():f}"


def format_value(v: Value) -> str:
    """Human text for a value; stable, used in the site and the CLI."""
    unit = _UNIT_LABEL.get(v.unit or "", v.unit or "")
    sep = "" if unit in ("%", "") else " "
    if v.kind == "quantity":
        assert isinstance(v.value, Decimal)
        core = _short(v.value, v.unit)
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
