"""The offline demo's timeline and summary: its events carry the replayed data's time,
and its summary counts every event it stored (fresh-user trials)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.events import event_row
from claims.store import tables as models
from claims.store.engine import make_engine
from claims.store.outbox import make_event
from claims.values.canonical import as_utc
from tracker.cli.main import app
from tracker.net.har import HarReplayTransport

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
RECORDED = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)  # every response in demo.har
runner = CliRunner()


def _demo(tmp_path: Path) -> str:
    db, site = tmp_path / "t.db", tmp_path / "site"
    result = runner.invoke(app, ["demo", "--db", str(db), "--out", str(site)])
    assert result.exit_code == 0, result.output
    return result.output


def test_har_knows_when_its_data_is_from():
    assert HarReplayTransport(DEMO_HAR).latest_recorded_at() == RECORDED


def test_event_time_is_when_it_happened_not_when_it_was_written():
    row = event_row("watch_failing", "Watch x failed 3 times", watch_id=1, at=RECORDED)
    assert row["created_at"] == RECORDED
    assert make_event("weights_landed", "landed", subject_id=1, at=RECORDED).created_at == RECORDED
    # without a time: now
    now = dt.datetime.now(dt.UTC)
    assert abs(event_row("watch_failing", "t", watch_id=1)["created_at"] - now).seconds < 5


def test_demo_events_share_the_replayed_datas_time(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the demo reads data/ relative to the checkout
    _demo(tmp_path)
    with Session(make_engine(tmp_path / "t.db")) as s:
        events = s.exec(select(models.Event)).all()
        verdict_times = {as_utc(v.as_of) for v in s.exec(select(models.Verdict)) if v.as_of}
    assert len(events) == 7
    # the cycle's weights_landed and verification's events alike: the recording's time
    assert {as_utc(e.created_at) for e in events} == {RECORDED}
    assert verdict_times == {RECORDED}
    index = (tmp_path / "site" / "index.html").read_text()
    assert (
        'Data as of the latest successful watch check, <time datetime="2026-11-28T06:00:00Z">'
        in index
    )
    last_changes = re.findall(r'<td data-sort="[^"]+"><time datetime="([^"]+)"', index)
    # every subject, Kimi K3 by its first observations (it has no event)
    assert last_changes == ["2026-11-28T06:00:00Z"] * 3
    changes = (tmp_path / "site" / "changes.html").read_text()
    assert set(re.findall(r'data-label="When"><time datetime="([^"]+)"', changes)) == {
        "2026-11-28T06:00:00Z"
    }


def test_demo_summary_counts_every_event_it_stored(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = _demo(tmp_path)
    assert (
        "checked 16 watches (replayed as of 2026-11-28 06:00 UTC): 16 changed, 0 unchanged, "
        "0 failed; 82 new observations\n" in out
    )
    assert (
        "events: 7 new (First verdict 4, Disagreement already settled 1, "
        "Discrepancy opened 1, Weights found 1); "
        "the site's Changes page lists them\n" in out
    )
    # "First verdict 4" beside 40 verdicts is explained (a fresh-user trial read it as
    # "4 claims got a verdict"): only some first verdicts are events
    assert "verdicts: 40 (confirmed 34, contradicted 1, overdue 3, unverified 2)\n" in out
    assert (
        "  First verdict 4 of the 40 verdicts: a claim's first verdict is an event only "
        "when disputed, contradicted or overdue; the others are on the site and alert "
        "nobody\n" in out
    )
    # the discrepancy the board settled before it could open was never announced open:
    # not counted (nor worded) as resolved anywhere a reader sees it
    assert "resolved" not in out
    # ... as many as the site's Changes page lists
    changes = (tmp_path / "site" / "changes.html").read_text()
    assert "Newest first (7 shown)" in changes
    assert changes.count('<td data-label="When">') == 7
    # the Terminal-Bench discrepancy the board settled before it could open: one entry
    assert changes.count("(sources disagreed; already settled by an observation, never open)") == 1
    assert "found settled: never open" not in changes and "Discrepancy resolved" not in changes
    assert (
        changes.count('<span title="discrepancy_resolved">Disagreement already settled</span>') == 1
    )
    feed = (tmp_path / "site" / "feeds" / "all.atom").read_text()
    assert feed.count("already settled by an observation, never open)</title>") == 1
    assert "(resolved)" not in feed
    # ... and discrepancies.html says the same, not "opened T, closed T"
    discs = (tmp_path / "site" / "discrepancies.html").read_text()
    assert (
        'found settled <time datetime="2026-11-28T06:00:00Z">2026-11-28 06:00 UTC</time> '
        "(never open).</p>" in discs
    )
    assert "closed <time" not in discs
    assert "Weights found" in changes and "Subject discovered" not in changes
    # a first confirmed verdict is shown on the site, not announced as a change
    assert "first verdict: confirmed" not in changes
    # the Terminal-Bench board settles the 3.0-vs-4.0 dispute: no first "disputed" now
    assert changes.count("first verdict: disputed") == 0
    assert changes.count("first verdict: contradicted") == 1
    # a promise already broken is announced: the open weights are late (3 sources)
    assert changes.count("first verdict: overdue") == 3
    again = _demo(tmp_path)
    assert "events: none new (nothing changed since the last run)\n" in again


def test_subject_page_counts_claims_and_distinct_values(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    page = (tmp_path / "site" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    # each attribute's folded summary: its name, one value per fact, how many claims
    summaries = {
        re.sub(r"<[^>]+>", "", name): (summary.count('<span class="nowrap"><strong>'), claims)
        for name, summary, claims in re.findall(
            r'<summary><span class="attr-name"[^>]*>(.*?)</span>(.*?)'
            r'<small class="muted">(.*?)</small></summary>',
            page,
        )
    }
    assert summaries["Open-weights date"] == (2, "3 claims")  # before / on
    assert summaries["Context window"] == (1, "3 claims")  # all stating one value
    assert summaries["Input price"] == (1, "1 claim")


def test_estimated_publication_dates_are_not_shown_as_exact(tmp_path, monkeypatch):
    """data/claims gives the seed articles' dates as estimates: the site marks them so."""
    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    page = (tmp_path / "site" / "sources.html").read_text()
    dates = re.findall(r'data-label="Published">(.*?)</td>', page)
    circa = (
        '<abbr title="circa: an estimated date, the source shows no exact publication date">'
        "c. 2026-10-27</abbr>"
    )
    assert sorted(dates) == ["2025-11-06", circa, circa, circa]
    subject = (tmp_path / "site" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert f'<span class="nowrap">{circa}</span>' in subject


def test_published_label_per_precision():
    from tracker.website.views import SourceInfo

    def label(precision: str | None) -> str | None:
        return SourceInfo(
            1, "k", "t", None, None, "2026-10-27", None, "press", published_precision=precision
        ).published_label

    assert [label(None), label("day"), label("month"), label("estimated")] == [
        "2026-10-27",
        "2026-10-27",
        "2026-10",
        "c. 2026-10-27",
    ]


def test_demo_refuses_a_database_with_checks_later_than_the_recording(tmp_path, monkeypatch):
    """Replaying over live checks that observed something would set their watches' last
    run and observations back to the recording's time: one line says so and how to run
    it instead, nothing changes."""
    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    live = RECORDED + dt.timedelta(days=3, hours=9, minutes=48)
    db = tmp_path / "t.db"
    with Session(make_engine(db)) as s:
        w = s.exec(select(models.Watch).where(models.Watch.name == "hf-org-moonshotai")).one()
        w.last_run = w.last_success = live
        s.add(w)
        s.commit()
    again = runner.invoke(app, ["demo", "--db", str(db), "--out", str(tmp_path / "site")])
    assert again.exit_code == 1
    assert again.output.endswith(
        f"error: {db} holds checks later than the recording (2026-12-01 15:48 UTC, recorded "
        "2026-11-28 06:00 UTC) of 1 of the recording's watches (hf-org-moonshotai): a live "
        "check or a replay of your own ran them since, and the demo would reset their "
        "watches' history; run it on its own database (`tracker demo --db data/demo.db`, "
        "which builds its site in data/site-demo/ and leaves site/ as it is) or start over "
        "with "
        "`make clean`\n"
    )
    with Session(make_engine(db)) as s:
        w = s.exec(select(models.Watch).where(models.Watch.name == "hf-org-moonshotai")).one()
    assert (as_utc(w.last_run), as_utc(w.last_success)) == (live, live)


@pytest.mark.parametrize("demo_first", [True, False])
def test_checks_that_observed_nothing_do_not_block_the_demo_and_keep_their_failure(
    tmp_path, monkeypatch, demo_first
):
    """An offline `tracker check` (every watch failed) after, or before, the demo: the
    demo runs, and each failed watch keeps its failure (it came after the recording's
    success) without a `watch_recovered` event."""
    monkeypatch.chdir(ROOT)
    db = tmp_path / "t.db"
    if demo_first:
        _demo(tmp_path)
    else:
        assert runner.invoke(app, ["load", "--db", str(db)]).exit_code == 0
    live = RECORDED + dt.timedelta(days=3, hours=9, minutes=48)
    failure = {"state": "failing", "consecutive_failures": 3, "last_run": live,
               "last_error": "network error (Name or service not known)",
               "last_error_kind": "fetch_error", "failing_since": live - dt.timedelta(hours=2)}  # fmt: skip
    with Session(make_engine(db)) as s:
        for w in s.exec(select(models.Watch)):
            for key, value in failure.items():
                setattr(w, key, value)
            s.add(w)
        s.commit()
    again = runner.invoke(app, ["demo", "--db", str(db), "--out", str(tmp_path / "site")])
    assert again.exit_code == 0, again.output
    with Session(make_engine(db)) as s:
        w = s.exec(select(models.Watch).where(models.Watch.name == "hf-org-moonshotai")).one()
        kinds = {e.kind for e in s.exec(select(models.Event))}
        observations = len(s.exec(select(models.Observation)).all())
    got = {k: getattr(w, k) for k in failure}
    got["last_run"], got["failing_since"] = as_utc(w.last_run), as_utc(w.failing_since)
    assert got == failure
    assert as_utc(w.last_success) == RECORDED  # the replay's success, before the failure
    assert "watch_recovered" not in kinds
    assert observations > 0


def test_demo_refuses_a_recording_with_no_responses(tmp_path, monkeypatch):
    """An empty recording has no time its data is as of: one line names the file, before
    anything is written (it crashed on `None.tzinfo` over a database with checks)."""
    import json

    from tracker.demo import run_demo
    from tracker.errors import ConfigError

    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    empty = tmp_path / "empty.har"
    empty.write_text(json.dumps({"log": {"version": "1.2", "entries": []}}), encoding="utf-8")
    engine = make_engine(tmp_path / "t.db")
    try:
        with Session(engine) as s:
            runs_before = sorted(str(w.last_run) for w in s.exec(select(models.Watch)))
        with pytest.raises(ConfigError) as caught:
            run_demo(engine, har=empty, out_dir=tmp_path / "site2")
        with Session(engine) as s:
            runs_after = sorted(str(w.last_run) for w in s.exec(select(models.Watch)))
    finally:
        engine.dispose()
    assert str(caught.value) == (
        f"{empty}: the recording holds no responses, so it has no time to replay as of"
    )
    assert runs_after == runs_before and not (tmp_path / "site2").exists()


def test_demo_leaves_watches_the_recording_does_not_answer_alone(tmp_path, monkeypatch):
    """A watch of your own (tracked, checked live or from your own HAR after the
    recording) is no reason to refuse: the demo replays only the recording's watches
    and leaves yours as they were."""
    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    later = RECORDED + dt.timedelta(days=5)
    db = tmp_path / "t.db"
    url = "https://huggingface.co/api/models?author=auralis&sort=createdAt&direction=-1&limit=100"
    with Session(make_engine(db)) as s:
        s.add(models.Watch(name="hf-org-auralis", adapter="huggingface_org", url=url,
                           state="ok", last_run=later, last_success=later))  # fmt: skip
        s.commit()
    again = runner.invoke(app, ["demo", "--db", str(db), "--out", str(tmp_path / "site")])
    assert again.exit_code == 0, again.output
    with Session(make_engine(db)) as s:
        w = s.exec(select(models.Watch).where(models.Watch.name == "hf-org-auralis")).one()
    assert (as_utc(w.last_run), w.consecutive_failures, w.last_error) == (later, 0, None)


def test_discrepancies_export_says_found_settled_as_the_page_does(tmp_path, monkeypatch):
    """api/discrepancies.json (and the subject's export) carry ``found_settled``: true for
    the Terminal-Bench discrepancy the board settled before it could open, which the
    page shows as "found settled T (never open)"; false for the others."""
    import json

    monkeypatch.chdir(ROOT)
    _demo(tmp_path)
    api = tmp_path / "site" / "api"
    rows = json.loads((api / "discrepancies.json").read_text())["discrepancies"]
    said = {(r["state"], r["found_settled"]) for r in rows}
    assert said == {("resolved", True), ("open", False), ("dismissed", False)}
    settled = next(r for r in rows if r["found_settled"])
    assert settled["closed_at"] == "2026-11-28T06:00:00Z"
    subject = json.loads((api / "subjects" / f"{settled['subject']}.json").read_text())
    mine = next(d for d in subject["discrepancies"] if d["id"] == settled["id"])
    assert mine["found_settled"] is True
