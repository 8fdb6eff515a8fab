"""Cached and batch rates, tier discounts, "para o" owners, spaced compound sizes,
bracketed benchmark versions and listed benchmark names, in sentences written for these
tests (the kinds of errors of held-out set G). Each asserts the exact candidates."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract import rules as R
from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 12, 1)
NIMBUS = SubjectRef("nimbus-3", ("Nimbus 3",), (), "Cirrus Labs")


def rows(text: str, lang: str = "en"):
    return [
        (c.attribute, c.subject, c.qualifiers, c.value.display(), c.other_model)
        for c in extract(text, [NIMBUS], lang=lang, published=DAY)
    ]


def attrs(text: str, lang: str = "en"):
    return [(c.attribute, c.text) for c in extract(text, [NIMBUS], lang=lang, published=DAY)]


@pytest.mark.parametrize(
    ("before", "after", "cached"),
    [
        ("Nimbus 3 costs ", " per 1 million cached input tokens", True),
        ("Nimbus 3 costs ", " per million input tokens, and cached reads are cheaper", False),
        ("- Batch output tokens: ", " per 1M tokens", True),
        ("Tokens de entrada em lote: ", " por milhão", True),
        ("Input: ", " per 1M tokens", False),
    ],
)
def test_a_cached_or_batch_word_before_a_price_or_in_its_unit_phrase(before, after, cached):
    assert R.is_cached_price(before, after) is cached


def test_cached_and_batch_rates_are_no_prices_and_their_discount_no_price_change():
    text = (
        "Nimbus 3 pricing:\n"
        "- Input tokens: $2.00 per 1M tokens\n"
        "- Batch input tokens: $1.00 per 1M tokens (50% off, asynchronous)\n"
        "Nimbus 3 also charges $0.20 per 1 million cached input tokens."
    )
    assert attrs(text) == [("price_input_usd_per_mtok", "$2.00 per 1M")]


def test_a_price_cut_without_a_tier_word_is_still_a_change():
    assert attrs("Cirrus Labs cut the price of Nimbus 3 by 50% this week.") == [
        ("price_change_pct", "50%")
    ]


def test_a_figure_para_another_model_is_that_models():
    # "para" is Portuguese "for": the figure before "para o Stratus-2" is Stratus-2's
    text = "No teste MATH, o Nimbus 3 obteve 91,2% de acerto, versus 70,4% para o Stratus-2."
    assert [(a, s, o) for a, s, _, _, o in rows(text, "pt")] == [
        ("benchmark_score", "nimbus-3", None),
        ("benchmark_score", None, "Stratus-2"),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Nimbus 3, a 300-billion-parameter mixture-of-experts model that activates only 20B "
        "parameters per token, is out.",
        "Nimbus 3 is a 300 billion parameter sparse model that activates only 20B parameters "
        "per token.",
    ],
)
def test_a_compound_size_adjective_is_the_total_whatever_the_later_active_cue(sentence):
    got = [(a, v) for a, _, _, v, _ in rows(sentence)]
    assert got[0][0] == "total_params" and got[0][1].startswith("300")
    assert got[1][0] == "active_params" and got[1][1].startswith("20")


def test_a_version_in_brackets_after_a_benchmark_name_is_its_version():
    names = [(n.name, n.version) for n in R.find_benchmarks("LiveCodeBench (v5): 71.5%")]
    assert names == [("LiveCodeBench", "v5")]
    assert [(n.name, n.version) for n in R.find_benchmarks("AIME (2025): 88%")] == [
        ("AIME", "2025")
    ]


def test_each_score_of_a_list_takes_the_benchmark_named_right_after_it():
    text = "Nimbus 3 scored 61.0% on SWE-bench Verified, 40.5% on MultiChallenge, and 70.1% on Video-MME."
    assert [(q.get("benchmark"), v) for _, _, q, v, _ in rows(text)] == [
        ("SWE-bench Verified", "61.0%"),
        ("MultiChallenge", "40.5%"),
        ("Video-MME", "70.1%"),
    ]


@pytest.mark.parametrize(
    ("before", "launch"),
    [
        ("Cirrus Labs introduced the Nimbus 3 family on ", True),
        ("A Cirrus apresentou a família Nimbus 3 em ", True),
        ("Cirrus Labs introduced the Nimbus 3 series of models on ", True),
        ("Cirrus Labs introduced Nimbus 2, a 24B model, on ", False),
        ("The Nimbus family grew on ", False),
    ],
)
def test_a_family_launch_before_a_date(before, launch):
    assert R.launches_family(before) is launch


def test_a_family_launch_date_is_its_members_release_date():
    text = (
        "Nimbus 3 is a model for coding. Cirrus Labs introduced the Nimbus 3 family on "
        "April 14, 2026, with Nimbus 3, Nimbus 3 mini, and Nimbus 3 nano."
    )
    got = [
        (c.attribute, c.subject, c.value.display()) for c in extract(text, [NIMBUS], published=DAY)
    ]
    assert got == [("release_date", "nimbus-3", "on 2026-04-14")]
