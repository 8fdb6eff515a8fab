"""A model named only as the owner of one figure ("up from 74% for its predecessor Nimbus
2", "contra 74% do antecessor Nimbus 2") owns that figure, not the sentence's later
figures nor later sentences; a figure given to another model names it (``other_model``)."""

from __future__ import annotations

import datetime as dt

from claims.extract.attribution import OTHER_MODEL
from claims.extract.extractor import extract
from claims.extract.models import figure_owners, find_related_models
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 12, 1)
NIMBUS = SubjectRef("nimbus-3", ("Nimbus 3",), (), "Cirrus Labs")


def rows(text: str, lang: str = "en"):
    return [
        (c.text, c.attribute, c.subject, c.how, c.other_model)
        for c in extract(text, [NIMBUS], lang=lang, published=DAY)
    ]


def test_a_predecessor_after_a_figure_owns_only_that_figure():
    text = (
        "Cirrus Labs released Nimbus 3 today. The company says it scores 80.1% on GPQA, compared with 74% for its "
        "predecessor Nimbus 2, and runs at about 900 tokens/s."
    )
    assert rows(text) == [
        ("80.1%", "benchmark_score", "nimbus-3", "paragraph", None),
        ("74%", "benchmark_score", None, "other", "Nimbus 2"),
        ("about 900", "output_tokens_per_second", "nimbus-3", "paragraph", None),
    ]


def test_a_previous_value_for_the_predecessor_is_dropped_and_later_figures_stay_ours():
    text = (
        "Cirrus Labs released Nimbus 3 today. It scores 80.1% on GPQA, up from 74% for its predecessor Nimbus 2, "
        "and runs at about 900 tokens/s. Weights will be published under the Apache-2.0 "
        "licence by the end of January 2027."
    )
    assert rows(text) == [
        ("80.1%", "benchmark_score", "nimbus-3", "anaphor", None),
        ("about 900", "output_tokens_per_second", "nimbus-3", "anaphor", None),
        ("Apache-2.0", "license", "nimbus-3", "paragraph", None),
        ("the end of January 2027", "weights_release_date", "nimbus-3", "paragraph", None),
    ]


def test_portuguese_contra_do_antecessor():
    text = (
        "A Cirrus Labs lançou o Nimbus 3. Segundo a empresa, o modelo atinge 80,1% no GPQA, "
        "contra 74% do antecessor Nimbus 2, e roda a cerca de 900 tokens por segundo."
    )
    assert rows(text, "pt") == [
        ("80,1%", "benchmark_score", "nimbus-3", "anaphor", None),
        ("74%", "benchmark_score", None, "other", "Nimbus 2"),
        ("cerca de 900", "output_tokens_per_second", "nimbus-3", "anaphor", None),
    ]


def test_a_model_that_is_the_sentence_topic_still_owns_its_figures():
    (c,) = extract("Its predecessor, Nimbus 2, had 400B parameters.", [NIMBUS], lang="en")
    assert (c.subject, c.how, c.other_model) == (None, "other", "Nimbus 2")
    assert c.warnings == [f"{OTHER_MODEL}: Nimbus 2"]


def test_figure_owners_are_the_names_joined_to_a_figure_before_them():
    text = "It scores 80%, up from 74% for its predecessor Nimbus 2, behind GPT-5."
    names = find_related_models(text)
    assert [(n.kind, n.name) for n in figure_owners(text, names)] == [
        ("relation", "predecessor"),
        ("competitor", "Nimbus 2"),
    ]
    # a comparison word between the figure and the name: a yardstick, not an owner
    text = "O preço ficou 33% abaixo do antecessor Nimbus 2."
    assert figure_owners(text, find_related_models(text)) == []


def test_another_models_figure_names_it_and_a_generic_one_names_none():
    got = rows("Nimbus 3 has 30B parameters, while Zephyr 2 Pro has 70B parameters.")
    assert got == [
        ("30B", "total_params", "nimbus-3", "clause", None),
        ("70B", "total_params", None, "other", "Zephyr 2 Pro"),
    ]
    got = rows(
        "Cirrus Labs released Nimbus 3 today. Serving a dense model with 70B parameters costs more."
    )
    assert [(r[2], r[4]) for r in got] == [(None, None)]


def test_the_candidate_json_carries_other_model():
    (c,) = extract("Zephyr 2 Pro has 70B parameters.", [NIMBUS], lang="en")
    assert c.to_dict()["other_model"] == "Zephyr 2 Pro"


def test_the_next_sentence_is_still_about_the_subject():
    text = (
        "Cirrus Labs released Nimbus 3 today. It scores 80.1% on GPQA, up from 74% for its "
        "predecessor Nimbus 2. It runs at about 900 tokens/s."
    )
    assert rows(text)[-1] == ("about 900", "output_tokens_per_second", "nimbus-3", "anaphor", None)
