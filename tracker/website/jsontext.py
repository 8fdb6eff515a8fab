"""JSON text of the site's files and keys, from one reusable encoder per format.

``json.JSONEncoder.encode`` makes a new C encoder object on every call (``iterencode``);
for the small objects a site build encodes ~100,000 times (claim and card records,
qualifiers, page keys) that set-up was most of the cost. :func:`json_encoder` makes that
C encoder once, with the same arguments ``encode`` would pass it, so the text is the
same; where it cannot (no C accelerator, a Python whose encoder takes other arguments)
it is ``encode`` itself.
"""

from __future__ import annotations

import json
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
    markers: dict[int, Any] = {}  # the circular-reference check, as encode's
    try:
        encode_c = make(
            markers,
            base.default,
            _json_encoder.encode_basestring,
            None,
            key_separator,
            item_separator,
            sort_keys,
            False,
            True,
        )
    except TypeError:  # another Python's signature
        return base.encode
    text = _json_encoder.encode_basestring

    def encode(o: Any) -> str:
        if o.__class__ is str:
            return text(o)  # type: ignore[no-any-return]
        try:
            return "".join(encode_c(o, 0))
        except BaseException:
            markers.clear()  # what a failed call left marked
            raise

    try:
        same = encode(_SAMPLE) == base.encode(_SAMPLE)
    except (TypeError, ValueError):
        same = False
    return encode if same else base.encode
