"""Misses found by a seventh fresh-user trial of `tracker claims extract`: short English
weights statements read as Portuguese, yearless months read in the past, "the model"/"it"
losing the subject of the sentence before, and a lab's own promise without a claimant.
Each asserts the exact candidate (subject, attribute, value, claimant)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.extract.dates import parse_date
from claims.extract.extractor import extract
from claims.extract.language import detect_locale
from claims.subjects.references import SubjectRef
from tracker.cli.main import app

DAY = dt.date(2026, 11, 29)
KIMI = SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",), (), "Moonshot AI")
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")


def rows(text: str, lang: str = "auto", warnings: list[str] | None = None):
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [KIMI, ORION], lang=lang, published=DAY, warnings=warnings)
    ]


NOT_BEFORE_MARCH_2027 = ("kimi-k3.1-pro", "weights_release_date", "after 2027-02", None)


@pytest.mark.parametrize(
    "text",
    [
        "Kimi K3.1 Pro weights will not be released until March 2027.",
        "Kimi K3.1 Pro weights will not be released before March 2027.",
        "Kimi K3.1 Pro's weights will not be released until March 2027.",
        "The weights of Kimi K3.1 Pro will not be released until March 2027.",
        "Os pesos do Kimi K3.1 Pro não serão liberados antes de março de 2027.",
    ],
)
def test_model_weights_will_not_be_released_until_is_one_candidate(text):
    # With --lang auto the first three had no "the/and/of" and were read as Portuguese.
    assert rows(text) == [NOT_BEFORE_MARCH_2027]


def test_model_will_have_weights_released_in_portuguese():
    assert rows("Kimi K3.1 Pro terá os pesos liberados em março de 2027.") == [
        ("kimi-k3.1-pro", "weights_release_date", "on 2027-03", None)
    ]


def test_short_english_statements_are_english():
    assert detect_locale("Kimi K3.1 Pro weights will not be released until March.") == "en"
    assert detect_locale("Kimi K3.1 Pro terá os pesos liberados em março.") == "pt-BR"


@pytest.mark.parametrize(
    ("text", "locale", "iso", "relation"),
    [
        # A yearless month over six months before a November article is next year's.
        ("Moonshot AI will not release the weights until March.", "en", "2027-02", "after"),
        ("The weights will be released in March.", "en", "2027-03", "on"),
        ("The weights will be released on March 4.", "en", "2027-03-04", "on"),
        ("Os pesos serão liberados em março.", "pt-BR", "2027-03", "on"),
        ("Os pesos serão liberados em 4 de março.", "pt-BR", "2027-03-04", "on"),
        # Within six months and no tense: this year's; a promise of a month already past
        # is next year's.
        ("Weights out in June, per the changelog.", "en", "2026-06", "on"),
        ("The weights will be released in June.", "en", "2027-06", "on"),
        # Explicitly past tense: as written, in the article's year.
        ("The model was released in March.", "en", "2026-03", "on"),
        ("The weights were released on March 4.", "en", "2026-03-04", "on"),
        ("O modelo foi lançado em março.", "pt-BR", "2026-03", "on"),
        ("Os pesos foram liberados em 4 de março.", "pt-BR", "2026-03-04", "on"),
        ("It was said the weights will be released in March.", "en", "2027-03", "on"),
    ],
)
def test_yearless_month_is_the_next_occurrence_unless_past_tense(text, locale, iso, relation):
    r = parse_date(text, locale, DAY)
    assert (r.iso, r.relation) == (iso, relation)


def test_yearless_month_in_a_promise_is_next_year():
    assert rows("Kimi K3.1 Pro weights will be released in March, Moonshot AI said.") == [
        ("kimi-k3.1-pro", "weights_release_date", "on 2027-03", "Moonshot AI")
    ]


SAID = "Moonshot AI said it will not release the weights of Kimi K3.1 Pro until March 2027."
PT_SAID = (
    "A Moonshot AI disse que não vai liberar os pesos do Kimi K3.1 Pro antes de março de 2027."
)
WEIGHTS_BY_MOONSHOT = ("kimi-k3.1-pro", "weights_release_date", "after 2027-02", "Moonshot AI")


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (SAID + " The model has 2.8 trillion parameters.", "en"),
        (SAID + " It has 2.8 trillion parameters.", "en"),
        (PT_SAID + " O modelo tem 2,8 trilhões de parâmetros.", "pt-BR"),
        (PT_SAID + " Ele tem 2,8 trilhões de parâmetros.", "pt-BR"),
    ],
)
def test_the_model_in_the_next_sentence_keeps_the_subject(text, lang):
    # The subject was named in Moonshot AI's statement, which the paragraph rule skips.
    warnings: list[str] = []
    assert rows(text, lang, warnings) == [
        WEIGHTS_BY_MOONSHOT,
        ("kimi-k3.1-pro", "total_params", "2.8T params", None),
    ]
    assert warnings == []


def test_the_model_after_a_sentence_naming_two_models_stays_unattributed():
    text = "Moonshot AI said Kimi K3.1 Pro is faster than Orion-5 Max. The model has 2.8 trillion parameters."
    got = extract(text, [KIMI, ORION], lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.warnings) for c in got] == [
        (None, "total_params", ["no model named in this sentence"])
    ]


def test_the_model_opening_a_paragraph_does_not_reach_back():
    text = "Kimi K3.1 Pro ships today, Moonshot AI said.\n\nThe model has 2.8 trillion parameters."
    got = extract(text, [KIMI], lang="en", published=DAY)
    assert [(c.subject, c.how, c.warnings) for c in got] == [
        (None, "none", ["no model named in this sentence"])
    ]


def test_extract_command_does_not_ask_to_add_a_known_model(tmp_path):
    subjects = str(Path(__file__).parent / "data" / "subjects.toml")
    f = tmp_path / "a.txt"
    f.write_text("Moonshot AI said the model has 2.8 trillion parameters.\n", encoding="utf-8")
    r = CliRunner().invoke(
        app,
        ["claims", "extract", str(f), "--lang", "en", "--published", "2026-11-29"]
        + ["--subjects", subjects, "--json"],
    )
    assert (r.exit_code, r.stderr) == (
        0,
        "warning: 1 of 1 candidate has no subject (—): no model named in their sentence, "
        "and `claims import` skips them; pass --subject SLUG (a subject of "
        f"{subjects}) if the article is about one model\n",
    )


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
