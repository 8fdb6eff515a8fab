"""Model names in text, known to the subjects file or not ("Llama-3.3-70B-Instruct",
"Qwen2.5-72B", "o1-preview", "GLM-5", "Mistral Large 2", "Claude 3.5 Sonnet", "V3.1-Exp").

A figure next to a model the subjects file does not know is that model's, never the
article subject's, so attribution needs every model name, not only the subjects'. Rules:

- a joined name: letters (with hyphenated lowercase or capitalised parts) glued to a version
  by nothing or a hyphen ("GPT-4o", "Qwen2.5", "gpt-oss-120b", "o1-preview", "R1", "K2"),
  then any hyphenated suffixes ("-mini", "-Exp", "-0905", "-Instruct", "-70B");
- a spaced name: a family or product-line word from ``lexicon/model_words.txt``, then a
  version ("Llama 3", "Gemini 1.5 Pro", "Claude Opus 4.6", "Mistral Large 2"), or any
  capitalised word and a dotted version ("Orion 7.2");
- any capitalised word and a size ("Cirrus 12B", "Orca 7B"), unless the size goes on as a
  figure ("12B parameters", "12B-parameter");
- either may go on with capitalised line words and a size ("Claude 3.5 Sonnet", "Llama 3
  70B", "Llama 4 Maverick");
- a first word in ``lexicon/not_models.txt`` (licences, FP8, H100, "Table 2", "US$ 5")
  is no model; dates are never read as models (a month name takes no version here).

Input is text with hyphens normalised (:mod:`claims.extract.normalize`). Pure.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from claims.extract.lexicon import alternation, phrases, words
from claims.extract.rules import Named

_LEXICON = Path(__file__).with_name("lexicon")


def _words(name: str) -> frozenset[str]:
    lines = (_LEXICON / name).read_text(encoding="utf-8").splitlines()
    return frozenset(x.strip() for x in lines if x.strip() and not x.startswith("#"))


MODEL_WORDS = _words("model_words.txt")
# a spec label glued to its value ("Max Context Length65536", "Window128K") is no name
_GLUED_LABEL_HEADS = frozenset(
    v for w in _words("glued_labels.txt") if w[:1].isalpha() for v in (w, w.capitalize())
)
NOT_MODELS = _words("not_models.txt")
TAIL_WORDS = _words("model_tail_words.txt")

# A version: digits, maybe dotted, then a letter ("4o") or a glued size ("7B", "70B").
_VERSION = r"\d+(?:\.\d+)*(?:[a-z]|[BMT](?![A-Za-z]))?"
_SUFFIX = r"(?:-[A-Za-z0-9]+(?:\.\d+)?)*"
_SIZE = r"\d+(?:\.\d+)?[BMT]\b"
# Capitalised words that continue a name ("Sonnet", "Pro", "Instruct", "Maverick").
_TAIL_ALT = "|".join(sorted((re.escape(w) for w in TAIL_WORDS), key=len, reverse=True))
# A name never runs over a line end: a spec card's "Parameters" above "119B" is a label
# and a value, not a model "Parameters 119B".
_SP = r"[^\S\n]"
_TAIL = rf"(?:{_SP}(?:{_TAIL_ALT}|{_SIZE})(?=[\s,.;:)!?]|$))"
_JOINED = re.compile(
    rf"(?=[A-Za-z])(?<![\w$./-])(?P<head>[A-Za-z][A-Za-z]*(?:-[A-Za-z]+)?)-?(?P<ver>{_VERSION}){_SUFFIX}"
    rf"(?![\w.]\d)(?P<tail>{_TAIL}{{0,2}})"
)
_FAMILY_LOWER = frozenset(w.lower() for w in MODEL_WORDS if w[:1].isupper())
_FAMILY_ALT = "|".join(sorted((re.escape(w) for w in MODEL_WORDS), key=len, reverse=True))
_SPACED = re.compile(
    rf"(?=[A-Z])(?<![\w$./-])(?P<head>(?:(?:{_FAMILY_ALT}){_SP}){{0,2}}(?:{_FAMILY_ALT})){_SP}(?P<ver>{_VERSION}){_SUFFIX}"
    rf"(?![\w.]\d|\s*%)(?P<tail>{_TAIL}{{0,2}})"
    rf"|(?=[A-Z])(?<![\w$./-])(?P<head2>[A-Z][a-z]+){_SP}(?P<ver2>\d+\.\d+){_SUFFIX}(?![\w.]\d|\s*%)"
    # "Zephyr 2 Pro", "Nova 3 Mini": any capitalised word, a whole version and a tier word
    rf"|(?=[A-Z])(?<![\w$./-])(?P<head3>[A-Z][a-z]+){_SP}(?P<ver3>\d+)(?P<tail3>{_TAIL}{{1,2}})"
    # "Cirrus 12B", "Orca 7B": a capitalised word and a size is a name, never a figure of
    # its own (not "Cirrus 12B parameters"/"12B-parameter": that size is a figure)
    rf"|(?=[A-Z])(?<![\w$./-])(?P<head4>[A-Z][a-z]+){_SP}(?P<ver4>{_SIZE})"
    r"(?!-|\s+(?:param|parâm|de\s+par|tokens?\b|total|active|ativos))"
)
_FAMILY_BEFORE = re.compile(rf"(?<![\w-])(?:{_FAMILY_ALT})\s$")
# What a figure looks like right after a version: "Llama 3 70B" keeps 70B as its size, but
# "GPT-5 80%" or "R1 2,029" is a name followed by a figure, not part of it.
_FIGURE_AFTER = re.compile(r"\s*(?:%|x\b|[kKMBT]\b|" + alternation("count_nouns") + r")")


def find_models(text: str) -> list[Named]:
    """Every model-like name in ``text`` (rules in the module doc), in text order, as
    ``Named(start, end, "competitor", name)``; the caller drops those overlapping the
    subjects' own names and benchmarks."""
    found: dict[int, Named] = {}
    for rx, anchor in ((_SPACED, _SPACED_ANCHOR), (_JOINED, _JOINED_ANCHOR)):
        for m in _windowed(rx, anchor, text):
            g = m.groupdict()
            head = g.get("head") or g.get("head2") or g.get("head3") or g.get("head4") or ""
            first = head.split()[0].split("-")[0] if head else ""
            family = _FAMILY_BEFORE.search(text, max(0, m.start() - 30), m.start())
            if (
                not head
                or (first in NOT_MODELS or head.split()[0] in NOT_MODELS)
                and not (
                    rx is _JOINED and family  # "DeepSeek R1", "MiniMax M1": a family's version
                )
            ):
                continue
            if rx is _JOINED and not _joined_ok(m, head):
                continue
            ver = next(k for k in ("ver2", "ver3", "ver4", "ver") if g.get(k))
            ver_end = m.end(ver)
            if _FIGURE_AFTER.match(text, ver_end):
                continue
            start, end = m.start(), m.end()
            if rx is _JOINED and family:  # "DeepSeek V2.5", "Kimi K2"
                start = family.start()
            if any(n.start <= start < n.end or start <= n.start < end for n in found.values()):
                continue
            found[start] = Named(start, end, "competitor", text[start:end])
    return [found[k] for k in sorted(found)]


# Cheap first passes: a name needs a letter glued to a digit, or a family word then a digit
# (a whole-text pass of the full patterns costs more than the rest of extraction's names).
_JOINED_ANCHOR = re.compile(r"[A-Za-z]-?\d")
_SPACED_ANCHOR = re.compile(rf"(?:{_FAMILY_ALT}|[A-Z][a-z]+)\s\d")


def _windowed(rx: re.Pattern[str], anchor: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Matches of ``rx`` in windows of 60 characters around each ``anchor`` hit, merged."""
    windows: list[list[int]] = []
    for a in anchor.finditer(text):
        lo, hi = max(0, a.start() - 60), a.end() + 60
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = hi
        else:
            windows.append([lo, hi])
    out: list[re.Match[str]] = []
    for lo, hi in windows:
        out += rx.finditer(text, lo, min(hi, len(text)))
    return out


def _joined_ok(m: re.Match[str], head: str) -> bool:
    """A joined name needs a head that reads as a name: capitalised ("GPT", "Qwen", "R"),
    a family word of ``lexicon/model_words.txt`` in lower case (an API id: "grok-3"),
    or lowercase with a hyphen or 1-2 letters ("gpt-oss", "o"); a plain lowercase word glued
    to digits ("mp3", "covid19") or a year ("in2024") is no model."""
    ver = m.group("ver")
    if len(ver) == 4 and ver[:2] in ("19", "20"):
        return False  # a year glued to a word ("Released2024-07-18"), not a version
    if head in _GLUED_LABEL_HEADS and len(ver) >= 3:
        return False  # "Length65536": a flattened spec table's label and its value
    if head[0].isupper() or head in _FAMILY_LOWER:
        return True  # "GPT-4o"; an API id of a known family ("grok-3", "qwen3", "gpt-4o")
    return "-" in head or len(head) <= 2 and m.group("ver")[0].isdigit() and len(head) == 1


# "its predecessor, Zephyr 2, had ...", "o antecessor GLM-4.5": the relation word is
# another model, and so is a capitalised name right after it (lexicon/*/relations.txt).
_RELATION_FIRST = "".join(sorted({w[0].lower() + w[0].upper() for w in words("relations")}))
_RELATION = re.compile(
    rf"(?<!\w)(?=[{_RELATION_FIRST}])(?P<word>{alternation('relations')})\b"
    r"(?:,?\s+(?:the\s+|o\s+|a\s+)?(?P<name>[A-Z][\w.-]*(?:\s(?:[A-Z][\w.-]*|\d+(?:\.\d+)?[A-Za-z]?)){0,2}))?",
    re.I,
)


def find_related_models(text: str) -> list[Named]:
    """Other models named by a relation ("its predecessor", "the previous version", "o
    antecessor"), each the relation word and, as a second name, a capitalised name
    right after it ("predecessor, Zephyr 2"): ``Named(..., "relation", word)`` and
    ``Named(..., "competitor", name)``."""
    out: list[Named] = []
    for m in _RELATION.finditer(text):
        out.append(Named(m.start(), m.end("word"), "relation", m.group("word")))
        if m.group("name") and m.group("name")[:1].isupper():
            out.append(Named(m.start("name"), m.end("name"), "competitor", m.group("name")))
    return out


_NAME_AFTER_RELATION = re.compile(r",?\s*(?:(?:the|o|a)\s+)?", re.I)


def names_after_relation(text: str, relation: Named, name: Named) -> bool:
    """True when ``name`` is written right after the relation word ``relation``, a comma
    and an article between at most ("predecessor, Zephyr 2", "o antecessor, o GLM-4.5")."""
    return 0 <= name.start - relation.end <= 6 and bool(
        _NAME_AFTER_RELATION.fullmatch(text, relation.end, name.start)
    )


# "trails Orca 5", "beats Nova 4", "vs. Zephyr 2": after a comparison word a capitalised
# name with a whole version is a model (elsewhere "Table 5" or "Step 2" would not be).
_COMPARED_NAME = re.compile(
    r"(?:the\s+|o\s+|a\s+)?(?P<name>[A-Z][\w-]*\s\d+(?:\.\d+)?)(?![\w.,%]|\s*(?:%|[kKMBT]\b))"
)


def find_compared_models(text: str, markers: list[Named]) -> list[Named]:
    """Names right after comparison words (``markers``) that look like a model with a
    version ("Orca 5"), as ``Named(..., "competitor", name)``."""
    out = []
    for mk in markers:
        m = _COMPARED_NAME.match(text, mk.end)
        if m and m.group("name").split()[0] not in NOT_MODELS:
            out.append(Named(m.start("name"), m.end("name"), "competitor", m.group("name")))
    return out


def every_occurrence(text: str, names: list[Named]) -> list[Named]:
    """Each found model name (3+ characters) wherever else it is written in ``text``: a
    model recognised once ("trails Orca 5") is the same model in "Orca 5 costs $15"."""
    seen = {(n.start, n.end) for n in names}
    found = sorted({n.name for n in names if n.kind == "competitor" and len(n.name) >= 3}, key=len)
    if not found:
        return []
    alt = "|".join(re.escape(n) for n in reversed(found))  # longest first
    return [
        Named(m.start(), m.end(), "competitor", m.group(0))
        for m in re.finditer(rf"(?<![\w-])(?:{alt})(?![\w-]|\.\d)", text)
        if (m.start(), m.end()) not in seen
    ]


# "it matches or beats the 405B on ...", "o 32B": a model called by its size alone (not
# "the 405B parameters", "the 70B model", "a 70B dense model").
_SIZE_NAME = re.compile(
    r"(?:(?<=\bthe\s)|(?<=\bThe\s)|(?<=\bo\s)|(?<=\bO\s))(?P<size>\d+(?:\.\d+)?[BT])\b"
    r"(?!\s*(?:-|" + phrases("size_name_nouns") + r"))"
)
# "The 9B model also leads", "o modelo de 9B": a model named by a size with a model noun;
# another model only when the subject's own name carries a size (27B) and this one differs.
_SIZE_MODEL_NAME = re.compile(
    r"(?:(?<=\bthe\s)|(?<=\bThe\s)|(?<=\bthis\s)|(?<=\bThis\s))(?P<size>\d+(?:\.\d+)?[BT])"
    r"(?=\s+(?:model|variant|version)\b)"
    r"|(?<=\b[Oo]\smodelo\sde\s)(?P<size2>\d+(?:[.,]\d+)?[BT])\b"
)
_OWN_SIZE = re.compile(r"\d+(?:\.\d+)?[bt]")


def find_size_names(text: str, own_sizes: set[str]) -> list[Named]:
    """Models called by their size alone ("the 405B"), except the subjects' own sizes
    (``own_sizes``, lower-case like "70b"): ``Named(..., "competitor", "405B")``. When a
    subject's own name carries a size, "the 9B model" of another size is another model too."""
    out = [
        Named(m.start("size"), m.end("size"), "competitor", m.group("size"))
        for m in _SIZE_NAME.finditer(text)
        if m.group("size").lower() not in own_sizes
    ]
    if any(_OWN_SIZE.fullmatch(w) for w in own_sizes):
        for m in _SIZE_MODEL_NAME.finditer(text):
            g = "size" if m.group("size") else "size2"
            if m.group(g).lower().replace(",", ".") not in own_sizes:
                out.append(Named(m.start(g), m.end(g), "competitor", m.group(g)))
    return out


# Between a figure and the model owning it: unit words only (a comparison word such as
# "33% abaixo do K3" makes K3 the yardstick, not the owner), then of/for/do/da and maybe
# an article or possessive ("68% for its predecessor", "450 tokens/s of GPT-5", "68% do
# antecessor", "9 bilhões de parâmetros do Orca 7B").
_UNIT_WORD = phrases("owner_link_units")
FIGURE_OWNER_LINK = (
    rf"(?:\s+(?:{_UNIT_WORD}))*?\s+(?:{alternation('owner_prepositions')})\s+"
    r"(?:(?:the|its|their|o|a|os|as|seu|sua|seus|suas)\s+)?"
)
_OWNED_FIGURE_BEFORE = re.compile(rf"\d%?(?:[kKMBT]\b)?{FIGURE_OWNER_LINK}$")


def figure_owners(text: str, names: list[Named]) -> list[Named]:
    """The ``names`` that only own the figure right before them ("up from 68% for its
    predecessor Orca 7B", "contra 68% do antecessor Orca 7B"): the name (or relation word)
    joined to a figure by :data:`FIGURE_OWNER_LINK`, and a name right after such a relation
    word. Named in passing, such a model is not the topic of its sentence's other figures."""
    out: list[Named] = []
    for n in names:
        head = text[max(0, n.start - 60) : n.start]
        after_owner = any(o.kind == "relation" and names_after_relation(text, o, n) for o in out)
        if after_owner or _OWNED_FIGURE_BEFORE.search(head):
            out.append(n)
    return out


# The tiers a lab sells one model line in ("Magistral Small" / "Magistral Medium"): the
# tail words that are sizes or grades, not versions or forms.
_TIERS = frozenset(words("tiers"))


# A bare tier right before a bracket of figures ("Nano (31.6B total / 3.6B active)").
_BARE_TIER = re.compile(r"(?<![\w.-])(?P<tier>[A-Z][a-z]+)(?=\s*\()")
# Between a family's name and its members' tiers: no sentence end, at most this far.
_FAMILY_REACH = 200


def find_tier_members(text: str, families: list[tuple[int, int, str]]) -> list[Named]:
    """Members of a family named by their tier alone before a bracket of their figures
    ("Nemotron 3, in three sizes, Nano (31.6B total / 3.6B active), Super (120B / 12B
    active)"): ``Named(start, end, "competitor", "Nemotron 3 Super")`` at the tier, the
    family being the nearest of ``families`` ((start, end, name) of model names) before
    it in its sentence. A tier is a word of ``lexicon/tiers.txt``; the caller decides
    whether the full name is a subject."""
    out: list[Named] = []
    for m in _BARE_TIER.finditer(text):
        if m.group("tier") not in _TIERS:
            continue
        before = [f for f in families if f[1] <= m.start() and m.start() - f[1] <= _FAMILY_REACH]
        if not before:
            continue
        start, end, name = max(before, key=lambda f: f[1])
        between = text[end : m.start()]
        if re.search(r"[.!?]\s|\n", between) or name.split()[-1] in _TIERS:
            continue
        out.append(Named(m.start(), m.end(), "competitor", f"{name} {m.group('tier')}"))
    return out


def find_sibling_tiers(text: str, own_names: list[str]) -> list[Named]:
    """Siblings of a subject in another tier, named without a version: the subject's name
    with its last word, a tier (``Small``), swapped for another tier ("Magistral Medium" in
    an article on "Magistral Small"); ``Named(..., "competitor", name)``. A bare tier is no
    name (the head must be written), and the subject's own names are not siblings."""
    out: list[Named] = []
    own = {n.lower() for n in own_names}
    seen: set[tuple[int, int]] = set()
    for name in own_names:
        # the tier after a space or a hyphen: "Phi-3 Mini", "phi-3-mini" (any case)
        split = re.fullmatch(r"(.+?[^\W_])(?:[^\S\n]|-)([^\W\d_]+)", name)
        if split is None or split.group(2).capitalize() not in _TIERS:
            continue
        head = re.escape(split.group(1))
        tier = split.group(2).capitalize()
        tiers = "|".join(sorted(_TIERS - {tier, tier.lower()}, key=len, reverse=True))
        pattern = rf"(?<![\w-]){head}(?:{_SP}|-)(?:{tiers})(?![\w-])"
        for m in re.finditer(pattern, text, re.I):
            if m.group(0).lower() not in own and (m.start(), m.end()) not in seen:
                seen.add((m.start(), m.end()))
                out.append(Named(m.start(), m.end(), "competitor", m.group(0)))
    return out


# "Cirrus 12B", "Orion 7.2": a single capitalised word and a version or size, whose word
# alone names that model once the full name was written ("..., Cirrus ships under ...").
_SHORTENABLE = re.compile(rf"(?P<head>[A-Z][a-z]{{2,}}){_SP}(?:{_VERSION}|{_SIZE})")


def find_short_forms(text: str, names: list[Named], taken_words: set[str]) -> list[Named]:
    """The first word of another model's name written alone after that name ("Cirrus"
    after "Cirrus 12B"): ``Named(start, end, "competitor", full name)`` for each later
    bare occurrence. Only for names of one word and a version or size, whose word is no
    family of ``lexicon/model_words.txt`` ("Llama" alone is a family, not "Llama 3"), not
    in ``lexicon/not_models.txt``, not in ``taken_words`` (the lower-cased words of the
    subjects' own names: "Tern" of a subject "Tern 30B" is that subject's, not another
    model's), and shared by no other found name ("Orca" of "Orca 7B" and "Orca 13B" says
    neither). A bare word followed by a figure-like token ("Cirrus 2") is not it."""
    heads: dict[str, set[str]] = {}
    first_end: dict[str, int] = {}
    for n in names:
        m = _SHORTENABLE.fullmatch(n.name)
        if n.kind != "competitor" or m is None:
            continue
        head = m.group("head")
        heads.setdefault(head, set()).add(n.name)
        first_end[head] = min(first_end.get(head, len(text)), n.end)
    out: list[Named] = []
    for head, full in heads.items():
        if (
            len(full) != 1
            or head in MODEL_WORDS
            or head in NOT_MODELS
            or head.lower() in taken_words
        ):
            continue
        name = next(iter(full))
        rx = re.compile(rf"(?<![\w.-]){re.escape(head)}(?![\w-]|{_SP}*\d|\.\d)")
        out += [
            Named(m.start(), m.end(), "competitor", name)
            for m in rx.finditer(text, first_end[head])
            if not any(o.start <= m.start() < o.end for o in names)
        ]
    return out


# A capitalised word right after a model's name ("Llama 4 Behemoth"): maybe its codename.
_CODENAME_AFTER = re.compile(rf"{_SP}+(?P<w>[A-Z][a-z]{{3,}})\b")
# A codename written alone, after an article or "of" ("o Behemoth possui", "the Behemoth").
_CODENAME_LEAD = r"(?<![\w.-])(?:o|a|os|as|do|da|no|na|the|of|este|esse)\s+"


def find_codenames(text: str, names: list[Named], taken_words: set[str]) -> list[Named]:
    """Another model named by a codename after its family and version ("Llama 4 Behemoth",
    a word no list knows as a model's tail) and later by that word alone after an article
    ("o Behemoth possui ..."): ``Named(start, end, "competitor", "Llama 4 Behemoth")`` for
    the full name and for each later bare occurrence. Only a word written alone again
    after an article is a codename (not "Llama 4 Then ..."); a word of
    ``lexicon/model_tail_words.txt``, ``model_words.txt``, ``not_models.txt`` or of the
    subjects' own names (``taken_words``) is none."""
    out: list[Named] = []
    seen: set[str] = set()
    for n in names:
        m = _CODENAME_AFTER.match(text, n.end)
        if n.kind != "competitor" or m is None:
            continue
        word = m.group("w")
        if (
            word in seen
            or word in TAIL_WORDS
            or word in MODEL_WORDS
            or word in NOT_MODELS
            or word.lower() in taken_words
        ):
            continue
        rx = re.compile(rf"{_CODENAME_LEAD}(?P<w>{re.escape(word)})(?![\w-])", re.I)
        later = [x for x in rx.finditer(text, m.end()) if x.group("w") == word]
        if not later:
            continue
        seen.add(word)
        full = f"{n.name} {word}"
        out.append(Named(n.start, m.end(), "competitor", full))
        out += [Named(x.start("w"), x.end("w"), "competitor", full) for x in later]
    return out


@cache
def _tier_phrase_re() -> re.Pattern[str]:
    tiers = "|".join(sorted(_TIERS, key=len, reverse=True))
    nouns = alternation("tier_phrase_nouns")
    return re.compile(
        rf"\b(?i:the|this|its|o|a|este|esta|esse|essa)\s+(?:(?P<t1>{tiers})\s+(?i:{nouns})"
        rf"|(?i:{nouns})\s+(?P<t2>{tiers}))\b"
    )


def find_tier_phrases(text: str, names: list[tuple[int, int, str]]) -> list[Named]:
    """Siblings named by their tier and a model noun ("The Pro model is a behemoth", "o
    modelo Flash", ``lexicon/<lang>/tier_phrase_nouns.txt``): ``Named(start, end,
    "competitor", full name)``, the full name being the nearest model named before it
    (``names``: (start, end, name)) whose last word is that tier ("DeepSeek-V4-Pro"). A tier
    no model named before ends with is no name."""
    out: list[Named] = []
    for m in _tier_phrase_re().finditer(text):
        tier = (m.group("t1") or m.group("t2")).lower()
        owners = [
            n for n in names if n[1] <= m.start() and re.split(r"[\s-]", n[2])[-1].lower() == tier
        ]
        if owners:
            owner = max(owners, key=lambda n: n[1])
            out.append(Named(m.start(), m.end(), "competitor", owner[2]))
    return out
