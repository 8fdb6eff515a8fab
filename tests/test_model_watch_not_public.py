"""A model watch of a repo not public yet (tracked before release): the Hub's 404 or
401 RepoNotFound is a successful check reading "not public yet" (no failure, no
watch_failing, no retry), and it bounds the landing window; a 404 after the repo was
seen public is the repo gone (tests/test_model_watch_gone.py). Recorded-style responses
replayed through the transport seam; the tracked model is tests/cirrusmodel.py's."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from cirrusmodel import CIRRUS, FILES, HUB, JSON, MODEL_URL, at, entry, tracked
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import Event, Watch
from claims.watchstate import watch_health
from tracker.cli.main import app
from tracker.cli.watch import run_cycle
from tracker.net.har import write_har

NOT_FOUND = {
    404: [("X-Error-Code", "RepoNotFound"), *JSON],
    401: [("X-Error-Code", "RepoNotFound"), ("X-Error-Message", "Repository not found"), *JSON],
}
runner = CliRunner()


def cycle(db: str, tmp_path: Path, name: str, entries: list[dict]) -> None:
    har = write_har(tmp_path / f"{name}.har", entries)
    run_cycle(db, har, ["hf-model-nimbuslabs-cirrus-12b"], tmp_path / "snap", show_progress=False)


def public(when: dt.datetime) -> list[dict]:
    """The repo's model info and its files (none there: EntryNotFound, a file answer)."""
    missing = [("X-Error-Code", "EntryNotFound"), *JSON]
    files = [entry(f"{HUB}/nimbuslabs/Cirrus-12B/resolve/main/{name}", 404, {}, when, missing)
             for name in FILES]  # fmt: skip
    return [entry(MODEL_URL, 200, CIRRUS, when), *files]


def model_watch(db: str) -> Watch:
    with Session(make_engine(db)) as s:
        return s.exec(select(Watch).where(Watch.adapter == "huggingface_model")).one()


def event_kinds(db: str) -> list[str]:
    with Session(make_engine(db)) as s:
        return [e.kind for e in s.exec(select(Event).order_by(Event.id))]


@pytest.mark.parametrize("status", [404, 401])
def test_not_public_yet_is_a_successful_check(tmp_path, status):
    db = tracked(tmp_path)
    for hour in (6, 12, 18):  # three checks: the failing threshold if they were failures
        cycle(db, tmp_path, f"c{hour}", [entry(MODEL_URL, status, {"error": "Repository not "
              "found"}, at(1, hour), NOT_FOUND[status])])  # fmt: skip
    w = model_watch(db)
    assert (w.state, w.consecutive_failures, w.failing_since) == ("ok", 0, None)
    assert w.last_success == at(1, 18)
    health = watch_health(w.state, w.consecutive_failures, w.last_error, w.last_error_kind)
    assert health.text() == "not public yet"
    assert "watch_failing" not in event_kinds(db)
    out = runner.invoke(app, ["status", "cirrus-12b", "--db", db]).output
    assert out.splitlines()[1] == "  weights: not landed (as of 2026-12-01 18:00 UTC)"
    assert "failed" not in out


def test_the_last_not_public_check_bounds_the_landing(tmp_path):
    db = tracked(tmp_path)
    cycle(db, tmp_path, "a", [entry(MODEL_URL, 404, {}, at(1, 18), NOT_FOUND[404])])
    cycle(db, tmp_path, "b", public(at(2, 6)))
    with Session(make_engine(db)) as s:
        landed = [json.loads(e.detail_json) for e in s.exec(select(Event))
                  if e.kind == "weights_landed"]  # fmt: skip
    assert [d["previous_check"] for d in landed] == ["2026-12-01T18:00:00+00:00"]


def test_a_404_after_the_repo_was_public_is_gone_not_not_public_yet(tmp_path):
    """(The "gone" answer itself: tests/test_model_watch_gone.py.)"""
    db = tracked(tmp_path)
    cycle(db, tmp_path, "a", public(at(2, 6)))
    cycle(db, tmp_path, "b", [entry(MODEL_URL, 404, {}, at(2, 12), NOT_FOUND[404])])
    w = model_watch(db)
    assert (w.consecutive_failures, w.last_error_kind, w.last_success) == (0, "gone", at(2, 12))
