"""Benchmark identity (cases/C33): family + variant + version (+ agent); a claim without
them is ambiguous, never confirmed or contradicted by the wrong board
(claims.verify.benchmarks, claims.verify.scores.judge_score)."""

from __future__ import annotations

import datetime as dt

from claims.values.value import quantity
from claims.verify.benchmarks import BenchmarkId, benchmark_id
from claims.verify.facts import ClaimView, ObsView
from claims.verify.scores import judge_score

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def test_names_parse_word_for_word():
    assert benchmark_id("Terminal-Bench 4.0") == BenchmarkId("terminal-bench", None, "4.0")
    assert benchmark_id("SWE-bench Verified") == BenchmarkId("swe-bench", "verified")
    assert benchmark_id("SWE-bench Live").variant == "live"  # never read as "lite"
    assert benchmark_id("Artificial Analysis Intelligence Index", "4.1") == BenchmarkId(
        "aa-intelligence-index", None, "4.1"
    )
    assert benchmark_id("Cyber Index").family == "cyber index"  # unknown: kept as written


def _claim(i: int, name: str, value: str, unit: str = "percent", **q: str) -> ClaimView:
    return ClaimView(
        id=i, key=f"k{i}", subject_id=1, subject="orca", attribute="benchmark_score",
        value=quantity(value, unit), qualifiers={"benchmark": name, **q},
    )  # fmt: skip


def _obs(i: int, name: str, value: str, unit: str = "percent", **q: str) -> ObsView:
    return ObsView(
        id=i, subject_id=1, attribute="benchmark_score",
        value=quantity(value, unit, exact=True), first_seen=AT, last_seen=AT,
        qualifiers={"benchmark": name, **q},
    )  # fmt: skip


# C33's observations: SWE-bench Verified 65.2 %, Lite 47.0 %, Terminal-Bench 2.1 70.1.
C33 = [
    _obs(10, "SWE-bench Verified", "65.2"),
    _obs(11, "SWE-bench Lite", "47.0"),
    _obs(12, "Terminal-Bench", "70.1", "points", version="2.1"),
]


def test_c33_claim_without_variant_is_ambiguous_with_lite_a_possible_match():
    d = judge_score(_claim(1, "SWE-bench", "47.0"), C33)
    assert d is not None and d.status == "unverified"
    assert d.reason.startswith("ambiguous: the claim names no variant of swe-bench")
    assert "; possible match: 47% on SWE-bench Lite (observation #11" in d.reason
    assert d.evidence == (11,)  # a possible match, not a verdict: never contradicted by Verified


def test_c33_verified_claim_is_confirmed():
    d = judge_score(_claim(2, "SWE-bench Verified", "65.2"), C33)
    assert d is not None and (d.status, d.evidence) == ("confirmed", (10,))


def test_c33_terminal_bench_2_is_version_ambiguous_against_2_1():
    d = judge_score(_claim(3, "Terminal-Bench 2", "73", "points"), C33)
    assert d is not None and d.status == "unverified"
    assert d.reason.startswith(
        "ambiguous: version 2 could be 2.0 or 2.1; the board holds 2.1; candidates: 70.1 points"
    )


def test_c33_live_is_never_matched_to_lite():
    assert judge_score(_claim(4, "SWE-bench Live", "38"), C33) is None  # unverifiable


def test_index_claim_without_version_reads_the_one_version_the_board_publishes():
    obs = [_obs(20, "Artificial Analysis Intelligence Index", "55", "points", version="4.1")]
    d = judge_score(_claim(5, "Artificial Analysis Intelligence Index", "55", "points"), obs)
    assert d is not None and d.status == "confirmed"
    assert d.reason.endswith("version 4.1, the one the board publishes (the claim names none)")


def test_terminal_bench_score_under_another_version_is_no_evidence():
    obs = [_obs(30, "Terminal-Bench", "65.7", version="3.0", agent="kimi-cli")]
    assert judge_score(_claim(6, "Terminal-Bench", "65.7", version="4.0"), obs) is None
    d = judge_score(_claim(7, "Terminal-Bench", "65.7", version="3.0"), obs)
    assert d is not None and d.status == "confirmed"
    assert d.reason.startswith("65.7% on Terminal-Bench 3.0, agent kimi-cli (observation #30")
