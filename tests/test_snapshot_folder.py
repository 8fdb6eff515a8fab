"""Where snapshot bodies go when --snapshots is not given: beside the SQLite database
file (tracker.snapshots.store.default_root), whatever folder a command runs from; a
lookup that finds nothing is an error naming the folder it looked in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app
from tracker.snapshots.store import FILE_NAME, SnapshotStore, default_root

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
runner = CliRunner()


@pytest.mark.parametrize(
    ("db", "root"),
    [
        (None, Path("data/snapshots")),  # the default data/tracker.db: nothing moves
        ("data/tracker.db", Path("data/snapshots")),
        ("my.db", Path("snapshots")),
        ("/srv/tracker/my.db", Path("/srv/tracker/snapshots")),
        ("sqlite:///rel/dir/a.db", Path("rel/dir/snapshots")),
        ("sqlite:////abs/a.db?timeout=5", Path("/abs/snapshots")),
        ("sqlite://", Path("data/snapshots")),  # in memory: no file to sit beside
    ],
)
def test_the_default_folder_is_beside_the_database_file(db, root, monkeypatch):
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    assert default_root(db) == root


def test_the_environment_database_places_the_folder_too(monkeypatch):
    monkeypatch.setenv("TRACKER_DATABASE_URL", "/var/lib/rt/t.db")
    assert default_root(None) == Path("/var/lib/rt/snapshots")


@pytest.fixture
def checked(tmp_path, monkeypatch):
    """A database in tmp/other/ loaded with the demo's data and one watch replayed,
    run from the repository root (as the trial ran from its own folder)."""
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    monkeypatch.chdir(ROOT)  # `load` reads data/
    db = tmp_path / "other" / "my.db"
    db.parent.mkdir()
    assert runner.invoke(app, ["load", "--db", str(db)]).exit_code == 0
    args = ["check", "--replay", str(DEMO_HAR), "-w", "hf-model-kimi-k2-thinking"]
    assert runner.invoke(app, [*args, "--db", str(db)]).exit_code == 0
    with sqlite3.connect(db) as conn:
        (sha,) = conn.execute("SELECT sha256 FROM snapshot").fetchone()
    return db, sha


def test_check_stores_bodies_beside_its_database_and_snapshot_finds_them(
    checked, tmp_path, monkeypatch
):
    db, sha = checked
    with SnapshotStore(tmp_path / "other" / "snapshots") as store:
        body = store.get(sha)  # not in the repository's data/snapshots
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    res = runner.invoke(app, ["snapshot", sha[:10], "--db", str(db)])
    assert res.exit_code == 0 and res.stdout_bytes == body
    assert not (elsewhere / "data").exists()  # reading creates nothing here


def test_a_lookup_that_finds_nothing_names_the_folder(checked, tmp_path, monkeypatch):
    db, _sha = checked
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["snapshot", "0000", "--db", str(db)])
    assert res.exit_code == 1
    folder = (tmp_path / "other" / "snapshots").resolve()
    assert res.stderr.strip() == f"error: no snapshot starting with 0000 in {folder}"


def test_a_body_an_earlier_version_filed_under_the_current_folder_is_pointed_at(
    tmp_path, monkeypatch
):
    """Earlier versions put every database's bodies in ./data/snapshots: the miss says
    so when that folder holds the digest."""
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    with SnapshotStore(tmp_path / "data" / "snapshots") as old:
        sha = old.put(b"<html>old layout</html>")
    (tmp_path / "mine").mkdir()
    res = runner.invoke(app, ["snapshot", sha[:8], "--db", "mine/my.db"])
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        f"error: no snapshot starting with {sha[:8]} in {tmp_path / 'mine' / 'snapshots'}; "
        f"{tmp_path / 'data' / 'snapshots'} holds it (earlier versions stored every "
        "database's bodies there): pass --snapshots data/snapshots"
    )
    assert not (tmp_path / "mine" / "snapshots" / FILE_NAME).exists()
    res = runner.invoke(
        app, ["snapshot", sha[:8], "--db", "mine/my.db", "--snapshots", "data/snapshots"]
    )
    assert res.exit_code == 0 and res.stdout == "<html>old layout</html>"


def test_a_body_filed_under_the_database_folder_by_an_earlier_version_is_pointed_at(
    tmp_path, monkeypatch
):
    """The trial ran `check --db my.db` in the database's folder: its bodies went to
    that folder's data/snapshots. Looked up from anywhere, the miss names that place."""
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    with SnapshotStore(tmp_path / "trial" / "data" / "snapshots") as old:
        sha = old.put(b"<html>run in the database's folder</html>")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    db = tmp_path / "trial" / "my.db"
    res = runner.invoke(app, ["snapshot", sha[:8], "--db", str(db)])
    assert res.exit_code == 1
    legacy = tmp_path / "trial" / "data" / "snapshots"
    assert res.stderr.strip() == (
        f"error: no snapshot starting with {sha[:8]} in {tmp_path / 'trial' / 'snapshots'}; "
        f"{legacy} holds it (earlier versions stored every database's bodies there): "
        f"pass --snapshots {legacy}"
    )
