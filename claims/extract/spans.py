"""Character-span helpers of extraction: merging "2,8 trilhões (2.8T)" into one figure,
closeness to a marker, overlap. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from claims.extract import rules as R
from claims.extract.figures import Figure


def merge_parenthetical(figs: list[Figure], text: str) -> list[Figure]:
    """ "2,8 trilhões (2.8T)" is one statement: keep the first figure, spanning both."""
    out: list[Figure] = []
    for f in figs:
        if out:
            p = out[-1]
            between = text[p.end : f.start]
            if (
                between.strip() == "("
                and text[f.end : f.end + 1] == ")"
                and p.to_value() == f.to_value()
            ):
                out[-1] = replace(p, end=f.end + 1, text=text[p.start : f.end + 1])
                continue
        out.append(f)
    return out


_RANGE_JOIN = re.compile(r"\s*(?:to|a|até)\s*|\s*[-–—]\s*", re.I)


def merge_percent_ranges(figs: list[Figure], text: str) -> list[Figure]:
    """ "50%-75%", "50% to 75%", "50%–75%": two percents joined by a dash or "to" are one
    range (the dash is no minus sign)."""
    out: list[Figure] = []
    for f in figs:
        if out:
            p = out[-1]
            gap_start = p.end
            join = _RANGE_JOIN.fullmatch(text, gap_start, f.start)
            dash_in_f = f.text.startswith(("-", "–", "—")) and p.end == f.start
            if (
                p.kind == f.kind == "percent"
                and not p.is_range
                and not f.is_range
                and (join or dash_in_f)
            ):
                out[-1] = replace(
                    p, end=f.end, text=text[p.start : f.end], high_text=f.low_text, negative=False
                )
                continue
        out.append(f)
    return out


_ARTICLE_GAP = re.compile(r"\s*(?:(?:the|o|a|os|as|do|da)\s+)?", re.I)


def after_marker(pos: int, markers: Sequence[R.Named], text: str | None = None) -> bool:
    """True when ``pos`` starts within 3 characters after one of ``markers``, or, given
    the ``text``, after one and an article ("beats the 405B")."""
    for m in markers:
        gap = pos - m.end
        if (
            0 <= gap <= 3
            or text is not None
            and 0 <= gap <= 8
            and _ARTICLE_GAP.fullmatch(text, m.end, pos)
        ):
            return True
    return False


def overlaps(s: int, e: int, spans: Sequence[tuple[int, int]]) -> bool:
    """True when the span ``s``-``e`` overlaps any of ``spans`` (half-open)."""
    return any(s < b and a < e for a, b in spans)
