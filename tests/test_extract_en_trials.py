"""Misses found by fresh-user trials on English articles (and their pt forms): paired
input/output prices, negated and end-of-month weights dates, publications named "The
...", and "Analysts at X estimate" claimants. Each asserts the exact candidate."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 30)
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
K3 = SubjectRef("kimi-k3", ("Kimi K3", "K3"), (), "Moonshot AI")


def rows(text: str, lang: str = "en"):
    return [
        (c.subject, c.attribute, c.qualifiers, c.value.display(), c.claimant)
        for c in extract(text, [ORION, K3], lang=lang, published=DAY)
    ]


def values(text: str, lang: str = "en"):
    return [
        (c.attribute, c.value.value, c.value.unit, c.value.relation, c.claimant)
        for c in extract(text, [ORION, K3], lang=lang, published=DAY)
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Vega Systems said Orion-5 Max costs $1 / $4 per million input/output tokens.", "en"),
        (
            "Vega Systems said Orion-5 Max costs $1 and $4 per million input and output tokens.",
            "en",
        ),
        ("Vega Systems said Orion-5 Max costs input $1, output $4 per 1M tokens.", "en"),
        ("Vega Systems said Orion-5 Max costs $1 input / $4 output per 1M tokens.", "en"),
        (
            "A Vega Systems disse que o Orion-5 Max custa US$ 1 de entrada e US$ 4 de saída "
            "por milhão de tokens.",
            "pt-BR",
        ),
        (
            "A Vega Systems disse que o Orion-5 Max custa US$ 1 / US$ 4 por milhão de tokens "
            "de entrada/saída.",
            "pt-BR",
        ),
    ],
)
def test_input_and_output_prices_in_one_phrase_are_two_candidates(text, lang):
    assert values(text + "\n", lang) == [
        ("price_input_usd_per_mtok", Decimal("1"), "usd_per_mtok", None, "Vega Systems"),
        ("price_output_usd_per_mtok", Decimal("4"), "usd_per_mtok", None, "Vega Systems"),
    ]


def test_output_input_order_is_followed():
    assert rows("Orion-5 Max costs $8 / $2 per million output/input tokens.\n") == [
        ("orion-5-max", "price_output_usd_per_mtok", {}, "$8.00 per 1M tokens", None),
        ("orion-5-max", "price_input_usd_per_mtok", {}, "$2.00 per 1M tokens", None),
    ]


def test_weights_not_released_before_a_month_is_on_or_after_it():
    # "after 2027-02" is "on or after 2027-03-01": the relation vocabulary has no
    # "on or after", and "after" the month before says exactly that.
    assert rows(
        "Vega Systems said the Orion-5 Max weights will not be released before March 2027.\n"
    ) == [("orion-5-max", "weights_release_date", {}, "after 2027-02", "Vega Systems")]
    assert rows("Os pesos do Kimi K3 não serão liberados antes de março de 2027.\n", "pt-BR") == [
        ("kimi-k3", "weights_release_date", {}, "after 2027-02", None)
    ]


def test_weights_not_released_in_a_month_gives_no_date():
    assert rows("The Orion-5 Max weights will not be released in March 2027.\n") == []


def test_by_the_end_of_december_is_a_deadline_on_its_last_day():
    assert rows(
        "Vega Systems said the Orion-5 Max weights will be released by the end of December.\n"
    ) == [("orion-5-max", "weights_release_date", {}, "by 2026-12-31", "Vega Systems")]
    assert rows("Os pesos do Kimi K3 serão liberados até o fim de dezembro.\n", "pt-BR") == [
        ("kimi-k3", "weights_release_date", {}, "by 2026-12-31", None)
    ]


def test_publication_named_the_something_keeps_its_the():
    text = (
        "According to a report by The Information, Orion-5 Max has 2 trillion parameters. "
        "The model has a 256K context window.\n\n"
        "According to a report from Reuters, Kimi K3 has 3 trillion parameters.\n"
    )
    assert rows(text) == [
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
    assert rows(text) == [
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
    assert rows(text + "\n") == [("orion-5-max", "total_params", {}, "2T params", claimant)]


def test_analysts_estimate_about_the_model_of_the_paragraph():
    text = (
        "Vega Systems shipped Orion-5 Max this week. Analysts at SemiAnalysis estimate the "
        "model has 2 trillion parameters.\n"
    )
    assert rows(text) == [("orion-5-max", "total_params", {}, "2T params", "SemiAnalysis")]


def test_open_sourcing_a_model_dates_its_weights():
    """A trial: "won't open-source Nimbus 4 until March 2027" gave no candidate (the
    verb was not a weights word); an open-source model *released* on a date stays a
    release date."""
    text = (
        "Vega Systems said it won't open-source Orion-5 Max until March 2027. "
        "Kimi K3, an open-source model, was released on July 1, 2026."
    )
    assert rows(text) == [
        ("orion-5-max", "weights_release_date", {}, "after 2027-02", "Vega Systems"),
        ("kimi-k3", "release_date", {}, "on 2026-07-01", None),
    ]


def test_each_price_takes_the_side_named_in_its_own_conjunct():
    """A trial: "Input costs $1.25 per million tokens and output $5 per million" gave two
    output prices (the first took the next conjunct's "output") and a false discrepancy."""
    text = "Vega Systems said Orion-5 Max input costs $1.25 per million tokens and output $5 per million."
    assert values(text) == [
        ("price_input_usd_per_mtok", Decimal("1.25"), "usd_per_mtok", None, "Vega Systems"),
        ("price_output_usd_per_mtok", Decimal("5"), "usd_per_mtok", None, "Vega Systems"),
    ]
