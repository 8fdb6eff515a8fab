"""Which subject each candidate claim is about: the rules of :func:`claims.extract.extractor.extract`,
applied to all candidates of an article at once (some rules learn from other candidates).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from typing import Protocol

from claims.extract.candidates import Candidate
from claims.extract.claimants import ClaimantMention
from claims.extract.rules import Named
from claims.extract.segment import Segments, Sentence
from claims.subjects.references import Mention, SubjectIndex
from claims.values.value import Value

_RELATIVE_START = re.compile(r"(?:which|that|who|whose|que|cujo|cuja|o\s+qual|a\s+qual)\b", re.I)
# A sentence whose grammatical subject points back to a model named before it.
_ANAPHOR_START = re.compile(
    r"\W*(?:(?:the|this|that)\s+(?:new\s+)?model|its?|(?:o|este|esse)\s+(?:novo\s+)?modelo|ele)\b",
    re.I,
)
# Per-candidate warning of a figure whose sentence names no model at all (the CLI tells
# it apart from a model that the subjects file lacks).
NO_MODEL_NAMED = "no model named in this sentence"


class ArticleContext(Protocol):
    """What attribution needs from the article (built by :mod:`claims.extract.extractor`)."""

    text: str
    seg: Segments
    index: SubjectIndex
    mentions: list[Mention]
    comparative_mentions: list[Mention]
    competitors: list[Named]
    generics: list[Named]
    claimants: list[ClaimantMention]

    def sentence_claimant(self, pos: int) -> str | None: ...


def resolve(items: list[Candidate], ctx: ArticleContext, default_subject: str | None) -> None:
    """Set ``subject``/``how`` (and fill claimants) of ``items`` in place, by the rules listed
    in :func:`claims.extract.extractor.extract`: clause entity, claimant's subject, sentence,
    restatement, paragraph (unless named in another claimant's statement), default."""
    entities: list[tuple[int, int, str, Mention | Named]]
    entities = [(m.start, m.end, "mention", m) for m in ctx.mentions]
    entities += [(c.start, c.end, "competitor", c) for c in ctx.competitors]
    entities += [(g.start, g.end, "generic", g) for g in ctx.generics]
    entities.sort(key=lambda e: e[0])
    starts = [e[0] for e in entities]
    for c in items:
        s = c._sentence
        assert s is not None
        cs, ce = s.clause_bounds(c.start)
        lo, hi = bisect.bisect_left(starts, cs), bisect.bisect_left(starts, ce)
        near = entities[lo:hi]
        before = [e for e in near if e[1] <= c.start]
        if before:
            start, end, kind, obj = before[-1]
            if isinstance(obj, Mention):
                c.subject, c.how = obj.slug, "clause"
            elif kind == "competitor":
                c._hard_null, c.how = True, "other"
            else:
                c._soft_null, c.how = True, "other"
            continue
        later = [e[3] for e in near if c.end <= e[0] and e[1] <= ce]
        later_mentions = [m for m in later if isinstance(m, Mention)]
        if later_mentions:
            c.subject, c.how = later_mentions[0].slug, "clause"
            continue
        # "..., than Kimi K3, which cost $15": a relative clause is about the name before it.
        if _RELATIVE_START.match(ctx.text, cs):
            prev = [m for m in ctx.mentions + ctx.comparative_mentions if 0 <= cs - m.end <= 3]
            if prev:
                c.subject, c.how = prev[0].slug, "clause"
    # Claimant -> subject, learnt from figures whose subject the clause names.
    seen: dict[str, Counter[str]] = {}
    for c in items:
        if c.how == "clause" and c.claimant and c.subject:
            seen.setdefault(c.claimant, Counter())[c.subject] += 1
    claimant_subject = {k: v.most_common(1)[0][0] for k, v in seen.items()}
    for c in items:
        if c.how != "none":
            continue
        assert c._sentence is not None
        back = _anaphor_subject(c._sentence, ctx)
        if back is not None:
            c.subject, c.how = back, "anaphor"
            continue
        if c.claimant in claimant_subject:
            c.subject, c.how = claimant_subject[c.claimant], "claimant"
            continue
        s = c._sentence
        assert s is not None
        in_s = [m for m in ctx.mentions if s.start <= m.start < s.end]
        if in_s:
            prev = [m for m in in_s if m.start < c.start]
            c.subject, c.how = (prev[-1] if prev else in_s[0]).slug, "sentence"
    _restatements(items)
    where = {
        id(m): (ctx.seg.at(m.start).paragraph, ctx.sentence_claimant(m.start)) for m in ctx.mentions
    }
    for c in items:
        if c.subject or c._hard_null or c._soft_null or c.attribute == "price_usd_per_mtok":
            continue
        s = c._sentence
        assert s is not None
        # The paragraph's last subject, unless it was named in another claimant's statement
        # ("Cerebras says Kimi K3 ..." does not make Kimi K3 the topic of unclaimed figures).
        para = [
            m
            for m in ctx.mentions
            if m.start < c.start
            and where[id(m)][0] == s.paragraph
            and where[id(m)][1] in (None, c.claimant)
        ]
        if para:
            c.subject, c.how = para[-1].slug, "paragraph"
        elif default_subject:
            c.subject, c.how = default_subject, "default"
    _restatements(items)
    for c in items:
        if c.attribute == "price_usd_per_mtok":
            c.attribute = ""  # input or output never said, and not a restatement: dropped
        if c._claimant_pronoun and not c.claimant:
            c.claimant = ctx.index.organization(c.subject)
        if c.subject is None and c.how == "none" and not _names_a_model(c._sentence, ctx):
            c.warnings.append(NO_MODEL_NAMED)


def _named_in(s: Sentence, ctx: ArticleContext) -> tuple[set[str], int]:
    """(known subject slugs, count of other models) named in sentence ``s``."""
    slugs = {m.slug for m in ctx.mentions + ctx.comparative_mentions if s.start <= m.start < s.end}
    return slugs, sum(1 for n in ctx.competitors if s.start <= n.start < s.end)


def _names_a_model(s: Sentence | None, ctx: ArticleContext) -> bool:
    if s is None:
        return True
    slugs, others = _named_in(s, ctx)
    return bool(slugs) or others > 0


def _anaphor_subject(s: Sentence, ctx: ArticleContext) -> str | None:
    """The subject that "The model ..." / "It ..." / "O modelo ..." / "Ele ..." (sentence
    ``s``'s start) refers to: the one known subject named anywhere in the nearest of the
    three sentences before ``s`` in its paragraph that names a model. ``None`` when ``s``
    starts otherwise, names a model itself, opens its paragraph, or that sentence names
    two subjects or a model the subjects file lacks (ambiguous)."""
    if not _ANAPHOR_START.match(s.text) or _names_a_model(s, ctx):
        return None  # "The model that replaced it, Kimi K3.1 Pro, has ...": named here
    sentences = ctx.seg.sentences
    i = next(k for k, x in enumerate(sentences) if x is s)
    for prev in reversed(sentences[max(0, i - 3) : i]):
        if prev.paragraph != s.paragraph:
            return None  # a heading or a new paragraph may have moved on
        slugs, others = _named_in(prev, ctx)
        if slugs or others:
            return next(iter(slugs)) if len(slugs) == 1 and not others else None
    return None


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
