"""A share of a large build rendered in a forked process (forked.py): the same files and
report as the one-process build, its errors raised in the parent naming the file,
nothing recorded in the manifest after a failure, and the child stopped when the parent
fails."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from test_site_incremental import set_claimant, tree

from tracker.website import build as build_module
from tracker.website import build_site, forked
from tracker.website.manifest import MANIFEST
from tracker.website.pages import Job
from tracker.website.views import RecordMiss
from tracker.website.writer import SiteError

BASE = "https://dash.example.org/"
_real_can_fork = forked.can_fork

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork")


@pytest.fixture(autouse=True)
def fork_allowed(monkeypatch):
    """Builds here fork even when an earlier test of the session left a thread waiting
    (the suite's scheduler tests may): what they check is the forked path."""
    monkeypatch.setattr(forked, "can_fork", lambda: True)


def test_no_fork_while_another_thread_runs():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not _real_can_fork()
    finally:
        stop.set()
        other.join()


def build(engine, out: Path):  # type: ignore[no-untyped-def]
    return build_site(engine, out, now=NOW, base_url=BASE)


def test_forked_build_equals_one_process_build(engine, tmp_path, monkeypatch):
    populate(engine)
    monkeypatch.setattr(forked, "FORK_AT", 10**9)
    here = build(engine, tmp_path / "here")
    monkeypatch.setattr(forked, "FORK_AT", 1)
    build_module.clear_build_caches()
    there = build(engine, tmp_path / "there")
    assert tree(tmp_path / "there") == tree(tmp_path / "here")
    assert there == build_module.BuildReport(**{**vars(here), "out_dir": tmp_path / "there"})
    assert "subjects/kimi-k3.1-pro/index.html" in there.written_paths  # the child's share
    # An in-process rebuild after a forked build: only the changed claim's files, the
    # child's pages compared with what it wrote.
    set_claimant(engine, "US$ 0,45", "Moonshot AI (pricing page)")
    again = build(engine, tmp_path / "there")
    assert again.rendered_paths == (
        "api/claims.csv",
        "api/claims.json",
        "api/subjects/kimi-k3.1-pro.json",
        "assets/search-index.js",
        "discrepancies.html",
        "subjects/kimi-k3.1-pro/index.html",
    )
    assert again.written_paths == (*again.rendered_paths, MANIFEST)
    scratch = build(engine, tmp_path / "scratch")
    assert tree(tmp_path / "there") == tree(tmp_path / "scratch")
    assert scratch.pages_written == len(tree(tmp_path / "scratch"))


def test_failing_child_raises_site_error_naming_the_file(engine, tmp_path, monkeypatch):
    populate(engine)
    out = tmp_path / "site"
    first = build(engine, out)
    manifest = (out / MANIFEST).read_bytes()

    def broken() -> str:
        raise ValueError("no such figure")

    def feeds_and_a_broken_one(*args):  # type: ignore[no-untyped-def]
        return [*real_feed_jobs(*args), Job("feeds/broken.atom", "k", broken)]

    real_feed_jobs = build_module.feed_jobs
    monkeypatch.setattr(build_module, "feed_jobs", feeds_and_a_broken_one)
    monkeypatch.setattr(forked, "FORK_AT", 1)
    set_claimant(engine, "US$ 0,45", "Moonshot AI (pricing page)")  # something to render
    # either process may take the broken file: the same error names it
    with pytest.raises(SiteError, match=r"making feeds/broken\.atom failed.*ValueError: no such"):
        build(engine, out)
    assert (out / MANIFEST).read_bytes() == manifest  # nothing recorded
    assert not (out / "feeds" / "broken.atom").exists()
    assert first.pages_written == len(tree(out))
    assert sorted(p.name for p in out.rglob(".*.tmp")) == []


def test_child_outcomes_in_order(tmp_path):
    tasks = [("a/one.html", lambda: "one", False), ("two.html", lambda: b"two!", False)]
    with forked.forked_share(tasks, tmp_path) as child:
        assert child.outcomes() == [("a/one.html", True, 3), ("two.html", True, 4)]
    assert (tmp_path / "a" / "one.html").read_text() == "one"
    # Same bytes again, compared with the file there: unchanged.
    with forked.forked_share([("two.html", lambda: b"two!", True)], tmp_path) as child:
        assert child.outcomes() == [("two.html", False, 4)]


def test_error_in_child_names_the_file(tmp_path):
    def broken() -> str:
        raise KeyError("benchmark")

    tasks = [("ok.html", lambda: "ok", False), ("bad/page.html", broken, False)]
    with forked.forked_share(tasks, tmp_path) as child:
        with pytest.raises(SiteError) as caught:
            child.outcomes()
    assert str(caught.value) == (
        "site build: making bad/page.html failed (in the build's second process): "
        "KeyError: 'benchmark'"
    )
    assert (tmp_path / "ok.html").read_text() == "ok"


def test_record_miss_in_child_is_raised_as_itself(tmp_path):
    def withheld() -> str:
        raise RecordMiss("peer-a: claim views withheld", frozenset({"peer-a"}))

    with forked.forked_share([("p.html", withheld, False)], tmp_path) as child:
        with pytest.raises(RecordMiss) as caught:
            child.outcomes()
    assert caught.value.subjects == frozenset({"peer-a"})


def test_child_is_stopped_and_reaped_when_the_parent_fails(tmp_path):
    tasks = [(f"p{i}.html", lambda: "x" * 1000, False) for i in range(200)]
    with pytest.raises(RuntimeError, match="parent failed"):
        with forked.forked_share(tasks, tmp_path) as child:
            raise RuntimeError("parent failed")
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # already reaped
    assert sorted(p.name for p in tmp_path.rglob(".*.tmp")) == []


def test_unsafe_path_in_child_share_is_refused(tmp_path):
    with forked.forked_share([("../out.html", lambda: "x", False)], tmp_path / "site") as child:
        with pytest.raises(SiteError, match=r"\.\./out\.html.*unsafe output path"):
            child.outcomes()
    assert not (tmp_path / "out.html").exists()


def test_pool_gives_each_task_to_one_process(tmp_path):
    tasks = [(f"d{i % 7}/p{i}.html", (lambda i=i: f"page {i}"), False) for i in range(600)]
    mine = []
    with forked.forked_share(tasks, tmp_path) as child:
        while chunk := child.take():
            mine += [path for path, _, _ in chunk]
        theirs = [path for path, changed, size in child.outcomes()]
    assert sorted(mine + theirs) == sorted(path for path, _, _ in tasks)
    assert len(set(mine + theirs)) == 600
    assert len(forked._chunks(600)) <= forked.MAX_CHUNKS
    # the parent wrote none of these: only the child's are on disk
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.html")) == sorted(
        theirs
    )
