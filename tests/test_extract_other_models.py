"""Figures of a model the subjects file does not know, in articles written for these
tests: the article's own model named in its lead ("Halcyon Works launched Solstice 9B")
and later by its short name ("Solstice") keeps its figures, which never go to the one
known model of the sentence or paragraph ("Unlike Marlin 40B, ..., Solstice is released
under ...", "half of what Aurora charges for Marlin 40B"); a bracket right after the known
model is its own; a relation word repeated later ("Its predecessor had ...") names the
model given after it earlier. English and Portuguese; each asserts the exact candidates."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.extractor import extract
from claims.extract.models import find_models, find_short_forms
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 20)
MARLIN = SubjectRef("aurora-marlin-40b", ("Aurora Marlin 40B", "Marlin 40B"), (), "Aurora Labs")

EN = (
    "Halcyon Solstice 9B challenges Marlin 40B\n\n"
    "Halcyon Works launched Solstice 9B this week with a 32K-token context window. Access "
    "costs $0.10 per million input tokens, half of what Aurora charges for Marlin 40B "
    "($0.20 per million input tokens).\n\n"
    "Unlike Marlin 40B, which is closed, Solstice is released under the Apache 2.0 "
    "license. The weights are due in mid-2027.\n"
)
PT = (
    "Halcyon Solstice 9B desafia o Marlin 40B\n\n"
    "A Halcyon Works lançou nesta semana o Solstice 9B, com janela de contexto de 32 mil "
    "tokens. O acesso custa US$ 0,10 por milhão de tokens de entrada, metade do que a "
    "Aurora cobra pelo Marlin 40B (US$ 0,20 por milhão de tokens de entrada).\n\n"
    "Ao contrário do Marlin 40B, que é fechado, o Solstice é distribuído sob a licença "
    "Apache 2.0. Os pesos chegam em meados de 2027.\n"
)
SOLSTICE = (None, "Solstice 9B")
OWN = [
    ("context_window", "32K tokens", SOLSTICE),
    ("price_input_usd_per_mtok", "$0.10 per 1M tokens", SOLSTICE),
    ("price_input_usd_per_mtok", "$0.20 per 1M tokens", ("aurora-marlin-40b", None)),
    ("license", "apache-2.0", SOLSTICE),
    ("weights_release_date", "by 2027-08", SOLSTICE),
]


def rows(text: str, lang: str, default: str | None = None):
    got = extract(text, [MARLIN], lang=lang, published=DAY, default_subject=default)
    return [(c.attribute, c.value.display(), (c.subject, c.other_model)) for c in got]


@pytest.mark.parametrize(("text", "lang"), [(EN, "en"), (PT, "pt-BR")])
def test_the_articles_own_unknown_model_keeps_its_figures(text, lang):
    assert rows(text, lang) == OWN


@pytest.mark.parametrize(("text", "lang"), [(EN, "en"), (PT, "pt-BR")])
def test_the_default_subject_does_not_take_the_other_models_figures(text, lang):
    # --subject names the known model: the unknown one's figures are still its own
    assert rows(text, lang, default="aurora-marlin-40b") == OWN


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "Marlin 40B is twice as fast as its predecessor, Marlin 13B, Aurora said. "
            "Its predecessor had a 16K context window.",
            "en",
        ),
        (
            "O Marlin 40B é duas vezes mais rápido que o antecessor, o Marlin 13B, segundo a "
            "Aurora. O antecessor tinha janela de contexto de 16 mil tokens.",
            "pt-BR",
        ),
    ],
)
def test_a_repeated_relation_word_names_the_model_given_after_it(text, lang):
    assert rows(text, lang) == [("context_window", "16K tokens", (None, "Marlin 13B"))]


def test_short_forms_only_for_one_unambiguous_name_that_is_no_family_or_subject_word():
    text = (
        "Orca 7B and Orca 13B trail Llama 3 and Solstice 9B. Orca leads, Llama follows, "
        "Solstice 2 is planned and Solstice ships; Marlin 40B and Marlin lag."
    )
    names = find_models(text)
    got = find_short_forms(text, names, {"marlin", "40b"})
    # "Orca": two models; "Llama": a family; "Solstice 2": a version follows; "Marlin": a
    # subject's word. Only the bare "Solstice" after "Solstice 9B" is that model.
    assert [(text[n.start : n.end], n.name) for n in got] == [("Solstice", "Solstice 9B")]
    assert got[0].start == text.index("Solstice ships")


def test_a_known_subjects_short_name_after_its_full_name_is_that_subject():
    solstice = SubjectRef("halcyon-solstice-9b", ("Solstice 9B",), (), "Halcyon Works")
    got = extract(EN, [MARLIN, solstice], lang="en", published=DAY)
    assert [(c.attribute, c.subject, c.how) for c in got] == [
        ("context_window", "halcyon-solstice-9b", "clause"),
        ("price_input_usd_per_mtok", "halcyon-solstice-9b", "paragraph"),
        ("price_input_usd_per_mtok", "aurora-marlin-40b", "bracket"),
        ("license", "halcyon-solstice-9b", "clause"),
        ("weights_release_date", "halcyon-solstice-9b", "paragraph"),
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "Marlin 40B is quick. It beat Orion 5.1 on public tests. The weights are due on "
            "March 3, 2027.",
            "en",
        ),
        (
            "O Marlin 40B é rápido. Ele bateu o Orion 5.1 em testes públicos. Os pesos "
            "chegam em 3 de março de 2027.",
            "pt-BR",
        ),
    ],
)
def test_a_model_named_in_passing_does_not_take_the_paragraphs_figures(text, lang):
    # Orion 5.1 is no sentence's topic (the pronoun is): the date stays the subject's
    assert [(a, s) for a, _, s in rows(text, lang, default="aurora-marlin-40b")] == [
        ("weights_release_date", ("aurora-marlin-40b", None))
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "Solstice 9B costs $0.10 per million output tokens, half of what Aurora charges "
            "for Marlin 40B ($0.20).",
            "en",
        ),
        (
            "O Solstice 9B custa US$ 0,10 por milhão de tokens de saída, metade do que a "
            "Aurora cobra pelo Marlin 40B (US$ 0,20).",
            "pt-BR",
        ),
    ],
)
def test_a_bare_price_in_a_bracket_after_the_yardstick_is_its_own(text, lang):
    # the bracket takes the unit and side of its sentence's price per million tokens
    assert rows(text, lang) == [
        ("price_output_usd_per_mtok", "$0.10 per 1M tokens", SOLSTICE),
        ("price_output_usd_per_mtok", "$0.20 per 1M tokens", ("aurora-marlin-40b", None)),
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "A Vega Systems apresentou o Orion-5 Max e ainda treina o Llama 9 Colossus, o maior "
            "da Meta. Enquanto isso, o Colossus possui 300 bilhões de parâmetros ativos de um "
            "total de 3 trilhões.",
            "pt-BR",
        ),
        (
            "Vega Systems presented Orion-5 Max while Meta still trains Llama 9 Colossus, its "
            "largest model. Meanwhile, the Colossus has 300 billion active parameters out of "
            "3 trillion in all.",
            "en",
        ),
    ],
)
def test_a_codename_written_alone_after_its_full_name_is_that_other_model(text, lang):
    orion = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
    found = [
        (c.subject, c.attribute, c.value.display(), c.other_model)
        for c in extract(
            text, [orion], lang=lang, published=dt.date(2026, 11, 30), default_subject=orion.slug
        )
    ]
    assert found == [
        (None, "active_params", "300B params", "Llama 9 Colossus"),
        (None, "total_params", "3T params", "Llama 9 Colossus"),
    ]


def test_a_capitalised_word_after_a_name_never_written_alone_again_is_no_codename():
    from claims.extract.models import find_codenames
    from claims.extract.rules import Named

    text = "Meta lançou o Llama 9 Hoje cedo. Depois, o Llama 9 chegou à nuvem."
    names = [Named(14, 21, "competitor", "Llama 9"), Named(40, 47, "competitor", "Llama 9")]
    assert find_codenames(text, names, set()) == []
