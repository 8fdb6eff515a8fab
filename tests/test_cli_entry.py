"""The ``tracker`` console script (``tracker/cli/entry.py``): a plain ``tracker build``
runs without typer and gives what the whole CLI gives (line, files, errors, status);
everything else goes to the whole CLI."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sitefixture import populate

from tracker.cli.entry import plain_build

ENTRY = "import sys; sys.argv[0] = 'tracker'; from tracker.cli.entry import main; main()"
WHOLE = "import sys; sys.argv[0] = 'tracker'; from tracker.cli.main import main; main()"


def _run(entry: str, args: list[str]) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-X", "importtime", "-c", entry, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _imported(stderr: str) -> set[str]:
    lines = (line.split("|") for line in stderr.splitlines() if line.startswith("import time:"))
    return {parts[2].strip() for parts in lines if len(parts) == 3}


def _said(stderr: str) -> list[str]:
    """stderr without ``-X importtime``'s lines."""
    return [line for line in stderr.splitlines() if not line.startswith("import time:")]


@pytest.mark.parametrize(
    ("args", "options"),
    [
        (["build"], {}),
        (["build", "--db", "x.db", "--out", "o"], {"db": "x.db", "out": "o"}),
        (["build", "--db=a=b", "--cache-dir=c"], {"db": "a=b", "cache_dir": "c"}),
        (["build", "--base-url", "https://x/"], {"base_url": "https://x/"}),
    ],
)
def test_plain_build_arguments_are_taken(args, options):
    assert plain_build(args) == options


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["status", "x"],
        ["--version"],
        ["build", "--help"],
        ["build", "--json"],
        ["build", "--out"],  # no value: typer says so
        ["build", "--out", "a", "--out", "b"],  # repeated
        ["build", "--out", "-x"],  # a value that reads as an option
        ["build", "--out="],
        ["build", "--outt", "a"],
        ["build", "site"],
        ["build", "--", "--out", "a"],
    ],
)
def test_anything_else_goes_to_the_whole_cli(args):
    assert plain_build(args) is None


def test_a_plain_build_loads_no_typer_and_gives_the_whole_clis_line_and_files(engine, tmp_path):
    populate(engine)
    db = str(engine.url.database)
    fast = _run(ENTRY, ["build", "--db", db, "--out", str(tmp_path / "a")])
    whole = _run(WHOLE, ["build", "--db", db, "--out", str(tmp_path / "b")])
    assert fast.returncode == whole.returncode == 0, fast.stderr
    assert fast.stdout == whole.stdout.replace(str(tmp_path / "b"), str(tmp_path / "a"))
    assert fast.stdout.startswith(f"site built in {tmp_path / 'a'}: ")
    loaded = _imported(fast.stderr)
    assert "tracker.website.build" in loaded
    assert [
        m for m in ("typer", "rich", "tracker.cli.main", "tracker.cli.common") if m in loaded
    ] == []
    assert "typer" in _imported(whole.stderr)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*"))
    assert files_a == files_b
    assert (tmp_path / "a" / "index.html").read_bytes() == (
        tmp_path / "b" / "index.html"
    ).read_bytes()
    assert (tmp_path / "a.cache").is_dir()


@pytest.mark.parametrize(
    "case",
    [
        "missing database",
        "cache inside the site",
        "output folder not made",
        "help",
        "unknown option",
    ],
)
def test_failures_and_other_arguments_read_as_the_whole_clis(engine, tmp_path, case):
    populate(engine)
    db, out = str(engine.url.database), str(tmp_path / "site")
    args = {
        "missing database": ["build", "--db", str(tmp_path / "absent.db"), "--out", out],
        "cache inside the site": ["build", "--db", db, "--out", out, "--cache-dir", f"{out}/c"],
        "output folder not made": ["build", "--db", db, "--out", "/proc/no/such/site"],
        "help": ["build", "--help"],
        "unknown option": ["build", "--db", db, "--outt", out],
    }[case]
    fast, whole = _run(ENTRY, args), _run(WHOLE, args)
    assert (fast.returncode, fast.stdout, _said(fast.stderr)) == (
        whole.returncode,
        whole.stdout,
        _said(whole.stderr),
    )
    if case not in ("help", "unknown option"):
        assert fast.returncode == 1 and _said(fast.stderr)[-1].startswith("error: ")
