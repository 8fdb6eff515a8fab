"""`tracker claims import` names every bad candidate (as `load` names every problem),
says a missing attribute is missing, and gives its own --json error kind; `track
--subscribe` is validated by --dry-run too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
GOOD = {"subject": "kimi-k3", "attribute": "total_params", "value": "1T"}


def _import(tmp_path: Path, items: list[dict], *extra: str):
    cands = tmp_path / "c.json"
    cands.write_text(json.dumps(items))
    db = str(tmp_path / "t.db")
    return runner.invoke(app, ["claims", "import", str(cands), "--source", "s", "--db", db,
                               *extra])  # fmt: skip


def test_every_bad_candidate_is_named(tmp_path):
    items = [{"subject": "kimi-k3", "value": "1T"}, GOOD,
             {**GOOD, "attribute": "total_parms"}, {**GOOD, "value": "abc"}]  # fmt: skip
    r = _import(tmp_path, items)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "error: 3 of 4 candidates cannot be imported (nothing was):",
        "  candidate #1: attribute: missing (e.g. total_params; see docs/data.md)",
        "  candidate #3: attribute: unknown attribute 'total_parms' (did you mean 'total_params'?)",
        "  candidate #4: value: 'abc' is not a figure (e.g. 2.8T, ~3T, 65.7%, 1000-2000+)",
    ]
    assert "None" not in r.stderr


def test_the_json_error_has_its_own_kind_and_every_problem(tmp_path):
    r = _import(tmp_path, [{"value": "1T"}, {**GOOD, "attribute": "colour"}], "--json")
    error = json.loads(r.stdout)["error"]
    assert error["kind"] == "candidates"
    assert [p["candidate"] for p in error["problems"]] == [1, 2]
    assert error["problems"][0]["message"].startswith("candidate #1: attribute: missing")


def test_a_file_that_is_not_json_names_its_line_and_column(tmp_path):
    cands = tmp_path / "c.json"
    cands.write_text('[{"subject": "kimi-k3",\n  "value": "1\tT"}]')  # a raw tab in a string
    r = runner.invoke(app, ["claims", "import", str(cands), "--source", "s",
                            "--db", str(tmp_path / "t.db")])  # fmt: skip
    assert (r.exit_code, r.stderr) == (
        1,
        f"error: {cands}:2:14: not JSON (Invalid control character)\n",
    )


def test_track_dry_run_validates_the_subscription_url(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    r = runner.invoke(app, ["track", "Zeta Q", "--org", "zeta", "--subscribe", "notaurl",
                            "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code == 1
    assert "field 'url' must be an Apprise URL" in r.output
    assert "dry run" not in r.output


def test_unknown_subjects_are_listed_with_the_other_problems_and_a_did_you_mean(tmp_path):
    """A trial's file with two mistyped subjects and a bad attribute: every problem at
    once, each with its candidate number, the near slug suggested (was: the first
    unknown subject only, with neither)."""
    db = tmp_path / "t.db"
    shutil.copytree(
        ROOT / "data", tmp_path / "data", ignore=shutil.ignore_patterns("*.db*", "snapshots")
    )
    assert (
        runner.invoke(app, ["load", "--data", str(tmp_path / "data"), "--db", str(db)]).exit_code
        == 0
    )
    items = [GOOD, {**GOOD, "subject": "nosuch"}, {**GOOD, "attribute": "total_param"},
             {**GOOD, "subject": "kimi-k3.1-pr"}]  # fmt: skip
    before = db.read_bytes()
    r = _import(tmp_path, items, "--subjects", str(tmp_path / "data" / "subjects.toml"))
    assert r.exit_code == 1
    known = "kimi-k2-thinking, kimi-k3, kimi-k3.1-pro"
    assert r.stderr.splitlines() == [
        "error: 3 of 4 candidates cannot be imported (nothing was):",
        "  candidate #2: subject: 'nosuch' is neither in the database nor in the "
        f"subjects file (known: {known})",
        "  candidate #3: attribute: unknown attribute 'total_param' (did you mean 'total_params'?)",
        "  candidate #4: subject: 'kimi-k3.1-pr' is neither in the database nor in the "
        "subjects file (did you mean 'kimi-k3.1-pro'?)",
    ]
    assert db.read_bytes() == before
    doc = json.loads(_import(tmp_path, items, "--json").stdout)["error"]
    assert (doc["kind"], [p["candidate"] for p in doc["problems"]]) == ("candidates", [2, 3, 4])
