"""Is a value physically possible for its attribute? (issue 20: no alert from garbage)

The ranges are data, :data:`claims.vocabulary.PHYSICAL_RANGES`; this module only applies
them. Pure: the cycle calls it on every adapter value, claim imports on every claim.
"""

from __future__ import annotations

from decimal import Decimal

from claims.values.value import Value
from claims.vocabulary import PHYSICAL_RANGES


def _bounds(attribute: str, unit: str | None) -> tuple[Decimal, Decimal, bool] | None:
    found = PHYSICAL_RANGES.get((attribute, unit or "*")) or PHYSICAL_RANGES.get((attribute, "*"))
    if found is None:
        return None
    low, high, low_inclusive = found
    return Decimal(low), Decimal(high), low_inclusive


def range_problem(attribute: str, value: Value) -> str | None:
    """Why ``value`` cannot be a figure of ``attribute`` (one line), or None when it can.

    Every number the value holds (``value``, ``low``, ``high``) must be finite (no NaN,
    no infinity, whatever the attribute) and, for an attribute with a range in
    :data:`~claims.vocabulary.PHYSICAL_RANGES`, inside it: e.g. ``total_params`` -5 ->
    ``"total_params -5 is outside its physical range (above 0, at most 1E+15)"``.
    Non-numeric kinds (text, date, boolean) have no range: None.
    """
    if value.kind not in ("quantity", "range"):
        return None
    numbers = [n for n in (value.value, value.low, value.high) if isinstance(n, Decimal)]
    for n in numbers:
        if not n.is_finite():
            return f"{attribute} {n} is not a finite number"
    bounds = _bounds(attribute, value.unit)
    if bounds is None:
        return None
    low, high, low_inclusive = bounds
    for n in numbers:
        below = n < low or (n == low and not low_inclusive)
        if below or n > high:
            lowest = f"at least {low}" if low_inclusive else f"above {low}"
            return f"{attribute} {n:g} is outside its physical range ({lowest}, at most {high:f})"
    return None
