"""Tables in article text (claims.extract.tables) and figures read from their cells:
a comparison table's other columns are other models' figures. Our own made-up tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from claims.extract.extractor import extract
from claims.extract.tables import find_tables, is_numeric
from claims.subjects.references import SubjectRef

NOVA = SubjectRef("nova-2", ("Nova 2", "Nova-2"))
ORBIT = SubjectRef("orbit-1", ("Orbit 1",))
DAY = dt.date(2026, 3, 1)

PIPE = """Results:
| Benchmark | Nova 2 | Zephyr-7 | Orbit 1 |
|---|---|---|---|
| MMLU-Pro (EM) | 81.5 | 77.0 | 70.2 |
| Cube Reasoning | 64.0% | 66.1% | 40.0% |
| Codeforces Rating | 2,101 | 1,950 | 1,500 |
| Total Parameters | 1.2T | 400B | 70B |

Nova 2 is out."""

FLAT = (
    "| Benchmark | Nova 2 | Zephyr-7 | |---|---|---| | GPQA Diamond | 71.5% | 73.3% | "
    "| AIME 2025 | 80.0% | 74.4% |"
)

CELLS = """Desempenho
Benchmark
Nova-2
Zephyr-7
AIME24
79.5
63.6
IFEval
83.9
59.1

Fim."""


def _rows(text, refs=(NOVA, ORBIT)):
    """The subjects' candidates (other models' cells are checked on their own below)."""
    return [
        (c.subject, c.attribute, c.qualifiers, c.value.value, c.value.unit, c.how)
        for c in extract(text, list(refs), lang="en", published=DAY, default_subject="nova-2")
        if c.how != "other"
    ]


def test_pipe_table_rows_and_cells():
    (t,) = find_tables(PIPE)
    assert [c.text for c in t.header] == ["Benchmark", "Nova 2", "Zephyr-7", "Orbit 1"]
    assert [r[0].text for r in t.rows] == [
        "MMLU-Pro (EM)",
        "Cube Reasoning",
        "Codeforces Rating",
        "Total Parameters",
    ]
    label, head, cell = next(t.cells())
    assert (label.text, head.text, cell.text, PIPE[cell.start : cell.end]) == (
        "MMLU-Pro (EM)",
        "Nova 2",
        "81.5",
        "81.5",
    )


def test_a_whole_table_on_one_line_and_one_cell_per_line():
    (flat,) = find_tables(FLAT)
    assert [[c.text for c in r] for r in flat.rows] == [
        ["GPQA Diamond", "71.5%", "73.3%"],
        ["AIME 2025", "80.0%", "74.4%"],
    ]
    (cells,) = find_tables(CELLS)
    assert [c.text for c in cells.header] == ["Benchmark", "Nova-2", "Zephyr-7"]
    assert [[c.text for c in r] for r in cells.rows] == [
        ["AIME24", "79.5", "63.6"],
        ["IFEval", "83.9", "59.1"],
    ]


def test_numeric_cells():
    assert all(is_numeric(x) for x in ("97.3%", "2,029", "37B", "$0.28", "~40T"))
    assert not any(is_numeric(x) for x in ("MoE", "–", "Dense", "Nova 2"))


def test_each_column_is_its_model():
    got = _rows(PIPE)
    assert got == [
        ("nova-2", "benchmark_score", {"benchmark": "MMLU-Pro"}, Decimal("81.5"), "percent", "table"),
        ("orbit-1", "benchmark_score", {"benchmark": "MMLU-Pro"}, Decimal("70.2"), "percent", "table"),
        ("nova-2", "benchmark_score", {"benchmark": "Cube Reasoning"}, Decimal("64.0"), "percent", "table"),
        ("orbit-1", "benchmark_score", {"benchmark": "Cube Reasoning"}, Decimal("40.0"), "percent", "table"),
        ("nova-2", "benchmark_score", {"benchmark": "Codeforces"}, Decimal("2101"), "points", "table"),
        ("orbit-1", "benchmark_score", {"benchmark": "Codeforces"}, Decimal("1500"), "points", "table"),
        ("nova-2", "total_params", {}, Decimal("1200000000000"), "params", "table"),
        ("orbit-1", "total_params", {}, Decimal("70000000000"), "params", "table"),
    ]  # fmt: skip


def test_cell_tables_give_version_from_a_glued_year():
    got = _rows(CELLS)
    assert got[0][:4] == (
        "nova-2",
        "benchmark_score",
        {"benchmark": "AIME", "version": "2024"},
        Decimal("79.5"),
    )
    assert [g[3] for g in got] == [Decimal("79.5"), Decimal("83.9")]


def test_training_data_rows_and_prose_are_not_parameters():
    text = (
        "| Spec | Nova 2 |\n|---|---|\n| MMLU | 80.1 |\n| Training Tokens | ~40T |\n\n"
        "Nova 2 was trained on around 15 trillion tokens."
    )
    assert [(r[1], r[3]) for r in _rows(text)] == [("benchmark_score", Decimal("80.1"))]


MODEL_CARD = """| **Model** | **#Total Params** | **#Activated Params** | **Context Length** |
| :---: | :---: | :---: | :---: |
| Nova-2-Lite | 16B | 2.4B | 32k |
| Nova 2 | 236B | 21B | 128k |

| Benchmark | Domain | Orbit 1 | Nova 2 |
|---|---|---|---|
| MMLU | English | 78.5 | 84.2 |

Compared with Orbit 1, Nova 2 saves 42.5% of training costs and reduces the KV cache by 93.3%.
"""


def test_a_model_card_with_rows_per_model_and_a_text_column():
    got = _rows(MODEL_CARD)
    assert [(g[0], g[1], g[3]) for g in got] == [
        ("nova-2", "total_params", Decimal("236000000000")),
        ("nova-2", "active_params", Decimal("21000000000")),
        ("nova-2", "context_window", Decimal("128000")),
        ("orbit-1", "benchmark_score", Decimal("78.5")),
        ("nova-2", "benchmark_score", Decimal("84.2")),
    ]


def test_unknown_models_columns_are_their_own_figures():
    got = [
        (c.subject, c.other_model, c.attribute, c.value.value)
        for c in extract(PIPE, [NOVA, ORBIT], lang="en", published=DAY, default_subject="nova-2")
        if c.how == "other"
    ]
    assert got == [
        (None, "Zephyr-7", "benchmark_score", Decimal("77.0")),
        (None, "Zephyr-7", "benchmark_score", Decimal("66.1")),
        (None, "Zephyr-7", "benchmark_score", Decimal("1950")),
        (None, "Zephyr-7", "total_params", Decimal("400000000000")),
    ]


PRICES = """Nimbus Labs published the following figures.

| Model | Total parameters | Context window | Input price ($/1M tokens) | Output price ($/1M tokens) |
|---|---|---|---|---|
| Nova 2 | 12B | 128K | $0.20 | $0.60 |
| Vela 7B | 7B | 32K | 0.10 | 0.30 |
"""

PLAIN = """Prices below.

Modelo       Parâmetros   Preço de entrada (US$/1M tokens)   Preço de saída (US$ por milhão)
Nova 2       12B          0,20                               0,60
Vela 7B      7B           0,10                               0,30

Fim."""


def _all(text, lang="en"):
    return [
        (c.subject, c.other_model, c.attribute, c.value.display())
        for c in extract(text, [NOVA], lang=lang, published=DAY)
    ]


def test_price_columns_read_side_and_unit_from_the_header_and_rows_their_model():
    assert _all(PRICES) == [
        ("nova-2", None, "total_params", "12B params"),
        ("nova-2", None, "context_window", "128K tokens"),
        ("nova-2", None, "price_input_usd_per_mtok", "$0.20 per 1M tokens"),
        ("nova-2", None, "price_output_usd_per_mtok", "$0.60 per 1M tokens"),
        (None, "Vela 7B", "total_params", "7B params"),
        (None, "Vela 7B", "context_window", "32K tokens"),
        (None, "Vela 7B", "price_input_usd_per_mtok", "$0.10 per 1M tokens"),
        (None, "Vela 7B", "price_output_usd_per_mtok", "$0.30 per 1M tokens"),
    ]


def test_plain_text_table_with_columns_apart_by_spaces():
    assert _all(PLAIN, "pt-BR") == [
        ("nova-2", None, "total_params", "12B params"),
        ("nova-2", None, "price_input_usd_per_mtok", "$0.20 per 1M tokens"),
        ("nova-2", None, "price_output_usd_per_mtok", "$0.60 per 1M tokens"),
        (None, "Vela 7B", "total_params", "7B params"),
        (None, "Vela 7B", "price_input_usd_per_mtok", "$0.10 per 1M tokens"),
        (None, "Vela 7B", "price_output_usd_per_mtok", "$0.30 per 1M tokens"),
    ]


def test_a_price_column_in_euros_or_without_a_side_gives_no_price():
    text = "| Model | Price (€/1M tokens) | Price ($/1M tokens) |\n|---|---|---|\n| Nova 2 | 0.20 | 0.30 |\n"
    assert _all(text) == []


def test_a_speed_column_is_output_tokens_per_second():
    text = (
        "| Model | Speed (tokens/s) | Latency (s) |\n|---|---|---|\n"
        "| Nova 2 | 1,200 | 0.3 |\n| Vela 7B | 900 | 0.2 |\n"
    )
    assert _all(text) == [
        ("nova-2", None, "output_tokens_per_second", "1,200 tokens/s"),
        (None, "Vela 7B", "output_tokens_per_second", "900 tokens/s"),
    ]


GROUPED = """| Benchmark | Nova 2 | Zephyr-7 | |
|---|---|---|---|
| Knowledge | Trivia-X (0-shot) | 71.4 | 66.0 |
| Lore-QA (0-shot) | 58.3* | 52.5 | |
| Coding | CodeArena(2501-2503 Pass@1) | 33.9 | 30.1 |
"""


def test_a_rowspan_group_column_is_dropped_and_a_footnote_mark_kept_a_figure():
    t = find_tables(GROUPED)[0]
    assert [r[0].text for r in t.rows] == [
        "Trivia-X (0-shot)",
        "Lore-QA (0-shot)",
        "CodeArena(2501-2503 Pass@1)",
    ]
    assert is_numeric("58.3*") and is_numeric("91.2†")
    got = [
        (c.subject, c.qualifiers.get("benchmark"), c.text)
        for c in extract(GROUPED, [NOVA], lang="en", published=DAY)
        if c.attribute == "benchmark_score"
    ]
    # the window in the row label "(2501-2503 Pass@1)" is part of the name, no score
    assert got == [
        ("nova-2", "Trivia-X", "71.4"),
        (None, "Trivia-X", "66.0"),
        ("nova-2", "Lore-QA", "58.3"),
        (None, "Lore-QA", "52.5"),
        ("nova-2", "CodeArena", "33.9"),
        (None, "CodeArena", "30.1"),
    ]


def test_a_header_with_the_group_column_lines_up_the_groups_later_rows():
    text = """| Group | Benchmark | Nova 2 | Zephyr-7 |
|---|---|---|---|
| Math | Sum-Bench | 80.1 | 70.2 |
| Prime-QA | 60.3 | 50.4 |
"""
    t = find_tables(text)[0]
    assert [h.text for h in t.header] == ["Benchmark", "Nova 2", "Zephyr-7"]
    assert [[c.text for c in r] for r in t.rows] == [
        ["Sum-Bench", "80.1", "70.2"],
        ["Prime-QA", "60.3", "50.4"],
    ]


def test_a_group_column_written_on_every_row_is_dropped():
    text = (
        "Group | Test | Nova 2 | Other 1 |\n"
        "---|---|---|---|\n"
        "Knowledge | MMLU | 71.5 | 60.1 |\n"
        "Knowledge | GPQA | 44.0 | 30.2 |\n"
        "Math | GSM8K | 88.3 | 80.0 |\n"
    )
    (table,) = find_tables(text)
    assert [c.text for c in table.header] == ["Test", "Nova 2", "Other 1"]
    assert [[c.text for c in r] for r in table.rows] == [
        ["MMLU", "71.5", "60.1"],
        ["GPQA", "44.0", "30.2"],
        ["GSM8K", "88.3", "80.0"],
    ]


def test_a_first_column_without_repeats_is_kept():
    text = "Model | Licence | Score |\n---|---|---|\nNova 2 | MIT | 71.5 |\nOther 1 | Apache | 60.1 |\n"
    (table,) = find_tables(text)
    assert [c.text for c in table.header] == ["Model", "Licence", "Score"]


def test_a_short_not_a_score_stem_must_start_a_word():
    text = "Test | Nova 2 |\n---|---|\nBigBench Hard CoT | 79.1 |\nSize (GB) | 16 |\n"
    rows = [
        (c.attribute, c.qualifiers.get("benchmark"), c.text)
        for c in extract(text, [SubjectRef("nova-2", ("Nova 2",))], lang="en")
        if c.subject == "nova-2"
    ]
    assert rows == [("benchmark_score", "BigBench Hard", "79.1")]


def _run_rows(text: str, refs=(NOVA,), default: str | None = "nova-2"):
    return [
        (c.subject, c.attribute, str(c.value.value), c.qualifiers)
        for c in extract(text, list(refs), lang="en", published=DAY, default_subject=default)
    ]


TIERS = """Nova 2 bills by prompt length.

Request Size | Input Price (per 1M tokens) | Output Price (per 1M tokens) |
---|---|---|
≤ 200,000 tokens | $2.50 | $12.00 |
> 200,000 tokens | $5.00 | $24.00 |
"""


def test_a_tiered_price_table_gives_the_first_row_plain_and_later_rows_their_condition():
    assert _run_rows(TIERS) == [
        ("nova-2", "price_input_usd_per_mtok", "2.5", {}),
        ("nova-2", "price_output_usd_per_mtok", "12", {}),
        ("nova-2", "price_input_usd_per_mtok", "5", {"conditions": "> 200K tokens"}),
        ("nova-2", "price_output_usd_per_mtok", "24", {"conditions": "> 200K tokens"}),
    ]


def test_a_tier_table_naming_a_model_row_is_no_tier_table():
    text = TIERS.replace("> 200,000 tokens |", "Orion 1 |")
    got = _run_rows(text, refs=(NOVA, ORBIT))
    assert ("nova-2", "price_input_usd_per_mtok", "5", {"conditions": "Orion 1"}) not in got


def test_a_limits_table_reads_an_up_to_cell_under_a_context_label():
    text = (
        "Nova 2 limits.\n\nFeature | Limit |\n---|---|\n"
        "API Context Window | Up to 400,000 tokens per request |\n"
        "Chat App Limit | Up to 64,000 tokens per chat |\n"
    )
    assert _run_rows(text) == [("nova-2", "context_window", "400000", {})]


def test_a_side_and_unit_header_prices_money_cells_and_a_cached_note_is_dropped():
    text = (
        "| Model | Input /M | Output /M | Context |\n|---|---|---|---|\n"
        "| Nova 2 Current | $0.08 cache $0.01 | $0.70 | 128K |\n"
        "| Zephyr-7 | $0.20 cache $0.05 | $1.10 | 64K |\n"
    )
    got = [r for r in _run_rows(text) if r[0] == "nova-2"]
    assert got == [
        ("nova-2", "price_input_usd_per_mtok", "0.08", {}),
        ("nova-2", "price_output_usd_per_mtok", "0.7", {}),
        ("nova-2", "context_window", "128000", {}),
    ]


def test_a_percent_glued_to_a_benchmark_name_in_a_flattened_table_is_its_score():
    text = (
        "Nova 2\n\nBenchmarks\n\nBenchmarkScoreSource\n"
        "HumanEval88%evals.example 2026-02-01\nGPQA Diamond61.5%evals.example 2026-02-01\n"
    )
    got = [(a, v, q) for _, a, v, q in _run_rows(text) if a == "benchmark_score"]
    assert got == [
        ("benchmark_score", "88", {"benchmark": "HumanEval"}),
        ("benchmark_score", "61.5", {"benchmark": "GPQA Diamond"}),
    ]


def test_price_cards_and_records_one_value_per_line_are_no_table():
    # a pricing page's cards and records pasted one value per line: a price with its unit
    # is no title or column header, so no table swallows the subject's card
    text = (
        "Models and Pricing\n\nnova-1\nInput\n$4.00/M\nCached Input\n$1.00/M\nOutput\n$16.00/M\n"
        "Show details\nNova 2\n\nnova-2\nInput\n$0.40/M\nCached Input\n$0.10/M\nOutput\n"
        "$0.90/M\nShow details\nShow details\n\nModel Pricing\n\nnova-1\nnova-1-latest\n65536\n"
        "Text Input\n$4.00\nText Completion\n$16.00\n"
    )
    got = [r for r in _run_rows(text, default=None) if r[0] == "nova-2"]
    assert got == [
        ("nova-2", "price_input_usd_per_mtok", "0.4", {}),
        ("nova-2", "price_output_usd_per_mtok", "0.9", {}),
    ]


def test_a_caption_gives_the_price_unit_to_a_table_of_sides_only():
    text = (
        "Nova 2 is our new model.\n\n"
        "API pricing (per million tokens):\n\n"
        "  Model      Input    Output\n"
        "  Nova 2     $0.45    $1.80\n"
        "  Vela 7B    $0.05    $0.20\n"
    )
    assert _all(text) == [
        ("nova-2", None, "price_input_usd_per_mtok", "$0.45 per 1M tokens"),
        ("nova-2", None, "price_output_usd_per_mtok", "$1.80 per 1M tokens"),
        (None, "Vela 7B", "price_input_usd_per_mtok", "$0.05 per 1M tokens"),
        (None, "Vela 7B", "price_output_usd_per_mtok", "$0.20 per 1M tokens"),
    ]
    # without a unit anywhere, money under a side is no per-token price
    assert _all(text.replace(" (per million tokens)", "")) == []


def test_a_caption_naming_the_subject_owns_a_one_row_table_of_sides():
    text = (
        "Nova 2 pricing (USD per 1M tokens)\n\n"
        "| Input | Output |\n|-------|--------|\n| $0.45 | $1.80  |\n"
    )
    assert _all(text) == [
        ("nova-2", None, "price_input_usd_per_mtok", "$0.45 per 1M tokens"),
        ("nova-2", None, "price_output_usd_per_mtok", "$1.80 per 1M tokens"),
    ]
    # a caption naming two models owns nothing
    assert _all(text.replace("Nova 2 pricing", "Nova 2 and Vela 7B pricing")) == []
