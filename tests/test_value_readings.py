"""Token counts stated with K/M read both ways (claims/values/value.py ``Value.readings``):
"128K" is 128,000 or 131,072 (2^17), and every comparer (claim vs observation, claim vs
claim, one fact many sources) agrees because they all go through the value's readings."""

from __future__ import annotations

import datetime as dt

from helpers_verify import cv, ov, ts

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef
from claims.values.stated import parse_stated
from claims.values.value import binary_note, intervals_overlap, quantity
from claims.verify.compare import compare_claims, find_conflicts, group_facts, same_fact
from claims.verify.judge import judge_claim

CIRRUS = SubjectRef("kimi-k3.1-pro", ("Cirrus 12B",), (), "Nimbus Labs")
DAY = dt.date(2026, 11, 30)


def ctx(text: str):
    return parse_stated(text, "context_window")


def exact(n: int):
    return quantity(str(n), "tokens", exact=True)


def test_128k_meets_its_decimal_and_binary_readings_only():
    k128 = ctx("128K")
    assert intervals_overlap(k128, exact(131_072))
    assert intervals_overlap(k128, exact(128_000))
    # 130,000 is neither 128K ±0.5K nor 131,072 ±512: the stated precision does not
    # stretch to it, so a config saying 130,000 still contradicts "128K".
    assert not intervals_overlap(k128, exact(130_000))
    assert not intervals_overlap(k128, exact(132_000))
    assert binary_note(k128) == "128K read as 131,072 (2^17)"


def test_256k_and_1m_binary_readings():
    assert intervals_overlap(ctx("256K"), exact(262_144))
    assert not intervals_overlap(ctx("256K"), exact(264_000))
    assert intervals_overlap(ctx("1M"), exact(1_048_576))
    assert binary_note(ctx("1M")) == "1M read as 1,048,576 (2^20)"
    assert binary_note(ctx("1.5M")) == "1.5M read as 1,572,864 (1.5 × 2^20)"
    assert intervals_overlap(ctx("1.5M"), exact(1_572_864))
    assert not intervals_overlap(ctx("1.0M"), exact(1_120_000))  # 1.0M: 950K–1.05M or 996K–1.1M


def test_exact_and_whole_figures_and_other_units_have_one_reading():
    assert not intervals_overlap(parse_stated("128K", "context_window", exact=True), exact(131_072))
    assert not intervals_overlap(ctx("128000"), exact(131_072))
    assert len(ctx("131072").readings()) == 1
    assert len(ctx("~128K").readings()) == 1  # "about": its 10 % already spans both
    params = quantity("128", "params", scale=10**3)
    assert not intervals_overlap(params, quantity("131072", "params", exact=True))


def extracted(text: str, lang: str):
    [c] = [
        c
        for c in extract(text, [CIRRUS], lang=lang, published=DAY)
        if c.attribute == "context_window"
    ]
    return c.value


def test_portuguese_128_mil_tokens_reads_both_ways():
    v = extracted("O Cirrus 12B tem janela de contexto de 128 mil tokens.", "pt")
    assert v.value == 128_000
    assert intervals_overlap(v, exact(131_072))
    assert binary_note(v) == "128K read as 131,072 (2^17)"


def test_article_claim_confirmed_by_config_131072():
    v = extracted("Nimbus Labs announced Cirrus 12B with a 128K-token context window.", "en")
    claim = cv(1, "context_window", v, claimant="Nimbus Labs")
    obs = ov(7, "context_window", exact(131_072))
    d = judge_claim(claim, [obs], last_check=None, disputes=[], now=ts("2026-11-30T12:00Z"))
    assert d.status == "confirmed"
    assert d.reason == (
        "observed 128K (131,072) tokens (observation #7) is within the claim's 128K tokens "
        "(127.5K–128.5K tokens, or 131,072 ±512 read in binary); 128K read as 131,072 (2^17)"
    )


def test_contradicted_reason_names_both_readings():
    claim = cv(1, "context_window", ctx("128K"))
    d = judge_claim(
        claim, [ov(7, "context_window", exact(130_000))], last_check=None, disputes=[],
        now=ts("2026-11-30T12:00Z"),
    )  # fmt: skip
    assert d.status == "contradicted"
    assert "(127.5K–128.5K tokens, or 131,072 ±512 read in binary)" in d.reason


def test_claim_vs_claim_128k_and_131072_is_one_fact_not_a_discrepancy():
    a = cv(1, "context_window", ctx("128K"), source=1)
    b = cv(2, "context_window", ctx("131072"), source=2, claimant="Hub card")
    assert compare_claims(a, b).rule is None
    assert find_conflicts([a, b]) == []
    assert same_fact("context_window", {}, a.value, {}, b.value)
    assert same_fact("context_window", {}, b.value, {}, a.value)
    groups = group_facts("context_window", [a, b], lambda c: (c.qualifiers, c.value))
    assert [[c.id for c in g] for g in groups] == [[1, 2]]
