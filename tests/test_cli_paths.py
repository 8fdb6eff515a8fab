"""CLI errors about files name what the user gave (the data folder, the output folder,
the --db file), not a file the command would have written inside or beside it."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from claims.store.engine import make_engine
from tracker.cli.main import app

runner = CliRunner()


def test_track_into_a_data_folder_that_does_not_exist_says_so(tmp_path):
    missing = tmp_path / "nodir"
    res = runner.invoke(
        app,
        ["track", "Foo 7B", "--org", "Foo", "--data", str(missing), "--db", str(tmp_path / "t.db")],
    )
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        f"error: data folder {missing} does not exist; create it first (`mkdir -p {missing}`: "
        "`tracker track` starts subjects.toml and watches.toml there) or check --data"
    )
    assert not missing.exists() and not (tmp_path / "t.db").exists()


def test_track_with_a_file_as_data_folder_says_it_is_a_file(tmp_path):
    afile = tmp_path / "subjects.toml"
    afile.write_text("", encoding="utf-8")
    res = runner.invoke(
        app, ["track", "Foo", "--org", "Foo", "--data", str(afile), "--db", str(tmp_path / "t.db")]
    )
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        f"error: data folder {afile} is a file, not a folder: pass --data the folder that "
        "holds (or is to hold) subjects.toml and watches.toml"
    )


def test_build_into_a_folder_that_cannot_be_made_names_that_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "t.db"
    make_engine(str(db)).dispose()  # an empty database at this release's schema
    Path("blocker").write_text("a file where a folder should be", encoding="utf-8")
    res = runner.invoke(app, ["build", "--db", str(db), "--out", "blocker/site"])
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        "error: output folder (--out) blocker/site cannot be created: Not a directory"
    )
    assert not Path("blocker.cache").exists() and not Path("blocker/site.cache").exists()


def test_a_db_that_is_not_a_database_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mydata").mkdir()
    Path("mydata/subjects.toml").write_text('[[subject]]\nslug = "x"\n', encoding="utf-8")
    res = runner.invoke(app, ["status", "x", "--db", "mydata/subjects.toml"])
    assert res.exit_code == 1
    assert res.stderr.strip() == "error: database mydata/subjects.toml: file is not a database"
    res = runner.invoke(app, ["status", "x", "--db", "mydata/subjects.toml", "--json"])
    assert json.loads(res.stdout)["error"]["message"] == (
        "database mydata/subjects.toml: file is not a database"
    )
