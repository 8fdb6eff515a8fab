"""The compact notation for values in curated data files (English, unambiguous).

    2.8T  104B  1M  262144      quantity; K/M/B/T = 10^3/6/9/12; precision from the digits
    ~3T   ~-33                  "about": a wider interval
    >=1000  <=5                 bounds (at_least / at_most)
    65.7%                       percent
    1000-2000  1000-2000+       range; a trailing + leaves the top open
    on 2026-11-04  before 2026-11-04  by 2026-11  after 2026-10-01
    true / false                boolean (TOML booleans)
    modified-mit                text (for text attributes such as license)

Localized article text ("2,8 trilhões") is read elsewhere; this is for curators.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from claims.errors import ClaimsError
from claims.values.value import (
    Value,
    ValueError_,
    boolean_value,
    date_value,
    quantity,
    text_value,
    value_range,
)
from claims.vocabulary import ATTRIBUTES

SUFFIX = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}
_NUM = r"-?\d+(?:\.\d+)?"
QTY_RE = re.compile(
    rf"^(?P<approx>~)?(?P<bound>>=|<=)?(?P<num>{_NUM})(?P<suffix>[KMBT]?)(?P<pct>%)?$"
)
RANGE_RE = re.compile(
    rf"^(?P<approx>~)?(?P<lo>{_NUM})(?P<s1>[KMBT]?)-(?P<hi>{_NUM})(?P<s2>[KMBT]?)(?P<open>\+)?(?P<pct>%)?$"
)
DATE_RE = re.compile(r"^(?P<rel>on|before|by|after)\s+(?P<iso>\d{4}-\d{2}(?:-\d{2})?)$")


# Attributes whose figures may be below zero (a price cut is -33 %).
SIGNED = frozenset({"price_change_pct"})


class StatedValueError(ClaimsError, ValueError):
    """The notation cannot be read for this attribute; the message says what was expected."""


def parse_stated(
    raw: Any, attribute: str, *, unit: str | None = None, exact: bool = False
) -> Value:
    """Read the curated notation above as a :class:`Value` for ``attribute``.

    ``unit`` overrides the attribute's default unit (needed for ``benchmark_score``,
    ``hardware_units``); ``exact`` gives a zero-width interval (a figure known exactly).
    Raises :class:`StatedValueError`.
    """
    if attribute not in ATTRIBUTES:
        raise StatedValueError(f"unknown attribute {attribute!r}")
    kinds, default_unit = ATTRIBUTES[attribute]
    if isinstance(raw, bool):
        if "boolean" not in kinds:
            raise StatedValueError(f"{attribute} does not take true/false")
        return boolean_value(raw)
    if isinstance(raw, (int, float)):
        raw = str(raw)
    if not isinstance(raw, str):
        raise StatedValueError(f"expected text, got {type(raw).__name__}")
    text = raw.strip()
    if "date" in kinds:
        m = DATE_RE.match(text)
        if not m:
            raise StatedValueError(
                f"{text!r}: expected on, before, by or after, then a day (YYYY-MM-DD) or a "
                "month (YYYY-MM), e.g. 'before 2026-11-04' or 'by 2026-12'"
            )
        iso = m.group("iso")
        try:
            return date_value(iso, m.group("rel"), precision="month" if len(iso) == 7 else "day")
        except ValueError_ as exc:  # e.g. 2026-02-30: shaped like a date, but no such day
            raise StatedValueError(f"{text!r}: {exc}") from exc
    if kinds == ("text",):
        return text_value(text)
    if kinds == ("boolean",):
        raise StatedValueError(f"{attribute} takes true or false")
    m = QTY_RE.match(text) or RANGE_RE.match(text)
    if m and m.group("pct") and default_unit not in (None, "percent"):
        raise StatedValueError(f"{text!r}: {attribute} is in {default_unit}, not percent")
    if m and text.lstrip("~").startswith("-") and attribute not in SIGNED:
        raise StatedValueError(f"{text!r}: {attribute} cannot be negative")
    m = QTY_RE.match(text)
    if m:
        u = "percent" if m.group("pct") else (unit or default_unit)
        if u is None:
            raise StatedValueError(f"{attribute} needs a unit: set unit, e.g. to points")
        relation = {">=": "at_least", "<=": "at_most"}.get(m.group("bound") or "")
        try:
            value = quantity(
                m.group("num"),
                u,
                scale=SUFFIX[m.group("suffix")],
                approx=bool(m.group("approx")),
                relation=relation,
                exact=exact,
            )
        except InvalidOperation as exc:  # pragma: no cover - regex admits only numbers
            raise StatedValueError(str(exc)) from exc
        _check_scale(text, u, value.value)
        return value
    m = RANGE_RE.match(text)
    if m and "range" in kinds:
        u = "percent" if m.group("pct") else (unit or default_unit)
        if u is None:
            raise StatedValueError(f"{attribute} needs a unit: set unit, e.g. to points")
        lo = Decimal(m.group("lo")) * SUFFIX[m.group("s1") or m.group("s2")]
        hi = Decimal(m.group("hi")) * SUFFIX[m.group("s2")]
        if lo > hi:
            raise StatedValueError(f"{text!r}: range low is above high")
        _check_scale(text, u, lo)
        return value_range(
            lo, hi, u, open_high=bool(m.group("open")), approx=bool(m.group("approx"))
        )
    raise StatedValueError(f"{text!r} is not a figure ({_hint(text)})")


def _hint(text: str) -> str:
    """What to write instead of ``text`` (a currency sign, thousands separators, a decimal
    comma are the usual slips), else examples of the notation."""
    if any(c in text for c in "$€£"):
        return "write the number without a currency sign: the attribute gives the unit, e.g. 1.20"
    if "," in text:
        return "no commas: write 1000000 or 1M, and a decimal point, e.g. 0.6"
    return "e.g. 2.8T, ~3T, 65.7%, 1000-2000+"


# No language model has fewer parameters than this: "2.8" for "2.8T" is a lost scale.
MIN_PARAMS = Decimal(1_000_000)


def _check_scale(text: str, unit: str, number: Any) -> None:
    if unit == "params" and number is not None and Decimal(number) < MIN_PARAMS:
        raise StatedValueError(
            f"{text!r}: under a million parameters is not a model size; "
            "write the scale (e.g. 2.8T, 104B, 7.5M)"
        )


def stated_notation(v: Value, attribute: str) -> tuple[Any, str | None, bool]:
    """The data-file form of ``v`` for ``attribute``: ``(value, unit, exact)`` such that
    ``parse_stated(value, attribute, unit=unit, exact=exact)`` gives back a value with
    the same :meth:`Value.key` (what a claim is identified by). ``value`` is a TOML
    string, or a bool for a boolean; ``unit`` is None when it is the attribute's
    default (or percent, written ``%``). Used by ``tracker claims export``, so
    imported claims round-trip through ``tracker load``.

    Candidates are written and read back until one reproduces the value (the scale
    suffix and the digits follow from its interval); raises :class:`StatedValueError`
    when none does (an interval the notation cannot state, e.g. an edited low/high).
    """
    if v.kind == "boolean":
        return bool(v.value), None, False
    if v.kind == "text":
        return str(v.value), None, False
    if v.kind == "date":
        return f"{v.relation} {v.value}", None, False
    default = ATTRIBUTES[attribute][1] if attribute in ATTRIBUTES else None
    unit = None if v.unit in (default, "percent") else v.unit
    pct = "%" if v.unit == "percent" else ""
    head = "~" if v.approx else ""
    head += {"at_least": ">=", "at_most": "<="}.get(v.relation or "", "")
    for text, exact in _candidates(v):
        written = (
            f"{head}{text}{pct}"
            if v.kind == "quantity"
            else f"{'~' if v.approx else ''}{text}{pct}"
        )
        try:
            back = parse_stated(written, attribute, unit=unit, exact=exact)
        except StatedValueError:
            continue
        if back.key() == v.key():
            return written, unit, exact
    raise StatedValueError(
        f"{v.display()}: its interval cannot be written in the data-file notation"
    )


def _plain(d: Decimal, decimals: int | None = None) -> str:
    """``Decimal`` as plain digits (never ``1E+3``), with ``decimals`` when given."""
    return f"{d:.{decimals}f}" if decimals is not None else f"{d.normalize():f}"


def _candidates(v: Value) -> list[tuple[str, bool]]:
    """Texts (without ``~``/bounds/``%``) that may state ``v``, with their exact flag."""
    out: list[tuple[str, bool]] = []
    if v.kind == "quantity" and isinstance(v.value, Decimal):
        if v.precision is None:
            out.append((_plain(v.value), True))
        step = Decimal(v.precision) if v.precision else None
        places = max(0, -int(step.as_tuple().exponent)) if step is not None else None  # type: ignore[arg-type]
        for suffix, scale in SUFFIX.items():
            n = v.value / Decimal(scale)
            out.append((_plain(n, places) + suffix, False))
            out.append((_plain(n) + suffix, False))
    elif v.kind == "range" and v.low is not None and v.high is not None:
        tail = "+" if v.open_high else ""
        for suffix, scale in SUFFIX.items():
            lo, hi = v.low / Decimal(scale), v.high / Decimal(scale)
            out.append((f"{_plain(lo)}-{_plain(hi)}{suffix}{tail}", False))
    return out
