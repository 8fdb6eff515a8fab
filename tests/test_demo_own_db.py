"""`tracker demo --db FILE` (what the demo's refusal suggests) builds its site beside
the user's: site-STEM/ beside the database, never over site/, from any folder, with no
-wal/-shm files left; a data folder not found says where it looked and which option sets it; and its summary says a subject's weights with
the words of `tracker status` (unknown when nothing checks, not "not landed")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app, demo_site_dir

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
UNWATCHED = """
[[subject]]
slug = "cirrus-12b"
name = "Cirrus 12B"
organization = "Nimbus Labs"
hub_org = "nimbuslabs"
aliases = ["Cirrus 12B"]
"""


def test_the_site_folder_follows_the_database():
    assert demo_site_dir(None) == Path("site")
    assert demo_site_dir("data/demo.db") == Path("data/site-demo")  # beside the database
    assert demo_site_dir("../demo2.db") == Path("../site-demo2")
    assert demo_site_dir("/tmp/x/my.db") == Path("/tmp/x/site-my")
    assert demo_site_dir("postgresql://u@h/db") == Path("site-demo-db")


def test_demo_on_its_own_database_keeps_the_users_site(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "data", tmp_path / "data",
                    ignore=shutil.ignore_patterns("*.db*", "snapshots"))  # fmt: skip
    with (tmp_path / "data" / "subjects.toml").open("a", encoding="utf-8") as fh:
        fh.write(UNWATCHED)
    mine = tmp_path / "site" / "index.html"
    mine.parent.mkdir()
    mine.write_text("built from my own database")
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["demo", "--db", "data/demo.db"])
    assert r.exit_code == 0, r.output
    assert mine.read_text() == "built from my own database"
    assert (tmp_path / "data" / "site-demo" / "index.html").is_file()
    assert (
        "data/site-demo/index.html  (preview: .venv/bin/tracker serve --dir data/site-demo)"
        in r.output
    )
    line = next(x for x in r.output.splitlines() if x.startswith("  Cirrus 12B:"))
    assert line == "  Cirrus 12B: weights unknown (nothing checks); licence unknown"
    status = runner.invoke(app, ["status", "cirrus-12b", "--db", "data/demo.db"]).output
    assert "  weights: unknown (nothing checks)" in status.splitlines()


def test_every_subject_the_summary_counts_has_a_status_line(tmp_path, monkeypatch):
    """A model tracked into the demo's database from another data folder (or data/
    restored with git after a `track`): the summary counted 3 subjects and printed 4
    status lines. It counts the subjects it gives a line, and says how many data/ has."""
    shutil.copytree(ROOT / "data", tmp_path / "data",
                    ignore=shutil.ignore_patterns("*.db*", "snapshots"))  # fmt: skip
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(tmp_path / "data" / "subjects.toml", mine / "subjects.toml")
    monkeypatch.chdir(tmp_path)
    tracked = runner.invoke(app, ["track", "Cirrus 12B", "--org", "Nimbus Labs", "--hf-org",
                                  "nimbuslabs", "--data", "mine", "--db", "data/demo.db"])  # fmt: skip
    assert tracked.exit_code == 0, tracked.output
    r = runner.invoke(app, ["demo", "--db", "data/demo.db"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("release-tracker demo: 4 subjects (3 in data/), 4 sources,")
    lines = [
        x.split(":")[0] for x in r.output.splitlines() if x.startswith("  ") and ": weights" in x
    ]
    assert lines == ["  Cirrus 12B", "  Kimi K2 Thinking", "  Kimi K3", "  Kimi K3.1 Pro"]
    plain = runner.invoke(app, ["demo", "--db", "data/plain.db"])
    assert plain.output.startswith("release-tracker demo: 3 subjects, 4 sources,")


def test_the_sites_and_caches_the_demo_builds_are_git_ignored(tmp_path):
    """`make demo` builds site/ and `tracker demo --db data/demo.db` data/site-demo/ (each with
    its build cache beside it): neither shows up as untracked in `git status`."""
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    folders = [demo_site_dir(None), demo_site_dir("data/demo.db"), demo_site_dir("my.db")]
    assert [str(f) for f in folders] == ["site", "data/site-demo", "site-my"]
    paths = [f"{f}{suffix}/index.html" for f in folders for suffix in ("", ".cache")]
    found = subprocess.run(
        ["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True
    )
    assert found.stdout.split() == paths


def test_demo_from_another_folder_builds_beside_its_database_and_leaves_no_wal(
    tmp_path, monkeypatch
):
    """A trial ran `tracker demo --db ../demo2.db` in a subfolder: the site went to
    site-demo2/ in the current folder (the help says beside the database), and
    demo2.db-wal / -shm stayed behind after it exited."""
    shutil.copytree(ROOT / "data", tmp_path / "rt" / "data",
                    ignore=shutil.ignore_patterns("*.db*", "snapshots"))  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    r = runner.invoke(app, ["demo", "--data", "../rt/data", "--db", "../demo2.db"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "site-demo2" / "index.html").is_file()
    assert list(work.iterdir()) == []
    assert sorted(p.name for p in tmp_path.glob("demo2.db*")) == ["demo2.db"]
    assert "(preview: .venv/bin/tracker serve --dir ../site-demo2)" in r.output


def test_demo_without_a_data_folder_says_where_it_looked_and_how_to_give_one(tmp_path, monkeypatch):
    """Run outside the checkout it printed `error: data: data: no such folder`."""
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["demo", "--db", "x.db"])
    assert (r.exit_code, r.output) == (
        1,
        f"error: data: no such data folder (looked for {tmp_path / 'data'}): run from the "
        "release-tracker checkout, whose data/ holds the demo's, or pass --data DIR (a "
        "folder with subjects.toml, watches.toml and claims/)\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_make_clean_removes_the_site_a_demo_on_a_database_url_builds():
    """`tracker demo --db postgresql+psycopg://...` builds site-demo-db/ in the current
    folder; `make clean` left it behind (fresh-user trial)."""
    root = Path(__file__).resolve().parents[1]
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    clean = makefile.split("\nclean:\n", 1)[1].split("\n\n", 1)[0]
    assert str(demo_site_dir("postgresql+psycopg://u@h/team")) in clean.split()
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "`site-demo-db/` in the current folder, which `make clean` removes" in readme
