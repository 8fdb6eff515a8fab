"""Article text -> candidate claims (subject, attribute, qualifiers, value, claimant, span).

Called by the CLI (``tracker claims extract``) and by any code holding article text.
Pure: no I/O. Figures are read by :mod:`claims.extract.figures` and :mod:`claims.extract.dates`, their
attribute by :mod:`claims.extract.rules`, who states them by :mod:`claims.extract.claimants`;
which subject each is about by :mod:`claims.extract.attribution`; this module finds and
classifies the candidates (see :func:`extract`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from functools import cache

from claims.extract import claimants as CL
from claims.extract import rules as R
from claims.extract.attributes import Site, choose
from claims.extract.attribution import resolve
from claims.extract.candidates import Candidate, drop_repeats
from claims.extract.dated_items import is_item_date, item_story
from claims.extract.dates import scan_dates
from claims.extract.document import Document
from claims.extract.figures import Figure, scan_figures
from claims.extract.language import article_locale
from claims.extract.lexicon import alternation, phrases
from claims.extract.lexicon import words as words_list
from claims.extract.licence_names import unlisted_licences
from claims.extract.models import (
    NOT_MODELS,
    every_occurrence,
    figure_owners,
    find_codenames,
    find_compared_models,
    find_models,
    find_related_models,
    find_short_forms,
    find_sibling_tiers,
    find_size_names,
    find_tier_members,
    find_tier_phrases,
)
from claims.extract.name_sizes import name_size
from claims.extract.named_tables import named_column_tables
from claims.extract.negation import affirmed
from claims.extract.placed_models import (
    find_placed_models,
    find_subject_names,
    without_rival_nouns,
)
from claims.extract.price_factor import qualify_price_factors
from claims.extract.price_pairs import pair_prices
from claims.extract.price_tiers import price_tiers
from claims.extract.segment import Sentence
from claims.extract.size_lists import find_listed_sizes, find_own_listed_sizes
from claims.extract.spans import after_marker, merge_parenthetical, merge_percent_ranges, overlaps
from claims.extract.table_cells import (
    Reading,
    read_captioned_cells,
    read_cell,
    read_pair_cell,
    read_prose_cells,
    read_spec_cell,
    read_tier_cell,
)
from claims.subjects.references import Mention, SubjectIndex, SubjectRef
from claims.values.value import Value, quantity, text_value

# A list item's marker alone before its figure ("- 128,000 tokens" under "- Context
# window"): no words of the figure's own, the card's label says what it is.
_BULLET_ONLY = re.compile(r"^\s*[-*•·▪‣◦]\s+$")


@cache
def _comparison_opener() -> re.Pattern[str]:
    """ "In comparison,", "Em comparação,": a sentence compared with the one before."""
    return re.compile(rf"\s*(?:{alternation('comparison_openers')})\b", re.I)


@cache
def _absence(locale: str) -> re.Pattern[str]:
    """ "no license yet", "sem licença": the absence words of the article's language only
    (lexicon/<lang>/absence.txt), since English "no" is Portuguese "in the"."""
    return re.compile(rf"\b(?:{alternation('absence', locale)})\b", re.I)


# A date counted from now ("dentro de uma semana", "within two weeks", "in 3 days").
_RELATIVE_SPAN = re.compile(r"\b(?:semanas?|weeks?|dias?|days?|m[eê]s(?:es)?|months?)\b", re.I)
# A statement reported in the past about the future ("would", "seria"): its "within a
# week" counts from when it was said.
_REPORTED_FUTURE = re.compile(r"\b(?:" + phrases("reported_future") + r")\b", re.I)
# One lower-case word between a row's benchmark name and its score: the category column.
_CATEGORY_GAP = re.compile(r"[^\S\n]+[a-z]{3,}[^\S\n]+")
# An opening quote may stand before the name ("33,7% no “Humanity’s Last Exam”").
_ON_NAME = re.compile(
    r"\s*(?:on|in|at|for|no|na|em|nos|nas)\s+(?:the\s+|o\s+|a\s+)?[“\"‘'«]?", re.I
)
# A score as written, with its unit ("80,6", "71.2%", "70.7 percent", "1,930 points").
_FIGURE_HEAD = re.compile(
    r"[\d.,]*\d(?:\s*(?:%|percent\b|por\s+cento\b|pontos\b|points\b|pts\b))?", re.I
)
# "on"/"no" and at most five plain words before a benchmark's name ("no teste de
# raciocínio matemático ", "on the hard math benchmark ").
_ON_PHRASE = re.compile(
    r"\s+(?:on|in|no|na|em|nos|nas)\s+(?:the\s+|o\s+|a\s+)?(?:[^\W\d_][\w-]*\s+){0,5}[“\"‘'«]?",
    re.I,
)
# Past a figure: a comma or semicolon then a conjunction ("84.8, e no", "84.8, and on").
_NEXT_CLAUSE = re.compile(
    r"[^\s,;]*\s*[,;]\s*(?:" + alternation("clause_conjunctions") + r")\s", re.I
)
_GLUED_YEAR = re.compile(r"[A-Za-z](?:19|20)\d\d\b")
_SIZE_OR_FORM = re.compile(r"\d+(?:\.\d+)?[bmt]|instruct|chat|base|it")
_INDEX_WORDS = ("índice", "indice", "index", "leaderboard", "ranking")


def extract(
    text: str,
    subjects: Sequence[SubjectRef],
    *,
    lang: str | None = "auto",
    published: dt.date | None = None,
    default_subject: str | None = None,
    tz: str | None = None,
    warnings: list[str] | None = None,
) -> list[Candidate]:
    """Candidate claims in article ``text``, in text order.

    ``lang``: ``pt``/``pt-BR``/``pt-PT``/``en``/``auto``; ``published`` resolves missing
    years and relative dates; ``default_subject`` (a slug) is used for a figure in a
    paragraph that names no subject. Subject rules, in order: the nearest entity before the
    figure in its clause (a competitor or a generic "um modelo denso" there: *not* ours), a
    subject named later in the clause, for "The model/It/O modelo/Ele ..." the one subject
    of the sentence before, the subject the figure's claimant was seen speaking about ("post
    da Cerebras" -> Kimi K3), one named in the sentence, a restatement of a figure already
    attributed, the last subject of the paragraph, then ``default_subject``. Conditional
    sentences ("Se ...", "If ...") and questions yield nothing. Raises nothing on odd text:
    a figure that cannot be read unambiguously ("1,000" in pt, "bilhões" in pt-PT) yields
    no candidate, and its reason is appended to ``warnings`` when a list is given. A
    sentence repeated word for word (a headline shown twice) gives its candidates once.
    """
    original = text
    doc = Document.read(text)  # "GPT‑4o" as "GPT-4o" (offsets unchanged), segments, tables
    text = doc.text
    locale = article_locale(text, lang)
    ctx = _Context(doc, subjects, locale, published, tz, default_subject)
    items = ctx.figures() + ctx.table_figures() + ctx.ranks() + ctx.dates() + ctx.licenses()
    items += ctx.size_pairs()
    items.sort(key=lambda c: c.start)
    resolve(items, ctx, default_subject)
    items = qualify_price_factors(items, text, ctx.index, ctx.warnings)
    items = [c for c in items if not ctx.factor_against_model(c)]
    if warnings is not None:
        warnings.extend(ctx.warnings)
    for c in items:
        c.text = original[c.start : c.end]  # quotes as written, not as normalised
    return drop_repeats([c for c in items if c.attribute])


class _Context:
    """Everything found once per article: sentences, mentions, named things, claimants."""

    def __init__(
        self,
        doc: Document,
        subjects: Sequence[SubjectRef],
        locale: str,
        published: dt.date | None,
        tz: str | None,
        default_subject: str | None = None,
    ) -> None:
        text = doc.text
        self.default_subject = default_subject
        self.doc, self.text, self.locale, self.published, self.tz = doc, text, locale, published, tz
        self.warnings: list[str] = []
        self._by_sentence: dict[int, list[CL.ClaimantMention]] = {}
        self.price_sides: dict[int, str] = {}
        self.per_mtok_currencies: set[str | None] = set()
        self.index = SubjectIndex(subjects)
        self.subject_refs = list(subjects)
        self.variant_names = sorted({v for s in subjects for v in s.variants}, key=len)[::-1]
        self.seg = doc.segments
        self.benches = R.find_benchmarks(text)
        comparatives = without_rival_nouns(text, R.find_comparatives(text))
        self.comparatives = comparatives
        mentions, self.competitors = self._names(comparatives)
        taken = [(m.start, m.end) for m in mentions] + [(b.start, b.end) for b in self.benches]
        self.comparative_mentions = [
            m for m in mentions if after_marker(m.start, comparatives, text)
        ]
        self.mentions = [m for m in mentions if m not in self.comparative_mentions]
        self.mentions = sorted(self.mentions + self._own_listed_sizes(), key=lambda m: m.start)
        # Models that own only the figure before them ("up from 68% for its predecessor Y").
        self.figure_owners = figure_owners(text, self.competitors)
        owners = {(n.start, n.end) for n in self.figure_owners}
        # Models named as the sentence's own topic, not after "than"/"vs"/"compared to".
        self.named_competitors = [
            c
            for c in self.competitors
            if not after_marker(c.start, comparatives, text) and (c.start, c.end) not in owners
        ]
        self.generics = R.find_generic(text)
        self.date_spans = scan_dates(text, locale, published, tz)
        if published is None:
            # A date without a year, or a relative one ("há 3 dias"), needs the article's
            # date; say how many were left out rather than dropping them silently.
            based = scan_dates(text, locale, dt.date(2000, 1, 1), tz)
            missing = len(based) - len(self.date_spans)
            if missing > 0:
                self.warnings.append(
                    f"{missing} date(s) without a year or relative to the article were "
                    "skipped: give the published date (--published YYYY-MM-DD)"
                )
        found = CL.find_claimants(text, self.index.organizations())
        # A subject, one of its variants ("A Highspeed promete ...") or another model
        # ("Orion-5 Max introduced ...") is not a claimant.
        models = [(m.start, m.end) for m in self.competitors]
        models += [(m.start, m.end) for m in mentions]  # "Zephyr 3 Pro ranks": not "Pro"
        named = self.index.names_a_model
        self.claimants: list[CL.ClaimantMention] = [
            c for c in found if c.pronoun or not (named(c.bare) or overlaps(c.start, c.end, models))
        ]
        self.claimant_names = sorted(
            {c.name for c in self.claimants if c.name}, key=len, reverse=True
        )
        firsts = CL.claimant_keys(self.claimant_names)
        self._claimant_word = (
            re.compile(r"\b(" + "|".join(re.escape(f) for f in firsts) + r")\b") if firsts else None
        )
        self._claimant_by_first = firsts
        # Tables pasted with single spaces are found by their columns' model names.
        self.tables = doc.tables + named_column_tables(text, models)
        masked = taken + [(c.start, c.end) for c in self.competitors]
        # Table cells are read by row and column (table_figures), never by the words around.
        masked += [(c.start, c.end) for t in self.tables for _, _, c in t.cells()]
        masked += [(c.start, c.end) for t in self.tables for c in t.header]  # "Scout (17B/109B)"
        # A row label is a name too: "LiveCodeBench(2407-2409 Pass@1)", "Maverick (17B/400B)".
        masked += [(r[0].start, r[0].end) for t in self.tables for r in t.rows]
        masked += [(d.start, d.end) for d in self.date_spans]
        self.mask = bytearray(len(text))
        for a, b in masked:
            self.mask[a:b] = b"\x01" * (b - a)

    def _other_models(
        self, comparatives: list[R.Named], taken: list[tuple[int, int]]
    ) -> list[R.Named]:
        """Model names the subjects file does not know (:mod:`claims.extract.models`), each
        wherever it is written, without the subjects' own names (``taken``) and families."""
        text = self.text
        # "the 70B" in an article on a 70B model is that model; any other size another
        own_refs = [r for r in self.subject_refs if r.slug == self.default_subject]
        own = {
            w for ref in own_refs or self.subject_refs for n in ref.names for w in _name_words(n)
        }
        found = _merge_models(
            R.find_competitors(text),
            find_models(text)
            + find_related_models(text)
            + find_compared_models(text, comparatives)
            + find_size_names(text, own)
            + find_listed_sizes(text, own)
            + find_sibling_tiers(text, [n for ref in own_refs for n in ref.names]),
        )
        # names known only by their place ("Zephyr-Max from rival ..."), where no name
        # found by its shape stands
        spans = [(n.start, n.end) for n in found]
        placed = find_placed_models(text, self.index.organizations())
        if own_refs:  # "Nimbus 5 has ...": not the article's subject unless its name
            placed += find_subject_names(text, [_name_words(n) for r in own_refs for n in r.names])
        found = sorted(
            found + [n for n in placed if not overlaps(n.start, n.end, spans)],
            key=lambda n: n.start,
        )
        found = _merge_models(found, every_occurrence(text, found))
        found = [_one_line(n) for n in found]
        return [
            c
            for c in found
            if not overlaps(c.start, c.end, taken)
            and not self.index_names_family(c.name)
            and not _not_a_model(c.name)
        ]

    def _names(self, comparatives: list[R.Named]) -> tuple[list[Mention], list[R.Named]]:
        """The subjects' mentions and the other models' names; a model name ending a
        subject's name ("Cirrus 12B" in an article on "Nimbus Labs Cirrus 12B") is a
        mention of that subject, not another model."""
        mentions = self._without_sibling_prefixes(self.index.mentions(self.text))
        taken = [(m.start, m.end) for m in mentions] + [(b.start, b.end) for b in self.benches]
        # "NC-4.0" of "CC-BY-NC-4.0" is part of a licence's name, no model's
        taken += [n.span() for n in R.LICENSE_NAME_RE.finditer(self.text)]
        short = [
            (n, self._shortened_subject(n.name)) for n in self._other_models(comparatives, taken)
        ]
        mentions += [Mention(n.start, n.end, slug, "subject", n.name) for n, slug in short if slug]
        others = [n for n, slug in short if not slug]
        # "Nemotron 3, in three sizes, Nano (...), Super (...)": a tier alone is a member
        families = [(m.start, m.end, m.name) for m in mentions if m.name]
        families += [(n.start, n.end, n.name) for n in others]
        for n in [*find_tier_members(self.text, families), *find_tier_phrases(self.text, families)]:
            if overlaps(n.start, n.end, taken):
                continue
            whole = [m for m in self.index.mentions(n.name) if (m.start, m.end) == (0, len(n.name))]
            if whole and whole[0].kind == "subject":
                mentions.append(Mention(n.start, n.end, whole[0].slug, "subject", n.name))
            else:
                others.append(n)
        mentions, others = self._with_short_forms(mentions, others, taken)
        mentions.sort(key=lambda m: m.start)
        return mentions, sorted(others, key=lambda n: n.start)

    def _own_listed_sizes(self) -> list[Mention]:
        """The subject's own size among its siblings' ("3B" of "1B e 3B" in an article on
        "Llama 3.2 3B") as a mention of it: not masked, that size is its figure too."""
        slug = self.default_subject
        own = {
            w for r in self.subject_refs if r.slug == slug for n in r.names for w in _name_words(n)
        }
        if slug is None:
            return []
        return [
            Mention(a, b, slug, "subject", self.text[a:b])
            for a, b in find_own_listed_sizes(self.text, own)
        ]

    def _with_short_forms(
        self, mentions: list[Mention], others: list[R.Named], taken: list[tuple[int, int]]
    ) -> tuple[list[Mention], list[R.Named]]:
        """``mentions`` and ``others`` with each model's short name written after its full
        name ("Cirrus" after "Cirrus 12B", :func:`claims.extract.models.find_short_forms`):
        a subject's mention when the full name was the subject's, else another model. A
        word of a subject's names stays no other model's short name ("Tern" of a subject
        "Borealis Tern 30B" is not "Tern 14B")."""
        text = self.text
        written = {text[m.start : m.end]: m.slug for m in mentions if m.kind == "subject"}
        named = [R.Named(m.start, m.end, "competitor", text[m.start : m.end]) for m in mentions]
        own_words = {w for ref in self.subject_refs for n in ref.names for w in _name_words(n)}
        own_words -= {n.name.split()[0].lower() for n in named if len(n.name.split()) == 2}
        taken = taken + [(m.start, m.end) for m in mentions]
        for n in find_short_forms(text, others + named, own_words):
            if overlaps(n.start, n.end, taken):
                continue
            if n.name in written:
                mentions.append(Mention(n.start, n.end, written[n.name], "subject", n.name))
            else:
                others.append(n)
        # "Llama 4 Behemoth ... o Behemoth possui": a codename, the longer name replacing
        # its family and version found alone
        for n in find_codenames(text, others, own_words):
            if overlaps(n.start, n.end, taken):
                continue
            others = [o for o in others if not (n.start <= o.start and o.end <= n.end)]
            others.append(n)
        return mentions, others

    def _without_sibling_prefixes(self, mentions: list[Mention]) -> list[Mention]:
        """``mentions`` without a subject's short name that begins a sibling in another
        tier: "Jamba 1.5" of "Jamba 1.5 Mini" in an article on "Jamba 1.5 Large" names the
        Mini (:func:`claims.extract.models.find_sibling_tiers`), not the subject."""
        own = [n for r in self.subject_refs if r.slug == self.default_subject for n in r.names]
        siblings = find_sibling_tiers(self.text, own)
        return [
            m
            for m in mentions
            if not any(
                s.start <= m.start and m.end <= s.end and m.end - m.start < s.end - s.start
                for s in siblings
            )
        ]

    def _shortened_subject(self, name: str) -> str | None:
        """The slug of the one subject whose name ends with the model name ``name`` (two
        words or more) after other words ("Cirrus 12B" of "Nimbus Labs Cirrus 12B"), or
        whose checkpoint ``name`` is (:func:`_checkpoint_of`: "Nimbus-5-24B-Instruct-2506"
        of "Nimbus 5"), else ``None``."""
        words = _name_words(name)
        if len(words) < 2:  # "the 405B", "K3": too short to tell one model's name
            return None
        slugs = {
            ref.slug
            for ref in self.subject_refs
            for n in ref.names
            if len(_name_words(n)) > len(words)
            and _name_words(n)[-len(words) :] == words
            or _checkpoint_of(words, ref)
        }
        return slugs.pop() if len(slugs) == 1 else None

    def index_names_family(self, name: str) -> bool:
        """True when ``name`` is a subject's name without its size or "Instruct" ("Llama
        3.3" for "Llama 3.3 70B"): the subject itself, not another model."""
        words = _name_words(name)
        rest = words[2:]
        if rest and not any(_SIZE_OR_FORM.fullmatch(w) for w in rest):
            # "Llama 3.3 Community License" in an article on Llama 3.3 70B (but
            # "gpt-oss-120b" is another size, another model than gpt-oss-20b)
            return self.index_names_family(" ".join(words[:2]))
        for ref in self.subject_refs:
            for n in ref.names:
                full = _name_words(n)
                if len(full) > len(words) and full[: len(words)] == words:
                    if all(_SIZE_OR_FORM.fullmatch(w) for w in full[len(words) :]):
                        return True
        return False

    def factor_against_model(self, c: Candidate) -> bool:
        """True for a price or speed factor with no variant whose sentence names another
        model: such factors compare variants of one model, so "4-5x lower cost than Llama
        3.1 405B" states none (the reason goes to the warnings)."""
        if c.attribute not in ("price_factor", "speedup_factor") or "variant" in c.qualifiers:
            return False
        s = c._sentence
        assert s is not None
        others = [m for m in self.mentions + self.comparative_mentions if m.slug != c.subject]
        named = [(n.start, n.end) for n in others if n.kind == "subject"]
        # A named model only: "2,5 vezes mais rápido que a versão anterior" stays a factor.
        named += [(n.start, n.end) for n in self.competitors if n.kind != "relation"]
        if not any(s.start <= a < s.end for a, _ in named):
            return False
        self.warnings.append(
            f"at {c.start}: {c.text!r}: a factor against another model, not a variant"
        )
        return True

    # -- candidates by kind -------------------------------------------------------

    def figures(self) -> list[Candidate]:
        """Numeric figures (and "o dobro"/"twice") classified into attributes."""
        figs = [
            f
            for f in scan_figures(self.text, self.locale)
            if f.kind != "ordinal" and self.mask.find(1, f.start, f.end) == -1
        ]
        figs = merge_percent_ranges(merge_parenthetical(figs, self.text), self.text)
        figs, self.price_sides = pair_prices(figs, self.text, lambda p: self.seg.at(p).end)
        figs, tiers = price_tiers(figs, self.text, self._sentence_span, self.price_sides)
        counts = [(t.start, t.end) for t in tiers.values()]
        figs = [
            f for f in figs if f.kind == "money" or not any(a <= f.start < b for a, b in counts)
        ]
        self.per_mtok_currencies = {
            f.currency
            for f in figs
            if f.kind == "money"
            and f.per
            and f.to_value() is not None
            and f.default_unit().endswith("_per_mtok")
        }
        self.warnings += [f"at {f.start}: {w}" for f in figs if not f.readable for w in f.warnings]
        out: list[Candidate] = []
        for i, f in enumerate(figs):
            s = self.seg.at(f.start)
            if s.hypothetical:
                continue
            prev_end = figs[i - 1].end if i and figs[i - 1].start >= s.start else s.start
            next_start = (
                figs[i + 1].start if i + 1 < len(figs) and figs[i + 1].start < s.end else s.end
            )
            cs, ce = s.clause_bounds(f.start)
            lead = self.text[max(cs, prev_end) : f.start]
            before = self._label_of(f.start, prev_end) + _BULLET_ONLY.sub("", lead)
            after = self.text[f.end : min(ce, next_start)]
            tier = tiers.get(f.start)
            if tier is not None and tier.start > f.end:
                after = after[: tier.start - f.end]  # "for prompts" names no side
            c = self._classify(f, s, before, after, self.text[cs:ce], (prev_end, next_start))
            if c is None and R.lineup_of_params(f, after):
                c = self._own_lineup_end(f, s)
            if c is not None and c.attribute == "total_params" and out:
                # A bare count after an active one in its sentence continues it ("18.6 to
                # 31.3 billion are activated, averaging about 27 billion").
                # A larger count is a total ("o modelo completo de 2,8 trilhões").
                last = out[-1]
                top = last.value.high if last.value.high is not None else last.value.value
                if last.attribute == "active_params" and last._sentence is s:
                    if not R.params_cued(before, after) and _at_most(c.value, top):
                        c.attribute = "active_params"
            if c is not None and tier is not None and c.attribute.startswith("price_"):
                c.qualifiers["conditions"] = tier.text
            if c is not None and affirmed(c, before, self.warnings):
                c.warnings.extend(f.warnings)
                out.append(c)
        for m in R.FACTOR_WORD_RE.finditer(self.text):
            s = self.seg.at(m.start())
            if s.hypothetical:
                continue
            cs, ce = s.clause_bounds(m.start())
            before = self.text[cs : m.start()]
            attr = R.factor_attribute(self.text[m.end() : ce], before, self.variant_names)
            if attr:
                v = quantity(R.FACTORS[m.group("w").lower()], "times")
                c = self._candidate(attr, v, m.start(), m.end(), s, self.variant_q(s))
                out += [c] if affirmed(c, before, self.warnings) else []
        return out

    def _sentence_span(self, pos: int) -> tuple[int, int]:
        s = self.seg.at(pos)
        return s.start, s.end

    def _own_lineup_end(self, f: Figure, s: Sentence) -> Candidate | None:
        """The subject's own size at one end of a family's line-up ("de 0,6 bilhão a 235
        bilhões de parâmetros" on Qwen3-235B-A22B, whose name states 235B): its total
        parameter count, decided here (``how`` "listed"); ``None`` when neither end is the
        size the article subject's name states (:func:`claims.extract.name_sizes.name_size`)."""
        ref = self.index.subjects.get(self.default_subject or "")
        size = name_size([ref.slug, *ref.names]) if ref else None
        v = f.to_value("params")
        if ref is None or size is None or v is None:
            return None
        for end in (v.high, v.low):
            if isinstance(end, Decimal) and abs(end - size) <= size / 100:
                c = self._candidate("total_params", quantity(end, "params"), f.start, f.end, s, {})
                c.subject, c.how = ref.slug, "listed"
                return c
        return None

    def size_pairs(self) -> list[Candidate]:
        """ "a 30B-A3B MoE model": a size written as total and active counts joined by
        "-A" after an article (:data:`~claims.extract.rules.SIZE_PAIR_RE`; a model's name
        such as "Qwen3-30B-A3B" glues it to a family instead) gives both counts."""
        out: list[Candidate] = []
        for m in R.SIZE_PAIR_RE.finditer(self.text):
            s = self.seg.at(m.start())
            if s.hypothetical:
                continue
            for attr, g in (("total_params", "total"), ("active_params", "active")):
                a, b = m.span(g)
                figs = scan_figures(self.text[a:b], self.locale)
                v = figs[0].to_value("params") if len(figs) == 1 else None
                if v is not None:
                    out.append(self._candidate(attr, v, a, b, s, {}))
        return out

    def table_figures(self) -> list[Candidate]:
        """Figures in table cells: the model is the cell's column header or row label (the
        one naming a model), the attribute comes from the other (:mod:`claims.extract.table_cells`).
        Cells of models the subjects file lacks are those models' figures (``how="other"``)."""
        out: list[Candidate] = []
        for t in self.tables:
            for label, head, cell in t.cells():
                read = read_cell(t, label, head, cell, self.text, self.locale, self.index)
                spec = (
                    None
                    if read
                    else read_spec_cell(t, label, head, cell, self.text, self.locale, self.index)
                    or read_tier_cell(t, label, head, cell, self.text, self.locale, self.index)
                )
                if spec is not None:  # a spec sheet's row: its model as running text's
                    attr, q, v, (a, b) = spec
                    out.append(self._candidate(attr, v, a, b, self.seg.at(a), q))
                    continue
                reads = (
                    [read]
                    if read
                    else read_pair_cell(label, head, cell, self.text, self.locale, self.index)
                )
                out += self._table_readings(reads)
            out += self._table_readings(read_prose_cells(t, self.text, self.locale, self.index))
            captioned = read_captioned_cells(t, self.text, self.locale, self.index)
            out += self._table_readings(captioned)
        return out

    def _table_readings(self, reads: list[Reading]) -> list[Candidate]:
        """Candidates of table readings: the reading's model, or another model's figure
        (``how="other"``, never the subject's) when the subjects file lacks it."""
        out = []
        for slug, attr, q, v, (a, b), other in reads:
            c = self._candidate(attr, v, a, b, self.seg.at(a), q)
            c.subject, c.how = slug, "table"
            if slug is None:  # another model's row: its figure, never the subject's
                c.how, c.other_model, c._hard_null = "other", other, True
            out.append(c)
        return out

    def _classify(
        self, f: Figure, s: Sentence, before: str, after: str, clause: str, window: tuple[int, int]
    ) -> Candidate | None:
        """The candidate figure ``f`` states, by the rules table of
        :mod:`claims.extract.attributes`, or ``None``."""
        site = Site(f, s, before, after, clause, window, self.text)
        choice = choose(site, self)
        if not choice.attribute:
            return None
        v = (choice.figure or f).to_value(choice.unit)
        if v is None:
            return None
        return self._candidate(choice.attribute, v, f.start, f.end, s, dict(choice.qualifiers))

    def ranks(self) -> list[Candidate]:
        """Leaderboard ranks ("4º lugar", "em oitavo", "ranked #2") with a named leaderboard."""
        out = []
        for m in R.RANK_RE.finditer(self.text):
            if overlaps(m.start(), m.end(), [(d.start, d.end) for d in self.date_spans]):
                continue
            s = self.seg.at(m.start())
            if s.hypothetical or not (m.group("top") or R.RANK_CONTEXT_RE.search(s.text)):
                continue
            if m.group("top") and _SCORE_AFTER_TOP.match(self.text, m.end()):
                continue  # "tops the SWE-bench leaderboard at 72.5%": the score is the claim
            board = self.bench(m.start(), s)
            if not board:
                continue
            v = quantity(str(R.rank_value(m)), "rank")
            q = {"leaderboard": board["benchmark"]}
            out.append(self._candidate("leaderboard_rank", v, m.start(), m.end(), s, q))
        return out

    def dates(self) -> list[Candidate]:
        """Dates next to weights words (weights_release_date) or release words (release_date)."""
        out = []
        spans = self.date_spans
        for i, d in enumerate(spans):
            s = self.seg.at(d.start)
            if s.hypothetical:
                continue
            lo = spans[i - 1].end if i and spans[i - 1].end > s.start else s.start
            hi = spans[i + 1].start if i + 1 < len(spans) and spans[i + 1].start < s.end else s.end
            before, after = self.text[lo : d.start], self.text[d.end : hi]
            if not _BULLET_ONLY.sub("", before).strip():  # a spec card's value line
                before = self._label_of(d.start, 0)
            w = R.nearest(R.WEIGHTS_KW, before, after)
            r = R.nearest(R.RELEASE_KW, before, after)
            said = r is not None and not r[1] and R.weights_released(before) == r[0]
            # both cues far, the release word the nearer ("On 2 Sep, EPFL announced the
            # launch of Apertus, an open-source LLM"): the launch of an open model, both dates
            both = bool(w and r and r[0] < w[0] and r[0] > 40 and not said)
            opener = R.announced_opener(self.text[s.start : d.start])
            if opener:  # "Announced last night, April 7, 2025, the model ... open weights"
                attr, both = "release_date", bool(w)
            elif w and not both and (not r or w[0] <= r[0] or r[0] > 40 or said):
                attr = "weights_release_date"
            elif (
                r
                or R.launches_family(before)
                or R.announces_new_model(before, after)
                or self._announced_subject(d.end, after)
            ):
                attr = "release_date"
            elif is_item_date(self.text, d.start) and R.RELEASE_KW.search(
                item_story(self.text, d.end)
            ):
                attr = "release_date"  # "Date: April 7-8" over "Zhipu AI released GLM-5.1"
            else:
                continue
            if R.others_released(before) or R.released_by_many(after):
                continue  # "our 7B and 13B models released in November": theirs
            if d.reading.denied:  # "not in March" states no date: say so rather than drop it
                self.warnings.append(f"at {d.start}: {d.denial_note()}")
                continue
            if _RELATIVE_SPAN.search(d.text) and _REPORTED_FUTURE.search(before):
                # "tweeted that Grok would be open-sourced within a week": a week from
                # the tweet, not from the article; no date can be computed.
                self.warnings.append(
                    f"at {d.start}: {d.text!r}: relative to a reported statement, skipped"
                )
                continue
            out.append(self._candidate(attr, d.reading.to_value(), d.start, d.end, s, {}))
            if attr == "release_date" and (both or R.released_and_opened(self.text[d.end : hi])):
                # "On September 1, Meituan released and open-sourced LongCat": both dates
                v = d.reading.to_value()
                out.append(self._candidate("weights_release_date", v, d.start, d.end, s, {}))
        return out

    def _announced_subject(self, end: int, after: str) -> bool:
        """True when a date ending at ``end`` is followed by a lab announcing a subject by
        name ("Today, Microsoft announced Phi-4-reasoning, ..."): the subject's release."""
        at = R.announces_after(after)
        return at is not None and any(m.start == end + at for m in self.mentions)

    def licenses(self) -> list[Candidate]:
        """A licence name with the word licence/licença at most four words from it in its
        clause ("under the Apache 2.0 license", "sob a licença MIT"), as its line's label
        ("License: Apache 2.0"), or after "licence ... is/will be/será" in its clause ("a
        licença do modelo será MIT"), in a clause that does not deny it ("no license yet")."""
        out = []
        names = [
            (n.start(), n.end(), n.group("lic"), True)
            for n in R.LICENSE_NAME_RE.finditer(self.text)
        ]
        # a licence the names file lacks ("TII Falcon-LLM License 2.0"), where no known one
        # is; its id keeps the word ("Mistral Research License": mistral-research-license)
        names += [
            (u.start, u.end, u.name, False)
            for u in unlisted_licences(self.text)
            if not any(a < u.end and u.start < b for a, b, _, _ in names)
        ]
        for start, stop, lic, listed in sorted(names):
            s = self.seg.at(start)
            cs, ce = s.clause_bounds(start)
            before = " ".join(self.text[cs:start].split()[-4:])
            after = " ".join(self.text[stop:ce].split()[:4])
            near = " ".join((before, lic, after, self._label_of(start, 0)))
            said = R.LICENSE_IS_RE.search(self.text[cs:start])  # "the licence will be"
            said = said or R.licence_under_re().search(self.text[cs:start])
            if not (R.LICENSE_WORD_RE.search(near) or said):
                continue
            # "no license yet", "sem licença": an absence in the name's own clause ("os
            # pesos não saem antes de 2027, e a licença será MIT" states MIT)
            if s.hypothetical or _absence(self.locale).search(self.text[cs:start]):
                continue
            name, end = R.license_name_span(lic, start, stop) if listed else (lic, stop)
            v = text_value(R.license_id(name))
            out.append(self._candidate("license", v, start, end, s, {}))
        return out

    # -- helpers ------------------------------------------------------------------

    def sentence_claimant(self, pos: int) -> str | None:
        """The first named claimant of the sentence holding ``pos`` (pronouns excluded)."""
        for m in self._claimants_in(self.seg.at(pos)):
            if m.name:
                return m.name
        return None

    def _claimants_in(self, s: Sentence) -> list[CL.ClaimantMention]:
        found = self._by_sentence.get(s.start)
        if found is None:
            found = [m for m in self.claimants if s.start <= m.start < s.end]
            self._by_sentence[s.start] = found
        return found

    def _candidate(
        self, attr: str, v: Value, start: int, end: int, s: Sentence, q: dict[str, str]
    ) -> Candidate:
        c = Candidate(None, attr, dict(q), v, None, start, end, self.text[start:end], _sentence=s)
        if "variant" not in c.qualifiers:
            # A variant named in the figure's own clause qualifies it ("256K in the Highspeed").
            cs, ce = s.clause_bounds(start)
            for m in self.mentions:
                if m.kind == "variant" and cs <= m.start < ce:
                    c.qualifiers["variant"] = m.name
                    break
        self._claimant(c, s)
        return c

    def _label_of(self, pos: int, prev_end: int) -> str:
        """The label of a "label: value" line read before its first figure ("Input: $1.20
        per million tokens" is an input price, "Context: 128K tokens" a context window),
        with a space, or of a spec card's value line (the label alone on the line above:
        "Output Tokens (1M)" then "$1.25", :meth:`Document.card_label`); "" elsewhere."""
        line = self.doc.line_at(pos)
        if line.label is None:
            card = self.doc.card_label(line)
            if card is None:
                return ""
            return self.text[card.start : card.end].strip().lstrip("-*•·▪‣◦").strip() + " "
        if not (prev_end <= line.label[1] <= pos) or line.start > pos:
            return ""
        return self.text[line.label[0] : line.label[1]] + " "

    def names_subject(self, start: int, end: int) -> bool:
        """True when a subject's name starts between ``start`` and ``end`` (after a
        comparison word too: "cheaper than Kimi K3")."""
        return any(start <= m.start < end for m in self.mentions + self.comparative_mentions)

    def paired_side(self, start: int) -> str | None:
        """The side ("input"/"output") a price pair settled for the price at ``start``."""
        return self.price_sides.get(start)

    def variant_q(self, s: Sentence) -> dict[str, str]:
        for m in self.mentions:
            if m.kind == "variant" and s.start <= m.start < s.end:
                return {"variant": m.name}
        return {}

    def _on_named_after(self, pos: int) -> R.Named | None:
        """The benchmark joined to the figure at ``pos`` by "on"/"no" and at most five plain
        words ("80,6 no teste de raciocínio matemático AIME25", "71% on the hard math
        benchmark AIME 2025"): the figure's, wherever other names stand."""
        fig = _FIGURE_HEAD.match(self.text, pos)
        if fig is None:
            return None
        for b in self.benches:
            if fig.end() < b.start <= fig.end() + 80:
                return b if _ON_PHRASE.fullmatch(self.text, fig.end(), b.start) else None
        return None

    def _carried_bench(self, s: Sentence) -> R.Named | None:
        """The one benchmark the sentence before ``s`` names, when ``s`` opens with a
        comparison ("In comparison, the Small version scored 70.7 percent";
        ``lexicon/<lang>/comparison_openers.txt``), else ``None``."""
        if s.start == 0 or not _comparison_opener().match(self.text, s.start, s.end):
            return None
        prev = self.seg.at(s.start - 1)
        named = [b for b in self.benches if prev.start <= b.start < prev.end]
        return named[-1] if named and len({b.name for b in named}) == 1 else None

    def label_bench(self, f: Figure) -> dict[str, str] | None:
        """Benchmark qualifiers when a benchmark name ends at most 3 characters before ``f``
        ("IFEval (92.1)", "MATH: 77"), labels ``f``'s line ("- GPQA: 59.1 → 68.4"), or
        follows ``f`` after "on"/"no" ("88.0 on AIME 2025")."""
        line = self.doc.line_at(f.start)
        for b in self.benches:
            if f.end < b.start <= f.end + 12 and _ON_NAME.fullmatch(self.text, f.end, b.start):
                return _bench_q(b)  # "scores 88.0 on AIME 2025"
            if b.end > f.start or b.end < line.start:
                continue
            gap = self.text[b.end : f.start]
            adjacent = len(gap) <= 3 and not gap.strip(" :(~≈")
            if adjacent or (line.label is not None and line.label[1] == b.end):
                return _bench_q(b)
            if _CATEGORY_GAP.fullmatch(gap) and not self.text[line.start : b.start].strip(" -•*|"):
                return _bench_q(b)  # a table row "AIME 2025 math 88.9": name, category, score
        return None

    def bench(
        self, pos: int, s: Sentence, window: tuple[int, int] | None = None
    ) -> dict[str, str] | None:
        """Benchmark qualifiers for a figure at ``pos``: a benchmark named between the figure's
        neighbours (``window``), else a generic word there ("no índice", "neste benchmark")
        meaning the last one of that sort named before, else the same search in the sentence.
        The second figure of "83.1% vs. 81.4%" shares the first one's benchmark."""
        first = R.versus_first(self.text, pos, s.start)
        if first is not None:
            return self.bench(first, s)
        chosen = self._on_named_after(pos)
        spans = [] if chosen else [window] if window else []
        for lo, hi in [*spans, (s.start, s.end)] if chosen is None else []:
            text = self.text[lo:hi]
            inside = [b for b in self.benches if lo <= b.start < hi and s.start <= b.start < s.end]
            if window and (lo, hi) == window and lo > s.start:
                # "82.0% on MMLU, 87.0% on the MGSM": a name joined to the figure before
                # this one by "on"/"no" is that figure's.
                inside = [b for b in inside if not _ON_NAME.fullmatch(self.text, lo, b.start)]
            own = [b for b in inside if not _NEXT_CLAUSE.match(self.text[pos : b.start])]
            # "MMLU (...), it scored 84.8, and on HumanEval, ..., 82.6": a name after the
            # figure past a comma and a conjunction opens the next figure's clause.
            inside = own or inside
            if inside:
                # The smallest gap wins, a name before the figure on a tie: "MMLU 88.6%,
                # GPQA Diamond 51.1%" gives 51.1 to GPQA Diamond, not to MMLU.
                chosen = min(inside, key=lambda b: pos - b.end if b.end <= pos else b.start - pos)
                break
            g = R.GENERIC_BENCH_RE.search(text) if text else None
            if g:
                want_index = g.group(0).lower() in _INDEX_WORDS
                earlier = [
                    b for b in self.benches if b.start < pos and ("Index" in b.name) == want_index
                ]
                if earlier:
                    chosen = earlier[-1]
                    break
        if chosen is None:
            chosen = self._carried_bench(s)
        if chosen is None:
            return None
        q = {"benchmark": chosen.name}
        version = chosen.version
        if version is None:
            versions = {b.version for b in self.benches if b.name == chosen.name and b.version}
            version = versions.pop() if len(versions) == 1 else None
        if version:
            q["version"] = version
        return q

    def _claimant(self, c: Candidate, s: Sentence) -> None:
        cs, ce = s.clause_bounds(c.start)
        clause_text = self.text[cs : c.start]
        hit = self._claimant_word.search(clause_text) if self._claimant_word else None
        if hit:
            c.claimant = self._claimant_by_first[hit.group(1)]
            return
        in_s = self._claimants_in(s)
        before = [m for m in in_s if m.start < c.start]
        # "..., and Groq claims 1,500 tokens/s": a claimant whose verb opens its own
        # statement in a later clause speaks for what follows it, not for this figure.
        after = [m for m in in_s if m.start >= c.start and not CL.opens_statement(m, self.seg, ce)]
        pick = before[-1] if before else (after[0] if after else None)
        if pick is None:
            name = CL.named_org_after(self.text[c.end : s.end], self.claimant_names)
            if name:
                c.claimant = name
                return
            docs = [
                m
                for m in self.claimants
                if m.document
                and m.start < s.start
                and self.seg.at(m.start).paragraph == s.paragraph
            ]
            if docs:
                c.claimant = docs[-1].name
                return
            owner = R.BENCHMARK_OWNER.get(
                c.qualifiers.get("benchmark") or c.qualifiers.get("leaderboard", "")
            )
            c.claimant = owner
            return
        if pick.pronoun:
            c._claimant_pronoun = True
        else:
            c.claimant = pick.name


# A score right after first place said in words ("tops the SWE-bench leaderboard at
# 72.5%", "lidera a tabela com 85%"): a score's board, no rank of its own.
_SCORE_AFTER_TOP = re.compile(r"[^.;:!?]{0,30}?\b(?:at|with|com|de)\s+\d", re.I)


def _bench_q(b: R.Named) -> dict[str, str]:
    q = {"benchmark": b.name}
    if b.version:
        q["version"] = b.version
    return q


def _at_most(v: Value, top: object) -> bool:
    x = v.value if v.value is not None else v.low
    return isinstance(x, Decimal) and isinstance(top, Decimal) and x <= top


def _not_a_model(name: str) -> bool:
    """True for a name whose first word is no model's (lexicon/not_models.txt: licences
    like "Apache-2.0", hardware, document parts), whichever finder found it."""
    first = name.split()[0] if name.split() else ""
    return first in NOT_MODELS or first.split("-")[0] in NOT_MODELS


def _name_words(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:\.[0-9]+)*", name.lower())


_SIZE_WORD = re.compile(r"\d+(?:\.\d+)?[bmt]")
# a release's date code: "2506" (YYMM), "20250620"
_DATE_CODE = re.compile(r"\d{4}|\d{6}|\d{8}")


def _checkpoint_of(words: list[str], ref: SubjectRef) -> bool:
    """True when the name ``words`` (:func:`_name_words`) are one of ``ref``'s names (two
    words or more) then only a published checkpoint's words: a size, a word of
    ``lexicon/checkpoint_words.txt`` ("Instruct", "it", "FP8") or a date code
    ("Mistral-Small-3.2-24B-Instruct-2506" of "Mistral Small 3.2"). A size must be the
    subject's own when its names or slug state one ("Llama-3.1-8B" is not "Llama 3.1
    405B")."""
    marks = set(words_list("checkpoint_words"))
    own_sizes = {
        w for n in (*ref.names, ref.slug) for w in _name_words(n) if _SIZE_WORD.fullmatch(w)
    }
    for n in ref.names:
        head = _name_words(n)
        rest = words[len(head) :]
        if len(head) < 2 or words[: len(head)] != head or not rest:
            continue
        if all(
            w in marks
            or _DATE_CODE.fullmatch(w)
            or _SIZE_WORD.fullmatch(w)
            and (not own_sizes or w in own_sizes)
            for w in rest
        ):
            return True
    return False


def _one_line(n: R.Named) -> R.Named:
    """A model name cut at a line break ("Claude Opus 4.1\nInput$15" is "Claude Opus 4.1"):
    a name never runs over its line. The line holding its version is kept: a card's label
    above a value ("Licence\nApache 2.0") is no model "Licence"."""
    if "\n" not in n.name:
        return n
    parts = n.name.split("\n")
    offset, keep = 0, 0
    for i, part in enumerate(parts):
        if re.search(r"\d", part) and part.strip():
            keep = i
            break
    offset = sum(len(p) + 1 for p in parts[:keep])
    name = parts[keep].rstrip()
    lead = len(name) - len(name.lstrip())
    return replace(
        n, name=name.lstrip(), start=n.start + offset + lead, end=n.start + offset + len(name)
    )


def _merge_models(a: list[R.Named], b: list[R.Named]) -> list[R.Named]:
    """Names of both finders, a name overlapping an earlier-kept one left out."""
    out: list[R.Named] = []
    for n in sorted(a + b, key=lambda n: (n.start, -n.end)):
        if _GLUED_YEAR.search(n.name):
            continue  # "Released2024-07-18" is a label and a date, no model
        if not out or n.start >= out[-1].end:
            out.append(n)
    return out


__all__ = ["Candidate", "Mention", "extract"]
