"""A tracked repo that was public and is no longer: the model page's 404 after a public
sighting is an answer ("gone"), not a failure that retries; the weights read
"withdrawn" in `tracker status` (text and --json) and the site's words, with one
``repo_disappeared``; an empty listing alone never says gone; a repo public again is
landed again (an event); a rename (cases/C34) is no disappearance; a 5xx still retries.
Recorded-style responses replayed through the transport seam (HAR files)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from cirrusmodel import CIRRUS, FILES, HUB, JSON, MODEL_URL, ORG_URL, REPO, at, entry, tracked
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.status import weights_status
from claims.store.tables import Event, Subject, Watch
from claims.watchstate import watch_health
from tracker.cli.main import app
from tracker.cli.watch import run_cycle
from tracker.net.har import write_har
from tracker.website.summary import weights_text

NOT_FOUND = [("X-Error-Code", "RepoNotFound"), *JSON]
OTHER = {"id": "nimbuslabs/Other-1B", "createdAt": "2026-11-01T05:00:00.000Z"}
runner = CliRunner()


def cycle(db: str, tmp_path: Path, name: str, entries: list[dict]) -> None:
    har = write_har(tmp_path / f"{name}.har", entries)
    run_cycle(db, har, None, tmp_path / "snap", show_progress=False)


def model(status: int, when: dt.datetime, body=None) -> list[dict]:
    """The model page (with its files, none there, when it answers 200)."""
    if status != 200:
        return [entry(MODEL_URL, status, body or {"error": "Repository not found"}, when,
                      NOT_FOUND if status == 404 else JSON)]  # fmt: skip
    missing = [("X-Error-Code", "EntryNotFound"), *JSON]
    files = [entry(f"{HUB}/{REPO}/resolve/main/{n}", 404, {}, when, missing) for n in FILES]
    return [entry(MODEL_URL, 200, CIRRUS, when), *files]


def listing(repos: list[dict], when: dt.datetime) -> list[dict]:
    return [entry(ORG_URL, 200, repos, when)]


def landed(db: str, tmp_path: Path) -> None:
    cycle(db, tmp_path, "a", listing([OTHER], at(1, 18)) + model(404, at(1, 18)))
    cycle(db, tmp_path, "b", listing([CIRRUS, OTHER], at(2, 6)) + model(200, at(2, 6)))


def events(db: str, kind: str) -> list[Event]:
    with Session(make_engine(db)) as s:
        return list(s.exec(select(Event).where(Event.kind == kind).order_by(Event.id)))


def status_of(db: str):
    with Session(make_engine(db)) as s:
        return weights_status(s, s.exec(select(Subject).where(Subject.slug == "cirrus-12b")).one())


def model_watch(db: str) -> Watch:
    with Session(make_engine(db)) as s:
        return s.exec(select(Watch).where(Watch.adapter == "huggingface_model")).one()


GONE_TITLE = (
    "Cirrus 12B: nimbuslabs/Cirrus-12B is no longer public on Hugging Face "
    "(its model page answers not found)"
)


def test_gone_from_the_listing_and_404_reads_withdrawn_everywhere(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    for hour in (12, 18):  # a second 404 is the same answer: no second alert, no retry
        cycle(db, tmp_path, f"c{hour}", listing([OTHER], at(3, hour)) + model(404, at(3, hour)))
    assert [e.title for e in events(db, "repo_disappeared")] == [GONE_TITLE]
    w = model_watch(db)
    assert (w.state, w.consecutive_failures, w.last_success) == ("ok", 0, at(3, 18))
    health = watch_health(w.state, w.consecutive_failures, w.last_error, w.last_error_kind)
    assert (health.state, health.text()) == ("gone", "no longer public")
    out = runner.invoke(app, ["status", "cirrus-12b", "--db", db]).output
    assert out.splitlines()[1] == (
        "  weights: withdrawn — nimbuslabs/Cirrus-12B no longer public since 2026-12-03 12:00"
        f" UTC (last seen public 2026-12-02 06:00 UTC; alert: {GONE_TITLE})"
    )
    assert "landed —" not in out and "failed" not in out
    d = json.loads(runner.invoke(app, ["status", "cirrus-12b", "--db", db, "--json"]).output)
    assert (d["weights"], d["landed"], d["last_check_failed"]) == ("withdrawn", False, False)
    assert d["withdrawn"] == {"since": "2026-12-03T12:00:00Z",
                              "last_seen_public": "2026-12-02T06:00:00Z", "alert": GONE_TITLE}  # fmt: skip
    assert weights_text(status_of(db)) == "withdrawn — no longer public since 2026-12-03 12:00 UTC"


def test_an_empty_listing_while_the_model_answers_is_not_gone(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    cycle(db, tmp_path, "c", listing([], at(3, 6)) + model(200, at(3, 6)))
    assert events(db, "repo_disappeared") == []
    st = status_of(db)
    assert (st.weights_word, st.withdrawn) == ("landed", False)


def test_an_empty_listing_and_a_404_is_the_disappearance(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    cycle(db, tmp_path, "c", listing([], at(3, 6)) + model(404, at(3, 6)))
    [ev] = events(db, "repo_disappeared")
    assert ev.title == GONE_TITLE
    assert json.loads(ev.detail_json)["summary"] == (
        "nimbuslabs/Cirrus-12B: no longer public on Hugging Face (its model page answers not "
        "found); last seen public 2026-12-02 06:00 UTC (private or removed; its history is kept)"
    )
    st = status_of(db)
    assert (st.weights_word, st.withdrawn_since, st.last_seen_public) == (
        "withdrawn", at(3, 6), at(2, 6))  # fmt: skip


def test_a_repo_public_again_has_landed_again(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    cycle(db, tmp_path, "c", listing([OTHER], at(3, 6)) + model(404, at(3, 6)))
    cycle(db, tmp_path, "d", listing([CIRRUS, OTHER], at(4, 6)) + model(200, at(4, 6)))
    again = [e for e in events(db, "weights_landed") if json.loads(e.detail_json).get("reappeared")]
    assert [(e.title, json.loads(e.detail_json)["summary"]) for e in again] == [(
        "Cirrus 12B: weights public again on Hugging Face (nimbuslabs/Cirrus-12B)",
        "nimbuslabs/Cirrus-12B is public again (gone since 2026-12-03 06:00 UTC)",
    )]  # fmt: skip
    st = status_of(db)
    assert (st.weights_word, st.landed_at) == ("landed", at(2, 6))


def test_a_renamed_repo_is_not_gone(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    moved = {**CIRRUS, "id": "nimbus-labs/Cirrus-12B"}
    redirect = [("Location", "/api/models/nimbus-labs/Cirrus-12B"), *JSON]
    new = f"{HUB}/api/models/nimbus-labs/Cirrus-12B"
    missing = [("X-Error-Code", "EntryNotFound"), *JSON]
    files = [entry(f"{HUB}/nimbus-labs/Cirrus-12B/resolve/main/{n}", 404, {}, at(3, 6), missing)
             for n in FILES]  # fmt: skip
    cycle(db, tmp_path, "c", listing([OTHER], at(3, 6)) + [
        entry(MODEL_URL, 307, {}, at(3, 6), redirect), entry(new, 200, moved, at(3, 6)), *files])  # fmt: skip
    assert events(db, "repo_disappeared") == []
    assert len(events(db, "repo_renamed")) == 1
    assert status_of(db).weights_word == "landed"


def test_a_server_error_after_a_public_sighting_still_retries(tmp_path):
    db = tracked(tmp_path)
    landed(db, tmp_path)
    cycle(db, tmp_path, "c", listing([CIRRUS, OTHER], at(3, 6)) + model(503, at(3, 6)))
    w = model_watch(db)
    assert (w.consecutive_failures, w.last_success) == (1, at(3, 6) - dt.timedelta(hours=24))
    assert status_of(db).weights_word == "landed"


def test_the_digest_lists_each_alert_with_what_it_says_and_its_own_link(tmp_path):
    from tracker.alerts.send import compose_digest
    from tracker.website.eventtext import describe_change

    db = tracked(tmp_path)
    landed(db, tmp_path)
    cycle(db, tmp_path, "c", listing([OTHER], at(3, 6)) + model(404, at(3, 6)))
    with Session(make_engine(db)) as s:
        evs = [e for e in s.exec(select(Event).order_by(Event.id))
               if e.kind in ("weights_landed", "repo_disappeared")]  # fmt: skip
        subject = s.exec(select(Subject).where(Subject.slug == "cirrus-12b")).one()
        msg = compose_digest(evs, "https://dash.example.org/", [subject] * len(evs))
    landing = (
        "nimbuslabs/Cirrus-12B: first seen 2026-12-02 06:00 UTC (the check before 2026-12-01 "
        "18:00 UTC); licence apache-2.0, not gated"
    )
    assert describe_change(evs[0]) == landing  # the feed entry's body says the same
    assert msg.text.splitlines() == [
        "- Cirrus 12B: weights available on Hugging Face (nimbuslabs/Cirrus-12B); licence "
        "apache-2.0, not gated — first seen 2026-12-02 06:00 UTC (the check before "
        "2026-12-01 18:00 UTC)",  # what the title says is not said again
        "  https://huggingface.co/nimbuslabs/Cirrus-12B",
        f"- {GONE_TITLE} — last seen public 2026-12-02 06:00 UTC (private or removed; "
        "its history is kept)",
        "  https://dash.example.org/subjects/cirrus-12b/#observed-weights_available",
    ]
    assert msg.link == "https://dash.example.org/changes.html"
