"""Tables in article text: pipe tables (Markdown, one row per line or a whole table
flattened on one line as pages often paste it), HTML tables read one cell per line, and
plain-text tables (columns apart by a tab or two spaces or more, a header row of words then
at least two rows of the same width holding figures).

Each table is a header row and body rows of :class:`Cell` (text and character offsets in
the article), so a figure in a table is read with its row label and its column header,
never by the words around it: in a comparison table the other columns are other models'
figures. A group column written only on the first row of each group (an HTML
``rowspan`` pasted as text: "General | CMMLU | 83.1 | 75.8" then "MMLU | 76.6 | 76.8") is
dropped so every row lines up with the model columns; other rows of a different width than
the header, section rows ("Math Benchmarks | | |") and separator rows (``---|---``) are
skipped. A footnote mark after a figure ("83.0*", "91.2†") keeps the cell a figure. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# "|---|:--:|", and "|———-|" as a page's typography pastes it (em/en dashes)
_SEPARATOR = re.compile(r"^:?[-—–]{2,}:?$")
_NUMERIC = re.compile(r"^[~≈<>+-]?\s*[$€£]?\s*\d[\d.,\s]*(?:%|[kKMBT]|\s*pts?)?\s*[*†‡]*$")
_LINE = re.compile(r"[^\n]+")
_COLUMN_GAP = re.compile(r"\t+|\s{2,}")


@dataclass(frozen=True)
class Cell:
    """One cell: its stripped text and its offsets in the article."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Table:
    """``header`` cells (the first names the label column) and body ``rows`` of the same
    width; ``start``/``end`` span the whole table in the article."""

    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    start: int
    end: int

    def cells(self) -> Iterator[tuple[Cell, Cell, Cell]]:
        """(row label, column header, cell) of every body cell right of the label column."""
        for row in self.rows:
            for head, cell in zip(self.header[1:], row[1:], strict=True):
                yield row[0], head, cell


def is_numeric(text: str) -> bool:
    """True for a cell holding one figure ("97.3%", "2,029", "37B", "$0.28")."""
    return bool(_NUMERIC.match(text.strip()))


def find_tables(text: str) -> list[Table]:
    """Every table of ``text`` (both shapes in the module doc), in text order."""
    out = _pipe_tables(text) + _cell_per_line_tables(text) + _spaced_tables(text)
    out.sort(key=lambda t: t.start)
    return out


def _split_pipes(text: str, start: int, end: int) -> list[Cell | None]:
    """Segments between pipes of ``text[start:end]``; ``None`` for an empty segment (a row
    break in a flattened table, or an empty cell)."""
    out: list[Cell | None] = []
    pos = start
    for piece in text[start:end].split("|"):
        raw_end = pos + len(piece)
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            out.append(Cell(stripped, pos + lead, pos + lead + len(stripped)))
        else:
            out.append(None)
        pos = raw_end + 1
    return out


def _pipe_tables(text: str) -> list[Table]:
    tables: list[Table] = []
    block: list[list[Cell | None]] = []
    bounds: list[int] = []
    prev_end = -2
    for m in _LINE.finditer(text):
        line = m.group(0)
        if block and (m.start() > prev_end + 1 or not line.strip()):  # a blank line ends it
            tables += _from_rows(block, bounds[0], bounds[-1])
            block, bounds = [], []
        prev_end = m.end()
        if line.count("|") >= 2:
            segs = _split_pipes(text, m.start(), m.end())
            if line.count("|") >= 6 and _is_flattened(segs):
                tables += _flattened(segs)
                continue
            block.append(segs)
            bounds += [m.start(), m.end()]
            continue
        if block:
            tables += _from_rows(block, bounds[0], bounds[-1])
            block, bounds = [], []
    if block:
        tables += _from_rows(block, bounds[0], bounds[-1])
    return tables


def _trim(segs: list[Cell | None]) -> list[Cell | None]:
    """A row's cells without the empty segments outside its first and last pipe."""
    while segs and segs[0] is None:
        segs = segs[1:]
    while segs and segs[-1] is None:
        segs = segs[:-1]
    return segs


def _from_rows(block: list[list[Cell | None]], start: int, end: int) -> list[Table]:
    rows = [_trim(r) for r in block]
    rows = [r for r in rows if r and not all(c is not None and _SEPARATOR.match(c.text) for c in r)]
    if len(rows) < 2 or any(c is None for c in rows[0]):
        return []
    header = tuple(c for c in rows[0] if c is not None)
    full = [tuple(c for c in r if c is not None) for r in rows[1:] if None not in r]
    header, body = _without_group_column(header, full)
    return [Table(header, body, start, end)] if body else []


def _label(c: Cell) -> bool:
    return not is_numeric(c.text)


def _without_group_column(
    header: tuple[Cell, ...], rows: list[tuple[Cell, ...]]
) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, ...], ...]]:
    """The header and the body rows of its width, a rowspan group column dropped: a row one
    cell wider than the header starting with two labels ("General | CMMLU | 83.1 | ..."),
    or, when the header itself starts with the group column and some rows are one cell
    narrower (the group's later rows), the header's and the wide rows' first cell."""
    n = len(header)
    narrow = [r for r in rows if len(r) == n - 1 and _label(r[0])]
    wide = [r for r in rows if len(r) == n]
    grouped = all(_label(r[0]) and _label(r[1]) for r in wide)
    if narrow and wide and grouped and n > 2 and _label(header[0]) and _label(header[1]):
        header = header[1:]
        n -= 1
        rows = [r[1:] if len(r) == n + 1 and _label(r[0]) and _label(r[1]) else r for r in rows]
    else:
        rows = [r[1:] if len(r) == n + 1 and _label(r[0]) and _label(r[1]) else r for r in rows]
    rows = [r for r in rows if len(r) == n]
    if _repeated_group_column(header, rows):
        header, rows = header[1:], [r[1:] for r in rows]
    return header, tuple(rows)


def _repeated_group_column(header: tuple[Cell, ...], rows: list[tuple[Cell, ...]]) -> bool:
    """True for a first column that groups the rows named in the second one, written out
    on every row ("Category | Benchmark | A | B", "Reasoning | BoolQ | 84.6 | ..."): both
    columns labels, the first repeating a value, the second never (the row names)."""
    if len(header) < 3 or len(rows) < 2 or not (_label(header[0]) and _label(header[1])):
        return False
    if not all(_label(r[0]) and _label(r[1]) for r in rows):
        return False
    firsts, seconds = [r[0].text for r in rows], [r[1].text for r in rows]
    return len(set(firsts)) < len(firsts) and len(set(seconds)) == len(seconds)


def _is_flattened(segs: list[Cell | None]) -> bool:
    """A whole table on one line: a separator row (``|---|---|``) after the header."""
    return any(c is not None and _SEPARATOR.match(c.text) for c in segs) and (
        sum(1 for c in segs if c is None) >= 3
    )


def _flattened(segs: list[Cell | None]) -> list[Table]:
    """Rows of a one-line table split at empty segments ("| a | b | | c | d |")."""
    rows: list[list[Cell]] = []
    cur: list[Cell] = []
    for c in segs:
        if c is None:
            if cur:
                rows.append(cur)
            cur = []
        else:
            cur.append(c)
    if cur:
        rows.append(cur)
    rows = [r for r in rows if not all(_SEPARATOR.match(c.text) for c in r)]
    if len(rows) < 2:
        return []
    header, body = _without_group_column(tuple(rows[0]), [tuple(r) for r in rows[1:]])
    if not body:
        return []
    return [Table(header, body, header[0].start, body[-1][-1].end)]


def _cell_per_line_tables(text: str) -> list[Table]:
    """HTML tables flattened one cell per line: a title line, k column headers, then rows of
    a label and k cells, at least two rows; blank lines between cells are allowed. Word
    cells among the figures ("🟠", "Apache 2.0") are kept when every row has them in the
    same columns (so a misread column count, shifting cells across rows, finds no table)."""
    lines = [Cell(m.group(0).strip(), m.start(), m.end()) for m in _LINE.finditer(text)]
    lines = [
        Cell(
            c.text,
            c.start + (len(text[c.start : c.end]) - len(text[c.start : c.end].lstrip())),
            c.end,
        )
        for c in lines
        if c.text
    ]
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        t = _cell_table_at(lines, i)
        if t is None:
            i += 1
            continue
        tables.append(t[0])
        i = t[1]
    return tables


# A price written with its unit ("$0.30/M", "$2.50 / 1M"): a value, never a title or header.
_PRICE_CELL = re.compile(r"^[~≈<>]?\s*[$€£]\s*\d")


def _figure_cell(text: str) -> bool:
    """True for a cell holding a figure (:func:`is_numeric`) or a price with its unit."""
    return is_numeric(text) or bool(_PRICE_CELL.match(text))


def _short(c: Cell) -> bool:
    return len(c.text) <= 40 and not c.text.endswith((".", ":", "?", "!"))


def _cell_table_at(lines: list[Cell], i: int) -> tuple[Table, int] | None:
    """The cell-per-line table whose title cell is ``lines[i]``, and the index after it."""
    j = i
    while j < len(lines) and _short(lines[j]) and not _figure_cell(lines[j].text):
        j += 1
    k = j - i - 2  # title, k headers, then the first row's label
    if k < 1 or j >= len(lines) or not is_numeric(lines[j].text):
        return None
    header = tuple(lines[i : i + k + 1])
    rows = []
    pos = i + k + 1
    shape: tuple[bool, ...] | None = None  # which columns hold figures, set by the first row
    while pos + k <= len(lines) - 1:
        label, figs = lines[pos], lines[pos + 1 : pos + 1 + k]
        if len(figs) < k or not _short(label) or is_numeric(label.text):
            break
        row_shape = tuple(is_numeric(f.text) for f in figs)
        if not all(_short(f) for f in figs) or row_shape != (shape or row_shape):
            break
        shape = row_shape
        rows.append((label, *figs))
        pos += k + 1
    if len(rows) >= 2 and _cut_row(lines[pos:], shape or ()):
        # The text ends inside a last row (an opening cut mid-table): that row is still the
        # table's, its missing cells empty, so its figures are never read as running text.
        cut = lines[pos:]
        pad = [Cell("", cut[-1].end, cut[-1].end)] * (k + 1 - len(cut))
        rows.append((*cut, *pad))
        pos = len(lines)
    if len(rows) < 2:
        return None
    return Table(header, tuple(rows), header[0].start, rows[-1][-1].end), pos


def _cut_row(rest: list[Cell], shape: tuple[bool, ...]) -> bool:
    """True when ``rest`` (the text's last lines) is the start of one more row of a table
    whose rows have figures in the columns ``shape`` says: a short label, then short cells
    matching the first ``len(rest) - 1`` columns."""
    if not rest or len(rest) > len(shape) or is_numeric(rest[0].text) or not _short(rest[0]):
        return False
    pairs = zip(rest[1:], shape[: len(rest) - 1], strict=True)
    return all(_short(c) and is_numeric(c.text) == want for c, want in pairs)


def _spaced_cells(text: str, start: int, end: int) -> list[Cell]:
    """The cells of a plain-text table row: pieces between tabs or runs of 2+ spaces."""
    out: list[Cell] = []
    pos = start
    for gap in [*_COLUMN_GAP.finditer(text, start, end), None]:
        stop = gap.start() if gap else end
        piece = text[pos:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append(Cell(piece.strip(), pos + lead, pos + lead + len(piece.strip())))
        pos = gap.end() if gap else end
    return out


def _spaced_tables(text: str) -> list[Table]:
    """Plain-text tables: a header of 3+ word cells (no figure), then 2+ rows of as many
    cells each with a figure right of the label; a row of another width ends the table."""
    rows = [
        (m, _spaced_cells(text, m.start(), m.end()))
        for m in _LINE.finditer(text)
        if "|" not in m.group(0) and _COLUMN_GAP.search(m.group(0).strip())
    ]
    tables: list[Table] = []
    i = 0
    while i < len(rows):
        m, head = rows[i]
        if len(head) < 3 or any(is_numeric(c.text) for c in head):
            i += 1
            continue
        body: list[tuple[Cell, ...]] = []
        j, last = i + 1, m.end()
        while j < len(rows):
            nm, cells = rows[j]
            gap = text[last : nm.start()]
            if gap.count("\n") > 2 or gap.strip() or len(cells) != len(head):
                break
            if not any(is_numeric(c.text) for c in cells[1:]):
                break
            body.append(tuple(cells))
            last, j = nm.end(), j + 1
        if len(body) >= 2:
            tables.append(Table(tuple(head), tuple(body), head[0].start, body[-1][-1].end))
            i = j
        else:
            i += 1
    return tables
