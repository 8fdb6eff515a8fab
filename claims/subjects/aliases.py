"""Whether an alias is distinctive enough to name one subject in text.

An alias is matched wherever it occurs in an article (claims/subjects/references.py),
so a bare number or version ("Qwen 3" by Qwen -> "3"), a size ("12B") or a common word
("Pro", "Max 2") would pin figures of other models on the subject ("the older
Magistral 3 scored 61%"). The rule is data: ``alias_rules.toml`` beside this module
(``common_words`` and ``number_pattern``); an alias is plain when every one of its
words is a number/version/size or a common word.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

RULES_FILE = Path(__file__).with_name("alias_rules.toml")


@functools.cache
def _rules() -> tuple[frozenset[str], re.Pattern[str]]:
    with RULES_FILE.open("rb") as fh:
        data = tomllib.load(fh)
    words = frozenset(str(w).casefold() for w in data["common_words"])
    return words, re.compile(str(data["number_pattern"]), re.IGNORECASE)


def plain_alias_problem(alias: str) -> str | None:
    """Why ``alias`` cannot name one subject (``'3' is only a number or version``,
    ``'Pro' is only common words``), or None when it is distinctive (``Cirrus 12B``,
    ``K2``, ``Qwen 3``). Words are split at spaces, ``-`` and ``_``; an alias with no
    letters or digits at all is plain too."""
    words, number = _rules()
    parts = [p for p in re.split(r"[\s_\-]+", alias.strip()) if p]
    if not parts or not any(ch.isalnum() for ch in alias):
        return f"{alias!r} has no letters or digits"
    if all(number.fullmatch(p) for p in parts):
        return f"{alias!r} is only a number, version or size"
    if all(number.fullmatch(p) or p.casefold() in words for p in parts):
        return f"{alias!r} is only common words and numbers ({RULES_FILE.name})"
    return None


def is_distinctive(alias: str) -> bool:
    """True when :func:`plain_alias_problem` finds nothing wrong with ``alias``."""
    return plain_alias_problem(alias) is None
