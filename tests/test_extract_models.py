"""Model names the subjects file does not know (claims.extract.models), and what they do
to attribution: a figure next to another model is that model's, never the subject's."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.extractor import extract
from claims.extract.models import find_models, find_tier_members
from claims.subjects.references import SubjectRef

NOVA = SubjectRef("nova-2", ("Nova 2",))
DAY = dt.date(2026, 3, 1)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (
            "Zephyr-7B-Instruct and Quill2.5-72B beat o1-preview and GLM-5 while Mistral "
            "Large 2 and Claude 3.5 Sonnet lag; V3.1-Exp costs less.",
            ["Zephyr-7B-Instruct", "Quill2.5-72B", "o1-preview", "GLM-5", "Mistral Large 2",
             "Claude 3.5 Sonnet", "V3.1-Exp"],
        ),
        (
            "o gpt-oss-120b e o o4-mini; DeepSeek V2.5 e Kimi K2-0905; Gemini 1.5 Pro.",
            ["gpt-oss-120b", "o4-mini", "DeepSeek V2.5", "Kimi K2-0905", "Gemini 1.5 Pro"],
        ),
        # API ids of known families, in lower case; a plain lowercase word glued to
        # digits is still no model
        (
            "Call grok-9 or qwen7-max, not covid-19, mp3 or top-5.",
            ["grok-9", "qwen7-max"],
        ),
        # a family word of lexicon/model_words.txt and a whole version ("Devstral 9:")
        ("- Devstral 9: $0.40 input / $2.00 output", ["Devstral 9"]),
        # Not models: licences, precisions, hardware, dates, prices, glued years, URLs.
        (
            "Released2024-07-18 under Apache 2.0 with FP8 on H100 GPUs for US$ 5, see "
            "example.org/nova-2-launch, July 23, 2024, Table 2.1.",
            [],
        ),
    ],
)  # fmt: skip
def test_model_names(text, names):
    assert [n.name for n in find_models(text)] == names


def _rows(text):
    return [
        (c.subject, c.attribute, str(c.value.value), c.how)
        for c in extract(text, [NOVA], lang="en", published=DAY, default_subject="nova-2")
    ]


def test_a_sentence_about_another_model_gives_it_its_figures():
    text = (
        "Nova 2 has 1.2T parameters. Meanwhile, Zephyr-9 shipped on February 11, 2026 as a "
        "745B-parameter (44B active) model scoring 77.8% on SWE-bench Verified, surpassing Nova 2."
    )
    assert [r for r in _rows(text) if r[0] == "nova-2"] == [
        ("nova-2", "total_params", "1200000000000", "clause")
    ]


def test_brackets_possessives_and_relative_clauses_name_the_owner():
    text = (
        "Nova 2 scored 88.3% on MMLU, beating Zephyr-7 (~82%). It scored 65.8% on "
        "SWE-bench, above the 54.6% of Zephyr-7 and below Orca-3, which reached 70.1%."
    )
    assert [r[:3] for r in _rows(text) if r[0] == "nova-2"] == [
        ("nova-2", "benchmark_score", "88.3"),
        ("nova-2", "benchmark_score", "65.8"),
    ]


def test_a_subject_name_without_its_size_is_the_subject():
    nova = SubjectRef("nova-2-70b", ("Nova 2 70B",))
    text = "- 128K context window, Nova 2 Community License, weights on the hub"
    got = extract(text, [nova], lang="en", published=DAY, default_subject="nova-2-70b")
    # the licence named after the model ("Nova 2 Community License") is read whole
    assert [(c.subject, c.attribute, c.value.value) for c in got] == [
        ("nova-2-70b", "context_window", 128000),
        ("nova-2-70b", "license", "nova-2-community-license"),
    ]


def test_non_breaking_hyphens_are_hyphens():
    text = "Nova\u20112 scored 71.5% on GPQA Diamond and 49.2% on SWE\u2011bench Verified."
    nova = SubjectRef("nova-2", ("Nova-2",))
    got = extract(text, [nova], lang="en", published=DAY)
    assert [(c.subject, c.qualifiers["benchmark"]) for c in got] == [
        ("nova-2", "GPQA Diamond"),
        ("nova-2", "SWE-bench Verified"),
    ]
    assert got[1].text == "49.2%" and text[got[1].start : got[1].end] == "49.2%"


def test_figures_in_a_bracket_after_a_name_and_in_a_generic_model_phrase():
    orbit = SubjectRef("orbit-1", ("Orbit 1",))
    text = (
        "Vega released two models: Nova 2 (17B active params, 109B total) and Orbit 1 "
        "(17B active, 400B total). Nova 2 runs at the cost of a 17B model."
    )
    got = extract(text, [NOVA, orbit], lang="en", published=DAY)
    assert [(c.subject, c.attribute, str(c.value.value), c.how) for c in got] == [
        ("nova-2", "active_params", "17000000000", "bracket"),
        ("nova-2", "total_params", "109000000000", "bracket"),
        ("orbit-1", "active_params", "17000000000", "bracket"),
        ("orbit-1", "total_params", "400000000000", "bracket"),
        (None, "total_params", "17000000000", "generic"),
    ]


def test_a_model_with_n_parameters_is_that_model():
    got = extract("Nova 2 is a model with 1.2T parameters.", [NOVA], lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.how) for c in got] == [
        ("nova-2", "total_params", "apposition")
    ]


def test_a_weekday_is_no_claimant():
    q = SubjectRef("nova-2", ("Nova 2",), (), "Vega")
    text = "The Nova team on Tuesday announced Nova 2, with 1.2T parameters."
    got = extract(text, [q], lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.claimant) for c in got] == [("nova-2", "total_params", None)]


def test_a_predecessor_and_figures_for_another_model_are_not_the_subjects():
    text = (
        "Nova 2 scores 84.1% on MMLU-Pro, compared with 81.0% for Zephyr-9. Its predecessor, "
        "Nova 1, had 400B parameters and scored 70.2% on GPQA Diamond; Nova 2 now scores 78.9%."
    )
    assert [r for r in _rows(text) if r[0] == "nova-2"] == [
        ("nova-2", "benchmark_score", "84.1", "clause"),
        ("nova-2", "benchmark_score", "78.9", "clause"),
    ]


def test_pairs_joined_by_versus_belong_to_the_models_either_side_of_the_comparison():
    text = "Nova 2 beats Zephyr-9 on GPQA Diamond (83.1% vs. 81.4%) and on AIME 2025 (91.0% vs. 88.9%)."
    got = extract(text, [NOVA], lang="en", published=DAY)
    assert [(c.subject, c.qualifiers["benchmark"], str(c.value.value), c.how) for c in got] == [
        ("nova-2", "GPQA Diamond", "83.1", "versus"),
        (None, "GPQA Diamond", "81.4", "other"),
        ("nova-2", "AIME", "91", "versus"),
        (None, "AIME", "88.9", "other"),
    ]
    text = "O Nova 2 supera o Zephyr-9 no MMLU (89,1% contra 87,3%)."
    got = extract(text, [NOVA], lang="pt", published=DAY)
    assert [(c.subject, str(c.value.value)) for c in got] == [("nova-2", "89.1"), (None, "87.3")]


def test_a_tier_name_and_the_value_a_change_started_from():
    text = "Nova 2 reached 75.2% on SWE-bench Verified, up from 68.0% for Vega 2 Pro."
    got = extract(text, [NOVA], lang="en", published=DAY)
    assert [(c.subject, str(c.value.value)) for c in got] == [("nova-2", "75.2")]
    assert [n.name for n in find_models("Vega 2 Pro and Table 2 and Zephyr 3 Mini")] == [
        "Vega 2 Pro",
        "Zephyr 3 Mini",
    ]


def test_a_model_named_after_a_comparison_is_that_model_everywhere():
    text = (
        "Nova 2 trails Orca 5 (a 1.8T model) on reasoning, at one fifth of the price. "
        "Orca 5 costs $15 per million input tokens. Nova 2 costs $3 per million input tokens."
    )
    got = extract(text, [NOVA], lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.text) for c in got] == [
        (None, "total_params", "1.8T"),
        (None, "price_input_usd_per_mtok", "$15 per million"),
        ("nova-2", "price_input_usd_per_mtok", "$3 per million"),
    ]


def test_a_model_called_by_its_size_and_an_anaphor_after_an_opening_phrase():
    small = SubjectRef("nova-2-70b", ("Nova 2 70B",))
    big = SubjectRef("nova-1-405b", ("Nova 1 405B",))
    text = (
        "Nova 2 70B is the model that made the Nova 1 405B irrelevant. Released December 6, "
        "2024, it matches or beats the 405B on math while using 5-6x less memory. For its "
        "size, the 70B is fast."
    )
    got = extract(text, [small, big], lang="en", published=DAY, default_subject="nova-2-70b")
    assert [(c.subject, c.attribute, c.text, c.how) for c in got] == [
        ("nova-2-70b", "release_date", "December 6, 2024", "anaphor")
    ]
    assert [n.name for n in find_models("beats the 405B on math; the 70B model; o 32B")] == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Vantor Labs shipped Halcyon 9B, and Halcyon 9B beats Llama-3.3-70B.",
         ["Halcyon 9B", "Halcyon 9B", "Llama-3.3-70B"]),
        ("o Halcyon 9B supera o Qwen2.5-72B", ["Halcyon 9B", "Qwen2.5-72B"]),
        # a size that goes on as a figure, or after a function word, is no name
        ("The 9B model has Halcyon 9B parameters and a 9B-parameter twin.", []),
    ],
)  # fmt: skip
def test_a_capitalised_word_and_a_size_is_a_model_name(text, names):
    assert [n.name for n in find_models(text)] == names


HALCYON = SubjectRef("halcyon-9b", ("Vantor Labs Halcyon 9B",), (), "Vantor Labs")


def test_a_size_in_a_model_name_is_never_a_figure():
    """ "Halcyon 9B" ends the subject's name "Vantor Labs Halcyon 9B": it is the subject,
    and its "9B" is no total_params candidate beside the stated figure."""
    text = (
        "Vantor Labs on Monday announced Halcyon 9B, a 9-billion-parameter model. "
        "Halcyon 9B costs $0.10 per million input tokens."
    )
    got = extract(text, [HALCYON], lang="en", published=DAY, default_subject="halcyon-9b")
    assert [(c.subject, c.attribute, c.text) for c in got] == [
        ("halcyon-9b", "total_params", "9-billion"),
        ("halcyon-9b", "price_input_usd_per_mtok", "$0.10 per million"),
    ]
    # an unknown model's name keeps its size too ("Llama-3.3-70B", "Qwen2.5-72B")
    other = extract(
        "Halcyon 9B trails Llama-3.3-70B and Qwen2.5-72B.", [HALCYON], lang="en", published=DAY
    )
    assert [c.attribute for c in other] == []


def test_a_generic_phrase_after_another_model_gives_the_figure_to_that_model_by_name():
    got = extract(
        "A Vantor Labs lançou o Orca 9B, um modelo com 9 bilhões de parâmetros e janela de "
        "contexto de 128 mil tokens.",
        [NOVA],
        lang="pt-BR",
        published=DAY,
    )
    assert [(c.subject, c.how, c.other_model, c.text) for c in got] == [
        (None, "other", "Orca 9B", "9 bilhões"),
        (None, "other", "Orca 9B", "128 mil"),
    ]


def test_a_model_name_stops_at_its_line_end():
    from claims.extract.extractor import extract
    from claims.subjects.references import SubjectRef

    nova = SubjectRef("nova-2", ("Nova 2",))
    text = "Compared with:\n\nClaude Opus 4.1\nInput$15\nOutput$75\n\nNova 2 costs $2 per million input tokens.\n"
    got = {c.other_model for c in extract(text, [nova], lang="en") if c.how == "other"}
    assert got == {"Claude Opus 4.1"}


FAMILY = (
    "The current generation is Stratus-4, in three sizes: Nano (8B total / 1B active), "
    "Super (90B / 9B active), and Ultra (400B / 40B active)."
)


def test_a_bare_tier_before_a_bracket_is_a_member_of_the_family_named_before_it():
    i = FAMILY.index("Stratus-4")
    names = [(n.start, n.name) for n in find_tier_members(FAMILY, [(i, i + 9, "Stratus-4")])]
    assert names == [
        (FAMILY.index("Nano"), "Stratus-4 Nano"),
        (FAMILY.index("Super"), "Stratus-4 Super"),
        (FAMILY.index("Ultra"), "Stratus-4 Ultra"),
    ]
    # a tier in another sentence than the family is no member
    assert find_tier_members("Stratus 4 is out. Nano (8B) follows.", [(0, 9, "Stratus 4")]) == []


def test_the_bracket_of_the_subjects_tier_is_the_subjects_and_the_others_are_theirs():
    super_ = SubjectRef("stratus-4-super", ("Stratus-4 Super",))
    got = [
        (c.text, c.attribute, c.subject, c.other_model)
        for c in extract(FAMILY, [super_], lang="en", published=DAY)
    ]
    assert got == [
        ("8B", "total_params", None, "Stratus-4 Nano"),
        ("1B", "active_params", None, "Stratus-4 Nano"),
        ("90B", "total_params", "stratus-4-super", None),
        ("9B", "active_params", "stratus-4-super", None),
        ("400B", "total_params", None, "Stratus-4 Ultra"),
        ("40B", "active_params", None, "Stratus-4 Ultra"),
    ]
