"""A model watch reading its repo files in one run, through the cycle: gated repos keep
metadata and leave file values stale; a new LICENSE text is a licence change; a
transient file error fails the watch; a repo that turns private leaves the org listing."""

from __future__ import annotations

import datetime as dt
import json

import httpx
from cycle_setup import DATA, add_subjects, add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

DAY1 = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
DAY2 = DAY1 + dt.timedelta(days=1)
KIMI = "moonshotai/Kimi-K2-Thinking"
MODEL_URL = f"https://huggingface.co/api/models/{KIMI}"
FILE = f"https://huggingface.co/{KIMI}/resolve/main/"
FILES = ["config.json", "model.safetensors.index.json", "LICENSE"]
GATED = {"X-Error-Code": "GatedRepo", "X-Error-Message": "Access to model is restricted."}
# Values read from the files (config.json gives the last two)
FILE_ATTRIBUTES = (
    "total_params",
    "license_text_sha256",
    "context_window",
    "weights_precision_bits",
)


def rows(engine, model, *where):
    with Session(engine) as s:
        return s.exec(select(model).where(*where)).all()


def kimi_like(**changes) -> dict:
    info = json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )
    return info | changes


def repo_server(info: dict, files: dict[str, httpx.Response], etag: str = '"v1"'):
    """A client answering the model info (with ``etag``, honoured) and each file URL."""
    requested: list[str] = []

    def handler(request):
        url = str(request.url)
        requested.append(url)
        if url == MODEL_URL:
            if request.headers.get("if-none-match") == etag:
                return httpx.Response(304, headers={"ETag": etag})
            return httpx.Response(200, headers={"ETag": etag}, json=info)
        return files[url.removeprefix(FILE)]

    return make_client(transport=httpx.MockTransport(handler)), requested


def readable(info: dict, license_text: str = "MIT License\n\nPermission is hereby granted"):
    return {
        "config.json": httpx.Response(200, json=info["_raw_config_json_excerpt"]),
        "model.safetensors.index.json": httpx.Response(200, json={"metadata": {"total_size": 1}}),
        "LICENSE": httpx.Response(200, text=license_text),
    }


def file_values(engine):
    return sorted(
        (o.attribute, o.value_key[:60], o.current, o.first_seen, o.last_seen)
        for o in rows(engine, Observation)
        if o.attribute in FILE_ATTRIBUTES
    )


def setup(engine):
    ids = add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL, files=FILES)
    return ids


def test_gated_files_keep_metadata_and_leave_file_values_stale_without_events(engine, tmp_path):
    setup(engine)
    store = SnapshotStore(tmp_path)
    info = kimi_like(gated="manual")
    client, requested = repo_server(info, readable(info))
    first = run_check(engine, client, snapshot_store=store, now=DAY1)
    assert requested == [MODEL_URL] + [FILE + name for name in FILES]
    assert (first.observations, first.failing) == (9, 0)
    before = file_values(engine)
    assert [(a, cur, fs, ls) for a, _k, cur, fs, ls in before] == [
        ("context_window", True, DAY1, DAY1),
        ("license_text_sha256", True, DAY1, DAY1),
        ("total_params", True, DAY1, DAY1),
        ("weights_precision_bits", True, DAY1, DAY1),
    ]
    assert rows(engine, Watch)[0].etag == '"v1"'
    denied = {name: httpx.Response(401, headers=GATED, text="restricted") for name in FILES}
    client, _ = repo_server(kimi_like(gated="manual", likes=7), denied, etag='"v2"')
    events_before = len(rows(engine, Event))
    second = run_check(engine, client, snapshot_store=store, now=DAY2)
    assert [(r.outcome, r.error, r.events) for r in second.results] == [("unchanged", None, 0)]
    assert file_values(engine) == before  # still current, not re-seen, not deleted
    assert second.results[0].warnings[-4:] == [
        f'hf-model-k2t: {attribute} {{"repo":"moonshotai/Kimi-K2-Thinking"}} is stale '
        "(could not be read this run); kept as last seen 2026-11-28T06:00:00+00:00"
        for attribute in sorted(FILE_ATTRIBUTES)
    ]
    assert len(rows(engine, Event)) == events_before
    gated = rows(engine, Observation, Observation.attribute == "gated")
    assert [(o.value.value, o.last_seen) for o in gated] == [("manual", DAY2)]  # metadata kept
    w = rows(engine, Watch)[0]
    # Stale values: no validators kept, so the next run reads in full, not a 304.
    assert (w.state, w.etag, w.last_success) == ("ok", None, DAY2)


def test_new_license_text_under_the_same_id_is_a_license_change(engine, tmp_path):
    ids = setup(engine)
    store = SnapshotStore(tmp_path)
    info = kimi_like()
    client, _ = repo_server(info, readable(info, "Modified MIT License\n\nv1"))
    run_check(engine, client, snapshot_store=store, now=DAY1)
    client, _ = repo_server(
        info, readable(info, "Modified MIT License\n\nv2 adds a clause"), etag='"v2"'
    )
    summary = run_check(engine, client, snapshot_store=store, now=DAY2)
    assert (summary.changed, summary.observations, summary.events) == (1, 1, 1)
    lic = rows(engine, Observation, Observation.attribute == "license")
    assert [(o.value.value, o.current) for o in lic] == [("modified-mit", True)]  # same id
    [ev] = rows(engine, Event, Event.kind == "license_changed")
    old, new = sorted(
        (o.first_seen, o.value.value, o.current)
        for o in rows(engine, Observation, Observation.attribute == "license_text_sha256")
    )
    assert (old[2], new[2]) == (False, True)
    assert (ev.subject_id, ev.audience, ev.title) == (
        ids["kimi-k2-thinking"],
        "subscriber",
        f"Kimi K2 Thinking: the LICENSE file of {KIMI} changed (3 lines, was 3)",
    )
    detail = json.loads(ev.detail_json)
    assert detail["attribute"] == "license_text_sha256"
    assert detail["summary"] == (
        f"the LICENSE file of {KIMI} changed (3 lines, was 3); licence id modified-mit as "
        "read in the same check"
    )
    assert detail["url"] == f"https://huggingface.co/{KIMI}/resolve/main/LICENSE"


def test_a_transient_file_error_fails_the_watch_and_records_nothing(engine, tmp_path):
    setup(engine)
    info = kimi_like()
    files = readable(info) | {"LICENSE": httpx.Response(503, text="busy")}
    client, requested = repo_server(info, files)
    summary = run_check(
        engine, client, snapshot_store=SnapshotStore(tmp_path), now=DAY1, sleep=lambda s: None
    )
    assert [(r.outcome, r.error_kind) for r in summary.results] == [("failed", "bad_status")]
    assert requested.count(FILE + "LICENSE") == 3  # the retry budget
    assert rows(engine, Observation) == []
    assert rows(engine, Watch)[0].etag is None


def test_a_repo_that_turns_private_leaves_the_listing_with_an_event(engine, tmp_path):
    ids = add_subjects(engine)
    url = "https://huggingface.co/api/models?author=moonshotai"
    add_watch(engine, "hf-org", "huggingface_org", url, follow=False)
    k2t = {"id": KIMI, "private": False}
    k3 = {"id": "moonshotai/Kimi-K3", "private": False}
    store = SnapshotStore(tmp_path)
    for day, listing in ((DAY1, [k2t, k3]), (DAY2, [k2t, k3 | {"private": True}])):
        client = make_client(
            transport=httpx.MockTransport(lambda r, b=listing: httpx.Response(200, json=b))
        )
        summary = run_check(engine, client, snapshot_store=store, now=day)
    assert (summary.changed, summary.events) == (1, 1)
    [ev] = rows(engine, Event, Event.kind == "repo_disappeared")
    assert (ev.subject_id, ev.title) == (
        ids["kimi-k3"],
        "Kimi K3: moonshotai/Kimi-K3 is no longer listed in the Hugging Face org moonshotai",
    )
    k3_rows = rows(engine, Observation, Observation.subject_id == ids["kimi-k3"])
    assert [(o.current, o.first_seen, o.last_seen) for o in k3_rows] == [(False, DAY1, DAY1)]
