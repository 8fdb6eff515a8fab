"""Ranks on a leaderboard, ties kept: board entries -> the span of ranks each may claim.

Rule for boards with 95 % confidence intervals (LMArena's published "Rank (UB)"): a
model's best rank is 1 + the number of models whose lower bound lies above its upper
bound (they are better beyond doubt); its worst rank is the number of models whose
upper bound reaches its lower bound, itself included. Boards without intervals (an
index of points) tie only equal scores. A claim of rank N holds when N lies in the span:
a tie that includes N confirms it (:func:`rank_holds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from claims.readings.boards import Entry


@dataclass(frozen=True)
class RankSpan:
    """Ranks an entry may hold: ``best`` <= ``worst`` (equal when untied); ``rule`` is
    ``interval`` (confidence intervals) or ``score`` (equal scores tie); ``size`` the
    number of models ranked."""

    best: int
    worst: int
    rule: str
    size: int


def rank_spans(entries: Mapping[str, Entry]) -> dict[str, RankSpan]:
    """The rank span of every entry. When every entry has both interval ends the
    interval rule applies, else the score rule (a board with a missing interval is not
    ranked by intervals it does not have). Pure; an empty board gives ``{}``."""
    items = list(entries.values())
    size = len(items)
    bounds = [(e.low, e.high) for e in items if e.low is not None and e.high is not None]
    with_ci = len(bounds) == size
    out: dict[str, RankSpan] = {}
    for e in items:
        if with_ci and e.low is not None and e.high is not None:
            better = sum(1 for lo, _ in bounds if lo > e.high)  # its own low is <= its high
            overlap = sum(1 for _, hi in bounds if hi >= e.low)
            out[e.key] = RankSpan(better + 1, max(overlap, better + 1), "interval", size)
        else:
            higher = sum(1 for o in items if o.score > e.score)
            equal = sum(1 for o in items if o.score == e.score)
            out[e.key] = RankSpan(higher + 1, higher + equal, "score", size)
    return out


def rank_holds(claimed: int, span: RankSpan) -> bool:
    """Whether a claimed rank is one the entry holds (inside its tie)."""
    return span.best <= claimed <= span.worst


def span_phrase(span: RankSpan) -> str:
    """``rank 4`` or ``ranks 6–9 (tied within the 95 % intervals)`` for reasons."""
    if span.best == span.worst:
        return f"rank {span.best} of {span.size}"
    why = "tied within the 95 % intervals" if span.rule == "interval" else "tied on score"
    return f"ranks {span.best}–{span.worst} of {span.size} ({why})"
