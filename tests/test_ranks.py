"""Ranks with ties (claims.verify.ranks, claims.verify.scores.judge_rank): a claim of rank
N is confirmed by a tie that includes N."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from claims.readings.boards import Entry
from claims.values.value import Value, quantity, with_extra
from claims.verify.facts import ClaimView, ObsView
from claims.verify.ranks import RankSpan, rank_holds, rank_spans, span_phrase
from claims.verify.scores import judge_rank

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def test_intervals_rank_like_lmarena_ties_are_ties():
    board = {
        "a": Entry("a", D(1500), D(1490), D(1510)),
        "b": Entry("b", D(1480), D(1472), D(1488)),  # below a's interval: a is better
        "c": Entry("c", D(1476), D(1469), D(1483)),  # overlaps b
        "d": Entry("d", D(1440), D(1430), D(1450)),
    }
    spans = rank_spans(board)
    assert spans["a"] == RankSpan(1, 1, "interval", 4)
    assert spans["b"] == RankSpan(2, 3, "interval", 4)
    assert spans["c"] == RankSpan(2, 3, "interval", 4)
    assert spans["d"] == RankSpan(4, 4, "interval", 4)
    assert rank_holds(3, spans["b"]) and rank_holds(2, spans["c"])
    assert not rank_holds(4, spans["b"])
    assert span_phrase(spans["b"]) == "ranks 2–3 of 4 (tied within the 95 % intervals)"


def test_scores_without_intervals_tie_only_when_equal():
    board = {k: Entry(k, D(s)) for k, s in {"x": 58, "y": 56, "z": 56, "w": 55}.items()}
    spans = rank_spans(board)
    assert (spans["x"].best, spans["x"].worst) == (1, 1)
    assert (spans["y"].best, spans["y"].worst) == (2, 3) == (spans["z"].best, spans["z"].worst)
    assert spans["w"] == RankSpan(4, 4, "score", 4)
    assert span_phrase(spans["w"]) == "rank 4 of 4"


def test_a_missing_interval_end_ranks_the_board_by_score():
    board = {"a": Entry("a", D(10), D(9), D(11)), "b": Entry("b", D(10), None, None)}
    assert {s.rule for s in rank_spans(board).values()} == {"score"}


def _claim(n: str, board: str = "Code Arena WebDev") -> ClaimView:
    return ClaimView(
        id=1, key="k", subject_id=1, subject="kimi-k3.1-pro", attribute="leaderboard_rank",
        value=quantity(n, "rank"), qualifiers={"leaderboard": board},
        claimant="Code Arena", source="Opinion",
    )  # fmt: skip


def _obs(best: int, worst: int, board: str = "Code Arena WebDev") -> ObsView:
    v = Value(kind="range", unit="rank", low=D(best), high=D(worst))
    v = with_extra(v, score="1692.4", rule="interval", size=20)
    return ObsView(
        id=7, subject_id=1, attribute="leaderboard_rank", value=v, first_seen=AT,
        last_seen=AT, qualifiers={"leaderboard": board},
    )  # fmt: skip


def test_rank_claim_confirmed_by_a_tie_including_it():
    d = judge_rank(_claim("8"), [_obs(7, 10)])
    assert d is not None and d.status == "confirmed" and d.evidence == (7,)
    assert d.reason == (
        "ranks 7–10 of 20 (tied within the 95 % intervals) with 1692.4 on Code Arena WebDev "
        "(observation #7); the tie includes rank 8"
    )


def test_rank_claim_outside_the_tie_is_contradicted():
    d = judge_rank(_claim("4"), [_obs(7, 10)])
    assert d is not None and d.status == "contradicted"
    assert d.reason.endswith("not rank 4")


def test_rank_on_another_board_is_not_evidence():
    assert judge_rank(_claim("8"), [_obs(7, 10, board="lmarena-text")]) is None
