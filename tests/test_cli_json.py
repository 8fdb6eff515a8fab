"""Every ``--json`` output of the CLI on the demo database is JSON built from JSON types:
no Python repr leaks into it ("set()", "Decimal(", "datetime.", "<... object at ...>")."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
import typer.main
from typer.testing import CliRunner

from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
REPR = re.compile(r"set\(\)|frozenset\(|Decimal\(|datetime\.|\{'|<[\w.]+ object at ")

# Command lines ({db}, {tmp} filled in), one or more per command that takes --json.
RUNS = {
    "status": ["status", "kimi-k3", "--db", "{db}"],
    "check": ["check", "--replay", str(DEMO_HAR), "--db", "{db}", "--snapshots", "{tmp}/snap"],
    "verify": ["verify", "--db", "{db}"],
    "discrepancies": ["discrepancies", "--db", "{db}"],
    "review": ["review", "2", "--dismiss", "checked", "--db", "{db}"],  # the demo's open one
    "watches": ["watches", "--db", "{db}"],
    "claims list": ["claims", "list", "--db", "{db}"],
    "claims extract": ["claims", "extract", "{tmp}/a.txt", "--db", "{db}", "--lang", "en"],
    "build": ["build", "--db", "{db}", "--out", "{tmp}/site"],
    "db upgrade": ["db", "upgrade", "--db", "{db}"],
    "load": ["load", "--db", "{db}"],
    "track": ["track", "Orion 5", "--org", "VegaSystems", "--dry-run"],
}
# Left out: each needs the network or another program's files (record, parse, demo's
# own run is `tracker demo`, alerts send posts to channels, untrack edits data files,
# claims import reads an export).
NOT_RUN = {"record", "parse", "demo", "alerts send", "alerts test", "untrack", "claims import"}


def json_commands() -> set[str]:
    """Every command of the CLI that has a --json option, by its words."""
    root = typer.main.get_command(app)
    ctx = click.Context(root)
    out: set[str] = set()

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group) or hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), [*path, name])  # type: ignore[attr-defined]
        elif any("--json" in getattr(p, "opts", ()) for p in cmd.params):
            out.add(" ".join(path))

    walk(root, [])
    return out


def test_every_json_command_is_run_or_named_as_left_out():
    assert json_commands() == set(RUNS) | NOT_RUN


@pytest.mark.parametrize("name", sorted(RUNS))
def test_json_output_has_no_python_reprs(name, demo_build, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the commands read data/ from here
    db = tmp_path / "t.db"
    for f in demo_build.glob("t.db*"):  # with its write-ahead log, if any
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "a.txt").write_text(
        "Moonshot AI said Kimi K3 has a 256K-token context window and costs $0.60 per "
        "million input tokens.\n",
        encoding="utf-8",
    )
    args = [a.format(db=db, tmp=tmp_path) for a in RUNS[name]] + ["--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = result.stdout
    json.loads(text)
    assert REPR.findall(text) == [], name


def test_build_text_and_json_count_the_same_files(demo_build, tmp_path, monkeypatch):
    """`build` said "98 files" and `build --json` then pages_unchanged 99 (the manifest):
    both now come from one count that leaves the manifest out."""
    monkeypatch.chdir(ROOT)
    for f in demo_build.glob("t.db*"):
        shutil.copy(f, tmp_path / f.name)
    args = ["build", "--db", str(tmp_path / "t.db"), "--out", str(tmp_path / "site")]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    files = int(re.search(r": (\d+) files,", first.stdout).group(1))  # type: ignore[union-attr]
    assert f"; {files} written (new or changed), 0 left as they were" in first.stdout
    again = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert (again["files"], again["pages_unchanged"], again["pages_written"]) == (files, files, 0)
    on_disk = [p for p in (tmp_path / "site").rglob("*") if p.is_file()]
    assert len(on_disk) == files + 1  # and the build manifest
