"""One part of a model sized next to its name: "a 123B decoder with a 1B vision encoder",
"Vision Encoder | 1B", "um codificador de visão de 400 milhões de parâmetros". The size is
that component's, not the model's parameter count. Part nouns are data
(``lexicon/<lang>/part_nouns.txt``). Pure.
"""

from __future__ import annotations

import re
from functools import cache

from claims.extract.lexicon import alternation


@cache
def _after_re() -> re.Pattern[str]:
    # "123B decoder", "1B-parameter vision encoder", "400M parameter projector"
    return re.compile(
        r"^\s*-?\s*(?:(?:param(?:eter)?s?|parâmetros?)\s+)?(?:"
        + alternation("part_nouns")
        + r")(?!\w)",
        re.I,
    )


@cache
def _before_re() -> re.Pattern[str]:
    # "vision encoder: 1B", "Text Decoder | 123B", "codificador de visão de 1 bilhão"
    return re.compile(
        r"(?<!\w)(?:" + alternation("part_nouns") + r")\s*(?:[:|=–]\s*|(?:de|of|with|com)\s+)"
        r"(?:(?:about|around|roughly|cerca\s+de|aproximadamente|~|≈)\s*)?$",
        re.I,
    )


def is_part_size(before: str, after: str) -> bool:
    """True when a size is right after ("123B decoder") or right before ("encoder: 1B") a
    part noun: the part's size. ``before``/``after`` are the text around the figure."""
    return bool(_after_re().match(after) or _before_re().search(before[-40:]))
