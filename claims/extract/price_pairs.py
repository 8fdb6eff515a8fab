"""Input and output prices stated as a pair in one phrase.

"$1 / $4 per million input/output tokens", "$1 and $4 per million input and output
tokens", "input $1, output $4 per 1M tokens", "$1 input / $4 output per 1M tokens", "US$ 1
/ US$ 4 por milhão de tokens de entrada/saída": the first price borrows the second's "per
million" (both borrow the one after the second's label), and each gets its side from the
labels next to it or from the order of an "input/output" pair after them; two complete
prices glued together ("$0.30/M$1.20/M") take the sides of the table header above them; a
slash pair naming no side ("$5/$25 per million tokens") is input then output when the
first is not dearer; two bare prices right after a comparison word following a complete
pair ("(contra US$ 1,10 e US$ 4,40 do padrão)") take that pair's units and sides.
Pure functions over :class:`claims.extract.figures.Figure` lists; :mod:`claims.extract.extractor` uses them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from claims.extract.figures import Figure
from claims.extract.lexicon import alternation, words

_SIDE = r"input|output|prompt|completion|entrada|sa[íi]da"
_SEP = r"/|,|;|&|\band\b|\be\b"
# Between the two prices: an optional label of the first, a separator, an optional label
# of the second ("$1 input / $4 output", "input $1, output $4").
# The labels may be bracketed or after "para"/"for" ("US$ 3 (entrada) e US$ 15 (saída)",
# "US$ 3 para entrada e US$ 15 para saída"), the second's after "de" ("de entrada de US$ 3
# e de saída de US$ 15").
_BETWEEN_RE = re.compile(
    rf"^\s*(?:\(?\s*(?:(?:de|para|for)\s+)?(?P<l1>{_SIDE})\s*\)?\s*)?(?:{_SEP})\s*"
    rf"(?:(?:de|para|for)\s+)?(?:(?P<l2>{_SIDE})\s*(?:[:=]|\bde\b)?\s*)?$",
    re.I,
)
# A label right before the first price ("input $1", "entrada: US$ 1", "de entrada de US$ 3").
_LABEL_BEFORE_RE = re.compile(rf"\b(?P<l>{_SIDE})\s*(?:price|preço)?\s*(?:[:=]|\bde\b)?\s*$", re.I)
# The two sides named in order after the pair ("input/output tokens", "de entrada e saída").
_ORDER_AFTER_RE = re.compile(rf"\b(?P<a>{_SIDE})\s*(?:{_SEP})\s*(?P<b>{_SIDE})\b", re.I)
# "$1 input / $4 output per 1M tokens": the unit follows the second price's label.
_LABEL_PER_RE = re.compile(
    rf"\s*\(?\s*(?:(?:de|para|for)\s+)?(?:{_SIDE})\s*\)?\s*,?\s+(?:tokens?\s+)?(?:/|per|por)\s*"
    r"(?:cada\s+)?(?:1\s*)?(?P<per>million|milh[ãa]o|mtok|thousand|mil|M|K|k)(?!\w)",
    re.I,
)
_INPUT = frozenset(words("input_side"))
_SLASH_ONLY_RE = re.compile(r"^\s*/\s*$")


def _side(word: str | None) -> str | None:
    if not word:
        return None
    return "input" if word.lower() in _INPUT else "output"


def _per_token_money(f: Figure) -> bool:
    return f.kind == "money" and f.default_unit().endswith("_per_mtok")


_RESPECTIVELY_RE = re.compile(r"\s*,?\s*(?:" + alternation("respectively") + r")\b", re.I)
_PAIR_SEP_RE = re.compile(r"^\s*(?:,|and|e|/|;)\s*$", re.I)


def _respectively(
    a: Figure, b: Figure, text: str, sentence_end: Callable[[int], int]
) -> tuple[str, str] | None:
    """Sides of two complete prices stated "respectively" after two side words in order."""
    if not _PAIR_SEP_RE.match(text[a.end : b.start]) or not _RESPECTIVELY_RE.match(text, b.end):
        return None
    start = max(0, a.start - 120, text.rfind(".", 0, a.start) + 1)
    orders = list(_ORDER_AFTER_RE.finditer(text[start : a.start]))
    if not orders:
        return None
    first, second = _side(orders[-1].group("a")), _side(orders[-1].group("b"))
    return (first, second) if first and second and first != second else None


# A table's header cells naming the sides in order, one per line or between pipes
# ("Input\nOutput", "| Input | Output |").
_HEADER_ORDER_RE = re.compile(
    rf"(?:^|\|)[ \t]*(?P<a>{_SIDE})[ \t]*(?:\n|\|)[ \t]*(?P<b>{_SIDE})[ \t]*(?=$|\|)", re.I | re.M
)
_HEADER_REACH = 1500


def _glued(a: Figure, b: Figure, text: str) -> tuple[str, str] | None:
    """Sides of two complete prices written with nothing between them ("$0.30/M$1.20/M",
    a gateway's input and output cells pasted together), from the nearest header before
    them naming two sides in order ("Input" then "Output", one cell per line)."""
    if text[a.end : b.start].strip():
        return None
    heads = list(_HEADER_ORDER_RE.finditer(text, max(0, a.start - _HEADER_REACH), a.start))
    if not heads:
        return None
    first, second = _side(heads[-1].group("a")), _side(heads[-1].group("b"))
    return (first, second) if first and second and first != second else None


# Between a complete pair and two bare prices after it: a comparison word and maybe an
# article ("(contra US$ 1,10 e ...", "(comparado aos US$ 10 e ...", "(vs. $10 and ...").
_COMPARED_BEFORE = re.compile(
    r"^[^.;]{0,40}?(?<!\w)(?:" + alternation("comparison_markers") + r"|vs\.?)"
    r"(?:o|a|os|as)?\s+(?:(?:os|as|the)\s+)?$",
    re.I,
)


def _compared_pair(out: list[Figure], i: int, text: str, sides: dict[int, str]) -> bool:
    """Give ``out[i]`` and ``out[i + 1]``, two bare prices in one currency joined as a pair
    right after a comparison word ("(contra US$ 1,10 e US$ 4,40 do padrão)"), the "per"
    units and sides of the complete pair before them in the same order ("US$ 0,55 por
    milhão de tokens de entrada e US$ 2,20 por milhão de tokens de saída"); True when
    they took them."""
    if i < 2:
        return False
    p, q, a, b = out[i - 2], out[i - 1], out[i], out[i + 1]
    if a.per or b.per or not (p.per and q.per):
        return False
    if len({p.currency, q.currency, a.currency, b.currency}) != 1:
        return False
    if not _PAIR_SEP_RE.match(text[a.end : b.start]):
        return False
    if not _COMPARED_BEFORE.match(text[q.end : a.start]):
        return False
    first = sides.get(p.start) or _side_after(text[p.end : q.start])
    second = sides.get(q.start) or _side_after(text[q.end : a.start])
    if not (first and second) or first == second:
        return False
    out[i], out[i + 1] = replace(a, per=p.per), replace(b, per=q.per)
    sides[p.start], sides[q.start] = first, second
    sides[a.start], sides[b.start] = first, second
    return True


_SIDE_AFTER_RE = re.compile(rf"^[^.;$]{{0,40}}?\b(?P<s>{_SIDE})\b", re.I)


def _side_after(between: str) -> str | None:
    """The side a complete price names in the words right after it ("por milhão de tokens
    de entrada"), within 40 characters and before any other price."""
    m = _SIDE_AFTER_RE.match(between)
    return _side(m.group("s")) if m else None


def pair_prices(
    figs: list[Figure], text: str, sentence_end: Callable[[int], int]
) -> tuple[list[Figure], dict[int, str]]:
    """(figures with the first price of each pair given the second's "per" unit,
    {figure start: "input" or "output"} for the prices whose side the pair settles).

    A pair is two consecutive money figures in one currency, the first without a "per"
    unit, the second per tokens (or labelled and then followed by "per 1M tokens"), with
    only a separator and side labels between them.
    Sides come from labels on both prices, else from two side words in order after the
    second price within its sentence (``sentence_end(pos)`` gives that sentence's end).
    A pair whose sides stay unknown keeps no side: the usual rules decide each price.
    """
    out = list(figs)
    sides: dict[int, str] = {}
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.kind != "money" or b.kind != "money" or a.currency != b.currency:
            continue
        if _compared_pair(out, i, text, sides):
            continue  # "..., US$ 2,20 por milhão de saída (contra US$ 1,10 e US$ 4,40)"
        if a.per and b.per:
            # "input and output prices dropping to $0.28/M and $0.42/M respectively"
            resp = _respectively(a, b, text, sentence_end) or _glued(a, b, text)
            if resp:
                sides[a.start], sides[b.start] = resp
            continue
        if a.per:
            continue
        between = _BETWEEN_RE.match(text[a.end : b.start])
        if between is None:
            continue
        if not b.per and between.group("l1"):
            after = _LABEL_PER_RE.match(text, b.end)
            if after:
                per = after.group("per").lower().replace("milhao", "milhão")
                b = out[i + 1] = replace(b, per="M" if per == "m" else per)
        if not _per_token_money(b):
            continue
        out[i] = replace(a, per=b.per)
        before = _LABEL_BEFORE_RE.search(text[max(0, a.start - 30) : a.start])
        first = _side(between.group("l1")) or _side(before.group("l") if before else None)
        second = _side(between.group("l2"))
        if not (first and second):
            order = _ORDER_AFTER_RE.search(text[b.end : sentence_end(b.start)])
            if order:
                first, second = _side(order.group("a")), _side(order.group("b"))
        if not (first or second) and _SLASH_ONLY_RE.match(text[a.end : b.start]):
            # "$5/$25 per million tokens": a slash pair naming no side is input then
            # output, as price lists write it (the cheaper first)
            va, vb = out[i].to_value(), b.to_value()
            low = va.value if va is not None else None
            high = vb.value if vb is not None else None
            if isinstance(low, Decimal) and isinstance(high, Decimal) and low <= high:
                first, second = "input", "output"
        if first and second and first != second:
            sides[a.start], sides[b.start] = first, second
    return out, sides
