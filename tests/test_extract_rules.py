"""Smaller extraction rules: conditionals, licences, ranks, dates in context, language
detection, the claims/ import boundary."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from claims.extract.extractor import extract
from claims.extract.language import detect_locale
from claims.subjects.references import SubjectIndex, SubjectRef
from claims.values.value import date_value, quantity, text_value

PRO = SubjectRef(
    "kimi-k3.1-pro", ("Kimi K3.1 Pro", "K3.1 Pro"), ("Standard", "Highspeed"), "Moonshot AI"
)
K3 = SubjectRef("kimi-k3", ("Kimi K3", "K3"))
SUBJECTS = [PRO, K3]
DAY = dt.date(2026, 10, 27)


def one(text: str, lang: str = "pt-BR"):
    return [
        (c.subject, c.attribute, c.value) for c in extract(text, SUBJECTS, lang=lang, published=DAY)
    ]


def test_names_do_not_match_inside_longer_versions():
    idx = SubjectIndex(SUBJECTS)
    assert [(m.slug, m.name) for m in idx.mentions("Kimi K3.1 Pro e o K3, não o K3.5")] == [
        ("kimi-k3.1-pro", "Kimi K3.1 Pro"),
        ("kimi-k3", "K3"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Se o Kimi K3.1 Pro usar 2 bits, a qualidade cai.",
        "If Kimi K3.1 Pro ships 2-bit weights, quality drops.",
        "O Kimi K3.1 Pro terá 2 milhões de tokens de contexto?",
    ],
)
def test_conditionals_and_questions_state_nothing(text):
    assert one(text, "en" if text.startswith("If") else "pt-BR") == []


def test_licence_and_its_denial():
    assert one("O Kimi K3.1 Pro sai sob licença Apache 2.0.") == [
        ("kimi-k3.1-pro", "license", text_value("apache-2.0"))
    ]
    assert one("Ainda não há licença MIT para o Kimi K3.1 Pro.") == []


@pytest.mark.parametrize(
    ("text", "lang", "rank"),
    [
        ("O Kimi K3.1 Pro ficou em 3º lugar no Code Arena WebDev.", "pt-BR", 3),
        ("O Kimi K3.1 Pro ficou em oitavo no Code Arena WebDev.", "pt-BR", 8),
        ("Kimi K3.1 Pro ranked #2 on the Code Arena WebDev leaderboard.", "en", 2),
        ("Kimi K3.1 Pro placed fifth on the Code Arena WebDev.", "en", 5),
    ],
)
def test_ranks_need_a_leaderboard(text, lang, rank):
    (c,) = extract(text, SUBJECTS, lang=lang, published=DAY)
    assert (c.subject, c.attribute, c.qualifiers, c.value) == (
        "kimi-k3.1-pro",
        "leaderboard_rank",
        {"leaderboard": "Code Arena WebDev"},
        quantity(str(rank), "rank"),
    )


def test_ordinals_without_ranking_words_are_not_ranks():
    assert one("O terceiro levantamento independente citou o Kimi K3.1 Pro.") == []


def test_release_and_weights_dates_in_context():
    assert one(
        "O Kimi K3.1 Pro foi lançado em 23 de outubro e os pesos saem até o fim do ano."
    ) == [
        ("kimi-k3.1-pro", "release_date", date_value("2026-10-23", "on")),
        ("kimi-k3.1-pro", "weights_release_date", date_value("2026-12-31", "by")),
    ]
    assert one("O Kimi K3.1 Pro foi discutido num evento em 26 de outubro.") == []


def test_earlier_model_figures_go_to_it_and_comparisons_do_not_steal():
    assert one("O preço do Kimi K3.1 Pro ficou 33% abaixo do K3.") == [
        ("kimi-k3.1-pro", "price_change_pct", quantity("-33", "percent"))
    ]
    assert one("O Kimi K3 tinha 1 trilhão de parâmetros.") == [
        ("kimi-k3", "total_params", quantity("1", "params", scale=10**12))
    ]


def test_unreadable_figures_are_reported_not_guessed():
    notes: list[str] = []
    got = extract(
        "O Kimi K3.1 Pro tem janela de 1,000 tokens.", SUBJECTS, lang="pt-BR", warnings=notes
    )
    assert got == []
    assert notes == ["at 30: '1,000': ambiguous in pt-BR (thousands or decimals?)"]


def test_language_detection():
    assert detect_locale("O modelo tem 2,8 trilhões de parâmetros e é da Moonshot.") == "pt-BR"
    assert (
        detect_locale("O modelo tem 2,8 biliões de parâmetros e a equipa diz que é o facto.")
        == "pt-PT"
    )
    assert detect_locale("The model has 2.8T parameters and is from Moonshot.") == "en"


def test_claims_core_imports_no_io_libraries():
    forbidden = {"tracker", "httpx", "bs4", "apscheduler", "jinja2"}
    root = Path(__file__).resolve().parent.parent / "claims"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"


def test_hyphenated_units_suffix_context_and_clause_variant():
    text = (
        "Kimi K3.1 Pro is a 2.8T-parameter MoE with a 128K context window and 104B-parameter "
        "activation. It offers 256K tokens of context in the Highspeed variant. Kimi K3 had 1T "
        "parameters."
    )
    got = extract(text, SUBJECTS, lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.qualifiers, c.value) for c in got] == [
        ("kimi-k3.1-pro", "total_params", {}, quantity("2.8", "params", scale=10**12)),
        ("kimi-k3.1-pro", "context_window", {}, quantity("128", "tokens", scale=1000)),
        ("kimi-k3.1-pro", "active_params", {}, quantity("104", "params", scale=10**9)),
        (
            "kimi-k3.1-pro",
            "context_window",
            {"variant": "Highspeed"},
            quantity("256", "tokens", scale=1000),
        ),
        ("kimi-k3", "total_params", {}, quantity("1", "params", scale=10**12)),
    ]


NOVA = SubjectRef("nova-k2.5-max", ("Nova K2.5 Max",), (), "Orbital AI")
ORCA = SubjectRef("orca-7-thinking", ("Orca 7 Thinking",), (), "Deepwater Labs")


def nova_rows(text: str):
    """(subject, attribute, value, claimant) of ``text`` naming Nova K2.5 Max or Orca 7
    Thinking, published 2026-11-20."""
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [NOVA, ORCA], published=dt.date(2026, 11, 20))
    ]


def test_short_english_statements_are_english():
    assert detect_locale("Kimi K3.1 Pro weights will not be released until March.") == "en"
    assert detect_locale("Kimi K3.1 Pro terá os pesos liberados em março.") == "pt-BR"


@pytest.mark.parametrize(
    "text",
    [
        "Orbital AI will publish the Nova K2.5 Max weights in December if regulators approve.",
        "Orbital AI will publish the Nova K2.5 Max weights in December, unless regulators object.",
        "A Orbital AI vai publicar os pesos do Nova K2.5 Max em dezembro, desde que o regulador aprove.",
    ],
)
def test_a_trailing_condition_makes_the_promise_hypothetical(text):
    assert nova_rows(text) == []


def test_the_same_promise_without_a_condition_is_kept():
    assert nova_rows("Orbital AI will publish the Nova K2.5 Max weights in December.") == [
        ("nova-k2.5-max", "weights_release_date", "on 2026-12", "Orbital AI")
    ]


def test_a_bare_pt_reads_the_variant_the_words_show():
    from claims.extract.language import article_locale

    pt_pt = "A equipa diz que o modelo tem 1 bilião de parâmetros e os utilizadores gostam."
    pt_br = "O time diz que o modelo tem 1 bilhão de parâmetros e os usuários gostam."
    assert article_locale(pt_pt, "pt") == "pt-PT"
    assert article_locale(pt_br, "pt") == "pt-BR"
    assert article_locale(pt_pt, "pt-BR") == "pt-BR"  # a stated region wins
    from claims.extract.extractor import extract
    from claims.subjects.references import SubjectRef

    s = SubjectRef("nova-2", ("Nova 2",))
    text = "O Nova 2 tem 1 bilião de parâmetros, diz a equipa aos utilizadores."
    (c,) = extract(text, [s], lang="pt")
    assert (c.attribute, c.value.value) == ("total_params", 10**12)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ('"We think 12B is the sweet spot," Moonshot AI said of Kimi K3.', "en"),
        ("Kimi K3: 12 billion parameters is plenty for most tasks, the lab says.", "en"),
        ('"Achamos que 12B é o ponto ideal", disse a Moonshot AI sobre o Kimi K3.', "pt-BR"),
    ],
)
def test_a_size_judged_as_a_class_states_no_parameter_count(text, lang):
    assert one(text, lang) == []


def test_a_size_stated_as_the_count_is_still_read():
    assert one("For Kimi K3, 12B is the total parameter count.", "en") == [
        ("kimi-k3", "total_params", quantity("12", "params", scale=10**9))
    ]
    assert one("Kimi K3 has 12B parameters.", "en") == [
        ("kimi-k3", "total_params", quantity("12", "params", scale=10**9))
    ]


ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")
CIRRUS = SubjectRef("cirrus-12b", ("Cirrus 12B",), (), "Nimbus Labs")


def _shown(text: str, subject: SubjectRef, lang: str):
    return [
        (c.subject, c.attribute, c.value.display())
        for c in extract(text, [subject], lang=lang, published=DAY, default_subject=subject.slug)
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "A Vega Systems lançou o Orion-5 Max, um novo modelo generativo com 300 bilhões "
            "de parâmetros.",
            "pt-BR",
        ),
        (
            "Vega Systems released Orion-5 Max, an interactive model with 300 billion parameters.",
            "en",
        ),
    ],
)
def test_an_active_stem_inside_a_word_makes_no_active_count(text, lang):
    # "ativ" of "generativo", "activ" of "interactive": stems count at a word's start only
    assert _shown(text, ORION, lang) == [("orion-5-max", "total_params", "300B params")]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("O Cirrus 12B cabe numa GPU, partindo de um professor de 16B por destilação.", "pt-BR"),
        ("Cirrus 12B was distilled from a 16B teacher and fits on one GPU.", "en"),
    ],
)
def test_a_distillation_teachers_size_is_not_the_students(text, lang):
    assert _shown(text, CIRRUS, lang) == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("O Orion-5 Max pode reduzir custos de inferência em até 40% com o modo rápido.", "pt-BR"),
        ("Orion-5 Max cuts inference costs by up to 40% in its fast mode.", "en"),
    ],
)
def test_a_cut_in_inference_costs_is_no_price_change(text, lang):
    assert _shown(text, ORION, lang) == []
