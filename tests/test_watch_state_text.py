"""How a watch's state reads in `tracker watches` and on the watches page: the states of
claims/watchstate.py, each path to them, and the error shown only while it is current."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from cycle_setup import add_watch
from sqlmodel import Session, select

from claims.store.tables import Watch
from claims.watchstate import WATCH_STATES, watch_health
from tracker.website.eventtext import watch_state_text


def test_states_with_their_run_of_failures():
    assert watch_state_text("ok", 0) == "ok"
    assert watch_state_text("ok", 1) == "retrying (1 failure in a row)"
    assert watch_state_text("new", 2) == "retrying (2 failures in a row)"
    assert watch_state_text("failing", 4) == "failing (4 in a row)"
    # a retired watch runs no more: its last failures say nothing
    assert watch_state_text("retired", 2) == "retired"


AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
AA_FREE = "https://artificialanalysis.ai/api/v2/language/models/free"
KEY = "TRACKER_AA_API_KEY"


@pytest.mark.parametrize(
    ("row", "state", "text", "error"),
    [
        (("new", 0), "new", "new", None),
        (("ok", 0), "ok", "ok", None),
        (("ok", 1, "HTTP 503", "bad_status"), "retrying", "retrying (1 failure in a row)",
         "HTTP 503"),
        (("failing", 3, "HTTP 503", "bad_status"), "failing", "failing (3 in a row)", "HTTP 503"),
        # a skip stored as the error (before revision 0006): still failing
        (("failing", 3, f"{KEY} not set", "skipped"), "failing",
         f"failing (3 in a row); skipped: {KEY} not set", None),
        # a failing watch skipped since: its error and the skip's reason, both
        (("failing", 3, "HTTP 503", "bad_status", None, f"{KEY} not set"), "failing",
         f"failing (3 in a row); skipped: {KEY} not set", "HTTP 503"),
        (("ok", 0, None, None, None, f"{KEY} not set"), "skipped", f"skipped: {KEY} not set",
         None),
        (("ok", 0, f"{KEY} not set", "skipped"), "skipped", f"skipped: {KEY} not set", None),
        # re-activated by `tracker track` after `untrack`: the old error is history
        (("new", 0, "HTTP 503", "bad_status"), "new", "new", None),
        (("retired", 2, "HTTP 503", "bad_status"), "retired", "retired", None),
        # the scheduler job's own error, while the watch has none of its own
        (("ok", 0, None, None, "lease lost"), "ok", "ok", "lease lost"),
    ],
)  # fmt: skip
def test_each_path_to_a_state(row, state, text, error):
    health = watch_health(*row[:5], skip_reason=row[5] if len(row) > 5 else None)
    assert (health.state, health.text(), health.error) == (state, text, error)
    assert health.state in WATCH_STATES


def _cycle(engine, tmp_path, handler):  # type: ignore[no-untyped-def]
    from tracker.cycle.run import run_check
    from tracker.net.fetch import make_client
    from tracker.snapshots.store import SnapshotStore

    client = make_client(transport=httpx.MockTransport(handler))
    run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "snap"), now=AT,
              sleep=lambda s: None)  # fmt: skip


def test_a_failing_watch_then_skipped_still_reads_failing_with_its_error(
    engine, tmp_path, monkeypatch
):
    from rich.console import Console

    from tracker.cli.schedule import narrow_watch_table, state_text
    from tracker.schedule.watchlist import list_watches
    from tracker.website import build_site

    add_watch(engine, "aa-free", "artificial_analysis", AA_FREE,
              auth={"env": KEY, "header": "x-api-key"})  # fmt: skip
    monkeypatch.setenv(KEY, "k-1")
    for _ in range(3):
        _cycle(engine, tmp_path, lambda r: httpx.Response(404))
    monkeypatch.delenv(KEY)
    _cycle(engine, tmp_path, lambda r: pytest.fail("no request without a key"))
    (row,) = list_watches(engine, now=AT)["watches"]
    # the skip's reason is kept beside the error (it was lost: one error column)
    assert (row["state"], row["consecutive_failures"], row["skipped"]) == (
        "failing", 3, f"{KEY} not set",
    )  # fmt: skip
    assert row["last_error"] is not None and "HTTP 404" in row["last_error"]
    assert state_text(row) == f"failing (3 in a row); skipped: {KEY} not set"
    console = Console(width=200, record=True)
    console.print(narrow_watch_table([row], AT))
    shown = " ".join(console.export_text().split())
    assert f"failing (3 in a row); skipped: {KEY} not set; last error: " in shown
    build_site(engine, tmp_path / "site", now=AT)
    page = (tmp_path / "site" / "watches.html").read_text()
    assert (
        f'<span class="state state-failing">failing (3 in a row); skipped: {KEY} not set</span>'
    ) in page
    row_html = page[page.index('<tr id="watch-aa-free">') :].split("</tr>")[0]
    assert '<td class="error" data-label="Last error"><code>not_found</code> https://' in row_html
    assert row_html.endswith("/<wbr>models/<wbr>free: HTTP 404</td>\n")
    # the next check (the key set again) clears the skip, and a good one the error
    monkeypatch.setenv(KEY, "k-1")
    _cycle(engine, tmp_path, lambda r: httpx.Response(404))
    (row,) = list_watches(engine, now=AT)["watches"]
    assert (row["consecutive_failures"], row["skipped"]) == (4, None)


def test_a_watch_reactivated_by_track_reads_new_without_its_old_error(engine, tmp_path):
    from tracker.cli.schedule import state_text
    from tracker.curated.load import load_curated
    from tracker.schedule.watchlist import list_watches

    data = tmp_path / "data"
    data.mkdir()
    (data / "watches.toml").write_text(
        '[[watch]]\nname = "page"\nadapter = "html_page"\nurl = "https://a.example/"\n'
        '[watch.params]\nselector = "td"\n'
    )
    load_curated(engine, data)
    with Session(engine) as s:  # it failed twice, then `untrack` retired it
        w = s.exec(select(Watch).where(Watch.name == "page")).one()
        w.state, w.consecutive_failures = "retired", 2
        w.last_error, w.last_error_kind, w.last_run = "HTTP 503", "bad_status", AT
        s.add(w)
        s.commit()
    (row,) = list_watches(engine, now=AT)["watches"]
    assert (row["state"], row["last_error"], state_text(row)) == ("retired", None, "retired")
    load_curated(engine, data)  # `tracker track` writes it back and loads it
    (row,) = list_watches(engine, now=AT)["watches"]
    assert (row["state"], row["last_error"], state_text(row)) == ("new", None, "new")
