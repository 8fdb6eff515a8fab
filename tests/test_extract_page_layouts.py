"""Web page layouts flattened into article text: a pricing card one token per line, a
pricing table with cache columns, a spec sheet table, a comparison table one cell per
line (with word cells and a last row cut short), a benchmark named before its score in
each clause, an inference window, a family's variants named by their window. Our own
made-up texts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from claims.extract.extractor import extract
from claims.extract.normalize import normalize_emphasis, normalize_latex
from claims.extract.tables import find_tables
from claims.subjects.references import SubjectRef

NOVA = SubjectRef("nova-2", ("Nova 2", "Nova-2"))
DAY = dt.date(2026, 3, 1)


def _rows(text: str, lang: str = "en"):
    return sorted(
        (c.subject, c.attribute, str(c.qualifiers.get("benchmark", "")), c.value.value)
        for c in extract(text, [NOVA], lang=lang, published=DAY, default_subject="nova-2")
        if c.subject == "nova-2"
    )


def test_pricing_card_one_token_per_line():
    card = "Nova 2\n\nContext\n512K\ntokens\nInput\n$1.75\nper MTok\nOutput\n$9.25\nper MTok\n\nAbout\n"
    rows = _rows(card)
    assert ("nova-2", "price_input_usd_per_mtok", "", Decimal("1.75")) in rows
    assert ("nova-2", "price_output_usd_per_mtok", "", Decimal("9.25")) in rows


def test_pricing_table_takes_input_and_output_columns_not_cache_columns():
    text = (
        "Nova 2 pricing.\n"
        "| Model | Input | Cache Write | Prompt Caching Read | Output |\n"
        "|——-|——-|——-|——-|——-|\n"
        "| Nova 2 | $4 / MTok | $5.10 / MTok | $0.40 / MTok | $22 / MTok |\n"
    )
    prices = [r for r in _rows(text) if r[1].startswith("price_")]
    assert prices == [
        ("nova-2", "price_input_usd_per_mtok", "", Decimal("4")),
        ("nova-2", "price_output_usd_per_mtok", "", Decimal("22")),
    ]


def test_spec_sheet_table_rows_are_the_articles_model():
    text = (
        "O Nova 2 chegou.\n\n"
        "| Parâmetro | Valor | Descrição |\n"
        "|---|---|---|\n"
        "| Parâmetros Totais | 310B (310 bilhões) | Grande |\n"
        "| Janela de Contexto | 256.000 tokens | Documentos longos |\n"
        "| Dados de Pré-treinamento | 19T tokens | Mais dados |\n"
    )
    rows = _rows(text, "pt")
    assert ("nova-2", "context_window", "", Decimal(256000)) in rows
    assert ("nova-2", "total_params", "", Decimal(310) * 10**9) in rows
    assert not [r for r in rows if r[3] == Decimal(19) * 10**12]


COMPARISON = """Nova 2 is the largest model yet.

Leaderboard
Model
Size
Score
Licence
Pretraining length
Nova
90B
71.20
🟢
4,200B
Zephyr 3
40B
66.10
🔴
1,500B
Orbit
12B
"""


def test_cell_per_line_comparison_with_word_cells_and_cut_last_row():
    (t,) = find_tables(COMPARISON)
    assert [c.text for c in t.header] == ["Model", "Size", "Score", "Licence", "Pretraining length"]
    assert [[c.text for c in r] for r in t.rows] == [
        ["Nova", "90B", "71.20", "🟢", "4,200B"],
        ["Zephyr 3", "40B", "66.10", "🔴", "1,500B"],
        ["Orbit", "12B", "", "", ""],
    ]
    params = [r for r in _rows(COMPARISON) if r[1] == "total_params"]
    assert params == []  # other rows' sizes and pretraining lengths are not the subject's


def test_shifted_cells_make_no_table():
    text = "Title\nModel\nSize\nLicence\nNova\n90B\nMIT\nZephyr\n40B\n12\n"
    assert find_tables(text) == []


def test_benchmark_named_before_its_score_in_each_clause():
    pt = (
        "O Nova 2 é notável. Em testes como o MMLU (Massive Multitask Language "
        "Understanding), ele alcançou uma pontuação de 77.3, e no HumanEval, focado em "
        "código, obteve 68.9. Fim."
    )
    en = (
        "Nova 2 is notable. On MMLU (Massive Multitask Language Understanding) it reached "
        "a score of 77.3, and on HumanEval, focused on code, it got 68.9. The end."
    )
    for text, lang in ((pt, "pt"), (en, "en")):
        scores = [(r[2], r[3]) for r in _rows(text, lang) if r[1] == "benchmark_score"]
        assert scores == [("HumanEval", Decimal("68.9")), ("MMLU", Decimal("77.3"))]


def test_inference_window_is_the_context_window():
    text = (
        "Nova 2's training context length extends to 500,000 tokens, with inference "
        "supporting up to 3 million tokens."
    )
    windows = [r[3] for r in _rows(text) if r[1] == "context_window"]
    assert Decimal(3000000) in windows


def test_family_variants_named_by_window_are_not_the_context_window():
    text = (
        "Nova 2 came first; the family later grew with chat models, 300,000-token "
        "long-context variants and a vision model."
    )
    assert [r for r in _rows(text) if r[1] == "context_window"] == []


def test_scores_marked_in_bold_or_underlined_are_read_in_their_columns():
    # Model cards mark each column's best score: markdown bold, <u>, <b>, <strong>.
    text = (
        "Nova 2 is out.\n\n"
        "| Model | MMLU | GSM8K | HumanEval |\n"
        "|---|---|---|---|\n"
        "| Orca 7B | 60.1 | 50.2 | 40.0 |\n"
        "| Nova 2 | **66.4** | <u>71.3</u> | <strong>48.5</strong> |\n"
    )
    rows = _rows(text)
    assert ("nova-2", "benchmark_score", "MMLU", Decimal("66.4")) in rows
    assert ("nova-2", "benchmark_score", "GSM8K", Decimal("71.3")) in rows
    assert ("nova-2", "benchmark_score", "HumanEval", Decimal("48.5")) in rows
    assert not any(r[3] in (Decimal("60.1"), Decimal("50.2")) for r in rows)


def test_emphasis_marks_become_spaces_and_keep_every_offset():
    text = "**Nova 2** has <b>512K</b> tokens; 3 * 4 and a_b_c stay; footnote 65.0<sup>1</sup>"
    out = normalize_emphasis(text)
    assert len(out) == len(text)
    assert out.startswith("  Nova 2   has    512K     tokens")
    assert "3 * 4 and a_b_c stay" in out
    assert out.endswith("65.0<sup>1</sup>")


def test_a_score_column_takes_the_benchmark_its_caption_names():
    text = (
        "Intro.\n\nCube-Bench Verified: fixing real issues\n"
        "| Model | Score | Note |\n|---|---|---|\n"
        "| Nova 2 | 71.2% | best so far |\n| Zephyr-7 | 66.0% | close |\n"
    )
    assert _rows(text) == [("nova-2", "benchmark_score", "Cube-Bench Verified", Decimal("71.2"))]


def test_a_score_column_under_a_caption_naming_no_benchmark_gives_nothing():
    text = "Our own tests\n| Model | Score |\n|---|---|\n| Nova 2 | 71.2% |\n| Zephyr-7 | 66.0% |\n"
    assert _rows(text) == []


def test_a_measure_word_in_a_benchmark_rows_note_keeps_it_a_score():
    text = (
        "| Benchmark | Nova 2 | Zephyr-7 |\n|---|---|---|\n"
        "| MMLU | 80.1 | 77.0 |\n| BrowseComp (with context manager) | 58.3 | 60.2 |\n"
        "| Context length | 256K | 128K |\n"
    )
    rows = _rows(text)
    assert ("nova-2", "benchmark_score", "BrowseComp", Decimal("58.3")) in rows
    assert ("nova-2", "context_window", "", 256000) in rows
    assert not any(r[1] == "context_window" and r[3] == Decimal("58.3") for r in rows)


def test_latex_letters_in_a_model_card_become_the_letter_and_keep_every_offset():
    text = "| $\\tau^2$-Bench | 80.3 |, $\\alpha$ and $x^2$ stay"
    out = normalize_latex(text)
    assert len(out) == len(text)
    assert out.startswith("|       τ²-Bench | 80.3 |,        α and $x^2$ stay")
    rows = _rows("Nova 2 scores 80.3 on $\\tau^2$-Bench.")
    assert rows == [("nova-2", "benchmark_score", "τ²-Bench", Decimal("80.3"))]


GATEWAY = """Nova 2

Providers
Provider
Context
Input
Output
Cache
Lumen Cloud
512K
$0.40/M$1.60/M
Read:$0.04/M

More models by Nova Labs
Model
Context
Input
Output
1M
$0.90/M$3.10/M
"""


def test_glued_input_and_output_prices_take_the_headers_order():
    rows = _rows(GATEWAY)
    assert ("nova-2", "price_input_usd_per_mtok", "", Decimal("0.40")) in rows
    assert ("nova-2", "price_output_usd_per_mtok", "", Decimal("1.60")) in rows


def test_figures_under_a_heading_of_other_models_are_not_the_subjects():
    rows = _rows(GATEWAY)
    assert not any(r[3] in (Decimal("0.90"), Decimal("3.10"), 1000000) for r in rows)
    pt = "Nova 2 custa US$ 0,40 por milhão de tokens de entrada.\n\nOutros modelos\nZeta: US$ 0,90 por milhão de tokens de entrada\n"
    assert [r[3] for r in _rows(pt, "pt")] == [Decimal("0.40")]


def test_a_heading_of_other_models_reaches_only_the_block_under_it():
    text = "Related models\nZeta 1\nZeta 2\n\nContext\n512K\n\nInput\n$0.40 per MTok\n"
    rows = _rows(text)
    assert ("nova-2", "price_input_usd_per_mtok", "", Decimal("0.40")) in rows
    assert ("nova-2", "context_window", "", 512000) in rows


def test_a_score_in_words_belongs_to_the_model_its_row_names():
    text = (
        "| Area | Winner | Why |\n|---|---|---|\n"
        "| Coding | Nova 2 | Cube-Bench Verified 71.2% (a record) |\n"
        "| Math | Zephyr-7 | AIME 96%, LiveCodeBench 2,101 Elo |\n"
    )
    assert _rows(text) == [("nova-2", "benchmark_score", "Cube-Bench Verified", Decimal("71.2"))]
    others = [
        (c.subject, c.other_model, c.value.value)
        for c in extract(text, [NOVA], lang="en", published=DAY, default_subject="nova-2")
        if c.subject != "nova-2"
    ]
    assert others == [(None, "Zephyr-7", Decimal("96")), (None, "Zephyr-7", Decimal("2101"))]


def test_a_spec_card_under_the_models_name_gives_it_every_row():
    card = "nova-2\n\npreview\nContext\n1.0M\nMax output\n66K\n"
    assert _rows(card) == [("nova-2", "context_window", "", 1000000)]


def test_a_card_written_value_first_reads_the_label_below_each_value():
    card = "Nova 2\n\nSpecifications\n\n256K\nContext window\n64K\nMax output\n\nAbout\n"
    assert _rows(card) == [("nova-2", "context_window", "", Decimal("256000"))]


def test_a_card_written_label_first_still_reads_the_label_above():
    card = "Nova 2\n\nContext window\n256K\nMax output\n64K\n\nAbout\n"
    assert _rows(card) == [("nova-2", "context_window", "", Decimal("256000"))]


def test_a_card_opening_with_the_models_name_is_label_first():
    card = "Nova-2 7B\nParameters\n7B\nContext Length\n32K\nLicense\nMIT\n"
    got = _rows(card)
    assert ("nova-2", "context_window", "", Decimal("32000")) in got
