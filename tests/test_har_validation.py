"""tracker.net.harcheck through HarReplayTransport: a HAR file is validated once, with
one line per malformed entry, never a traceback (issue 20, item 2: nine malformed
shapes crashed `check --replay` and `parse`)."""

from __future__ import annotations

import json

import pytest

from tracker.errors import ConfigError
from tracker.net.har import HarReplayTransport

GOOD = {
    "startedDateTime": "2026-11-28T06:00:00Z",
    "request": {"method": "GET", "url": "https://a.example/x"},
    "response": {"status": 200, "headers": [], "content": {"text": "ok"}},
}


def _bad(**changes):
    entry = json.loads(json.dumps(GOOD))
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        node = entry
        for p in parents:
            node = node[p]
        node[last] = value
    return entry


CASES = {
    "null entry": (None, "log.entries[1]: expected an object, got NoneType"),
    "invalid url": (_bad(request__url="https://[::1"), "log.entries[1]: request.url:"),
    "relative url": (_bad(request__url="/x"), "is not an absolute http(s) URL"),
    "header value a number": (
        _bad(response__headers=[{"name": "ETag", "value": 7}]),
        "log.entries[1]: response.headers[0]: name and value must be text",
    ),
    "content a string": (
        _bad(response__content="hello"),
        "log.entries[1]: response.content: expected an object, got str",
    ),
    "year 9999": (
        _bad(startedDateTime="9999-12-31T23:59:59-01:00"),
        "log.entries[1]: startedDateTime: '9999-12-31T23:59:59-01:00' is outside the years",
    ),
    "status text": (_bad(response__status="200"), "response.status: expected 100-599"),
    "request null": (_bad(request=None), "log.entries[1]: request: expected an object"),
    "bad base64": (
        _bad(response__content={"text": "%%%", "encoding": "base64"}),
        "response.content.text: not valid base64",
    ),
    "time without offset": (_bad(startedDateTime="2026-11-28T06:00:00"), "has no UTC offset"),
    "headers null": (_bad(response__headers=None), "response.headers: expected a list"),
    "method a number": (_bad(request__method=1), "request.method: expected a method name"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_malformed_entry_is_one_line_naming_it(tmp_path, case):
    entry, expected = CASES[case]
    path = tmp_path / "x.har"
    path.write_text(json.dumps({"log": {"entries": [GOOD, entry]}}))
    with pytest.raises(ConfigError) as info:
        HarReplayTransport(path)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{path}: 1 malformed HAR entry:"
    assert len(lines) == 2 and expected in lines[1] and lines[1].startswith(f"{path}: ")


def test_every_malformed_entry_is_listed_at_once(tmp_path):
    path = tmp_path / "x.har"
    entries = [None, GOOD, CASES["content a string"][0], CASES["year 9999"][0]]
    path.write_text(json.dumps({"log": {"entries": entries}}))
    with pytest.raises(ConfigError) as info:
        HarReplayTransport(path)
    lines = str(info.value).splitlines()
    assert lines[0].endswith("3 malformed HAR entries:")
    assert [line.split(": ")[1] for line in lines[1:]] == [
        "log.entries[0]",
        "log.entries[2]",
        "log.entries[3]",
    ]


@pytest.mark.parametrize("entries", [None, {"a": 1}, "x"])
def test_entries_that_are_not_a_list_are_one_error(tmp_path, entries):
    path = tmp_path / "x.har"
    path.write_text(json.dumps({"log": {"entries": entries}}))
    with pytest.raises(ConfigError, match="not a HAR file"):
        HarReplayTransport(path)


def test_deep_json_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "x.har"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError, match="not a"):
        HarReplayTransport(path)


def test_check_refuses_a_replay_dated_in_the_future(tmp_path):
    """An answer cannot have been recorded after now: the error names the file and the
    entry, and nothing is checked."""
    import datetime as _dt

    from typer.testing import CliRunner

    from tracker.cli.main import app
    from tracker.net.har import har_entry, write_har

    url = "https://huggingface.co/api/models?author=nimbuslabs"
    when = _dt.datetime(2099, 1, 2, 6, tzinfo=_dt.UTC)
    past = _dt.datetime(2026, 1, 2, 6, tzinfo=_dt.UTC)
    har = write_har(tmp_path / "my.har", [
        har_entry("GET", url + "&x=1", 200, [], b"[]", past),
        har_entry("GET", url, 200, [], b"[]", when),
    ])  # fmt: skip
    r = CliRunner().invoke(app, ["check", "--replay", str(har), "--db", str(tmp_path / "t.db")])
    assert r.exit_code != 0
    said = " ".join(r.output.split())  # the terminal may wrap the error
    assert (
        f"{har}: log.entries[1] ({url}): startedDateTime 2099-01-02T06:00:00Z is later "
        "than now (" in said
    )
    assert "1 entry dated in the future" in said
    assert not (tmp_path / "t.db").exists() or "checked" not in r.output
