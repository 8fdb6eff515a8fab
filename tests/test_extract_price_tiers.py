"""Price tiers in prose (claims.extract.price_tiers): a price that holds only above a prompt
length gets a ``conditions`` qualifier, as a tiered price table's later rows do; sentences
written for these tests."""

from __future__ import annotations

from decimal import Decimal

import pytest

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

VEGA = SubjectRef("vega-3", ("Vega 3",), (), "Lyra Labs")


def prices(text: str) -> list[tuple[str, Decimal, str | None]]:
    return [
        (c.attribute, c.value.value, c.qualifiers.get("conditions"))
        for c in extract(text, [VEGA], lang="auto")
        if c.attribute.startswith("price_")
    ]


IN, OUT = "price_input_usd_per_mtok", "price_output_usd_per_mtok"


def test_a_bare_price_before_a_condition_takes_the_unit_and_side_of_the_price_before_it():
    text = (
        "Vega 3 costs $1.50 per million input tokens, $3 above 128K tokens, "
        "and $6 per million output tokens."
    )
    assert prices(text) == [
        (IN, Decimal("1.5"), None),
        (IN, Decimal("3"), "> 128K tokens"),
        (OUT, Decimal("6"), None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Vega 3 costs $1.50 per million input tokens, or $3 per million input tokens for "
        "prompts longer than 128K tokens.",
        "Vega 3 charges $1.50 per million input tokens; when the input exceeds 128,000 "
        "tokens, it charges $3 per million input tokens.",
        "O Vega 3 custa US$ 1,50 por milhão de tokens de entrada, ou US$ 3 por milhão de "
        "tokens de entrada para prompts acima de 128 mil tokens.",
        "O Vega 3 custa US$ 1,50 por milhão de tokens de entrada e US$ 3 acima de 128K tokens.",
    ],
)
def test_a_price_with_a_tier_condition_is_that_tier_and_the_headline_price_stays_plain(text):
    assert prices(text) == [(IN, Decimal("1.5"), None), (IN, Decimal("3"), "> 128K tokens")]


def test_a_condition_fronting_its_sentence_holds_for_every_price_in_it():
    text = (
        "For prompts over 128K tokens, Vega 3 costs $3 per million input tokens and "
        "$12 per million output tokens."
    )
    assert prices(text) == [
        (IN, Decimal("3"), "> 128K tokens"),
        (OUT, Decimal("12"), "> 128K tokens"),
    ]


def test_a_tier_starting_at_a_count_is_at_least_it_and_its_count_is_no_context_window():
    text = "A partir de 200 mil tokens, o Vega 3 custa US$ 3 por milhão de tokens de entrada."
    found = [(c.attribute, c.qualifiers) for c in extract(text, [VEGA], lang="auto")]
    assert found == [(IN, {"conditions": ">= 200K tokens"})]


@pytest.mark.parametrize(
    "text",
    [
        "Vega 3 has a context window of up to 200K tokens and costs $1.50 per million input tokens.",
        "Vega 3 supports over 100 languages and costs $1.50 per million input tokens.",
        "Vega 3 costs $1.50 per million input tokens and reads over 128K tokens of context.",
        "Vega 3 costs $1.50 per million input tokens over 1M requests a day.",
    ],
)
def test_condition_words_elsewhere_in_the_sentence_make_no_tier(text):
    assert prices(text) == [(IN, Decimal("1.5"), None)]


@pytest.mark.parametrize(
    ("text", "tier"),
    [
        (
            "Vega 3 costs $1.25 per million input tokens (prompts up to 200K tokens) and "
            "$2.50 per million input tokens (prompts > 200K tokens).",
            "> 200K tokens",
        ),
        (
            "Vega 3 costs $1.25 per million input tokens for prompts up to 200K tokens and "
            "$2.50 per million input tokens for longer prompts.",
            "> 200K tokens",
        ),
        (
            "O Vega 3 custa US$ 1,25 por milhão de tokens de entrada para prompts de até 200 "
            "mil tokens e US$ 2,50 para prompts mais longos.",
            "> 200K tokens",
        ),
    ],
)
def test_the_base_tier_up_to_a_limit_is_the_headline_price_and_the_one_above_is_a_tier(text, tier):
    assert prices(text) == [(IN, Decimal("1.25"), None), (IN, Decimal("2.5"), tier)]


def test_longer_prompts_with_no_limit_named_make_no_tier():
    text = "Vega 3 costs $1.25 per million input tokens and $2.50 for longer prompts."
    assert prices(text) == [(IN, Decimal("1.25"), None)]
