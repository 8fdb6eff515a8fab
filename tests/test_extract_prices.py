"""Input and output prices stated together, in sentences written for these tests: a
paired phrase ("$1 / $4 per million input/output tokens", "US$ 1 de entrada e US$ 4 de
saída") gives two candidates in the order written, and each price takes the side named in
its own conjunct. Each asserts the exact candidates."""

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


def test_each_price_takes_the_side_named_in_its_own_conjunct():
    """A trial: "Input costs $1.25 per million tokens and output $5 per million" gave two
    output prices (the first took the next conjunct's "output") and a false discrepancy."""
    text = "Vega Systems said Orion-5 Max input costs $1.25 per million tokens and output $5 per million."
    assert values(text) == [
        ("price_input_usd_per_mtok", Decimal("1.25"), "usd_per_mtok", None, "Vega Systems"),
        ("price_output_usd_per_mtok", Decimal("5"), "usd_per_mtok", None, "Vega Systems"),
    ]


def test_a_bare_price_before_its_side_is_per_million_when_the_article_prices_so():
    text = (
        "Orion-5 Max costs $0.90 per million output tokens on most hosts. "
        "In short, Orion-5 Max is $0.25 input, $0.90 output."
    )
    assert [(a, v) for _, a, _, v, _ in rows(text)] == [
        ("price_output_usd_per_mtok", "$0.90 per 1M tokens"),
        ("price_input_usd_per_mtok", "$0.25 per 1M tokens"),
        ("price_output_usd_per_mtok", "$0.90 per 1M tokens"),
    ]
    # With no per-million price in the article, "$0.25 input" is no price per token.
    assert [a for _, a, _, _, _ in rows("Orion-5 Max is $0.25 input, $0.90 output.")] == []


CARD = """Pricing per Million Tokens

Nova 2
Input$3
Output$15
Zephyr 9 Max
Input$15
Output$75

Nova 2 costs more on output ($15 vs $10 per million tokens) than its rivals.
"""


def test_a_pricing_card_gives_each_name_line_the_prices_under_it():
    from claims.extract.extractor import extract
    from claims.subjects.references import SubjectRef

    nova = SubjectRef("nova-2", ("Nova 2",), (), "Orbit Labs")
    got = [
        (c.subject, c.other_model, c.attribute, c.value.display())
        for c in extract(CARD, [nova], lang="en")
    ]
    assert got == [
        ("nova-2", None, "price_input_usd_per_mtok", "$3.00 per 1M tokens"),
        ("nova-2", None, "price_output_usd_per_mtok", "$15.00 per 1M tokens"),
        (None, "Zephyr 9 Max", "price_input_usd_per_mtok", "$15.00 per 1M tokens"),
        (None, "Zephyr 9 Max", "price_output_usd_per_mtok", "$75.00 per 1M tokens"),
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Orion-5 Max costs $0.20 per M input tokens and $0.80 per M output tokens; "
         "$0.90 per M audio-input tokens.", "en"),
        ("Orion-5 Max: Input: $0.20 per 1M tokens. Output: $0.80 per 1M tokens. "
         "Audio input: $0.90 per 1M tokens.", "en"),
        ("O Orion-5 Max custa US$0,20 por milhão de tokens de entrada e US$0,80 por milhão "
         "de tokens de saída; US$0,90 por milhão de tokens de áudio.", "pt-BR"),
    ],
)  # fmt: skip
def test_another_input_kinds_rate_is_not_the_price(text, lang):
    got = [(a, v) for _, a, _, v, _ in rows(text, lang)]
    assert got == [
        ("price_input_usd_per_mtok", "$0.20 per 1M tokens"),
        ("price_output_usd_per_mtok", "$0.80 per 1M tokens"),
    ]


def test_a_name_number_before_a_price_is_no_range_and_two_pairs_keep_their_models():
    # "o Orion-5 Max a US$ 2/...": the name's 5 is not the low end of a range "5 a US$ 2"
    text = (
        "Na API, o Kimi K3 será tarifado a US$ 12/US$ 60 por milhão de tokens (entrada/saída) "
        "e o Orion-5 Max a US$ 2/US$ 9 por milhão de tokens (entrada/saída)."
    )
    assert [(s, a, v) for s, a, _, v, _ in rows(text, "pt-BR")] == [
        ("kimi-k3", "price_input_usd_per_mtok", "$12.00 per 1M tokens"),
        ("kimi-k3", "price_output_usd_per_mtok", "$60.00 per 1M tokens"),
        ("orion-5-max", "price_input_usd_per_mtok", "$2.00 per 1M tokens"),
        ("orion-5-max", "price_output_usd_per_mtok", "$9.00 per 1M tokens"),
    ]


def test_a_range_high_end_repeats_only_the_low_ends_currency():
    from claims.extract.figures import scan_figures

    text = "o Orion 5 a US$ 3 por mês; de US$ 3 a US$ 5; de US$ 3 a 5"
    found = [(f.kind, text[f.start : f.end]) for f in scan_figures(text, "pt-BR")]
    assert found == [
        ("plain", "5"),
        ("money", "US$ 3 por mês"),
        ("money", "US$ 3 a US$ 5"),
        ("money", "US$ 3 a 5"),
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "- Kimi K3: com o plano Lento, custa US$ 0,50 por milhão de tokens de entrada e "
            "US$ 2 por milhão de tokens de saída (contra US$ 1 e US$ 4 do plano padrão).",
            "pt-BR",
        ),
        (
            "- Kimi K3: with the Slow tier, it costs $0.50 per million input tokens and $2 per "
            "million output tokens (compared to $1 and $4 on the standard tier).",
            "en",
        ),
    ],
)
def test_two_bare_prices_compared_after_a_full_pair_take_its_units_and_sides(text, lang):
    assert [(s, a, v) for s, a, _, v, _ in rows(text, lang)] == [
        ("kimi-k3", "price_input_usd_per_mtok", "$0.50 per 1M tokens"),
        ("kimi-k3", "price_output_usd_per_mtok", "$2.00 per 1M tokens"),
        ("kimi-k3", "price_input_usd_per_mtok", "$1.00 per 1M tokens"),
        ("kimi-k3", "price_output_usd_per_mtok", "$4.00 per 1M tokens"),
    ]
