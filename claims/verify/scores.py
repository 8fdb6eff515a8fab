"""Benchmark scores and leaderboard ranks against board observations (pure rules).

Scores: the observation must be the claim's benchmark by identity (family + variant +
version + agent, :mod:`claims.verify.benchmarks`, cases/C33); an ambiguous claim is
neither confirmed nor contradicted, and its reason lists the candidates. Ranks: a claim
of rank N holds when N lies in the rank span the board gives the model, ties included
(:mod:`claims.verify.ranks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from claims.values.value import format_value
from claims.verify.benchmarks import BenchmarkId, Match, benchmark_id, match
from claims.verify.compare import values_conflict
from claims.verify.facts import ClaimView, ObsView
from claims.verify.ranks import RankSpan, span_phrase


@dataclass(frozen=True)
class ScoreDecision:
    """status, reason, evidence observation ids (the judge turns it into a Decision)."""

    status: str
    reason: str
    evidence: tuple[int, ...]


def _obs_id(o: ObsView, name_key: str) -> BenchmarkId:
    q = o.qualifiers
    return benchmark_id(str(q.get(name_key, "")), q.get("version"), q.get("agent"))


def _claim_id(c: ClaimView, name_key: str) -> BenchmarkId | None:
    name = c.qualifiers.get(name_key)
    if not name:
        return None
    return benchmark_id(str(name), c.qualifiers.get("version"), c.qualifiers.get("agent"))


def _board_observations(
    claim: ClaimView, observations: Sequence[ObsView], attribute: str, name_key: str
) -> list[ObsView]:
    """The claim's subject's ``attribute`` observations that name their board
    (qualifier ``name_key``: ``benchmark`` or ``leaderboard``)."""
    return [
        o
        for o in observations
        if o.subject_id == claim.subject_id
        and o.attribute == attribute
        and o.qualifiers.get(name_key)
    ]


def _matches(
    cid: BenchmarkId, obs: Sequence[ObsView], name_key: str
) -> list[tuple[ObsView, Match]]:
    ids = [(o, _obs_id(o, name_key)) for o in obs]
    out = []
    for o, oid in ids:
        versions = tuple(
            x.version
            for _, x in ids
            if x.family == oid.family and x.variant == oid.variant and x.version
        )
        out.append((o, match(cid, oid, versions)))
    return out


def _where(o: ObsView) -> str:
    q = o.qualifiers
    bits = [str(q.get("benchmark") or q.get("leaderboard"))]
    if q.get("version"):
        bits.append(str(q["version"]))
    who = f", agent {q['agent']}" if q.get("agent") else ""
    return f"{' '.join(bits)}{who} (observation #{o.id})"  # the verdict's as_of is its date


def judge_score(claim: ClaimView, observations: Sequence[ObsView]) -> ScoreDecision | None:
    """``benchmark_score`` claim vs the subject's score observations; None when no
    observation names the claim's benchmark family (the caller's default applies)."""
    cid = _claim_id(claim, "benchmark")
    if cid is None:
        return None
    own = _board_observations(claim, observations, "benchmark_score", "benchmark")
    found = [(o, m) for o, m in _matches(cid, own, "benchmark") if m.status != "different"]
    if not found:
        return None
    same = [(o, m) for o, m in found if m.status == "same"]
    if not same:  # ambiguous: the candidates whose value agrees are possible matches
        agreeing = [
            (o, m)
            for o, m in found
            if values_conflict(claim.attribute, claim.value, o.value)[0] is None
        ]
        shown, label = (agreeing, "possible match") if agreeing else (found, "candidates")
        cands = "; ".join(f"{format_value(o.value)} on {_where(o)}" for o, _ in shown)
        return ScoreDecision(
            "unverified",
            f"ambiguous: {found[0][1].why}; {label}: {cands}",
            tuple(o.id for o, _ in shown),
        )
    agree = [
        (o, m) for o, m in same if values_conflict(claim.attribute, claim.value, o.value)[0] is None
    ]
    if agree:
        o, m = agree[0]
        note = f"; {m.why}" if m.why else ""
        return ScoreDecision(
            "confirmed",
            f"{format_value(o.value)} on {_where(o)} is within the claim's "
            f"{format_value(claim.value)}{note}",
            tuple(x.id for x, _ in agree),
        )
    o, m = same[0]
    note = f"; {m.why}" if m.why else ""
    return ScoreDecision(
        "contradicted",
        f"the board holds {format_value(o.value)} on {_where(o)}, not "
        f"{format_value(claim.value)}{note}",
        tuple(x.id for x, _ in same),
    )


def observed_span(o: ObsView) -> RankSpan:
    """The rank span a ``leaderboard_rank`` observation holds (value low/high = best/worst;
    ``extra`` rule and size)."""
    v = o.value
    best = int(v.low if v.low is not None else v.value)  # type: ignore[arg-type]
    worst = int(v.high if v.high is not None else best)
    return RankSpan(best, worst, str(v.extra.get("rule", "score")), int(v.extra.get("size", 0)))


def judge_rank(claim: ClaimView, observations: Sequence[ObsView]) -> ScoreDecision | None:
    """``leaderboard_rank`` claim of rank N vs the board's rank spans: confirmed when N
    is in the span (a tie including N), contradicted otherwise; None when no observation
    is of the claim's leaderboard."""
    cid = _claim_id(claim, "leaderboard")
    if cid is None or not isinstance(claim.value.value, Decimal):
        return None
    own = _board_observations(claim, observations, "leaderboard_rank", "leaderboard")
    found = [(o, m) for o, m in _matches(cid, own, "leaderboard") if m.status == "same"]
    if not found:
        return None
    o, _ = max(found, key=lambda x: (x[0].last_seen, x[0].id))
    n = int(claim.value.value)
    span = observed_span(o)
    score = o.value.extra.get("score")
    at = f" with {score}" if score is not None else ""
    where = _where(o)
    if span.best <= n <= span.worst:
        tie = "" if span.best == span.worst else f"; the tie includes rank {n}"
        return ScoreDecision("confirmed", f"{span_phrase(span)}{at} on {where}{tie}", (o.id,))
    return ScoreDecision(
        "contradicted",
        f"{span_phrase(span)}{at} on {where}, not rank {n}",
        (o.id,),
    )
