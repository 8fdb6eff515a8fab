"""The site's reusable JSON encoder (tracker/website/jsontext.py): the text
json.JSONEncoder(...).encode gives, its errors, and calls after an error."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math

import pytest

from tracker.website.jsontext import json_encoder
from tracker.website.views import plain

SAMPLES = [
    {"z": 1, "a": [1, 2.5, -0.0, 1e300, None, True, False], "m": {"é": 'ü\n"\\', "b": ()}},
    [{"b": 1, "a": 2}, "text", 3, 4.25],
    "a plain string with “quotes” and \u2028",
    12,
    None,
    {"nan": math.nan, "inf": math.inf, "neg": -math.inf},
    {1: "int key", 2.5: 2, False: None},
    [],
    {},
]


def outcome(encode, value):  # type: ignore[no-untyped-def]
    """The text, or the type of the error raised (mixed key types cannot be sorted)."""
    try:
        return encode(value)
    except (TypeError, ValueError) as exc:
        return type(exc)


@pytest.mark.parametrize("sort_keys", [True, False])
@pytest.mark.parametrize("separators", [(",", ":"), (", ", ": ")])
def test_the_same_text_as_json_encode(sort_keys, separators):
    encode = json_encoder(sort_keys=sort_keys, separators=separators)
    reference = json.JSONEncoder(sort_keys=sort_keys, separators=separators, ensure_ascii=False)
    for sample in SAMPLES:
        assert outcome(encode, sample) == outcome(reference.encode, sample)
    assert encode({"b": 1, "a": 2}) == ('{"a":2,"b":1}' if sort_keys else '{"b":1,"a":2}').replace(
        ",", separators[0]
    ).replace(":", separators[1])


@dataclasses.dataclass
class _Row:
    when: dt.datetime
    name: str


def test_default_is_used_for_what_json_cannot_hold():
    encode = json_encoder(default=plain)
    value = [_Row(dt.datetime(2026, 12, 1, 20, tzinfo=dt.UTC), "x")]
    expected = json.JSONEncoder(
        default=plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode(value)
    assert encode(value) == expected


def test_errors_are_encodes_and_a_failed_call_leaves_nothing_behind():
    encode = json_encoder()
    with pytest.raises(TypeError, match="not JSON serializable"):
        encode({"a": [object()]})
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        encode(loop)
    shared = [1]
    assert encode({"x": shared, "y": shared}) == '{"x":[1],"y":[1]}'  # not "circular"


def test_threads_encoding_the_same_objects_at_once_see_no_cycle():
    import threading

    shared = [{"k": [i, {"x": i}]} for i in range(200)]
    slow = json_encoder(default=lambda o: sorted(o))  # a Python call mid-encode: threads switch
    value = {"shared": shared, "sets": [{3, 1, 2}] * 50}
    expected = json.dumps(value, default=lambda o: sorted(o), sort_keys=True, separators=(",", ":"))
    results: list[object] = []

    def work() -> None:
        for _ in range(50):
            try:
                results.append(slow(value) == expected)
            except ValueError as exc:  # "Circular reference detected" from another's marks
                results.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == [True] * 200
