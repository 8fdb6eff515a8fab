"""Guess an article's locale (pt-BR, pt-PT or en) from common words; used by ``--lang auto``."""

from __future__ import annotations

import re

from claims.extract.lexicon import words
from claims.values.numbers import normalize_locale

_WORD = re.compile(r"[a-zà-ü]+")
# Function words of one language only ("a", "as" are both: Portuguese keeps them). The
# auxiliaries matter for short statements with no article ("<Model> weights will not be
# released until March 2027" has none of "the/and/of" and read as Portuguese).
_PT = frozenset(words("language_markers", "pt"))
_EN = frozenset(words("language_markers", "en"))
# Spellings and words that tell European from Brazilian Portuguese (data files).
_PT_PT = frozenset(words("pt_pt_markers"))
_PT_BR = frozenset(words("pt_br_markers"))


def detect_locale(text: str) -> str:
    """``pt-BR``, ``pt-PT`` or ``en`` by stop-word counts over the first 20,000 characters.

    A text with no Portuguese function word is English. Portuguese defaults to
    ``pt-BR`` unless European markers (biliões, facto, equipa,
    utilizador, ecrã) outnumber Brazilian ones; ``milhões`` is shared and only breaks ties.
    """
    words = _WORD.findall(text[:20000].lower())
    pt = sum(w in _PT for w in words)
    en = sum(w in _EN for w in words)
    if en > pt or pt == 0:  # no Portuguese word at all: English, not a pt-BR default
        return "en"
    return portuguese_variant(words)


def portuguese_variant(words: list[str]) -> str:
    """``pt-PT`` when European markers (``lexicon/pt_pt_markers.txt``: biliões, facto,
    equipa, utilizador...) outnumber Brazilian ones (``lexicon/pt_br_markers.txt``), else
    ``pt-BR``; ``milhões`` only breaks ties. ``words``: the text's lower-case words."""
    eu = sum(w in _PT_PT and w != "milhões" for w in words)
    br = sum(w in _PT_BR for w in words)
    return "pt-PT" if eu > br else "pt-BR"


def article_locale(text: str, lang: str | None) -> str:
    """The locale to read ``text`` in: :func:`detect_locale` for ``lang`` None or ``auto``;
    for a bare ``pt`` the variant the text's words show (:func:`portuguese_variant`: a
    European text reads "bilião" as 10^12, a Brazilian one "bilhão" as 10^9); else ``lang``
    normalized (:func:`claims.values.numbers.normalize_locale`: ``pt_br`` -> ``pt-BR``)."""
    if not lang or lang == "auto":
        return detect_locale(text)
    if lang.strip().lower() == "pt":
        return portuguese_variant(_WORD.findall(text[:20000].lower()))
    return normalize_locale(lang)
