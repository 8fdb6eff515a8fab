"""Recordings replay in the order they were made (tracker/cycle/replayorder.py): `tracker
check --replay` of a recording older than the last successful check of a watch it
answers is refused before anything is stored (the rule `tracker demo` applies too); a
watch the recording does not answer is no reason, and replaying the same recording
again is accepted. A fresh-user trial replayed a "repo not found" recording after the
one that saw the weights land: the repo read "no longer public" and subscribers got a
``repo_disappeared`` whose ``missing_at`` was before ``last_seen``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from cirrusmodel import CIRRUS, FILES, HUB, JSON, MODEL_URL, ORG_URL, REPO, entry, tracked
from sqlalchemy import text
from typer.testing import CliRunner

from claims.store.engine import make_engine
from tracker.cli.main import app
from tracker.net.har import write_har

ORG_WATCH, MODEL_WATCH = "hf-org-nimbuslabs", "hf-model-nimbuslabs-cirrus-12b"
runner = CliRunner()


def at(day: int, hour: int) -> dt.datetime:
    """``hour``:00 UTC on ``day`` November 2026 (a replay dated after now is refused)."""
    return dt.datetime(2026, 11, day, hour, 0, tzinfo=dt.UTC)


def _before(when) -> list[dict]:
    """The org listing without the repo and the model page's 404, at ``when``."""
    missing = [("X-Error-Code", "RepoNotFound"), *JSON]
    return [entry(ORG_URL, 200, [], when), entry(MODEL_URL, 404, {"error": "x"}, when, missing)]


def _landed(when) -> list[dict]:
    """The repo listed and public, its files absent, at ``when``."""
    gone = [("X-Error-Code", "EntryNotFound"), *JSON]
    files = [entry(f"{HUB}/{REPO}/resolve/main/{n}", 404, {}, when, gone) for n in FILES]
    return [entry(ORG_URL, 200, [CIRRUS], when), entry(MODEL_URL, 200, CIRRUS, when), *files]


def _check(db: str, har: Path, *watches: str, json_out: bool = False):
    args = ["check", "--replay", str(har), "--db", db, "--snapshots", str(har.parent / "snap")]
    for name in watches:
        args += ["--watch", name]
    return runner.invoke(app, args + (["--json"] if json_out else []))


def _stored(db: str) -> dict[str, list]:
    """Every row a replay could change."""
    with make_engine(db).connect() as conn:
        return {
            table: [tuple(r) for r in conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))]
            for table in ("watch", "observation", "snapshot", "event")
        }


def test_a_replay_older_than_the_watches_last_checks_is_refused_and_stores_nothing(tmp_path):
    db = tracked(tmp_path)
    old = write_har(tmp_path / "h1.har", _before(at(1, 18)))
    new = write_har(tmp_path / "h2.har", _landed(at(2, 6)))
    assert _check(db, new).exit_code == 0
    before = _stored(db)
    result = _check(db, old)
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: {old}: recorded 2026-11-01 18:00 UTC, before the last successful check of "
        f"2 watches it answers ({ORG_WATCH} (2026-11-02 06:00 UTC), {MODEL_WATCH} "
        "(2026-11-02 06:00 UTC)); replaying it would set their state back, so nothing was "
        "replayed: replay recordings in the order they were made, or name only other "
        "watches with --watch"
    )
    doc = json.loads(_check(db, old, MODEL_WATCH, json_out=True).stdout)
    assert doc["error"]["kind"] == "config"
    assert f"1 watch it answers ({MODEL_WATCH} (2026-11-02 06:00 UTC))" in doc["error"]["message"]
    assert _stored(db) == before  # no observation, health, snapshot or event
    status = json.loads(runner.invoke(app, ["status", "cirrus-12b", "--db", db, "--json"]).stdout)
    assert (status["weights"], status["landed"]) == ("landed", True)
    # The same recording again is in order: accepted, and nothing new.
    assert _check(db, new).exit_code == 0
    assert len(_stored(db)["event"]) == len(before["event"])


def test_a_watch_the_replay_does_not_answer_is_no_reason_to_refuse(tmp_path):
    db = tracked(tmp_path)
    assert _check(db, write_har(tmp_path / "a.har", _before(at(1, 18)))).exit_code == 0
    # only the model watch is checked later
    assert _check(db, write_har(tmp_path / "b.har", _landed(at(2, 6))), MODEL_WATCH).exit_code == 0
    # a listing recorded between the two: older than the model watch's check, which it
    # does not answer, and newer than the listing's own
    between = write_har(tmp_path / "c.har", [entry(ORG_URL, 200, [CIRRUS], at(1, 20))])
    result = _check(db, between, ORG_WATCH)
    assert result.exit_code == 0, result.output
    with make_engine(db).connect() as conn:
        rows = dict(conn.execute(text("SELECT name, last_success FROM watch")).all())
    assert (str(rows[ORG_WATCH])[:16], str(rows[MODEL_WATCH])[:16]) == (
        "2026-11-01 20:00",
        "2026-11-02 06:00",
    )
