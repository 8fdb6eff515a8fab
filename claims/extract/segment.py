"""Split article text into paragraphs, sentences and clauses, keeping character offsets.

Input: plain text. Output: :class:`Sentence` spans (with paragraph index) and clause
bounds; extraction uses them to keep a figure's context inside its own statement.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property

from claims.extract.lexicon import alternation, phrases, words

# Words whose trailing period does not end a sentence.
ABBREVIATIONS = frozenset(words("abbreviations"))
_END_RE = re.compile(r"[.!?…]+[\"”')]*\s+(?=[\"“(•]?\s*[A-ZÀ-ÝÂÊÔÃÕÇ0-9])")
_CLAUSE_RE = re.compile(r"\s*(?:[,;:](?=\s)|[—–]|\s-\s)\s*")
# A discourse aside between two commas ("Zephyr-Max, by comparison, charges $3") ends no
# clause: the name before it is the subject of the verb after it.
_ASIDE_RE = re.compile(r"(?:" + phrases("discourse_asides") + r")", re.IGNORECASE)
HYPOTHETICAL_RE = re.compile(
    r"^\W*(?:" + alternation("hypothetical_openers") + r")\b", re.IGNORECASE
)
# A condition later in the sentence: "... in December if regulators approve", "unless".
# pt "se" and "caso" are left out here: a reflexive pronoun and a noun ("neste caso").
CONDITION_RE = re.compile(
    r"\b(?:" + phrases("condition_words") + r")\s+\w",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Sentence:
    """A sentence at ``start``-``end`` in paragraph number ``paragraph`` (0-based)."""

    start: int
    end: int
    paragraph: int
    text: str

    @cached_property  # asked for every figure of the sentence
    def hypothetical(self) -> bool:
        """Conditional or question ("Se ...", "If ...", "... if regulators approve", ends
        with "?"): figures are not claims."""
        return bool(
            HYPOTHETICAL_RE.match(self.text) or CONDITION_RE.search(self.text)
        ) or self.text.rstrip().endswith("?")

    @cached_property
    def _separators(self) -> list[tuple[int, int]]:
        seps = [m.span() for m in _CLAUSE_RE.finditer(self.text)]
        aside = {
            i
            for i in range(len(seps) - 1)
            if self.text[seps[i][0] : seps[i][1]].strip() == ","
            and self.text[seps[i + 1][0] : seps[i + 1][1]].strip() == ","
            and _ASIDE_RE.fullmatch(self.text[seps[i][1] : seps[i + 1][0]])
        }
        return [x for i, x in enumerate(seps) if i not in aside and i - 1 not in aside]

    def clause_bounds(self, pos: int) -> tuple[int, int]:
        """Absolute (start, end) of the clause holding absolute offset ``pos``."""
        rel = pos - self.start
        lo, hi = 0, len(self.text)
        for a, b in self._separators:
            if b <= rel:
                lo = b
            elif a >= rel:
                hi = a
                break
        return self.start + lo, self.start + hi


class Segments:
    """Sentences of a text with fast offset lookup."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = list(_split(text))
        self._starts = [s.start for s in self.sentences]

    def at(self, pos: int) -> Sentence:
        """The sentence containing absolute offset ``pos``."""
        i = max(0, bisect.bisect_right(self._starts, pos) - 1)
        return self.sentences[i]


def _split(text: str):  # type: ignore[no-untyped-def]
    para = 0
    pos = 0
    for line in text.split("\n"):
        line_start = pos
        pos += len(line) + 1
        if not line.strip():
            continue
        cursor = 0
        for m in _END_RE.finditer(line):
            head = line[cursor : m.start()]
            last_word = re.findall(r"(\w+)$", head)
            if last_word and last_word[0].lower() in ABBREVIATIONS and line[m.start()] == ".":
                continue
            end = m.end()
            yield _sentence(line, cursor, end, line_start, para)
            cursor = end
        if cursor < len(line):
            yield _sentence(line, cursor, len(line), line_start, para)
        para += 1


def _sentence(line: str, a: int, b: int, offset: int, para: int) -> Sentence:
    chunk = line[a:b]
    lead = len(chunk) - len(chunk.lstrip())
    body = chunk.strip()
    return Sentence(offset + a + lead, offset + a + lead + len(body), para, body)
