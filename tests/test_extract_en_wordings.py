"""English wordings of release pages, by kind: a sentence opened by another model's
"Word N" name, training-corpus sizes with describing words, spelled and hyphenated token
counts, active counts worded by their share ("of these parameters", "actively engaged"),
spec lists written as "- label" / "- value" items, abbreviated months with a year, a
model card's sequence length, and a subject's published checkpoint name. Sentences are
made up (made-up labs and models)."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.extractor import extract
from claims.extract.placed_models import find_subject_names
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 30)
ORION = SubjectRef("orion-5-max", ("Orion-5 Max", "Orion 5 Max"), (), "Vega Systems")
TERN = SubjectRef("tern-3", ("Tern 3",), (), "Vega Systems")


def rows(text: str, refs=(ORION,), default: str | None = "orion-5-max"):
    got = extract(text, list(refs), lang="en", published=DAY, default_subject=default)
    return [(c.subject, c.attribute, c.value.display()) for c in got]


@pytest.mark.parametrize(
    "sentence",
    [
        "Nimbus 5 has 70 billion parameters.",
        "Nimbus 5 reportedly has 70 billion parameters.",
        "The Nimbus 5 packs 70 billion parameters.",
        "Meanwhile, a lab project known as Nimbus 5 is training a model with 70 billion parameters.",
    ],
)
def test_an_unknown_word_and_version_opening_a_sentence_is_another_model(sentence):
    text = "Vega Systems released Orion-5 Max. " + sentence
    assert rows(text) == [(None, "total_params", "70B params")]


def test_that_name_is_the_subject_when_it_is_an_alias_or_begins_its_name():
    text = "Vega Systems released Tern 3 today. Tern 3 has 70 billion parameters."
    assert rows(text, (TERN,), "tern-3") == [("tern-3", "total_params", "70B params")]
    text = "Vega Systems released Orion 5 Max. Orion 5 has 70 billion parameters."
    assert rows(text) == [("orion-5-max", "total_params", "70B params")]


def test_a_date_or_a_document_part_opening_a_sentence_is_no_name():
    text = "March 11 was busy. Table 2 has the scores. Orion-5 Max has 70 billion parameters."
    assert find_subject_names(text, [["orion", "5", "max"]]) == []
    assert rows(text) == [("orion-5-max", "total_params", "70B params")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Vega trained the model on 11.2 trillion high-quality tokens.",
        "It was trained on 11.2T high-quality real data without synthetic data.",
        "It was pre-trained on up to 11.2 trillion (11.2T) high-quality non-synthetic data.",
    ],
)
def test_a_training_corpus_with_describing_words_is_no_parameter_count(sentence):
    assert rows("Orion-5 Max has 90 billion parameters. " + sentence) == [
        ("orion-5-max", "total_params", "90B params")
    ]


def test_a_count_per_token_is_still_the_active_count():
    text = "Orion-5 Max has 90 billion parameters in total and activates 6 billion per token."
    assert rows(text) == [
        ("orion-5-max", "total_params", "90B params"),
        ("orion-5-max", "active_params", "6B params"),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "16 billion of these parameters are activated for each token.",
        "During inference, only 16 billion parameters are actively engaged.",
        "Only 16 billion parameters are used per token.",
    ],
)
def test_an_active_count_worded_by_its_share(sentence):
    text = "Orion-5 Max is a sparse model with 90 billion total parameters. " + sentence
    assert rows(text) == [
        ("orion-5-max", "total_params", "90B params"),
        ("orion-5-max", "active_params", "16B params"),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Orion-5 Max offers a one-million-token context window.",
        "Orion-5 Max offers a 1-million-token context window.",
        "Orion-5 Max accepts 1M tokens in one request.",
    ],
)
def test_a_context_window_in_words_or_per_request(sentence):
    assert rows(sentence) == [("orion-5-max", "context_window", "1M tokens")]


def test_a_hyphenated_parameter_compound_naming_a_part_stays_no_count():
    text = "Orion-5 Max pairs a 10-billion-parameter dense transformer with 90 experts."
    assert rows(text) == []


def test_a_model_cards_sequence_length_is_its_context_window():
    text = (
        "Orion-5 Max is a decoder-only Transformer, trained with a sequence length of 4096 tokens."
    )
    assert rows(text) == [("orion-5-max", "context_window", "4K (4,096) tokens")]


def test_a_spec_list_of_label_and_value_items():
    text = (
        "Orion-5 Max\nSpecifications\n- Context window\n- 256,000 tokens (256K)\n"
        "- Max output tokens\n- 16,384 tokens (16K)\n- Release date\n- Feb 2027\n"
        "- Input cost\n- $0.40/M / 1M tokens\n"
    )
    assert rows(text) == [
        ("orion-5-max", "context_window", "256K tokens"),
        ("orion-5-max", "release_date", "on 2027-02"),
        ("orion-5-max", "price_input_usd_per_mtok", "$0.40 per 1M tokens"),
    ]


def test_an_abbreviated_month_needs_its_year():
    assert rows("Orion-5 Max\nRelease date: Sep 2026") == [
        ("orion-5-max", "release_date", "on 2026-09")
    ]
    assert rows("Orion-5 Max may be released later.") == []


def test_a_subjects_published_checkpoint_name_is_the_subject():
    nimbus = SubjectRef("nimbus-5", ("Nimbus 5",), (), "Vega Systems")
    text = "Nimbus-5-24B-Instruct-2506 is an updated 24B parameter model from Vega Systems."
    assert rows(text, (nimbus,), "nimbus-5") == [("nimbus-5", "total_params", "24B params")]
    sized = SubjectRef("nimbus-5-70b", ("Nimbus 5 70B",), (), "Vega Systems")
    text = "Nimbus-5-8B-Instruct is a smaller 8B parameter model from Vega Systems."
    assert rows(text, (sized,), "nimbus-5-70b") == [(None, "total_params", "8B params")]


def test_a_flattened_config_tables_glued_label_and_value_is_no_model_name():
    text = "Orion-5 Max model card:\n\nConfigValue\nNumber of Layers61\nMax Context Length65536\n"
    assert rows(text) == [("orion-5-max", "context_window", "64K (65,536) tokens")]


@pytest.mark.parametrize(
    ("text", "licence"),
    [
        ("Orion-5 Max\nlicense: apache-2.0", "apache-2.0"),
        ("Orion-5 Max\ntask text-generationlicense apache-2.0library transformers", "apache-2.0"),
        ("Orion-5 Max\nLicense: cc-by-nc-4.0", "cc-by-nc-4.0"),
        ("Orion-5 Max is released under the mit license.", "mit"),
    ],
)
def test_a_hubs_lower_case_licence_id(text, licence):
    assert rows(text) == [("orion-5-max", "license", licence)]


def test_a_readme_badge_before_the_licence_badge_names_no_licence():
    text = "Vega Chat Homepage\nDiscord License\n\nOrion-5 Max is out under the MIT license."
    assert rows(text) == [("orion-5-max", "license", "mit")]


def test_a_count_glued_after_a_dates_year_starts_after_the_year():
    text = "Orion-5 Max\n\nCreated Feb 3, 20274,096 context\n\nA model for agents."
    assert rows(text) == [("orion-5-max", "context_window", "4K (4,096) tokens")]


def test_a_parts_parameters_glued_to_their_count_are_no_total():
    text = "Orion-5 Max\nSpecValue\nNon-embedding Parameters25.6B\nTotal Parameters27B\n"
    assert rows(text) == [("orion-5-max", "total_params", "27B params")]


def test_a_flattened_config_block_is_not_joined_as_hard_wrapped_prose():
    text = (
        "Orion-5 Max model card:\n\nConfigValue\nNumber of Layers (Dense layers included)61\n"
        "Hidden Dimension7168\nMax Context Length65536\nTotal Parameters (LLM)316B\n"
        "Activated Params per Token38B\nTotal Parameters (VLM)321B\n"
    )
    got = rows(text)
    assert ("orion-5-max", "context_window", "64K (65,536) tokens") in got
    assert ("orion-5-max", "active_params", "38B params") in got
    assert ("orion-5-max", "active_params", "316B params") not in got
