"""Price tiers stated in prose: which prices hold only above a prompt length.

"$2 per million input tokens, $4 above 200K tokens", "or $4 per million input tokens for
prompts above 200K tokens", "For prompts over 128K tokens, it costs $4 ...", "US$ 4 por
milhão de tokens de entrada para prompts acima de 200 mil tokens", "a partir de 200K
tokens": the price gets a ``conditions`` qualifier, a short normalised condition ("> 200K
tokens", ">= 200K tokens"), as a tiered price table's later rows do
(:func:`claims.extract.table_cells.read_tier_cell`); verification compares a tier only with
the same tier. A bare price right before a condition ("$4 above 200K tokens") takes the
"per" unit and side of the complete price before it in its sentence. The comparison and
lead words are lexicon data (``tier_above``, ``tier_from``, ``tier_leads``; "for longer
prompts" after "up to 200K tokens": ``tier_beyond_that``); a count needs
"tokens"/"context" after it or a K/M suffix, so "over 100 languages" is no tier, and "up to
200K tokens" (a context window, or the base tier) is none either. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from claims.extract import rules as R
from claims.extract.figures import Figure
from claims.extract.lexicon import alternation, phrases
from claims.values.tiers import short_count, token_count

_COUNT = (
    r"(?P<n>\d{1,3}(?:[.,\s]\d{3})+|\d+(?:[.,]\d+)?)\s*"
    r"(?P<mult>K|k|M|mil|thousand|million|milh(?:ão|ões|ao|oes))?"
)
_TOKENS = r"(?P<tok>tokens?|(?:de\s+)?context[oe]?)"
# a count with no "tokens" after it ends its phrase ("beyond 128K."), not "1M requests"
_ALONE = r"(?=\s*[,.;:)]|\s*$|\s+(?:and|or|e|ou)\s)"
# a lead, maybe one linking word, a comparison, a count and what it counts
_CONDITION = re.compile(
    r"(?<![\w>=≥])(?:(?P<lead>"
    + phrases("tier_leads")
    + r")\s+(?:(?:is|are|with|of|com|de|é)\s+)?)?"
    r"(?:(?P<above>" + phrases("tier_above") + r")|(?P<from>" + phrases("tier_from") + r"))"
    r"\s+" + _COUNT + r"(?:\s*" + _TOKENS + r"(?!\w)|" + _ALONE + ")",
    re.I,
)
# Between a complete price and a condition after it: only its unit and side words
# ("$4 per million input tokens for prompts above ..."), no other price or verb.
_GAP = re.compile(r"^(?:\s|,|/|\(|\b(?:" + alternation("price_tier_gap") + r")\b)*$", re.I)
# "for longer prompts" after a base tier's limit ("for prompts up to 200K tokens")
_BEYOND_THAT = re.compile(r"(?<!\w)(?:" + phrases("tier_beyond_that") + r")(?!\w)", re.I)
_BASE_LIMIT = re.compile(
    r"(?<!\w)(?:" + phrases("upper_bound_words") + r"|≤|<=)\s+" + _COUNT + r"\s*" + _TOKENS, re.I
)
# A fronted condition: at the start of its sentence (or after ";"/":"), then a comma.
_FRONTED_BEFORE = re.compile(r"(?:^|[;:—])\s*$")
_MULT = {"k": 1000, "mil": 1000, "thousand": 1000, "m": 10**6, "million": 10**6}


@dataclass(frozen=True)
class Tier:
    """A condition as read: ``text`` the normalised condition ("> 200K tokens"), ``start``
    and ``end`` its span in the article (its count is no figure of its own)."""

    text: str
    start: int
    end: int


def _count(m: re.Match[str]) -> Decimal | None:
    """The token count a condition names, or None when it names no token count."""
    raw, mult = m.group("n"), (m.group("mult") or "").lower()
    if not mult and not m.group("tok"):
        return None  # "over 100 languages"
    return token_count(raw, _MULT.get("m" if mult.startswith("milh") else mult, 1))


def _tier(m: re.Match[str]) -> Tier | None:
    n = _count(m)
    if n is None or n < 1000:
        return None
    op = ">=" if m.group("from") else ">"
    return Tier(f"{op} {short_count(n)} tokens", m.start(), m.end())


def condition_after(text: str, sentence: tuple[int, int], end: int) -> Tier | None:
    """The tier condition right after a price ending at ``end`` (only its unit and side
    words between, within the ``sentence`` span), else None; "for longer prompts" after a
    base tier's limit before it in the sentence ("for prompts up to 200K tokens") is the
    tier above that limit."""
    for m in _CONDITION.finditer(text, end, sentence[1]):
        if not _GAP.match(text[end : m.start()]):
            break
        return _tier(m)
    that = _BEYOND_THAT.search(text, end, sentence[1])
    if that is None or not _GAP.match(text[end : that.start()]):
        return None
    bases = list(_BASE_LIMIT.finditer(text, sentence[0], end))
    n = _count(bases[-1]) if bases else None
    return Tier(f"> {short_count(n)} tokens", that.start(), that.end()) if n else None


def condition_fronted(text: str, start: int, price: int) -> Tier | None:
    """A condition opening the sentence that starts at ``start`` (or a clause after ";")
    and closed by a comma, before a price at ``price``: "For prompts over 128K tokens, it
    costs $4 ...", "Acima de 200 mil tokens, o preço sobe para US$ 4"."""
    for m in _CONDITION.finditer(text, start, price):
        if _FRONTED_BEFORE.search(text[start : m.start()]) and text[m.end() :].lstrip()[:1] == ",":
            return _tier(m)
    return None


def price_tiers(
    figs: list[Figure], text: str, sentence: Callable[[int], tuple[int, int]], sides: dict[int, str]
) -> tuple[list[Figure], dict[int, Tier]]:
    """(figures with each bare price right before a condition given the unit of the
    complete price before it in its sentence, {price start: its tier}). ``sentence(pos)``
    gives the (start, end) of the sentence at ``pos``; ``sides`` ({price start: side}, as
    :func:`claims.extract.price_pairs.pair_prices` returns) gets the inherited sides."""
    out = list(figs)
    tiers: dict[int, Tier] = {}
    last: Figure | None = None
    for i, f in enumerate(out):
        if f.kind != "money":
            continue
        s_start, s_end = sentence(f.start)
        if last is not None and last.start < s_start:
            last = None
        tier = condition_after(text, (s_start, s_end), f.end)
        if not f.per and tier is not None and last is not None and last.currency == f.currency:
            f = out[i] = replace(f, per=last.per)
            side = sides.get(last.start) or R.price_side(
                text[s_start : last.start], text[last.end : f.start]
            )
            if side:
                sides[f.start] = side
        tier = tier or condition_fronted(text, s_start, f.start)
        if f.per and tier is not None:
            tiers[f.start] = tier
        if f.per and f.default_unit().endswith("_per_mtok"):
            last = f
    return out, tiers
