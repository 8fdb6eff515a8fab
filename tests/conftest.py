"""Shared test helpers: paths to ../shared (skipped when absent), a fresh database, a
throwaway PostgreSQL server."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
# The committed demo data many tests read (their expected values are its figures).
DEMO_DATA = ("data/subjects.toml", "data/watches.toml", "data/claims", "data/recordings")


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, saying why, when the checkout's demo data has local edits (e.g. a
    model added with `tracker track`): dozens of tests would fail on figures they did
    not expect. No git, or not a git checkout: nothing to compare, run. A usage error
    prints its message once (``pytest.exit`` in ``pytest_sessionstart`` printed it
    twice) and exits 4."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        return
    done = subprocess.run(
        [git, "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", *DEMO_DATA],
        capture_output=True,
    )
    if done.returncode == 1:
        raise pytest.UsageError(
            "the tests read the committed demo data, and data/ has local edits "
            f"(`git -C {ROOT} diff --stat -- data/`); copy them elsewhere, then "
            "`git checkout -- data/` (or keep your own models in another folder with --data)"
        )


@pytest.fixture
def shared_dir() -> Path:
    """../shared, or skip the test cleanly when it is not beside the checkout."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
def engine(tmp_path):
    from claims.store.engine import make_engine

    return make_engine(tmp_path / "test.db")


@pytest.fixture(scope="module")
def pg_server():
    """A throwaway PostgreSQL server (initdb + pg_ctl, Unix socket only) for the tests of one
    module; yields its SQLAlchemy URL. Skips when psycopg or the binaries are missing."""
    pytest.importorskip("psycopg")
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not (initdb and pg_ctl):
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not found")
    base = Path(tempfile.mkdtemp(prefix="tracker-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser")
        shutil.chown(base, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = base / "data"
    try:
        subprocess.run(
            [*as_user, initdb, "-D", str(data), "-U", "tracker", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                *as_user,
                pg_ctl,
                "-D",
                str(data),
                "-l",
                str(base / "log"),
                "-w",
                "start",
                "-o",
                f"-k {base} -c listen_addresses=''",
            ],  # fmt: skip
            check=True,
            capture_output=True,
        )
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"could not start PostgreSQL: {exc.stderr.decode(errors='replace')[-300:]}")
    try:
        yield f"postgresql+psycopg://tracker@/postgres?host={base}"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "fast", "stop"], check=False)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`tracker demo` run once for the session: a folder with its database ``t.db`` and
    site ``s/``. Read-only for the tests that share it (a test that changes the database
    builds its own)."""
    from typer.testing import CliRunner

    from tracker.cli.main import app

    tmp = tmp_path_factory.mktemp("demo-build")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(Path(__file__).resolve().parent.parent)  # the demo reads data/ from here
        result = CliRunner().invoke(
            app, ["demo", "--db", str(tmp / "t.db"), "--out", str(tmp / "s")]
        )
    assert result.exit_code == 0, result.output
    return tmp
