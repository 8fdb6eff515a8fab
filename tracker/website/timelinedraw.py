"""The subject timeline drawn as plain SVG: a row per event, its label over it (wrapped
to the canvas), its dot (or a month's bar) placed by date on a shared axis, and the day
beside the mark on the side with room, else under it, so no text leaves the canvas.

Text is measured by estimate: widths per character of a wide sans-serif (DejaVu Sans,
what ``system-ui`` falls back to on Linux; narrower faces only leave more room) at the
15 px the chart uses. tests/test_browser.py measures the drawn text in Chromium.
"""

from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, ROW, TOP, AXIS, PAD = 400, 46, 8, 34, 14
LINE = 18  # a wrapped label's next line, and the day's line under a mark
BOLD_EM, PLAIN_EM = 9.0, 8.9  # px per character at 15 px, bold (labels) and plain (days)
COLOURS = {
    "announced": "#1a4fd6",
    "promised": "#8a4b00",
    "created": "#24506e",
    "landed": "#0b6b34",
    "overdue": "#a3141b",
    "checked": "#5b6270",
}


@dataclass(frozen=True)
class Row:
    """One event's place: ``lines`` of its label, the mark's centre line ``cy`` and x
    from ``cx`` to ``ex`` (equal for a dot), and the day text's ``(x, y, anchor)``."""

    kind: str
    lines: tuple[str, ...]
    top: float
    cy: float
    cx: float
    ex: float
    day: str
    day_at: tuple[float, float, str]


def label_lines(text: str, width: int = WIDTH) -> tuple[str, ...]:
    """``text`` in lines that fit the canvas in bold (wrapped at spaces; a word longer
    than a line is split, never cut)."""
    per_line = max(8, int((width - 2 * PAD) / BOLD_EM))
    return tuple(textwrap.wrap(text, per_line, break_on_hyphens=False)) or ("",)


def _day_place(cx: float, ex: float, cy: float, day: str, width: int) -> tuple[float, float, str]:
    """Right of the mark, else left of it, else on a line of its own under it (inside the
    canvas); y is the text's baseline."""
    tw = PLAIN_EM * len(day)
    if ex + 10 + tw <= width - 2:
        return ex + 10, cy + 5, "start"
    if cx - 10 - tw >= 2:
        return cx - 10, cy + 5, "end"
    return max(PAD, min(cx, width - PAD - tw)), cy + 6 + LINE, "start"


def layout(
    kinds: Sequence[str],
    spans: Sequence[tuple[dt.datetime, dt.datetime]],
    rows: Sequence[tuple[str, ...]],
    width: int = WIDTH,
) -> tuple[list[Row], int]:
    """Each event's :class:`Row` (``kinds``, ``spans`` = (moment, end), ``rows`` = (label,
    day), in time order) and the canvas height."""
    lo, hi = min(m for m, _ in spans), max(e for _, e in spans)
    total = (hi - lo).total_seconds() or 1.0

    def x(m: dt.datetime) -> float:
        return PAD + (width - 2 * PAD) * (m - lo).total_seconds() / total

    out, top = [], float(TOP)
    for kind, (m, end), (text, day) in zip(kinds, spans, rows, strict=True):
        lines = label_lines(text, width)
        cy = top + 32 + LINE * (len(lines) - 1)
        cx, ex = x(m), x(end)
        at = _day_place(cx, ex, cy, day, width)
        out.append(Row(kind, lines, top, cy, cx, ex, day, at))
        below = at[1] - (cy + 5)  # a day on a line of its own under the mark
        top = cy + below + ROW - 32
    return out, int(top) + AXIS


def height(
    spans: Sequence[tuple[dt.datetime, dt.datetime]], rows: Sequence[tuple[str, ...]]
) -> int:
    """The canvas height :func:`layout` needs."""
    return layout(["" for _ in rows], spans, rows)[1]


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw(
    kinds: Sequence[str],
    spans: Sequence[tuple[dt.datetime, dt.datetime]],
    rows: Sequence[tuple[str, ...]],
    width: int = WIDTH,
) -> bytes:
    """The SVG bytes (see the module docstring); the stretch from the latest promise to
    an ``overdue`` check is a red bar on the axis."""
    placed, h = layout(kinds, spans, rows, width)
    axis_y = h - AXIS + 6
    lo, hi = min(m for m, _ in spans), max(e for _, e in spans)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" '
        f'viewBox="0 0 {width} {h}" font-family="system-ui, sans-serif" font-size="15">',
        f'<rect width="{width}" height="{h}" fill="#ffffff"/>',
        f'<line x1="{PAD}" y1="{axis_y}" x2="{width - PAD}" y2="{axis_y}" stroke="#8a909c"/>',
    ]
    if "overdue" in kinds and "promised" in kinds:
        last = max(r.ex for r in placed if r.kind == "promised")
        due = next(r.cx for r in placed if r.kind == "overdue")
        parts.append(
            f'<rect x="{last:.1f}" y="{axis_y - 3}" width="{due - last:.1f}" height="6" '
            'fill="#a3141b"/>'
        )
    for r in placed:
        parts += _row(r, axis_y)
    parts += [
        f'<text x="{PAD}" y="{axis_y + 22}" fill="#5b6270">{lo:%Y-%m-%d}</text>',
        f'<text x="{width - PAD}" y="{axis_y + 22}" text-anchor="end" fill="#5b6270">'
        f"{hi:%Y-%m-%d} (UTC)</text>",
        "</svg>",
    ]
    return ("\n".join(parts) + "\n").encode()


def _row(r: Row, axis_y: float) -> list[str]:
    colour = COLOURS.get(r.kind, "#16181d")
    mark = (
        f'<rect x="{r.cx - 6:.1f}" y="{r.cy - 6:g}" width="{r.ex - r.cx + 12:.1f}" height="12" '
        f'rx="6" fill="{colour}"/>'
        if r.ex != r.cx
        else f'<circle cx="{r.cx:.1f}" cy="{r.cy:g}" r="6" fill="{colour}"/>'
    )
    out = [
        f'<line x1="{r.cx:.1f}" y1="{r.cy:g}" x2="{r.cx:.1f}" y2="{axis_y}" stroke="{colour}" '
        'stroke-dasharray="2 3"/>',
        mark,
    ]
    for k, line in enumerate(r.lines):
        y = r.top + 19 + LINE * k
        # a white box under each label line: the guides of earlier dots never cross it
        out += [
            f'<rect x="{PAD - 2}" y="{y - 15:g}" width="{BOLD_EM * len(line):.0f}" height="20" '
            'fill="#ffffff"/>',
            f'<text x="{PAD}" y="{y:g}" fill="{colour}" font-weight="600">{_esc(line)}</text>',
        ]
    x, y, anchor = r.day_at
    out.append(
        f'<text x="{x:.1f}" y="{y:g}" text-anchor="{anchor}" fill="#16181d">{_esc(r.day)}</text>'
    )
    return out
