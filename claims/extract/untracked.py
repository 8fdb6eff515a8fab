"""Names an article gives that match no tracked subject, for what attribution says about a
figure it leaves without one: "By comparison, Aurora charges $5 ..." (a sentence set
against the one before, about a named thing that is not the subject), and "Halcyon 9
scores 78.4%" read before Halcyon 9 is tracked ("names 'Halcyon 9', which is not a
tracked subject" rather than "no model named").

Openers are lexicon/<lang>/comparison_openers.txt (or a name then an aside of
discourse_asides.txt: "Zephyr, by comparison, charges ..."); function words and pronouns that open
a clause (lexicon/<lang>/stop_caps.txt, not_orgs.txt) name nothing. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from claims.extract.lexicon import alternation, words
from claims.extract.models import NOT_MODELS

# The end of every warning naming such a thing (the CLI groups candidates by it).
NOT_TRACKED = "which is not a tracked subject"

_SP = r"[^\S\n]+"
_CAPS = rf"[A-Z][\w.-]*(?:{_SP}(?:[A-Z][\w.-]*|\d+(?:\.\d+)?[A-Za-z]?(?![\w.%])))*"
# "Halcyon 9", "Zephyr Max 2", "Orion-5": a capitalised word and a version, or hyphened.
_MODEL_LIKE = re.compile(
    rf"(?<![\w.-])[A-Z][a-z][\w-]*(?:{_SP}[A-Z][\w-]*)?{_SP}\d+(?:\.\d+)?[A-Za-z]?(?![\w.%,])"
    r"|(?<![\w.-])[A-Z][a-z]+(?:-[A-Z][A-Za-z]*)+(?![\w-])"
)


@cache
def _opener() -> re.Pattern[str]:
    return re.compile(
        rf"\W*(?P<cue>(?i:{alternation('comparison_openers')}))\b,?\s*"
        rf"(?:(?i:the|o|a|os|as){_SP})?(?P<name>{_CAPS})?"
    )


@cache
def _aside_opener() -> re.Pattern[str]:
    # "Zephyr, by comparison, charges", "Rival Zephyr from Northwind AI, meanwhile,
    # scored", "O rival Zephyr, por sua vez, custa": a name (no rival noun, no article)
    # opening the sentence, maybe its lab, then a discourse aside between commas and a
    # model's verb (lexicon/<lang>/model_position_verbs.txt)
    return re.compile(
        rf"\W*(?:(?i:the|o|a){_SP})?(?:(?i:{alternation('rival_words')}){_SP})?(?P<name>{_CAPS})"
        rf"(?:,?{_SP}(?:{alternation('lab_prepositions')}){_SP}{_CAPS})?"
        rf",{_SP}(?P<cue>(?i:{alternation('discourse_asides')})),"
        # a model's verb after it: "Smith, however, said ..." names a person
        rf"{_SP}(?i:{alternation('model_position_verbs')})\b"
    )


@cache
def _not_names() -> frozenset[str]:
    return frozenset(words("stop_caps")) | frozenset(words("not_orgs"))


def contrasted_name(sentence: str) -> tuple[str, str, int] | None:
    """(cue as written, name, the name's offset in ``sentence``) for a sentence opened by a
    comparison cue whose clause then opens with a capitalised name ("By comparison, Aurora
    charges ...", "Em comparação, o Zephyr obtém ..."), else ``None`` ("In comparison, the
    model ...", "Em comparação, ele ..."); likewise for a sentence opened by a name and a
    discourse aside between commas and a model's verb ("Zephyr, by comparison, charges
    ...", "O rival Zephyr, por sua vez, custa ...": lexicon/<lang>/discourse_asides.txt)."""
    m = _opener().match(sentence)
    if m is None or not m.group("name"):
        m = _aside_opener().match(sentence)
    if m is None or not m.group("name"):
        return None
    name = m.group("name")
    if name.split()[0] in _not_names():
        return None
    return m.group("cue"), name, m.start("name")


def untracked_names(text: str, taken: Iterable[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Model-like names in ``text`` ((start, end, name), text order): a capitalised word or
    two and a version ("Halcyon 9", "Zephyr Max 2"), or hyphened capitals ("Zephyr-Max"),
    not overlapping ``taken`` (benchmarks, dates, labs) nor opening with a word of
    lexicon/not_models.txt ("Apache 2.0"); for warnings only, never to attribute a figure."""
    spans = list(taken)
    out = []
    for m in _MODEL_LIKE.finditer(text):
        first = m.group(0).split()[0]
        if first in _not_names() or first in NOT_MODELS or first.split("-")[0] in NOT_MODELS:
            continue
        if any(a < m.end() and m.start() < b for a, b in spans):
            continue
        out.append((m.start(), m.end(), m.group(0)))
    return out
