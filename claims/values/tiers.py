"""A price tier's condition in one canonical form, so the same tier compares equal however
it was written: a tiered price table's row label ("> 128,000 tokens", "≥200k", "> 128K
context") and a condition read from prose ("> 128K tokens") are both "> 128K tokens".

The form is an operator (">", ">=", "<", "<="; "≥"/"≤" become ">="/"<="), a space, the
token count shortened ("128K", "1M", "1.5K") and " tokens". A condition of any other
shape is returned with its white space collapsed. Pure.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_OPS = {"≥": ">=", "≤": "<=", ">=": ">=", "<=": "<=", ">": ">", "<": "<"}
_CONDITION = re.compile(
    r"^(?P<op>[≥≤]|[<>]=?)\s*(?P<n>\d{1,3}(?:[.,\s]\d{3})+|\d+(?:[.,]\d+)?)\s*"
    r"(?P<mult>[kKM]|thousand|million)?(?:\s+(?:input\s+)?(?:tokens?|context))?$",
    re.I,
)
_MULT = {"k": 1000, "thousand": 1000, "m": 10**6, "million": 10**6}


def token_count(raw: str, factor: int = 1) -> Decimal | None:
    """The number ``raw`` of a tier's token count ("128,000", "1.5", "200 000") times
    ``factor`` (1000 for "K"); digit groups (",", ".", space between groups of three)
    read as grouping, a lone "," or "." as the decimal mark; None when not a number."""
    if re.fullmatch(r"\d{1,3}(?:[.,\s]\d{3})+", raw):
        raw = re.sub(r"[.,\s]", "", raw)
    try:
        return Decimal(raw.replace(",", ".")) * factor
    except InvalidOperation:
        return None


def short_count(n: Decimal) -> str:
    """A token count shortened: 200000 -> "200K", 1000000 -> "1M", 1500 -> "1.5K", 500 -> "500"."""
    for div, suffix in ((10**6, "M"), (1000, "K")):
        if n >= div:
            return f"{(n / div).normalize():f}{suffix}"
    return f"{n.normalize():f}"


def canonical_condition(text: str) -> str:
    """``text`` (a tier condition) in the canonical form of the module doc: "> 128,000
    tokens" -> "> 128K tokens", "≥200k" -> ">= 200K tokens"; any other text with its white
    space collapsed ("for batch requests" stays as written)."""
    plain = " ".join(str(text).split())
    m = _CONDITION.match(plain)
    if m is None:
        return plain
    n = token_count(m.group("n"), _MULT.get((m.group("mult") or "").lower(), 1))
    if n is None:
        return plain
    return f"{_OPS[m.group('op')]} {short_count(n)} tokens"
