"""Extraction's word lists, read from data files: ``lexicon/<language>/<kind>.txt`` (one
word, or for ``refusals`` one regular expression, per line; ``#`` starts a comment).

Every language folder is read and the lists are merged, because the rules are language-
agnostic patterns and an article may quote another language; adding Spanish means adding
``lexicon/es/`` with the same file names. Language-neutral lists (benchmark names, model
families) are files directly in ``lexicon/``. Pure (reads package data once, cached).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

LEXICON_DIR = Path(__file__).with_name("lexicon")


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [x.strip() for x in text.splitlines() if x.strip() and not x.lstrip().startswith("#")]


@cache
def words(kind: str, lang: str | None = None) -> tuple[str, ...]:
    """The ``kind`` list of every language folder, longest first, without repeats; with
    ``lang`` ("pt", "pt-BR", "en"), of that language's folder only when it has the list
    (for words that are ordinary words elsewhere: English "no" is Portuguese "in the").
    A list no language folder has is read from ``lexicon/<kind>.txt`` (language-neutral).
    Raises FileNotFoundError naming the kind when no file has it."""
    found: set[str] = set()
    files = sorted(LEXICON_DIR.glob(f"*/{kind}.txt"))
    if not files and (LEXICON_DIR / f"{kind}.txt").is_file():
        files = [LEXICON_DIR / f"{kind}.txt"]  # a language-neutral list
    own = LEXICON_DIR / (lang or "").split("-")[0].lower() / f"{kind}.txt"
    if lang and own in files:
        files = [own]
    if not files:
        raise FileNotFoundError(f"no lexicon/*/{kind}.txt word list")
    for f in files:
        found.update(_lines(f))
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def alternation(kind: str, lang: str | None = None) -> str:
    """The ``kind`` words (of ``lang`` only, as :func:`words`) as one regex alternation
    (escaped), longest first."""
    return "|".join(re.escape(w) for w in words(kind, lang))


def phrases(kind: str, lang: str | None = None) -> str:
    """As :func:`alternation`, but a space in a listed phrase matches any run of white
    space ("ahead of" matches "ahead\\nof" too)."""
    return "|".join(re.escape(w).replace("\\ ", r"\s+") for w in words(kind, lang))


def patterns(kind: str) -> str:
    """The ``kind`` lines as one regex alternation, taken as regular expressions."""
    return "|".join(f"(?:{p})" for p in words(kind))
