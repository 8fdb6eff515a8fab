"""One table cell -> (subject, attribute, qualifiers, value): the rules for figures in
tables (:mod:`claims.extract.tables`).

The owner of a cell is its column header when that names a model, else its row label when
that does (a transposed table); the other one says what the figure is: a benchmark name
(:func:`claims.extract.rules.find_benchmarks`; in a table with at least one known benchmark
row, any other row label is a benchmark name too, without its "(EM)"/"(Pass@1)" notes),
or parameter and context words. A benchmark cell is a percent when it says so or is at
most 100 (unless its label says rating or Elo), otherwise points. Pure.
"""

from __future__ import annotations

import re
from decimal import Decimal

from claims.extract.figures import scan_figures
from claims.extract.models import find_models
from claims.extract.rules import find_benchmarks
from claims.extract.tables import Cell, Table, is_numeric
from claims.subjects.references import SubjectIndex
from claims.values.value import Value

_NOTE = re.compile(r"\s*\([^)]*\)\s*$")
# Row labels whose figures are no benchmark score (training data, prices, dates, sizes
# on disk): read by nothing here rather than guessed.
_NOT_A_SCORE = re.compile(
    r"token|train|trein|data|dados|price|preço|cost|custo|release|lança|date|data\b|"
    r"memory|memória|VRAM|GB|disk|speed|velocidade|latenc",
    re.I,
)
_POINTS_LABEL = re.compile(r"rating|elo\b|pontos|points|score\b", re.I)
_MEASURE_WORDS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"(?:activ|ativ).*par[aâ]m|par[aâ]m.*(?:activ|ativ)", re.I),
        "active_params",
        "params",
    ),
    (re.compile(r"total.*par[aâ]m|par[aâ]m.*total", re.I), "total_params", "params"),
    (re.compile(r"context|contexto", re.I), "context_window", "tokens"),
)

Reading = tuple[str, str, dict[str, str], Value, tuple[int, int]]


def _owner(text: str, index: SubjectIndex) -> tuple[bool, str | None]:
    """(names a model, its slug if the subjects file knows it) for a header or label."""
    mentions = index.mentions(text)
    if mentions:
        return True, mentions[0].slug
    return bool(find_models(text)), None


def _is_bench_table(t: Table) -> bool:
    return any(find_benchmarks(r[0].text) for r in t.rows) or any(
        find_benchmarks(h.text) for h in t.header[1:]
    )


def read_cell(
    t: Table, label: Cell, head: Cell, cell: Cell, text: str, locale: str, index: SubjectIndex
) -> Reading | None:
    """(slug, attribute, qualifiers, value, (start, end)) of one cell, or ``None`` when the
    cell is no figure, belongs to a model the subjects file lacks, or its measure is
    unknown."""
    if not is_numeric(cell.text):
        return None
    named, slug = _owner(head.text, index)
    measure = label.text
    if not named:
        named, slug = _owner(label.text, index)
        measure = head.text
    if not named or slug is None:
        return None
    figs = scan_figures(text[cell.start : cell.end], locale)
    if not figs:
        return None
    f = figs[0]
    span = (cell.start + f.start, cell.start + f.end)
    for rx, attr, unit in _MEASURE_WORDS:
        if rx.search(measure):
            v = f.to_value(unit)
            return (slug, attr, {}, v, span) if v is not None else None
    if _NOT_A_SCORE.search(measure):
        return None  # "Training Tokens | ~40T": training data, not a score nor a size
    benches = find_benchmarks(measure)
    if benches:
        q = {"benchmark": benches[0].name}
        if benches[0].version:
            q["version"] = benches[0].version
    elif _is_bench_table(t):
        q = {"benchmark": _NOTE.sub("", measure)}
    else:
        return None
    v = f.to_value("percent")
    small = v is not None and isinstance(v.value, Decimal) and v.value <= 100
    if f.kind != "percent" and (not small or _POINTS_LABEL.search(measure)):
        v = f.to_value("points")
    return (slug, "benchmark_score", q, v, span) if v is not None else None
