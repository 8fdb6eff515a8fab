"""Dates in pt and en with their relation; cases/C09 (pt-BR, America/Sao_Paulo)."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.dates import parse_date, scan_dates
from claims.values.value import date_value

SP = "America/Sao_Paulo"
FETCHED = dt.date(2026, 11, 29)
SEED_DAY = dt.date(2026, 10, 27)


def _aware(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=dt.timezone(dt.timedelta(hours=-3)))


def test_c09_1_updated_day_first_with_time():
    r = parse_date("Atualizado em 06/02/2026 16:22", "pt-BR", FETCHED, SP)
    assert r.iso == "2026-02-06"
    assert r.moment == _aware(2026, 2, 6, 16, 22)
    assert r.moment.isoformat() == "2026-02-06T16:22:00-03:00"


def test_c09_2_published_with_as():
    r = parse_date("Publicado em 10/03/2026 às 09:15", "pt-BR", FETCHED, SP)
    assert r.moment.isoformat() == "2026-03-10T09:15:00-03:00"


def test_c09_3_numeric_date_is_day_month():
    r = parse_date("O novo preço vale a partir de 01/12/2026.", "pt-BR", FETCHED, SP)
    assert (r.iso, r.precision, r.moment) == ("2026-12-01", "day", None)


def test_c09_4_iso_is_never_reordered():
    assert parse_date("Lançado em 2026-10-05", "pt-BR", FETCHED).iso == "2026-10-05"
    assert parse_date("Released 2026-10-05", "en", FETCHED).iso == "2026-10-05"


def test_c09_5_month_slash_two_digit_year():
    r = parse_date("Tabela válida desde abr/26", "pt-BR", FETCHED)
    assert (r.iso, r.precision) == ("2026-04", "month")


def test_c09_6_long_form():
    r = parse_date("A empresa anunciou o modelo em 5 de outubro de 2026", "pt-BR", FETCHED)
    assert r.to_value() == date_value("2026-10-05", "on")


def test_c09_7_relative_from_fetch_time_not_now():
    r = parse_date("Publicado há 3 dias", "pt-BR", FETCHED)
    assert (r.iso, r.precision) == ("2026-11-26", "day")


@pytest.mark.parametrize(
    ("text", "locale", "iso", "relation"),
    [
        ("pesos prometidos para antes de 4 de novembro", "pt-BR", "2026-11-04", "before"),
        ("os pesos saem em 4 de novembro de 2026", "pt-BR", "2026-11-04", "on"),
        ("até 4 de novembro", "pt-BR", "2026-11-04", "by"),
        ("até ao dia 4 de novembro", "pt-PT", "2026-11-04", "by"),
        ("após 4 de novembro", "pt-BR", "2026-11-04", "after"),
        ("no fim do ano", "pt-BR", "2026-12-31", "by"),
        ("até o final do ano", "pt-BR", "2026-12-31", "by"),
        ("em duas semanas", "pt-BR", "2026-11-10", "on"),
        ("weights before November 4", "en", "2026-11-04", "before"),
        ("by Nov. 4, 2026", "en", "2026-11-04", "by"),
        ("on 4 November 2026", "en", "2026-11-04", "on"),
        ("after November 4", "en", "2026-11-04", "after"),
        ("in two weeks", "en", "2026-11-10", "on"),
        ("3 days ago", "en", "2026-10-24", "on"),
        ("by the end of the year", "en", "2026-12-31", "by"),
    ],
)
def test_relations_and_resolution_against_published_date(text, locale, iso, relation):
    r = parse_date(text, locale, SEED_DAY)
    assert (r.iso, r.relation) == (iso, relation)


def test_missing_year_near_new_year_looks_ahead():
    december = dt.date(2026, 12, 20)
    assert parse_date("antes de 4 de janeiro", "pt-BR", december).iso == "2027-01-04"
    assert parse_date("em 23 de outubro", "pt-BR", december).iso == "2026-10-23"


def test_numeric_order_follows_cldr_locale():
    assert parse_date("06/02/2026", "en", FETCHED).iso == "2026-06-02"  # en (US): M/d/y
    assert parse_date("06/02/2026", "en-GB", FETCHED).iso == "2026-02-06"
    assert parse_date("06/02/2026", "pt-PT", FETCHED).iso == "2026-02-06"


def test_month_only_and_words_that_are_not_dates():
    assert parse_date("em novembro", "pt-BR", SEED_DAY).iso == "2026-11"
    assert parse_date("it may rain", "en", SEED_DAY) is None
    assert scan_dates("um ambiente 24 por 7 e 3 dias de teste", "pt-BR", SEED_DAY) == []


def test_relative_dates_need_a_published_date():
    assert parse_date("há 3 dias", "pt-BR", None) is None
    assert parse_date("4 de novembro", "pt-BR", None) is None
    assert parse_date("4 de novembro de 2026", "pt-BR", None).iso == "2026-11-04"


def test_full_stop_after_month_is_not_part_of_the_span():
    (span,) = scan_dates("Os pesos chegam em 4 de novembro.", "pt-BR", SEED_DAY)
    assert span.text == "4 de novembro"


@pytest.mark.parametrize(
    ("text", "locale", "iso", "relation"),
    [
        # The end of a named month is a deadline on its last day (year from publication).
        ("released by the end of December", "en", "2026-12-31", "by"),
        ("before the end of February 2028", "en", "2028-02-29", "before"),
        ("até o fim de dezembro", "pt-BR", "2026-12-31", "by"),
        ("até ao final de março de 2027", "pt-PT", "2027-03-31", "by"),
        # More than six months before publication: next year's.
        ("by the end of March", "en", "2027-03-31", "by"),
    ],
)
def test_end_of_a_named_month_is_a_deadline(text, locale, iso, relation):
    r = parse_date(text, locale, SEED_DAY)
    assert (r.iso, r.precision, r.relation, r.denied) == (iso, "day", relation, False)


@pytest.mark.parametrize(
    ("text", "locale", "iso", "relation"),
    [
        # Not before D = on or after D = after the month (day) before D.
        ("the weights will not be released before March 2027", "en", "2027-02", "after"),
        ("os pesos não serão liberados antes de março de 2027", "pt-BR", "2027-02", "after"),
        ("weights won't ship until March 3, 2027", "en", "2027-03-02", "after"),
        ("released no earlier than January 2027", "en", "2026-12", "after"),
        # A dotted model name between the negation and the date (a trial read this as a
        # promise, `by 2027-03`: the word pattern stopped at "K3.1").
        ("will not release the Nova K3.1 Pro weights until March 2027", "en", "2027-02", "after"),
        (
            "os pesos do Nova K3.1 Pro não sairão antes de março de 2027",
            "pt-BR",
            "2027-02",
            "after",
        ),
        ("will not be released by the end of December", "en", "2026-12-31", "after"),
        ("os pesos não sairão depois de janeiro de 2027", "pt-BR", "2027-01", "by"),
        # A negation that governs something else leaves the date alone.
        (
            "Moonshot is not the only lab planning to release open weights before March 2027",
            "en",
            "2027-03",
            "before",
        ),
        ("Kimi K3.1 Pro is not small.Weights ship before March 2027", "en", "2027-03", "before"),
        (
            "o laboratório não só vai liberar os pesos antes de março de 2027",
            "pt-BR",
            "2027-03",
            "before",
        ),
        ("is not open source and was released on July 1, 2026", "en", "2026-07-01", "on"),
        # Doubt is not denial: the date reads as written.
        ("not clear whether the weights come before March 2027", "en", "2027-03", "before"),
    ],
)
def test_negated_relation_becomes_its_complement(text, locale, iso, relation):
    r = parse_date(text, locale, SEED_DAY)
    assert (r.iso, r.relation, r.denied) == (iso, relation, False)


def test_negation_without_a_complement_denies_the_date():
    # "Not in March" and pt "não ... até" (not by, or not until?) state no date.
    assert parse_date("will not be released in March 2027", "en", SEED_DAY).denied
    assert parse_date("não serão liberados até março de 2027", "pt-BR", SEED_DAY).denied
    assert parse_date(
        "não vai liberar os pesos do Nova K3.1 Pro até março de 2027", "pt-BR", SEED_DAY
    ).denied
    assert not parse_date("serão liberados até março de 2027", "pt-BR", SEED_DAY).denied
