"""Locale-aware numbers and figures: separators (CLDR), scale words by locale, cases/C11."""

from __future__ import annotations

from decimal import Decimal

import pytest

from claims.extract.figures import parse_figure, scan_figures
from claims.values.numbers import normalize_locale, read_number, scale_of, separators
from claims.values.value import quantity, value_range

M = 10**6


def test_cldr_separators_per_locale():
    assert separators("pt-BR") == (",", ".")
    assert separators("pt-PT") == (",", "\u00a0")
    assert separators("en") == (".", ",")


@pytest.mark.parametrize(
    ("token", "locale", "text", "warned"),
    [
        ("2,8", "pt-BR", "2.8", False),
        ("1.000", "pt-BR", "1000", False),
        ("1.250,50", "pt-BR", "1250.50", False),
        ("8.00", "pt-BR", "8.00", True),  # C11: a dot + two digits is a decimal point
        ("2.8", "pt-BR", "2.8", True),
        ("1.000.000", "en", "1000000", True),
        ("1,000", "en", "1000", False),
        ("1,250.50", "pt-BR", "1250.50", True),
        ("0,125", "en", "0.125", True),
        ("1\u00a0048\u00a0576", "pt-BR", "1048576", False),
        ("1\u202f000\u202f000", "pt-PT", "1000000", False),
        ("1 000 000", "pt-PT", "1000000", False),
    ],
)
def test_read_number(token, locale, text, warned):
    r = read_number(token, locale)
    assert r.text == text
    assert bool(r.warnings) is warned


@pytest.mark.parametrize(
    ("token", "locale"), [("1,000", "pt-BR"), ("1.000", "en"), ("2,500", "pt-PT")]
)
def test_single_foreign_separator_with_three_digits_is_ambiguous(token, locale):
    r = read_number(token, locale)
    assert r.text is None and r.value is None
    assert "ambiguous" in r.warnings[0]


def test_ordinary_space_grouping_only_where_cldr_groups_with_spaces():
    assert read_number("1 000", "pt-BR").text is None
    assert read_number("1 000", "pt-PT").text == "1000"


def test_read_number_rejects_non_numbers():
    with pytest.raises(ValueError):
        read_number("abc", "en")


def test_scale_words_are_keyed_by_locale():
    assert scale_of("bilhões", "pt-BR") == Decimal(10) ** 9
    assert scale_of("bi", "pt-BR") == Decimal(10) ** 9
    assert scale_of("tri", "pt-BR") == Decimal(10) ** 12
    assert scale_of("bilião", "pt-PT") == Decimal(10) ** 12  # long scale
    assert scale_of("mil milhões", "pt-PT") == Decimal(10) ** 9
    assert scale_of("billion", "en") == Decimal(10) ** 9
    assert scale_of("T", "pt-BR") == Decimal(10) ** 12
    assert normalize_locale("pt_br") == "pt-BR" and normalize_locale("pt") == "pt-BR"


def test_brazilian_scale_word_in_pt_pt_is_ambiguous_not_a_guess():
    (fig,) = scan_figures("cerca de 5 bilhões de parâmetros", "pt-PT")
    assert fig.to_value("params") is None
    assert "ambiguous scale" in fig.warnings[0]
    assert parse_figure("5 biliões de parâmetros", "pt-PT", "params") == quantity(
        "5", "params", scale=10**12
    )


# -- cases/C11: separators in Portuguese text --------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "unit", "value"),
    [
        ("US$ 2,00 por milhão de tokens de entrada", "pt-BR", None, "2.00"),
        ("US$ 8.00 por milhão de tokens de saída", "pt-BR", None, "8.00"),
        ("janela de contexto de 1.000.000 de tokens", "pt-BR", "tokens", "1000000"),
        ("1,5 milhão de tokens", "pt-BR", "tokens", "1500000"),
        ("1\u00a0000\u00a0000 de tokens", "pt-PT", "tokens", "1000000"),
        ("1\u202f000\u202f000 de tokens", "pt-PT", "tokens", "1000000"),
        ("1 000 000 de tokens", "pt-PT", "tokens", "1000000"),
    ],
)
def test_c11_values(text, locale, unit, value):
    v = parse_figure(text, locale, unit)
    assert v is not None and v.value == Decimal(value)


def test_c11_dollar_price_with_dot_is_8_not_800_and_flagged():
    (fig,) = scan_figures("US$ 8.00 por milhão de tokens de saída", "pt-BR")
    v = fig.to_value()
    assert v == quantity("8.00", "usd_per_mtok")
    assert v.interval() == (Decimal("7.995"), Decimal("8.005"))
    assert fig.warnings == ("'8.00': nonstandard decimal separator for pt-BR",)


def test_c11_money_per_month_and_euro():
    assert parse_figure("US$ 1.250,50 por mês", "pt-BR") == quantity("1250.50", "usd_per_month")
    assert parse_figure("0,80 € por milhão de tokens", "pt-PT") == quantity("0.80", "eur_per_mtok")


def test_c11_html_cell_nbsp():
    # The reader turns &nbsp; into U+00A0 before extraction (tracker.articles.read).
    assert parse_figure("1\u00a0048\u00a0576 tokens", "pt-BR", "tokens").value == 1048576


def test_c11_unreadable_is_none_with_warning():
    (fig,) = scan_figures("janela de 1,000 tokens", "pt-BR")
    assert fig.to_value("tokens") is None
    assert fig.warnings


# -- approximation, bounds, ranges, percentages, money per unit --------------------


def test_scales_and_suffixes():
    T, B = 10**12, 10**9
    assert parse_figure("2,8 trilhões", "pt-BR", "params") == quantity("2.8", "params", scale=T)
    assert parse_figure("104 bi", "pt-BR", "params") == quantity("104", "params", scale=B)
    assert parse_figure("2.8T", "en", "params") == quantity("2.8", "params", scale=T)
    assert parse_figure("104B", "en", "params") == quantity("104", "params", scale=B)
    assert parse_figure("200 mil", "pt-BR", "tokens") == quantity("200", "tokens", scale=1000)
    assert parse_figure("1.5 million", "en", "tokens") == quantity("1.5", "tokens", scale=M)
    assert parse_figure("2 mil milhões", "pt-PT", "params") == quantity("2", "params", scale=B)


def test_digits_glued_to_names_are_not_figures():
    assert scan_figures("Kimi K3.1 Pro em WSE-3T com GPT-6 e FP16", "pt-BR") == []


@pytest.mark.parametrize(
    ("text", "locale", "approx"),
    [
        ("cerca de 3 trilhões", "pt-BR", True),
        ("aproximadamente 3T", "pt-PT", True),
        ("~3T", "en", True),
        ("about 3T", "en", True),
        ("around 3 trillion", "en", True),
        ("nearly 3T", "en", True),
        ("3T", "en", False),
    ],
)
def test_approximation_widens(text, locale, approx):
    v = parse_figure(text, locale, "params")
    assert v.approx is approx
    expected = (
        (Decimal("2e12"), Decimal("4e12")) if approx else (Decimal("2.5e12"), Decimal("3.5e12"))
    )
    assert v.interval() == expected


@pytest.mark.parametrize(
    ("text", "locale", "relation", "interval"),
    [
        ("mais de 1 milhão", "pt-BR", "at_least", (Decimal("500000"), None)),
        ("pelo menos 2 milhões", "pt-BR", "at_least", (Decimal("1500000"), None)),
        ("at least 200K", "en", "at_least", (Decimal("199500"), None)),
        ("2.000+", "pt-BR", "at_least", (Decimal("1999.5"), None)),
        ("até 1 milhão", "pt-BR", "at_most", (None, Decimal("1500000"))),
        ("up to 128K", "en", "at_most", (None, Decimal("128500"))),
    ],
)
def test_bounds(text, locale, relation, interval):
    v = parse_figure(text, locale, "tokens")
    assert v.relation == relation
    assert v.interval() == interval


def test_ranges():
    assert parse_figure("1.000 a 2.000+", "pt-BR", "tokens_per_second") == value_range(
        1000, 2000, "tokens_per_second", open_high=True
    )
    assert parse_figure("2 a 3 vezes", "pt-BR") == value_range(2, 3, "times")
    assert parse_figure("2-3x", "en") == value_range(2, 3, "times")
    assert parse_figure("entre 10 e 20 por cento", "pt-BR") == value_range(10, 20, "percent")
    assert parse_figure("1,000 to 2,000 tokens", "en", "tokens") == value_range(
        1000, 2000, "tokens"
    )


def test_number_words_via_text2num():
    assert parse_figure("cerca de duas vezes", "pt-BR") == quantity("2", "times", approx=True)
    assert parse_figure("two times", "en") == quantity("2", "times")
    assert parse_figure("um milhão de tokens", "pt-BR", "tokens") == quantity(
        "1", "tokens", scale=M
    )


def test_percentages():
    assert parse_figure("65,7%", "pt-BR") == quantity("65.7", "percent")
    assert parse_figure("64 por cento", "pt-BR") == quantity("64", "percent")
    assert parse_figure("−33%", "pt-BR") == quantity("-33", "percent")
    assert parse_figure("cerca de 33%", "pt-BR").interval() == (Decimal("29.7"), Decimal("36.3"))


@pytest.mark.parametrize(
    ("text", "locale", "value"),
    [
        ("US$ 2,00 por milhão de tokens", "pt-BR", "2.00"),
        ("$3/M", "en", "3"),
        ("$0.60 per 1M tokens", "en", "0.60"),
        ("$0.002 per 1K tokens", "en", "2.000"),
        ("R$ 0,01 por mil tokens", "pt-BR", "10"),
        ("2,00 dólares por milhão", "pt-BR", "2.00"),
        ("$0.000002 per token", "en", "2"),
    ],
)
def test_money_per_unit_normalized_to_per_million_exactly(text, locale, value):
    v = parse_figure(text, locale)
    assert v.value == Decimal(value)
    assert v.unit.endswith("_per_mtok")


def test_per_1k_keeps_exact_decimal_interval():
    v = parse_figure("$0.002 per 1K tokens", "en")
    assert v.interval() == (Decimal("1.5"), Decimal("2.5"))  # step 0.001 x 1000 per 1M
