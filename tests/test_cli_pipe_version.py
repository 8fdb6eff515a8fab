"""The CLI as a shell runs it: `tracker --version`, and output piped into a reader that
stops early (`| head -1`), which must end quietly (Python docs, "Note on SIGPIPE")."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
TRACKER = Path(sys.executable).parent / "tracker"  # the venv's console script
runner = CliRunner()


def test_version_prints_the_installed_version_and_exits_0():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"release-tracker {version('release-tracker')}\n"


def test_help_lists_the_version_option():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert "--version" in result.output
    assert "Print the release-tracker version and exit." in result.output


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("pipe")
    result = subprocess.run(
        [str(TRACKER), "demo", "--db", str(tmp / "t.db"), "--out", str(tmp / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return tmp / "t.db"


def _sh(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not TRACKER.is_file(), reason="the tracker console script is not installed")
def test_status_piped_into_head_prints_no_broken_pipe_error(demo_db):
    for _ in range(5):  # head may or may not exit before the rest is written: try a few
        run = _sh(f"'{TRACKER}' status kimi-k3.1-pro --db '{demo_db}' | head -1")
        assert run.stderr == ""
        assert run.stdout == "Kimi K3.1 Pro (kimi-k3.1-pro)\n"


@pytest.mark.skipif(not TRACKER.is_file(), reason="the tracker console script is not installed")
@pytest.mark.parametrize(
    "args", ["status kimi-k3.1-pro", "discrepancies", "watches", "--help", "--version"]
)
def test_a_reader_that_closed_early_gets_no_error_and_exit_status_1(demo_db, args):
    # The reader closes its end at once (before tracker has started), so every write
    # meets a closed pipe; tracker's own exit status goes to stderr after its output.
    # Lines printed through rich ended quietly before; those through typer.echo
    # (discrepancies, --version, status's promise lines) printed "error: Broken pipe".
    db = "" if args.startswith("--") else f" --db '{demo_db}'"
    run = _sh(f"('{TRACKER}' {args}{db}; echo \"exit $?\" >&2) | (exec 0<&-; sleep 1)")
    assert run.stderr == "exit 1\n"
