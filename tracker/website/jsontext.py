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


def sorted_json_fast() -> Callable[[Any], str] | None:
    """orjson's sorted-keys dumps as text, or None without orjson (then the caller
    uses :func:`json_encoder`). About four times as fast on the small records a site
    encodes 30,000 times (claim records), and its text is :func:`json_encoder`'s for
    what the callers give it, checked by :func:`plain_values` first: dicts with str keys;
    str, int, bool, None, lists of those; floats from 1e-4 to under 1e16 (or zero).
    (``tests/test_site_jsontext.py`` compares the two on such values.)
    Other floats print otherwise (``0.00001`` for ``1e-05``, ``1e16`` for
    ``1e+16``, ``null`` for NaN); ints past 64 bits, str subclasses with their own
    text and lone surrogates raise ``orjson.JSONEncodeError`` (a ``TypeError``)."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; kept optional for embedders
        return None
    dumps, option = orjson.dumps, orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS

    def encode(o: Any) -> str:
        return dumps(o, option=option).decode("utf-8")

    return encode


def plain_values(d: dict[str, Any]) -> bool:
    """Whether every value of ``d`` is a str, int, bool or None, a float that prints
    the same from orjson and ``json`` (zero, or 1e-4 <= abs < 1e16; not NaN or
    infinite), or a list of str, int or None: :func:`sorted_json_fast` gives
    ``json``'s text for it. A nested dict is not checked: False."""
    for v in d.values():
        c = v.__class__
        if c is str or c is int or c is bool or v is None:
            continue
        if c is float:
            if not (1e-4 <= abs(v) < 1e16 or v == 0):  # NaN compares false
                return False
        elif c is not list or not all(
            x.__class__ is str or x.__class__ is int or x is None for x in v
        ):
            return False
    return True
