"""Negated figures and price factors: "does not have 2.8T" and "is not twice as expensive"
state nothing (a warning says they were skipped); "not only 2T", "no fewer than 2T" still
do; a price word makes a factor a price_factor even next to the variant "Highspeed"; a
price factor names its variant and its baseline (relative_to), or says the baseline is
unknown; an output-versus-input price ratio is skipped with a warning."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers_extract import variant_rows

from claims.extract.extractor import extract
from claims.extract.price_factor import BASELINE_UNKNOWN
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 20)
PRO = SubjectRef(
    "kimi-k3.1-pro", ("Kimi K3.1 Pro", "K3.1 Pro"), ("Standard", "Highspeed"), "Moonshot AI"
)


def run(text: str, lang: str = "en"):
    warnings: list[str] = []
    found = extract(text, [PRO], lang=lang, published=DAY, warnings=warnings)
    rows = [
        (c.attribute, tuple(sorted(c.qualifiers.items())), c.value.display(), c.text) for c in found
    ]
    return rows, warnings, found


def test_negated_parameter_count_is_skipped_with_a_warning():
    text = (
        "Kimi K3.1 Pro ships next week. It doesn't have 3.5 trillion parameters; "
        "it has 1.6 trillion."
    )
    rows, warnings, _ = run(text)
    assert rows == [("total_params", (), "1.6T params", "1.6 trillion")]
    assert text.index("3.5") == 47
    assert warnings == ["at 47: '3.5 trillion': negated (\"n't have\"), not a claim: skipped"]


def test_negated_factor_en_and_pt_is_skipped():
    rows, warnings, _ = run("Kimi K3.1 Pro Highspeed is not twice as pricey as the Standard.")
    assert rows == []
    assert warnings == ["at 31: 'twice': negated ('not'), not a claim: skipped"]
    rows, warnings, _ = run("A Highspeed do Kimi K3.1 Pro não custa o dobro da Standard.", "pt")
    assert rows == []
    assert warnings == ["at 39: 'o dobro': negated ('não custa'), not a claim: skipped"]
    rows, warnings, _ = run("O Kimi K3.1 Pro não é 3 vezes mais caro que a Standard.", "pt")
    assert rows == []
    assert warnings == ["at 22: '3 vezes': negated ('não é'), not a claim: skipped"]


def test_not_only_and_negated_bounds_still_state_the_figure():
    rows, warnings, _ = run("Kimi K3.1 Pro has not only 1.6 trillion parameters but a new router.")
    assert rows == [("total_params", (), "1.6T params", "1.6 trillion")]
    assert warnings == []
    rows, _, found = run("Kimi K3.1 Pro has no fewer than 1.6 trillion parameters.")
    assert rows == [("total_params", (), "at least 1.6T params", "no fewer than 1.6 trillion")]
    assert found[0].value.relation == "at_least"
    rows, _, found = run("O Kimi K3.1 Pro tem não menos de 1,6 trilhão de parâmetros.", "pt")
    assert rows == [("total_params", (), "at least 1.6T params", "não menos de 1,6 trilhão")]
    rows, _, _ = run("Kimi K3.1 Pro has no more than 90 billion active parameters.")
    assert rows == [("active_params", (), "at most 90B params", "no more than 90 billion")]


def test_price_word_beats_the_variant_name_highspeed():
    rows, _, found = run("Kimi K3.1 Pro Highspeed is three times as expensive.")
    assert rows == [("price_factor", (("variant", "Highspeed"),), "3 times", "three times")]
    rows, _, _ = run("For Kimi K3.1 Pro, the Highspeed tier costs double.")
    assert rows == [("price_factor", (("variant", "Highspeed"),), "2 times", "double")]
    # A speed word still makes a speed-up.
    rows, _, _ = run("Kimi K3.1 Pro Highspeed answers 3x faster than the Standard.")
    assert rows == [("speedup_factor", (("variant", "Highspeed"),), "3 times", "3x")]


def test_price_factor_baseline_and_direction():
    rows, _, found = run("Kimi K3.1 Pro Highspeed is twice as pricey as the standard tier.")
    assert rows == [
        (
            "price_factor",
            (("relative_to", "Standard"), ("variant", "Highspeed")),
            "2 times",
            "twice",
        )
    ]
    assert found[0].warnings == []
    rows, _, _ = run("With Kimi K3.1 Pro, the Standard is triple as costly as the Highspeed.")
    assert rows == [
        (
            "price_factor",
            (("relative_to", "Highspeed"), ("variant", "Standard")),
            "3 times",
            "triple",
        )
    ]
    rows, _, _ = run("A Highspeed do Kimi K3.1 Pro custa o dobro da Standard.", "pt")
    assert rows == [
        (
            "price_factor",
            (("relative_to", "Standard"), ("variant", "Highspeed")),
            "2 times",
            "o dobro",
        )
    ]


def test_price_factor_without_baseline_warns():
    rows, _, found = run("Kimi K3.1 Pro Highspeed is 2.5x more expensive.")
    assert rows == [("price_factor", (("variant", "Highspeed"),), "2.5 times", "2.5x")]
    assert found[0].warnings == [BASELINE_UNKNOWN]


def test_output_versus_input_ratio_is_skipped():
    rows, warnings, _ = run("On Kimi K3.1 Pro, output costs four times as much as input.")
    assert rows == []
    assert warnings == [
        "at 31: 'four times': ratio of output to input price, "
        "not a price factor between variants: skipped"
    ]


NIMBUS = SubjectRef("nimbus-4", ("Nimbus 4",), ("Standard", "Turbo"), "Orbita Labs")


def test_a_baseline_right_after_the_factor_is_relative_to():
    got = extract(
        "The Turbo variant of Nimbus 4 costs twice the Standard.", [NIMBUS], published=DAY
    )
    assert [(c.attribute, c.qualifiers) for c in got] == [
        ("price_factor", {"variant": "Turbo", "relative_to": "Standard"})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Kimi K3.1 Pro Highspeed costs twice as much as GPT-5 at standard context lengths.",
        "Kimi K3.1 Pro Highspeed is twice as expensive as Kimi K3 Highspeed.",
    ],
)
def test_a_price_factor_baseline_is_not_a_word_after_another_model(text):
    (got,) = [q for _, a, q, _ in variant_rows(text) if a == "price_factor"]
    assert "relative_to" not in got


@pytest.mark.parametrize(
    "text",
    [
        "O Kimi K3.1 Pro não é pequeno com 2,8 trilhões de parâmetros.",
        "Kimi K3.1 Pro isn't cheap at $3 per million output tokens.",
    ],
)
def test_a_negation_about_something_else_keeps_the_figure(text):
    assert len(variant_rows(text)) == 1
