"""Sibling sizes listed together: "Llama 3.2 ... (11B e 90B) e ... (1B e 3B)", "the 1B and
3B models", "com 11 bilhões e 90 bilhões de parâmetros".

When a subject's name is a family and a size ("Llama 3.2 3B"), a list of two or more sizes
names the family's members, one model per size: only the subject's own size is the
subject's, every other size in the list is a sibling (another model), never the subject's
parameter count. A claim about the list jointly ("1B e 3B suportam 128K") still reaches the
subject, whose size is in the list. Sizes are written "11B"/"1.5T" or spelled with a scale
word of ``lexicon/*/large_number_words.txt`` before a parameter noun ("11 bilhões e 90
bilhões de parâmetros"); members are joined by commas or ``lexicon/*/list_joiners.txt``.
A slash is no joiner ("17B/109B" is one model's active/total). Pure.
"""

from __future__ import annotations

import re

from claims.extract.lexicon import alternation, phrases
from claims.extract.rules import Named

# The scale of a size by its first letter: B/billion/bilhões, T/trillion/trilhões, M...
_SCALES = {"m": 1e6, "b": 1e9, "t": 1e12}
_JOIN = (
    rf"(?:\s*,\s*(?:(?:{alternation('list_joiners')})\s+)?|\s+(?:{alternation('list_joiners')})\s+)"
)
_SHORT = r"\d+(?:\.\d+)?[BT](?![\w-])"
_SPELLED = rf"\d+(?:[.,]\d+)?\s+(?:{alternation('large_number_words')})(?!\w)"
_SHORT_LIST = re.compile(rf"(?<![\w.$€£]){_SHORT}(?:{_JOIN}{_SHORT})+")
_SPELLED_LIST = re.compile(
    rf"(?<![\w.$€£]){_SPELLED}(?:{_JOIN}{_SPELLED})+"
    rf"(?=\s+(?:de\s+|of\s+)?(?:{phrases('param_nouns')})\b)"
)
_ONE = re.compile(rf"{_SHORT}|{_SPELLED}")


def size_value(size: str) -> float | None:
    """The parameter count ``size`` writes ("11B" -> 11e9, "90 bilhões" -> 90e9, "1.5T"
    -> 1.5e12), read by the first letter of its unit; ``None`` when the unit begins with
    no scale letter (M, B, T)."""
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?)\s*([^\W\d_]+)", size.strip())
    if m is None:
        return None
    scale = _SCALES.get(m.group(2)[0].lower())
    if scale is None:
        return None
    return float(m.group(1).replace(",", ".")) * scale


def _members(text: str, own_sizes: set[str]) -> list[tuple[bool, Named]]:
    own = {v for w in own_sizes if (v := size_value(w)) is not None}
    if not own:
        return []
    out: list[tuple[bool, Named]] = []
    for lst in list(_SHORT_LIST.finditer(text)) + list(_SPELLED_LIST.finditer(text)):
        for m in _ONE.finditer(lst.group(0)):
            start, end = lst.start() + m.start(), lst.start() + m.end()
            is_own = size_value(m.group(0)) in own
            out.append((is_own, Named(start, end, "competitor", m.group(0))))
    return out


def find_listed_sizes(text: str, own_sizes: set[str]) -> list[Named]:
    """The members of lists of sizes in ``text`` other than the subject's own sizes
    (``own_sizes``: words of the subject's names, such as "3b"), each as
    ``Named(start, end, "competitor", "90B")``. Empty when no own name carries a size:
    then a list of sizes may be the subject's own variants."""
    return [n for is_own, n in _members(text, own_sizes) if not is_own]


def find_own_listed_sizes(text: str, own_sizes: set[str]) -> list[tuple[int, int]]:
    """The (start, end) of the subject's own size in each list of sizes of ``text`` ("3B"
    of "1B e 3B" for "Llama 3.2 3B"): a name of the subject among its siblings, so that a
    claim about the list jointly ("1B e 3B suportam 128K") reaches the subject."""
    return [(n.start, n.end) for is_own, n in _members(text, own_sizes) if is_own]
