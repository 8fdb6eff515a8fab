"""Other models known by where they stand, not by a version in their name: "Zephyr-Max
from rival Northwind AI scores 81.2%", "Northwind AI's rival Zephyr-Max", "o rival
Zephyr-Max, da Northwind AI", "Northwind Zephyr 3 from Northwind AI", "Zephyr Max 2 costs
$3". :mod:`claims.extract.models` finds names by their shape; these need their place, and
the caller keeps them only where no name found by its shape stands.

A name here is one to four words, the first capitalised, the others capitalised or
versions ("Zephyr-Max", "Zephyr Max 2", "Northwind Zephyr 3"); function words opening a
sentence ("The", "By", lexicon/<lang>/stop_caps.txt) are cut from its front; a name of
capitals only ("API") or opening with a word of lexicon/not_models.txt is none. A model's
shape is one word of hyphened capitals ("Zephyr-Max") or a version word (no year) after
two words ("Zephyr Max 2"). A name is another model when

- a rival word stands before it ("rival Zephyr-Max", "o rival Zephyr-Max", "Northwind AI's
  rival Zephyr-Max"; lexicon/<lang>/rival_words.txt), no lab preposition before that
  ("from rival Northwind AI" names a lab) and no "'s" after it, and it has a model's shape
  or a lab preposition or a model's verb follows ("rival Zephyr, from ...");
- a lab preposition and a lab follow it (lexicon/<lang>/lab_prepositions.txt), and a rival
  word stands before the lab ("Zephyr-Max from rival Northwind AI"), a model's verb after
  it ("Zephyr from Northwind scores"), or it has a version word after two words (hyphened
  capitals alone are no model here: a title's "Frontier-Class Multimodal from Mistral");
- a known lab, or its first word unless that is a family of lexicon/model_words.txt
  ("Mistral Large 3" is one name), stands right before it ("Northwind AI's Zephyr 3",
  "Northwind Zephyr 3"), and it has a version word or a model's verb follows;
- it has a model's shape and a model's verb follows ("Zephyr Max 2 costs",
  lexicon/<lang>/model_position_verbs.txt) or it owns a figure by "'s" ("Zephyr-Max's
  81.2%").

Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from claims.extract.lexicon import alternation, phrases, words
from claims.extract.models import MODEL_WORDS, NOT_MODELS
from claims.extract.rules import Named

_SP = r"[^\S\n]+"
# a word never ends with a dot: "GPT-3.5. Falcon 180B" is two names
_WORD = r"[A-Z](?:\w|\.(?=\w))*(?:-[A-Za-z0-9](?:\w|\.(?=\w))*)*"
_NAME = rf"{_WORD}(?:{_SP}(?:{_WORD}|\d+(?:\.\d+)?[A-Za-z]?(?![\w.%])))" + "{0,3}"
_LAB = rf"[A-Z][\w.&-]*(?:{_SP}[A-Z][\w.&-]*){{0,2}}"
_POSSESSIVE = r"(?:'s|’s|')"
# "Zephyr-Max", "Llama-Nemotron": capitalised parts joined by hyphens, no digit needed.
_HYPHENED = re.compile(r"^[A-Z][a-z]+(?:-[A-Z][A-Za-z]*)+$")
# a version word, not a year ("AI Index Report 2025")
_DIGIT_WORD = re.compile(r"(?<!\S)(?!(?:19|20)\d\d\b)\d+(?:\.\d+)?[A-Za-z]?(?!\S)")
# "Zephyr-Max's 81.2%", "Zephyr Max 2's $3": the name owns the figure after it.
_OWNS_FIGURE = re.compile(rf"{_POSSESSIVE}{_SP}[~≈$€£]?\d")


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    rival, prep = alternation("rival_words"), alternation("lab_prepositions")
    # "Northwind AI's rival Zephyr-Max", "o rival Zephyr-Max" (group "before": the word
    # before the rival word, a lab preposition there makes what follows a lab)
    after_rival = re.compile(
        rf"(?P<before>\b\w+{_SP})?(?:(?i:the|its|a|o|a|seu|sua){_SP})?"
        rf"(?i:{rival})(?:{_SP}(?i:model|modelo))?,?{_SP}(?:(?:o|a|the){_SP})?(?P<name>{_NAME})"
    )
    # "Zephyr-Max from rival Northwind AI", "o Zephyr-Max, da Northwind AI"
    before_lab = re.compile(
        rf"(?<![\w-])(?P<name>{_NAME}),?{_SP}(?:{prep}){_SP}(?:(?:the|a|o){_SP})?"
        rf"(?P<rival>(?i:{rival}){_SP})?(?P<lab>{_LAB})"
    )
    verbs = alternation("model_position_verbs")
    # a discourse aside between commas may stand before the verb ("Zephyr-Max, by
    # comparison, charges"; lexicon/<lang>/discourse_asides.txt)
    aside = rf"(?:,{_SP}(?i:{phrases('discourse_asides')}),)?"
    verb = re.compile(rf"{aside}{_SP}(?:(?i:{verbs}))\b")
    # after a lab ("from Northwind AI, scores") or a bracket of the name's, a comma may stand
    lab_verb = re.compile(rf"{aside},?{_SP}(?:(?i:{verbs}))\b")
    prep_after = re.compile(rf",?{_SP}(?:{prep}){_SP}")
    return after_rival, before_lab, verb, lab_verb, prep_after


def find_placed_models(text: str, labs: Iterable[str]) -> list[Named]:
    """Other models named by their place (rules in the module doc), in text order, as
    ``Named(start, end, "competitor", name)``; ``labs`` are the known organizations (the
    subjects' labs), whose names are never models themselves."""
    after_rival, before_lab, verb, lab_verb, prep_after = _patterns()
    known = sorted({x for x in labs if x}, key=len, reverse=True)
    # a lab's first word ("Northwind" of "Northwind AI"), unless it is a family's name
    # ("Mistral Large 3" is one name, not Mistral's "Large 3")
    firsts = {k.split()[0] for k in known if len(k.split()) > 1 and len(k.split()[0]) >= 4}
    lab_words = set(known) | (firsts - MODEL_WORDS)
    found: list[tuple[int, int]] = []
    prep = set(words("lab_prepositions"))
    for m in after_rival.finditer(text):
        before = (m.group("before") or "").strip().lower()
        name, end = m.group("name"), m.end("name")
        if before in prep or text.startswith(("'", "’"), end):
            continue  # "from rival Northwind AI", "rival Northwind AI's ...": a lab
        if _shaped(name) or prep_after.match(text, end) or verb.match(text, end):
            found.append(m.span("name"))
    for m in before_lab.finditer(text):
        name = m.group("name")
        if m.group("rival") or _shaped(name, hyphens=False) or lab_verb.match(text, m.end()):
            found.append(m.span("name"))
    if lab_words:
        alt = "|".join(re.escape(k) for k in sorted(lab_words, key=len, reverse=True))
        rx = re.compile(rf"(?<![\w-])(?:{alt}){_POSSESSIVE}?{_SP}(?P<name>{_NAME})")
        lab_parts = {w for k in known for w in k.split()}
        for m in rx.finditer(text):
            name = m.group("name")
            if name.split()[0] in lab_parts:
                continue  # "Labs" of "Vireo Labs", read from its first word
            if _shaped(name, lab_before=True, hyphens=False) or verb.match(text, m.end()):
                found.append(m.span("name"))
    for m in re.finditer(rf"(?<![\w-]){_NAME}", text):
        if _shaped(m.group(0)) and (verb.match(text, m.end()) or _OWNS_FIGURE.match(text, m.end())):
            found.append(m.span())
    return _clean(text, found, lab_words)


def find_subject_names(text: str, own_words: Iterable[list[str]]) -> list[Named]:
    """Other models named as a sentence's grammatical subject: a capitalised word and a
    whole version ("Nimbus 5 has 70 billion parameters", "a project known as Atlas 2 is
    training", :func:`_subject_name_re`), unless its words begin one of the article
    subject's names (``own_words``, lower-case words of each name: "Nimbus 5" of "Nimbus 5
    Pro" is the subject written short). In text order, as ``Named(..., "competitor", ...)``."""
    own = [list(w) for w in own_words]
    out = []
    for m in _subject_name_re().finditer(text):
        words = re.findall(r"[a-z0-9]+(?:\.[0-9]+)*", m.group("name").lower())
        if any(n[: len(words)] == words for n in own) or m.group("name").split()[0] in NOT_MODELS:
            continue
        out.append(Named(m.start("name"), m.end("name"), "competitor", m.group("name")))
    return out


@cache
def _subject_name_re() -> re.Pattern[str]:
    """A capitalised word and a whole version ("Nimbus 5") as a sentence's grammatical
    subject: at a sentence's or line's start (after a function word of
    lexicon/<lang>/stop_caps.txt, "The") or after a naming lead ("known as",
    lexicon/<lang>/naming_leads.txt), with a verb of lexicon/<lang>/subject_name_verbs.txt
    after it, an adverb allowed between ("Atlas 2 reportedly has")."""
    stop, leads = alternation("stop_caps"), phrases("naming_leads")
    verbs = alternation("subject_name_verbs")
    return re.compile(
        rf"(?:(?m:^)[^\S\n]*(?:[-*•][^\S\n]+)?|(?<=[.!?])[^\S\n]+|(?<![\w-])(?i:{leads}){_SP})"
        rf"(?:(?:{stop}){_SP})?(?P<name>[A-Z][a-z]{{2,}}{_SP}\d+(?:\.\d+)?)"
        rf"(?={_SP}(?:[a-z]+ly{_SP})?(?:{verbs})\b)"
    )


def _shaped(name: str, lab_before: bool = False, hyphens: bool = True) -> bool:
    """True for a model's shape: one word of hyphened capitals ("Zephyr-Max"; not with
    ``hyphens`` off, where a title's "Cost-Efficient Mid-Tier Model" stands) or a version
    word after two words ("Zephyr Max 2"); after a known lab one word will do ("Zephyr 3")."""
    if hyphens and _HYPHENED.match(name):
        return True
    return bool(_DIGIT_WORD.search(name)) and (lab_before or len(name.split()) >= 3)


def _clean(text: str, spans: list[tuple[int, int]], lab_words: set[str]) -> list[Named]:
    """The spans as names: leading sentence words and rival nouns cut ("By", "The",
    "Rival"), a lab's name or a name of one short word left out, overlaps kept once (the
    longer), in text order."""
    stop = set(words("stop_caps")) | {w.capitalize() for w in words("rival_words")}
    out: list[Named] = []
    for start, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        lead = re.match(r"(\S+)\s+", text[start:end])
        while lead and lead.group(1) in stop:
            start += lead.end()
            lead = re.match(r"(\S+)\s+", text[start:end])
        for lab in sorted(lab_words, key=len, reverse=True):  # "Vireo Aurora 2": Aurora 2
            if text.startswith(lab + " ", start) and start + len(lab) + 1 < end:
                start += len(lab) + 1
                break
        name = text[start:end]
        if name in stop or name in lab_words or len(name) < 3 or name.split()[0] in NOT_MODELS:
            continue
        if not re.search(r"[a-z]", name):
            continue  # "API", "SDK": an acronym alone is a product, not a model here
            continue
        if out and start < out[-1].end:
            continue
        out.append(Named(start, end, "competitor", name))
    return out


# (not "its rival GPT-5": whose rival is left open, as before, a yardstick)
_NOUN_BEFORE = re.compile(rf"(?:\b(?i:the|a|an|o|a|os|as|um|uma)|{_POSSESSIVE})\s+$")


def without_rival_nouns(text: str, markers: list[Named]) -> list[Named]:
    """Comparison ``markers`` without a rival word used as a noun ("the rival Zephyr-Max",
    "Northwind AI's rival", "o rival Zephyr-Max", "from rival Northwind AI"): a name after
    it is no yardstick of a comparison (as after "rivals GPT-4o") but the rival itself."""
    rivals = {w.lower() for w in words("rival_words")}
    preps = "|".join(re.escape(p) for p in words("lab_prepositions"))
    after_prep = re.compile(rf"\b(?:{preps})\s+$", re.I)
    out = []
    for m in markers:
        head = text[max(0, m.start - 12) : m.start]
        if m.name.strip().lower() in rivals and (
            _NOUN_BEFORE.search(head) or after_prep.search(head)
        ):
            continue
        out.append(m)
    return out
