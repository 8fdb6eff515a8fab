"""`tracker track` / `tracker untrack` (tracker/curated/edit.py): the data files edited with
their comments intact, validated before anything is written, loaded; and the scripted
fresh-clone trial of issue 16 (track, check --replay, status --json, git diff data/)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.curated.loader import load_data
from claims.store.engine import make_engine
from claims.store.tables import Watch
from tracker.cli.main import app
from tracker.net.har import har_entry

ROOT = Path(__file__).resolve().parents[1]
TRACKER = str(Path(sys.executable).with_name("tracker"))
HUB = "https://huggingface.co"
RECORDED = "2026-12-01T06:00:00Z"
runner = CliRunner()


def data_copy(where: Path) -> Path:
    """The repository's data files as a fresh clone has them (no database)."""
    data = where / "data"
    shutil.copytree(ROOT / "data" / "claims", data / "claims")
    for name in ("subjects.toml", "watches.toml"):
        shutil.copy(ROOT / "data" / name, data / name)
    return data


def acme_recording(path: Path) -> Path:
    """The demo's recording plus acme's org listing, Orca-9B's model info (gated,
    Apache-2.0) and its files, as `tracker record` would save them."""
    import datetime as dt

    at = dt.datetime.fromisoformat(RECORDED)
    json_type = [("Content-Type", "application/json")]
    info = {"id": "acme/Orca-9B", "gated": "manual", "createdAt": "2026-11-30T20:00:00.000Z",
            "cardData": {"license": "apache-2.0"}, "tags": ["license:apache-2.0"]}  # fmt: skip
    listing = [{"id": "acme/Orca-9B", "createdAt": info["createdAt"]}]
    org_url = f"{HUB}/api/models?author=acme&sort=createdAt&direction=-1&limit=100"
    entries = [
        har_entry("GET", org_url, 200, json_type, json.dumps(listing).encode(), at),
        har_entry("GET", f"{HUB}/api/models/acme/Orca-9B", 200, json_type,
                  json.dumps(info).encode(), at),
    ]  # fmt: skip
    for name in ("config.json", "model.safetensors.index.json", "LICENSE"):
        url = f"{HUB}/acme/Orca-9B/resolve/main/{name}"
        gated = [("X-Error-Code", "GatedRepo"), *json_type]
        entries.append(har_entry("GET", url, 403, gated, b'{"error": "gated"}', at))
    har = json.loads((ROOT / "data" / "recordings" / "demo.har").read_text(encoding="utf-8"))
    har["log"]["entries"].extend(entries)
    path.write_text(json.dumps(har), encoding="utf-8")
    return path


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TRACKER, *args], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_fresh_clone_trial_track_check_status_and_git_diff(tmp_path):
    clone = tmp_path / "clone"
    data = data_copy(clone)
    originals = {
        n: (data / n).read_text(encoding="utf-8") for n in ("subjects.toml", "watches.toml")
    }
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "clone"]):
        subprocess.run([*git, *cmd], cwd=clone, check=True)
    tracked = run(clone, "track", "Acme Orca 9B", "--org", "acme", "--repo", "acme/Orca-9B")
    assert tracked.returncode == 0, tracked.stderr
    assert tracked.stdout.splitlines()[:4] == [
        "tracking acme-orca-9b:",
        '  added subject acme-orca-9b (Acme Orca 9B), aliases: "Acme Orca 9B", "Orca 9B"',
        "  added watch hf-org-acme (huggingface_org)",
        "  added watch hf-model-acme-orca-9b (huggingface_model)",
    ]
    checked = run(clone, "check", "--replay", str(acme_recording(tmp_path / "acme.har")))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    status = run(clone, "status", "acme-orca-9b", "--json")
    assert status.returncode == 0, status.stderr
    got = json.loads(status.stdout)
    assert {
        k: got[k]
        for k in (
            "weights",
            "repo",
            "landed_at",
            "landed_at_meaning",
            "license",
            "license_spdx",
            "gated",
            "gated_read_at",
        )
    } == {  # fmt: skip
        "weights": "landed",
        "repo": "acme/Orca-9B",
        "landed_at": RECORDED,
        "landed_at_meaning": "first seen at the first check (landed earlier)",
        "license": "apache-2.0",
        "license_spdx": "Apache-2.0",
        "gated": "manual",
        "gated_read_at": RECORDED,
    }
    diff = subprocess.run(
        ["git", "diff", "--", "data/"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in "+++---"]
    assert all(line.startswith("+") for line in changed)  # only additions: comments intact
    assert '+slug = "acme-orca-9b"' in changed and '+name = "hf-model-acme-orca-9b"' in changed
    for name, before in originals.items():
        assert (data / name).read_text(encoding="utf-8").startswith(before)


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path):
    data = data_copy(tmp_path)
    before = (data / "watches.toml").read_text(encoding="utf-8")
    r = runner.invoke(app, ["track", "Qwen4-Max", "--org", "Qwen", "--openrouter",
                            "qwen/qwen4-max", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert f"+++ b/{data}/subjects.toml" in r.output
    assert '+slug = "qwen4-max"' in r.output and '+openrouter = ["qwen/qwen4-max"]' in r.output
    assert '+name = "hf-org-qwen"' in r.output
    assert "openrouter-models" not in r.output  # that watch exists: not added twice
    assert r.output.endswith("dry run: nothing written or loaded\n")
    assert (data / "watches.toml").read_text(encoding="utf-8") == before
    assert not (tmp_path / "data" / "tracker.db").exists()


def test_the_next_hint_repeats_the_database_given(tmp_path, monkeypatch):
    """After `track --data mydata --db "my 1.db"` the next commands need that database
    (check and status read it, not the data folder)."""
    monkeypatch.chdir(tmp_path)
    Path("mydata").mkdir()
    r = runner.invoke(app, ["track", "Orca 9B", "--org", "Acme", "--data", "mydata",
                            "--db", "my 1.db"], env={"COLUMNS": "300"})  # fmt: skip
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1] == (
        "written to mydata/subjects.toml, mydata/watches.toml and loaded into my 1.db; next: "
        "`tracker check --db 'my 1.db'`, then `tracker status orca-9b --db 'my 1.db'`"
    )


def test_own_data_without_db_says_it_loaded_the_default_database(tmp_path, monkeypatch):
    """`track --data mydata` without --db loads the default database: the output says so
    and how to keep the folder's models apart (a trial's joined the demo's silently)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    Path("mydata").mkdir()
    r = runner.invoke(app, ["track", "Orca 9B", "--org", "Acme", "--data", "mydata"],
                      env={"COLUMNS": "300"})  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (
        "and loaded into data/tracker.db (the default database: pass --db "
        "mydata/tracker.db to keep this folder's models apart from the demo's)"
    ) in r.stdout


def test_an_invalid_result_names_file_and_line_and_writes_nothing(tmp_path):
    data = data_copy(tmp_path)
    before = {p.name: p.read_text(encoding="utf-8") for p in data.glob("*.toml")}
    r = runner.invoke(app, ["track", "Kimi K3 Mini", "--org", "moonshotai", "--alias", "K3",
                            "--subscribe", "json://localhost/", "--data", str(data),
                            "--db", str(tmp_path / "t.db")])  # fmt: skip
    assert r.exit_code == 1
    line = len(before["subjects.toml"].splitlines()) + 7  # the new entry's aliases line
    lines = before["subjects.toml"].splitlines()
    k3 = lines.index('slug = "kimi-k3"')  # 0-based: the [[subject]] line above it, 1-based
    assert r.output == (
        f"error: {data}/subjects.toml:{line}: subject[3].aliases: 'K3' also names subject "
        f"'kimi-k3' (line {k3}); an alias names one subject\n"
    )
    assert {p.name: p.read_text(encoding="utf-8") for p in data.glob("*.toml")} == before
    assert not list(data.glob(".*tmp"))


def test_untrack_retires_its_watches_and_keeps_the_rest(tmp_path):
    data = data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    r = runner.invoke(app, ["track", "Acme Orca 9B", "--org", "acme", "--repo", "acme/Orca-9B",
                            "--data", str(data), "--db", db])  # fmt: skip
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["untrack", "acme-orca-9", "--data", str(data), "--db", db])
    assert r.output == (
        f"error: unknown subject 'acme-orca-9' in {data}/subjects.toml (did you mean "
        "'acme-orca-9b'?)\n"
    )
    r = runner.invoke(app, ["untrack", "acme-orca-9b", "--data", str(data), "--db", db])
    assert r.exit_code == 0, r.output
    assert (data / "watches.toml").read_text(encoding="utf-8") == (
        ROOT / "data" / "watches.toml"
    ).read_text(encoding="utf-8")  # byte-identical: the blank line before them goes too
    with Session(make_engine(db)) as s:
        states = {w.name: w.state for w in s.exec(select(Watch)).all()}
    kept = {w.name: "new" for w in load_data(ROOT / "data").watches}
    assert states == {"hf-model-acme-orca-9b": "retired", "hf-org-acme": "retired", **kept}
    assert {"hf-model-kimi-k2-thinking", "hf-org-moonshotai", "openrouter-models"} <= set(kept)


def test_the_readme_track_your_own_model_example_runs(tmp_path):
    """README's steps, in a fresh clone's copy of data/: the copy into a folder of your
    own, then track, check and status there (`tracker check` replays a recording here:
    the test has no network); data/ is left as it was, so `make test` still runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Track your own model\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    lines = [ln.split("#")[0].split() for b in blocks for ln in b.strip().splitlines()]
    assert [ln[:2] for ln in lines] == [
        ["mkdir", "my-models"], [".venv/bin/tracker", "track"], [".venv/bin/tracker", "check"],
        [".venv/bin/tracker", "status"], [".venv/bin/tracker", "claims"],
        [".venv/bin/tracker", "claims"], [".venv/bin/tracker", "claims"],
        [".venv/bin/tracker", "verify"],
    ]  # fmt: skip
    # the sample article the README's step 3 reads, where a fresh clone has it
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "qwen4-max-article.txt", tmp_path / "examples")
    data = data_copy(tmp_path)
    before = {p.name: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    copied = subprocess.run(" ".join(lines[0]), shell=True, cwd=tmp_path, check=False)
    assert copied.returncode == 0
    har = acme_recording(tmp_path / "r.har")
    for words in lines[1:]:
        args = [w.strip("'\"") for w in re.findall(r"'[^']*'|\"[^\"]*\"|\S+", " ".join(words[1:]))]
        if args[0] == "check":
            args += ["--replay", str(har)]
        args, _, into = (" ".join(args)).partition(" > ")
        r = run(tmp_path, *args.split())
        assert r.returncode in (0, 3), r.stdout + r.stderr  # 3: its org is not recorded
        if into:
            (tmp_path / into).write_text(r.stdout, encoding="utf-8")
        if args.startswith("status"):
            assert "licence:" in r.stdout
    found = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert [(c["subject"], c["attribute"]) for c in found] == [
        ("qwen4-max", "release_date"),
        ("qwen4-max", "total_params"),
        ("qwen4-max", "active_params"),
        ("qwen4-max", "context_window"),
        ("qwen4-max", "price_input_usd_per_mtok"),
        ("qwen4-max", "price_output_usd_per_mtok"),
        ("qwen4-max", "weights_release_date"),
    ]
    assert found[1]["value"]["value"] == 480000000000
    assert r.stdout.startswith("verified 47 claims (")  # the 40 copied with the demo, and 7
    # the board settled the Terminal-Bench disagreement before it could open: not "resolved"
    assert "0 resolved, 1 already settled, " in r.stdout
    assert "qwen4-max" in (tmp_path / "my-models" / "subjects.toml").read_text(encoding="utf-8")
    assert (tmp_path / "my-models" / "tracker.db").is_file()
    assert {p.name: p.read_bytes() for p in data.rglob("*") if p.is_file()} == before


def failing_recording(path: Path) -> Path:
    """Acme's org listing and Orca-9B's model info answered 503, as a Hub outage would."""
    import datetime as dt

    at = dt.datetime.fromisoformat(RECORDED)
    org_url = f"{HUB}/api/models?author=acme&sort=createdAt&direction=-1&limit=100"
    entries = [
        har_entry("GET", url, 503, [("Content-Type", "text/plain")], b"busy", at)
        for url in (org_url, f"{HUB}/api/models/acme/Orca-9B")
    ]
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), "utf-8")
    return path


def test_failed_check_untrack_and_track_again(tmp_path):
    """A model no Hub check succeeded on: its weights are unknown (never "not landed"),
    the failed check is named; untrack leaves watches.toml as it was before track and
    says the subject is not watched; tracking it again re-activates its watches."""
    data = data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    before = (data / "watches.toml").read_bytes()
    args = ["Acme Orca 9B", "--org", "acme", "--repo", "acme/Orca-9B", "--data", str(data)]
    assert runner.invoke(app, ["track", *args, "--db", db]).exit_code == 0
    status = ["status", "acme-orca-9b", "--db", db]
    fresh = runner.invoke(app, status).output.splitlines()
    assert fresh[1:3] == [
        "  weights: unknown (no successful Hub check yet)",
        "  no Hub check has run yet: run `tracker check`",
    ]
    har = str(failing_recording(tmp_path / "down.har"))
    checked = runner.invoke(app, ["check", "--replay", har, "--watch", "hf-org-acme", "--db", db])
    assert checked.exit_code == 1, checked.output
    failed = runner.invoke(app, status).output.splitlines()
    assert failed[1] == "  weights: unknown (no successful Hub check yet)"
    assert re.fullmatch(
        r"  last Hub check failed at \d{4}-\d\d-\d\d \d\d:\d\d UTC: bad_status: .*503.*", failed[2]
    ), failed[2]
    got = json.loads(runner.invoke(app, [*status, "--json"]).output)
    assert (got["weights"], got["landed"], got["watched"]) == ("unknown", None, True)
    assert got["last_failure"]["kind"] == "bad_status"
    untracked = runner.invoke(app, ["untrack", "acme-orca-9b", "--data", str(data), "--db", db])
    assert untracked.exit_code == 0, untracked.output
    assert (data / "watches.toml").read_bytes() == before  # byte-identical to before track
    gone = runner.invoke(app, status).output.splitlines()
    assert gone[2] == "  not watched (untracked: its watches are retired)"
    got = json.loads(runner.invoke(app, [*status, "--json"]).output)
    assert (got["weights"], got["landed"], got["watched"]) == ("unknown", None, False)
    dry = runner.invoke(app, ["track", *args, "--db", db, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert dry.output.splitlines()[-3:] == [
        "would add watch hf-model-acme-orca-9b (huggingface_model, was retired: re-activated)",
        "would add watch hf-org-acme (huggingface_org, was retired: re-activated)",
        "dry run: nothing written or loaded",
    ]
    assert (data / "watches.toml").read_bytes() == before
    again = runner.invoke(app, ["track", *args, "--db", db])
    assert again.exit_code == 0, again.output
    assert "  added watch hf-org-acme (huggingface_org, was retired: re-activated)" in (
        again.output.splitlines()
    )
    with Session(make_engine(db)) as s:
        states = {w.name: w.state for w in s.exec(select(Watch)) if "acme" in w.name}
    assert states == {"hf-org-acme": "new", "hf-model-acme-orca-9b": "new"}
    # re-activated from a clean slate: its failure from before untrack is no longer current
    assert runner.invoke(app, status).output.splitlines()[2] == (
        "  no Hub check has run yet: run `tracker check`"
    )


def test_the_aliases_drop_the_makers_name_and_its_suffix_word(tmp_path):
    """'Nimbus Labs Cirrus 12B' by org nimbus is also 'Cirrus 12B' (not 'Labs Cirrus
    12B'): the name articles use, so extraction recognizes the model."""
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", "Nimbus Labs Cirrus 12B", "--org", "nimbus", "--repo",
                            "nimbus/Cirrus-12B", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert '+aliases = ["Nimbus Labs Cirrus 12B", "Cirrus 12B"]' in r.output
    r = runner.invoke(app, ["track", "Orca Nine", "--org", "acme", "--repo", "acme/Orca-9B",
                            "--data", str(data), "--dry-run"])  # fmt: skip
    assert '+aliases = ["Orca Nine", "Orca 9B"]' in r.output  # the repo's name, spaced


def test_subscriptions_track_wrote_to_its_data_folder_reach_alerts_send(tmp_path, monkeypatch):
    """`track --data my-models --subscribe URL` wrote my-models/subscriptions.toml, but
    `alerts send --db my-models/tracker.db` said "no subscriptions" (fresh-user trial):
    `alerts send --data my-models`, as the next hint says, delivers to that URL."""
    from webhook import Hook

    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    monkeypatch.chdir(tmp_path)
    Path("my-models").mkdir()
    db = "my-models/tracker.db"
    with Hook(lambda body: 204) as hook:
        url = f"json://127.0.0.1:{hook.port}/hook"
        r = runner.invoke(app, ["track", "Orca 9B", "--org", "acme", "--repo", "acme/Orca-9B", "--data", "my-models",
                                "--db", db, "--subscribe", url], env={"COLUMNS": "300"})  # fmt: skip
        assert r.exit_code == 0, r.output
        assert r.stdout.splitlines()[-1].endswith(
            f"then `tracker alerts send --data my-models --db {db}`"
        )
        har = str(acme_recording(tmp_path / "acme.har"))
        checked = runner.invoke(app, ["check", "--replay", har, "--db", db])  # fmt: skip
        assert checked.exit_code == 0, checked.output
        sent = runner.invoke(app, ["alerts", "send", "--data", "my-models", "--db", db])
        assert sent.exit_code == 0, sent.output
        tested = runner.invoke(app, ["alerts", "test", "--data", "my-models", "--json"])
    assert tested.exit_code == 0, tested.output
    assert json.loads(tested.stdout)["results"][0]["delivered"] is True
    bodies = [p["message"] for p in hook.posts]
    assert len(bodies) == 2 and "Orca-9B" in bodies[0]
