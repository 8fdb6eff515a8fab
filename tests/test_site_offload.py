"""Site writes handed to a helper process (Writer.offloaded): the same files, counts and
order as writing in-process, errors raised, and in-process writes when it cannot start."""

from __future__ import annotations

from pathlib import Path

import pytest
from sitefixture import NOW, populate
from test_site_incremental import set_claimant, tree

from tracker.website import build as build_module
from tracker.website import build_site
from tracker.website import writer as writer_module
from tracker.website.writer import SiteError, Writer

BASE = "https://dash.example.org/"


def build(engine, out: Path):  # type: ignore[no-untyped-def]
    return build_site(engine, out, now=NOW, base_url=BASE)


def test_offloaded_build_equals_in_process_build(engine, tmp_path, monkeypatch):
    populate(engine)
    here = build(engine, tmp_path / "here")
    monkeypatch.setattr(build_module, "OFFLOAD_AT", 1)
    there = build(engine, tmp_path / "there")
    assert tree(tmp_path / "there") == tree(tmp_path / "here")
    assert there == build_module.BuildReport(**{**vars(here), "out_dir": tmp_path / "there"})
    # A rebuild through the helper compares bytes too: one claim, its files only.
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
    assert again.written_paths == (*again.rendered_paths, ".site-manifest.json")
    assert again.pages_written + again.pages_unchanged == 105


def test_offloaded_writer_counts_in_call_order(tmp_path):
    (tmp_path / "same.html").write_bytes(b"same")
    w = Writer(tmp_path)
    with w.offloaded():
        assert w.write("a/new.html", "new", compare=False) is None
        w.keep("kept.html")
        w.write("same.html", b"same")
        w.write("b/c/deep.html", "deep")
    assert w.written == ["a/new.html", "b/c/deep.html"]
    assert w.unchanged == ["kept.html", "same.html"]
    assert (tmp_path / "b" / "c" / "deep.html").read_text() == "deep"
    assert sorted(p.name for p in tmp_path.rglob(".*.tmp")) == []


def test_helper_error_is_raised_and_stops_writing(tmp_path):
    (tmp_path / "a").write_text("a file where a folder should be")
    w = Writer(tmp_path)
    with pytest.raises(OSError), w.offloaded():
        w.write("first.html", "1")
        w.write("a/b.html", "x")
        w.write("later.html", "2")
    assert (tmp_path / "first.html").is_file()
    assert not (tmp_path / "later.html").exists()


def test_helper_that_does_not_start_leaves_the_writes_here(tmp_path, monkeypatch):
    monkeypatch.setattr(writer_module, "_HELPER_MAIN", "raise SystemExit(3)")
    w = Writer(tmp_path)
    with w.offloaded():
        w.write("x/one.html", "1")
        w.keep("two.html")
    assert (w.written, w.unchanged) == (["x/one.html"], ["two.html"])
    assert (tmp_path / "x" / "one.html").read_text() == "1"


def test_failed_build_stops_the_helper(tmp_path):
    w = Writer(tmp_path)
    with pytest.raises(RuntimeError, match="render failed"), w.offloaded():
        w.write("one.html", "1")
        raise RuntimeError("render failed")
    assert w.written == []  # nothing counted; the helper has exited


def test_helper_makes_the_folders_first(tmp_path):
    (tmp_path / "a").write_text("a file where a folder should be")
    w = Writer(tmp_path)
    with pytest.raises(OSError), w.offloaded(["x/y/one.html", "a/b.html", "top.html"]):
        w.write("x/y/one.html", "1")
        w.write("a/b.html", "x")
    assert (tmp_path / "x" / "y" / "one.html").read_text() == "1"


def test_writer_refuses_a_folder_linked_outside(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "outside"
    (out / "a").mkdir(parents=True)
    outside.mkdir()
    (out / "a" / "link").symlink_to(outside)
    (out / "inside").symlink_to(out / "a")
    w = Writer(out)
    for bad in ("a/link/x.html", "a/link/deeper/x.html"):
        with pytest.raises(SiteError, match="leaves the output folder"):
            w.write(bad, "x")
    assert w.write("inside/ok.html", "ok") is True
    assert (out / "a" / "ok.html").read_text() == "ok"
    (out / "a" / "file.html").symlink_to(outside / "file.html")  # a file linked outside
    with pytest.raises(SiteError, match="leaves the output folder"):
        w.write("a/file.html", "x")
    assert w.write("new/deep/x.html", "new") is True  # folders made by the build
    assert list(outside.iterdir()) == []


def test_files_larger_than_the_shared_buffer_go_through_several_buffers(tmp_path, monkeypatch):
    monkeypatch.setattr(writer_module, "BUFFER_BYTES", 10)
    monkeypatch.setattr(writer_module, "BATCH", 2)
    files = {f"d{i % 3}/f{i}.html": bytes([65 + i]) * (i * 3 + 1) for i in range(12)}
    w = Writer(tmp_path)
    with w.offloaded(list(files)):
        for rel, data in files.items():
            w.write(rel, data, compare=False)
    assert w.written == list(files)
    assert {rel: (tmp_path / rel).read_bytes() for rel in files} == files


def test_helper_that_does_not_start_writes_every_buffer_here(tmp_path, monkeypatch):
    monkeypatch.setattr(writer_module, "_HELPER_MAIN", "raise SystemExit(3)")
    monkeypatch.setattr(writer_module, "BUFFER_BYTES", 4)
    w = Writer(tmp_path)
    with w.offloaded():
        for i in range(5):
            w.write(f"f{i}.txt", f"file {i}")
    assert w.written == [f"f{i}.txt" for i in range(5)]
    assert [(tmp_path / f"f{i}.txt").read_text() for i in range(5)] == [
        f"file {i}" for i in range(5)
    ]


@pytest.mark.parametrize("how", ["refused", "absent"])
def test_store_from_copies_through_memory_without_sendfile(tmp_path, monkeypatch, how):
    import errno
    import os

    def refuse(*args: object) -> int:
        raise OSError(errno.ENOTSOCK, "sockets only")  # macOS's sendfile

    monkeypatch.setattr(writer_module, "_SENDFILE", refuse if how == "refused" else None)
    buffer = os.open(tmp_path / "buffer", os.O_RDWR | os.O_CREAT)
    try:
        os.write(buffer, b"skip" + b"page bytes" + b"tail")
        target = str(tmp_path / "out" / "page.html")
        assert writer_module.store_from(target, buffer, 4, 10, False, set()) is True
    finally:
        os.close(buffer)
    assert (tmp_path / "out" / "page.html").read_bytes() == b"page bytes"
