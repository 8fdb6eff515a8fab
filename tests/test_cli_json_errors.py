"""With --json every command reports a user error as one JSON document on stdout:
{"error": {"kind", "message", "did_you_mean": [...]}} (tracker/cli/failures.py), beside
the one `error:` line on stderr and the exit status of the text mode (1; 2 for usage)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.failures import ERROR_KINDS
from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _bad_data(tmp: Path) -> Path:
    """A copy of data/ whose watches.toml has a misspelt param."""
    data = tmp / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    text = (data / "watches.toml").read_text(encoding="utf-8")
    (data / "watches.toml").write_text(text.replace("interval_minutes", "interval_minute", 1))
    return data


# (command line with {db}, {missing}, {data}, {tmp}; kind; did_you_mean; exit status)
CASES = {
    "status": (["status", "kimi-k4", "--db", "{db}"], "unknown_name", ["kimi-k3"], 1),
    "status (usage)": (["status", "--json"], "usage", [], 2),
    "unknown command": (["statu", "kimi-k3"], "usage", ["status"], 2),
    "other name": (["site", "--out", "x"], "usage", ["build"], 2),
    "load": (["load", "--data", "{data}", "--db", "{tmp}/n.db"], "data_file", [], 1),
    "demo": (["demo", "--db", "{tmp}/n.db", "--out", "{tmp}/s"], "data_file", [], 1),
    "build": (["build", "--db", "{missing}", "--out", "{tmp}/s"], "database", [], 1),
    "track": (["track", "!!!", "--org", "X", "--data", "{data}", "--dry-run"], "error", [], 1),
    "untrack": (
        ["untrack", "kimi-k3-pro", "--data", "{good}", "--db", "{db}"],
        "unknown_name",
        ["kimi-k3.1-pro"],
        1,
    ),
    "check": (["check", "--db", "{missing}"], "database", [], 1),
    "record": (["record", "--out", "{tmp}/r.har", "--db", "{missing}"], "database", [], 1),
    "parse": (["parse", "html_page", "--har", "{tmp}/none.har"], "config", [], 1),
    "watches": (["watches", "--db", "{missing}"], "database", [], 1),
    "verify": (["verify", "--db", "{db}", "--now", "yesterday"], "usage", [], 2),
    "discrepancies": (
        ["discrepancies", "--db", "{db}", "--subject", "kimi-k3.1-po"],
        "unknown_name",
        ["kimi-k3.1-pro"],
        1,
    ),  # fmt: skip
    "discrepancies (usage)": (["discrepancies", "--state", "opn"], "usage", ["open"], 2),
    "review": (["review", "99", "--dismiss", "x", "--db", "{db}"], "review", [], 1),
    "db upgrade": (["db", "upgrade", "--db", "{missing}"], "database", [], 1),
    "alerts send": (
        ["alerts", "send", "--db", "{db}", "--config", "{tmp}/none.toml"],
        "config",
        [],
        1,
    ),  # fmt: skip
    "alerts test": (["alerts", "test", "--config", "{tmp}/none.toml"], "config", [], 1),
    "claims extract": (["claims", "extract", "{tmp}/none.txt"], "config", [], 1),
    "claims import": (["claims", "import", "{tmp}/none.json", "--source", "s"], "config", [], 1),
    "claims list": (
        ["claims", "list", "kimi-k3.1-po", "--db", "{db}"],
        "unknown_name",
        ["kimi-k3.1-pro"],
        1,
    ),  # fmt: skip
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_user_error_with_json_is_one_json_document(case, demo_build, tmp_path, monkeypatch):
    line, kind, did_you_mean, status = CASES[case]
    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    data = _bad_data(tmp_path)
    if case == "demo":
        monkeypatch.chdir(tmp_path)  # the demo reads ./data
    places = {"db": str(demo_build / "t.db"), "missing": str(tmp_path / "none.db"),
              "data": str(data), "good": str(ROOT / "data"), "tmp": str(tmp_path)}  # fmt: skip
    args = [part.format(**places) for part in line]
    result = runner.invoke(app, args if "--json" in args else [*args, "--json"])
    assert result.exit_code == status, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == ["error"]
    error = doc["error"]
    assert error["kind"] == kind, error
    assert error["kind"] in ERROR_KINDS
    assert error["did_you_mean"] == did_you_mean
    assert result.stderr == f"error: {error['message']}\n" or (
        kind == "data_file" and result.stderr.startswith(f"error: {error['message']}\n")
    )
    if kind == "data_file":
        assert error["problems"][0]["field"] == "watch[0].interval_minute"


def _json_commands(group, path=()):  # type: ignore[no-untyped-def]
    import typer.main

    click_group = typer.main.get_command(group) if not hasattr(group, "commands") else group
    for name, command in click_group.commands.items():
        if hasattr(command, "commands"):
            yield from _json_commands(command, (*path, name))
        elif any("--json" in getattr(p, "opts", ()) for p in command.params):
            yield " ".join((*path, name))


def test_every_command_with_json_is_tested():
    tested = {c.split(" (")[0] for c in CASES}
    assert set(_json_commands(app)) <= tested


def test_without_json_the_error_is_text_only(demo_build):
    result = runner.invoke(app, ["status", "kimi-k4", "--db", str(demo_build / "t.db")])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("error: unknown subject 'kimi-k4' (did you mean 'kimi-k3'?)")


def test_the_readme_names_every_error_kind_and_its_example_holds(demo_build):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [k for k in ERROR_KINDS if f"`{k}`" not in readme] == []
    result = runner.invoke(app, ["status", "kimi-k3.2", "--json", "--db", str(demo_build / "t.db")])
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["did_you_mean"]) == ("unknown_name", ["kimi-k3"])
    assert error["message"].startswith("unknown subject 'kimi-k3.2' (did you mean 'kimi-k3'?)")
    assert '"did_you_mean": ["kimi-k3"]' in readme
