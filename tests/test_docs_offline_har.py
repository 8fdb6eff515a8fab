"""docs/watches.md's minimal HAR for a newly tracked model replays offline:
`track` then `check --replay` of that file gives "not landed", the model watch "not
public yet", nothing failing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_the_documented_har_replays_a_new_model(tmp_path):
    doc = (ROOT / "docs" / "watches.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Trying a newly tracked model offline") :]
    har = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))
    (tmp_path / "my.har").write_text(json.dumps(har))
    data, db = tmp_path / "data", str(tmp_path / "t.db")
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db", "snapshots"))
    track = ["track", "Cirrus 12B", "--org", "Nimbus Labs", "--repo", "nimbuslabs/Cirrus-12B"]
    assert runner.invoke(app, [*track, "--data", str(data), "--db", db]).exit_code == 0
    command = re.search(r"tracker (check --replay my\.har .*)\n", section).group(1).split()
    command[command.index("my.har")] = str(tmp_path / "my.har")
    r = runner.invoke(app, [*command, "--db", db])
    assert r.exit_code == 0, r.output
    status = runner.invoke(app, ["status", "cirrus-12b", "--db", db]).output
    assert "  weights: not landed" in status.splitlines()
    assert "failed" not in status
    watches = json.loads(runner.invoke(app, ["watches", "--db", db, "--json"]).output)
    rows = watches if isinstance(watches, list) else watches["watches"]
    states = {w["name"]: w["state"] for w in rows if "nimbuslabs" in w["name"]}
    assert states == {"hf-org-nimbuslabs": "ok", "hf-model-nimbuslabs-cirrus-12b": "not_public"}


def test_check_replay_needs_no_api_key(tmp_path, monkeypatch):
    """`check --replay` replays the Artificial Analysis watches without
    TRACKER_AA_API_KEY, as `demo` does (the key only matters live)."""
    monkeypatch.delenv("TRACKER_AA_API_KEY", raising=False)
    db = str(tmp_path / "t.db")
    assert runner.invoke(app, ["load", "--data", str(ROOT / "data"), "--db", db]).exit_code == 0
    har = str(ROOT / "data" / "recordings" / "demo.har")
    r = runner.invoke(app, ["check", "--replay", har, "--watch", "aa-kimi-k3", "--db", db,
                            "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (json.loads(r.output)["skipped"], json.loads(r.output)["changed"]) == (0, 1)
    watches = json.loads(runner.invoke(app, ["watches", "--db", db, "--json"]).output)
    rows = watches if isinstance(watches, list) else watches["watches"]
    assert {w["name"]: w["state"] for w in rows}["aa-kimi-k3"] == "ok"
