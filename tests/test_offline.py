"""tracker.cycle.offline: re-parse recorded responses; record a cycle and replay it."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from cycle_setup import DATA, DEMO_HAR, add_subjects, add_watches
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Observation, Snapshot
from tracker.cycle.offline import parse_har, parse_snapshot, record_check
from tracker.cycle.run import run_check
from tracker.errors import ConfigError
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

MODEL = "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking"
RECORDED = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)


def test_parse_har_reruns_an_adapter_on_one_recorded_url():
    [item] = parse_har("huggingface_model", DEMO_HAR, url=MODEL)
    assert item.fetched_at == RECORDED and item.error is None
    lic = [v.value.value for v in item.result.values if v.attribute == "license"]
    assert lic == ["modified-mit"]


def test_parse_har_combines_the_recorded_repo_files_a_model_page_asks_for():
    files = ["config.json", "model.safetensors.index.json", "LICENSE"]
    [item] = parse_har("huggingface_model", DEMO_HAR, url=MODEL, params={"files": files})
    got = {v.attribute: v.value.value for v in item.result.values}
    assert got["total_params"] == 1026880447728  # packed INT4 words recounted (C01)
    assert got["license_text_sha256"] == (
        "5a5323f745fa09cf5bba73fb84b0962567e8c9cb35c2f65e9599f73f79c977a5"
    )
    [missing] = parse_har("huggingface_model", DEMO_HAR, url=MODEL, params={"files": ["NOTICE"]})
    # a file the recording lacks is a per-file warning, as live (the page's values stand)
    assert missing.error_kind is None
    assert (
        "moonshotai/Kimi-K2-Thinking: NOTICE not in the recording (not_recorded); its "
        "values not read" in missing.result.warnings
    )


def test_parse_har_reports_a_wrong_adapter_per_url_and_unknown_urls():
    items = parse_har("openrouter_models", DEMO_HAR)
    assert [(i.url.split("/")[2], i.error_kind) for i in items][:3] == [
        ("huggingface.co", "layout_changed"),
        ("huggingface.co", "layout_changed"),
        ("huggingface.co", "layout_changed"),
    ]
    with pytest.raises(ConfigError, match="is not recorded"):
        parse_har("huggingface_model", DEMO_HAR, url=MODEL + "x")


def test_parse_snapshot(tmp_path):
    store = SnapshotStore(tmp_path)
    sha = store.put((DATA / "openrouter_model_moonshotai_kimi-k2-thinking.json").read_bytes())
    with pytest.raises(Exception, match="expected"):
        parse_snapshot("openrouter_models", store, sha, url="https://x", fetched_at=RECORDED)


def observed(engine):
    with Session(engine) as s:
        return sorted(
            (o.attribute, o.qualifiers_json, o.value_key, o.first_seen)
            for o in s.exec(select(Observation)).all()
        )


def test_record_then_replay_gives_the_same_observations(tmp_path):
    live = HarReplayTransport(DEMO_HAR)  # stands in for the network
    first = make_engine(tmp_path / "a.db")
    add_subjects(first)
    add_watches(first)
    summary, path = record_check(
        first, tmp_path / "rec.har", snapshot_store=SnapshotStore(tmp_path / "s"), inner=live
    )
    assert summary.failing == 0 and summary.checked == 16  # the AA watches skipped: no key
    doc = json.loads(path.read_text())
    # 12 watch URLs + the model watch's config.json, index and LICENSE: each URL once
    urls = [e["request"]["url"] for e in doc["log"]["entries"]]
    assert len(urls) == 15 and len(set(urls)) == 15
    second = make_engine(tmp_path / "b.db")
    add_subjects(second)
    add_watches(second)
    client = make_client(transport=HarReplayTransport(path))
    run_check(second, client, snapshot_store=SnapshotStore(tmp_path / "s"))
    assert observed(second) == observed(first)
    # K2 Thinking 11 hub (with total_params, license_text_sha256, active_params) + 4
    # OpenRouter; the rest: K3.1 Pro and K3 prices, boards, endpoints, claimant pages
    assert len(observed(first)) == 46


def test_demo_watches_record_each_config_value_once(tmp_path):
    """config.json is read by the model watch alone: one snapshot per cycle, and no value
    observed twice from the same URL (two watches on one file listed it twice)."""
    engine = make_engine(tmp_path / "d.db")
    add_subjects(engine)
    add_watches(engine)
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "s"))
    with Session(engine) as s:
        config_snaps = [x for x in s.exec(select(Snapshot)).all() if x.url.endswith("/config.json")]
        rows = s.exec(select(Observation)).all()
    assert len(config_snaps) == 1
    seen = [(o.subject_id, o.attribute, o.qualifiers_json, o.value_key, o.source_url) for o in rows]
    assert len(seen) == len(set(seen))
    from_config = sorted(o.attribute for o in rows if o.source_url.endswith("/config.json"))
    assert from_config == ["active_params", "context_window", "weights_precision_bits"]


def test_record_writes_entries_in_watch_order_whatever_order_they_complete(tmp_path):
    """Watch a's answer is held until watch b has fetched both its pages, so b's first
    page completes first; the HAR still lists a, then b's pages in request order."""
    import threading

    import httpx

    from claims.store.tables import Watch

    a, b1, b2 = "https://a.example/models", "https://b.example/models", "https://b.example/p2"
    b_done = threading.Event()

    def handler(request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if url == a:
            assert b_done.wait(30), "watch b never reached its second page"
        if url == b1:
            return httpx.Response(200, json=[], headers={"Link": f'<{b2}>; rel="next"'})
        if url == b2:
            b_done.set()
        return httpx.Response(200, json=[])

    engine = make_engine(tmp_path / "r.db")
    with Session(engine) as s:
        s.add(Watch(name="a-first", adapter="huggingface_org", url=a))
        s.add(Watch(name="b-second", adapter="huggingface_org", url=b1))
        s.commit()
    summary, path = record_check(
        engine,
        tmp_path / "rec.har",
        snapshot_store=SnapshotStore(tmp_path / "s"),
        inner=httpx.MockTransport(handler),
        concurrency=2,
    )
    assert (summary.checked, summary.failing) == (2, 0)
    urls = [e["request"]["url"] for e in json.loads(path.read_text())["log"]["entries"]]
    assert urls == [a, b1, b2]


def test_in_watch_order_follows_each_thread_and_puts_robots_with_its_request():
    from tracker.net.har import in_watch_order

    def entry(url: str) -> dict:
        return {"request": {"url": url}}

    # thread 1 runs watch y (robots.txt, page, retry of the page, a file), then watch z;
    # thread 2 runs watch x; they finish interleaved.
    done = [
        (1, "https://y.example/robots.txt"),
        (1, "https://y.example/list"),
        (2, "https://x.example/list"),
        (1, "https://y.example/list"),
        (1, "https://y.example/file"),
        (1, "https://z.example/list"),
    ]
    entries = [entry(u) for _t, u in done]
    ordered = in_watch_order(entries, [t for t, _u in done], [
        "https://x.example/list",
        "https://y.example/list",
        "https://z.example/list",
    ])  # fmt: skip
    assert [e["request"]["url"] for e in ordered] == [
        "https://x.example/list",
        "https://y.example/robots.txt",
        "https://y.example/list",
        "https://y.example/list",
        "https://y.example/file",
        "https://z.example/list",
    ]


def test_one_value_from_one_url_by_two_watches_is_evidence_once(tmp_path):
    """A database that still has a huggingface_config watch on the model watch's
    config.json (e.g. one made before it was dropped from watches.toml) records the
    context window twice; verification counts that fact once."""
    from cycle_setup import add_watch

    from claims.store.views import load_observations

    engine = make_engine(tmp_path / "two.db")
    add_subjects(engine)
    add_watches(engine)
    config = "https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/config.json"
    add_watch(engine, "hf-config-kimi-k2-thinking", "huggingface_config", config)
    client = make_client(transport=HarReplayTransport(DEMO_HAR))
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "s"))
    with Session(engine) as s:
        rows = s.exec(select(Observation).where(Observation.source_url == config)).all()
        views = load_observations(s)
    assert sorted(o.attribute for o in rows) == ["active_params", "active_params",
                                                 "context_window", "context_window",
                                                 "weights_precision_bits",
                                                 "weights_precision_bits"]  # fmt: skip
    ids = {o.id for o in rows}
    assert sorted(v.attribute for v in views if v.id in ids) == [
        "active_params",
        "context_window",
        "weights_precision_bits",
    ]
