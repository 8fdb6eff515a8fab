"""Third fresh-user trial of extraction: a denial is no promise, a trailing condition
makes a sentence hypothetical, a claimant is neither the first words of a model's name
nor a name with the sentence's full stop. Sentences written for these tests."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.dates import parse_date
from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 20)
NOVA = SubjectRef("nova-k2.5-max", ("Nova K2.5 Max",), (), "Orbital AI")
ORCA = SubjectRef("orca-7-thinking", ("Orca 7 Thinking",), (), "Deepwater Labs")
NIMBUS = SubjectRef("nimbus-4", ("Nimbus 4",), ("Standard", "Turbo"), "Orbita Labs")


def rows(text: str, warnings: list[str] | None = None):
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [NOVA, ORCA], published=DAY, warnings=warnings)
    ]


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Orbital AI denied it would publish the Nova K2.5 Max weights in January.", "en"),
        ("Orbital AI denied that it would publish the weights in January 2027.", "en"),
        ("Orbital AI rejected reports that it would open the weights in February 2027.", "en"),
        (
            "A Orbital AI negou que vá publicar os pesos do Nova K2.5 Max em fevereiro de 2027.",
            "pt-BR",
        ),
    ],
)
def test_a_denied_date_states_no_date(text, locale):
    assert parse_date(text, locale, DAY).denied


def test_a_denied_date_is_a_warning_not_a_promise():
    warnings: list[str] = []
    text = "Orbital AI denied it would publish the Nova K2.5 Max weights in January."
    assert rows(text, warnings) == []
    assert any("states no date" in w for w in warnings)


def test_a_date_that_was_not_denied_stays_a_promise():
    # "did not deny" is doubt: the date reads as written
    r = parse_date(
        "Orbital AI did not deny it would publish the weights in January 2027.", "en", DAY
    )
    assert (r.iso, r.relation, r.denied) == ("2027-01", "on", False)


@pytest.mark.parametrize(
    "text",
    [
        "Orbital AI will publish the Nova K2.5 Max weights in December if regulators approve.",
        "Orbital AI will publish the Nova K2.5 Max weights in December, unless regulators object.",
        "A Orbital AI vai publicar os pesos do Nova K2.5 Max em dezembro, desde que o regulador aprove.",
    ],
)
def test_a_trailing_condition_makes_the_promise_hypothetical(text):
    assert rows(text) == []


def test_the_same_promise_without_a_condition_is_kept():
    assert rows("Orbital AI will publish the Nova K2.5 Max weights in December.") == [
        ("nova-k2.5-max", "weights_release_date", "on 2026-12", "Orbital AI")
    ]


def test_the_first_words_of_a_models_name_are_not_a_claimant():
    # A trial: "Kimi K2" (of "O Kimi K2 Thinking custa ...") became both figures' claimant.
    text = (
        "O Nova K2.5 Max é 2,5 vezes mais rápido que a versão anterior, de acordo com a "
        "Orbital.\n\nO Orca 7 Thinking custa US$ 0,60 por milhão de tokens de entrada."
    )
    got = rows(text)
    assert [r[:2] for r in got] == [
        ("nova-k2.5-max", "speedup_factor"),
        ("orca-7-thinking", "price_input_usd_per_mtok"),
    ]
    assert not any(r[3] and r[3].startswith("Orca") for r in got)


def test_a_claimant_named_before_the_full_stop_loses_it():
    got = rows("Nova K2.5 Max has 2.5 trillion total parameters, according to Orbital.")
    assert got == [("nova-k2.5-max", "total_params", "2.5T params", "Orbital AI")]


def test_a_baseline_right_after_the_factor_is_relative_to():
    got = extract(
        "The Turbo variant of Nimbus 4 costs twice the Standard.", [NIMBUS], published=DAY
    )
    assert [(c.attribute, c.qualifiers) for c in got] == [
        ("price_factor", {"variant": "Turbo", "relative_to": "Standard"})
    ]


# Review of the extraction changes: rules that fired where they should not.

KIMI = SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",), ("Highspeed", "Standard"), "Moonshot AI")
KIMI3 = SubjectRef("kimi-k3", ("Kimi K3",), ("Highspeed",), "Moonshot AI")


def _one(text: str, subjects=(KIMI, KIMI3)):
    return [
        (c.subject, c.attribute, c.qualifiers, c.claimant)
        for c in extract(text, list(subjects), published=DAY)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Kimi K3.1 Pro Highspeed costs twice as much as GPT-5 at standard context lengths.",
        "Kimi K3.1 Pro Highspeed is twice as expensive as Kimi K3 Highspeed.",
    ],
)
def test_a_price_factor_baseline_is_not_a_word_after_another_model(text):
    (got,) = [q for _, a, q, _ in _one(text) if a == "price_factor"]
    assert "relative_to" not in got


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
    (got,) = _one(text)
    assert got[3] == claimant


def test_the_model_sentence_that_names_a_model_keeps_it():
    text = "Kimi K3 is old. The model that replaced it, Kimi K3.1 Pro, has 2.8 trillion parameters."
    assert [(s, a) for s, a, *_ in _one(text)] == [("kimi-k3.1-pro", "total_params")]


def test_tense_does_not_cross_and():
    from claims.extract.dates import scan_dates

    text = "Kimi K3.1 Pro was announced in March and its weights ship in December"
    assert [d.reading.iso for d in scan_dates(text, "en", DAY)] == ["2026-03", "2026-12"]


@pytest.mark.parametrize(
    "text",
    [
        "Moonshot AI has never missed a deadline so the weights arrive before March 2027",
        "Moonshot AI did not comment because the weights arrive before March 2027",
    ],
)
def test_a_negation_does_not_reach_past_so_or_because(text):
    assert parse_date(text, "en", DAY).relation == "before"


@pytest.mark.parametrize(
    "text",
    [
        "O Kimi K3.1 Pro não é pequeno com 2,8 trilhões de parâmetros.",
        "Kimi K3.1 Pro isn't cheap at $3 per million output tokens.",
    ],
)
def test_a_negation_about_something_else_keeps_the_figure(text):
    assert len(_one(text)) == 1
