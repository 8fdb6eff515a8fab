"""A watch a cycle skips (its API key's variable unset): the skip is recorded on the
watch (tracker/cycle/observe.py record_skip) and `tracker watches` and the site's
watches page say "skipped: TRACKER_AA_API_KEY not set", never "ok"; its health and
baseline stay as they were, and its next check clears the skip."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from cycle_setup import DATA, add_watch
from rich.console import Console
from sqlmodel import Session, select

from claims.store.tables import Watch
from claims.values.canonical import as_utc
from tracker.cli.schedule import narrow_watch_table, state_text
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.schedule.watchlist import list_watches
from tracker.snapshots.store import SnapshotStore
from tracker.website import build_site

AT = dt.datetime(2026, 11, 28, 6, 0, 0, tzinfo=dt.UTC)
BEFORE = dt.datetime(2026, 11, 27, 6, 0, 0, tzinfo=dt.UTC)
AA_FREE = "https://artificialanalysis.ai/api/v2/language/models/free"
AUTH = {"auth": {"env": "TRACKER_AA_API_KEY", "header": "x-api-key"}}


def _healthy_watch(engine) -> int:
    wid = add_watch(engine, "aa-free", "artificial_analysis", AA_FREE, **AUTH)
    with Session(engine) as s:
        w = s.get(Watch, wid)
        w.state, w.last_run, w.last_success, w.etag = "ok", BEFORE, BEFORE, '"v1"'
        s.add(w)
        s.commit()
    return wid


def _run(engine, tmp_path, handler):
    client = make_client(transport=httpx.MockTransport(handler))
    return run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "snap"), now=AT)


def test_a_skipped_watch_says_so_and_keeps_its_health(engine, tmp_path, monkeypatch):
    monkeypatch.delenv("TRACKER_AA_API_KEY", raising=False)
    wid = _healthy_watch(engine)
    summary = _run(engine, tmp_path, lambda r: pytest.fail("no request without a key"))
    assert summary.skipped == 1
    with Session(engine) as s:
        w = s.get(Watch, wid)
        assert (w.state, w.consecutive_failures, w.etag, w.failing_since) == ("ok", 0, '"v1"', None)
        assert (as_utc(w.last_run), as_utc(w.last_success)) == (BEFORE, BEFORE)
        assert (w.last_error, w.last_error_kind) == (None, None)
        assert w.skip_reason == "TRACKER_AA_API_KEY not set"
    (row,) = list_watches(engine, now=AT)["watches"]
    assert row["skipped"] == "TRACKER_AA_API_KEY not set"
    assert state_text(row) == "skipped: TRACKER_AA_API_KEY not set"
    console = Console(width=200, record=True)
    console.print(narrow_watch_table([row], AT))
    shown = console.export_text()
    assert "skipped: TRACKER_AA_API_KEY not set" in shown and " ok " not in shown
    build_site(engine, tmp_path / "site", now=AT)
    html = (tmp_path / "site" / "watches.html").read_text()
    assert (
        '<span class="state state-skipped">skipped</span> '
        '<small class="run">(TRACKER_AA_API_KEY not set)</small>'
    ) in html


def test_the_next_check_clears_the_skip(engine, tmp_path, monkeypatch):
    monkeypatch.delenv("TRACKER_AA_API_KEY", raising=False)
    wid = _healthy_watch(engine)
    _run(engine, tmp_path, lambda r: pytest.fail("no request without a key"))
    monkeypatch.setenv("TRACKER_AA_API_KEY", "k-1")
    body = (DATA / "synthetic_aa_language_models_free_v2.json").read_bytes()
    _run(engine, tmp_path, lambda r: httpx.Response(200, content=body))
    with Session(engine) as s:
        w = s.exec(select(Watch).where(Watch.id == wid)).one()
        assert (w.state, w.last_error, w.last_error_kind, w.skip_reason) == ("ok", None, None, None)
    (row,) = list_watches(engine, now=AT)["watches"]
    assert (row["skipped"], state_text(row)) == (None, "ok")
