"""Portuguese forms of claims, Brazilian and European, in sentences we wrote: comparisons
with other models, prices written unit first, places said in words, weekday dates, open
weights said as opening the code, dates fronted before another lab's clause, European
number words and euro prices."""

from __future__ import annotations

import datetime as dt

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef

ZETA = SubjectRef("zeta-1", ("Zeta-1", "Zeta 1"), (), "Acme")
DAY = dt.date(2025, 3, 10)


def _rows(text, published=DAY, lang="pt", warnings=None):
    """(attribute, value shown, qualifiers) of the candidates given to Zeta-1."""
    out = extract(
        text, [ZETA], lang=lang, published=published, default_subject="zeta-1", warnings=warnings
    )
    return [(c.attribute, c.value.display(), c.qualifiers) for c in out if c.subject == "zeta-1"]


def _attributes(text, published=DAY, lang="pt"):
    return [a for a, _, _ in _rows(text, published, lang)]


def test_a_percent_against_another_model_is_no_price_change():
    assert _attributes("O Zeta-1 tem custo 97% menor que o GPT-4.") == []
    assert _attributes("O custo do Zeta-1 será 97,4% menor do que o do GPT-4.") == []
    assert _attributes("Zeta-1 is 97% cheaper than GPT-4.", lang="en") == []
    # against its own earlier price it is the change of its price
    assert _rows("O preço do Zeta-1 é 50% menor que o anterior.") == [
        ("price_change_pct", "\u221250%", {})
    ]


def test_a_cost_factor_against_another_model_is_not_a_price():
    assert _attributes("O Zeta-1 é 390 vezes mais barato do que o GPT-4.") == []


def test_a_price_written_after_its_unit():
    text = (
        "Para comparar: custo por 1 milhão de tokens de entrada US$ 0,07 e custo por "
        "1 milhão de tokens de saída US$ 0,27."
    )
    assert [(a, v) for a, v, _ in _rows(text)] == [
        ("price_input_usd_per_mtok", "$0.07 per 1M tokens"),
        ("price_output_usd_per_mtok", "$0.27 per 1M tokens"),
    ]
    assert _attributes("Preço por milhão de tokens de entrada do Zeta-1: US$ 0,07.") == [
        "price_input_usd_per_mtok"
    ]


def test_first_place_said_in_words_and_others_places():
    text = (
        "Segundo a LMArena, os melhores modelos abertos são estes: o Zeta-1 (Acme) lidera a "
        "tabela; o DeepSeek R1 ficou em segundo lugar; o Qwen 3 ocupa o terceiro lugar."
    )
    assert _rows(text) == [("leaderboard_rank", "#1", {"leaderboard": "LMArena"})]
    assert _rows("Na LMArena, o Zeta-1 ocupa o terceiro lugar.") == [
        ("leaderboard_rank", "#3", {"leaderboard": "LMArena"})
    ]


def test_a_family_name_before_a_short_version_is_another_model():
    text = "O Zeta-1 chegou há pouco. O DeepSeek R1 tem 671 bilhões de parâmetros."
    assert _attributes(text) == []


def test_an_example_aside_keeps_the_name_before_it_the_subject():
    text = (
        "O Zeta-1 tem poucos parâmetros; o GPT-3.5, por exemplo, conta com 175 bilhões "
        "de parâmetros."
    )
    assert _attributes(text) == []


def test_a_fronted_weekday_date_of_a_new_version():
    text = (
        "Nessa terça-feira (12), a Acme anunciou uma nova versão do modelo de linguagem "
        "chamado Zeta-1."
    )
    assert _rows(text, dt.date(2023, 12, 13)) == [("release_date", "on 2023-12-12", {})]
    text = "Nesta segunda-feira (11), a Acme apresentou o seu novo modelo, o Zeta-1."
    assert _rows(text, dt.date(2023, 12, 13)) == [("release_date", "on 2023-12-11", {})]


def test_opening_the_code_and_public_versions_are_the_weights():
    text = "Em 23 de agosto, a Acme disse que abriu o código do Zeta-1."
    assert _rows(text, dt.date(2025, 8, 25)) == [("weights_release_date", "on 2025-08-23", {})]
    text = "As versões públicas do Zeta-1 serão libertadas em setembro de 2025."
    assert _attributes(text, dt.date(2025, 8, 25)) == ["weights_release_date"]


def test_weights_due_in_two_weeks_count_from_the_article():
    text = "A Acme lançou o Zeta-1 hoje; os pesos chegam dentro de duas semanas."
    rows = _rows(text)
    assert ("weights_release_date", "2025-03-24", {}) in [(a, v[-10:], q) for a, v, q in rows]


def test_a_fronted_date_of_another_labs_clause_is_not_the_subjects():
    text = (
        "O Zeta-1 saiu ontem. No começo de agosto, a OpenAI liberou os seus primeiros modelos "
        "abertos desde o GPT-2."
    )
    assert _attributes(text, dt.date(2025, 8, 25)) == []
    assert _rows("Em 5 de agosto, a Acme lançou o Zeta-1.", dt.date(2025, 8, 25)) == [
        ("release_date", "on 2025-08-05", {})
    ]


def test_models_released_by_many_have_no_one_date():
    text = (
        "No primeiro trimestre de 2025, vimos que as LLMs estavam sendo lançadas por diversas "
        "organizações. Em 18 de abril de 2025, a Acme lançou o Zeta-1."
    )
    assert _rows(text, dt.date(2025, 5, 10)) == [("release_date", "on 2025-04-18", {})]


def test_european_long_scale_and_euro_prices():
    assert _rows("O Zeta-1 tem 400 mil milhões de parâmetros.", lang="pt-PT") == [
        ("total_params", "400B params", {})
    ]
    assert _rows("O Zeta-1 tem 1,5 biliões de parâmetros.", lang="pt-PT") == [
        ("total_params", "1.5T params", {})
    ]
    warnings: list[str] = []
    text = "O Zeta-1 custa 2 € por milhão de tokens de entrada."
    assert _rows(text, lang="pt-PT", warnings=warnings) == []
    assert any("eur" in w for w in warnings)


def test_weekdays_named_without_their_day():
    wednesday = dt.date(2025, 8, 13)
    assert _rows("O Zeta-1 foi lançado na última sexta-feira.", wednesday) == [
        ("release_date", "on 2025-08-08", {})
    ]
    assert _rows("A Acme lançou o Zeta-1 na quinta-feira passada.", wednesday) == [
        ("release_date", "on 2025-08-07", {})
    ]
    assert _rows("Nesta quarta-feira, a Acme lançou o Zeta-1.", wednesday) == [
        ("release_date", "on 2025-08-13", {})
    ]
    assert _rows("O Zeta-1 será lançado nesta sexta-feira.", wednesday) == [
        ("release_date", "on 2025-08-15", {})
    ]
    # "segunda" alone is also an ordinal: no date
    assert _attributes("Após esta segunda fase, o Zeta-1 será lançado.", wednesday) == []


def test_today_after_the_release_verb():
    assert _rows("A Acme lançou hoje o Zeta-1.", dt.date(2025, 8, 13)) == [
        ("release_date", "on 2025-08-13", {})
    ]
    assert _attributes("O modelo mais avançado lançado até hoje é o Zeta-1.") == []


def test_a_factor_against_last_year_is_no_price_factor():
    text = (
        "Cada tarefa do Zeta-1 custou 11,65 dólares. Trata-se de uma redução de custo na "
        "ordem das 390 vezes face ao ano anterior."
    )
    assert _attributes(text) == []


def test_two_prices_sharing_a_unit_after_them():
    for text in (
        "O Zeta-1 custa US$ 3 (entrada) e US$ 15 (saída) por milhão de tokens.",
        "Os preços do Zeta-1 são de US$ 3 para entrada e US$ 15 para saída, por milhão de tokens.",
        "O Zeta-1 tem preço de entrada de US$ 3 e de saída de US$ 15 por milhão de tokens.",
    ):
        assert [(a, v) for a, v, _ in _rows(text)] == [
            ("price_input_usd_per_mtok", "$3.00 per 1M tokens"),
            ("price_output_usd_per_mtok", "$15.00 per 1M tokens"),
        ], text


def test_por_cada_milhao():
    text = "O Zeta-1 custa 0,15 dólares por cada milhão de tokens de entrada."
    assert [(a, v) for a, v, _ in _rows(text, lang="pt-PT")] == [
        ("price_input_usd_per_mtok", "$0.15 per 1M tokens")
    ]


def test_first_place_with_a_score_is_the_score():
    text = "Zeta-1 tops the SWE-bench leaderboard at 72.5%."
    assert [a for a, _, _ in _rows(text, lang="en")] == ["benchmark_score"]


def test_a_thousand_millions_without_a_number_before_it():
    assert _rows("O Zeta-1 é um modelo de mil milhões de parâmetros.", lang="pt-PT") == [
        ("total_params", "1B params", {})
    ]
