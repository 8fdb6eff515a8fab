"""Comparison tables pasted with single spaces, found by their columns' model names
(claims.extract.named_tables), in tables written for these tests."""

from __future__ import annotations

import datetime as dt

from claims.extract.extractor import extract
from claims.extract.named_tables import named_column_tables
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 12, 1)
NIMBUS = SubjectRef("nimbus-3", ("Nimbus 3",), (), "Cirrus Labs")
TABLE = (
    "The two models side by side:\n"
    "\n"
    "Feature Nimbus 3 Stratus-2 Pro\n"
    "Positioning Flagship, long tasks Everyday use\n"
    "MMLU-Pro 81.0% 77.5%\n"
    "GPQA Diamond 70.2% 66.1%\n"
    "\n"
    "Nimbus 3 ships today."
)


def _spans(text: str, *names: str) -> list[tuple[int, int]]:
    out = []
    for n in names:
        i = text.index(n)
        out.append((i, i + len(n)))
    return out


def test_a_header_of_model_names_heads_the_figure_rows_under_it():
    (t,) = named_column_tables(TABLE, _spans(TABLE, "Nimbus 3", "Stratus-2 Pro"))
    assert [c.text for c in t.header] == ["Feature", "Nimbus 3", "Stratus-2 Pro"]
    assert [[c.text for c in r] for r in t.rows] == [
        ["MMLU-Pro", "81.0%", "77.5%"],
        ["GPQA Diamond", "70.2%", "66.1%"],
    ]


def test_each_figure_goes_to_the_model_of_its_column():
    got = [
        (c.subject, c.qualifiers.get("benchmark"), c.text, c.other_model)
        for c in extract(TABLE, [NIMBUS], lang="en", published=DAY)
        if c.attribute == "benchmark_score"
    ]
    assert got == [
        ("nimbus-3", "MMLU-Pro", "81.0%", None),
        (None, "MMLU-Pro", "77.5%", "Stratus-2 Pro"),
        ("nimbus-3", "GPQA Diamond", "70.2%", None),
        (None, "GPQA Diamond", "66.1%", "Stratus-2 Pro"),
    ]


def test_no_table_without_names_ending_the_line_or_with_one_row():
    prose = "We compared Nimbus 3 with Stratus-2 Pro on two tests.\nMMLU-Pro 81.0% 77.5%\n"
    assert named_column_tables(prose, _spans(prose, "Nimbus 3", "Stratus-2 Pro")) == []
    one_row = "Feature Nimbus 3 Stratus-2 Pro\nMMLU-Pro 81.0% 77.5%\n"
    assert named_column_tables(one_row, _spans(one_row, "Nimbus 3", "Stratus-2 Pro")) == []
    wider = "Feature Nimbus 3 Stratus-2 Pro\nMMLU-Pro 81.0% 77.5% 70.0%\nGPQA 1% 2% 3%\n"
    assert named_column_tables(wider, _spans(wider, "Nimbus 3", "Stratus-2 Pro")) == []


SPEC = (
    "Feature Nimbus 3 Stratus-2 Pro\n"
    "Context Window 256K tokens 128K tokens\n"
    "Max Output 64K tokens 32K tokens\n"
    "API Pricing (Input/Output) $4 / $20 per MTok $1 / $5 per MTok\n"
    "MMLU-Pro 81.0% 77.5%\n"
)


def test_cells_of_one_figure_and_its_unit_and_price_pairs_are_read_by_column():
    got = [
        (c.subject, c.attribute, c.text, c.other_model)
        for c in extract(SPEC, [NIMBUS], lang="en", published=DAY)
    ]
    assert got == [
        ("nimbus-3", "context_window", "256K", None),
        (None, "context_window", "128K", "Stratus-2 Pro"),
        ("nimbus-3", "price_input_usd_per_mtok", "$4", None),
        ("nimbus-3", "price_output_usd_per_mtok", "$20", None),
        (None, "price_input_usd_per_mtok", "$1", "Stratus-2 Pro"),
        (None, "price_output_usd_per_mtok", "$5", "Stratus-2 Pro"),
        ("nimbus-3", "benchmark_score", "81.0%", None),
        (None, "benchmark_score", "77.5%", "Stratus-2 Pro"),
    ]  # "Max Output 64K tokens" names no attribute: nothing, not a score
