"""The site's reusable JSON encoder (tracker/website/jsontext.py): the text
json.JSONEncoder(...).encode gives, its errors, and calls after an error."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math

import pytest

from tracker.website.jsontext import json_encoder, plain_values, sorted_json_fast
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


# Floats at the edges of the range both encoders print alike, and past them.
SAME_FLOATS = [0.0, -0.0, 1e-4, 0.00012, 0.5, 1.5, 2.8e12, 1e15, 9999999999999998.0, -123.456]
OTHER_FLOATS = [1e-05, 3.9e-05, 1e16, 1.5e16, 1e300, 5e-324, math.nan, math.inf, -math.inf]


def test_the_fast_encoder_gives_the_same_text_for_plain_values():
    fast = sorted_json_fast()
    assert fast is not None  # orjson is a dependency
    encode = json_encoder()
    record = {
        "z": 'ü\n"\\ \u2028 \x00\x1f\x7f 漢 😀',
        "a": [1, "two", None],
        "n": None,
        "b": True,
        "i": -(2**63),
        "é": 7,
        "Z": False,
        "ids": [],
    }
    for x in SAME_FLOATS:
        record["f"] = x
        assert plain_values(record)
        assert fast(record) == encode(record)
        assert fast({"v": record}) == encode({"v": record})


def test_plain_values_refuses_what_the_fast_encoder_prints_otherwise():
    for x in OTHER_FLOATS:
        assert not plain_values({"value": x, "unit": "params"})
    assert not plain_values({"extra": {"a": 1}})  # nested: not checked
    assert not plain_values({"a": [1.5]})
    assert not plain_values({"when": dt.datetime(2026, 12, 1, tzinfo=dt.UTC)})
    fast = sorted_json_fast()
    assert fast is not None
    # what it refuses raises TypeError (orjson.JSONEncodeError), so the caller falls back
    for bad in ({"big": 2**64}, {1: "int key"}, {"lone": "\ud800"}):
        with pytest.raises(TypeError):
            fast(bad)
