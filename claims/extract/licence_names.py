"""A licence named in words that ``claims/readings/license_names.toml`` lacks: capitalised
words (a version among them: "Nova 2 Community License") ending in "License"/"Licence",
then maybe "Agreement" and a version ("TII Falcon-LLM License 2.0", "Tencent Hunyuan
Community License Agreement"). Leading words that name no licence ("The", "Its",
"Open-Source", "Community": ``lexicon/en/licence_generic_words.txt``) are left out, and a
phrase of such words only names none. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from claims.extract.lexicon import words

_NAMED = re.compile(
    # capitalised words, a version among them after the first ("Nova 2 Community License")
    r"(?<![\w-])[A-Z][\w.+-]*[^\S\n]+(?:(?:[A-Z][\w.+-]*|\d[\w.]*)[^\S\n]+){0,4}"
    r"Licen[cs]e(?:[^\S\n]+Agreement)?"
    r"(?:[^\S\n]+v?\d+(?:\.\d+)*)?(?![\w-])"
)


@dataclass(frozen=True)
class LicenceName:
    """A licence name as written at ``start``-``end``."""

    name: str
    start: int
    end: int


@cache
def _generic() -> frozenset[str]:
    return frozenset(w.lower() for w in words("licence_generic_words"))


def unlisted_licences(text: str) -> Iterator[LicenceName]:
    """Every licence name of the shape in the module doc in ``text``, in text order,
    without its leading generic words."""
    for m in _NAMED.finditer(text):
        start = m.start()
        for w in m.group(0).split()[:-1]:
            if w.lower() not in _generic():
                break
            start = text.index(w, start) + len(w)
            start += len(text[start:]) - len(text[start:].lstrip())
        head = text[start : m.end()].split()
        if len(head) >= 2 and head[0].lower() not in ("license", "licence"):
            yield LicenceName(text[start : m.end()], start, m.end())
