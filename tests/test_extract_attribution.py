"""Which model a figure belongs to when its sentence says "the model" or "it", in
sentences written for these tests: the model named in the sentence before (even in a
statement the paragraph rule skips), none after a sentence naming two models or across a
paragraph break, the model a "the model" sentence itself names; and the extract command's
warning for a figure naming no model. Each asserts the exact candidates."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from helpers_extract import variant_rows
from typer.testing import CliRunner

from claims.extract.extractor import extract
from claims.extract.name_sizes import contradicts_size, name_size
from claims.subjects.references import SubjectRef
from tracker.cli.main import app

DAY = dt.date(2026, 11, 29)
KIMI = SubjectRef("kimi-k3.1-pro", ("Kimi K3.1 Pro",), (), "Moonshot AI")
ORION = SubjectRef("orion-5-max", ("Orion-5 Max",), (), "Vega Systems")


def rows(text: str, lang: str = "auto", warnings: list[str] | None = None):
    return [
        (c.subject, c.attribute, c.value.display(), c.claimant)
        for c in extract(text, [KIMI, ORION], lang=lang, published=DAY, warnings=warnings)
    ]


SAID = "Moonshot AI said it will not release the weights of Kimi K3.1 Pro until March 2027."
PT_SAID = (
    "A Moonshot AI disse que não vai liberar os pesos do Kimi K3.1 Pro antes de março de 2027."
)
WEIGHTS_BY_MOONSHOT = ("kimi-k3.1-pro", "weights_release_date", "after 2027-02", "Moonshot AI")


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (SAID + " The model has 2.8 trillion parameters.", "en"),
        (SAID + " It has 2.8 trillion parameters.", "en"),
        (PT_SAID + " O modelo tem 2,8 trilhões de parâmetros.", "pt-BR"),
        (PT_SAID + " Ele tem 2,8 trilhões de parâmetros.", "pt-BR"),
    ],
)
def test_the_model_in_the_next_sentence_keeps_the_subject(text, lang):
    # The subject was named in Moonshot AI's statement, which the paragraph rule skips.
    warnings: list[str] = []
    assert rows(text, lang, warnings) == [
        WEIGHTS_BY_MOONSHOT,
        ("kimi-k3.1-pro", "total_params", "2.8T params", None),
    ]
    assert warnings == []


def test_the_model_after_a_sentence_naming_two_models_stays_unattributed():
    text = "Moonshot AI said Kimi K3.1 Pro is faster than Orion-5 Max. The model has 2.8 trillion parameters."
    got = extract(text, [KIMI, ORION], lang="en", published=DAY)
    assert [(c.subject, c.attribute, c.warnings) for c in got] == [
        (None, "total_params", ["no model named in this sentence"])
    ]


def test_the_model_opening_a_paragraph_does_not_reach_back():
    text = "Kimi K3.1 Pro ships today, Moonshot AI said.\n\nThe model has 2.8 trillion parameters."
    got = extract(text, [KIMI], lang="en", published=DAY)
    assert [(c.subject, c.how, c.warnings) for c in got] == [
        (None, "none", ["no model named in this sentence"])
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Kimi K3.1 Pro ships today.\nThis model has 2.8 trillion parameters.", "en"),
        (
            "O primeiro modelo, Kimi K3.1 Pro, foi lançado hoje.\n"
            "Este modelo denso de 2,8 biliões de parâmetros é rápido.",
            "pt-PT",
        ),
    ],
)
def test_this_model_on_the_next_line_points_back_at_the_model_named(text, lang):
    # Page text often puts each sentence on its own line; "This model" is the one just named.
    assert [(s, a, v) for s, a, v, _ in rows(text, lang)] == [
        ("kimi-k3.1-pro", "total_params", "2.8T params")
    ]


def test_this_model_after_a_blank_line_does_not_reach_back():
    text = "Kimi K3.1 Pro ships today.\n\nThis model has 2.8 trillion parameters."
    assert [s for s, *_ in rows(text, "en")] == [None]


def test_the_model_sentence_that_names_a_model_keeps_it():
    text = "Kimi K3 is old. The model that replaced it, Kimi K3.1 Pro, has 2.8 trillion parameters."
    assert [(s, a) for s, a, *_ in variant_rows(text)] == [("kimi-k3.1-pro", "total_params")]


def test_extract_command_does_not_ask_to_add_a_known_model(tmp_path):
    subjects = str(Path(__file__).parent / "data" / "subjects.toml")
    f = tmp_path / "a.txt"
    f.write_text("Moonshot AI said the model has 2.8 trillion parameters.\n", encoding="utf-8")
    r = CliRunner().invoke(
        app,
        ["claims", "extract", str(f), "--lang", "en", "--published", "2026-11-29"]
        + ["--subjects", subjects, "--json"],
    )
    assert (r.exit_code, r.stderr) == (
        0,
        "warning: 1 of 1 candidate has no subject (—): no model named in their sentence, "
        "and `claims import` skips them; pass --subject SLUG (a subject of "
        f"{subjects}) if the article is about one model\n",
    )


CIRRUS = SubjectRef("cirrus-12b", ("Cirrus 12B",), (), "Nimbus Labs")


@pytest.mark.parametrize(
    "text",
    [
        "Nimbus Labs released Cirrus 12B on Monday, a model with 12.2 billion parameters.",
        "Nimbus Labs released Cirrus 12B yesterday, a model with 12.2 billion parameters.",
        "Nimbus Labs released Cirrus 12B this week, a model with 12.2 billion parameters.",
        "Nimbus Labs released Cirrus 12B in 2026, a model with 12.2 billion parameters.",
        "A Nimbus Labs lançou o Cirrus 12B na segunda-feira, um modelo com 12,2 bilhões de parâmetros.",
        "A Nimbus Labs lançou o Cirrus 12B ontem, um modelo com 12,2 bilhões de parâmetros.",
        "A Nimbus Labs lançou o Cirrus 12B nesta semana, um modelo com 12,2 bilhões de parâmetros.",
    ],
)
def test_time_phrase_between_subject_and_apposition_keeps_the_subject(text):
    found = [
        (c.subject, c.attribute, c.value.display(), c.how)
        for c in extract(text, [CIRRUS], published=DAY)
    ]
    assert found == [("cirrus-12b", "total_params", "12.2B params", "apposition")]


def test_time_phrase_after_another_model_gives_that_model():
    text = "Nimbus Labs showed Orca 7B on Monday, a model with 7 billion parameters."
    found = [(c.subject, c.other_model) for c in extract(text, [CIRRUS], published=DAY)]
    assert found == [(None, "Orca 7B")]


ORCA = SubjectRef("orca-7b", ("Orca 7B",), (), "Sea Labs")


def _subjects(text: str, refs=(CIRRUS, ORCA)):
    return [
        (c.subject, c.attribute, c.value.display(), c.how)
        for c in extract(text, list(refs), lang="auto", published=DAY)
    ]


def test_a_title_naming_one_model_is_the_subject_of_figures_naming_none():
    text = (
        "# Cirrus 12B: what we know\n\n"
        "The new model is a mixture of experts with 2.1B active parameters per token.\n\n"
        "Weights ship under the MIT licence. It runs at 1,200 tokens/s on Cerebras.\n"
    )
    assert _subjects(text) == [
        ("cirrus-12b", "active_params", "2.1B params", "heading"),
        ("cirrus-12b", "license", "mit", "heading"),
        ("cirrus-12b", "output_tokens_per_second", "1,200 tokens/s", "heading"),
    ]
    pt = "Cirrus 12B: o que sabemos\n\nO novo modelo tem 12 bi de parâmetros no total.\n"
    assert _subjects(pt) == [("cirrus-12b", "total_params", "12B params", "heading")]


def test_a_title_gives_way_to_another_model_named_nearer_or_a_later_heading():
    text = (
        "Cirrus 12B: what we know\n\n"
        "Its rival GPT-5 was also shown. The model has 30 billion parameters.\n\n"
        "## Orca 7B\n\nThe model has 7 billion parameters.\n\n"
        "## Cirrus 12B vs Orca 7B\n\nThe model has a 32K context window.\n"
    )
    assert _subjects(text) == [
        (None, "total_params", "30B params", "none"),
        ("orca-7b", "total_params", "7B params", "heading"),
        (None, "context_window", "32K tokens", "none"),
    ]


def test_a_source_url_line_is_no_title():
    text = "# source: https://example.com/cirrus-12b\n\nThe model has 12 billion parameters.\n"
    assert _subjects(text) == [(None, "total_params", "12B params", "none")]


def test_it_after_a_sentence_about_another_model_is_that_models():
    text = (
        "Orion-4 Lite was the first of the line. It had a context window of 16K tokens. "
        "Orion-5 Max, released later, has a context window of 256K tokens."
    )
    assert rows(text, "en") == [
        (None, "context_window", "16K tokens", None),
        ("orion-5-max", "context_window", "256K tokens", None),
    ]


def test_a_portuguese_sentence_without_subject_continues_the_model_before():
    text = (
        "- O Orion-4 Lite foi o primeiro da linha. Tinha uma janela de contexto de 16 mil "
        "tokens.-O Orion-5 Max, lançado depois, tem uma janela de contexto de 256 mil tokens."
    )
    assert rows(text, "pt") == [
        (None, "context_window", "16K tokens", None),
        ("orion-5-max", "context_window", "256K tokens", None),
    ]
    text = "O Orion-5 Max chegou em novembro. Suporta uma janela de 256 mil tokens."
    # "chegou em novembro" is its release (a release cue since set K)
    assert [r for r in rows(text, "pt") if r[1] != "release_date"] == [
        ("orion-5-max", "context_window", "256K tokens", None)
    ]
    assert [r[0] for r in rows(text, "pt") if r[1] == "release_date"] == ["orion-5-max"]


# A page on one size of a family lists its siblings' sizes: only the count near the size
# the subject's own name states is the subject's (claims.extract.name_sizes).
CIRRUS_14B = SubjectRef("cirrus-14b", ("Cirrus 14B",), (), "Vega Systems")


@pytest.mark.parametrize(
    ("text", "lang", "want"),
    [
        ("The Cirrus family comes in three sizes. The smallest edition has 3 billion "
         "parameters and runs on phones. Cirrus 14B beats bigger models.", "en",
         [(None, 3_000_000_000)]),
        ("A família Cirrus chega em três versões. A edição de 3 bilhões de parâmetros roda "
         "em celulares; a de 40 bilhões exige servidores.", "pt-BR",
         [(None, 3_000_000_000), (None, 40_000_000_000)]),
        ("A Vega Systems lançou a família Cirrus em três versões: a de 3 bilhões de "
         "parâmetros, a de 14 bilhões e a de 40 bilhões.", "pt-BR",
         [(None, 3_000_000_000), ("cirrus-14b", 14_000_000_000), (None, 40_000_000_000)]),
    ],
)  # fmt: skip
def test_sibling_sizes_are_not_the_sized_subjects(text, lang, want):
    got = extract(text, [CIRRUS_14B], lang=lang, published=DAY, default_subject="cirrus-14b")
    params = [(c.subject, int(c.value.value)) for c in got if c.attribute == "total_params"]
    assert params == want
    assert {c.how for c in got if c.subject is None} == {"size"}


def test_a_rounded_count_of_the_named_size_stays_the_subjects():
    text = "Cirrus 14B has 14.7 billion parameters, Vega Systems said."
    got = extract(text, [CIRRUS_14B], lang="en", published=DAY, default_subject="cirrus-14b")
    assert [(c.subject, c.attribute, c.value.display()) for c in got] == [
        ("cirrus-14b", "total_params", "14.7B params")
    ]


@pytest.mark.parametrize(
    ("names", "size"),
    [
        (["gemma-3-27b", "Gemma 3 27B"], 27 * 10**9),
        (["gemma-3-270m", "Gemma 3 270M"], 270 * 10**6),
        (["qwen3-235b-a22b"], 235 * 10**9),  # A22B is the active size
        (["gemma-3n-e4b", "Gemma 3n E4B"], None),  # an effective size, not the total
        (["mixtral-8x22b"], None),  # experts times size
        (["orca-5-scout-17b-16e", "Orca 5 Scout 17B-16E"], None),  # 16 experts: 17B active
        (["smollm3", "SmolLM3"], None),
        (["cirrus-14b", "Cirrus 15B"], None),  # names disagreeing
    ],
)
def test_the_size_a_name_states(names, size):
    got = name_size(names)
    assert (None if got is None else int(got)) == size


def test_near_counts_do_not_contradict_the_named_size():
    assert not contradicts_size(Decimal("21e9"), Decimal("20e9"))  # gpt-oss-20b
    assert not contradicts_size(Decimal("8.54e9"), Decimal("7e9"))  # Gemma 7B
    assert contradicts_size(Decimal("12e9"), Decimal("27e9"))


# A family's licence is its members': "Kimi K9" begins the subject's name "Kimi K9 Turbo".
K9_TURBO = SubjectRef("kimi-k9-turbo", ("Kimi K9 Turbo", "Kimi-K9-Turbo"), (), "Moonshot AI")


def _k9(text: str):
    got = extract(text, [K9_TURBO], lang="en", published=DAY, default_subject="kimi-k9-turbo")
    return [(c.subject, c.attribute, c.value.display(), c.how) for c in got]


def test_a_familys_licence_is_the_members_but_not_its_release_date():
    text = (
        "Kimi K9 is a new family of open-weights models, released in March 2026 under the "
        "MIT license. Kimi-K9-Turbo is its smaller model."
    )
    assert _k9(text) == [
        (None, "release_date", "on 2026-03", "other"),
        ("kimi-k9-turbo", "license", "mit", "family"),
    ]


def test_another_models_licence_stays_its_own():
    text = "Kimi K8 shipped under the MIT license. Kimi-K9-Turbo is the newest model."
    assert _k9(text) == [(None, "license", "mit", "other")]


def test_list_items_under_a_colon_lead_belong_to_the_one_model_it_opens_with():
    text = (
        "A Vega Systems detalhou os dois modelos.\n"
        "O Zephyr 2 Mini é um modelo compacto com especificações modestas:\n"
        "- 8 bilhões de parâmetros\n"
        "- janela de contexto de 32 mil tokens\n"
        "O Orion-5 Max é o maior da família:\n"
        "- 300 bilhões de parâmetros\n"
        "- janela de contexto de 256 mil tokens"
    )
    found = [
        (c.subject, c.attribute, c.value.display(), c.other_model)
        for c in extract(text, [ORION], lang="pt-BR", published=DAY, default_subject="orion-5-max")
    ]
    assert found == [
        (None, "total_params", "8B params", "Zephyr 2 Mini"),
        (None, "context_window", "32K tokens", "Zephyr 2 Mini"),
        ("orion-5-max", "total_params", "300B params", None),
        ("orion-5-max", "context_window", "256K tokens", None),
    ]


GEMMA_9 = SubjectRef("gemma-9-27b", ("Gemma 9 27B",), (), "Google")


def test_a_colon_lead_comparing_two_generations_keeps_its_list_the_subjects():
    # "Gemma 8 → Gemma 9": the lead names the subject's family too (no model of its own)
    text = (
        "O Gemma 9 27B traz ganhos.\n"
        "O Gemma 8 → Gemma 9 é um dos maiores saltos entre modelos abertos:\n"
        "- MMLU: 71,2% → 80,4%"
    )
    found = [
        (c.subject, c.attribute, c.value.display())
        for c in extract(
            text, [GEMMA_9], lang="pt-BR", published=DAY, default_subject="gemma-9-27b"
        )
    ]
    assert found == [("gemma-9-27b", "benchmark_score", "80.4%")]
