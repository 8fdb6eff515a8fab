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


def _watch_row(db: str, name: str) -> tuple:
    with make_engine(db).connect() as conn:
        return tuple(conn.execute(text("SELECT * FROM watch WHERE name = :n"), {"n": name}).one())


def _observations(db: str, name: str) -> list[tuple]:
    q = "SELECT o.* FROM observation o JOIN watch w ON w.id = o.watch_id WHERE w.name = :n"
    with make_engine(db).connect() as conn:
        return [tuple(r) for r in conn.execute(text(q), {"n": name})]


def test_a_replay_checks_only_the_watches_it_answers_and_leaves_the_others_as_stored(tmp_path):
    """Without --watch a replay recorded `not_recorded` failures for every watch the
    recording had no answer for (fresh-user trial): it now leaves them untouched and
    says so once, in the output and in --json."""
    db = tracked(tmp_path)
    assert _check(db, write_har(tmp_path / "a.har", _landed(at(2, 6)))).exit_code == 0
    model_row, model_obs = _watch_row(db, MODEL_WATCH), _observations(db, MODEL_WATCH)
    assert model_obs  # the model watch observed the repo
    listing = write_har(tmp_path / "b.har", [entry(ORG_URL, 200, [CIRRUS], at(2, 8))])
    result = _check(db, listing)
    assert result.exit_code == 0, result.output
    note = f"  not checked 1 watch the recording has no answer for, left as stored: {MODEL_WATCH}"
    assert result.output.count(note) == 1
    assert "not_recorded" not in result.output and "failed  " not in result.output
    assert "checked 1 watch: 0 changed, 1 unchanged, 0 failed" in result.output
    doc = json.loads(_check(db, listing, json_out=True).stdout)
    assert doc["not_in_recording"] == [MODEL_WATCH]
    assert [r["name"] for r in doc["results"]] == [ORG_WATCH]
    assert (doc["checked"], doc["failing"], doc["skipped"]) == (1, 0, 0)
    # nothing stored about the model watch changed: health, last check, observations
    assert _watch_row(db, MODEL_WATCH) == model_row
    assert _observations(db, MODEL_WATCH) == model_obs
    watches = json.loads(runner.invoke(app, ["watches", "--db", db, "--json"]).stdout)
    states = {w["name"]: w["state"] for w in watches["watches"]}
    assert states[MODEL_WATCH] == "ok"
    status = json.loads(runner.invoke(app, ["status", "cirrus-12b", "--db", db, "--json"]).stdout)
    assert (status["weights"], status["landed"]) == ("landed", True)


def test_naming_a_watch_the_replay_does_not_answer_is_refused_before_anything_is_stored(
    tmp_path,
):
    db = tracked(tmp_path)
    assert _check(db, write_har(tmp_path / "a.har", _landed(at(2, 6)))).exit_code == 0
    before = _stored(db)
    listing = write_har(tmp_path / "b.har", [entry(ORG_URL, 200, [CIRRUS], at(2, 8))])
    result = _check(db, listing, ORG_WATCH, MODEL_WATCH)
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: {listing}: no recorded answer for watch {MODEL_WATCH} ({MODEL_URL}); "
        "nothing was replayed: name only watches the recording answers (without --watch, "
        "a replay checks those and leaves the others as they are)"
    )
    assert _stored(db) == before


def test_a_recording_of_mixed_dates_is_refused_by_the_answer_each_watch_would_use(tmp_path):
    """Its latest entry (the listing's) is newer than every stored check, but the model
    page's own entry is older than the model watch's last check: the guard compared
    only the latest entry and let it set the model watch back."""
    db = tracked(tmp_path)
    assert _check(db, write_har(tmp_path / "a.har", _landed(at(2, 6)))).exit_code == 0
    before = _stored(db)
    missing = [("X-Error-Code", "RepoNotFound"), *JSON]
    mixed = write_har(
        tmp_path / "m.har",
        [entry(ORG_URL, 200, [CIRRUS], at(2, 8)),
         entry(MODEL_URL, 404, {"error": "x"}, at(1, 18), missing)],
    )  # fmt: skip
    result = _check(db, mixed)
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: {mixed}: recorded 2026-11-01 18:00 UTC, before the last successful check "
        f"of 1 watch it answers ({MODEL_WATCH} (2026-11-02 06:00 UTC)); replaying it would "
        "set their state back, so nothing was replayed: replay recordings in the order "
        "they were made, or name only other watches with --watch"
    )
    assert _stored(db) == before
    # the listing alone is in order
    assert _check(db, mixed, ORG_WATCH).exit_code == 0
