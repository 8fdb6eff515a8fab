"""tracker.cycle.run: one check over watches; observations, events and watch health."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import httpx
from cycle_setup import DATA, DEMO_HAR, add_subjects, add_watch, add_watches
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Snapshot, Subject, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

RECORDED = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
MODEL_URL = "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking"


class Spy(httpx.BaseTransport):
    """Passes requests to ``inner`` and keeps their headers."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.inner.handle_request(request)


def rows(engine, model, *where):
    with Session(engine) as s:
        return s.exec(select(model).where(*where)).all()


def slug_ids(engine):
    return {s.slug: s.id for s in rows(engine, Subject)}


def demo(engine, tmp_path):
    add_subjects(engine)
    add_watches(engine)
    spy = Spy(HarReplayTransport(DEMO_HAR))
    client = make_client(transport=spy)
    store = SnapshotStore(tmp_path / "snapshots")
    return client, spy, store


def test_demo_cycle_finds_k2_thinking_weights_and_no_k31_pro(engine, tmp_path):
    client, _spy, store = demo(engine, tmp_path)
    summary = run_check(engine, client, snapshot_store=store, now=NOW)
    # 16 demo watches; the four Artificial Analysis ones are skipped here (no key)
    assert (summary.checked, summary.changed, summary.unchanged, summary.failing) == (16, 12, 0, 0)
    assert summary.skipped == 4  # the Artificial Analysis watches: no key
    ids = slug_ids(engine)
    weights = rows(engine, Observation, Observation.attribute == "weights_available")
    assert {(o.subject_id, o.qualifiers_json, o.value.value) for o in weights} == {
        (ids["kimi-k2-thinking"], '{"repo":"moonshotai/Kimi-K2-Thinking"}', True)
    }
    assert len(weights) == 2  # one from the org listing, one from the model watch
    assert all(o.first_seen == RECORDED and o.last_seen == RECORDED for o in weights)
    k2t = {
        (o.attribute, o.qualifiers_json): o.value.value
        for o in rows(engine, Observation, Observation.subject_id == ids["kimi-k2-thinking"])
    }
    repo = '{"repo":"moonshotai/Kimi-K2-Thinking"}'
    assert k2t == {
        ("weights_available", repo): True,
        ("license", repo): "modified-mit",
        ("gated", repo): "false",
        ("repo_created", repo): "2025-11-04",
        ("hub_params_raw", repo): 170738182128,
        # From the same run's config.json + index + LICENSE (hub_files; cases/C01):
        ("total_params", repo): 1026880447728,
        ("license_text_sha256", repo): (
            "5a5323f745fa09cf5bba73fb84b0962567e8c9cb35c2f65e9599f73f79c977a5"
        ),
        ("context_window", repo): 262144,
        ("weights_precision_bits", repo): 4,
        ("active_params", repo): 31686066176,  # MoE arithmetic on config.json (issue 18)
        ("release_date", "{}"): "2025-11-06",  # OpenRouter's listing day (`created`)
        ("price_input_usd_per_mtok", "{}"): Decimal("0.6"),  # OpenRouter, via hugging_face_id
        ("price_output_usd_per_mtok", "{}"): Decimal("2.5"),
        ("context_window", "{}"): 262144,
    }
    k31 = {
        (o.attribute, o.qualifiers_json): o.value.value
        for o in rows(engine, Observation, Observation.subject_id == ids["kimi-k3.1-pro"])
        if '"provider":"moonshot"' in o.qualifiers_json  # the LiteLLM rows
    }
    moon, fast = '{"provider":"moonshot"}', '{"provider":"moonshot","variant":"Highspeed"}'
    assert k31 == {  # prices from the LiteLLM list; no weights anywhere
        ("price_input_usd_per_mtok", moon): 2,
        ("price_output_usd_per_mtok", moon): 10,
        ("context_window", moon): 1048576,
        ("price_input_usd_per_mtok", fast): 4,
        ("price_output_usd_per_mtok", fast): 20,
        ("context_window", fast): 1048576,
    }
    events = rows(engine, Event)
    assert [(e.kind, e.subject_id, e.title) for e in events] == [
        (
            # listed at the watch's first check: discovered, not "landed" now (trials)
            "subject_discovered",
            ids["kimi-k2-thinking"],
            "Kimi K2 Thinking: weights already on Hugging Face at the first check "
            "(moonshotai/Kimi-K2-Thinking)",
        )
    ]
    assert json.loads(events[0].detail_json) == {
        "created_at": "2025-11-04T08:25:31.000Z",
        "first_seen": "2026-11-28T06:00:00+00:00",
        "repo": "moonshotai/Kimi-K2-Thinking",
        "at_first_check": True,
        "summary": "moonshotai/Kimi-K2-Thinking was already listed at the first check "
        "(repo created 2025-11-04)",
    }
    assert summary.events == 1
    snaps = rows(engine, Snapshot)
    # 15 distinct URLs (AA skipped), each fetched once (config.json only by the model watch)
    assert len(snaps) == 15 and all(store.get(s.sha256) for s in snaps)
    watch = rows(engine, Watch, Watch.name == "hf-org-moonshotai")[0]
    assert watch.state == "ok" and watch.last_success == RECORDED
    assert watch.etag == 'W/"56a6a989f23338b852d3772477f"'


def test_second_cycle_sends_validators_and_records_nothing_new(engine, tmp_path):
    client, spy, store = demo(engine, tmp_path)
    run_check(engine, client, snapshot_store=store, now=NOW)
    before = [(o.id, o.value_key, o.current) for o in rows(engine, Observation)]
    spy.requests.clear()
    summary = run_check(engine, client, snapshot_store=store, now=NOW)
    etags = {w.url: w.etag for w in rows(engine, Watch)}
    sent = {str(r.url): r.headers.get("if-none-match") for r in spy.requests}
    for url in [u for u in etags if u.startswith("https://artificialanalysis.ai/")]:
        etags.pop(url)  # skipped: no key
    assert sent == etags
    # the Hub entries and the constructed board/endpoint/page answers carry an ETag
    assert sum(1 for v in sent.values() if v) == 10
    assert (summary.checked, summary.unchanged, summary.changed) == (16, 12, 0)
    assert summary.observations == 0 and summary.events == 0
    assert [(o.id, o.value_key, o.current) for o in rows(engine, Observation)] == before
    assert len(rows(engine, Event)) == 1
    assert len(rows(engine, Snapshot)) == 15  # 304s and identical bodies add none
    # The model info's 304 means an unchanged repo: its files are not fetched again.
    assert not any("/resolve/main/LICENSE" in str(r.url) for r in spy.requests)


def test_identical_cycle_without_validators_adds_no_events(engine, tmp_path):
    client, _spy, store = demo(engine, tmp_path)
    run_check(engine, client, snapshot_store=store, now=NOW)
    with Session(engine) as s:  # forget validators: the full body is fetched again
        for w in s.exec(select(Watch)).all():
            w.etag = None
            s.add(w)
        s.commit()
    n_obs = len(rows(engine, Observation))
    summary = run_check(engine, client, snapshot_store=store, now=NOW)
    assert (summary.unchanged, summary.changed, summary.events, summary.observations) == (
        12,
        0,
        0,
        0,
    )
    assert len(rows(engine, Observation)) == n_obs
    assert len(rows(engine, Event)) == 1


def model_info(license_name: str) -> dict:
    info = json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )
    info["cardData"]["license_name"] = license_name
    return info


def client_for(responses):
    it = iter(responses)

    def handler(request):
        status, headers, body = next(it)
        return httpx.Response(status, headers=headers, json=body)

    return make_client(transport=httpx.MockTransport(handler))


def test_c06_rate_limit_exhausted_keeps_last_good_value(engine, tmp_path):
    ids = add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    store = SnapshotStore(tmp_path)
    run_check(
        engine,
        client_for([(200, {}, model_info("modified-mit"))]),
        snapshot_store=store,
        now=RECORDED,
    )
    good = {(o.attribute, o.value_key) for o in rows(engine, Observation, Observation.current)}
    n_events = len(rows(engine, Event))
    sleeps: list[float] = []
    limited = [(429, {"Retry-After": "55"}, {"error": "rate limited"})] * 3
    summary = run_check(
        engine, client_for(limited), snapshot_store=store, now=NOW, sleep=sleeps.append
    )
    assert sleeps == [55.0, 55.0]
    assert (summary.failing, summary.observations, summary.events) == (1, 0, 0)
    assert summary.results[0].error_kind == "rate_limited"
    assert {
        (o.attribute, o.value_key) for o in rows(engine, Observation, Observation.current)
    } == good
    assert all(o.last_seen == RECORDED for o in rows(engine, Observation))
    assert len(rows(engine, Event)) == n_events
    w = rows(engine, Watch)[0]
    assert (w.state, w.consecutive_failures, w.last_error_kind) == ("ok", 1, "rate_limited")
    assert w.last_success == RECORDED and w.failing_since == NOW and w.last_run == NOW
    assert ids  # subjects exist; nothing was marked gone


def test_a_licence_change_marks_old_not_current_and_emits_license_changed(engine, tmp_path):
    """A licence id change is ``license_changed`` (docs/alerts.md: subscribers follow it by
    kind); it used to be a ``value_changed`` titled with the attribute's id."""
    ids = add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    store = SnapshotStore(tmp_path)
    run_check(
        engine,
        client_for([(200, {}, model_info("modified-mit"))]),
        snapshot_store=store,
        now=RECORDED,
    )
    later = RECORDED + dt.timedelta(days=1)
    summary = run_check(
        engine, client_for([(200, {}, model_info("mit"))]), snapshot_store=store, now=later
    )
    assert (summary.changed, summary.observations, summary.events) == (1, 1, 1)
    lic = rows(engine, Observation, Observation.attribute == "license")
    assert sorted((o.value.value, o.current, o.first_seen, o.last_seen) for o in lic) == [
        ("mit", True, later, later),
        ("modified-mit", False, RECORDED, RECORDED),
    ]
    assert rows(engine, Event, Event.kind == "value_changed") == []
    ev = rows(engine, Event, Event.kind == "license_changed")
    assert [(e.subject_id, e.audience, e.title) for e in ev] == [
        (
            ids["kimi-k2-thinking"],
            "subscriber",
            "Kimi K2 Thinking: Licence [repo: moonshotai/Kimi-K2-Thinking] changed from "
            "modified-mit to mit",
        )
    ]


def test_failing_after_three_then_recovered(engine, tmp_path):
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    store = SnapshotStore(tmp_path)
    bad = (500, {}, {"error": "boom"})
    kinds = []
    for day in range(1, 5):
        at = RECORDED + dt.timedelta(days=day)
        run_check(engine, client_for([bad] * 3), snapshot_store=store, now=at, sleep=lambda s: None)
        kinds.append([e.kind for e in rows(engine, Event)])
    assert kinds == [[], [], ["watch_failing"], ["watch_failing"]]
    w = rows(engine, Watch)[0]
    assert (w.state, w.consecutive_failures, w.last_error_kind) == ("failing", 4, "bad_status")
    assert w.failing_since == RECORDED + dt.timedelta(days=1)
    ev = rows(engine, Event)[0]
    assert ev.audience == "operator" and ev.subject_id is None
    assert ev.title == "Watch hf-model-k2t failed 3 times in a row (bad_status)"
    assert rows(engine, Observation) == []
    run_check(
        engine, client_for([(200, {}, model_info("modified-mit"))]), snapshot_store=store, now=NOW
    )
    assert [e.kind for e in rows(engine, Event)] == [
        "watch_failing",
        "subject_discovered",  # the watch's first successful check found the repo there
        "watch_recovered",
    ]
    w = rows(engine, Watch)[0]
    assert (w.state, w.consecutive_failures, w.failing_since, w.last_error) == ("ok", 0, None, None)


def test_parse_error_records_nothing_and_keeps_validators_unset(engine, tmp_path):
    add_subjects(engine)
    add_watch(
        engine, "hf-org", "huggingface_org", "https://huggingface.co/api/models?author=moonshotai"
    )
    client = client_for([(200, {"ETag": '"v1"'}, {"error": "Invalid username or password."})])
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert summary.results[0].error_kind == "layout_changed"
    assert rows(engine, Observation) == []
    w = rows(engine, Watch)[0]
    assert w.etag is None and w.last_error_kind == "layout_changed"
    assert len(rows(engine, Snapshot)) == 1  # kept for `tracker parse` after a fix


def test_org_listing_pages_are_followed(engine, tmp_path):
    ids = add_subjects(engine)
    page = json.loads((DATA / "synthetic_hf_models_list_paginated_response.json").read_text())
    add_watch(engine, "hf-org", "huggingface_org", page["request"]["url"], follow=False)
    k3 = {"id": "moonshotai/Kimi-K3", "private": False, "createdAt": "2026-07-01T00:00:00.000Z"}
    seen = []

    def handler(request):
        seen.append(str(request.url))
        if "cursor=" in str(request.url):
            return httpx.Response(200, json=[k3])
        return httpx.Response(200, headers=page["headers"], json=page["body"])

    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert seen == [page["request"]["url"], page["headers"]["Link"][1:].split(">")[0]]
    got = {(o.subject_id, o.qualifiers_json) for o in rows(engine, Observation)}
    assert got == {
        (ids["kimi-k2-thinking"], '{"repo":"moonshotai/Kimi-K2-Thinking"}'),
        (ids["kimi-k3"], '{"repo":"moonshotai/Kimi-K3"}'),
    }
    assert summary.results[0].unmatched == 1  # MiniMaxAI/MiniMax-M2 is no subject of ours
    # both repos were there at the watch's first check: discovered, not landed now
    assert sorted(e.kind for e in rows(engine, Event)) == ["subject_discovered"] * 2


def test_weights_listed_at_the_first_check_are_not_said_to_land_then(engine, tmp_path):
    """A repo already on the Hub when its watch first runs gets "already ... at the first
    check" (it may be a year old); one that appears at a later check "landed" then."""
    ids = add_subjects(engine)
    url = "https://huggingface.co/api/models?author=moonshotai"
    add_watch(engine, "hf-org", "huggingface_org", url, follow=False)
    k2t = {"id": "moonshotai/Kimi-K2-Thinking", "createdAt": "2025-11-04T08:25:31.000Z"}
    k3 = {"id": "moonshotai/Kimi-K3", "createdAt": "2026-11-29T09:00:00.000Z"}
    listing = [[k2t], [k2t, k3]]
    client = make_client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=listing[0]))
    )
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    listing.pop(0)
    later = NOW + dt.timedelta(hours=6)
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=later)
    events = rows(engine, Event)
    assert [(e.subject_id, e.title) for e in events] == [
        (ids["kimi-k2-thinking"], "Kimi K2 Thinking: weights already on Hugging Face at the "
         "first check (moonshotai/Kimi-K2-Thinking)"),
        (ids["kimi-k3"], "Kimi K3: weights available on Hugging Face (moonshotai/Kimi-K3)"),
    ]  # fmt: skip
    first, landed = (json.loads(e.detail_json) for e in events)
    assert first["summary"] == (
        "moonshotai/Kimi-K2-Thinking was already listed at the first check "
        "(repo created 2025-11-04)"
    )
    assert "at_first_check" not in landed and landed["first_seen"] == later.isoformat()


def test_no_write_transaction_is_open_while_fetching(engine, tmp_path):
    """cases/C17: another writer commits while the cycle waits on the network."""
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)

    def handler(request):
        with Session(engine) as s:
            w = s.exec(select(Watch)).first()
            w.interval_minutes = 30
            s.add(w)
            s.commit()
        return httpx.Response(200, json=model_info("modified-mit"))

    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert summary.failing == 0
    assert rows(engine, Watch)[0].interval_minutes == 30


def test_last_modified_is_stored_and_sent_back(engine, tmp_path):
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    stamp = "Sat, 28 Nov 2026 06:00:00 GMT"
    sent = []

    def handler(request):
        sent.append(request.headers.get("if-modified-since"))
        if request.headers.get("if-modified-since") == stamp:
            return httpx.Response(304)
        return httpx.Response(200, headers={"Last-Modified": stamp}, json=model_info("mit"))

    client = make_client(transport=httpx.MockTransport(handler))
    store = SnapshotStore(tmp_path)
    first = run_check(engine, client, snapshot_store=store, now=RECORDED)
    second = run_check(engine, client, snapshot_store=store, now=NOW)
    assert sent == [None, stamp]
    assert (first.observations, second.observations, second.unchanged, second.events) == (
        4,
        0,
        1,
        0,
    )
    w = rows(engine, Watch)[0]
    assert (w.last_modified, w.etag, w.last_success) == (stamp, None, NOW)
    assert {o.last_seen for o in rows(engine, Observation)} == {NOW}  # a 304 confirms them


def test_a_repo_gone_from_a_complete_listing_is_an_event_not_a_deletion(engine, tmp_path):
    ids = add_subjects(engine)
    url = "https://huggingface.co/api/models?author=moonshotai"
    add_watch(engine, "hf-org", "huggingface_org", url, follow=False)
    k2t = {"id": "moonshotai/Kimi-K2-Thinking"}
    k3 = {"id": "moonshotai/Kimi-K3"}
    store = SnapshotStore(tmp_path)
    days = [RECORDED + dt.timedelta(days=d) for d in range(3)]
    run_check(engine, client_for([(200, {}, [k2t, k3])]), snapshot_store=store, now=days[0])
    gone = run_check(engine, client_for([(200, {}, [k2t])]), snapshot_store=store, now=days[1])
    empty = run_check(engine, client_for([(200, {}, [])]), snapshot_store=store, now=days[2])
    assert (gone.changed, gone.events) == (1, 1)
    ev = rows(engine, Event, Event.kind == "repo_disappeared")
    assert [(e.subject_id, e.title) for e in ev] == [
        (
            ids["kimi-k3"],
            "Kimi K3: moonshotai/Kimi-K3 is no longer listed in the Hugging Face org moonshotai",
        )
    ]
    obs = {o.subject_id: (o.current, o.first_seen, o.last_seen) for o in rows(engine, Observation)}
    assert obs == {
        ids["kimi-k2-thinking"]: (True, days[0], days[1]),
        ids["kimi-k3"]: (False, days[0], days[0]),
    }
    assert (empty.events, empty.results[0].warnings) == (
        0,
        ["hf-org: the listing came back empty; nothing marked gone"],
    )
    assert rows(engine, Observation, Observation.current)[0].subject_id == ids["kimi-k2-thinking"]


def test_c06_main_sequence_through_the_cycle_records_the_same_values_without_alert(
    engine, tmp_path
):
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    store = SnapshotStore(tmp_path)
    info = model_info("modified-mit")
    run_check(engine, client_for([(200, {}, info)]), snapshot_store=store, now=RECORDED)
    before = {(o.attribute, o.value_key) for o in rows(engine, Observation, Observation.current)}
    sleeps: list[float] = []
    responses = [
        (429, {"Retry-After": "55"}, {"error": "rate limited"}),
        (429, {"Retry-After": "40"}, {"error": "rate limited"}),
        (200, {}, info),
    ]
    summary = run_check(
        engine, client_for(responses), snapshot_store=store, now=NOW, sleep=sleeps.append
    )
    assert sleeps == [55.0, 40.0]
    assert (summary.unchanged, summary.failing, summary.events, summary.observations) == (
        1,
        0,
        0,
        0,
    )
    after = {(o.attribute, o.value_key) for o in rows(engine, Observation, Observation.current)}
    assert after == before and len(after) == 4
    assert [e.kind for e in rows(engine, Event)] == ["subject_discovered"]  # first check


def test_unknown_adapter_fails_its_watch_only(engine, tmp_path):
    add_subjects(engine)
    add_watch(engine, "a-bad", "nope", "https://example.org/x")
    add_watch(engine, "b-good", "huggingface_model", MODEL_URL)
    summary = run_check(
        engine,
        client_for([(200, {}, model_info("mit"))]),
        snapshot_store=SnapshotStore(tmp_path),
        now=NOW,
    )
    assert [(r.name, r.outcome, r.error_kind) for r in summary.results] == [
        ("a-bad", "failed", "config"),
        ("b-good", "changed", None),
    ]
    assert summary.results[0].error.startswith("unknown adapter kind 'nope'")


def test_failing_after_is_configurable_per_watch(engine, tmp_path):
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL, failing_after=1)
    # (a 401 RepoNotFound for a repo never seen public is "not public yet", no failure)
    denied = (403, {}, {"error": "Forbidden"})
    summary = run_check(
        engine, client_for([denied]), snapshot_store=SnapshotStore(tmp_path), now=NOW
    )
    assert summary.results[0].error_kind == "unauthorized"
    events = rows(engine, Event)
    assert [(e.kind, e.audience) for e in events] == [("watch_failing", "operator")]
    assert rows(engine, Watch)[0].state == "failing"


def test_watch_names_select_and_unknown_names_are_an_error(engine, tmp_path):
    import pytest

    from tracker.errors import UnknownName

    client, _spy, store = demo(engine, tmp_path)
    seen = []
    summary = run_check(
        engine,
        client,
        snapshot_store=store,
        watch_names=["openrouter-models"],
        progress=seen.append,
    )
    assert [r.name for r in summary.results] == ["openrouter-models"] == [r.name for r in seen]
    assert summary.to_dict()["checked"] == 1
    with pytest.raises(UnknownName) as err:
        run_check(engine, client, snapshot_store=store, watch_names=["nope"])
    assert str(err.value) == (
        "unknown watch name(s): nope (known: aa-intelligence-index, aa-kimi-k3, aa-kimi-k3.1-pro, "
        "aa-kimi-k3.1-pro-hs, cerebras-kimi-k3-post, "
        "hf-model-kimi-k2-thinking, hf-org-moonshotai, litellm-prices, lmarena-webdev, "
        "moonshot-kimi-k3-page, moonshot-kimi-k3.1-pro, openrouter-models, speed-kimi-k3, "
        "speed-kimi-k3.1-pro, speed-kimi-k3.1-pro-hs, tbench-kimi-k3.1-pro; "
        "`tracker watches` lists them)"
    )
    # A retired watch is not offered as a known name: `--watch` refuses it (fresh-user trial).
    with Session(engine) as s:
        retired = s.exec(select(Watch).where(Watch.name == "litellm-prices")).one()
        retired.state = "retired"
        s.add(retired)
        s.commit()
    with pytest.raises(UnknownName) as err:
        run_check(engine, client, snapshot_store=store, watch_names=["nope"])
    assert str(err.value) == (
        "unknown watch name(s): nope (known: aa-intelligence-index, aa-kimi-k3, aa-kimi-k3.1-pro, "
        "aa-kimi-k3.1-pro-hs, cerebras-kimi-k3-post, "
        "hf-model-kimi-k2-thinking, hf-org-moonshotai, lmarena-webdev, "
        "moonshot-kimi-k3-page, moonshot-kimi-k3.1-pro, openrouter-models, speed-kimi-k3, "
        "speed-kimi-k3.1-pro, speed-kimi-k3.1-pro-hs, tbench-kimi-k3.1-pro; "
        "`tracker watches` lists them)"
    )


def test_a_promised_repo_that_404d_until_launch_has_landed_when_it_appears(engine, tmp_path):
    """Review: a watch on a repo not public yet answers 404 until launch, so its first
    successful check is the landing, not a discovery of an old repo."""
    add_subjects(engine)
    add_watch(engine, "hf-model-k2t", "huggingface_model", MODEL_URL)
    store = SnapshotStore(tmp_path)
    missing = (404, {"x-error-code": "RepoNotFound"}, {"error": "Repository not found"})
    run_check(
        engine, client_for([missing]), snapshot_store=store, now=RECORDED, sleep=lambda s: None
    )
    w = rows(engine, Watch)[0]  # "not public yet": a successful check, not a failure
    assert (w.last_error_kind, w.consecutive_failures, w.state) == ("not_public", 0, "ok")
    later = RECORDED + dt.timedelta(days=1)
    run_check(engine, client_for([(200, {}, model_info("mit"))]), snapshot_store=store, now=later)
    (event,) = rows(engine, Event)
    assert (event.kind, event.title) == (
        "weights_landed",
        # the licence read in the same check is said with the landing (issue 16)
        "Kimi K2 Thinking: weights available on Hugging Face (moonshotai/Kimi-K2-Thinking); "
        "licence mit",
    )


def test_a_mistyped_watch_name_gets_a_did_you_mean(engine, tmp_path):
    import pytest

    """`--watch hf-org-moonshot` (a trial typed `hf-org-halcyon` for `hf-org-halcyonai`)
    is suggested the watch it nearly names, as other unknown names are; JSON lists it."""
    from typer.testing import CliRunner

    from tracker.cli.main import app
    from tracker.errors import UnknownName

    client, _spy, store = demo(engine, tmp_path)
    with pytest.raises(UnknownName) as err:
        run_check(engine, client, snapshot_store=store, watch_names=["hf-org-moonshot", "nope"])
    assert str(err.value).startswith(
        "unknown watch name(s): hf-org-moonshot (did you mean 'hf-org-moonshotai'?), nope "
        "(known: aa-intelligence-index, "
    )
    assert err.value.did_you_mean == ["hf-org-moonshotai"]
    db = engine.url.database
    args = ["check", "--replay", str(DEMO_HAR), "--db", db, "--watch", "hf-org-moonshot", "--json"]
    result = CliRunner().invoke(app, args)
    doc = json.loads(result.stdout)["error"]
    assert (result.exit_code, doc["kind"], doc["did_you_mean"]) == (
        1,
        "unknown_name",
        ["hf-org-moonshotai"],
    )
