"""lmarena_catalog and artificial_analysis on real / documented payloads; AA key handling."""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal

import httpx
import pytest
from cycle_setup import DATA, add_watch
from sqlmodel import Session, select

from claims.store.tables import Watch
from tracker.adapters import Fetched, get_adapter
from tracker.cycle.run import run_check
from tracker.errors import LayoutChanged
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
CATALOG = "https://raw.githubusercontent.com/lmarena/arena-catalog/main/data/"
AA_FREE = "https://artificialanalysis.ai/api/v2/language/models/free"


def parse(kind, url, name, params=None):
    f = Fetched.from_body(url, (DATA / name).read_bytes(), AT)
    return get_adapter(kind).parse(f, params or {})


def test_lmarena_leaderboard_ratings_with_their_interval_and_ranks_with_ties():
    result = parse(
        "lmarena_catalog",
        CATALOG + "leaderboard-text.json",
        "lmarena_arena-catalog_leaderboard-text_excerpt.json",
    )
    assert len(result.values) == 72  # 18 models x 2 categories x (score, rank)
    got = {(v.subject_ref[1], v.attribute, v.qualifiers.get("benchmark") or v.qualifiers["leaderboard"]): v.value for v in result.values}  # fmt: skip
    turbo = got[("kimi-k2-thinking-turbo", "benchmark_score", "lmarena-text / coding")]
    assert turbo.value == Decimal("1448.1757142967842")
    assert turbo.interval() == (Decimal("1437.1707517554296"), Decimal("1459.1806768381389"))
    assert turbo.unit == "points"
    # the overall board ("full") carries the board's own name; ranks are spans (ties kept)
    top = got[("gemini-3-pro", "leaderboard_rank", "lmarena-text")]
    assert (top.value, top.low, top.high) == (Decimal(1), Decimal(1), Decimal(1))
    rank = got[("kimi-k2-thinking-turbo", "leaderboard_rank", "lmarena-text")]
    assert (rank.kind, rank.low, rank.high) == ("range", Decimal(7), Decimal(14))
    assert rank.extra == {"score": "1409.5324051919436", "rule": "interval", "size": 18}
    coding = got[("kimi-k2-thinking-turbo", "leaderboard_rank", "lmarena-text / coding")]
    assert (coding.low, coding.high) == (Decimal(6), Decimal(11))
    assert result.warnings == []


def test_lmarena_board_named_by_the_watch_param():
    result = parse(
        "lmarena_catalog",
        CATALOG + "leaderboard-text.json",
        "lmarena_arena-catalog_leaderboard-text_excerpt.json",
        {"leaderboard": "LMArena Text"},
    )
    names = {v.qualifiers.get("leaderboard") or v.qualifiers["benchmark"] for v in result.values}
    assert names == {"LMArena Text", "LMArena Text / coding"}


def test_lmarena_price_scatter():
    result = parse(
        "lmarena_catalog",
        CATALOG + "scatterplot-data.json",
        "lmarena_arena-catalog_scatterplot-data_excerpt.json",
    )
    got = {(v.subject_ref[1], v.attribute): v.value.value for v in result.values}
    assert got[("kimi-k2-0905-preview", "price_input_usd_per_mtok")] == Decimal("0.6")
    assert got[("kimi-k2-0905-preview", "price_output_usd_per_mtok")] == Decimal("2.5")
    assert got[("chatgpt-4o-latest-20241120", "price_output_usd_per_mtok")] == Decimal(10)
    assert len(result.values) == 36


def test_lmarena_other_shape_is_layout_changed():
    f = Fetched.from_body(CATALOG + "x.json", b'"moved"', AT)
    with pytest.raises(LayoutChanged):
        get_adapter("lmarena_catalog").parse(f, {})


def test_aa_legacy_doc_example():
    result = parse(
        "artificial_analysis",
        "https://artificialanalysis.ai/api/v2/data/llms/models",
        "aa_llms_models_legacy_v2_data_doc_example.json",
    )
    got = {(v.attribute, tuple(v.qualifiers.items())): v.value.value for v in result.values}
    assert got == {
        ("benchmark_score", (("benchmark", "Artificial Analysis Intelligence Index"),)): Decimal(
            "62.9"
        ),
        ("leaderboard_rank", (("leaderboard", "Artificial Analysis Intelligence Index"),)): 1,
        ("output_tokens_per_second", ()): Decimal("153.831"),
        ("price_input_usd_per_mtok", ()): Decimal("1.1"),
        ("price_output_usd_per_mtok", ()): Decimal("4.4"),
    }
    assert {v.subject_ref for v in result.values} == {("artificial_analysis", "o3-mini")}


def test_aa_free_endpoint_carries_the_index_version():
    result = parse("artificial_analysis", AA_FREE, "synthetic_aa_language_models_free_v2.json")
    score = next(v for v in result.values if v.attribute == "benchmark_score")
    assert score.qualifiers == {
        "benchmark": "Artificial Analysis Intelligence Index",
        "version": "4.1",
    }
    assert score.value.value == Decimal(41)
    tps = next(v for v in result.values if v.attribute == "output_tokens_per_second")
    assert tps.value.value == Decimal("87.4")
    assert result.next_url is None


def test_aa_pagination_next_page():
    body = b'{"pagination": {"page": 1, "has_more": true}, "data": []}'
    f = Fetched.from_body(AA_FREE + "?page=1", body, AT)
    assert get_adapter("artificial_analysis").parse(f, {}).next_url == AA_FREE + "?page=2"


AUTH = {"auth": {"env": "TRACKER_AA_API_KEY", "header": "x-api-key"}}


def test_aa_without_key_is_skipped_with_one_notice(engine, tmp_path, monkeypatch, caplog):
    monkeypatch.delenv("TRACKER_AA_API_KEY", raising=False)
    add_watch(engine, "aa-free", "artificial_analysis", AA_FREE, **AUTH)
    add_watch(engine, "aa-legacy", "artificial_analysis", AA_FREE + "?legacy", **AUTH)
    client = make_client(transport=httpx.MockTransport(lambda r: pytest.fail("no request")))
    with caplog.at_level(logging.WARNING, logger="tracker.cycle.run"):
        summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=AT)
    assert (summary.checked, summary.skipped, summary.failing, summary.events) == (2, 2, 0, 0)
    assert [r.message for r in caplog.records] == [
        "TRACKER_AA_API_KEY is not set: skipping the watches that need it"
    ]
    with Session(engine) as s:
        assert {(w.state, w.consecutive_failures) for w in s.exec(select(Watch))} == {("new", 0)}


def test_aa_key_is_sent_in_its_header(engine, tmp_path, monkeypatch):
    monkeypatch.setenv("TRACKER_AA_API_KEY", "k-123")
    add_watch(engine, "aa-free", "artificial_analysis", AA_FREE, **AUTH)
    seen = []

    def handler(request):
        seen.append(request.headers.get("x-api-key"))
        return httpx.Response(
            200, content=(DATA / "synthetic_aa_language_models_free_v2.json").read_bytes()
        )

    client = make_client(transport=httpx.MockTransport(handler))
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=AT)
    assert seen == ["k-123"] and summary.failing == 0
