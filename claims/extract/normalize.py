"""Punctuation as real pages write it, mapped to the forms the readers expect.

Web pages write model and benchmark names with non-breaking hyphens ("GPT‑4o",
"SWE‑bench"), figure dashes or minus signs; each is replaced by an ASCII hyphen-minus,
character for character, so every offset into the result is an offset into the original
text (quotes stay at their place; only these characters differ). Dashes that separate
ranges or clauses (en dash, em dash) and spaces (NBSP and NNBSP group digits in pt-PT,
cases/C11) are left alone.
"""

from __future__ import annotations

import re
from functools import cache

from claims.extract.lexicon import words
from claims.values.numbers import SCALE_WORD_PATTERN

# U+2010 hyphen, U+2011 non-breaking hyphen, U+2012 figure dash, U+2212 minus sign,
# U+FE63 small hyphen-minus, U+FF0D fullwidth hyphen-minus.
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2212\ufe63\uff0d", "-"))


def normalize_hyphens(text: str) -> str:
    """``text`` with every hyphen-like character as ``-``; same length, same offsets."""
    return text.translate(_HYPHENS)


# "a 1.1-trillion-parameter model", "a 70B-parameter MoE model": the hyphens of a compound
# adjective of a model, read as spaces so the figure keeps its scale. Only before a model
# noun: "a 10-billion-parameter dense transformer running beside ..." may be a part.
_COMPOUND = re.compile(
    rf"(?P<num>\d(?:[.,]\d+)?(?:-(?:{SCALE_WORD_PATTERN})|[KMBT]))-(?P<p>param(?:eter)?s?|parâmetros?)"
    r"(?=(?:[\s-]+[\w-]+){0,3}?[\s-]+(?:model|LLM|modelo|MoE)\b)",
    re.I,
)


# "an 8-billion parameter instruction model": a number hyphened to its scale word, then
# "parameter(s)" after a space; the hyphen is read as a space.
_HYPHENED_SCALE = re.compile(
    rf"\d(?:[.,]\d+)?-(?:{SCALE_WORD_PATTERN})(?=\s+(?:param(?:eter)?s?|parâmetros?)\b)", re.I
)


def normalize_compounds(text: str) -> str:
    """``text`` with the hyphens of a model's number compound ("1.1-trillion-parameter
    model", "8-billion parameter model") as spaces; same length, same offsets."""
    text = _HYPHENED_SCALE.sub(lambda m: m.group(0).replace("-", " "), text)
    return _COMPOUND.sub(lambda m: m.group(0).replace("-", " "), text)


# List items glued where a page lost the line break ("16k tokens.-Deepseek Coder V2"): the
# hyphen after a sentence's end, before a capital, is read as a space so the next item is
# a sentence of its own and its model name is found. A word of two letters or more ends
# the sentence ("U.S.-China" stays).
_GLUED_ITEM = re.compile(r"(?<=[a-zà-ú0-9]{2}[.!?])-(?=[A-ZÀ-Ý])")


def normalize_glued_items(text: str) -> str:
    """``text`` with the hyphen of a glued list item (".-Next") as a space; same length,
    same offsets."""
    return _GLUED_ITEM.sub(" ", text)


# Hard-wrapped prose (plain-text mail, newsletters, a file saved at 72-80 columns): each
# line would be a paragraph of its own and "$0.40 per million\noutput tokens" lost its
# side. In a block of lines (no blank line between them) whose lines are of one width and
# mostly end mid-sentence, a line break after an open line (at least 70 % of the block's
# width, as a wrapped line is) becomes a space. Headings, bullets and "label: value"
# lines start no joined line; tables end a block; spec cards' short lines and tables
# flattened to one row per line (cells apart by single spaces) are narrower than 55
# columns, of uneven lengths or without a sentence end, and stay apart.
_WRAP_OPEN_END = re.compile(r"[^.!?…:;]['\"”’)\]]*$")
_WRAP_NEW_ITEM = re.compile(r"[ \t]*(?:[-*•·▪‣◦>#|]|\d{1,2}[.)]\s|[^\n:|]{1,40}:\s)")
# A table's line: cells apart by "|", a tab or a run of spaces (not the two spaces some
# writers put after a full stop).
_WRAP_NOT_PROSE = re.compile(r"[|\t]|(?<![.!?:;])  +(?=\S)")
_WRAP_SENTENCE_END = re.compile(r"[^\W\d_][)\"”’]?[.!?](?:\s|$)")
_WRAP_MIN_WIDTH = 55
_WRAP_MAX_WIDTH = 120


def normalize_wraps(text: str) -> str:
    """``text`` with the line breaks inside hard-wrapped paragraphs as spaces (see above);
    same length, same offsets."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    joins: list[int] = []
    pos = 0
    block: list[tuple[int, str]] = []
    for line in [*lines, ""]:
        if line.strip() and not _WRAP_NOT_PROSE.search(line.strip()):
            block.append((pos, line))
        else:
            joins.extend(_wrap_joins(block))
            block = []
        pos += len(line) + 1
    if not joins:
        return text
    buf = list(text)
    for i in joins:
        buf[i] = " "
    return "".join(buf)


def _wrap_joins(block: list[tuple[int, str]]) -> list[int]:
    """Offsets of the line breaks to join in one block of (offset, line) pairs."""
    if len(block) < 2:
        return []
    width = max(len(line.rstrip()) for _, line in block)
    if not _WRAP_MIN_WIDTH <= width <= _WRAP_MAX_WIDTH:
        return []
    if not any(_WRAP_SENTENCE_END.search(line) for _, line in block):
        return []  # rows of a flattened table: no sentence ends in the block
    inner = block[:-1]
    open_ends = [
        (start, line)
        for start, line in inner
        if _WRAP_OPEN_END.search(line.rstrip())
        and len(line.rstrip()) >= 0.7 * width
        and not line.lstrip().startswith("#")
    ]
    if 2 * len(open_ends) < len(inner):
        return []
    follows = {start: block[i + 1][1] for i, (start, _) in enumerate(inner)}
    return [
        start + len(line) for start, line in open_ends if not _WRAP_NEW_ITEM.match(follows[start])
    ]


# Emphasis written into pasted text: model cards mark a table's best score in bold
# ("| **66.4** |", "<u>65.0</u>", "<b>71.3</b>"); the marks hid the figure from the
# readers. Paired markdown ``**``/``__`` and inline HTML emphasis tags become spaces.
# Not ``<sup>``/``<sub>``: their content (a footnote number) would join the text.
_MD_EMPHASIS = re.compile(r"(\*\*|__)(?=\S)([^\n*_]*?\S)\1")
_HTML_EMPHASIS = re.compile(r"</?(?:b|strong|u|em|i|mark|ins|span)(?:\s[^<>\n]*)?>", re.I)


def normalize_emphasis(text: str) -> str:
    """``text`` with paired markdown emphasis (``**x**``, ``__x__``) and inline HTML
    emphasis tags (``<b>``, ``<strong>``, ``<u>``, ``<em>``, ``<i>``, ``<mark>``,
    ``<ins>``, ``<span ...>``) as spaces; same length, same offsets."""
    text = _HTML_EMPHASIS.sub(lambda m: " " * len(m.group(0)), text)
    return _MD_EMPHASIS.sub(
        lambda m: " " * len(m.group(1)) + m.group(2) + " " * len(m.group(1)), text
    )


_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@cache
def _latex_letters() -> dict[str, str]:
    return dict(line.split() for line in words("latex_letters"))


@cache
def _latex_math() -> re.Pattern[str]:
    names = "|".join(sorted(_latex_letters(), key=len, reverse=True))
    return re.compile(rf"\$\\(?P<cmd>{names})(?:\^\{{?(?P<sup>\d)\}}?)?\$")


def normalize_latex(text: str) -> str:
    """``text`` with inline LaTeX math of one Greek letter and maybe a one-digit power, as
    model cards write a benchmark's name ("$\\tau^2$-Bench"), as that letter and
    superscript ("τ²-Bench"), right-aligned after spaces; same length, same offsets. The
    commands are ``lexicon/latex_letters.txt``."""

    def letter(m: re.Match[str]) -> str:
        out = _latex_letters()[m.group("cmd")] + (m.group("sup") or "").translate(_SUPERSCRIPTS)
        return " " * (len(m.group(0)) - len(out)) + out

    return _latex_math().sub(letter, text)
