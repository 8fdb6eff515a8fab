"""The test suite stops at once when the checkout's demo data has local edits (a model
added to data/ with `tracker track`), saying so ONCE (a fresh-user trial saw the
message twice) with exit status 4. Run on a throwaway git checkout holding this
suite's conftest.py and a copy of data/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_local_edits_in_data_stop_the_suite_with_one_message(tmp_path):
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "rt"
    (repo / "tests").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "conftest.py", repo / "tests" / "conftest.py")
    (repo / "tests" / "test_one.py").write_text("def test_one():\n    assert True\n")
    (repo / "data").mkdir()
    shutil.copy(ROOT / "data" / "subjects.toml", repo / "data" / "subjects.toml")
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "-A"], [*ident, "commit", "-qm", "x"]):
        subprocess.run([git, "-C", str(repo), *args], check=True, capture_output=True)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
            cwd=repo, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    assert run().returncode == 0
    with (repo / "data" / "subjects.toml").open("a") as f:
        f.write("# my model\n")
    done = run()
    both = done.stdout + done.stderr
    assert done.returncode == 4
    assert both.count("data/ has local edits") == 1, both
    assert both.strip() == (
        "ERROR: the tests read the committed demo data, and data/ has local edits "
        f"(`git -C {repo} diff --stat -- data/`); copy them elsewhere, then "
        "`git checkout -- data/` (or keep your own models in another folder with --data)"
    )
