"""Word rules of extraction (pt and en): which attribute a figure states, and named things
around it (benchmarks, hardware, competitor models, generic models, comparisons, ranks).

Pure functions over strings; :mod:`claims.extract.extractor` decides subjects and claimants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cache
from pathlib import Path

from claims.extract.figures import Figure
from claims.extract.lexicon import alternation, patterns, phrases, words
from claims.extract.parts import is_part_size
from claims.readings.licenses import ALIASES as LICENSE_ALIASES
from claims.readings.licenses import normalize_license_text
from claims.subjects.references import variant_word_re
from claims.values.numbers import ORDINAL_WORDS


@dataclass(frozen=True)
class Named:
    """A named thing in text: benchmark/leaderboard (``version`` may be set), hardware,
    competitor model, generic model ("um modelo denso"), or comparison marker ("atrás do")."""

    start: int
    end: int
    kind: str
    name: str = ""
    version: str | None = None


# -- benchmarks and leaderboards ----------------------------------------------

_STOP_CAPS = frozenset(words("stop_caps"))
_LEXICON = Path(__file__).with_name("lexicon")
BENCHMARK_NAMES: tuple[str, ...] = tuple(
    line.strip()
    for line in (_LEXICON / "benchmarks.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)
_NAMES_ALT = "|".join(re.escape(n).replace("'", "['’]") for n in BENCHMARK_NAMES)
_BENCH_HEAD_RE = re.compile(r"[Bb]ench|Index|Arena|Eval|[Ll]eaderboard|" + _NAMES_ALT)
# A percent glued right after a benchmark's name in a flattened score table ("HumanEval92%").
_GLUED_SCORE = r"(?=\d+(?:[.,]\d+)?\s?%)"
_BENCH_RE = re.compile(
    r"(?<![\w'’-])(?P<name>(?:[A-Z][\w'’-]*\s+){0,3}"
    r"(?:[\w-]*(?:[Bb]ench|Arena)|Index|Eval)(?!-[A-Za-z])"  # "Arena-Hard" is a listed name
    # The variant is part of the benchmark's identity (cases/C33): Lite is not Live.
    r"(?:\s+(?:" + alternation("benchmark_variants") + r"))?"
    # a listed name glued to its year or version ("AIME24", "Arena-Hardv2") or to a context
    # length ("RULER-128K": version 128K)
    # (digits glued and then "%" are a flattened table's score: "HumanEval92%", no version)
    r"|(?:"
    + _NAMES_ALT
    + r")(?:(?P<glued>\d{2}(?:\d{2})?|v\d+(?:\.\d+)?|-\d+[KM])(?![.,]?\d*\s?%))?"
    r"(?:(?![\w-])|" + _GLUED_SCORE + r")"
    # A named leaderboard: "the Vectara HHEM leaderboard", "LMArena Leaderboard".
    r"|(?:[A-Z][\w'’-]*\s+){1,3}[Ll]eaderboard)"
    # A version is never a score: "HumanEval 89.0%" names no version 89.0.
    # ("Terminal-Bench 2" names version 2: a lone digit only, never a figure's start)
    # A dotted version has a one-digit major ("2.0", "v1.5"): in a "Name value" list
    # "BBH 52.4" and "GPQA 20.8" are scores, not versions.
    r"(?:\s+(?P<ver>(?:v\d+|\d)(?:\.\d+)+|\d{4}|v\d+|\d(?!\d|[.,]\d|\s*(?:%|points|pontos|pts)))(?![\d.,]*\s*%)"
    # or a version in brackets right after the name: "LiveCodeBench (v5)", "AIME (2025)"
    r"|\s*\((?P<pver>v\d+(?:\.\d+)*|\d{4})\))?(?:(?!\w|\.\d)|" + _GLUED_SCORE + r")"
)
YEARLY_BENCHMARKS: frozenset[str] = frozenset(
    line.strip()
    for line in (_LEXICON / "yearly_benchmarks.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)
# A contest's two-digit year right after its name, never a score ("AIME 24 (math)", not
# "AIME 24.5" nor "AIME 24%").
_SHORT_YEAR_AFTER = re.compile(r"\s*['’]?([2-3]\d)(?!\d|[.,]\d|\s*%|\s*(?:points|pontos))")
# Canonical names, so figures from different articles share a qualifier (project table).
BENCHMARK_CANONICAL: dict[str, str] = {
    "intelligence index": "Artificial Analysis Intelligence Index",
    "aa intelligence index": "Artificial Analysis Intelligence Index",
    "artificial analysis intelligence index": "Artificial Analysis Intelligence Index",
}
# Who publishes a leaderboard, used as claimant when the text names none.
BENCHMARK_OWNER: dict[str, str] = {"Artificial Analysis Intelligence Index": "Artificial Analysis"}
GENERIC_BENCH_RE = re.compile(r"\b(?:" + alternation("generic_benchmarks") + r")\b", re.I)


def find_benchmarks(text: str) -> list[Named]:
    """Benchmark/leaderboard names with versions ("Terminal-Bench 4.0", "Code Arena WebDev")."""
    out: list[Named] = []
    windows: list[list[int]] = []
    for h in _BENCH_HEAD_RE.finditer(text):
        lo, hi = max(0, h.start() - 60), h.end() + 25
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = hi
        else:
            windows.append([lo, hi])
    matches = [m for lo, hi in windows for m in _BENCH_RE.finditer(text, lo, min(hi, len(text)))]
    for m in matches:
        words = m.group("name").split()
        start = m.start()
        while len(words) > 1 and words[0] in _STOP_CAPS:
            start = text.index(words[1], start + len(words[0]))
            words = words[1:]
        name = " ".join(words)
        version = m.group("ver") or m.group("pver")
        glued = m.group("glued")
        if glued:  # "AIME24": AIME, version 2024 (as "AIME 24"); "Arena-Hardv2": version v2
            name, version = name[: -len(glued)], version or glued.lstrip("-")
            if len(glued) == 2 and glued.isdigit() and name in YEARLY_BENCHMARKS:
                version = "20" + glued
        if name.lower() in ("index", "arena", "bench", "benchmark"):
            continue
        end = m.end()
        if version is None and name in YEARLY_BENCHMARKS:
            year = _SHORT_YEAR_AFTER.match(text, end)
            if year:  # "AIME 24": the 2024 contest
                version, end = "20" + year.group(1), year.end()
        name = BENCHMARK_CANONICAL.get(name.lower(), name)
        out.append(Named(start, end, "benchmark", name, version))
    return out


# -- hardware, competitor and generic models, comparisons ----------------------

HARDWARE_NAME = (
    r"(?:WSE-\d\w*|TPU\s?v\d\w*|MI\d{3}\w*|[A-Z]{1,2}\d{2,4}[A-Z]?\b(?:\s?(?:SXM|NVL|PCIe))?)"
)
_UNITS = alternation("hardware_units")
_HARDWARE_UNITS_RE = re.compile(
    rf"^\s*(?P<noun>{_UNITS}|{alternation('hardware_hosts')})\s+(?:de\s+)?(?P<hw>{HARDWARE_NAME})"
    rf"|^\s*(?P<hw2>{HARDWARE_NAME})\s+(?P<noun2>{_UNITS})\b"
)
_COMPETITOR_RE = re.compile(
    r"\b(?:[A-Z][\w]*\s+){0,2}[A-Z][\w]*(?:-\d+(?:\.\d+)?|\s\d+\.\d+)(?:\s+[A-Z][a-z]+){0,3}"
    r"(?![\d.,]|\s*(?:%|x\b|[kKMBT]\b|por\b|per\b|" + alternation("count_nouns") + r"))"
)
_NOT_COMPETITOR = re.compile(r"^(?:US|USD|R|EUR|WSE|FP|INT|BF|TPU|MI|H|B|A)\b|^[A-Z][a-z]+\s\d")
_GENERIC_RE = re.compile(
    r"\b(?:um|uma|a|an)\s+(?:\w[\w.,]*\s+)?(?:" + alternation("generic_model_nouns") + r")\b"
    # "Este modelo denso de 7 mil milhões" points back at a named model: no generic one
    r"|(?<!\beste\s)(?<!\besse\s)\bmodelos?\s+(?:" + phrases("model_kinds") + r")\b"
    r"|\b(?:" + phrases("generic_models") + r")\b",
    re.IGNORECASE,
)
_COMPARATIVE_RE = re.compile(
    r"(?<!\w)(?=[^\W\d_])(?:"  # only at a word start (a fast first test)
    r"\b(?:" + phrases("comparison_positions") + r")\s+(?:apenas\s+|só\s+)?d[oae]s?\b"
    r"|\b(?:" + phrases("comparison_markers") + r")\b|\bvs\.?|\bde\s+K?\w+\s+para\b"
    # A model after a comparison verb is the yardstick, not the one measured.
    r"|\b(?:" + alternation("comparison_verbs") + r")\s+(?:the\s+|o\s+|a\s+)?)",
    re.IGNORECASE,
)


def find_competitors(text: str) -> list[Named]:
    """Model-like names with versions that are not ours ("Opus 5.5", "GPT-6 Sol Daybreak Blue").

    The caller removes spans that overlap subject names or benchmarks.
    """
    out = []
    for m in _COMPETITOR_RE.finditer(text):
        if _NOT_COMPETITOR.match(m.group(0)) and not re.search(r"\d\.\d", m.group(0)):
            continue
        first = m.group(0).split()[0]
        if first in _STOP_CAPS:
            continue
        out.append(Named(m.start(), m.end(), "competitor", m.group(0)))
    return out


def find_generic(text: str) -> list[Named]:
    """Indefinite or generic models ("um modelo", "a dense model", "carro-chefe", "classe")."""
    return [Named(m.start(), m.end(), "generic", m.group(0)) for m in _GENERIC_RE.finditer(text)]


def find_comparatives(text: str) -> list[Named]:
    """Comparison markers: what follows them is another thing ("atrás do", "than", "abaixo do")."""
    return [
        Named(m.start(), m.end(), "comparative", m.group(0)) for m in _COMPARATIVE_RE.finditer(text)
    ]


def hardware_after(after: str) -> tuple[str, str] | None:
    """("wafers", "WSE-3T") when ``after`` starts like " wafers WSE-3T" or " H100 GPUs"."""
    m = _HARDWARE_UNITS_RE.match(after)
    if not m:
        return None
    noun = (m.group("noun") or m.group("noun2")).lower()
    noun = noun if noun.endswith("s") else noun + "s"
    return noun, (m.group("hw") or m.group("hw2"))


# -- ranks -----------------------------------------------------------------------

_ORD_ALT = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
RANK_RE = re.compile(
    rf"(?:\b(?:{alternation('rank_verbs')})\s+)(?:#\s*)?(?P<w>{_ORD_ALT})\b"
    rf"(?!\s+(?:plano|lugar\s+de|lugar,\s+porque|of\b))"
    rf"|(?<![\w.])(?P<n>\d{{1,3}})\s*(?:º|°|ª|st|nd|rd|th)(?:\s*(?:{alternation('rank_nouns')}))?(?!\w)"
    rf"|\branked\s+#?\s*(?P<n2>\d{{1,3}})\b|(?<![\w#])#(?P<n3>\d{{1,3}})\b"
    # first place said in words ("lidera a tabela", "tops the leaderboard"): rank 1
    rf"|\b(?P<top>{patterns('rank_top')})",
    re.IGNORECASE,
)
RANK_CONTEXT_RE = re.compile(
    r"\b(?:" + alternation("rank_context") + r"|classific\w*)\b",
    re.IGNORECASE,
)


def rank_value(m: re.Match[str]) -> int:
    """The rank number of a :data:`RANK_RE` match."""
    if m.group("top"):
        return 1
    if m.group("w"):
        return ORDINAL_WORDS[m.group("w").lower()]
    return int(m.group("n") or m.group("n2") or m.group("n3"))


# -- attribute of a figure -------------------------------------------------------

_TOKENS_PER_SEC = re.compile(
    r"^\s*(?:de\s+)?(?:tokens?\s*/\s*(?:s|seg|sec|second|segundo)\b|tokens?\s+(?:por|per|a\s+cada)\s+segundo|tokens?\s+per\s+second|tok/s|t/s|tps\b)",
    re.I,
)
_TOKENS = re.compile(r"^\s*-?\s*(?:de\s+)?tokens?\b", re.I)
_CONTEXT_AFTER = re.compile(r"^\s*-?\s*(?:tokens?\s+)?(?:de\s+)?(?:context|contexto)\b", re.I)
# "up to 256,000 tokens—an industry-leading context window": an apposition names the count
_CONTEXT_APPOSITION = re.compile(
    r"^\s*(?:tokens?)?\s*(?:—|–|,)\s*(?:an?|the|uma?|o)\s+(?:[\w-]+\s+){0,2}"
    r"(?:context|contexto|janela\s+de\s+contexto)\b",
    re.I,
)
_CONTEXT_KW = re.compile(alternation("context_cues"), re.I)
_INPUT_LIMIT_AFTER = re.compile(r"^\s*(?:" + phrases("input_limit_after") + r")\b", re.I)
# a price's unit, not a count: "$3 per 1M input tokens", "US$3 por milhão de tokens de entrada"
_PER_BEFORE = re.compile(r"(?:\bper|\bpor|\ba\s+cada|/)\s*$", re.I)
# Inference a few words before a token count: the span served, a context window.
_INFERENCE_SPAN = re.compile(
    r"\b(?:" + alternation("inference_words") + r")\b(?:\s+[^\W\d_]+){0,3}\s*$", re.I
)
# the label may name the unit before the count: "comprimento de contexto de tokens de 128K"
_CONTEXT_BEFORE = re.compile(
    r"(?:" + phrases("context_labels") + r")(?:\s+(?:de\s+|of\s+)?tokens?)?"
    r"(?:\s*:?\s*)(?:de|of)?\s*(?:até\s+)?$",  # or glued: "Tamanho do contexto32.000"
    re.I,
)
_PARAMS = alternation("param_nouns")
_PARAMS_AFTER = re.compile(r"^\s*-?(?:de\s+)?(?:" + _PARAMS + r")\b", re.I)
# "20T tokens", and the hyphenated compound "a 20T-token corpus": a count of that noun;
# up to two describing words may stand before it ("11.2 trillion high-quality tokens",
# "11.2T high-quality real data"), none a parameter, active or total word
# (nor a function word: "ativa 3,6 bilhões por token" counts parameters;
# lexicon/<lang>/noun_gap_stops.txt)
_NOT_PARAM_WORD = r"(?!parâm|param|capacidade|capacity|ativ|activ|total)"
_GAP_WORD = rf"{_NOT_PARAM_WORD}(?!(?:{alternation('noun_gap_stops')})\b)[^\W\d_]+(?:-[^\W\d_]+)*"
_OTHER_NOUN_AFTER = re.compile(
    r"^\s*\)?\s*-?\s*(?:de\s+)?"  # or after a bracketed restatement: "(11.2T) tokens"
    + rf"(?:{_GAP_WORD}\s+){{0,2}}"
    + _NOT_PARAM_WORD
    + r"(?:"
    + alternation("other_count_nouns")
    + r")\b",
    re.I,
)
# "2.76 trillion of them", "32 bilhões deles": a count of the noun named before it
_COUNTED_PRONOUN_AFTER = re.compile(r"^\s*(?:" + phrases("counted_pronouns") + r")\b", re.I)
# stems at a word's start: "ativos", "activated", never the "ativ" of "generativo"
_ACTIVE_KW = re.compile(r"(?<![^\W_])(?:" + phrases("active_cues") + ")", re.I)
_TOTAL_KW = re.compile(r"\btotal|" + alternation("total_cues"), re.I)
_DIRECT_KIND = re.compile(
    r"^\s*(?:de\s+)?(?:(?:parâmetros|parameters|params)\s+)?(ativ\w*|"
    + phrases("param_kinds")
    + r")\b",
    re.I,
)
_THE_BEFORE = re.compile(r"(?:^|\s)(?:the|The|o|O)\s+$")
_NOUN_AFTER_SIZE = re.compile(
    r"\s*-?\s*(?:de\s+)?(?:" + alternation("size_nouns") + r")",
    re.I,
)
# "480B-parameter", and "236 billion parameter" (a compound written with spaces, or read
# so): the singular noun makes the size an adjective of what follows.
_COMPOUND_SIZE = re.compile(r"[-\s](?:param(?:eter)?|parâmetro)\b(?!s)", re.I)
# "3.66 billion parameters each", "0.33B params/block", "2B por camada": one part's size.
_EACH_AFTER = re.compile(
    r"^\s*-?(?:de\s+)?(?:(?:" + _PARAMS + r")\s*)?"
    r"(?:(?<![^\W\d_])(?:" + phrases("each_words") + r")"
    r"|(?:/|\b(?:per|por)\s)\s*(?:" + phrases("per_part_nouns") + r"))\b",
    re.I,
)
_CONJ = re.compile(r"\s(?:e|and)\s")
_RELATIVE_WORD = re.compile(r"\b(?:" + phrases("relative_pronouns") + r")\b", re.I)
# A bound of a size class after a model noun: "the first model under 10B parameters", "o
# primeiro modelo abaixo de 10 bilhões", "models with fewer than 10B": no model's count.
_CLASS_BOUND_BEFORE = re.compile(
    r"\b(?:models?|modelos?|LLMs?)\s+(?:\w+\s+)?(?:" + phrases("class_bounds") + r")\s*$",
    re.I,
)
_BITS_AFTER = re.compile(r"^\s*-?\s*bits?\b", re.I)
# Price words; the cost of training or compute is no price ("saving 42.5% of training
# costs", "custo de treinamento").
PRICE_CONTEXT = re.compile(
    phrases("price_words")
    + "|"
    + "".join(rf"(?<!{re.escape(w)}\s)" for w in words("cost_before_not_price"))
    + r"(?:custo|cost)(?!s?\s+(?:de\s+)?(?:"
    + alternation("cost_after_not_price")
    + r"))|US\$|\$",
    re.I,
)
_DOWN_KW = re.compile(patterns("price_down_cues"), re.I)
_UP_KW = re.compile(patterns("price_up_cues"), re.I)
_SPEED_KW = re.compile(alternation("speed_cues"), re.I)
_PRICE_FACTOR_KW = re.compile(alternation("price_cues"), re.I)
_INPUT_KW = re.compile(alternation("input_side"), re.I)
_OUTPUT_KW = re.compile(alternation("output_side"), re.I)
# "open-source X until March" is the weights' date too (the verb; "an open-source model
# released on" stays a release date: the release word is nearer).
WEIGHTS_KW = re.compile(patterns("weights_cues"), re.I)
# A release date of other things named by a plural noun right before the participle
# ("used for our 7B and 13B models released in November", "the mixes released in
# November", "modelos lançados em novembro"); weights ("weights released in March") are
# the subject's own.
_PLURAL_RELEASED_BEFORE = re.compile(
    r"(?<![\w-])(?!(?:" + alternation("not_plural_nouns") + r")\b)[a-zà-ú][\w-]*s\s+"
    r"(?:" + alternation("plural_participles") + r")\s+"
    r"(?:in|on|em|no|na|during|durante)\s+(?:the\s+|early\s+|late\s+|mid-?)?$"
)


@cache
def _family_launch_re() -> re.Pattern[str]:
    # "introduced the GPT-4.1 family on", "apresentou a família Gemma 3 em": the verb, an
    # article, up to four words with the family noun among them, then no sentence end
    verbs, family = alternation("family_launch_verbs"), alternation("family_words")
    return re.compile(
        rf"\b(?:{verbs})\s+(?:(?:the|its|a|o|sua)\s+)?(?:[\w.-]+\s+){{0,4}}?(?:{family})\b"
        r"(?:\s+[\w.-]+){0,4}?[^\w.;!?]*(?:on|in|em|no|na)?\s*$",
        re.I,
    )


def launches_family(before: str) -> bool:
    """True when ``before`` (a date's clause up to it) ends like "introduced the GPT-4.1
    family on" / "apresentou a família Gemma 3 em" (``lexicon/<lang>/family_launch_verbs.txt``,
    ``family_words.txt``): the family's launch, the release of its members."""
    return bool(_family_launch_re().search(before[-120:]))


def others_released(before: str) -> bool:
    """True when a date follows "<plural noun> released in" ("our 7B and 13B models
    released in November"): the date of those other things, not of the subject."""
    return bool(_PLURAL_RELEASED_BEFORE.search(before[-80:]))


# "as LLMs ... estavam sendo lançadas por diversas organizações": a plural participle
# released by many (lexicon/<lang>/many_actors.txt) after the date, others' releases.
_RELEASED_BY_MANY = re.compile(
    r"^[^.;:]{0,80}?\b(?:" + alternation("plural_participles") + r")\s+(?:por|by)\s+"
    r"(?:" + alternation("many_actors") + r")\b",
    re.I,
)


def released_by_many(after: str) -> bool:
    """True when the text after a date says plural things were released by many ("...
    estavam sendo lançadas por diversas organizações"): no one model's release date."""
    return bool(_RELEASED_BY_MANY.match(after))


RELEASE_KW = re.compile(patterns("release_cues"), re.I)
# The weights are what is released ("the open weights will be released on", "os pesos do
# Kimi K3 serão liberados em"); not "a model with open weights was released on".
_WEIGHTS_RELEASED_RE = re.compile(
    r"(?<!with\s)(?<!with\sopen\s)(?<!with\sopen-)(?<!com\s)\b(?:"
    + phrases("weights_nouns")
    + r")\b"
    r"(?:\s+abertos)?(?:\s+(?:d[oa]s?|of)(?:\s+[\w.-]+){1,3}?)?"
    r"\s+(?:(?:" + alternation("weights_auxiliaries") + r")\s+){0,4}"
    r"(?:" + phrases("weights_release_words") + r")",  # ends where RELEASE_KW's match ends
    re.I,
)


def _named_licenses() -> str:
    """The licence names of ``claims/readings/license_names.toml`` that name a licence in
    words ("Gemma Terms of Use", "Modified MIT License"; not bare model names such as
    "Llama 2"), as a case-insensitive alternation, spaces and dashes alike, longest first."""
    keys = [k for k in LICENSE_ALIASES if re.search(r"licen|terms|modified", k)]
    keys.sort(key=len, reverse=True)
    return "|".join(r"[\s-]+".join(re.escape(w) for w in k.split("-")) for k in keys)


# a licence name starts a word, or follows a glued spec-sheet label ("LicençaApache 2.0")
_LICENCE_START = (
    "(?:(?<![\\w-])|"
    + "|".join(f"(?<={re.escape(w)})" for w in words("glued_licence_labels"))
    + ")"
)
LICENSE_NAME_RE = re.compile(
    _LICENCE_START + r"(?P<lic>(?i:" + _named_licenses() + r")"
    r"|(?i:modified)\s+MIT|MIT|Apache(?:[- ]2\.0|\s+License\s+2\.0)?"
    r"|CC[- ]BY(?:-[A-Z]{2})*(?:[- ]\d\.\d)?|OpenRAIL(?:-M)?|GPL-?3\.0"
    r"|Llama\s+\d(?:\.\d)?\s+Community|" + alternation("hub_licence_ids") + ")"
    # a word ends it, or a metadata label glued after it ("apache-2.0library transformers")
    r"(?:(?![\w-])|(?=(?:" + alternation("glued_value_ends") + r")\b))"
)
LICENSE_WORD_RE = re.compile(r"licen[cçs]|terms\s+of\s+use|termos\s+de\s+uso", re.I)


# A licence name right after "under"/"sob" (``lexicon/<lang>/licence_under.txt``) is one
# without the word licence: "Mixtral 8x22B under Apache 2.0", "lançado sob MIT".
@cache
def licence_under_re() -> re.Pattern[str]:
    """The words of ``licence_under.txt`` ending the text before a licence name."""
    return re.compile(r"(?<!\w)(?:" + alternation("licence_under") + r")\s+(?:the\s+)?$", re.I)


# The licence word as the subject of a copula right before the name, future or modal too
# ("the licence will be", "its license would be", "a licença será", "a licença vai ser").
LICENSE_IS_RE = re.compile(
    r"\blicen[cçs]\w*\b[^.;:!?]{0,60}?\b(?:" + phrases("licence_copulas") + r")"
    r"\s+(?:the\s+|a\s+|an\s+|o\s+)?$",
    re.I,
)
_TRAILING_LICENSE_WORD = re.compile(r"[\s-]+(?:licen[cs]e|licença)$", re.I)


def license_name_span(name: str, start: int, end: int) -> tuple[str, int]:
    """A matched licence name without its trailing word "License" ("Modified MIT License"
    -> "Modified MIT"), and the end of that span: the candidate quotes the name only."""
    m = _TRAILING_LICENSE_WORD.search(name)
    if m is None or m.start() == 0:
        return name, end
    return name[: m.start()], start + m.start()


_AND_OPENED = re.compile(
    r"^[^.;]{0,40}?\b(?:" + alternation("launch_verbs") + r")\s+(?:and|e)\s+"
    r"(?:" + patterns("open_verbs") + r")",
    re.I,
)


# "A Tencent anunciou em 27 de fevereiro de 2025 seu novo modelo", "Vega announced on
# March 3 its new model": a new model announced on a date is released on it.
_NEW_MODEL_VERB_BEFORE = re.compile(
    r"\b(?:" + phrases("new_model_verbs") + r")\s+(?:(?:on|in|em|no|na|n[oa]\s+dia)\s+)?$", re.I
)
_NEW_MODEL_AFTER = re.compile(
    r"^,?\s+(?:(?:its|their|a|the|seu|sua|o|um)\s+)?(?:" + phrases("new_model_nouns") + r")\b",
    re.I,
)


# A date opening its sentence ("Em 5 de abril de 2025, a Meta apresentou a mais recente
# geração de seus modelos"): only a preposition before it, and after its comma a clause
# whose verb (new_model_verbs) presents a new model (new_model_nouns).
_FRONTED_DATE_BEFORE = re.compile(
    r"^\W*(?:(?:em|no\s+dia|on|in|n[oa]|nest[ae]|ness[ae])\s+)?$", re.I
)  # "Nessa terça-feira (12), a Microsoft anunciou uma nova versão do modelo"
_FRONTED_NEW_MODEL_AFTER = re.compile(
    r"^\s*,\s*[^,.;:]{0,40}?\b(?:" + phrases("new_model_verbs") + r")\s+"
    r"(?:(?:its|their|a|the|seu|sua|o|um|uma)\s+){0,2}(?:" + phrases("new_model_nouns") + r")\b",
    re.I,
)  # "a Meta apresentou o seu novo modelo": article and possessive


# "Anunciado em 12 de dezembro de 2024, este modelo ...": a participle (lexicon
# announced_participles) opening the sentence, the date, then the model the clause is about
# (a demonstrative "este modelo"/"the model", or a capitalised name).
_PARTICIPLE_DATE_BEFORE = re.compile(
    r"^\W*(?:" + phrases("announced_participles") + r")\s+(?:(?:em|no\s+dia|on|in)\s+)?$", re.I
)
_PARTICIPLE_MODEL_AFTER = re.compile(
    r"^\s*,\s*(?:(?:(?:este|esse|o|the|this)\s+(?:novo\s+|new\s+)?(?:modelo|model)\b)"
    r"|(?:(?:o|a|the)\s+)?(?-i:[A-Z]))",
    re.I,
)


def announces_new_model(before: str, after: str) -> bool:
    """True when a date sits between a verb of ``new_model_verbs`` and a new model
    ("anunciou em 27 de fevereiro seu novo modelo"), or opens a sentence whose clause
    after it presents one ("Em 5 de abril de 2025, a Meta apresentou a mais recente
    geração de seus modelos"), or follows a participle opening the sentence whose model
    comes after it ("Anunciado em 12 de dezembro de 2024, este modelo ..."): the new
    model's release date."""
    if _NEW_MODEL_VERB_BEFORE.search(before) and _NEW_MODEL_AFTER.match(after):
        return True
    if _PARTICIPLE_DATE_BEFORE.match(before) and _PARTICIPLE_MODEL_AFTER.match(after):
        return True  # "Anunciado em 12 de dezembro de 2024, este modelo marca ..."
    return bool(_FRONTED_DATE_BEFORE.match(before) and _FRONTED_NEW_MODEL_AFTER.match(after))


# A size written as total and active counts after an article: "a 30B-A3B MoE model", "the
# 235B-A22B variant" (not a name: "Qwen3-30B-A3B" glues it to a family).
SIZE_PAIR_RE = re.compile(
    r"(?<![^\W\d_])(?:an?|the)\s+(?P<total>\d+(?:\.\d+)?[BMT])-A(?P<active>\d+(?:\.\d+)?[BMT])"
    r"(?![\w.-])",
    re.I,
)


# A sentence opening with an announcement participle, the date in its phrase ("Announced
# last night, April 7, 2025, the model ...", "Introduced on 3 March, ..."): the date the
# sentence's model was announced.
_ANNOUNCED_OPENER = re.compile(
    r"^\W*(?:" + alternation("announce_verbs") + r")\b[^,.;:]{0,30},?\s*$", re.I
)


# A date, then a lab and its announcement verb, then the model: "Today, Nimbus announced
# Zephyr 4, a ..." (the caller checks that a subject is named right at the match's end;
# "announced that ..." or "announced plans" name no model there).
_ANNOUNCES_AFTER = re.compile(
    r"^,?\s+(?:[\w.&'’-]+\s+){0,3}?(?:" + alternation("announce_verbs") + r")\s+"
    r"(?:(?:the|its|their)\s+)?(?:new\s+)?",
    re.I,
)


def announces_after(after: str) -> int | None:
    """Offset in ``after`` (the text after a date) where the object of "<lab> announced"
    starts ("Today, Microsoft announced Phi-4-reasoning": at "Phi-4-reasoning"), or
    ``None``."""
    m = _ANNOUNCES_AFTER.match(after)
    return m.end() if m else None


def announced_opener(before: str) -> bool:
    """True when ``before`` (a sentence's text up to a date) is only an announcement
    participle and a few words ("Announced last night, "): the date is the release."""
    return bool(_ANNOUNCED_OPENER.match(before))


def released_and_opened(after: str) -> bool:
    """True when a date is followed by "released and open-sourced" ("On September 1,
    Meituan released and open-sourced LongCat"): the release and the weights both."""
    return bool(_AND_OPENED.match(after))


def nearest(pattern: re.Pattern[str], before: str, after: str) -> tuple[int, bool] | None:
    """Distance to the closest match of ``pattern`` around a figure, and whether it is after."""
    best: tuple[int, bool] | None = None
    for m in pattern.finditer(before):
        d = len(before) - m.end()
        if best is None or d < best[0]:
            best = (d, False)
    m2 = pattern.search(after)
    if m2 and (best is None or m2.start() < best[0]):
        best = (m2.start(), True)
    return best


def weights_released(before: str) -> int | None:
    """Distance from the end of ``before`` to the release word of the last "weights ...
    released" phrase in it (compare with :func:`nearest` of ``RELEASE_KW``), else ``None``."""
    last = None
    for m in _WEIGHTS_RELEASED_RE.finditer(before):
        last = len(before) - m.end()
    return last


# Three or more sizes with only separators between them ("4B/12B/27B", "1B, 4B, 12B and
# 27B") list a family's line-up: none of them is one model's stated size.
_SIZE = r"\d+(?:[.,]\d+)?\s?[MBT]\b"
_SIZE_LIST = re.compile(rf"{_SIZE}(?:(?:\s*[/,]\s*|\s*,?\s+(?:and|e|or|ou)\s+){_SIZE}){{2,}}")


def in_size_list(text: str, start: int, end: int) -> bool:
    """True when the size at ``start``-``end`` is one of a list of three or more sizes."""
    lo = max(0, start - 60)
    return any(
        m.start() <= start and end <= m.end()
        for m in _SIZE_LIST.finditer(text, lo, min(len(text), end + 60))
    )


# Sizes naming models, not counting parameters: "our 7B and 13B models", "os modelos de
# 7B e 13B" read as plural model nouns after one or more sizes; "available in 9B and 27B
# parameter sizes" lists a family's sizes the same way.
_SIZES_NAME_MODELS = re.compile(
    rf"{_SIZE}(?:(?:\s*[/,]\s*|\s*,?\s+(?:and|e|or|ou)\s+){_SIZE})*"
    r"(?:[\s-]+(?:parameter|param))?\s+(?:" + alternation("model_plurals") + r")\b",
    re.I,
)


def sizes_name_models(text: str, start: int, end: int) -> bool:
    """True when the size at ``start``-``end`` is one of sizes followed by a plural model
    noun ("used for our 7B and 13B models"): other models named by size, not a count."""
    lo = max(0, start - 40)
    return any(
        m.start() <= start and end <= m.end()
        for m in _SIZES_NAME_MODELS.finditer(text, lo, min(len(text), end + 60))
    )


# A token count naming models: "200,000-token long-context variants", "its 128K-token
# models" (a count, "token", at most two words, then a plural model noun).
_TOKENS_NAME_MODELS = re.compile(
    r"^[\s-]*tokens?(?:[\s-]+[^\W\d_][\w-]*){0,2}\s+(?:" + alternation("model_plurals") + r")\b",
    re.I,
)


def tokens_name_models(after: str) -> bool:
    """True when the words right after a token count (``after``) make it an adjective of
    a plural model noun ("-token long-context variants"): other models of a family, named
    by their window, not this model's context window."""
    return bool(_TOKENS_NAME_MODELS.match(after))


# One model's size stated as a range is an estimate ("~671-685B"); ends further apart than
# this ratio span a family's line-up ("from 600 million to 32 billion").
LINEUP_RATIO = Decimal(2)


def lineup_of_params(fig: Figure, after: str) -> bool:
    """True when ``fig`` is a family's line-up of parameter counts ("os modelos variam de
    0,6 bilhão a 235 bilhões de parâmetros"): a scaled range of ends far apart
    (:data:`LINEUP_RATIO`) with a parameter noun right ``after`` it."""
    return (
        fig.kind == "plain"
        and fig.is_range
        and fig.scaled
        and _lineup_range(fig)
        and bool(_PARAMS_AFTER.match(after))
    )


def _lineup_range(fig: Figure) -> bool:
    """True when ``fig`` is a range whose high end is over :data:`LINEUP_RATIO` times its low."""
    v = fig.to_value("params")
    lo, hi = (v.low, v.high) if v is not None else (None, None)
    return isinstance(lo, Decimal) and isinstance(hi, Decimal) and lo > 0 and hi > lo * LINEUP_RATIO


# A size as the subject of a copula ("12B is the sweet spot", "70B parameters are
# overkill", "12B é o ponto ideal"): a size class talked about, not a model's count...
_SIZE_AS_SUBJECT = re.compile(
    r"^\s*(?:(?:parameters|params|parâmetros)\s+)?(?:" + phrases("judging_verbs") + r")\b",
    re.I,
)
# ...unless the rest of its clause says it is a count ("12B is the total parameter count").
_COUNT_WORDS = re.compile(
    r"\b(?:" + alternation("count_words") + r")\b",
    re.I,
)


@cache
def _simile_re() -> re.Pattern[str]:
    """A yardstick's words (``lexicon/<lang>/similes.txt``) and an article right before a
    size: "like a ", "como um "."""
    return re.compile(
        r"(?<!\w)(?:" + alternation("similes") + r")\s+(?:(?:a|an|the|um|uma|o)\s+)?$", re.I
    )


@cache
def _teacher_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A distillation teacher's noun (``lexicon/<lang>/teacher_nouns.txt``) right before a
    size ("um professor de ", "a teacher of ") and right after one ("-parameter teacher")."""
    nouns = alternation("teacher_nouns")
    before = re.compile(rf"(?<!\w)(?:{nouns})\s+(?:de|of)\s+(?:(?:a|an|the|um|uma|o)\s+)?$", re.I)
    after = re.compile(rf"^\s*-?(?:parameters?\s+|params?\s+)?(?:{nouns})\b", re.I)
    return before, after


def teachers_size(before: str, after: str) -> bool:
    """True when a size is a distillation teacher's ("partindo de um professor de 12B",
    "a 12B teacher"): another model's, not the distilled subject's."""
    tb, ta = _teacher_res()
    return bool(tb.search(before[-40:]) or ta.match(after))


@cache
def _total_of_re() -> re.Pattern[str]:
    """Words of the whole an active count is part of (``lexicon/<lang>/total_of.txt``)
    right before a size: "out of ", "de um total de "."""
    return re.compile(r"(?<!\w)(?:" + alternation("total_of") + r")\s+$", re.I)


def counts_other_noun(lead: str, after: str) -> bool:
    """True when a count is followed by a pronoun for a noun counted before it ("#1 by
    tokens. 2.76 trillion of them", ``lexicon/<lang>/counted_pronouns.txt``) and its
    sentence up to it (``lead``) names no parameters ("1.2T parameters, and 32 billion of
    them are active" stays a parameter count) and the pronoun's noun is not "parameters"
    ("16 billion of these parameters are activated")."""
    m = _COUNTED_PRONOUN_AFTER.match(after)
    if m and _PARAMS_AFTER.match(after[m.end() :]):
        return False  # "16 billion of these parameters": the pronoun names parameters
    return bool(m) and not re.search(_PARAMS, lead, re.I)


def params_attribute(fig: Figure, before: str, after: str) -> str | None:
    """``total_params``/``active_params`` for a parameter count, else ``None``.

    A count is of parameters when "parâmetros/parameters" follows, or when it is a bare
    billions/trillions figure ("2,8T", "104 bilhões") not followed by another noun.
    Active when "ativos/active/por token" is closer than "total/capacidade".
    """
    if fig.kind != "plain" or fig.is_range and not fig.scaled:
        return None
    if fig.is_range and _lineup_range(fig):
        return None  # "versões de 1,5 a 70 bilhões": a family's sizes, not one model's
    if _EACH_AFTER.match(after):
        return None  # "128 experts at 3.66 billion parameters each": one part's size
    if _CLASS_BOUND_BEFORE.search(before):
        return None  # "o primeiro modelo abaixo de 10 bilhões": a size class's bound
    if _simile_re().search(before[-40:]):
        return None  # "benchmarked like a 70B", "como um 70B": a yardstick, not a count
    if teachers_size(before, after):
        return None  # "partindo de um professor de 12B": the teacher's size
    if _part_after_re().match(after) or _part_label_re().search(before[-40:]):
        return None  # "170 milhões de parâmetros de incorporação": one part's size
    if is_part_size(before, after):
        return None  # "a 123B decoder with a 1B vision encoder": a component's size
    judged = _SIZE_AS_SUBJECT.match(after)
    if judged and not _COUNT_WORDS.search(after, judged.end()):
        return None  # "12B is the sweet spot", "12B é o ponto ideal": a size class, judged
    if _THE_BEFORE.search(before[-6:]) and not _NOUN_AFTER_SIZE.match(after):
        return None  # "the 70B is fast": a model called by its size, no figure stated
    compound = _COMPOUND_SIZE.match(after)
    if compound:
        # "the 480B-parameter Zephyr": the size of what it names ("104B-parameter
        # activation" names the active part)
        noun = after[compound.end() :].split(maxsplit=1)[:1]
        return "active_params" if noun and _ACTIVE_KW.match(noun[0]) else "total_params"
    explicit = bool(_PARAMS_AFTER.match(after))
    if not explicit:
        if not fig.scaled or fig.scale < Decimal(10) ** 9 or _OTHER_NOUN_AFTER.match(after):
            return None
        if is_training_count(before):
            return None  # "pre-trained on up to 11.2 trillion (11.2T) ...": a corpus
    if _total_of_re().search(before[-30:]):
        return "total_params"  # "39B active parameters out of 141B": the whole count
    direct = _DIRECT_KIND.match(after)
    if direct:
        return "active_params" if _ACTIVE_KW.match(direct.group(1)) else "total_params"
    before = _CONJ.split(before)[-1]
    act = nearest(_ACTIVE_KW, before, after)
    if act and act[1] and _RELATIVE_WORD.search(after, 0, act[0]):
        act = None  # "a 30B model that activates only 3B": the clause's cue is the next count's
    tot = nearest(_TOTAL_KW, before, after)
    if act and (not tot or act[0] < tot[0]):
        return "active_params"
    return "total_params"


# A margin between two scores, not a score: "(+5.3)", "+9.3 points", "within 2 points".
_SIGNED_BEFORE = re.compile(r"(?:^|[\s(])[+±]\s*$")
_MARGIN_BEFORE = re.compile(r"\b(?:" + phrases("margin_words") + r")\s+$", re.I)
_POINTS = phrases("points_words")
_POINTS_WORD = re.compile(r"\s*(?:" + _POINTS + r")\b", re.I)
# "75.9 → 81.2": the value before the arrow is the earlier one.
_ARROW_AFTER = re.compile(r"\s*(?:→|->|⇒|=>|➝)")


_GAP_AFTER = re.compile(
    r"\s*(?:" + _POINTS + r")\s+(?:" + phrases("gap_directions") + r")\b",
    re.I,
)


def is_margin(text: str, start: int, end: int) -> bool:
    """True when the figure at ``start``-``end`` is a signed difference ("(+5.3)") or a gap
    stated in points ("within 2 points", "by 3 points", "12 points above", "por 2 pontos",
    "uma melhoria de 400 pontos": the words of ``lexicon/<lang>/gains.txt``)."""
    head = text[max(0, start - 20) : start]
    if _SIGNED_BEFORE.search(head) or _GAP_AFTER.match(text, end):
        return True
    margin = _MARGIN_BEFORE.search(head) or _gain_before_re().search(head)
    return bool(margin and _POINTS_WORD.match(text, end))


@cache
def _gain_before_re() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + alternation("gains") + r")\s+(?:[~≈]\s*)?$", re.I)


@cache
def _gap_subject_re() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + alternation("gains") + r")(?!\w)", re.I)


_GAP_VERB = re.compile(r"\b(?:" + alternation("gap_verbs") + r")\b", re.I)


def is_gap_between_others(before: str) -> bool:
    """True when a percent's clause up to it makes a gap its subject and a change its verb
    ("a diferença entre os modelos dos EUA e da China passou de 9,26% ...", "the gap between
    them narrowed to 1.7%"): a difference of two others' scores, no model's score."""
    gap = _gap_subject_re().search(before)
    return bool(gap and _GAP_VERB.search(before, gap.end()))


@cache
def _measure_re() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:" + alternation("not_price_measures") + r")(?!\w)[^\d%$]{0,40}$", re.I
    )


def names_other_measure(before: str) -> bool:
    """True when a measure that is no price ("memory", "latência";
    ``lexicon/<lang>/not_price_measures.txt``) is named at most 40 characters before a
    percent in its clause: "memory reductions greater than 70%" is no price change."""
    return bool(_measure_re().search(before))


_FROM_BEFORE = re.compile(r"\b(?:from|de|desde)\s+(?:US)?$", re.I)
# "75.2%, up from 68.0% for ...", "down from $2": the value before a change.
_UP_FROM_BEFORE = re.compile(
    r"\b(?:" + alternation("rise_fall_words") + r")\s+(?:from\s+|de\s+)?(?:US)?$", re.I
)
# Between the old and the new value of a change: "... per million to ", " para ".
TO_BEFORE_RE = re.compile(r"\b(?:to|para)\s+(?:US|R)?$", re.I)
_TO_AFTER = re.compile(r"[^.;\d]{0,30}?\b(?:to|para)\s+(?:US|R)?[$€£]?\s*\d", re.I)


@cache
def _previous_before_re() -> re.Pattern[str]:
    # "previous rates of $10 and ", "formerly ", "o preço anterior de US$": the word, up to
    # two words, a joining word, and any figures listed before this one
    figure = r"(?:US|R)?[$€£]?\s*\d[\d.,]*\s*[%kKMBT]?"
    return re.compile(
        r"(?<!\w)(?:" + alternation("previous") + r")\s+(?:[\w-]+\s+){0,2}?"
        r"(?:(?:of|at|was|were|de|em|era|eram|:)\s+)?"
        rf"(?:{figure}\s*(?:,|and|or|e|ou|/)\s*)*(?:US|R)?[$€£]?\s*$",
        re.I,
    )


def is_previous_value(text: str, start: int, end: int) -> bool:
    """True when the figure at ``start``-``end`` is the old value of a change: followed
    by an arrow ("75.9 → 81.2") or "from X to Y" / "de X para Y" ("decreased from $0.56
    per million to $0.28 per million"), or named earlier by a word of
    ``lexicon/<lang>/previous.txt`` ("from previous rates of $10 and $40")."""
    if _ARROW_AFTER.match(text, end) or _UP_FROM_BEFORE.search(text[max(0, start - 20) : start]):
        return True
    if _previous_before_re().search(text[max(0, start - 80) : start]):
        return True
    return bool(
        _FROM_BEFORE.search(text[max(0, start - 12) : start]) and _TO_AFTER.match(text, end)
    )


_VS_PREV = re.compile(
    r"(?:vs\.?|" + alternation("versus_words") + r")\s*[~≈]?\s*(?:US)?[$€£]?$", re.I
)
_NUMBER_BEFORE = re.compile(r"(?:US)?[$€£]?\d[\d.,]*\s*%?\s*$")


def versus_first(text: str, pos: int, floor: int) -> int | None:
    """For the second figure of a pair ("83.1% vs. 81.4%", "89,1% contra 87,3%") at
    ``pos``, the start of the first one (not before ``floor``); else ``None``."""
    vs = _VS_PREV.search(text, max(floor, pos - 12), pos)
    if vs is None:
        return None
    first = _NUMBER_BEFORE.search(text, max(floor, vs.start() - 16), vs.start())
    return first.start() if first else None


def params_cued(before: str, after: str) -> bool:
    """True when the words around a parameter count say active or total ("104B ativos",
    "total of 560B"); a bare count ("averaging about 27 billion") says neither."""
    if _DIRECT_KIND.match(after):
        return True
    before = _CONJ.split(before)[-1]
    return bool(nearest(_ACTIVE_KW, before, after) or nearest(_TOTAL_KW, before, after))


# A percent whose direction word is followed by "than"/"(do) que" and another thing ("custo
# 97% menor que o GPT-4", "97% cheaper than GPT-4"): a comparison with another model, no
# change of the subject's own price; the comparand may not be its own earlier price
# ("50% menor que o anterior", ``lexicon/<lang>/previous.txt``).
_COMPARED_AFTER = re.compile(
    r"^\s*(?:[^\W\d]+\s+){0,2}?(?:(?:"
    + patterns("price_down_cues")
    + ")|(?:"
    + patterns("price_up_cues")
    + r"))\w*\s+(?:(?:do\s+)?que|than)\s+(?!(?:(?:o|a|os|as|the|its|seu|sua|their)\s+)?"
    r"(?:pre[çc]o\s+)?(?:" + alternation("previous") + r")\b)",
    re.I,
)


def compared_with_other(after: str) -> int | None:
    """Where the compared thing starts in ``after`` when the words right after a percent
    compare it with something else than its own earlier price ("97% menor que o GPT-4",
    "97% cheaper than GPT-4"), else ``None``."""
    m = _COMPARED_AFTER.match(after)
    return m.end() if m else None


def price_direction(before: str, after: str) -> int | None:
    """-1 for a cut ("menor", "corte", "lower"), +1 for a rise, ``None`` when unsaid."""
    down = nearest(_DOWN_KW, before, after)
    up = nearest(_UP_KW, before, after)
    if down and (not up or down[0] <= up[0]):
        return -1
    if up:
        return 1
    return None


# A price's side labelling it right before, on its line ("Input$3", "Output: $15").
SIDE_RIGHT_BEFORE = re.compile(r"(?:^|\n|\s)(?:" + alternation("side_labels") + r")\s*:?\s*$", re.I)
# A price's side named right after it, with no unit between ("$0.17 input", "US$ 2 de saída").
SIDE_RIGHT_AFTER = re.compile(r"^\s*(?:" + phrases("side_after") + r")\b", re.I)


# A label's unit note making a bare price per million tokens ("Input Tokens (1M)",
# "Output ($/1M tokens)", "Entrada (por milhão)").
PER_MTOK_LABEL = re.compile(
    r"\(\s*(?:\$\s*/\s*|US\$\s*/\s*)?1\s*M(?:\s*tokens)?\s*\)|\bper\s+(?:1\s*)?M(?:illion)?\b|"
    r"\bpor\s+(?:1\s*)?(?:M|milhão)\b",
    re.I,
)


@cache
def _cached_re() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + alternation("cached_price") + r")(?!\w)", re.I)


# A price's unit phrase after it, up to its "tokens" ("per 1 million cached input tokens").
_UNIT_PHRASE_AFTER = re.compile(r"^[^,;.()\n]{0,40}?\btokens?\b", re.I)


def is_cached_price(before: str, after: str = "") -> bool:
    """True when the words right before a price (its clause or card label, last 40
    characters), or its unit phrase after it up to "tokens" ("$0.50 per 1 million cached
    input tokens"), name a cached or batch rate ("Cached Input Tokens (1M)", "cache hit",
    "Batch input tokens:", "entrada em cache"; ``lexicon/<lang>/cached_price.txt``): a
    discount, not the price."""
    if _cached_re().search(before[-40:]):
        return True
    unit = _UNIT_PHRASE_AFTER.match(after)
    return bool(unit and _cached_re().search(unit.group(0)))


@cache
def _modality_re() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + alternation("modality_price") + r")(?!\w)", re.I)


# A price's label right before it naming a modality's side: "Audio input: ", "áudio (1M): ".
_MODALITY_LABEL = re.compile(
    r"(?<!\w)(?P<m>[^\W\d_]+)[\s-]*(?:input|output|entrada|saída|in|out)?(?:\s+tokens?)?"
    r"\s*(?:\(\s*1\s*M\s*\))?\s*[:=]\s*$",
    re.I,
)


def is_modality_price(before: str, after: str = "") -> bool:
    """True when a price's unit phrase after it up to "tokens" ("$0.50 per M audio-input
    tokens") or its label right before it ("Audio input: $0.70") names an input kind other
    than text (``lexicon/<lang>/modality_price.txt``): that modality's rate, not the price."""
    unit = _UNIT_PHRASE_AFTER.match(after)
    if unit and _modality_re().search(unit.group(0)):
        return True
    label = _MODALITY_LABEL.search(before[-40:])
    return bool(label and _modality_re().fullmatch(label.group("m")))


def is_tier_discount(sentence_before: str) -> bool:
    """True when a percent's sentence up to it names a cached or batch rate ("Batch input
    tokens: $0.40 per 1M tokens (50% off"): that tier's discount, not a price change."""
    return bool(_cached_re().search(sentence_before))


def price_side(before: str, after: str) -> str | None:
    """``input``/``output`` for a price: the first "entrada/input" or "saída/output" after it
    ("por milhão de tokens de saída") in the same conjunct (not the next price's: "input
    costs $1.25 per million and output $5"), else the closest before it in its conjunct."""
    after = _CONJ.split(after)[0]
    i_after, o_after = _INPUT_KW.search(after), _OUTPUT_KW.search(after)
    if i_after or o_after:
        if i_after and (not o_after or i_after.start() < o_after.start()):
            return "input"
        return "output"
    before = _CONJ.split(before)[-1]
    i = nearest(_INPUT_KW, before, after)
    o = nearest(_OUTPUT_KW, before, after)
    if i and (not o or i[0] < o[0]):
        return "input"
    if o:
        return "output"
    return None


@cache
def _threshold_before_re() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:" + phrases("threshold_words") + r")\s+(?:of|de|dos|das|do|da)\s+(?:the\s+)?$", re.I
    )


@cache
def _threshold_after_re() -> re.Pattern[str]:
    return re.compile(r"^\s*(?:" + phrases("threshold_words") + r")\b", re.I)


@cache
def _difference_after_re() -> re.Pattern[str]:
    return re.compile(r"^\s*(?:" + phrases("difference_after") + r")\b", re.I)


def is_threshold_or_difference(before: str, after: str) -> bool:
    """True when a percent names a threshold ("the barrier of 80%", "a barreira de 80%",
    "the 80% mark"; ``lexicon/<lang>/threshold_words.txt``) or a difference ("76% fewer
    tokens", "76% menos tokens"; ``difference_after.txt``): no benchmark score."""
    return bool(
        _threshold_before_re().search(before[-40:])
        or _threshold_after_re().match(after)
        or _difference_after_re().match(after)
    )


def one_side(text: str) -> str | None:
    """``input``/``output`` when ``text`` (a sentence's fronted phrase before the price's
    clause: "Nos tokens de saída,") names exactly one side, else ``None``."""
    i, o = _INPUT_KW.search(text), _OUTPUT_KW.search(text)
    if bool(i) == bool(o):
        return None
    return "input" if i else "output"


@cache
def _same_amount_re() -> re.Pattern[str]:
    return re.compile(r"^\s*(?:" + phrases("same_amount") + r")\b", re.I)


def same_amount_after(after: str) -> bool:
    """True when a price is followed by "for the same amount" / "pela mesma quantidade"
    (``lexicon/<lang>/same_amount.txt``): it is in the unit of the sentence's earlier price."""
    return bool(_same_amount_re().match(after))


_TIME_COMPARAND = re.compile(r"^[^.;!?]{0,40}?\b(?:" + phrases("time_comparands") + r")\b", re.I)


def against_a_time(after: str) -> bool:
    """True when a factor is compared with a time ("390 vezes face ao ano anterior", "than a
    year ago"; ``lexicon/<lang>/time_comparands.txt``): a trend, no factor of the subject."""
    return bool(_TIME_COMPARAND.match(after))


def factor_attribute(
    clause_after: str, clause_before: str, names: Sequence[str] = ()
) -> str | None:
    """``speedup_factor`` ("2 a 3 vezes mais rápida") or ``price_factor`` (cost words).

    ``names`` (variant names) are not words of the clause: "Highspeed is twice as
    expensive" states a price, not a speed. Only the 300 characters on each side count: a
    keyword farther off is not about this figure, and a 50 KB clause made it quadratic."""
    clause_before, clause_after = clause_before[-300:], clause_after[:300]
    for n in names:
        blank = variant_word_re(n)
        clause_after = blank.sub(lambda m: " " * len(m.group(0)), clause_after)
        clause_before = blank.sub(lambda m: " " * len(m.group(0)), clause_before)
    s = nearest(_SPEED_KW, clause_before, clause_after)
    p = nearest(_PRICE_FACTOR_KW, clause_before, clause_after)
    if s and (not p or s[0] <= p[0]):
        return "speedup_factor"
    if p:
        return "price_factor"
    return None


def is_tokens_per_second(after: str) -> bool:
    """ "tokens/s", "tokens por segundo", "tokens per second" right after the figure."""
    return bool(_TOKENS_PER_SEC.match(after))


_OUTPUT_AFTER = re.compile(
    r"^\s*-?\s*(?:tokens?\s+)?(?:de\s+)?(?:[\w-]+\s+){0,2}(?:"
    + alternation("output_length_after")
    + r")",
    re.I,
)
_OUTPUT_BEFORE = re.compile(
    r"(?:" + alternation("output_length_before") + r")\w*\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)


def is_context_apposition(rest: str) -> bool:
    """True when ``rest`` (the sentence after a token count) opens with an apposition that
    calls the count a context window ("—an industry-leading context window", ", uma janela
    de contexto recorde")."""
    return bool(_CONTEXT_APPOSITION.match(rest))


def is_input_limit(before: str, after: str) -> bool:
    """Input tokens after a count, not a price's unit ("até 200.000 tokens de entrada",
    "up to 200,000 input tokens"; not "$3 per 1M input tokens"); the caller asks that the
    count be a most ("up to"), which makes it the model's window."""
    return bool(_INPUT_LIMIT_AFTER.match(after)) and not _PER_BEFORE.search(before)


# "4096 tokens during pre-training", "32K durante o pré-treinamento": a stage's length.
_STAGE_AFTER = re.compile(
    r"^\s*(?:tokens?\s+)?(?:during|for|at|durante|no|na)\s+(?:the\s+|o\s+|a\s+)?(?:"
    + phrases("training_stages")
    + r")(?![\w-])",
    re.I,
)


def is_training_stage_length(after: str) -> bool:
    """True when a token count is followed by the training stage it was used in ("4096
    tokens during pre-training"): that stage's length, not the model's context window
    (stages: ``lexicon/<lang>/training_stages.txt``)."""
    return bool(_STAGE_AFTER.match(after))


def is_context_window(before: str, after: str, clause: str) -> bool:
    """Tokens with "contexto/janela/context/window" in the clause, or "contexto de 1M";
    never an output, generation or thinking length ("80,000 token inference output",
    "up to 16,384 output tokens", "max output of 8K")."""
    if _OUTPUT_AFTER.match(after) or _OUTPUT_BEFORE.search(before[-60:]):
        return False
    if _attention_window_re().search(before[-60:]):
        return False  # "sliding window attention (4,096 tokens)": one layer's span
    if _TOKENS.match(after) and _CONTEXT_KW.search(clause) or _CONTEXT_AFTER.match(after):
        return True
    if _TOKENS.match(after) and _INFERENCE_SPAN.search(before[-60:]):
        return True  # "with inference supporting up to 4 million tokens"
    return bool(_CONTEXT_BEFORE.search(before))


@cache
def _attention_window_re() -> re.Pattern[str]:
    """An attention span's words (``lexicon/<lang>/attention_windows.txt``) right before a
    token count: "sliding window attention (", "janela deslizante de"."""
    return re.compile(
        r"(?<!\w)(?:" + alternation("attention_windows") + r")"
        r"(?:\s+(?:attention|atenção))?\s*(?:[(:]|of|de|size\s+of|de\s+tamanho)?\s*$",
        re.I,
    )


# Largest context windows announced are about 10^7 tokens; a "context" of 10^9 tokens or
# more is a corpus or a count of something else ("15.5 trillion tokens").
MAX_CONTEXT_TOKENS = Decimal(10) ** 9


@cache
def _training_re() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:" + alternation("training") + r")\s+(?:(?:\w+|[~≈])\s+){0,3}$", re.I
    )


@cache
def _part_after_re() -> re.Pattern[str]:
    """ "parameters" then a part's words (``lexicon/<lang>/param_parts.txt``), or a part's
    words then "parameters" ("170M embedding parameters")."""
    parts = alternation("param_parts")
    return re.compile(
        r"^\s*-?(?:(?:de\s+)?(?:" + _PARAMS + r")\s+(?:" + parts + r")"
        r"|(?:" + parts + r")\s+(?:" + _PARAMS + r"))(?!\w)",
        re.I,
    )


@cache
def _part_label_re() -> re.Pattern[str]:
    """A part's words then "parameters" as the label right before a count, maybe glued to
    it by a flattened spec table ("Non-embedding Parameters25.6B", "Embedding params: 1.4B")."""
    return re.compile(
        r"(?<!\w)(?:" + alternation("param_parts") + r")\s+(?:" + _PARAMS + r")\s*[:|]?\s*$",
        re.I,
    )


@cache
def _change_from_re() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:" + alternation("change") + r")\b(?:\s+[\w-]+){0,6}?\s+(?:from|de)\s+$", re.I
    )


def is_change_from(before: str) -> bool:
    """True when ``before`` (a range's clause up to it) ends like "the expansion of the
    window from" / "passou de": "X to Y" is then an old and a new value, not a range
    (change words: ``lexicon/<lang>/change.txt``)."""
    return bool(_change_from_re().search(before[-120:]))


def new_value(fig: Figure) -> Figure:
    """The stated new value of a change read as a range ("from 32,000 to 128,000": 128,000)."""
    return replace(fig, low_text=fig.high_text, high_text=None, low_scale=None, open_high=False)


def is_training_count(before: str) -> bool:
    """True when ``before`` (a token count's clause up to it) ends like "trained on
    approximately" / "treinado com mais de": the figure sizes a training corpus (the words
    are ``lexicon/<lang>/training.txt``)."""
    return bool(_training_re().search(before[-80:]))


def is_bits(after: str) -> bool:
    """ "4 bits", "4-bit" right after the figure."""
    return bool(_BITS_AFTER.match(after))


@cache
def _quant_support_re() -> re.Pattern[str]:
    # "support for 4-bit and ", "suporte a quantização de ": the words, then up to three
    # words or bit widths
    return re.compile(
        r"(?<!\w)(?:" + alternation("quant_support") + r")\s+"
        r"(?:(?:\d+\s*-?\s*bits?|[\w-]+)\s*(?:,|and|or|e|ou)?\s+){0,3}$",
        re.I,
    )


def is_supported_quantization(before: str) -> bool:
    """True when ``before`` (the text up to a bit width) ends like "support for" /
    "suporte a quantização de": a quantization the model can run in, not its weights'
    precision (words: ``lexicon/<lang>/quant_support.txt``)."""
    return bool(_quant_support_re().search(before[-60:]))


def license_id(name: str) -> str:
    """Licence name as written to the lower-case Hub id the Hub reader gives
    (:func:`claims.readings.licenses.normalize_license_text`: "Apache 2.0" -> "apache-2.0",
    "Modified MIT" -> "modified-mit", "Gemma license" -> "gemma"); a bare "Apache" is 2.0."""
    if " ".join(name.split()).lower() == "apache":
        return "apache-2.0"
    return normalize_license_text(name)


# "o dobro", "twice", "triple": a factor written as a word, and its number.
# (``lexicon/<lang>/factor_words.txt``: a word and its number a line)
FACTORS: dict[str, str] = dict(line.rsplit(None, 1) for line in words("factor_words"))
FACTOR_WORD_RE = re.compile(
    r"\b(?:o\s+|the\s+)?(?P<w>" + "|".join(map(re.escape, FACTORS)) + r")\b", re.I
)
