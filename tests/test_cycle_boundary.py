"""tracker.cycle.run: one error boundary per watch. Nothing a server sends stops the cycle:
a hostile body fails its own watch with a one-line ``parse_error`` (or the adapter's
kind), the watches after it are checked, and no value outside an attribute's physical
range is recorded or alerted (issue 20, item 1)."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from cycle_setup import DATA, add_subjects, add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation, Watch
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
HUB = "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking"
PAGE = "https://vendor.example/pricing"
GOOD_PAGE = b"<html><body><p id='p'>$2.50</p></body></html>"


def _model_info() -> dict:
    return json.loads(
        (DATA / "synthetic_hf_model_info_int4_compressed_tensors_kimi_like.json").read_text()
    )


def _hub(body: bytes) -> bytes:
    return body


def _with_total(total: str) -> bytes:
    info = _model_info()
    text = json.dumps(info).replace(str(info["safetensors"]["total"]), total)
    return text.replace(str(info["safetensors"]["parameters"]["BF16"]), total).encode()


def _licence(licence: str) -> bytes:
    info = _model_info()
    info["cardData"]["license_name"] = licence
    return json.dumps(info).encode()


HOSTILE_HUB = {
    "deep nesting": b"[" * 200_000 + b"]" * 200_000,
    "deep object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "5000-digit total": _with_total("9" * 5000),
    "negative total": _with_total("-5"),
    "total of 10^400": _with_total("1" + "0" * 400),
    "NaN": b'{"id": "moonshotai/Kimi-K2-Thinking", "safetensors": {"total": NaN}}',
    "invalid utf-8": b'{"id": "\xff\xfe"}',
    "a list": b"[1, 2, 3]",
    "a string": b'"hello"',
    "empty": b"",
}


def _client(bodies: dict[str, tuple[int, dict[str, str], bytes]]) -> object:
    def handler(request: httpx.Request) -> httpx.Response:
        status, headers, body = bodies[str(request.url)]
        return httpx.Response(status, headers=headers, content=body)

    return make_client(transport=httpx.MockTransport(handler))


def _three_watches(engine) -> None:
    """a-page (html), b-hub (the hostile one), c-page (html): name order a, b, c."""
    with Session(engine) as s:
        from cycle_setup import add_named_subject

        add_named_subject(s, "orion", "Orion")
        s.commit()
    params = {"selector": "#p", "subject": "Orion", "attribute": "price_input_usd_per_mtok"}
    add_watch(engine, "a-page", "html_page", PAGE + "?a", **params)
    add_watch(engine, "b-hub", "huggingface_model", HUB)
    add_watch(engine, "c-page", "html_page", PAGE + "?c", **params)


@pytest.mark.parametrize("case", sorted(HOSTILE_HUB))
def test_a_hostile_hub_body_fails_its_watch_only(engine, tmp_path, case):
    add_subjects(engine)
    _three_watches(engine)
    client = _client(
        {
            PAGE + "?a": (200, {"content-type": "text/html"}, GOOD_PAGE),
            HUB: (200, {"content-type": "application/json"}, HOSTILE_HUB[case]),
            PAGE + "?c": (200, {"content-type": "text/html"}, GOOD_PAGE),
        }
    )
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    outcomes = {r.name: r.outcome for r in summary.results}
    assert outcomes == {"a-page": "changed", "b-hub": "failed", "c-page": "changed"}
    failed = next(r for r in summary.results if r.name == "b-hub")
    assert failed.error_kind in ("parse_error", "layout_changed")
    assert "\n" not in failed.error and len(failed.error) < 400
    assert failed.error.startswith(HUB)
    with Session(engine) as s:
        hub_rows = s.exec(select(Observation).where(Observation.watch_id == 2)).all()
        events = s.exec(select(Event)).all()
        watch = s.exec(select(Watch).where(Watch.name == "b-hub")).one()
    assert hub_rows == []
    assert [e.kind for e in events if e.audience == "subscriber"] == []
    assert watch.last_error_kind == failed.error_kind and watch.consecutive_failures == 1


def test_out_of_range_values_are_parse_errors_never_alerts(engine, tmp_path):
    """A context window of 0 (OpenRouter) and a benchmark score of 1000 % (a page) fail
    their watches; the last good value stays current and nothing is alerted."""
    with Session(engine) as s:
        from cycle_setup import add_named_subject

        add_named_subject(s, "orion", "Orion")
        s.commit()
    score = {
        "selector": "#s",
        "subject": "Orion",
        "attribute": "benchmark_score",
        "unit": "percent",
        "qualifiers": {"benchmark": "SWE-bench"},
    }
    add_watch(engine, "score", "html_page", PAGE, **score)
    ok = b"<p id='s'>65.7</p>"
    bad = b"<p id='s'>1000</p>"
    store = SnapshotStore(tmp_path)
    first = run_check(engine, _client({PAGE: (200, {}, ok)}), snapshot_store=store, now=NOW)
    assert first.failing == 0 and first.observations == 1
    later = NOW + dt.timedelta(hours=1)
    summary = run_check(engine, _client({PAGE: (200, {}, bad)}), snapshot_store=store, now=later)
    assert summary.failing == 1 and summary.events == 0
    r = summary.results[0]
    assert r.error_kind == "parse_error"
    assert "benchmark_score 1000 is outside its physical range (at least 0, at most 100)" in (
        r.error
    )
    with Session(engine) as s:
        current = s.exec(select(Observation).where(Observation.current)).all()
    assert [str(o.value.value) for o in current] == ["65.7"]


def test_zero_context_window_on_a_page_is_refused(engine, tmp_path):
    with Session(engine) as s:
        from cycle_setup import add_named_subject

        add_named_subject(s, "orion", "Orion")
        s.commit()
    ctx = {"selector": "#c", "subject": "Orion", "attribute": "context_window"}
    add_watch(engine, "ctx", "html_page", PAGE, **ctx)
    body = b"<p id='c'>0 tokens</p>"
    summary = run_check(
        engine, _client({PAGE: (200, {}, body)}), snapshot_store=SnapshotStore(tmp_path), now=NOW
    )
    assert summary.failing == 1
    assert "context_window 0 is outside its physical range (above 0" in summary.results[0].error
    with Session(engine) as s:
        assert s.exec(select(Observation)).all() == []


def test_an_overflowing_price_is_unreadable_not_a_crash(engine, tmp_path):
    """OpenRouter's price ``"1e999999999"`` raised decimal.Overflow (per token x 10^6)."""
    add_subjects(engine)
    url = "https://openrouter.ai/api/v1/models"
    add_watch(engine, "or", "openrouter_models", url)
    doc = json.loads((DATA / "openrouter_model_moonshotai_kimi-k2-thinking.json").read_text())
    doc["pricing"]["prompt"] = "1e999999999"
    body = json.dumps({"data": [doc]}).encode()
    summary = run_check(
        engine, _client({url: (200, {}, body)}), snapshot_store=SnapshotStore(tmp_path), now=NOW
    )
    assert summary.failing == 0
    with Session(engine) as s:
        attrs = sorted(o.attribute for o in s.exec(select(Observation)).all())
    assert "price_input_usd_per_mtok" not in attrs and "price_output_usd_per_mtok" in attrs


def test_a_crashing_adapter_becomes_that_watchs_parse_error(engine, tmp_path, monkeypatch):
    """Any exception, even one no parser anticipated, is the watch's failure."""
    from tracker.adapters import html_page

    def boom(*_a, **_k):
        raise RuntimeError("boom\x1b[31m\nsecond line")

    add_subjects(engine)
    _three_watches(engine)
    monkeypatch.setattr(html_page, "_parse", boom)
    client = _client(
        {
            PAGE + "?a": (200, {}, GOOD_PAGE),
            HUB: (200, {}, json.dumps(_model_info()).encode()),
            PAGE + "?c": (200, {}, GOOD_PAGE),
        }
    )
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert {r.name: r.outcome for r in summary.results} == {
        "a-page": "failed",
        "b-hub": "changed",
        "c-page": "failed",
    }
    a = summary.results[0]
    assert a.error == f"{PAGE}?a: RuntimeError: boom?[31m second line"
    assert a.error_kind == "parse_error"


def test_a_lone_surrogate_is_replaced_not_a_crash(engine, tmp_path):
    """A lone surrogate in a JSON string (valid JSON, not encodable text) used to raise
    UnicodeEncodeError when stored and stop the cycle; it is read as U+FFFD."""
    add_subjects(engine)
    _three_watches(engine)
    body = _licence("mit").replace(b'"mit"', b'"mit\\ud800\\u0000"')
    client = _client(
        {PAGE + "?a": (200, {}, GOOD_PAGE), HUB: (200, {}, body), PAGE + "?c": (200, {}, GOOD_PAGE)}
    )
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert summary.failing == 0
    with Session(engine) as s:
        lic = s.exec(select(Observation).where(Observation.attribute == "license")).all()
    assert [o.value.value for o in lic] == ["mit\ufffd\ufffd"]


def test_a_5000_digit_figure_on_a_page_fails_its_watch_only(engine, tmp_path):
    """A 5,000-digit number in a page cell raised ValueError (int digits limit) and stopped
    the cycle."""
    add_subjects(engine)
    _three_watches(engine)
    huge = f"<html><body><p id='p'>${'9' * 5000}</p></body></html>".encode()
    client = _client(
        {
            PAGE + "?a": (200, {}, huge),
            HUB: (200, {}, json.dumps(_model_info()).encode()),
            PAGE + "?c": (200, {}, GOOD_PAGE),
        }
    )
    summary = run_check(engine, client, snapshot_store=SnapshotStore(tmp_path), now=NOW)
    assert {r.name: r.outcome for r in summary.results} == {
        "a-page": "failed",
        "b-hub": "changed",
        "c-page": "changed",
    }
    assert summary.results[0].error_kind == "layout_changed"
    assert summary.results[0].error.endswith("a number of 5000 digits (at most 40)")
