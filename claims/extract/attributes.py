"""Which attribute a figure states: an ordered table of named, pure rules.

Each rule looks at a :class:`Site` (the figure, its sentence, the words before and after
it up to its neighbours in the clause, the clause) and answers with a :class:`Choice`
(attribute, unit, qualifiers), with :data:`NO_CLAIM` (the figure states nothing: stop), or
with ``None`` (not mine: ask the next rule). :data:`RULES` lists them in order; the cue
words live in :mod:`claims.extract.rules` and ``lexicon/``. Rules that need the rest of the
article (benchmarks named nearby, paired price sides, variants) ask the :class:`Reader`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Protocol

from claims.extract import rules as R
from claims.extract.figures import CURRENCY_AFTER, Figure
from claims.extract.lexicon import alternation, phrases
from claims.extract.segment import Sentence

_POINTS_AFTER = re.compile(r"^\s*(?:" + alternation("score_units") + r")\b", re.I)
# "DROP (3-shot F1)", "pass@1", "5 shots": an evaluation setting, not a score.
_SETTING_AFTER = re.compile(r"-\w|\s*shots?\b|@", re.I)


@dataclass(frozen=True)
class Site:
    """A figure where it stands. ``before``/``after``: its clause's text up to the
    neighbouring figures; ``window``: (end of the figure before, start of the one after)
    within the sentence; ``text``: the whole article."""

    f: Figure
    s: Sentence
    before: str
    after: str
    clause: str
    window: tuple[int, int]
    text: str


@dataclass(frozen=True)
class Choice:
    """The attribute a figure states, its unit (``None``: the figure's own), qualifiers, and
    the figure to read (``None``: as found; a price cut is read with its sign)."""

    attribute: str
    unit: str | None = None
    qualifiers: dict[str, str] = field(default_factory=dict)
    figure: Figure | None = None


NO_CLAIM = Choice("")


class Reader(Protocol):
    """What rules ask of the article (implemented by the extractor's context)."""

    variant_names: list[str]
    warnings: list[str]
    # Currencies the article prices per million tokens somewhere ("$0.66 per million").
    per_mtok_currencies: set[str | None]

    def bench(
        self, pos: int, s: Sentence, window: tuple[int, int] | None = None
    ) -> dict[str, str] | None: ...

    def label_bench(self, f: Figure) -> dict[str, str] | None: ...

    def variant_q(self, s: Sentence) -> dict[str, str]: ...

    def paired_side(self, start: int) -> str | None: ...

    def names_subject(self, start: int, end: int) -> bool: ...


Rule = Callable[[Site, Reader], "Choice | None"]


def _not_current(x: Site, r: Reader) -> Choice | None:
    """A margin ("(+5.3)", "within 2 points"), the old value of a change ("75.9 → 81.2",
    "from $0.56 to ..."), or a rank ("#3", read by the rank reader) states no figure here."""
    f = x.f
    if R.is_margin(x.text, f.start, f.end) or R.is_previous_value(x.text, f.start, f.end):
        return NO_CLAIM
    if x.text[max(0, f.start - 1) : f.start] == "#":
        return NO_CLAIM
    return None


# A figure alone in a bracket ("... for Tern 30B ($0.20)"), and a price per million tokens
# before it in its sentence ("$0.05 per million input tokens").
_BRACKETED = re.compile(r"\(\s*$")
_CLOSED = re.compile(r"\s*\)")
# "$0.05 per million input tokens", "2 dólares por milhão de tokens de entrada"
_PER_MTOK_PRICE = re.compile(
    r"\d\s*(?:(?:" + CURRENCY_AFTER + r")\s+)?(?:" + phrases("per_million") + r")\b[^,;()]*",
    re.I,
)


_DIGIT = re.compile(r"(?<![\w.-])\d")  # a number, not the digit of a name ("Zeta-1")


def _unit_first(label: str) -> bool:
    """True when ``label`` (the 60 characters before a price in its sentence) ends with the
    price's unit and no other number after it ("custo por 1 milhão de tokens de entrada"
    before "US$ 0,07"): the unit written before the amount."""
    ends = [m.end() for m in R.PER_MTOK_LABEL.finditer(label)]
    return bool(ends) and not _DIGIT.search(label[ends[-1] :])


def _price(x: Site, r: Reader) -> Choice | None:
    """Money per tokens in USD: input or output price by the pair, the words around, or
    (for the new value of "from X to Y") the words before "from"; no side yet:
    ``price_usd_per_mtok`` (a restatement settles it, else it is dropped). Money with no
    unit right before "input"/"output", or labelled by it ("Input$3"), is per million tokens
    when the article prices in that currency per million elsewhere ("$0.17 input, $0.66
    output")."""
    f = x.f
    if f.kind != "money":
        return None
    if R.is_cached_price(x.before, x.after):
        return NO_CLAIM  # "Cached Input Tokens (1M) $0.07": a discounted rate, not the price
    label = x.text[max(x.s.start, f.start - 40) : f.start]  # a clause ends at "Audio input:"
    if R.is_modality_price(label, x.after):
        return NO_CLAIM  # "$0.50 per M audio-input tokens": another input kind's rate
    sided = R.SIDE_RIGHT_AFTER.match(x.after) or R.SIDE_RIGHT_BEFORE.search(x.before)
    if not f.per and R.PER_MTOK_LABEL.search(x.before[-40:]) and R.price_side(x.before, ""):
        f = replace(f, per="M")  # a card's "Input Tokens (1M)" above "$0.30"
    elif (
        not f.per
        and _unit_first(lead := x.text[max(x.s.start, f.start - 60) : f.start])
        and (R.price_side(lead, ""))
    ):
        f = replace(f, per="M")  # "custo por 1 milhão de tokens de entrada US$ 0,07"
    elif not f.per and f.currency in r.per_mtok_currencies and sided:
        # "$0.17 input, $0.66 output" (or a card's "Input$3") in an article that quotes
        # prices per million tokens
        f = replace(f, per="M")
    bracket_side = None
    if not f.per and f.currency in r.per_mtok_currencies and _BRACKETED.search(x.before):
        # "$0.05 per million input tokens, a quarter of what Y charges for Y ($0.20)": a
        # bare price alone in a bracket is in the unit and side of its sentence's price
        lead = x.text[x.s.start : f.start]
        per = _PER_MTOK_PRICE.search(lead)
        if per and _CLOSED.match(x.after):
            bracket_side = R.price_side(lead[: per.end()], lead[per.end() :].split(",")[0])
            f = replace(f, per="M") if bracket_side else f
    if not f.per and R.same_amount_after(x.after):
        # "2 dólares por milhão de tokens de entrada, ... 0,30 dólares pela mesma
        # quantidade": the unit and side of the sentence's earlier price per million
        lead = x.text[x.s.start : f.start]
        per = _PER_MTOK_PRICE.search(lead)
        if per:
            bracket_side = R.price_side(lead[: per.end()], lead[per.end() :].split(",")[0])
            f = replace(f, per="M") if bracket_side else f
    if not (f.per and f.to_value() and f.default_unit().endswith("_per_mtok")):
        return NO_CLAIM
    if f.currency != "usd":
        # Price attributes are in USD; no exchange rate is guessed.
        r.warnings.append(f"at {f.start}: {f.text!r}: price in {f.currency}, not USD")
        return NO_CLAIM
    side = bracket_side or r.paired_side(f.start) or R.price_side(x.before, x.after)
    if side is None and R.TO_BEFORE_RE.search(x.before):
        cs = x.s.clause_bounds(f.start)[0]
        side = R.price_side(x.text[cs : x.window[0]], "")
    if side is None:
        # "Nos tokens de saída, o preço fixa-se nos 2 dólares por milhão", "For output
        # tokens, it is $2 per million": the one side a fronted phrase names
        side = R.one_side(x.text[x.s.start : x.s.clause_bounds(f.start)[0]])
    attr = f"price_{side}_usd_per_mtok" if side else "price_usd_per_mtok"
    return Choice(attr, figure=None if f is x.f else f)


def _percent(x: Site, r: Reader) -> Choice | None:
    """A percent: a price change when price words and a direction surround it (and no
    benchmark is named in its sentence), else a score of the benchmark named nearest."""
    f, s = x.f, x.s
    if f.kind != "percent":
        return None
    sb, sa = x.text[s.start : f.start], x.text[f.end : s.end]
    if R.is_gap_between_others(x.text[s.clause_bounds(f.start)[0] : f.start]):
        return NO_CLAIM  # "a diferença entre os modelos passou de 9,26% para 1,70%"
    if R.is_tier_discount(sb):
        return NO_CLAIM  # "Batch input tokens: $0.40 per 1M tokens (50% off": a tier's
    if (
        R.PRICE_CONTEXT.search(x.clause)
        or R.PRICE_CONTEXT.search(sb + sa)
        and not r.bench(f.start, s)
    ) and not R.names_other_measure(x.before):
        d = R.price_direction(x.before, x.after) or R.price_direction(sb, sa)
        at = R.compared_with_other(x.after) if d is not None else None
        if at is not None and not r.names_subject(f.end + at, f.end + at + 16):
            # "custo 97% menor que o GPT-4": a comparison with another lab's model, no price
            # change ("33% cheaper than Kimi K3", a subject of the article, is its change)
            return NO_CLAIM
        if d is not None:
            return Choice("price_change_pct", "percent", figure=replace(f, negative=d < 0))
    if R.is_threshold_or_difference(x.before, x.after):
        return NO_CLAIM  # "a barreira de 80%", "76% menos tokens": no score
    q = r.bench(f.start, s, x.window)
    return Choice("benchmark_score", "percent", q) if q else NO_CLAIM


# "the 2x input price difference between them": a ratio of two others, no direction.
_BETWEEN_AFTER = re.compile(
    r"^\s*(?:[\w-]+\s+){0,3}(?:" + alternation("gap_nouns") + r")\s+(?:de\s+\w+\s+)?"
    r"(?:" + alternation("between_words") + r")\b",
    re.I,
)


def _factor(x: Site, r: Reader) -> Choice | None:
    """ "2x", "3 vezes": a speed or price factor between variants; not the gap between two
    others ("the 2x price difference between them")."""
    if x.f.kind != "times":
        return None
    if _BETWEEN_AFTER.match(x.after) or R.against_a_time(x.after):
        return NO_CLAIM  # "the 2x price difference between them", "390 vezes face ao ano anterior"
    attr = R.factor_attribute(x.after, x.before, r.variant_names)
    return Choice(attr, "times", r.variant_q(x.s)) if attr else NO_CLAIM


def _speed(x: Site, r: Reader) -> Choice | None:
    """ "1,500 tokens/s", "60 a 100 tokens/segundo"."""
    ok = R.is_tokens_per_second(x.after)
    return Choice("output_tokens_per_second", "tokens_per_second") if ok else None


def _hardware(x: Site, r: Reader) -> Choice | None:
    """ "59 wafers WSE-3T", "8 H100 GPUs"; not a training cluster ("trained on 1,920 H100
    GPUs": the words of ``lexicon/<lang>/training.txt`` before it)."""
    hw = R.hardware_after(x.after)
    if hw and R.is_training_count(x.before):
        return NO_CLAIM
    return Choice("hardware_units", hw[0], {"hardware": hw[1]}) if hw else None


def _bits(x: Site, r: Reader) -> Choice | None:
    """ "4 bits", "4-bit" weights; not a supported quantization ("support for 4-bit and
    2-bit quantization")."""
    if not R.is_bits(x.after):
        return None
    if R.is_supported_quantization(x.text[max(0, x.f.start - 60) : x.f.start]):
        return NO_CLAIM
    return Choice("weights_precision_bits", "bits")


_SCORE_OF = re.compile(
    r"\b(?:" + alternation("score_nouns") + r")\s+(?:of|de)\s+"
    r"(?:(?:" + phrases("score_approx_words") + r")\s+)?$",
    re.I,
)
# "reached Elo 1338", "an Elo score of 1,402", "Elo de 1.350": an arena rating.
_ELO_BEFORE = re.compile(r"\bElo\s+(?:(?:rating|score|pontuação|of|de)\s+){0,2}$", re.I)


def _points(x: Site, r: Reader) -> Choice | None:
    """ "55 pontos", "1,692 points", "a score of 71", "Elo 1338": a score of the benchmark
    named nearest."""
    by_words = _SCORE_OF.search(x.before) or _ELO_BEFORE.search(x.before)
    if not (_POINTS_AFTER.match(x.after) or by_words and not x.f.scaled):
        return None
    q = r.bench(x.f.start, x.s, x.window)
    return Choice("benchmark_score", "points", q) if q else NO_CLAIM


# "on HumanEval, focused on code, it got 82.6": a score verb right before a bare number.
_SCORE_VERB_BEFORE = re.compile(
    r"\b(?:"
    + alternation("score_verbs")
    + r")\s+(?:(?:"
    + phrases("score_approx_words")
    + r")\s+)?$",
    re.I,
)


def _scored(x: Site, r: Reader) -> Choice | None:
    """ "no HumanEval, focado em código, obteve 82.6", "on MMLU it scored 84.8": a bare
    number (no scale, no unit) right after a score verb (``lexicon/<lang>/score_verbs.txt``)
    is the score of a benchmark named in its clause (:meth:`Reader.bench` with the
    figure's window); percent up to 100, else points."""
    f = x.f
    if f.kind != "plain" or f.scaled or not _SCORE_VERB_BEFORE.search(x.before):
        return None
    q = r.bench(f.start, x.s, x.window)
    if not q:
        return None
    v = f.to_value("percent")
    small = v is not None and isinstance(v.value, Decimal) and v.value <= 100
    return Choice("benchmark_score", "percent" if small else "points", q)


def _labelled_score(x: Site, r: Reader) -> Choice | None:
    """ "IFEval (92.1)", "- MMLU-Pro: 75.9 → 81.2": a bare number right after a benchmark
    name, or on a line labelled by one, is its score (percent up to 100, else points)."""
    f = x.f
    labelled = r.label_bench(f)
    if labelled is None or f.scaled or _SETTING_AFTER.match(x.after):
        return None
    v = f.to_value("percent")
    small = v is not None and isinstance(v.value, Decimal) and v.value <= 100
    return Choice("benchmark_score", "percent" if small else "points", labelled)


def _context(x: Site, r: Reader) -> Choice | None:
    """A token count with context words in its clause, or earlier in its sentence with no
    figure between ("an impressive context length, natively supporting 256K tokens"), or
    an apposition calling it one ("up to 256,000 tokens—an industry-leading context window");
    at least 1,000 tokens and under :data:`~claims.extract.rules.MAX_CONTEXT_TOKENS`,
    never an output or thinking length, nor a training corpus ("trained on 15.5T tokens")."""
    f, s = x.f, x.s
    lead = x.text[max(s.start, x.window[0]) : f.start]
    if R.is_training_count(x.before):
        return NO_CLAIM  # "trained on 15.5 trillion tokens": a corpus, not a window
    if R.tokens_name_models(x.after):
        return NO_CLAIM  # "200,000-token long-context variants": a family's other models
    if R.is_training_stage_length(x.after):
        return NO_CLAIM  # "4096 tokens during pre-training": a stage's length, not a window
    v = f.to_value("tokens")
    # "até 200.000 tokens de entrada": the most it reads is its window ("For 1,000 input
    # tokens" is a usage example)
    most = v is not None and v.relation == "at_most" and R.is_input_limit(x.before, x.after)
    if not (
        most
        or R.is_context_window(x.before, x.after, x.clause)
        or R.is_context_window(x.before, x.after, lead)
        or R.is_context_apposition(x.text[f.end : s.end])
    ):
        return None
    size = None if v is None else v.value if v.value is not None else v.high  # "up to 128K"
    ok = isinstance(size, Decimal) and 1000 <= size < R.MAX_CONTEXT_TOKENS
    return Choice("context_window", "tokens") if ok else NO_CLAIM


def _parameters(x: Site, r: Reader) -> Choice | None:
    """A parameter count, total or active (:func:`claims.extract.rules.params_attribute`),
    unless it is one of a list of sizes (:func:`claims.extract.rules.in_size_list`)."""
    if R.in_size_list(x.text, x.f.start, x.f.end):
        return NO_CLAIM  # "shared across 4B/12B/27B": a line-up, not this model's size
    if R.sizes_name_models(x.text, x.f.start, x.f.end):
        return NO_CLAIM  # "our 7B and 13B models": models named by their sizes
    if R.counts_other_noun(x.text[x.s.start : x.f.start], x.after):
        return NO_CLAIM  # "#1 by tokens. 2.76 trillion of them": the tokens, counted
    attr = R.params_attribute(x.f, x.before, x.after)
    return Choice(attr, "params") if attr else NO_CLAIM


RULES: tuple[tuple[str, Rule], ...] = (
    ("margin or old value", _not_current),
    ("price", _price),
    ("percent", _percent),
    ("factor", _factor),
    ("speed", _speed),
    ("hardware", _hardware),
    ("bits", _bits),
    ("points", _points),
    ("labelled score", _labelled_score),
    ("score verb", _scored),
    ("context window", _context),
    ("parameters", _parameters),
)


def choose(x: Site, r: Reader) -> Choice:
    """The first answer of :data:`RULES` for ``x`` (:data:`NO_CLAIM` when none claims it).
    A range after change words ("expanded from 32,000 to 128,000 tokens") is read as its
    new value (:func:`claims.extract.rules.is_change_from`)."""
    changed = None
    if x.f.is_range and R.is_change_from(x.before):
        changed = R.new_value(x.f)
        x = replace(x, f=changed)
    for _, rule in RULES:
        c = rule(x, r)
        if c is not None:
            if changed is not None and c.attribute and c.figure is None:
                c = replace(c, figure=changed)
            return c
    return NO_CLAIM
