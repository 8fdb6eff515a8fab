"""The annotated document extraction reads: the article text (hyphens normalised), its
paragraphs, sentences and clauses (:mod:`claims.extract.segment`), its tables
(:mod:`claims.extract.tables`) and its lines: bullets and "label: value" lines, each with
character offsets into the text. Built once per article; the annotators (figures, dates,
benchmarks, model names, claimants) add their span layers on top of it. Pure.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from claims.extract.normalize import (
    normalize_compounds,
    normalize_emphasis,
    normalize_glued_items,
    normalize_hyphens,
    normalize_latex,
    normalize_wraps,
)
from claims.extract.segment import Segments
from claims.extract.tables import Table, find_tables

_LINE = re.compile(r"[^\n]*")
_BULLET = re.compile(r"[ \t]*(?:[-*•·▪‣◦]|\d{1,2}[.)])\s+")
# "label: value" (a short label without a sentence end, then a colon and a space), or a
# spec card's "Contexto:128K" / "Entrada:$0.22/M" (a word, a colon, then a figure).
_LABEL = re.compile(
    r"[ \t]*(?:(?:[-*•·▪‣◦]|\d{1,2}[.)])\s+)?(?P<label>[^\n:]{1,40}?)"
    r"(?:\s*:(?=\s)|(?<=[^\W\d_]):(?=[\d$€£]))"
)


# A Markdown heading ("# Cirrus 12B: what we know", "## Pricing").
_MD_HEADING = re.compile(r"[ \t]*#{1,6}\s+\S")
_SENTENCE_END = re.compile(r"[.!?…:;,]\s*$")
# A spec card's value line: one short value, a figure or a name ("$0.30", "256K",
# "Apache 2.0"), no sentence.
# A list may carry the card ("- Context window" over "- 128,000 tokens (128K)"), and the
# value may end with a short note in brackets.
_CARD_BULLET = r"(?:[-*•·▪‣◦][ \t]+)?"
_CARD_VALUE = re.compile(
    rf"[ \t]*{_CARD_BULLET}[$€£]?\s*[\w.,/ +~≈-]{{1,24}}(?:\([^()\n]{{1,12}}\))?[ \t]*"
)
# A figure-led value line ("128K", "$2 / $5"), not a name ("Yi-34B" over "Parameters").
_FIGURE_LED = re.compile(r"[ \t]*[~≈]?[$€£]?\s*\d")
# A spec card's label line: a few words, maybe a unit note ("Input Tokens (1M)",
# "Licence", "Context Window"), starting with a letter and ending without punctuation.
_CARD_LABEL = re.compile(
    rf"[ \t]*{_CARD_BULLET}[^\W\d_][^\n.!?:;,]{{0,39}}?(?:\([^()\n]{{1,12}}\))?[ \t]*"
)


@dataclass(frozen=True)
class Line:
    """One line at ``start``-``end``; ``bullet``: it opens a list item; ``label``: the
    span of its "label" in "label: value", or ``None``."""

    start: int
    end: int
    bullet: bool
    label: tuple[int, int] | None


@dataclass
class Document:
    """An article ready for the annotators (see the module doc)."""

    text: str
    segments: Segments
    tables: list[Table]
    lines: list[Line]
    _starts: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def read(cls, text: str) -> Document:
        """Annotate ``text``: normalise hyphens, number compounds and glued list items (same
        length), segment it, find its tables and lines."""
        text = normalize_wraps(
            normalize_glued_items(
                normalize_compounds(normalize_hyphens(normalize_emphasis(normalize_latex(text))))
            )
        )
        lines: list[Line] = []
        for m in _LINE.finditer(text):
            if m.start() == m.end() and lines and lines[-1].end == m.start():
                continue  # the empty match finditer yields at each line's end
            lab = _LABEL.match(text, m.start(), m.end())
            label = (lab.start("label"), lab.end("label")) if lab else None
            lines.append(Line(m.start(), m.end(), bool(_BULLET.match(text, m.start())), label))
        return cls(text, Segments(text), find_tables(text), lines)

    def headings(self) -> list[Line]:
        """The title and headings: Markdown ``#`` lines, and the article's first line of
        words (a "# source: URL" note is none) when it is short (at most 140 characters),
        ends with no sentence punctuation, and a blank line or a sentence follows it: a
        headline above its body. Lines holding a URL are notes, not headings."""
        text = self.text
        body = [
            ln
            for ln in self.lines
            if text[ln.start : ln.end].strip() and "://" not in text[ln.start : ln.end]
        ]
        out = [ln for ln in body if _MD_HEADING.match(text, ln.start, ln.end)]
        plain = [ln for ln in body if ln not in out]
        if plain and (not out or plain[0].start < out[0].start):
            first = plain[0]
            words = text[first.start : first.end].strip()
            i = self.lines.index(first)
            nxt = (
                text[self.lines[i + 1].start : self.lines[i + 1].end]
                if i + 1 < len(self.lines)
                else ""
            )
            if len(words) <= 140 and not _SENTENCE_END.search(words):
                if not nxt.strip() or _SENTENCE_END.search(nxt):
                    out.insert(0, first)
        return out

    def card_label(self, line: Line) -> Line | None:
        """The label line of a spec card's value ``line``: when ``line`` holds one short
        value and no label, the line below it in a card written value first
        (:meth:`_values_above_labels`), else the nearest non-blank line above it (across at most two blank
        lines) when that is a short label with no figure-led text ("Input Tokens (1M)"
        above "$0.30", "Licence" above "Apache 2.0"); else ``None``."""
        text = self.text
        if not _CARD_VALUE.fullmatch(text, line.start, line.end):
            return None
        i = self.lines.index(line)
        if self._values_above_labels(i):
            nxt = self.lines[i + 1] if i + 1 < len(self.lines) else None
            return nxt if nxt is not None and self._label_line(nxt) else None
        for prev in self.lines[max(0, i - 3) : i][::-1]:
            if not text[prev.start : prev.end].strip():
                continue
            ok = prev.label is None and _CARD_LABEL.fullmatch(text, prev.start, prev.end)
            words = _BULLET.sub("", text[prev.start : prev.end], count=1)
            return prev if ok and len(words.split()) <= 5 else None
        return None

    def _label_line(self, ln: Line) -> bool:
        """A card's label line: a few words, no figure, no "label:" of its own."""
        words = self.text[ln.start : ln.end]
        return (
            ln.label is None
            and not any(ch.isdigit() for ch in words)
            and bool(_CARD_LABEL.fullmatch(words))
            and len(words.split()) <= 5
        )

    def _values_above_labels(self, i: int) -> bool:
        """True when line ``i`` is a value of a card written value first ("128K" over
        "Context window", "131K" over "Max output"): its block of lines (between blank
        lines) opens with a figure's line and then a label line, and ``i`` is an even
        step from that first value."""
        text = self.text
        j = i
        while j > 0 and text[self.lines[j - 1].start : self.lines[j - 1].end].strip():
            j -= 1
        if j + 1 >= len(self.lines) or (i - j) % 2:
            return False
        first, second = self.lines[j], self.lines[j + 1]
        value = text[first.start : first.end]
        return (
            bool(_CARD_VALUE.fullmatch(value))
            and bool(_FIGURE_LED.match(value))
            and self._label_line(second)
        )

    def line_at(self, pos: int) -> Line:
        """The line holding offset ``pos``."""
        if len(self._starts) != len(self.lines):
            self._starts = [ln.start for ln in self.lines]
        i = bisect.bisect_right(self._starts, pos) - 1
        return self.lines[max(i, 0)]
