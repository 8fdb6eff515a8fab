"""Comparison tables pasted with single spaces, whose columns only model names delimit:

    Feature Claude Opus 4 Claude Sonnet 4
    Terminal-bench 43.2% 35.6%
    GPQA Diamond 79.6% 77.2%

The header is a short label then two or more model names (found by the caller: subject
mentions and other models' names) with nothing but spaces between them, ending the line;
a row is a label then exactly as many figures, split at spaces, or as many runs of words
of one shape each opening with a figure ("200K tokens 200K tokens", "$15 / $75 per MTok
$3 / $15 per MTok"). Rows of another shape are skipped, not guessed; a blank line ends the
table. The :class:`~claims.extract.tables.Table` it gives is read like any other
(:mod:`claims.extract.table_cells`): figure i belongs to the model heading column i.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.extract.tables import Cell, Table, is_numeric

_LINE = re.compile(r"[^\n]+")
_TOKEN = re.compile(r"\S+")
# A cell's first token: a figure, maybe after a currency sign ("$15", "200K", "~3%").
_FIGURE_START = re.compile(r"^[~≈<>]?[$€£]?\d")
# A header's label is a word or three, no figure ("Feature", "Benchmark", "Métrica").
_MAX_LABEL_WORDS = 3


def named_column_tables(text: str, names: Sequence[tuple[int, int]]) -> list[Table]:
    """The single-spaced comparison tables of ``text`` (module doc); ``names`` are the
    (start, end) spans of model names in ``text``. Tables need two body rows or more."""
    spans = sorted(set(names))
    tables: list[Table] = []
    for line in _LINE.finditer(text):
        head = _header(text, line.start(), line.end(), spans)
        if head is None:
            continue
        rows = []
        last = line.end()
        for r in _LINE.finditer(text, line.end()):
            if text.count("\n", last, r.start()) > 1:
                break  # a blank line ends the table
            last = r.end()
            row = _figure_row(text, r.start(), r.end(), len(head) - 1)
            if row is not None:
                rows.append(row)
        if len(rows) >= 2:
            tables.append(Table(head, tuple(rows), head[0].start, rows[-1][-1].end))
    return tables


def _header(
    text: str, start: int, end: int, spans: Sequence[tuple[int, int]]
) -> tuple[Cell, ...] | None:
    """A label cell and one cell per model name when the line is "<label> <name> <name>...",
    else ``None``."""
    inside = [(a, b) for a, b in spans if start <= a and b <= end]
    if len(inside) < 2 or "|" in text[start:end] or text[inside[-1][1] : end].strip():
        return None
    if any(text[b:a].strip() for (_, b), (a, _) in zip(inside, inside[1:], strict=False)):
        return None
    label = text[start : inside[0][0]]
    words = label.split()
    if not words or len(words) > _MAX_LABEL_WORDS or any(c.isdigit() for c in label):
        return None
    lead = len(label) - len(label.lstrip())
    first = Cell(label.strip(), start + lead, start + lead + len(label.strip()))
    return (first, *(Cell(text[a:b], a, b) for a, b in inside))


def _figure_row(text: str, start: int, end: int, width: int) -> tuple[Cell, ...] | None:
    """A label cell and ``width`` cells when the line is "<label> <fig> <fig>..." (the
    label holding no figure of its own at its end) or "<label>" then ``width`` runs of
    words of one shape, each opening with a figure ("$15 / $75 per MTok $3 / $15 per
    MTok"), else ``None``."""
    tokens = [(start + t.start(), start + t.end()) for t in _TOKEN.finditer(text[start:end])]
    if len(tokens) <= width:
        return None
    figs, label = tokens[-width:], tokens[:-width]
    if all(is_numeric(text[a:b]) for a, b in figs) and not is_numeric(text[slice(*label[-1])]):
        cells = [[f] for f in figs]
    else:
        first = next((i for i, t in enumerate(tokens) if _FIGURE_START.match(text[slice(*t)])), 0)
        label, rest = tokens[:first], tokens[first:]
        if not label or len(rest) % width:
            return None
        size = len(rest) // width
        cells = [rest[i : i + size] for i in range(0, len(rest), size)]
        shapes = {tuple(_shape(text[slice(*t)]) for t in c) for c in cells}
        if size < 2 or len(shapes) != 1:
            return None
    head = Cell(text[label[0][0] : label[-1][1]], label[0][0], label[-1][1])
    return (head, *(Cell(text[c[0][0] : c[-1][1]], c[0][0], c[-1][1]) for c in cells))


def _shape(token: str) -> str:
    """A token's shape: "#" for one holding a digit, else the word in lower case."""
    return "#" if any(ch.isdigit() for ch in token) else token.lower()
