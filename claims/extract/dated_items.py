"""A news digest's item dated by a label line ("2. Zhipu AI Open-Sources GLM-5.1" then
"Date: April 7-8", "Source: ..." and the story): the date is that of the release the
story's first sentence reports ("Zhipu AI released its flagship model GLM-5.1 as
open-source ..."). The label is a word of ``lexicon/<lang>/date_labels.txt`` alone before
the date on its line; the story is the first line after it that is no "label: value" line,
within the item (before the next date label).
"""

from __future__ import annotations

import re
from functools import cache

from claims.extract.lexicon import alternation

_LOOK_AHEAD = 600  # characters: a digest item's label lines and first sentence


@cache
def _label_re() -> re.Pattern[str]:
    return re.compile(r"(?:^|\n)[ \t]*(?:" + alternation("date_labels") + r")[ \t]*:[ \t]*$", re.I)


# "Source: CNBC, Bloomberg": a short label and its value on one line
_LABEL_LINE = re.compile(r"[ \t]*[^\W\d_][\w ]{0,20}:\s")
_FIRST_SENTENCE = re.compile(r".*?(?:[.!?](?=\s|$)|$)", re.S)


def is_item_date(text: str, start: int) -> bool:
    """True when the date at ``start`` follows a date label alone on its line ("Date: ")."""
    line_start = text.rfind("\n", 0, start) + 1
    return bool(_label_re().search(text, max(0, line_start - 1), start))


def item_story(text: str, end: int) -> str:
    """The first sentence of the story under the item date ending at ``end`` ("" when the
    item has none before the next date label)."""
    body = text[end : end + _LOOK_AHEAD]
    lines = body.split("\n")[1:]  # the rest of the date's line is no story
    for line in lines:
        if not line.strip() or _LABEL_LINE.match(line):
            if _label_re().search("\n" + line.split(":", 1)[0] + ":"):
                return ""  # the next item's date label: this item has no story
            continue
        m = _FIRST_SENTENCE.match(line.strip())
        return m.group(0) if m else ""
    return ""
