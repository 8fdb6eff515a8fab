"""tracker.net.har: replay by method + URL, NotRecorded, recorded time, recorder round trip."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from cycle_setup import DATA, DEMO_HAR

from tracker.errors import NotRecorded
from tracker.net.fetch import fetch, make_client
from tracker.net.har import HarRecorder, HarReplayTransport, har_entry, write_har

RECORDED = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
LISTING = (
    "https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100"
)


def test_replay_serves_the_recorded_body_with_its_recorded_time():
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    got = fetch(client, LISTING, clock=lambda: dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    assert got.status == 200
    assert got.fetched_at == RECORDED
    assert [m["id"] for m in json.loads(got.body)] == ["moonshotai/Kimi-K2-Thinking"]


def test_a_request_not_recorded_names_the_url():
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    url = "https://huggingface.co/api/models/moonshotai/Kimi-K3.1-Pro"
    with pytest.raises(NotRecorded) as info:
        fetch(client, url)
    assert str(info.value) == f"GET {url} is not recorded in {DEMO_HAR}"
    assert info.value.kind == "not_recorded"


def test_replay_answers_conditional_requests_like_the_server():
    transport = HarReplayTransport(DEMO_HAR)
    client = make_client(transport=transport)
    first = fetch(client, LISTING)
    again = fetch(client, LISTING, etag=first.headers["etag"])
    assert again.unchanged and again.body == b""
    assert again.fetched_at == RECORDED
    other = fetch(client, LISTING, etag='W/"something-else"')
    assert other.status == 200 and other.body == first.body


def test_entries_for_one_url_are_served_in_order(tmp_path):
    url = "https://huggingface.co/api/models/acme/Orca-9B"
    entries = [
        har_entry("GET", url, 429, [("Retry-After", "55")], b"{}", RECORDED),
        har_entry("GET", url, 200, [], b'{"id": "acme/Orca-9B"}', RECORDED),
    ]
    path = write_har(tmp_path / "seq.har", entries)
    waits: list[float] = []
    got = fetch(make_client(transport=HarReplayTransport(path)), url, sleep=waits.append)
    assert waits == [55.0]
    assert got.body == b'{"id": "acme/Orca-9B"}'


def test_recorder_writes_a_har_that_replays_the_same(tmp_path):
    def handler(request):
        return httpx.Response(
            200, headers={"ETag": '"v1"'}, json={"data": [{"id": "acme/orca-9b"}]}
        )

    recorder = HarRecorder(httpx.MockTransport(handler), clock=lambda: RECORDED)
    live = fetch(make_client(transport=recorder), "https://openrouter.ai/api/v1/models")
    path = recorder.save(tmp_path / "out.har")
    doc = json.loads(path.read_text())
    assert doc["log"]["version"] == "1.2"
    entry = doc["log"]["entries"][0]
    assert entry["request"]["url"] == "https://openrouter.ai/api/v1/models"
    assert entry["startedDateTime"] == "2026-11-28T06:00:00Z"
    assert not any(h["name"].lower() == "authorization" for h in entry["request"]["headers"])
    replayed = fetch(
        make_client(transport=HarReplayTransport(path)), "https://openrouter.ai/api/v1/models"
    )
    assert replayed.body == live.body
    assert replayed.sha256 == live.sha256
    assert replayed.headers["etag"] == '"v1"'
    assert replayed.fetched_at == RECORDED


def test_demo_har_is_reproducible_from_its_generator(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_demo_har", DEMO_HAR.parent / "build_demo_har.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rebuilt = module.build(tmp_path / "demo.har")
    assert rebuilt.read_bytes() == DEMO_HAR.read_bytes()
    doc = json.loads(DEMO_HAR.read_text())
    comments = [e["comment"] for e in doc["log"]["entries"]]
    assert comments[0].startswith("Body items are REAL listing items")
    assert [c.split()[0].rstrip(":") for c in comments[1:]] == [
        "CONSTRUCTED",  # model info
        "CONSTRUCTED",  # config.json
        "CONSTRUCTED",  # model.safetensors.index.json
        "CONSTRUCTED",  # LICENSE
        "REAL",
        "REAL",
        # issue 18: boards, endpoints, AA per-provider details, claimant pages (real formats)
        *["CONSTRUCTED"] * 12,
    ]
    assert "NOT the repo's real LICENSE" in comments[4]


def test_every_demo_watch_has_a_known_adapter_and_a_recorded_answer():
    import tomllib

    from cycle_setup import WATCHES

    from tracker.adapters import adapter_kinds

    watches = tomllib.loads(WATCHES.read_text())["watch"]
    recorded = set(HarReplayTransport(DEMO_HAR).urls())
    assert {w["adapter"] for w in watches} <= set(adapter_kinds())
    files = {  # repo files a model watch reads in its run (param files)
        f"https://huggingface.co/{w['params']['repo']}/resolve/main/{name}"
        for w in watches
        for name in w.get("params", {}).get("files", [])
    }
    assert {w["url"] for w in watches} | files == recorded
    assert len({w["name"] for w in watches}) == len(watches)


def test_percent_encoded_query_in_the_har_matches_the_request(tmp_path):
    recorded = "https://huggingface.co/api/models/Qwen/Qwen3-235B-A22B?expand%5B%5D=safetensors"
    body = (DATA / "hf_model_info_expand_Qwen_Qwen3-235B-A22B_note_excerpt.json").read_bytes()
    path = write_har(tmp_path / "q.har", [har_entry("GET", recorded, 200, [], body, RECORDED)])
    client = make_client(transport=HarReplayTransport(path))
    got = fetch(
        client, "https://huggingface.co/api/models/Qwen/Qwen3-235B-A22B?expand[]=safetensors"
    )
    assert json.loads(got.body)["safetensors"]["total"] == 235093634560
    with pytest.raises(NotRecorded):
        fetch(client, "https://huggingface.co/api/models/Qwen/Qwen3-235B-A22B?expand[]=config")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"entries": []}', "not a HAR file: no log.entries list (HAR 1.2, "),
        ('{"log": 3}', "not a HAR file: no log.entries list (HAR 1.2, "),
        ("{not json", "not a readable HAR file (Expecting property name"),
    ],
)
def test_a_file_that_is_not_har_says_what_is_missing(tmp_path, text, message):
    from tracker.errors import ConfigError

    path = tmp_path / "x.har"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        HarReplayTransport(path)
    assert str(err.value).startswith(f"{path}: {message}")
