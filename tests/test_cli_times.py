"""Times in the CLI's human text read one way, `2026-11-28 06:00 UTC` (to the minute);
every `--json` time reads one way too, `2026-11-28T06:00:00Z` (RFC 3339, UTC, seconds)."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.values.timefmt import iso_z
from tracker.cli.common import print_json
from tracker.cli.main import app
from tracker.cli.values import utc_minute
from tracker.cli.verify import _side_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


@pytest.fixture
def demo_db(demo_build: Path) -> Path:
    return demo_build / "t.db"


@pytest.mark.parametrize(
    ("moment", "shown"),
    [
        ("2026-11-28T06:00:00Z", "2026-11-28 06:00 UTC"),
        ("2026-11-28T08:30:59+02:00", "2026-11-28 06:30 UTC"),
        ("2026-11-28T06:00:00", "2026-11-28 06:00 UTC"),  # naive: UTC, as stored
        (dt.datetime(2026, 11, 28, 6, 0, 45, tzinfo=dt.UTC), "2026-11-28 06:00 UTC"),
        (None, "-"),
        ("", "-"),
        ("soon", "soon"),
    ],
)
def test_utc_minute_reads_one_way(moment, shown):
    assert utc_minute(moment) == shown


def test_status_gives_the_hub_check_time_to_the_minute_in_utc(demo_db):
    out = runner.invoke(app, ["status", "kimi-k3.1-pro", "--db", str(demo_db)]).output
    assert (
        "  overdue by 24 days as of 2026-11-28 06:00 UTC (counted from the latest promised "
        "deadline, 2026-11-04)" in out.splitlines()
    )
    landed = runner.invoke(app, ["status", "kimi-k2-thinking", "--db", str(demo_db)]).output
    assert (
        "already listed at the first Hub check 2026-11-28 06:00 UTC; repo created 2025-11-04"
        in landed
    )
    assert not ISO.search(out + landed)
    as_json = runner.invoke(app, ["status", "kimi-k3.1-pro", "--db", str(demo_db), "--json"])
    assert json.loads(as_json.output)["as_of"] == "2026-11-28T06:00:00Z"


@pytest.mark.parametrize(
    ("args", "times"),
    # status: the landing, and when the licence and the gating were read (issue 16)
    # discrepancies: the demo's have no observation side left (the Terminal-Bench one is
    # told by its settled conflict), so none prints a time; the test below shows one
    [(["watches"], 32), (["discrepancies"], 0), (["status", "kimi-k2-thinking"], 3)],
)
def test_no_command_prints_an_iso_time_in_its_text(demo_db, args, times):
    result = runner.invoke(app, [*args, "--db", str(demo_db)])
    assert result.exit_code == 0, result.output
    assert not ISO.search(result.output)
    assert len(re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\b", result.output)) == times


def test_a_discrepancys_observation_side_says_when_it_was_first_seen():
    side = {"side": "observation", "observation_id": 7, "value": "2.8T",
            "first_seen": "2026-11-28T06:00:00"}  # fmt: skip
    assert _side_text(side) == "    observation #7: 2.8T (first seen 2026-11-28 06:00 UTC)"


def test_a_different_subjects_note_is_marked_note_and_an_unknown_claimant_left_out(demo_db):
    """A trial: the note read "#3 [dismissed]" though `review 3` says there is nothing to
    dismiss and the site counts no dismissal; a side without a claimant read "— ? via"."""
    out = runner.invoke(app, ["discrepancies", "--db", str(demo_db)]).output
    assert (
        "#3 [note] kimi-k3 and kimi-k3.1-pro Total parameters: figures about two different subjects"
        in out
    )
    side = {
        "side": "claim", "claim_id": 9, "subject": "s", "value": "1T params",
        "qualifiers": {}, "claimant": None, "source_name": "Wire",
    }  # fmt: skip
    assert _side_text(side) == "    claim #9 s: 1T params — Wire"


def _copy_db(src: Path, dst: Path) -> Path:
    """A copy of a SQLite database that includes what its WAL still holds."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    return dst


RFC3339_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _times(node: object) -> list[str]:
    """Every string in a JSON document that looks like a date-time."""
    if isinstance(node, dict):
        return [t for v in node.values() for t in _times(v)]
    if isinstance(node, list):
        return [t for v in node for t in _times(v)]
    return [node] if isinstance(node, str) and ISO.match(node) else []


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (dt.datetime(2026, 11, 28, 6, 0, 45, 123456, tzinfo=dt.UTC), "2026-11-28T06:00:45Z"),
        (dt.datetime(2026, 11, 28, 8, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
         "2026-11-28T06:30:00Z"),
        (dt.datetime(2026, 11, 28, 6, 0), "2026-11-28T06:00:00Z"),  # naive: UTC, as stored
        (None, ""),
    ],
)  # fmt: skip
def test_iso_z_is_rfc3339_utc_to_the_second(moment, text):
    assert iso_z(moment) == text


def test_print_json_writes_a_datetime_with_z(capsys):
    print_json({"at": dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC), "day": dt.date(2026, 11, 28)})
    assert json.loads(capsys.readouterr().out) == {
        "at": "2026-11-28T06:00:00Z",
        "day": "2026-11-28",
    }


@pytest.mark.parametrize(
    "args",
    [["status", "kimi-k2-thinking"], ["discrepancies"], ["watches"], ["status", "kimi-k3.1-pro"]],
)
def test_every_json_time_ends_in_z(demo_db, args):
    """A trial: `--json` outputs mixed `+00:00`, `Z` and naive times (`discrepancies`)."""
    result = runner.invoke(app, [*args, "--db", str(demo_db), "--json"])
    assert result.exit_code == 0, result.output
    times = _times(json.loads(result.stdout))
    assert times and [t for t in times if not RFC3339_Z.fullmatch(t)] == []


def test_discrepancies_json_gives_opened_and_closed_with_z(demo_db):
    """Before: naive `2026-11-28T06:00:00` (no offset at all)."""
    rows = json.loads(runner.invoke(app, ["discrepancies", "--db", str(demo_db), "--json"]).stdout)
    assert {r["opened_at"] for r in rows} == {"2026-11-28T06:00:00Z"}
    assert {r["closed_at"] for r in rows} == {None, "2026-11-28T06:00:00Z"}


@pytest.mark.parametrize("now", ["2026-11-29T12:00:00+00:00", "2026-11-29T12:00:00Z"])
def test_verify_takes_either_offset_and_prints_z(demo_db, tmp_path, now):
    db = _copy_db(demo_db, tmp_path / "t.db")
    result = runner.invoke(app, ["verify", "--db", str(db), "--now", now, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["as_of"] == "2026-11-29T12:00:00Z"


def test_state_note_selects_the_different_subjects_notes_and_dismissed_leaves_them_out(
    demo_db, tmp_path
):
    """A trial: `--state note` was refused (the list had only open, resolved, dismissed)
    though the list marks a different-subjects note `[note]`; `--state dismissed` gave it."""
    db = _copy_db(demo_db, tmp_path / "t.db")
    dismissed = runner.invoke(
        app, ["review", "2", "--dismiss", "the lab says 4 November", "--db", str(db)]
    )  # (#1 is resolved: nothing to dismiss)
    assert dismissed.exit_code == 0, dismissed.output

    def listed(*args: str) -> list[str]:
        result = runner.invoke(app, ["discrepancies", "--db", str(db), *args])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        return [ln.split(" ", 1)[1].split("]")[0] + "]" for ln in lines if ln.startswith("#")]

    assert listed("--state", "note") == ["[note]"]
    assert listed("--state", "dismissed") == ["[dismissed]"]
    # #2 was the one open; #1 (stored resolved) was found already settled, never open
    assert listed() == ["[already settled]", "[dismissed]", "[note]"]
    rows = json.loads(
        runner.invoke(app, ["discrepancies", "--db", str(db), "--state", "note", "--json"]).stdout
    )
    assert [(r["id"], r["rule"], r["state"]) for r in rows] == [(3, "different_subject", "note")]
    every = json.loads(runner.invoke(app, ["discrepancies", "--db", str(db), "--json"]).stdout)
    assert [r["state"] for r in every] == ["resolved", "dismissed", "note"]


def test_not_landed_says_as_of_when_like_the_json(demo_db):
    """The text said "weights: not landed" while --json had ``as_of``: both give the time."""
    out = runner.invoke(app, ["status", "kimi-k3", "--db", str(demo_db)]).output
    as_json = json.loads(
        runner.invoke(app, ["status", "kimi-k3", "--db", str(demo_db), "--json"]).output
    )
    assert as_json["as_of"] == "2026-11-28T06:00:00Z"
    assert "  weights: not landed (as of 2026-11-28 06:00 UTC)" in out.splitlines()
