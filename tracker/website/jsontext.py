"""JSON text of the site's files and keys, from one reusable encoder per format.

``json.JSONEncoder.encode`` makes a new C encoder object on every call (``iterencode``);
for the small objects a site build encodes ~100,000 times (claim and card records,
qualifiers, page keys) that set-up was most of the cost. :func:`json_encoder` makes that
C encoder once, with the same arguments ``encode`` would pass it, so the text is the
same; where it cannot (no C accelerator, a Python whose encoder takes other arguments)
it is ``encode`` itself. Each thread has its own (the circular-reference check marks
the objects a call is inside).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from json import encoder as _json_encoder
from typing import Any

# A sample holding every kind of value: the reused encoder must give ``encode``'s text.
_SAMPLE = {"b": [1, 2.5, None, True, False], "a": {'é\n"': "x"}, "c": (1e100, -0.0)}


def json_encoder(
    *,
    sort_keys: bool = True,
    separators: tuple[str, str] = (",", ":"),
    default: Callable[[Any], Any] | None = None,
) -> Callable[[Any], str]:
    """A function giving what ``json.JSONEncoder(sort_keys=sort_keys,
    separators=separators, ensure_ascii=False, default=default).encode`` gives (the
    same text, the same errors for what JSON cannot hold), cheaper per call."""
    base = json.JSONEncoder(
        sort_keys=sort_keys, separators=separators, ensure_ascii=False, default=default
    )
    make = getattr(_json_encoder, "c_make_encoder", None)
    if make is None:
        return base.encode
    item_separator, key_separator = separators
    # encode's arguments after the marks: default, strings, indent, separators, sort,
    # skipkeys, allow_nan
    text = _json_encoder.encode_basestring
    args: tuple[Any, ...] = (base.default, text, None, key_separator, item_separator)
    args += (sort_keys, False, True)
    per_thread = threading.local()  # the circular-reference marks are a call's own

    def encoder_here() -> tuple[Any, dict[int, Any]]:
        made = getattr(per_thread, "made", None)
        if made is None:
            markers: dict[int, Any] = {}
            made = per_thread.made = (make(markers, *args), markers)
        return made  # type: ignore[no-any-return]

    def encode(o: Any) -> str:
        if o.__class__ is str:
            return text(o)  # type: ignore[no-any-return]
        encode_c, markers = encoder_here()
        try:
            return "".join(encode_c(o, 0))
        except BaseException:
            markers.clear()  # what a failed call left marked
            raise

    try:
        same = encode(_SAMPLE) == base.encode(_SAMPLE)
    except (TypeError, ValueError):  # another Python's arguments
        same = False
    return encode if same else base.encode
