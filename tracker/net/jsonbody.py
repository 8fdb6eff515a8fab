"""JSON bodies read with bounds (issue 20): a server's JSON can be nested a million deep,
hold a 5,000-digit number or ``1e999999999``, ``NaN``, or lone surrogates; none of that
may crash a cycle or reach the database.

Bounds: :data:`MAX_BYTES` of body, :data:`MAX_DEPTH` levels of nesting, numbers of at
most :data:`MAX_DIGITS` digits with a decimal exponent within ±:data:`MAX_EXPONENT`, no
``NaN``/``Infinity``. Strings: a lone surrogate or a control character other than tab,
line feed and carriage return is replaced by U+FFFD (the text stays readable; the raw
bytes are kept in the snapshot). Anything else is a :class:`~tracker.errors.ParseError`
naming the URL and the bound.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from itertools import accumulate
from typing import Any

from tracker.errors import ParseError

MAX_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 64
MAX_DIGITS = 40
MAX_EXPONENT = 40
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")  # every byte but the brackets
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# A \u escape of a control character (not \t \n \r) or of a surrogate: the walk is needed.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:00[01][0-9a-fA-F]|007[fF]|[dD][89a-fA-F])")
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def _depth(body: bytes) -> int:
    """The deepest nesting of ``body``'s arrays and objects (brackets in strings skipped)."""
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:
        return 0
    brackets = _STRINGS.sub(b"", body).translate(None, _BRACKETS)
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def _number(text: str, url: str) -> Decimal:
    digits = sum(c.isdigit() for c in text.partition("e")[0].partition("E")[0])
    if digits > MAX_DIGITS:
        raise ParseError(f"{url}: JSON holds a number of {digits} digits (at most {MAX_DIGITS})")
    try:
        d = Decimal(text)
    except InvalidOperation:  # pragma: no cover - json only passes numbers
        raise ParseError(f"{url}: JSON holds an unreadable number {text[:40]!r}") from None
    if d and abs(d.adjusted()) > MAX_EXPONENT:
        raise ParseError(
            f"{url}: JSON holds the number {text[:40]} (magnitude over 10^{MAX_EXPONENT})"
        )
    return d


def _clean(x: Any) -> Any:
    if isinstance(x, str):
        return _BAD_CHARS.sub("\ufffd", x)
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, dict):
        return {_clean(k): _clean(v) for k, v in x.items()}
    return x


def load_json(body: bytes, url: str, *, parse_float: Callable[[str], Any] | None = None) -> Any:
    """``body`` as JSON within the module's bounds; raises ParseError naming ``url``.

    Integers come back as ``int``, other numbers as ``float`` or through ``parse_float``
    (e.g. ``Decimal``); both are checked against :data:`MAX_DIGITS` and
    :data:`MAX_EXPONENT` first.
    """
    if len(body) > MAX_BYTES:
        raise ParseError(f"{url}: JSON body of {len(body)} bytes (at most {MAX_BYTES})")
    depth = _depth(body)
    if depth > MAX_DEPTH:
        raise ParseError(f"{url}: JSON nested {depth} deep (at most {MAX_DEPTH})")
    as_float = parse_float or float

    def number_float(text: str) -> Any:
        if len(text) > 24 or "e" in text or "E" in text:  # the common short ones pass
            _number(text, url)
        return as_float(text)

    def number_int(text: str) -> int:
        if len(text) > MAX_DIGITS:  # a sign and MAX_DIGITS digits at most
            _number(text, url)
        return int(text)

    def constant(name: str) -> Any:
        raise ParseError(f"{url}: JSON holds {name} (not a number JSON allows)")

    try:
        data = json.loads(
            body, parse_float=number_float, parse_int=number_int, parse_constant=constant
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ParseError(f"{url}: body is not JSON ({exc})") from exc
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ParseError(f"{url}: JSON nested too deep") from None
    if _SUSPECT_ESCAPE.search(body):
        data = _clean(data)
    return data
