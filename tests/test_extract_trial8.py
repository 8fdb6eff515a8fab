"""Third fresh-user trial of extraction: a denial is no promise, a trailing condition
makes a sentence hypothetical, a claimant is neither the first words of a model's name
nor a name with the sentence's full stop. Sentences written for these tests."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.dates import parse_date
from claims.extract import extract
from claims.subjects import SubjectRef

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
