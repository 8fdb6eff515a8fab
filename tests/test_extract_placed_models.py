"""Another model known by where it stands (claims/extract/placed_models.py), a sentence set
against the subject by a comparison cue (claims/extract/untracked.py), and the warning of a
figure whose model name is no tracked subject. Articles written for these tests about a
made-up "Halcyon 9" of "Vireo Labs"; each asserts the exact candidates of the sentence."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.extractor import extract
from claims.extract.placed_models import find_placed_models
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 20)
HALCYON = SubjectRef("halcyon-9", ("Halcyon 9",), (), "Vireo Labs")
LEAD_EN = (
    "Vireo Labs launches Halcyon 9\n\n"
    "Vireo Labs on Tuesday announced Halcyon 9 with a 256K context window. "
    "Halcyon 9 scores 78.4% on SWE-bench Verified.\n\n"
)
LEAD_PT = (
    "Vireo Labs lança o Halcyon 9\n\n"
    "A Vireo Labs anunciou na terça-feira o Halcyon 9, com janela de contexto de 256 mil "
    "tokens. O Halcyon 9 obtém 78,4% no SWE-bench Verified.\n\n"
)


def rows(lead: str, sentence: str, lang: str, subjects=(HALCYON,), default="halcyon-9"):
    """(subject, attribute, value, other model, warnings) of the candidates in ``sentence``
    (after ``lead``), extracted with ``--subject halcyon-9``."""
    text = lead + sentence + "\n"
    got = extract(text, list(subjects), lang=lang, published=DAY, default_subject=default)
    return [
        (c.subject, c.attribute, c.value.display(), c.other_model, c.warnings)
        for c in got
        if c.start >= len(lead)
    ]


def other(name: str, attribute: str, value: str):
    return (None, attribute, value, name, [f"another model's figure: {name}"])


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        (
            "By comparison, Zephyr-Max from rival Northwind AI scores 81.2% on SWE-bench Verified "
            "and offers a 1M-token context window.",
            "Zephyr-Max",
        ),
        (
            "By comparison, Zephyr Max 2 from rival Northwind AI scores 81.2% on SWE-bench "
            "Verified and offers a 1M-token context window.",
            "Zephyr Max 2",
        ),
        (
            "By comparison, Northwind Zephyr 3 from rival Northwind AI scores 81.2% on SWE-bench "
            "Verified and offers a 1M-token context window.",
            "Northwind Zephyr 3",
        ),
        (
            "In comparison, Northwind AI's rival Zephyr-Max scores 81.2% on SWE-bench Verified "
            "and offers a 1M-token context window.",
            "Zephyr-Max",
        ),
        (
            "Zephyr-Max from Northwind AI scores 81.2% on SWE-bench Verified and offers a "
            "1M-token context window.",
            "Zephyr-Max",
        ),
    ],
)
def test_a_rivals_model_keeps_its_figures_in_english(sentence, name):
    assert rows(LEAD_EN, sentence, "en") == [
        other(name, "benchmark_score", "81.2%"),
        other(name, "context_window", "1M tokens"),
    ]


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        (
            "Já o rival Zephyr-Max, da Northwind AI, obtém 81,2% no SWE-bench Verified e "
            "oferece janela de contexto de 1 milhão de tokens.",
            "Zephyr-Max",
        ),
        (
            "Em comparação, o Zephyr Max 2, da rival Northwind AI, obtém 81,2% no SWE-bench "
            "Verified e oferece janela de contexto de 1 milhão de tokens.",
            "Zephyr Max 2",
        ),
    ],
)
def test_a_rivals_model_keeps_its_figures_in_portuguese(sentence, name):
    assert rows(LEAD_PT, sentence, "pt-BR") == [
        other(name, "benchmark_score", "81.2%"),
        other(name, "context_window", "1M tokens"),
    ]


def test_a_model_shaped_name_where_a_model_stands_is_another_model():
    assert rows(LEAD_EN, "Zephyr Max 2 costs $3 per million input tokens.", "en") == [
        other("Zephyr Max 2", "price_input_usd_per_mtok", "$3.00 per 1M tokens")
    ]


def test_a_known_labs_model_is_another_model():
    # Northwind AI is the lab of a tracked subject: its "Zephyr 3" is not Halcyon 9
    kestrel = SubjectRef("kestrel-2", ("Kestrel 2",), (), "Northwind AI")
    got = rows(
        LEAD_EN,
        "Northwind AI's Zephyr 3 scores 81.2% on SWE-bench Verified.",
        "en",
        subjects=(HALCYON, kestrel),
    )
    assert got == [other("Zephyr 3", "benchmark_score", "81.2%")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Halcyon 9 scores 79.1% on SWE-bench Verified, ahead of Zephyr-Max's 81.2%.",
        "Halcyon 9 scores 79.1% on SWE-bench Verified, while Zephyr-Max scores 81.2%.",
    ],
)
def test_the_subjects_own_sentence_keeps_its_figure(sentence):
    got = rows(LEAD_EN, sentence, "en")
    assert [(s, v, o) for s, _, v, o, _ in got] == [
        ("halcyon-9", "79.1%", None),
        (None, "81.2%", "Zephyr-Max"),
    ]


@pytest.mark.parametrize(
    ("lead", "sentence", "lang", "cue", "name"),
    [
        (
            LEAD_EN,
            "By comparison, Aurora charges $5 per million input tokens.",
            "en",
            "By comparison",
            "Aurora",
        ),
        (
            LEAD_PT,
            "Em comparação, o Zephyr cobra US$ 5 por milhão de tokens de entrada.",
            "pt-BR",
            "Em comparação",
            "Zephyr",
        ),
    ],
)
def test_a_comparison_about_an_unknown_name_leaves_its_figure_unattributed(
    lead, sentence, lang, cue, name
):
    got = rows(lead, sentence, lang)
    assert [(s, o, w) for s, _, _, o, w in got] == [
        (None, None, [f"after '{cue}': names '{name}', which is not a tracked subject"])
    ]


def test_a_comparison_about_the_subject_or_its_lab_keeps_the_subject():
    got = rows(LEAD_EN, "By comparison, Halcyon 9 offers a 1M-token context window.", "en")
    assert [(s, v) for s, _, v, _, _ in got] == [("halcyon-9", "1M tokens")]
    got = rows(LEAD_EN, "In comparison, Vireo Labs charges $5 per million input tokens.", "en")
    assert [(s, v) for s, _, v, _, _ in got] == [("halcyon-9", "$5.00 per 1M tokens")]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("By comparison, SWE-bench Verified results for the model reach 80.1%.", "80.1%"),
        ("In comparison, March 2026 saw a 128K-token context window.", "128K tokens"),
    ],
)
def test_a_comparison_opening_with_a_benchmark_or_a_date_names_no_other_thing(sentence, value):
    assert [(s, v) for s, _, v, _, _ in rows(LEAD_EN, sentence, "en")] == [("halcyon-9", value)]


def test_an_untracked_name_is_named_in_the_warning():
    # Halcyon 9 not yet tracked: the warning names it instead of "no model named"
    got = rows(LEAD_EN, "Halcyon 9 has 405 billion parameters.", "en", subjects=(), default=None)
    assert got == [
        (
            None,
            "total_params",
            "405B params",
            None,
            ["names 'Halcyon 9', which is not a tracked subject"],
        )
    ]
    got = rows(LEAD_EN, "The model has 405 billion parameters.", "en", subjects=(), default=None)
    assert [w for *_, w in got] == [["names 'Halcyon 9', which is not a tracked subject"]]


def test_no_name_at_all_still_says_no_model_named():
    text = "Pricing notes\n\nThe model has 405 billion parameters.\n"
    got = extract(text, [HALCYON], lang="en", published=DAY)
    assert [c.warnings for c in got] == [["no model named in this sentence"]]


@pytest.mark.parametrize(
    "text",
    [
        "Pricing from Vireo Labs is $1.20 per million input tokens.",
        "Vireo Labs on Tuesday announced it in March 2027 under Apache 2.0.",
        "The Vireo API is cheap. Mixture-of-Experts models from Northwind are not.",
        "Ademais, o acesso através da API da Vireo Labs tem um custo menor.",
        "Halcyon 9: Vireo Labs' Open-Source Trillion-Parameter Beast Redefining Agents",
        "Halcyon 9 + Aurora: First Frontier-Class Multimodal from Vireo",
        "em linha com o AI Index Report 2025 da Universidade de Stanford",
        "Halcyon, released on April 24 2026, offers two sizes.",
        "Their main competitor Northwind AI, characterizing it as late.",
        "Mistral Large 3 is the newest model of Mistral AI.",
    ],
)
def test_no_placed_model_in_ordinary_sentences(text):
    assert find_placed_models(text, ["Vireo Labs", "Mistral AI"]) == []


@pytest.mark.parametrize(
    ("sentence", "lang", "name", "value"),
    [
        (
            "Zephyr-Max from Northwind AI, by comparison, charges $3 per million input tokens.",
            "en",
            "Zephyr-Max",
            "$3.00 per 1M tokens",
        ),
        (
            "Zephyr-Max from Northwind AI, meanwhile, scored 81.2% on SWE-bench Verified.",
            "en",
            "Zephyr-Max",
            "81.2%",
        ),
        (
            "Zephyr-Max, for its part, scored 81.2% on SWE-bench Verified.",
            "en",
            "Zephyr-Max",
            "81.2%",
        ),
        (
            "Rival Zephyr-Max from Northwind AI, in contrast, charges $3 per million input tokens.",
            "en",
            "Zephyr-Max",
            "$3.00 per 1M tokens",
        ),
        (
            "O rival Zephyr-Max, por sua vez, obtém 81,2% no SWE-bench Verified.",
            "pt-BR",
            "Zephyr-Max",
            "81.2%",
        ),
    ],
)
@pytest.mark.parametrize("default", ["halcyon-9", None])
def test_a_sentence_opening_with_a_rival_and_an_aside_is_about_the_rival(
    sentence, lang, name, value, default
):
    # the aside between commas ("by comparison", "por sua vez") ends no clause: the
    # rival named before it keeps the figure, with or without --subject
    lead = LEAD_PT if lang == "pt-BR" else LEAD_EN
    got = rows(lead, sentence, lang, default=default)
    assert [(s, v, o, w) for s, _, v, o, w in got] == [
        (None, value, name, [f"another model's figure: {name}"])
    ]


def test_a_leading_rival_noun_is_no_part_of_the_name():
    text = "Rival Zephyr-Max from Northwind AI charges $3 per million input tokens."
    assert [n.name for n in find_placed_models(text, ["Vireo Labs"])] == ["Zephyr-Max"]
    assert rows(LEAD_EN, text, "en") == [
        other("Zephyr-Max", "price_input_usd_per_mtok", "$3.00 per 1M tokens")
    ]


@pytest.mark.parametrize(
    ("sentence", "cue", "name"),
    [
        ("Zephyr, by comparison, charges $3 per million input tokens.", "by comparison", "Zephyr"),
        (
            "Northwind Zephyr, in contrast, charges $3 per million input tokens.",
            "in contrast",
            "Northwind Zephyr",
        ),
    ],
)
def test_a_name_before_an_aside_that_is_no_model_shape_is_named_in_the_warning(sentence, cue, name):
    got = rows(LEAD_EN, sentence, "en", default=None)
    assert [(s, o, w) for s, _, _, o, w in got] == [
        (None, None, [f"after '{cue}': names '{name}', which is not a tracked subject"])
    ]


def test_an_aside_after_the_subject_or_its_lab_keeps_the_subject():
    got = rows(LEAD_EN, "Halcyon 9, by comparison, offers a 1M-token context window.", "en")
    assert [(s, v) for s, _, v, _, _ in got] == [("halcyon-9", "1M tokens")]
    got = rows(LEAD_EN, "Vireo Labs, for its part, charges $5 per million input tokens.", "en")
    assert [(s, v) for s, _, v, _, _ in got] == [("halcyon-9", "$5.00 per 1M tokens")]


def test_a_person_before_an_aside_names_no_other_model():
    got = rows(LEAD_EN, "Nguyen, however, said the model scores 80.1% on MMLU.", "en")
    assert [(s, v, o) for s, _, v, o, _ in got] == [("halcyon-9", "80.1%", None)]
