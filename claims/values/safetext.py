"""Third-party text made safe for where it goes (issue 20: output is escaped for its
destination). Scraped licences, names and claimants can hold control characters,
terminal escape sequences, bidirectional overrides, formula starts and chat mentions;
each function below makes text harmless for ONE destination and changes nothing else.
HTML is Jinja2's autoescape (templates), not here.

- :func:`xml_text`: XML 1.0 allows no C0 control but tab, LF and CR, no surrogate and
  not U+FFFE/U+FFFF (lxml raises on them): each becomes U+FFFD.
- :func:`terminal_text`: control characters (C0 but tab/LF, DEL, C1, so ESC/OSC/BEL
  sequences) and bidi controls show as visible escapes (``\\x1b``, ``\\u202e``).
- :func:`csv_cell`: a cell a spreadsheet would read as a formula (starting with ``=``,
  ``+``, ``-``, ``@``, tab or CR; OWASP "CSV injection") gets a leading ``'``.
- :func:`chat_text`: ``@everyone``/``@here``/``@channel`` and ``<@...>``/``<!...>``
  mentions are broken with U+2060 WORD JOINER after the ``@`` (``<``); markdown links
  ``[text](url)`` become ``text (url)`` and URLs are wrapped in backticks, so a chat
  service shows them as text, not as links; control characters are dropped.
"""

from __future__ import annotations

import re
from typing import Any

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TERMINAL_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_MENTION = re.compile(r"@(?=(everyone|here|channel|all)\b)", re.I)
_ANGLE_MENTION = re.compile(r"<([@!#&])")
_MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\s]*)\)")
_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>`()\[\]]+", re.I)
WORD_JOINER = "\u2060"


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by U+FFFD."""
    return _XML_BAD.sub("\ufffd", text)


def _visible(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """``text`` with control and bidi characters shown as visible escapes
    (``"a\\x1b[31mb"`` -> ``"a\\\\x1b[31mb"``): nothing from data moves the cursor, sets
    a title (OSC), rings the bell or reorders the line."""
    return _TERMINAL_BAD.sub(_visible, text)


def csv_cell(text: str) -> str:
    """``text`` prefixed with ``'`` when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_cells(cells: list[Any]) -> list[Any]:
    """``cells`` with each text cell made safe by :func:`csv_cell` (other cells as they
    are): one call per row, not per cell (a 30,000-claim export has 450,000 cells)."""
    start = _FORMULA_START
    return [("'" + c if c.startswith(start) else c) if isinstance(c, str) else c for c in cells]


def chat_text(text: str) -> str:
    """``text`` safe for a chat message: mentions neutralized, links shown as text
    (``"@everyone see [here](https://x)"`` -> ``"@\\u2060everyone see here
    (`https://x`)"``), control characters removed."""
    text = _TERMINAL_BAD.sub("", text)
    text = _MENTION.sub("@" + WORD_JOINER, text)
    text = _ANGLE_MENTION.sub(lambda m: "<" + WORD_JOINER + m.group(1), text)
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    return _URL.sub(lambda m: f"`{m.group(0)}`", text)
