"""Dates of promises and releases as extraction reads them, in sentences written for these
tests: a yearless month is its next occurrence unless the clause is in the past tense,
"not ... until/before March" is on or after March, "not ... in March" states no date,
"by the end of December" is a deadline on its last day, a tense does not cross "and", and
open-sourcing a model dates its weights. Each asserts the exact candidate or reading."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.dates import parse_date, scan_dates
from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

# Publication days: a yearless month or a relative date resolves against them.
NOV_20, NOV_29, NOV_30 = dt.date(2026, 11, 20), dt.date(2026, 11, 29), dt.date(2026, 11, 30)
KIMI = SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",), (), "Moonshot AI")
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
K3 = SubjectRef("kimi-k3", ("Kimi K3", "K3"), (), "Moonshot AI")


def rows(text: str, lang: str = "auto"):
    """(subject, attribute, value, claimant) of ``text`` naming Kimi K3.1 Pro or Orion-5 Max."""
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [KIMI, ORION], lang=lang, published=NOV_29)
    ]


def rows_with_qualifiers(text: str, lang: str = "en"):
    """(subject, attribute, qualifiers, value, claimant) of ``text`` naming Orion-5 Max or Kimi K3."""
    return [
        (c.subject, c.attribute, c.qualifiers, c.value.display(), c.claimant)
        for c in extract(text, [ORION, K3], lang=lang, published=NOV_30)
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
    r = parse_date(text, locale, NOV_29)
    assert (r.iso, r.relation) == (iso, relation)


def test_yearless_month_in_a_promise_is_next_year():
    assert rows("Kimi K3.1 Pro weights will be released in March, Moonshot AI said.") == [
        ("kimi-k3.1-pro", "weights_release_date", "on 2027-03", "Moonshot AI")
    ]


def test_tense_does_not_cross_and():
    text = "Kimi K3.1 Pro was announced in March and its weights ship in December"
    assert [d.reading.iso for d in scan_dates(text, "en", NOV_20)] == ["2026-03", "2026-12"]


def test_weights_not_released_before_a_month_is_on_or_after_it():
    # "after 2027-02" is "on or after 2027-03-01": the relation vocabulary has no
    # "on or after", and "after" the month before says exactly that.
    assert rows_with_qualifiers(
        "Vega Systems said the Orion-5 Max weights will not be released before March 2027.\n"
    ) == [("orion-5-max", "weights_release_date", {}, "after 2027-02", "Vega Systems")]
    assert rows_with_qualifiers(
        "Os pesos do Kimi K3 não serão liberados antes de março de 2027.\n", "pt-BR"
    ) == [("kimi-k3", "weights_release_date", {}, "after 2027-02", None)]


def test_weights_not_released_in_a_month_gives_no_date():
    assert (
        rows_with_qualifiers("The Orion-5 Max weights will not be released in March 2027.\n") == []
    )


def test_by_the_end_of_december_is_a_deadline_on_its_last_day():
    assert rows_with_qualifiers(
        "Vega Systems said the Orion-5 Max weights will be released by the end of December.\n"
    ) == [("orion-5-max", "weights_release_date", {}, "by 2026-12-31", "Vega Systems")]
    assert rows_with_qualifiers(
        "Os pesos do Kimi K3 serão liberados até o fim de dezembro.\n", "pt-BR"
    ) == [("kimi-k3", "weights_release_date", {}, "by 2026-12-31", None)]


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("Vega Systems promises Orion-5 Max open weights by mid-December.\n", "en", "by 2026-12"),
        (
            "Vega Systems said the Orion-5 Max weights land by late January 2027.\n",
            "en",
            "by 2027-01",
        ),
        (
            "Vega Systems will publish the Orion-5 Max weights by the middle of March.\n",
            "en",
            "by 2027-03",
        ),
        ("Vega Systems said the Orion-5 Max weights land in mid-January.\n", "en", "on 2027-01"),
        ("Os pesos do Kimi K3 serão liberados até meados de dezembro.\n", "pt-BR", "by 2026-12"),
        (
            "A Moonshot publica os pesos do Kimi K3 antes do início de março.\n",
            "pt-PT",
            "before 2027-03",
        ),
    ],
)
def test_a_part_of_the_month_keeps_the_relation_before_it(text, lang, value):
    got = rows_with_qualifiers(text, lang)
    assert [(r[1], r[3]) for r in got] == [("weights_release_date", value)]


def test_open_sourcing_a_model_dates_its_weights():
    """A trial: "won't open-source Nimbus 4 until March 2027" gave no candidate (the
    verb was not a weights word); an open-source model *released* on a date stays a
    release date."""
    text = (
        "Vega Systems said it won't open-source Orion-5 Max until March 2027. "
        "Kimi K3, an open-source model, was released on July 1, 2026."
    )
    assert rows_with_qualifiers(text) == [
        ("orion-5-max", "weights_release_date", {}, "after 2027-02", "Vega Systems"),
        ("kimi-k3", "release_date", {}, "on 2026-07-01", None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "A Vega Systems disponibilizou nesta quarta-feira, 12 de março de 2025, o Orion-5 Max.",
        "A Vega Systems lança o Orion-5 Max em 12 de março de 2025.",
        "Vega Systems unveiled Orion-5 Max on March 12, 2025.",
        "Vega Systems announced Orion-5 Max on March 12, 2025.",
        "Vega Systems introduced the Orion-5 Max on 12 March 2025.",
    ],
)
def test_news_verbs_of_a_release_date_it(text):
    got = [(s, a, v) for s, a, v, _ in rows(text)]
    assert got == [("orion-5-max", "release_date", "on 2025-03-12")]


def test_a_release_date_belongs_to_the_model_the_clause_says_was_released():
    text = (
        "Orion-5 Max is here. Vega Systems began in May 2024 when it launched the original "
        "Zephyr chatbot."
    )
    assert [(s, a) for s, a, _, _ in rows(text)] == [(None, "release_date")]
    text = "In May 2025 Vega Systems launched Orion-5 Max."
    assert [(s, a, v) for s, a, v, _ in rows(text)] == [
        ("orion-5-max", "release_date", "on 2025-05")
    ]


def test_portuguese_marco_without_cedilla_and_year_is_the_noun():
    assert rows("Vega Systems lança o Orion-5 Max: um Marco na empresa.", "pt") == []
    assert rows("A Vega Systems lança o Orion-5 Max em março.", "pt") == [
        ("orion-5-max", "release_date", "on 2027-03", None)
    ]


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("The weights of Kimi K3.1 Pro won't ship until Q1 2027.", "en", "after 2026-12"),
        ("Os pesos do Kimi K3.1 Pro não saem antes do primeiro trimestre de 2027.", "pt-BR", "after 2026-12"),
        ("The weights of Kimi K3.1 Pro will be released in H1 2027.", "en", "by 2027-06"),
        ("The weights of Kimi K3.1 Pro will be released in early 2027.", "en", "by 2027-04"),
        ("The weights of Kimi K3.1 Pro will be released before mid-2027.", "en", "before 2027-05"),
        ("The weights of Kimi K3.1 Pro will be released after Q3 2027.", "en", "after 2027-09"),
        ("The weights of Kimi K3.1 Pro will be released by the end of 2027.", "en", "by 2027-12"),
        ("Os pesos do Kimi K3.1 Pro serão publicados no primeiro semestre.", "pt-BR", "by 2027-06"),
        ("Os pesos do Kimi K3.1 Pro serão publicados até ao final de 2027.", "pt-PT", "by 2027-12"),
    ],
)  # fmt: skip
def test_a_quarter_half_or_part_of_a_year_is_a_window(text, lang, value):
    assert rows(text, lang) == [("kimi-k3.1-pro", "weights_release_date", value, None)]


def test_a_window_word_without_a_year_is_no_date_unless_a_quarter_or_half():
    assert scan_dates("an early model, in the end, a mid-range chip", "en", NOV_29, None) == []
    (q,) = scan_dates("in Q1", "en", NOV_29, None)
    assert (q.text, q.reading.to_value().display()) == ("Q1", "by 2027-03")


def test_part_of_a_year_in_a_past_clause_is_a_period_not_a_date():
    text = "Kimi K3.1 Pro was the leading open-source coding model in late 2025."
    assert rows(text, "en") == []


def test_dropped_a_model_is_its_release_and_a_community_is_no_weights():
    text = "When Vega dropped the Orion-5 Max line in March 2025, the open-source community took notice."
    assert rows(text, "en") == [("orion-5-max", "release_date", "on 2025-03", None)]
    # a price that dropped is a change, not a release
    assert rows("Orion-5 Max prices dropped in March 2025.", "en") == []


@pytest.mark.parametrize(
    "text, lang",
    [
        (
            "Vega Systems debuted the Orion-5 family of open models in October 2026, with "
            "Orion-5 Max as the first available release.",
            "en",
        ),
        (
            "A Vega Systems apresentou a família Orion-5 em outubro de 2026, com o Orion-5 Max "
            "como o primeiro lançamento.",
            "pt",
        ),
    ],
)
def test_a_familys_release_is_the_release_of_the_member_its_sentence_names(text, lang):
    got = [(r[0], r[1], r[2]) for r in rows(text, lang) if r[1] == "release_date"]
    assert got == [("orion-5-max", "release_date", "on 2026-10")]


def test_a_familys_release_is_no_members_when_the_member_has_its_own_year():
    text = "Vega Systems introduced the Orion-5 family in October 2026; Orion-5 Max followed in March 2027."
    got = [r for r in rows(text, "en") if r[1] == "release_date" and r[2] == "on 2026-10"]
    assert [r[0] for r in got] == [None]


def test_arrived_and_general_availability_are_releases():
    text = "O Orion-5 Max chegou em 24 de outubro de 2026."
    assert [(r[0], r[1], r[2]) for r in rows(text, "pt")] == [
        ("orion-5-max", "release_date", "on 2026-10-24")
    ]
    text = "A Vega anunciou ontem, 24 de outubro de 2026, a disponibilidade geral do Orion-5 Max."
    assert ("orion-5-max", "release_date", "on 2026-10-24") in [
        (r[0], r[1], r[2]) for r in rows(text, "pt")
    ]


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("A Vega Systems anunciou nesta terça-feira (24/11) o lançamento do Orion-5 Max.", "2026-11-24"),
        ("A Vega Systems lançou na sexta (27) o Orion-5 Max.", "2026-11-27"),
        ("A Vega Systems lançou no sábado (31/10) o Orion-5 Max.", "2026-10-31"),
    ],
)  # fmt: skip
def test_a_weekday_with_its_day_in_brackets_dates_the_release(text, iso):
    got = [(s, a, v) for s, a, v, _ in rows(text, "pt-BR")]
    assert got == [("orion-5-max", "release_date", f"on {iso}")]


def test_a_bracket_after_a_weekday_that_is_not_that_dates_weekday_is_no_date():
    # 24 November 2026 is a Tuesday, not a Wednesday; "(2)" after a weekday word alone
    # in a list is a count, and 2 November 2026 is a Monday
    assert scan_dates("nesta quarta-feira (24/11)", "pt-BR", NOV_29) == []
    assert scan_dates("quarta (2)", "pt-BR", NOV_29) == []


def test_the_announced_launch_of_an_open_model_dates_release_and_weights():
    text = (
        "On November 24, the Swiss lab Vega Systems announced the launch of Orion-5 Max, "
        "the country's first open-source language model."
    )
    assert rows(text, "en") == [
        ("orion-5-max", "release_date", "on 2026-11-24", None),
        ("orion-5-max", "weights_release_date", "on 2026-11-24", None),
    ]


DIGEST = (
    "AI digest\n\n"
    "1. Vega Systems Raises Funds\n\nDate: November 20\nSource: Wire\n\n"
    "Vega Systems closed a funding round on strong demand.\n\n"
    "2. Moonshot AI Ships Kimi K3.1 Pro\n\nDate: November 24-25\nSource: Blog, Forum\n\n"
    "Moonshot AI released Kimi K3.1 Pro, its new flagship, to all users.\n"
)


def test_a_digest_items_date_label_dates_the_release_its_story_reports():
    # the first item's story reports no release: its date is no candidate
    got = extract(DIGEST, [KIMI], lang="en", published=NOV_29, default_subject="kimi-k3.1-pro")
    assert [(c.subject, c.attribute, c.value.display()) for c in got] == [
        ("kimi-k3.1-pro", "release_date", "on 2026-11-24")
    ]


def test_a_date_label_with_no_release_in_its_story_is_no_candidate():
    text = "Kimi K3.1 Pro news\n\nDate: November 24\nSource: Blog\n\nMoonshot AI held a meetup.\n"
    assert extract(text, [KIMI], lang="en", published=NOV_29, default_subject="kimi-k3.1-pro") == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("A Moonshot AI anunciou em 24 de novembro de 2026 seu novo modelo, o Kimi K3.1 Pro.", "pt-BR"),
        ("Moonshot AI announced on November 24, 2026 its new model, Kimi K3.1 Pro.", "en"),
    ],
)  # fmt: skip
def test_a_new_model_announced_on_a_date_is_released_on_it(text, lang):
    got = [(s, a, v) for s, a, v, _ in rows(text, lang)]
    assert got == [("kimi-k3.1-pro", "release_date", "on 2026-11-24")]


def test_an_announcement_on_a_date_of_no_new_model_dates_nothing():
    text = "Moonshot AI announced on November 24, 2026 a partnership around Kimi K3.1 Pro."
    assert rows(text, "en") == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "Em 3 de novembro de 2026, a Vega Systems apresentou a mais recente geração "
            "de seus modelos, o Orion-5 Max.",
            "pt-BR",
        ),
        (
            "On 3 November 2026, Vega Systems presented its latest generation of models, "
            "Orion-5 Max.",
            "en",
        ),
    ],
)
def test_a_date_opening_a_sentence_that_presents_a_new_generation_is_its_release(text, lang):
    assert rows(text, lang) == [("orion-5-max", "release_date", "on 2026-11-03", None)]


def test_a_participle_opening_a_sentence_dates_the_model_after_it():
    text = "Anunciado em 3 de novembro de 2026, o Orion-5 Max marca um avanço para a Vega Systems."
    assert rows(text, "pt-BR") == [("orion-5-max", "release_date", "on 2026-11-03", None)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (  # 26 November 2026 is a Thursday: the day alone between commas after the weekday
            "A Vega Systems anunciou nesta quinta-feira, 26, o lançamento do Orion-5 Max.",
            [("orion-5-max", "release_date", "on 2026-11-26", "Vega Systems")],
        ),
        (  # the 27th is a Friday: the weekday and the day disagree, no date
            "A Vega Systems anunciou nesta quinta-feira, 27, o lançamento do Orion-5 Max.",
            [],
        ),
    ],
)
def test_a_weekday_with_its_day_between_commas_is_that_date(text, found):
    assert rows(text, "pt-BR") == found


def test_a_weekdays_bracket_may_hold_words_after_the_day():
    text = (
        "A Vega Systems lançou na manhã desta quinta-feira (26, madrugada de sexta em Lisboa) "
        "o Orion-5 Max."
    )
    assert rows(text, "pt-BR") == [("orion-5-max", "release_date", "on 2026-11-26", None)]


def test_european_portuguese_libertar_is_a_release_word():
    text = "O Orion-5 Max foi libertado em 3 de novembro de 2026 pela Vega Systems."
    assert rows(text, "pt-PT") == [("orion-5-max", "release_date", "on 2026-11-03", None)]


def test_an_announcement_participle_opening_the_sentence_dates_the_release():
    text = (
        "Announced last night, March 2, 2026, the Orion-5 Max code is now on Hugging Face, "
        "with open weights."
    )
    got = [(c.attribute, c.value.value) for c in extract(text, [ORION], published=NOV_20)]
    assert got == [
        ("release_date", "2026-03-02"),
        ("weights_release_date", "2026-03-02"),
    ]


def test_today_and_a_lab_announcing_the_model_by_name_is_its_release_day():
    text = "Today, Vega Systems announced Orion-5 Max, a reasoning model."
    got = [(c.attribute, c.value.value) for c in extract(text, [ORION], published=NOV_20)]
    assert got == [("release_date", "2026-11-20")]


def test_today_and_an_announcement_of_a_plan_dates_no_release():
    text = "Today, Vega Systems announced that Orion-5 Max will ship in June."
    got = [(c.attribute, c.value.value) for c in extract(text, [ORION], published=NOV_20)]
    assert ("release_date", "2026-11-20") not in got


def test_a_part_of_the_month_is_in_the_quoted_span():
    text = "Vega Systems promises Orion-5 Max open weights by mid-December.\n"
    (c,) = extract(text, [ORION], lang="en", published=NOV_30)
    assert (c.text, c.value.display()) == ("mid-December", "by 2026-12")


def test_announcing_on_a_weekday_dates_the_plan_not_a_release():
    text = "Vega Systems announced Monday that the Orion-5 Max weights land on 12 December 2026.\n"
    assert [(r[1], r[3]) for r in rows_with_qualifiers(text)] == [
        ("weights_release_date", "on 2026-12-12")
    ]
