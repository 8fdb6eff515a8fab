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
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    track = ["track", "Cirrus 12B", "--org", "Nimbus Labs", "--repo", "nimbuslabs/Cirrus-12B"]
    assert runner.invoke(app, [*track, "--data", str(data), "--db", db]).exit_code == 0
    command = re.search(r"tracker (check --replay my\.har .*)\n", section).group(1).split()
    command[command.index("my.har")] = str(tmp_path / "my.har")
    r = runner.invoke(app, [*command, "--db", db])
    assert r.exit_code == 0, r.output
    # never-run watches are "new", not "unchanged"
    assert "checked 2 watches: 0 changed, 0 unchanged, 2 new, 0 failed" in r.output
    status = runner.invoke(app, ["status", "cirrus-12b", "--db", db]).output
    assert "  weights: not landed (as of 2026-11-30 18:00 UTC)" in status.splitlines()
    assert "failed" not in status
    watches = json.loads(runner.invoke(app, ["watches", "--db", db, "--json"]).output)
    rows = watches if isinstance(watches, list) else watches["watches"]
    states = {w["name"]: w["state"] for w in rows if "nimbuslabs" in w["name"]}
    assert states == {"hf-org-nimbuslabs": "ok", "hf-model-nimbuslabs-cirrus-12b": "not_public"}
    # the documented landing step: listing, model info and the files the model watch reads
    (tmp_path / "my2.har").write_text(
        re.findall(r"```json\n(.*?)```", section, re.S)[1], encoding="utf-8"
    )
    command = re.search(r"tracker (check --replay my2\.har .*)\n", section).group(1).split()
    command[command.index("my2.har")] = str(tmp_path / "my2.har")
    r = runner.invoke(app, [*command, "--db", db])
    assert r.exit_code == 0, r.output
    d = json.loads(runner.invoke(app, ["status", "cirrus-12b", "--db", db, "--json"]).output)
    assert (d["weights"], d["license"], d["gated"]) == ("landed", "apache-2.0", False)
    assert (d["landed_after"], d["landed_at"]) == ("2026-11-30T18:00:00Z", "2026-12-01T06:00:00Z")
    said = re.search(r"tracker status cirrus-12b +# (weights: landed .*)\n", section).group(1)
    assert f"  {said}" in runner.invoke(app, ["status", "cirrus-12b", "--db", db]).output


def test_a_recording_without_the_repo_files_keeps_the_model_info(tmp_path):
    """A replay with the listing and model info only (no entries for the files): the
    licence from cardData is recorded, each missing file is a warning, exit 0."""
    from tracker.net.har import har_entry, write_har

    data, db = tmp_path / "data", str(tmp_path / "t.db")
    data.mkdir()
    track = ["track", "Cirrus 12B", "--org", "Nimbus Labs", "--repo", "nimbuslabs/Cirrus-12B"]
    assert runner.invoke(app, [*track, "--data", str(data), "--db", db]).exit_code == 0
    hub = "https://huggingface.co/api/models"
    info = {"id": "nimbuslabs/Cirrus-12B", "gated": False, "cardData": {"license": "apache-2.0"}}
    json_h = [("Content-Type", "application/json")]
    when = __import__("datetime").datetime(2026, 12, 1, 6, tzinfo=__import__("datetime").UTC)
    har = write_har(tmp_path / "my.har", [
        har_entry("GET", f"{hub}?author=nimbuslabs&sort=createdAt&direction=-1&limit=100", 200,
                  json_h, json.dumps([info]).encode(), when),
        har_entry("GET", f"{hub}/nimbuslabs/Cirrus-12B", 200, json_h, json.dumps(info).encode(),
                  when),
    ])  # fmt: skip
    r = runner.invoke(app, ["check", "--replay", str(har), "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["failing"] == 0
    warned = [w for res in out["results"] for w in res.get("warnings", [])]
    assert (
        "nimbuslabs/Cirrus-12B: config.json not in the recording (not_recorded); its values "
        "not read" in warned
    )
    d = json.loads(runner.invoke(app, ["status", "cirrus-12b", "--db", db, "--json"]).output)
    assert (d["weights"], d["license"]) == ("landed", "apache-2.0")


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
