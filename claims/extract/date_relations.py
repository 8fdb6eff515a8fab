"""The relation of a stated date (on / before / by / after) and negations that govern it.

Used by :mod:`claims.extract.dates`: the relation words right before a date ("antes de", "no
later than") and, when a negation or a refusal governs them ("will not release before",
"has no plans to release ... before", "descartou liberar ... antes de"), the relation's
complement: a refusal of a date is no promise of it.
"""

from __future__ import annotations

import datetime as dt
import re

from claims.extract.lexicon import alternation, patterns, phrases, words
from claims.extract.negation import NEGATION_WORDS, NOT_NEGATING_WORDS

# Relation words right before a date (``lexicon/<lang>/relation_words.txt``, longest first); "a partir de"/"from" = on that day.
# "not_before" (on or after the date) is stored as "after" the unit before it.
RELATION_WORDS: tuple[tuple[str, str], ...] = tuple(
    (w, rel) for w, rel in (line.rsplit(None, 1) for line in words("relation_words"))
)
_REL_RE = re.compile(
    r"(?:^|[\s(])("
    + "|".join(re.escape(w) for w, _ in RELATION_WORDS)
    + r")\s+(?:o\s+|a\s+|the\s+)?"
    r"(?:(?:pr[óo]ximo|next)\s+)?(?:dia\s+)?"
    # "by mid-December", "até meados de dezembro": a part of the month between them.
    r"(?:(?:" + phrases("month_parts") + r")[\s-]+)?$",
    re.IGNORECASE,
)
_REL_MAP = dict(RELATION_WORDS)
# What negates a plan: "not", "never", "n't", refusals ("no plans to", "refused to",
# "declined to", "ruled out", "sem planos de", "descartou", "recusou(-se)") and denials.
_REFUSAL = patterns("refusals")
_NEG_HEAD = rf"(?P<neg>\b(?:{NEGATION_WORDS}|{_REFUSAL})|n[’']t)"
# "did not rule out releasing before March", "não descartou liberar antes de março": a
# negated refusal is doubt, and the date reads as written.
_NEGATED_REFUSAL = re.compile(rf"\b(?:{_REFUSAL})\b", re.IGNORECASE)
# A negation governing the relation word: "will not be released before", "não tem planos
# de liberar os pesos do Kimi K3.1 Pro antes de"; at most ten words between (a dot inside
# a word only before a digit, so "small.Weights" is two sentences, and a word must be
# followed by a space, so a comma ends the reach), none a conjunction ("is not open
# source and was released on" keeps its date) nor "whether/if/that" ("not clear whether
# ... before March" is doubt, not a denial); "not the only", "not just", "não só" negate
# nothing.
NEG_RE = re.compile(
    _NEG_HEAD + r"\s+"
    rf"(?!(?:the\s+|a\s+|an\s+)?(?:{NOT_NEGATING_WORDS})\b|(?:é\s+)?[oa]\s+únic)"
    r"(?:(?!(?:" + alternation("clause_conjunctions") + r")\s)[\w’'-]+(?:\.\d\w*)*\s+){0,10}$",
    re.IGNORECASE,
)
# Negated relation -> its complement: not before D = on or after D; not by D = after D;
# not after D = by D; "not until" = not before. "não ... até" (not by, or not until?) and
# "not on D" say no date: the reading is marked ``denied``.
NEGATED = {"before": "not_before", "by": "after", "after": "by"}


def relation_before(text: str, start: int) -> tuple[str, str, str | None]:
    """(relation, its words, None) for the relation words before ``start``; when a
    negation governs them, (relation, words, the negation) instead, "until" read as
    "before" ("not until March"). No relation words: ("on", "", None)."""
    lo = max(0, start - 50)
    m = _REL_RE.search(text[lo:start])
    if not m:
        return "on", "", None
    words = " ".join(m.group(1).lower().split())
    rel = _REL_MAP[words]
    rel_start = lo + m.start(1)
    neg = NEG_RE.search(text[max(0, rel_start - 100) : rel_start]) if rel != "not_before" else None
    if neg and not _NEGATED_REFUSAL.search(neg.group(0), len(neg["neg"])):
        return ("before" if words == "until" else rel), words, " ".join(neg["neg"].split())
    return rel, words, None


def unit_before(iso: str, precision: str) -> str:
    """The day (or month) before ``iso``: "on or after D" is "after" that one."""
    if precision == "month":
        y, mo = int(iso[:4]), int(iso[5:7])
        return f"{y - (mo == 1):04d}-{(mo - 2) % 12 + 1:02d}"
    return (dt.date.fromisoformat(iso) - dt.timedelta(days=1)).isoformat()
