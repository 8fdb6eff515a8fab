"""Which subject each candidate claim is about: the rules of :func:`claims.extract.extractor.extract`,
applied to all candidates of an article at once (some rules learn from other candidates).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from typing import Protocol

from claims.extract.candidates import Candidate
from claims.extract.claimants import ClaimantMention
from claims.extract.dates import DateSpan
from claims.extract.document import Document, Line
from claims.extract.lexicon import alternation, patterns, phrases
from claims.extract.models import FIGURE_OWNER_LINK, names_after_relation
from claims.extract.name_sizes import contradicts_size, name_size
from claims.extract.rules import RELEASE_KW, Named, versus_first
from claims.extract.segment import Segments, Sentence
from claims.extract.untracked import NOT_TRACKED, contrasted_name, untracked_names
from claims.subjects.references import Mention, SubjectIndex
from claims.values.value import Value

_RELATIVE_START = re.compile(r"(?:" + phrases("relative_pronouns") + r")\b", re.I)
# A clause describing the name just before it: "..., atrás do GPT-5, com 74,9%".
_WITH_START = re.compile(r"(?:" + alternation("describing_openers") + r")\b", re.I)
# A participle clause ("..., alcançando 69%") and a list of examples before it ("modelos
# como o X e o Y"): the participle describes the sentence's subject, not the last example.
_PARTICIPLE_START = re.compile(r"(?:" + alternation("score_participles") + r")\b", re.I)
_EXAMPLES_BEFORE = re.compile(
    r"\b(?:" + phrases("example_openers") + r")\s+(?:(?:o|a|os|as|the)\s+)?"
    r"[^.;:()]*$",
    re.I,
)
# A sentence whose grammatical subject points back to a model named before it.
_ANAPHOR_START = re.compile(
    # an introductory phrase may come first: "Released December 6, 2024, it matches ..."
    r"(?:[^,.;:]{1,40},\s*(?:[^,.;:]{1,12},\s*)?(?=(?:it|the\s+model|o\s+modelo|ele)\b))?"
    r"\W*(?:(?:the|this|that)\s+(?:new\s+)?model|its?|(?:o|este|esse)\s+(?:novo\s+)?modelo|ele)\b",
    re.I,
)
# "In comparison, ...", "Em comparação, ...": a sentence set against the one before.
_CONTRAST_OPENER = re.compile(r"\W*(?:" + alternation("comparison_openers") + r")\b", re.I)
# Per-candidate warning of a figure whose sentence names no model at all (the CLI tells
# it apart from a model that the subjects file lacks).
NO_MODEL_NAMED = "no model named in this sentence"
# Per-candidate warning of a figure given to another model (its name follows, as written).
OTHER_MODEL = "another model's figure"
# Per-candidate warning of a parameter count far from the size the subject's name states.
NOT_OWN_SIZE = "another size than the subject's name states"


# A figure ending right before a comparison word: that word joins two figures ("56.1 vs").
_FIGURE_END = re.compile(r"[(,:]\s*\d+(?:[.,]\d+)?\s*%?\s*$")
# Dates of an event (a release) belong to the model the clause says was released.
_DATED = frozenset({"release_date", "weights_release_date"})


class ArticleContext(Protocol):
    """What attribution needs from the article (built by :mod:`claims.extract.extractor`)."""

    text: str
    seg: Segments
    index: SubjectIndex
    mentions: list[Mention]
    comparative_mentions: list[Mention]
    competitors: list[Named]
    figure_owners: list[Named]
    named_competitors: list[Named]
    generics: list[Named]
    claimants: list[ClaimantMention]
    doc: Document
    comparatives: list[Named]
    benches: list[Named]
    date_spans: list[DateSpan]

    def sentence_claimant(self, pos: int) -> str | None: ...


@dataclass(frozen=True)
class Decision:
    """What a strategy decides: the ``subject`` slug (``None`` for another model's figure,
    then ``null`` is ``hard`` (a named model) or ``soft`` (a generic "a dense model")) and
    ``how``, the name reported on the candidate; ``other`` names that other model as
    written ("Orca 7B"): every ``how="other"`` names one, while a generic phrase's figure
    is ``how="generic"`` and names none; ``note`` is a warning for the candidate."""

    subject: str | None
    how: str
    null: str = ""
    other: str = ""
    note: str = ""


@dataclass
class _Article:
    """What the strategies read: the article context, its named entities by start, the
    default subject, and what earlier passes learnt (claimant -> subject, where each
    mention is: paragraph and claimant)."""

    ctx: ArticleContext
    default_subject: str | None
    entities: list[tuple[int, int, str, Mention | Named]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    claimant_subject: dict[str, str] = field(default_factory=dict)
    where: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    headings: list[tuple[Line, int, bool]] = field(default_factory=list)
    other_sections: list[tuple[int, int]] = field(default_factory=list)


Strategy = Callable[[Candidate, _Article], "Decision | None"]


_VS_NEXT = re.compile(
    r"\s*(?:vs\.?|" + alternation("versus_words") + r")\s*[~≈]?\s*(?:US)?[$€£]?\d", re.I
)


def _versus_pair(c: Candidate, a: _Article) -> Decision | None:
    """ "X beats Y on GPQA (83.1% vs. 81.4%)", "supera o Y no MMLU (89,1% contra 87,3%)": in
    a pair of figures joined by vs/contra, the first is the model named before the
    sentence's comparison word, the second the model named after it."""
    t, s = a.ctx.text, c._sentence
    assert s is not None
    if _VS_NEXT.match(t, c.end):
        first_start = c.start
    else:
        first = versus_first(t, c.start, s.start)
        if first is None:
            return None
        first_start = first
    # not the "vs" joining an earlier pair of figures ("on GPQA (56.1 vs 50.6) and MATH
    # (80.4 vs 74.6)": the comparison word is "surpasses", before both pairs)
    markers = [
        m
        for m in a.ctx.comparatives
        if s.start <= m.start
        and m.end <= first_start
        and not _FIGURE_END.search(t, s.start, m.start)
    ]
    if not markers:
        return None
    mark = markers[-1]
    if first_start == c.start:  # the first of the pair: the model before the comparison
        named: list[Mention | Named] = [*a.ctx.mentions, *a.ctx.named_competitors]
        before = [n for n in named if s.start <= n.start and n.end <= mark.start]
        owner = max(before, key=lambda n: n.start) if before else None
    else:  # the second: the model after the comparison word
        named = [*a.ctx.comparative_mentions, *a.ctx.mentions, *a.ctx.competitors]
        after = [n for n in named if mark.end <= n.start < first_start]
        owner = min(after, key=lambda n: n.start) if after else None
    if owner is None:
        return None
    if isinstance(owner, Mention):
        return Decision(owner.slug, "versus") if owner.kind == "subject" else None
    return Decision(None, "other", "hard", _model_name(owner, a.ctx))


def _own_size(c: Candidate, a: _Article) -> Decision | None:
    """A parameter count that is itself a subject's mention owns it: the subject's size
    among its siblings' ("3B" of "1B e 3B", :mod:`claims.extract.size_lists`)."""
    if c.attribute != "total_params":
        return None
    for m in a.ctx.mentions:
        if (m.start, m.end) == (c.start, c.end) and m.kind == "subject":
            return Decision(m.slug, "listed")
    return None


# A family's name, then a family word ("the Nemotron 3 family"), or after one ("a
# família Gemma 3"): lexicon/<lang>/family_words.txt.
_FAMILY_WORD_AFTER = re.compile(r"\s+(?:" + alternation("family_words") + r")\b", re.I)
_FAMILY_WORD_BEFORE = re.compile(
    r"\b(?:" + alternation("family_words") + r")\s+(?:d[aoe]\s+)?$", re.I
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _family_release(c: Candidate, a: _Article) -> Decision | None:
    """A release date of a family ("NVIDIA debuted the Nemotron 3 family of open models in
    December 2025, with Nemotron 3 Nano as the first available release") is the release
    of the subject its sentence names after the date, when the subject's name begins with
    the family's and no other year follows the date in the sentence."""
    if c.attribute not in _DATED:
        return None
    t, s = a.ctx.text, c._sentence
    assert s is not None
    cs = s.clause_bounds(c.start)[0]
    fams = [
        n
        for n in a.ctx.competitors
        if cs <= n.start
        and n.end <= c.start
        and (
            _FAMILY_WORD_AFTER.match(t, n.end)
            or _FAMILY_WORD_BEFORE.search(t, max(0, n.start - 20), n.start)
        )
    ]
    if not fams or _YEAR.search(t, c.end, s.end):
        return None
    family = t[fams[-1].start : fams[-1].end].lower() + " "
    for m in a.ctx.mentions:
        if (
            m.kind == "subject"
            and c.end <= m.start < s.end
            and t[m.start : m.end].lower().startswith(family)
        ):
            return Decision(m.slug, "family")
    return None


def _named_owner(c: Candidate, a: _Article) -> Decision | None:
    """A name right before a bracket holding the figure ("GPT-4o-mini (~82%)"), right
    after it with of/do/da ("os 4,1% do GPT-4.1"), or in a bracket right after the noun
    the figure sizes ("a 12-billion-parameter model (Orca-12B-Base)") owns it."""
    owner = _bracket_owner(c, a.ctx) or _of_owner(c, a.ctx) or _bracketed_name_after(c, a.ctx)
    if owner is None:
        return None
    if isinstance(owner, Mention):
        return Decision(owner.slug, "bracket")
    return Decision(None, "other", "hard", _model_name(owner, a.ctx))


def _clause_entity(c: Candidate, a: _Article) -> Decision | None:
    """The nearest entity before the figure in its clause: a subject (or the subject a
    generic phrase is in apposition to), else another model (hard) or a generic one (soft);
    with none before, the first subject named later in the clause (for a release date, the
    first model named later: another model's date is not the subject's)."""
    assert c._sentence is not None
    cs, ce = c._sentence.clause_bounds(c.start)
    if c.attribute in _DATED and _fronted_date(c, cs, ce, a.ctx.text):
        # "No começo de agosto, a OpenAI liberou ... desde o GPT-2": a date alone before
        # its comma is the time of the clause after it
        ce = c._sentence.clause_bounds(ce + 1)[1]
    lo, hi = bisect.bisect_left(a.starts, cs), bisect.bisect_left(a.starts, ce)
    near = a.entities[lo:hi]
    around = [e for e in near if e[2] == "generic" and e[0] < c.start and c.end <= e[1]]
    if around and _appositive_of(around[0][0], a.ctx) is None:
        # "the cost of a 17B model": no model's figure
        return Decision(None, "generic", "hard")
    before = [e for e in near if e[1] <= c.start]
    if before:
        start, _, kind, obj = before[-1]
        appositive = _appositive_of(start, a.ctx) if kind == "generic" else None
        if isinstance(appositive, Mention):  # "o QwQ-32B, um modelo de IA com 32 bilhões"
            return Decision(appositive.slug, "apposition")
        if appositive is not None:  # "o Orca 9B, um modelo com 9 bilhões": that model's
            return Decision(None, "other", "hard", _model_name(appositive, a.ctx))
        if isinstance(obj, Mention):
            return Decision(obj.slug, "clause")
        if kind == "generic":  # "a dense model with 70B": no model named, no subject's
            return Decision(None, "generic", "soft")
        return Decision(None, "other", "hard", _model_name(obj, a.ctx))
    later = [e for e in near if c.end <= e[0] and e[1] <= ce and e[2] != "generic"]
    opens_with_it = cs == c._sentence.start and _ANAPHOR_START.match(a.ctx.text, cs, c.start)
    if (
        later
        and c.attribute in _DATED
        and not isinstance(later[0][3], Mention)
        and not opens_with_it
    ):
        # (not when the clause opens with "The model"/"O modelo": that model's date)
        # "in October 2023, when they launched the original Kimi chatbot": the date of
        # the model the release verb is about, named first after it
        return Decision(None, "other", "hard", _model_name(later[0][3], a.ctx))
    # a subject named after a comparison word is the yardstick ("56.1% — beats GPT-4o
    # (50.6%), GPT-4o-mini (40.9%)"), not the owner of a figure before the comparison
    marks = [m.start for m in a.ctx.comparatives if c.end <= m.start < ce]
    later_mentions = [
        e[3] for e in later if isinstance(e[3], Mention) and not any(p < e[0] for p in marks)
    ]
    return Decision(later_mentions[0].slug, "clause") if later_mentions else None


# A date's own clause holding only a few words before it ("No começo de agosto", "In early
# May"), no release word among them ("Released in August, it ..." is the subject's).
_FRONTED_WORDS = re.compile(r"\W*(?:[^\W\d]+\s+){0,4}", re.I)


def _fronted_date(c: Candidate, cs: int, ce: int, text: str) -> bool:
    """True when candidate ``c`` (a date) fills its clause ``cs``-``ce`` but for a few words
    before it that say no release, and another clause of its sentence follows."""
    assert c._sentence is not None
    lead = text[cs : c.start]
    return (
        ce < c._sentence.end
        and not text[c.end : ce].strip()
        and bool(_FRONTED_WORDS.fullmatch(lead))
        and not RELEASE_KW.search(lead)
    )


def _relative_clause(c: Candidate, a: _Article) -> Decision | None:
    """ "..., than Kimi K3, which cost $15": a relative clause is about the name before it."""
    assert c._sentence is not None
    cs = c._sentence.clause_bounds(c.start)[0]
    if _WITH_START.match(a.ctx.text, cs):
        # "..., atrás do GPT-5, com 74,9%": another model's (a subject's is settled later)
        hard = [n for n in a.ctx.competitors if 0 <= cs - n.end <= 3]
        if hard and _PARTICIPLE_START.match(a.ctx.text, cs):
            # "compete com modelos maiores, como o Mixtral 8x7B e o GPT-3.5, alcançando
            # 69%": the examples are yardsticks; the participle is the sentence subject's
            lead = a.ctx.text[max(c._sentence.start, hard[0].start - 80) : hard[0].start]
            if _EXAMPLES_BEFORE.search(lead):
                return None
        return Decision(None, "other", "hard", _model_name(hard[0], a.ctx)) if hard else None
    if not _RELATIVE_START.match(a.ctx.text, cs):
        return None
    prev = [m for m in a.ctx.mentions + a.ctx.comparative_mentions if 0 <= cs - m.end <= 3]
    if prev:
        return Decision(prev[0].slug, "relative")
    owners = [n for n in a.ctx.competitors if 0 <= cs - n.end <= 3]
    if owners:  # "... o o3, que alcançou 24,9%"
        return Decision(None, "other", "hard", _model_name(owners[0], a.ctx))
    return None


def _anaphor(c: Candidate, a: _Article) -> Decision | None:
    """ "The model ..."/"It ..." after a sentence naming one subject (:func:`_anaphor_subject`),
    or after one naming only another model, which then owns the figure ("DeepSeek Coder V1
    was the first. It had a 16K window.": V1's window)."""
    assert c._sentence is not None
    back = _anaphor_subject(c._sentence, a.ctx)
    if back is not None:
        return Decision(back, "anaphor")
    other = _anaphor_other(c._sentence, a.ctx)
    return Decision(None, "other", "hard", other) if other else None


def _claimants_model(c: Candidate, a: _Article) -> Decision | None:
    """The subject the figure's claimant was seen speaking about in its clauses."""
    if c.claimant in a.claimant_subject:
        return Decision(a.claimant_subject[c.claimant], "claimant")
    return None


def _sentence_subject(c: Candidate, a: _Article) -> Decision | None:
    """The last subject named before the figure in its sentence; with none, another model
    named before it owns it; else the first subject named after it."""
    s = c._sentence
    assert s is not None
    in_s = [m for m in a.ctx.mentions if s.start <= m.start < s.end]
    prev = [m for m in in_s if m.start < c.start]
    if prev:
        return Decision(prev[-1].slug, "sentence")
    others = [n for n in a.ctx.named_competitors if s.start <= n.start < c.start]
    lead = _leading_clause_end(s, a.ctx.text)
    if lead is not None and lead <= c.start:  # "After aligning X, we ... 128k": not X's
        others = [n for n in others if n.start >= lead]
    # a model named after a comparison word is a yardstick ("compete com modelos maiores,
    # como o GPT-3.5, alcançando 69%"), not the topic of the figures after it
    marks = [m.end for m in a.ctx.comparatives if s.start <= m.start < c.start]
    others = [n for n in others if not any(p <= n.start for p in marks)]
    if others:  # "Its predecessor, Zephyr 2, had 400B; ..."
        return Decision(None, "other", "hard", _model_name(others[-1], a.ctx))
    # not a subject named after a comparison word that follows the figure ("56.1% — beats
    # GPT-4o (50.6%), GPT-4o-mini (40.9%)": the yardsticks)
    marks = [m.start for m in a.ctx.comparatives if c.end <= m.start < s.end]
    after = [m for m in in_s if m.start > c.start and not any(p < m.start for p in marks)]
    return Decision(after[0].slug, "sentence") if after else None


_SUBORDINATE_OPENER = re.compile(r"\W*(?:" + alternation("subordinate_openers") + r")\s", re.I)


def _leading_clause_end(s: Sentence, text: str) -> int | None:
    """The end (its comma) of sentence ``s``'s leading adverbial clause ("After aligning
    X, ..."), or ``None`` when ``s`` opens otherwise or has no comma."""
    if not _SUBORDINATE_OPENER.match(s.text):
        return None
    comma = s.text.find(",")
    return s.start + comma if comma > 0 else None


def _paragraph_topic(c: Candidate, a: _Article) -> Decision | None:
    """The paragraph's last subject before the figure, unless it was named in another
    claimant's statement ("Cerebras says Kimi K3 ..." does not make Kimi K3 the topic of
    unclaimed figures; "Moonshot AI announced Kimi K3" does, Moonshot AI being its lab)."""
    s = c._sentence
    assert s is not None
    led = _colon_lead_topic(c, a)
    if led is not None:
        return led
    para = [
        m
        for m in a.ctx.mentions
        if m.start < c.start
        and a.where[id(m)][0] == s.paragraph
        and (a.where[id(m)][1] in (None, c.claimant) or _own_lab_on(m, c, a))
    ]
    nearer = _nearer_other_topic(c, a, para[-1].start if para else -1)
    if nearer is not None:  # "Nimbus released Cirrus 12B ... The weights arrive in 2027"
        return Decision(None, "other", "hard", _model_name(nearer, a.ctx))
    if para:
        return Decision(para[-1].slug, "paragraph")
    lead = _list_lead(c.start, a.ctx.doc)
    if lead is not None:  # a list item: the topic of the line introducing the list
        named = [m for m in a.ctx.mentions if lead.start <= m.start < lead.end]
        if named:
            return Decision(named[-1].slug, "paragraph")
    return None


def _nearer_other_topic(c: Candidate, a: _Article, after: int) -> Named | None:
    """The last other model of ``c``'s paragraph named before ``c`` and after ``after``
    (the paragraph's last subject mention, or -1) as its sentence's topic: the first model
    of that sentence, not after a comparison word, owning no single figure ("Nimbus Labs
    released Cirrus 12B today. ... Cirrus ships under ..."). A paragraph fallback to a
    known subject, or to none, does not jump over it; ``None`` when there is none."""
    s = c._sentence
    assert s is not None
    if _CONTRAST_OPENER.match(s.text):
        return None  # "In comparison, the Small version scored ...": not the model before
    paragraph = s.paragraph
    for n in reversed(a.ctx.named_competitors):
        if n.start >= c.start or n.start <= after or n.kind != "competitor":
            continue
        ns = a.ctx.seg.at(n.start)
        if ns.paragraph != paragraph:
            break
        if ns is s:
            continue  # the figure's own sentence was read by the sentence rule
        if _CONTRAST_OPENER.match(ns.text):
            continue  # "By comparison, Zephyr-Max ...": a yardstick, not the topic after it
        first = [e for e in a.entities if ns.start <= e[0] < n.start and e[2] != "generic"]
        if not first and _opens_or_launched(n, ns, a.ctx.text):
            return n
    return None


# Before the model a sentence is about: nothing but an article at its clause's start
# ("Cirrus ships under ...", "..., o Solstice é distribuído"), or a lab and its launch verb
# ("Nimbus Labs released Cirrus 12B", "A Halcyon lançou nesta semana o Solstice 9B").
_OPENS = re.compile(r"\W*(?:(?:the|o|a)\s+)?", re.I)
_LAUNCHED = re.compile(
    r"[^,;:]{0,60}\b(?:"
    + "|".join(alternation(f) for f in ("launch_verbs", "announce_verbs", "released_today"))
    + r")\b[^,;:]{0,30}",
    re.I,
)


def _opens_or_launched(n: Named, s: Sentence, text: str) -> bool:
    """True when ``n`` is the topic of sentence ``s`` by its place: first in its clause,
    or the object of a launch verb after the lab (:data:`_OPENS`, :data:`_LAUNCHED`)."""
    cs = s.clause_bounds(n.start)[0]
    return bool(_OPENS.fullmatch(text, cs, n.start) or _LAUNCHED.fullmatch(text, s.start, n.start))


def _own_lab_on(m: Mention, c: Candidate, a: _Article) -> bool:
    """True when ``m``'s sentence names no other model and its claimant is the subject's own
    organization, either announcing it ("Nimbus Labs announced Cirrus 12B, a ...") or
    speaking again as "the company" in ``c``'s sentence ("..., Nimbus said. The lab claims
    ..."): the lab presenting its model keeps it the topic (a lab merely cited before an
    unclaimed figure, "segundo a Moonshot AI. Os pesos ...", does not)."""
    org = a.ctx.index.organization(m.slug)
    s = a.ctx.seg.at(m.start)
    if org is None or a.where[id(m)][1] != org:
        return False
    announced = any(
        k.document and k.name == org and s.start <= k.start < s.end for k in a.ctx.claimants
    )
    if not (announced or c._claimant_pronoun and not c.claimant):
        return False
    slugs, others = _named_in(s, a.ctx)
    return slugs == {m.slug} and not others


def _colon_lead_topic(c: Candidate, a: _Article) -> Decision | None:
    """A list item under a line ending in a colon that names one model ("O Llama 4 Scout é
    um modelo compacto com especificações técnicas impressionantes:" above "- 109 bilhões
    de parâmetros"): that model's, a subject's or another model's (hard), whatever the
    paragraph named before the list; ``None`` when the lead names none or several."""
    lead = _list_lead(c.start, a.ctx.doc)
    if lead is None or not a.ctx.text[lead.start : lead.end].rstrip().endswith(":"):
        return None
    t = a.ctx.text
    names = [(m.start, m.end) for m in a.ctx.mentions + a.ctx.comparative_mentions]
    names += [(n.start, n.end) for n in a.ctx.competitors]
    names = sorted((lo, hi) for lo, hi in names if lead.start <= lo < lead.end)
    if len(names) != 1 or not _OPENS.fullmatch(t, lead.start, names[0][0]):
        return None  # the lead is not about the one model it opens with
    if _OTHER_NAME_SHAPE.search(t[names[0][1] : lead.end]):
        return None  # "The Gemma 2 → Gemma 3 jump:": a family the index left unnamed
    slugs, others = _named_between(lead.start, lead.end, a.ctx, a.ctx.competitors)
    if len(slugs) == 1 and not others:
        return Decision(slugs.pop(), "paragraph")
    name = next(n for n in a.ctx.competitors if lead.start <= n.start < lead.end)
    return Decision(None, "other", "hard", _model_name(name, a.ctx))


# A capitalised word with a number after it ("Gemma 3", "GPT-4o"): a model's shape.
_OTHER_NAME_SHAPE = re.compile(r"(?-i:[A-Z])[\w.]*[\s-]?\d")


def _list_lead(pos: int, doc: Document) -> Line | None:
    """The line introducing the bulleted list whose item holds ``pos`` (the last non-blank,
    non-bullet line before it), or ``None`` when ``pos`` is in no list item."""
    line = doc.line_at(pos)
    if not line.bullet:
        return None
    i = doc.lines.index(line)
    for prev in reversed(doc.lines[:i]):
        if prev.bullet or prev.start == prev.end or not doc.text[prev.start : prev.end].strip():
            continue
        return prev
    return None


def _heading_topic(c: Candidate, a: _Article) -> Decision | None:
    """The one model the nearest title or heading before the figure names ("# Cirrus 12B:
    what we know"), unless the figure's paragraph names another model before it; a
    heading naming no model leaves the one above it in force, one naming two models
    gives none. A line that is only a model's name heads the lines under it up to the
    next blank line (:func:`_heading_lines`), another model's too: a pricing card's
    "GPT-5" line above "Input$1.25" gives that price to GPT-5."""
    s = c._sentence
    assert s is not None
    topic: str | Decision | None = None
    below = 0
    for line, scope_end, card in a.headings:
        if line.start >= c.start:
            break
        if scope_end < c.start:
            continue
        slugs, others = _named_between(line.start, line.end, a.ctx, a.ctx.competitors)
        if slugs or others:
            topic = slugs.pop() if len(slugs) == 1 and not others else None
            if card and not slugs and others == 1:
                name = next(n for n in a.ctx.competitors if line.start <= n.start < line.end)
                topic = Decision(None, "other", "hard", _model_name(name, a.ctx))
        below = line.end
    if topic is None:
        return None
    para = min(x.start for x in a.ctx.seg.sentences if x.paragraph == s.paragraph)
    slugs, others = _named_between(max(para, below), c.start, a.ctx, a.ctx.competitors)
    if isinstance(topic, Decision):
        return topic if not (others or slugs) else None
    if others or slugs - {topic}:
        return None
    return Decision(topic, "heading")


def _heading_lines(ctx: ArticleContext) -> list[tuple[Line, int, bool]]:
    """(heading, end of its reach, a name line): the title and Markdown headings reach to the article's
    end; a line that is only a model's name ("Claude Opus 4.1", "GPT-5:") above a non-blank
    line reaches to the next blank line (a pricing or spec card)."""
    text, lines = ctx.text, ctx.doc.lines
    out = [(h, len(text), False) for h in ctx.doc.headings()]
    names = [(m.start, m.end) for m in ctx.mentions if m.kind == "subject"]
    names += [(n.start, n.end) for n in ctx.competitors if n.kind == "competitor"]
    in_tables = [(t.start, t.end) for t in ctx.doc.tables]
    for i, line in enumerate(lines[:-1]):
        words = text[line.start : line.end].strip().rstrip(":").strip()
        if not words or not text[lines[i + 1].start : lines[i + 1].end].strip():
            continue
        lo = line.start + text[line.start : line.end].index(words)
        if (lo, lo + len(words)) not in names or any(a <= lo < b for a, b in in_tables):
            continue
        blank = next(
            (ln.start for ln in lines[i + 1 :] if not text[ln.start : ln.end].strip()), len(text)
        )
        out.append((line, blank, True))
    out.sort(key=lambda h: h[0].start)
    return out


# A line that only heads a list of other models ("More models by MiniMax", "Outros
# modelos"): lexicon/<lang>/other_models_headings.txt, maybe followed by a lab's name.
_OTHER_MODELS_LINE = re.compile(
    r"\W*(?:" + phrases("other_models_headings") + r")(?:\s+[^\W\d_][\w.-]*){0,3}\W*", re.I
)


def _other_models_sections(ctx: ArticleContext) -> list[tuple[int, int]]:
    """(start, end) of each section of other models: from the end of a line heading it
    (:data:`_OTHER_MODELS_LINE`) to the end of the block of lines under it (the next blank
    line after a non-blank one), so a sidebar heading reaches no further than its list."""
    text, lines = ctx.text, ctx.doc.lines
    out = []
    for i, ln in enumerate(lines):
        if not _OTHER_MODELS_LINE.fullmatch(text, ln.start, ln.end):
            continue
        end, seen = len(text), False
        for nxt in lines[i + 1 :]:
            blank = not text[nxt.start : nxt.end].strip()
            if blank and seen:
                end = nxt.start
                break
            seen = seen or not blank
        out.append((ln.end, end))
    return out


def _other_models_section(c: Candidate, a: _Article) -> Decision | None:
    """A figure in the list under a heading of other models ("More models by MiniMax"
    above a table whose rows' names the page drew as logos) with no subject named between
    the heading and it: no subject's (hard)."""
    inside = [(lo, hi) for lo, hi in a.other_sections if lo <= c.start < hi]
    if not inside:
        return None
    named = [m for m in a.ctx.mentions if inside[-1][0] <= m.start < c.start]
    return None if named else Decision(None, "generic", "hard")


_UNIVERSAL = re.compile(r"(?<!\w)(?:" + phrases("universal_scopes") + r")(?!\w)", re.I)


def _default(c: Candidate, a: _Article) -> Decision | None:
    """The article's subject (``--subject``), when given; none for a figure of a sentence
    about every model ("... across every provider": ``lexicon/<lang>/universal_scopes.txt``)."""
    if c._sentence is not None and _UNIVERSAL.search(c._sentence.text):
        return Decision(None, "generic", "soft")
    return Decision(a.default_subject, "default") if a.default_subject else None


# The strategies, in order, in three passes (a pass learns from the one before it): the
# first decision wins. Names are those reported in ``how``.
# Figures stated "respectively" ("5B e 8B respectivamente", "$1 and $4, respectively").
_RESP_TOKEN = r"[$€£]?\d[\w.,%]*(?:\s(?:" + alternation("large_number_words") + r"))?"
_RESP_SEP = r"(?:\s*,\s*(?:and\s+|e\s+)?|\s+(?:and|e)\s+)"
_RESP_LIST = re.compile(
    rf"(?<![\w.,]){_RESP_TOKEN}(?:{_RESP_SEP}{_RESP_TOKEN})+\s*,?\s*"
    rf"(?:{alternation('respectively')})\b",
    re.I,
)
_NAME_SEP = re.compile(r"\s*(?:,|,?\s+(?:and|e|ou|or))\s*", re.I)


def _respective(c: Candidate, a: _Article) -> Decision | None:
    """A figure of a list stated "respectively" ("os parâmetros originais sejam de 5B e 8B
    respectivamente" after "duas versões, E2B e E4B") is the model in the same place of
    the last list of as many model names in its sentence or the one before; with no such
    list, not decided here."""
    s = c._sentence
    assert s is not None
    text = a.ctx.text
    lo = max(0, c.start - 80)
    for m in _RESP_LIST.finditer(text, lo, min(len(text), c.end + 80)):
        if not m.start() <= c.start < m.end():
            continue
        items = [t.start() for t in re.finditer(_RESP_TOKEN, m.group(0))]
        if c.start - m.start() not in items:
            return None
        i, n = items.index(c.start - m.start()), len(items)
        prev = a.ctx.seg.at(s.start - 1) if s.start else s
        names = [e for e in a.entities if prev.start <= e[0] and e[1] <= m.start()]
        names = [e for e in names if e[2] != "generic"]
        runs: list[list[tuple[int, int, str, Mention | Named]]] = []
        for e in names:
            if runs and _NAME_SEP.fullmatch(text, runs[-1][-1][1], e[0]):
                runs[-1].append(e)
            else:
                runs.append([e])
        fit = [r for r in runs if len(r) == n]
        if not fit:
            return None
        obj = fit[-1][i][3]
        if isinstance(obj, Mention):
            return Decision(obj.slug, "respectively")
        return Decision(None, "other", "hard", _model_name(obj, a.ctx))
    return None


def _contrasted(c: Candidate, a: _Article) -> Decision | None:
    """ "By comparison, Aurora charges $5 ...", "Em comparação, o Zephyr obtém ...": a
    sentence set against the one before, whose clause opens with a name that is no tracked
    subject nor the lab of one the article names, is about that other thing; its figures
    are left to no subject, with a warning naming it (:mod:`claims.extract.untracked`)."""
    s = c._sentence
    assert s is not None
    found = contrasted_name(s.text)
    if found is None:
        return None
    cue, name, at = found
    start = s.start + at
    spans = [(m.start, m.end) for m in a.ctx.mentions + a.ctx.comparative_mentions]
    spans += [(b.start, b.end) for b in a.ctx.benches]  # "In comparison, MMLU ..."
    spans += [(d.start, d.end) for d in a.ctx.date_spans]
    if c.start < start or any(lo <= start < hi for lo, hi in spans):
        return None
    slugs = {m.slug for m in a.ctx.mentions} | {a.default_subject or ""}
    labs = {a.ctx.index.organization(x) or "" for x in slugs if x} - {""}
    if any(lab.startswith(name) or name.startswith(lab) for lab in labs):
        return None  # "In comparison, Vireo charges ...": the subject's lab
    return Decision(None, "contrast", "hard", note=f"after '{cue}': names '{name}', {NOT_TRACKED}")


LOCAL: tuple[tuple[str, Strategy], ...] = (
    ("listed", _own_size),
    ("respectively", _respective),
    ("versus", _versus_pair),
    ("bracket", _named_owner),
    ("family", _family_release),
    ("clause", _clause_entity),
    ("relative", _relative_clause),
)
CONTEXT: tuple[tuple[str, Strategy], ...] = (
    ("anaphor", _anaphor),
    ("claimant", _claimants_model),
    ("sentence", _sentence_subject),
)
FALLBACK: tuple[tuple[str, Strategy], ...] = (
    ("contrast", _contrasted),
    ("section", _other_models_section),
    ("paragraph", _paragraph_topic),
    ("heading", _heading_topic),
    ("default", _default),
)


def _run(items: list[Candidate], table: tuple[tuple[str, Strategy], ...], a: _Article) -> None:
    for c in items:
        if not _undecided(c, table):
            continue
        for _, rule in table:
            d = rule(c, a)
            if d is not None:
                c.subject, c.how = d.subject, d.how
                c.other_model = d.other or None
                c._hard_null, c._soft_null = d.null == "hard", d.null == "soft"
                if d.note:
                    c.warnings.append(d.note)
                break


def _undecided(c: Candidate, table: tuple[tuple[str, Strategy], ...]) -> bool:
    if table is FALLBACK:  # after restatements; an unsided price waits for its restatement
        return not (
            c.subject or c._hard_null or c._soft_null or c.attribute == "price_usd_per_mtok"
        )
    return c.how == "none"  # a table cell was decided where it was found


def resolve(items: list[Candidate], ctx: ArticleContext, default_subject: str | None) -> None:
    """Set ``subject``/``how`` (and fill claimants) of ``items`` in place: the strategies of
    :data:`LOCAL`, then (with claimant -> subject learnt from clause decisions)
    :data:`CONTEXT`, restatements of figures already attributed, :data:`FALLBACK`, and
    restatements again. A price whose side stays unknown is dropped (attribute "")."""
    a = _Article(ctx, default_subject, headings=_heading_lines(ctx))
    a.other_sections = _other_models_sections(ctx)
    a.entities = [(m.start, m.end, "mention", m) for m in ctx.mentions]
    # A model owning only the figure before it ("68% for its predecessor Y") is no
    # entity of its clause's other figures; that one figure is its by _named_owner.
    owners = {(n.start, n.end) for n in ctx.figure_owners}
    a.entities += [
        (c.start, c.end, "competitor", c) for c in ctx.competitors if (c.start, c.end) not in owners
    ]
    a.entities += [(g.start, g.end, "generic", g) for g in ctx.generics]
    a.entities.sort(key=lambda e: e[0])
    a.starts = [e[0] for e in a.entities]
    _run(items, LOCAL, a)
    seen: dict[str, Counter[str]] = {}
    for c in items:
        if c.how == "clause" and c.claimant and c.subject:
            seen.setdefault(c.claimant, Counter())[c.subject] += 1
    a.claimant_subject = {k: v.most_common(1)[0][0] for k, v in seen.items()}
    _run(items, CONTEXT, a)
    _restatements(items)
    a.where = {
        id(m): (ctx.seg.at(m.start).paragraph, ctx.sentence_claimant(m.start)) for m in ctx.mentions
    }
    _run(items, FALLBACK, a)
    _restatements(items)
    _sibling_sizes(items, ctx)
    _family_terms(items, ctx, default_subject)
    unnamed: list[tuple[int, int, str]] | None = None
    if any(c.subject is None and c.how == "none" for c in items):
        unnamed = _untracked(ctx)
    for c in items:
        if c.attribute == "price_usd_per_mtok":
            c.attribute = ""  # input or output never said, and not a restatement: dropped
        if c._claimant_pronoun and not c.claimant:
            c.claimant = ctx.index.organization(c.subject)
        if c.subject is None and c.how == "none" and not _names_a_model(c._sentence, ctx):
            c.warnings.append(_unnamed_warning(c, ctx, unnamed))
        if c.subject is not None:
            c.other_model = None  # a generic phrase's figure restated as a subject's
        elif c.other_model:
            c.warnings.append(f"{OTHER_MODEL}: {c.other_model}")


def _sibling_sizes(items: list[Candidate], ctx: ArticleContext) -> None:
    """A total parameter count far from the size its subject's own name states ("1 bilhão"
    and "12 bilhões" in a page on Gemma 3 27B, :mod:`claims.extract.name_sizes`) is a
    sibling's or a rival's, not the subject's: given no subject (a soft null), with a
    warning. A count that is itself the subject's mention (``listed``) stays."""
    for c in items:
        if c.attribute != "total_params" or c.subject is None or c.how == "listed":
            continue
        ref = ctx.index.subjects.get(c.subject)
        size = name_size([ref.slug, *ref.names]) if ref else None
        count = c.value.value
        if size is None or not isinstance(count, Decimal) or not contradicts_size(count, size):
            continue
        c.subject, c.how, c._soft_null = None, "size", True
        c.warnings.append(NOT_OWN_SIZE)


_NAME_GAPS = re.compile(r"[\s\-_]+")


def _family_terms(items: list[Candidate], ctx: ArticleContext, subject: str | None) -> None:
    """A licence given to another model whose name begins the article subject's name
    ("DeepSeek V4 is a new family of open-weights models ... under the MIT license" in a
    page on DeepSeek V4 Flash; names compared word by word) is the family's, which its
    members share. Not its release date: a member may come later (a "Max Preview" months
    after its series)."""
    ref = ctx.index.subjects.get(subject or "")
    if ref is None:
        return
    names = [_NAME_GAPS.sub(" ", n.casefold()).strip() for n in ref.names]
    for c in items:
        if c.attribute != "license" or c.subject is not None or not c.other_model:
            continue
        family = _NAME_GAPS.sub(" ", c.other_model.casefold()).strip()
        if c.how == "other" and any(n.startswith(family + " ") for n in names):
            c.subject, c.how, c.other_model = ref.slug, "family", None


def _untracked(ctx: ArticleContext) -> list[tuple[int, int, str]]:
    """Model-like names of the article that are no subject, other model found, benchmark,
    date or claimant."""
    taken = [(m.start, m.end) for m in ctx.mentions + ctx.comparative_mentions]
    taken += [(b.start, b.end) for b in ctx.benches]
    taken += [(k.start, k.end) for k in ctx.claimants]
    taken += [(n.start, n.end) for n in ctx.competitors]  # known as other models already
    taken += [(d.start, d.end) for d in ctx.date_spans]
    return untracked_names(ctx.text, taken)


def _unnamed_warning(
    c: Candidate, ctx: ArticleContext, names: list[tuple[int, int, str]] | None
) -> str:
    """The warning of a figure left without a subject whose sentence names no model: the
    name its sentence, else its paragraph before it, else the title gives that is no
    tracked subject ("names 'Halcyon 9', which is not a tracked subject"), else
    :data:`NO_MODEL_NAMED`."""
    s = c._sentence
    if s is None or not names:
        return NO_MODEL_NAMED
    para = min(x.start for x in ctx.seg.sentences if x.paragraph == s.paragraph)
    title = ctx.doc.lines[0] if ctx.doc.lines else None
    ranges = [(s.start, s.end), (para, s.start)]
    if title is not None:
        ranges.append((title.start, title.end))
    for lo, hi in ranges:
        inside = [n for n in names if lo <= n[0] < hi]
        if inside:
            return f"names '{inside[0][2]}', {NOT_TRACKED}"
    return NO_MODEL_NAMED


def _model_name(n: Mention | Named, ctx: ArticleContext) -> str:
    """The other model ``n`` as written: for a relation word ("its predecessor Orca 7B",
    "o antecessor, GLM-4.5") the name right after it, else the word itself; "" for a
    generic phrase ("a dense model", "carro-chefe"), which names no model."""
    if isinstance(n, Mention):
        return n.name
    if n.kind == "generic":
        return ""
    if n.kind == "relation":
        # "its predecessor, Tern 14B, ...": the name right after it; "Its predecessor had
        # ..." later: the name given after the same relation word before it
        for rel in sorted(ctx.competitors, key=lambda r: -r.start):
            if rel.kind != "relation" or rel.start > n.start or rel.name.lower() != n.name.lower():
                continue
            for m in ctx.competitors:
                if m.kind == "competitor" and names_after_relation(ctx.text, rel, m):
                    return m.name
    return n.name


def _bracket_owner(c: Candidate, ctx: ArticleContext) -> Mention | Named | None:
    """The model named right before the bracket that holds ``c`` ("GPT-4o-mini (~82%)",
    "Scout (17B active params, 109B total)"), when no other name is inside it before ``c``."""
    s = c._sentence
    lo = s.start if s is not None else max(0, c.start - 200)
    head = ctx.text[lo : c.start]
    opened = head.rfind("(")
    if opened < 0 or ")" in head[opened:]:
        return None
    at = lo + opened
    names: list[Mention | Named] = [*ctx.mentions, *ctx.comparative_mentions, *ctx.competitors]
    if any(at < n.start < c.start for n in names):
        return None
    return next(
        (n for n in names if 0 <= at - n.end <= 1 and not ctx.text[n.end : at].strip()), None
    )


# Between a subject and a generic phrase that is it: a comma or dash (apposition), or a
# copula ("Nova 2 is a model with 1.2T parameters", "o Nova 2 é um modelo com ...", "Nova 2
# features a model with 24 billion parameters").
# A time phrase may stand before it ("released X on Monday, a model with ...", "lançou o
# X ontem, um modelo ..."): lexicon/<lang>/time_phrases.txt.
# A bracketed note may follow the name ("· Devstral 2 (123B parâmetros) – um modelo denso
# com ...", a list item's heading).
_IS_IT = re.compile(
    r"(?:\s*\([^()\n]{1,40}\))?"
    rf"(?:\s+(?:{patterns('time_phrases')}))?"
    r"\s*(?:[,—–]|(?<=\s)-(?=\s)|(?:" + phrases("apposition_verbs") + r")"
    r"(?:\s+(?:" + alternation("copula_adverbs") + r"))?)\s*",
    re.I,
)


def _appositive_of(start: int, ctx: ArticleContext) -> Mention | Named | None:
    """The subject, else the other model, named right before a generic noun phrase that is
    it ("o QwQ-32B, um modelo de IA ...", "Arctic, a dense-MoE model ...", "X is a model
    with ...")."""
    for m in ctx.mentions:
        if (
            m.kind == "subject"
            and 0 <= start - m.end <= 48
            and _IS_IT.fullmatch(ctx.text, m.end, start)
        ):
            return m
    for n in ctx.competitors:
        if (
            n.kind == "competitor"
            and 0 <= start - n.end <= 48
            and _IS_IT.fullmatch(ctx.text, n.end, start)
        ):
            return n
    return None


_OF = re.compile(FIGURE_OWNER_LINK, re.I)
# From a parameter count to a bracket naming what it counts: "-parameter model (", " model
# (", "-parameter base model (".
_SIZED_NOUN_THEN_BRACKET = re.compile(
    r"(?:[-\s](?:param(?:eter)?s?|parâmetros?))?(?:\s+[a-z-]+){0,2}?\s+(?:model|modelo|LLM)\s*\(\s*",
    re.I,
)


def _bracketed_name_after(c: Candidate, ctx: ArticleContext) -> Mention | Named | None:
    """The model named first in a bracket right after the noun a parameter count sizes
    ("a 12-billion-parameter model (Orca-12B-Base)": the base model's count, not the
    sentence's subject's)."""
    if c.attribute not in ("total_params", "active_params"):
        return None
    m = _SIZED_NOUN_THEN_BRACKET.match(ctx.text, c.end)
    if m is None:
        return None
    names: list[Mention | Named] = [*ctx.mentions, *ctx.comparative_mentions, *ctx.competitors]
    return next((n for n in names if n.start == m.end()), None)


def _of_owner(c: Candidate, ctx: ArticleContext) -> Mention | Named | None:
    """The model named right after ``c`` by of/for/from/do/da, after at most three unit
    words and an article or possessive ("os 4,1% do GPT-4.1", "81.0% for GPT-5", "68% for
    its predecessor", "450 tokens/s for Orca 7B")."""
    names: list[Mention | Named] = [*ctx.mentions, *ctx.comparative_mentions, *ctx.competitors]
    for n in sorted(names, key=lambda n: n.start):
        if c.end < n.start <= c.end + 40 and _OF.fullmatch(ctx.text, c.end, n.start):
            return n if not isinstance(n, Mention) or n.kind == "subject" else None
    return None


def _named_in(s: Sentence, ctx: ArticleContext) -> tuple[set[str], int]:
    """(known subject slugs, count of other models) named in sentence ``s``."""
    slugs = {m.slug for m in ctx.mentions + ctx.comparative_mentions if s.start <= m.start < s.end}
    return slugs, sum(1 for n in ctx.named_competitors if s.start <= n.start < s.end)


def _named_between(
    lo: int, hi: int, ctx: ArticleContext, competitors: list[Named]
) -> tuple[set[str], int]:
    """(known subject slugs, count of ``competitors``) named in ``lo``-``hi``."""
    slugs = {m.slug for m in ctx.mentions + ctx.comparative_mentions if lo <= m.start < hi}
    return slugs, sum(1 for n in competitors if lo <= n.start < hi)


def _names_a_model(s: Sentence | None, ctx: ArticleContext) -> bool:
    if s is None:
        return True
    slugs, others = _named_in(s, ctx)
    return bool(slugs) or others > 0


def _anaphor_subject(s: Sentence, ctx: ArticleContext) -> str | None:
    """The subject that "The model ..." / "It ..." / "O modelo ..." / "Ele ..." (sentence
    ``s``'s start) refers to: the one known subject named anywhere in the nearest of the
    three sentences before ``s`` in its paragraph that names a model, or, when that one
    names several, the subject opening it. ``None`` when ``s`` starts otherwise, names a
    model itself, opens its paragraph, or the models named are ambiguous."""
    prev = _antecedent(s, ctx)
    if prev is None:
        return None
    slugs, others = _named_in(prev, ctx)
    if len(slugs) == 1 and not others:
        return next(iter(slugs))
    # Several named: the one the sentence is about, when it opens it ("Llama 3.3
    # 70B is the model that made Llama 3.1 405B irrelevant. Released ..., it ...").
    opening = [m for m in ctx.mentions if 0 <= m.start - prev.start <= 4]
    return opening[0].slug if opening else None


def _antecedent(s: Sentence, ctx: ArticleContext) -> Sentence | None:
    """The sentence an anaphoric ``s`` refers back to: the nearest of the three before it
    in its paragraph naming a model, when ``s`` opens with "It"/"The model"/"O modelo" or,
    in Portuguese, with a verb and no subject ("Tinha ...", "Foi treinado ...":
    ``lexicon/pt/subjectless_openers.txt``) and names no model itself."""
    if not (_ANAPHOR_START.match(s.text) or _subjectless_re().match(s.text)):
        return None
    if _names_a_model(s, ctx):
        return None  # "The model that replaced it, Kimi K3.1 Pro, has ...": named here
    sentences = ctx.seg.sentences
    i = next(k for k, x in enumerate(sentences) if x is s)
    head = _list_head(sentences, i)
    if head is not None:  # "... has three limitations. First, ... Third, it has ..."
        return head if _names_a_model(head, ctx) else None
    for prev in reversed(sentences[max(0, i - 3) : i]):
        if prev.paragraph != s.paragraph and not _demonstrative_after_line(prev, s, ctx.text):
            return None  # a heading or a new paragraph may have moved on
        slugs, others = _named_in(prev, ctx)
        if slugs or others:
            return prev
    return None


# An enumeration's item opening a sentence: "Second, ...", "Finally, ...".
_LIST_ITEM = re.compile(r"\W*(?:" + alternation("list_ordinals") + r"),", re.I)


def _list_head(sentences: list[Sentence], i: int) -> Sentence | None:
    """For sentence ``i`` opening a later item of an enumeration (the item before it opens
    one too, in its paragraph): the sentence before the list's first item, which the list
    is about; ``None`` otherwise."""
    s = sentences[i]
    j = i - 1
    while j >= 0 and sentences[j].paragraph == s.paragraph and _LIST_ITEM.match(sentences[j].text):
        j -= 1
    if not _LIST_ITEM.match(s.text) or j == i - 1 or j < 0:
        return None
    return sentences[j] if sentences[j].paragraph == s.paragraph else None


def _anaphor_other(s: Sentence, ctx: ArticleContext) -> str:
    """The other model an anaphoric ``s`` refers to: the one opening its antecedent, when
    that sentence names no known subject ("" otherwise)."""
    prev = _antecedent(s, ctx)
    if prev is None or _named_in(prev, ctx)[0]:
        return ""
    head = prev.start + len(prev.text) - len(prev.text.lstrip("-•*– "))
    opening = [n for n in ctx.named_competitors if prev.start <= n.start and n.start - head <= 40]
    return _model_name(opening[0], ctx) if opening else ""


@cache
def _subjectless_re() -> re.Pattern[str]:
    return re.compile(r"\W*(?:" + alternation("subjectless_openers", "pt") + r")\b", re.I)


# "This model ...", "Este modelo ...": a demonstrative points at the sentence right before.
_DEMONSTRATIVE = re.compile(
    r"\W*(?:" + alternation("demonstratives") + r")\s+(?:\w+\s+)?(?:model|modelo)\b", re.I
)


def _demonstrative_after_line(prev: Sentence, s: Sentence, text: str) -> bool:
    """True when ``s`` opens with "This model"/"Este modelo" on the line right after
    ``prev``, a whole sentence (ending ".", "!" or "?", not a heading), with no blank line
    between: page text often puts each sentence of a paragraph on its own line."""
    gap = text[prev.end : s.start]
    return (
        bool(_DEMONSTRATIVE.match(s.text))
        and gap.count("\n") == 1
        and not gap.strip()
        and prev.text.rstrip()[-1:] in ".!?"
        and s.paragraph == prev.paragraph + 1
    )


def _restatements(items: list[Candidate]) -> None:
    attributed = [c for c in items if c.subject]
    for c in items:
        if c.subject or c._hard_null:
            continue
        match = _restated(c, attributed)
        if match is not None:
            c.subject, c.how = match.subject, "restated"
            c.claimant = c.claimant or match.claimant
            if c.attribute == "price_usd_per_mtok":
                c.attribute = match.attribute
            for k, v in match.qualifiers.items():
                c.qualifiers.setdefault(k, v)


def _restated(c: Candidate, attributed: list[Candidate]) -> Candidate | None:
    """The attributed figure ``c`` repeats (same attribute, same value or a range end, no
    conflicting qualifier), when all such figures agree on the subject."""
    hits = []
    for a in attributed:
        same_attr = a.attribute == c.attribute or (
            c.attribute == "price_usd_per_mtok"
            and a.attribute.startswith("price_")
            and "mtok" in a.attribute
        )
        if not same_attr or a is c:
            continue
        if any(a.qualifiers.get(k) not in (None, v) for k, v in c.qualifiers.items()):
            continue
        if _same_value(c.value, a.value):
            hits.append(a)
    subjects = {h.subject for h in hits}
    if len(subjects) != 1:
        return None
    return hits[0]


def _same_value(x: Value, y: Value) -> bool:
    if x == y:
        return True
    if x.kind == "quantity" and y.kind == "quantity":
        return x.value == y.value and x.unit == y.unit
    if x.kind == "quantity" and y.kind == "range":
        return x.value in (y.low, y.high) and x.unit == y.unit
    if x.kind == "date" and y.kind == "date":
        return x.value == y.value
    return False
