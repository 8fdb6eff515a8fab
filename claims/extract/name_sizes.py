"""The size a subject's own name states ("Gemma 3 27B", "apertus-8b", "Gemma 3 270M"), and
parameter counts that cannot be that subject's: a page on one size of a family lists its
siblings' sizes ("versões de 1, 4 e 12 bilhões"), which are not the subject's.

A name states a size when one of its words (split at spaces, hyphens and underscores) is a
number followed by ``b`` (billions) or ``m`` (millions) and nothing else: "27B", "8b",
"270M". Words like "E4B" (effective size), "A22B" (active size) or "8x22B" (experts) are
not total sizes and are ignored; so is a name whose words state two different sizes, and
a name with an expert count ("Llama-4-Scout-17B-16E": 16 experts), whose size word is
the active count (Scout has 109B in all).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

_SIZE_WORD = re.compile(r"(\d+(?:\.\d+)?)([bm])", re.I)
_SPLIT = re.compile(r"[\s_\-]+")
_EXPERTS_WORD = re.compile(r"\d+e", re.I)
_SCALE = {"b": Decimal(10) ** 9, "m": Decimal(10) ** 6}
# A stated total may round the name's size ("gpt-oss-20b" has 21B, "Gemma 7B" 8.5B):
# counts within this factor of the name's size are the subject's own.
NEAR_FACTOR = Decimal("1.6")


def name_size(names: Iterable[str]) -> Decimal | None:
    """The parameter count (a count, not billions) that ``names`` (a subject's slug, name and
    aliases) state, or ``None`` when none states one, they disagree, or one names an
    expert count."""
    sizes: set[Decimal] = set()
    for name in names:
        for word in _SPLIT.split(name):
            if _EXPERTS_WORD.fullmatch(word):
                return None  # a mixture of experts named by its active size
            m = _SIZE_WORD.fullmatch(word)
            if m:
                sizes.add(Decimal(m.group(1)) * _SCALE[m.group(2).lower()])
    return sizes.pop() if len(sizes) == 1 else None


def contradicts_size(count: Decimal, size: Decimal) -> bool:
    """True when a stated parameter ``count`` is too far from a name's ``size`` to be it
    (outside ``size / NEAR_FACTOR`` .. ``size * NEAR_FACTOR``)."""
    return not (size / NEAR_FACTOR <= count <= size * NEAR_FACTOR)
