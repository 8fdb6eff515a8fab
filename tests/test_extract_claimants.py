"""Who states a figure (its claimant), in sentences written for these tests: the lab that
commits to a date, a reporter of someone else's commitment, a publication named "The
...", "Analysts at X estimate"; never the first words of a model's name, nor a name with
the sentence's full stop, nor an organization that is no subject's lab. Each asserts the
exact candidate."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers_extract import variant_rows

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

# Publication days: a yearless month resolves against them.
NOV_20, NOV_29, NOV_30 = dt.date(2026, 11, 20), dt.date(2026, 11, 29), dt.date(2026, 11, 30)
KIMI = SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",), (), "Moonshot AI")
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
K3 = SubjectRef("kimi-k3", ("Kimi K3", "K3"), (), "Moonshot AI")
NOVA = SubjectRef("nova-k2.5-max", ("Nova K2.5 Max",), (), "Orbital AI")
ORCA = SubjectRef("orca-7-thinking", ("Orca 7 Thinking",), (), "Deepwater Labs")


def rows(text: str, lang: str = "auto"):
    """(subject, attribute, value, claimant) of ``text`` naming Kimi K3.1 Pro or Orion-5 Max."""
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [KIMI, ORION], lang=lang, published=NOV_29)
    ]


def nova_rows(text: str):
    """(subject, attribute, value, claimant) of ``text`` naming Nova K2.5 Max or Orca 7 Thinking."""
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [NOVA, ORCA], published=NOV_20)
    ]


def rows_with_qualifiers(text: str, lang: str = "en"):
    """(subject, attribute, qualifiers, value, claimant) of ``text`` naming Orion-5 Max or Kimi K3."""
    return [
        (c.subject, c.attribute, c.qualifiers, c.value.display(), c.claimant)
        for c in extract(text, [ORION, K3], lang=lang, published=NOV_30)
    ]


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        (
            "Moonshot AI will not release the weights of Kimi K3.1 Pro until March.",
            "en",
            "after 2027-02",
        ),
        ("Moonshot AI will release the Kimi K3.1 Pro weights in March 2027.", "en", "on 2027-03"),
        ("Moonshot plans to open-source Kimi K3.1 Pro in March 2027.", "en", "on 2027-03"),
        (
            "A Moonshot AI não vai liberar os pesos do Kimi K3.1 Pro antes de março de 2027.",
            "pt-BR",
            "after 2027-02",
        ),
    ],
)
def test_the_lab_committing_to_a_date_is_the_claimant(text, lang, value):
    assert rows(text, lang) == [("kimi-k3.1-pro", "weights_release_date", value, "Moonshot AI")]


def test_an_organization_that_is_no_subjects_lab_is_not_a_committing_claimant():
    # "Reuters" is no subject's organization: its "will" commits to nothing about a model.
    assert rows("Reuters will release a report: Kimi K3.1 Pro weights ship in March 2027.") == [
        ("kimi-k3.1-pro", "weights_release_date", "on 2027-03", None)
    ]


@pytest.mark.parametrize(
    ("text", "claimant"),
    [
        (
            "According to The Information, Moonshot AI plans to open-source Kimi K3.1 Pro in March 2027.",
            "The Information",
        ),
        (
            "Segundo a Reuters, a Moonshot AI vai liberar os pesos do Kimi K3.1 Pro em março de 2027.",
            "Reuters",
        ),
        ("Analysts say Moonshot AI will release the Kimi K3.1 Pro weights in March 2027.", None),
    ],
)
def test_a_reported_commitment_is_the_reporters_claim(text, claimant):
    (got,) = variant_rows(text)
    assert got[3] == claimant


def test_the_first_words_of_a_models_name_are_not_a_claimant():
    # A trial: "Kimi K2" (of "O Kimi K2 Thinking custa ...") became both figures' claimant.
    text = (
        "O Nova K2.5 Max é 2,5 vezes mais rápido que a versão anterior, de acordo com a "
        "Orbital.\n\nO Orca 7 Thinking custa US$ 0,60 por milhão de tokens de entrada."
    )
    got = nova_rows(text)
    assert [r[:2] for r in got] == [
        ("nova-k2.5-max", "speedup_factor"),
        ("orca-7-thinking", "price_input_usd_per_mtok"),
    ]
    assert not any(r[3] and r[3].startswith("Orca") for r in got)


def test_a_claimant_named_before_the_full_stop_loses_it():
    got = nova_rows("Nova K2.5 Max has 2.5 trillion total parameters, according to Orbital.")
    assert got == [("nova-k2.5-max", "total_params", "2.5T params", "Orbital AI")]


def test_publication_named_the_something_keeps_its_the():
    text = (
        "According to a report by The Information, Orion-5 Max has 2 trillion parameters. "
        "The model has a 256K context window.\n\n"
        "According to a report from Reuters, Kimi K3 has 3 trillion parameters.\n"
    )
    assert rows_with_qualifiers(text) == [
        ("orion-5-max", "total_params", {}, "2T params", "The Information"),
        ("orion-5-max", "context_window", {}, "256K tokens", "The Information"),
        ("kimi-k3", "total_params", {}, "3T params", "Reuters"),
    ]


def test_a_sentence_opening_with_the_is_not_the_publication():
    # "The" opens the second paragraph; only the named publication's own words count.
    text = (
        "The Information reported that Orion-5 Max has 2 trillion parameters.\n\n"
        "The Kimi K3 context window is 256K tokens.\n"
    )
    assert rows_with_qualifiers(text) == [
        ("orion-5-max", "total_params", {}, "2T params", "The Information"),
        ("kimi-k3", "context_window", {}, "256K tokens", None),
    ]


@pytest.mark.parametrize(
    ("text", "claimant"),
    [
        (
            "Analysts at SemiAnalysis estimate Orion-5 Max has 2 trillion parameters.",
            "SemiAnalysis",
        ),
        ("Researchers from Epoch AI believe Orion-5 Max has 2 trillion parameters.", "Epoch AI"),
        ("Engineers at Cerebras say Orion-5 Max has 2 trillion parameters.", "Cerebras"),
    ],
)
def test_analysts_at_an_organization_name_it_as_claimant(text, claimant):
    assert rows_with_qualifiers(text + "\n") == [
        ("orion-5-max", "total_params", {}, "2T params", claimant)
    ]


def test_analysts_estimate_about_the_model_of_the_paragraph():
    text = (
        "Vega Systems shipped Orion-5 Max this week. Analysts at SemiAnalysis estimate the "
        "model has 2 trillion parameters.\n"
    )
    assert rows_with_qualifiers(text) == [
        ("orion-5-max", "total_params", {}, "2T params", "SemiAnalysis")
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Kimi K3.1 Pro costs $0.60 per million input tokens, Moonshot said.", "en"),
        ("Kimi K3.1 Pro costs $0.60 per million input tokens, said Moonshot AI.", "en"),
        ("Kimi K3.1 Pro costs $0.60 per million input tokens, the company said.", "en"),
        ("O Kimi K3.1 Pro custa US$ 0,60 por milhão de tokens de entrada, disse a Moonshot.", "pt-BR"),
        ("Segundo a empresa, o Kimi K3.1 Pro custa US$ 0,60 por milhão de tokens de entrada.", "pt-BR"),
        ("De acordo com a companhia, o Kimi K3.1 Pro custa US$ 0,60 por milhão de tokens de entrada.", "pt-BR"),
    ],
)  # fmt: skip
def test_the_lab_named_after_the_verb_or_as_the_company_is_the_claimant(text, lang):
    assert rows(text, lang) == [
        ("kimi-k3.1-pro", "price_input_usd_per_mtok", "$0.60 per 1M tokens", "Moonshot AI")
    ]


def test_a_named_organization_after_the_verb_is_the_claimant():
    text = "Kimi K3.1 Pro runs at 900 tokens per second, said Cerebras."
    assert [r[3] for r in rows(text, "en")] == ["Cerebras"]


def test_a_subjects_organization_is_not_taken_for_its_model_name():
    """The subject's name starts with its lab's ("Vantor Labs Halcyon 9B"): the lab still
    speaks, and its later "the company" statements stay about the model."""
    halcyon = SubjectRef("halcyon-9b", ("Vantor Labs Halcyon 9B", "Halcyon 9B"), (), "Vantor Labs")
    text = (
        "Through its API, Halcyon 9B costs $0.10 per million input tokens, Vantor said. "
        "The company claims the model scores 61.5% on GPQA Diamond."
    )
    got = extract(text, [halcyon], lang="en", published=NOV_29)
    assert [(c.subject, c.attribute, c.claimant) for c in got] == [
        ("halcyon-9b", "price_input_usd_per_mtok", "Vantor Labs"),
        ("halcyon-9b", "benchmark_score", "Vantor Labs"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Through the company's API, Orion-5 Max costs $0.20 per million input tokens.",
        "Via its own API, Orion-5 Max costs $0.20 per million input tokens.",
        "Pela API da empresa, o Orion-5 Max custa US$ 0,20 por milhão de tokens de entrada.",
        "Na sua plataforma, o Orion-5 Max custa US$ 0,20 por milhão de tokens de entrada.",
    ],
)
def test_the_labs_own_channel_makes_the_lab_the_claimant(text):
    assert rows(text) == [
        ("orion-5-max", "price_input_usd_per_mtok", "$0.20 per 1M tokens", "Vega Systems")
    ]


def test_its_api_after_another_claimant_is_that_claimants():
    text = "OpenRouter lists Orion-5 Max; through its API it costs $0.20 per million input tokens."
    assert rows(text) == [
        ("orion-5-max", "price_input_usd_per_mtok", "$0.20 per 1M tokens", "OpenRouter")
    ]
