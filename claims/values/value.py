"""Normalized claim and observation values, with the interval their precision implies.

A :class:`Value` is what a claim states or an observation reads: a quantity, a
range, a date with a relation, a text or a boolean. Comparison works on intervals
(``low``/``high``), never on the bare number, so "2.8T" (2.75T-2.85T) and
"about 3T" can be told apart from a real conflict. Rules: DESIGN.md "Precision".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from claims.errors import ClaimsError
from claims.values.display import format_value

ValueKind = Literal["quantity", "range", "date", "text", "boolean"]
VALUE_KINDS: tuple[str, ...] = ("quantity", "range", "date", "text", "boolean")
DATE_RELATIONS: tuple[str, ...] = ("on", "before", "by", "after")
BOUND_RELATIONS: tuple[str, ...] = ("at_least", "at_most")

# "about X" widens the stated half-step to a whole step, and to at least 10 %.
APPROX_MIN_FRACTION = Decimal("0.10")


class ValueError_(ClaimsError, ValueError):
    """A value dict or stated figure that cannot be read; the message names the field."""


@dataclass(frozen=True)
class Value:
    """One normalized value.

    Shapes by ``kind``:

    - ``quantity``: ``value`` is a :class:`~decimal.Decimal` in ``unit`` (e.g. ``params``,
      ``tokens``, ``usd_per_mtok``, ``percent``, ``points``, ``tokens_per_second``,
      ``wafers``, ``bits``, ``rank``); ``low``/``high`` bound what the stated precision
      allows; ``approx`` marks "about"; ``relation`` is ``at_least``/``at_most`` for bounds.
    - ``range``: ``low``/``high`` are the stated ends; ``open_high`` marks "2,000+".
    - ``date``: ``value`` is an ISO date (``YYYY-MM-DD``, or ``YYYY-MM`` with
      ``precision="month"``); ``relation`` is one of ``on``, ``before``, ``by``, ``after``.
    - ``text``: ``value`` is a string (licence ids are lower-case Hub/SPDX ids).
    - ``boolean``: ``value`` is ``True`` or ``False``.

    ``precision`` is the stated step for numbers (``"0.1"`` for "2,8") or
    ``day``/``month``/``year`` for dates.
    """

    kind: ValueKind
    value: Decimal | str | bool | None = None
    unit: str | None = None
    low: Decimal | None = None
    high: Decimal | None = None
    approx: bool = False
    relation: str | None = None
    open_high: bool = False
    precision: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in VALUE_KINDS:
            raise ValueError_(
                f"value.kind: unknown kind {self.kind!r}; expected one of {VALUE_KINDS}"
            )
        if self.kind == "date":
            if self.relation not in DATE_RELATIONS:
                raise ValueError_(
                    f"value.relation: date needs one of {DATE_RELATIONS}, got {self.relation!r}"
                )
            if not isinstance(self.value, str):
                raise ValueError_("value.value: a date value must be an ISO date string")
            parse_iso_date(self.value)
        if self.kind == "quantity" and not isinstance(self.value, Decimal):
            raise ValueError_("value.value: a quantity must be a Decimal")
        if self.kind == "range" and (self.low is None or self.high is None):
            raise ValueError_("value.low/high: a range needs both ends")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError_(f"value.low/high: low {self.low} is above high {self.high}")

    # -- intervals ------------------------------------------------------------

    def interval(self) -> tuple[Decimal | None, Decimal | None]:
        """(low, high) the value allows, ``None`` for an open end; numbers only."""
        if self.kind == "quantity":
            if self.relation == "at_least":
                return (self.low if self.low is not None else self.value, None)  # type: ignore[return-value]
            if self.relation == "at_most":
                return (None, self.high if self.high is not None else self.value)  # type: ignore[return-value]
            low = self.low if self.low is not None else self.value
            high = self.high if self.high is not None else self.value
            return (low, high)  # type: ignore[return-value]
        if self.kind == "range":
            return (self.low, None if self.open_high else self.high)
        raise ValueError_(f"value.kind: {self.kind} has no numeric interval")

    def readings(self) -> tuple[tuple[Decimal | None, Decimal | None], ...]:
        """Every (low, high) the value may mean; the first is :meth:`interval`.

        A token count stated with a decimal scale (``128K``, ``1M``, "128 mil",
        "1 million") is also read with the binary scale, 2^10 per K and 2^20 per M,
        at the same stated precision: "128K" is 127,500-128,500 *or* 130,560-131,584
        (131,072 = 2^17), and nothing between. Context windows are stated loosely both
        ways (OpenAI's 128,000; most configs' 131,072). See :func:`binary_reading`.
        """
        alt = binary_reading(self)
        if alt is None:
            return (self.interval(),)
        return (self.interval(), alt.interval())

    @property
    def numeric(self) -> bool:
        return self.kind in ("quantity", "range")

    def as_date(self) -> dt.date:
        """The first day a ``date`` value can mean (month precision: the 1st)."""
        if self.kind != "date":
            raise ValueError_("value.kind: not a date")
        return parse_iso_date(str(self.value))

    # -- serialization --------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; Decimals become int when integral, else float (shortest repr)."""
        out: dict[str, Any] = {"kind": self.kind}
        out["value"] = _num_out(self.value) if isinstance(self.value, Decimal) else self.value
        out["unit"] = self.unit
        out["low"] = _num_out(self.low)
        out["high"] = _num_out(self.high)
        out["approx"] = self.approx
        out["relation"] = self.relation
        if self.kind == "range" or self.open_high:
            out["open_high"] = self.open_high
        if self.precision is not None:
            out["precision"] = self.precision
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Value:
        """Inverse of :meth:`to_dict`. Raises :class:`ValueError_` naming the bad field."""
        if not isinstance(data, dict):
            raise ValueError_("value: expected a table/object")
        kind = data.get("kind")
        raw = data.get("value")
        if kind in ("quantity",):
            raw = _num_in(raw, "value")
        try:
            return cls(
                kind=kind,  # type: ignore[arg-type]
                value=raw,
                unit=data.get("unit"),
                low=_num_in(data.get("low"), "low"),
                high=_num_in(data.get("high"), "high"),
                approx=bool(data.get("approx", False)),
                relation=data.get("relation"),
                open_high=bool(data.get("open_high", False)),
                precision=data.get("precision"),
                extra=dict(data.get("extra") or {}),
            )
        except TypeError as exc:  # pragma: no cover - defensive
            raise ValueError_(f"value: {exc}") from exc

    def key(self) -> str:
        """Stable text identity of what the value says (used for observation dedup);
        computed once per (immutable) value: recording asks for it several times."""
        cached: str | None = self.__dict__.get("_key")
        if cached is None:
            d = self.to_dict()
            d.pop("extra", None)
            cached = repr(sorted(d.items()))
            object.__setattr__(self, "_key", cached)  # frozen: a memo, not a field
        return cached

    def display(self) -> str:
        """Short human text, e.g. ``2.8T params``, ``before 2026-11-04``, ``1,000-2,000+``."""
        return format_value(self)


def _num_out(x: Decimal | None) -> int | float | None:
    if x is None:
        return None
    if x == x.to_integral_value():
        return int(x)
    return float(x)


def _num_in(x: Any, name: str) -> Decimal | None:
    """A stored or imported number; NaN and infinities are refused (issue 20: a NaN
    claim broke every later verify and build)."""
    if x is None:
        return None
    if isinstance(x, bool):
        raise ValueError_(f"value.{name}: expected a number, got a boolean")
    if isinstance(x, (int, Decimal)):
        d = Decimal(x)
    elif isinstance(x, float):
        d = Decimal(repr(x))
    elif isinstance(x, str):
        try:
            d = Decimal(x)
        except Exception as exc:
            raise ValueError_(f"value.{name}: {x!r} is not a number") from exc
    else:
        raise ValueError_(f"value.{name}: expected a number, got {type(x).__name__}")
    if not d.is_finite():
        raise ValueError_(f"value.{name}: {x!r} is not a finite number")
    return d


def parse_iso_date(text: str) -> dt.date:
    """``YYYY-MM-DD`` or ``YYYY-MM`` (first of month) to a date; raises :class:`ValueError_`."""
    try:
        if len(text) == 7:
            return dt.date.fromisoformat(text + "-01")
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        raise ValueError_(f"value.value: {text!r} is not an ISO date") from exc


# -- constructors --------------------------------------------------------------


def stated_step(number_text: str) -> Decimal:
    """The precision step of a figure as written: ``"2.8"`` -> 0.1, ``"104"`` -> 1, ``"2.00"`` -> 0.01.

    ``number_text`` uses ``.`` as decimal separator (already de-localized).
    """
    d = Decimal(number_text)
    exp = d.as_tuple().exponent
    return Decimal(1).scaleb(min(int(exp), 0))  # type: ignore[arg-type]


def quantity(
    number_text: str | Decimal,
    unit: str,
    *,
    scale: Decimal | int = 1,
    approx: bool = False,
    relation: str | None = None,
    exact: bool = False,
    step: Decimal | None = None,
) -> Value:
    """A quantity as stated: ``quantity("2.8", "params", scale=10**12)`` is 2.75T-2.85T.

    The interval is value +/- half the stated step (times ``scale``); ``approx`` widens
    it to +/- max(one step, 10 %). ``exact=True`` (prices, counts read from an API)
    gives a zero-width interval. ``relation`` may be ``at_least``/``at_most``.
    """
    text = str(number_text)
    base = Decimal(text)
    scale_d = Decimal(scale)
    v = base * scale_d
    if exact:
        low = high = v
        precision = None
    else:
        s = (step if step is not None else stated_step(text)) * scale_d
        half = s / 2
        if approx:
            half = max(s, abs(v) * APPROX_MIN_FRACTION)
        low, high = v - half, v + half
        precision = str(step if step is not None else stated_step(text))
    return Value(
        kind="quantity",
        value=normalize_decimal(v),
        unit=unit,
        low=normalize_decimal(low),
        high=normalize_decimal(high),
        approx=approx,
        relation=relation,
        precision=precision,
    )


def value_range(
    low: Decimal | int | str,
    high: Decimal | int | str,
    unit: str,
    *,
    open_high: bool = False,
    approx: bool = False,
) -> Value:
    """A stated range such as "1.000 a 2.000+" (``open_high=True``)."""
    return Value(
        kind="range",
        value=None,
        unit=unit,
        low=normalize_decimal(Decimal(low)),
        high=normalize_decimal(Decimal(high)),
        open_high=open_high,
        approx=approx,
    )


def date_value(iso: str, relation: str = "on", *, precision: str = "day") -> Value:
    """A date with its relation: ``date_value("2026-11-04", "before")``."""
    return Value(kind="date", value=iso, relation=relation, precision=precision)


def text_value(text: str) -> Value:
    """A text value (a licence id, a name), compared by equality."""
    return Value(kind="text", value=text)


def boolean_value(flag: bool) -> Value:
    """A yes/no value (``weights_available``, gated), compared by equality."""
    return Value(kind="boolean", value=bool(flag))


def normalize_decimal(d: Decimal) -> Decimal:
    """Drop trailing zeros without going to exponent form for integers (``2.50`` ->
    ``2.5``, ``1E+3`` -> ``1000``); exact for integers of any size."""
    n = d.normalize()
    if n == n.to_integral_value():
        # exact; quantize raised InvalidOperation past 28 digits (found by hypothesis)
        return Decimal(int(n))
    return n


# -- comparison ----------------------------------------------------------------


def intervals_overlap(a: Value, b: Value) -> bool:
    """True when the two numeric values can both hold (some reading of each meets some
    reading of the other, :meth:`Value.readings`).

    Symmetric by construction. Raises :class:`ValueError_` for non-numeric values.
    """
    return distance(a, b) == 0


def distance(a: Value, b: Value) -> Decimal:
    """How far apart two numeric values are: the least gap between any reading of each
    (:meth:`Value.readings`); 0 when they overlap."""
    return min(_gap(x, y) for x in a.readings() for y in b.readings())


def _gap(
    a: tuple[Decimal | None, Decimal | None], b: tuple[Decimal | None, Decimal | None]
) -> Decimal:
    alo, ahi = a
    blo, bhi = b
    if ahi is not None and blo is not None and ahi < blo:
        return blo - ahi
    if bhi is not None and alo is not None and bhi < alo:
        return alo - bhi
    return Decimal(0)


# -- binary readings of token counts ----------------------------------------------

# Units whose K/M figures are also read in powers of two (context windows, max output).
BINARY_UNITS = frozenset({"tokens"})
# Decimal scale -> (binary scale, its power of two).
BINARY_SCALES: dict[Decimal, tuple[Decimal, int]] = {
    Decimal(10**3): (Decimal(2**10), 10),
    Decimal(10**6): (Decimal(2**20), 20),
}


def stated_scale(v: Value) -> Decimal | None:
    """The decimal scale a quantity was stated with (10^3 for "128K", 10^6 for "1M"),
    recovered from its interval: a stated (not exact, not "about") figure spans one
    step of its precision times its scale. ``None`` when it cannot be told."""
    if v.kind != "quantity" or v.approx or v.precision is None:
        return None
    if v.low is None or v.high is None or v.low == v.high:
        return None
    try:
        step = Decimal(v.precision)
    except ArithmeticError:
        return None
    if step <= 0:
        return None
    return normalize_decimal((v.high - v.low) / step)


def binary_reading(v: Value) -> Value | None:
    """The binary reading of a token count stated with K/M (see :meth:`Value.readings`):
    "128K" (128,000 ±500) -> 131,072 ±512; "1M" -> 1,048,576 ±524,288; None for any
    other value (exact curated figures, whole numbers such as "131,072", "about 128K",
    non-token units). The half-step is the stated precision in the binary scale, so
    "128K" never matches 130,000."""
    if v.unit not in BINARY_UNITS or not isinstance(v.value, Decimal):
        return None
    scale = stated_scale(v)
    if scale not in BINARY_SCALES or v.precision is None:
        return None
    binary, _power = BINARY_SCALES[scale]  # type: ignore[index]
    number = v.value / scale  # type: ignore[operator]
    half = Decimal(v.precision) * binary / 2
    center = number * binary
    return Value(
        kind="quantity",
        value=normalize_decimal(center),
        unit=v.unit,
        low=normalize_decimal(center - half),
        high=normalize_decimal(center + half),
        relation=v.relation,
        precision=v.precision,
    )


def binary_note(v: Value) -> str:
    """How ``v`` reads in binary, for reasons: ``128K read as 131,072 (2^17)``,
    ``1.5M read as 1,572,864 (1.5 × 2^20)``; empty when it has no binary reading."""
    alt = binary_reading(v)
    scale = stated_scale(v)
    if alt is None or scale is None or not isinstance(v.value, Decimal):
        return ""
    _binary, power = BINARY_SCALES[scale]
    number = normalize_decimal(v.value / scale)
    suffix = "K" if power == 10 else "M"
    center = int(alt.value)  # type: ignore[arg-type]
    exp = center.bit_length() - 1
    how = f"2^{exp}" if center == 1 << exp else f"{number} × 2^{power}"
    return f"{number}{suffix} read as {center:,} ({how})"


def reading_used(v: Value, other: Value) -> str:
    """:func:`binary_note` when only the binary reading of ``v`` meets ``other`` (why a
    claimed "128K" is confirmed by an observed 131,072); empty otherwise."""
    if v.numeric and other.numeric and _gap(v.interval(), other.interval()) != 0:
        alt = binary_reading(v)
        if alt is not None and distance(alt, other) == 0:
            return binary_note(v)
    return ""


# -- display -------------------------------------------------------------------


def with_extra(v: Value, **extra: Any) -> Value:
    """Copy of ``v`` with more provenance notes in ``extra`` (not part of identity)."""
    merged = dict(v.extra)
    merged.update(extra)
    return replace(v, extra=merged)
