"""The build manifest's check of the files the last build left (tracker/website/manifest.py):
a file is kept only when it is still there, a regular file of the size noted."""

from __future__ import annotations

import os

import pytest

from tracker.website.manifest import Entry, kept_files


@pytest.fixture(params=["dir_fd", "absolute paths"])
def stat_kind(request, monkeypatch):
    if request.param == "absolute paths":
        monkeypatch.setattr(os, "supports_dir_fd", set())
    return request.param


def test_kept_files(tmp_path, stat_kind):
    (tmp_path / "subjects" / "a").mkdir(parents=True)
    (tmp_path / "subjects" / "a" / "index.html").write_bytes(b"12345")
    (tmp_path / "short.html").write_bytes(b"123")
    (tmp_path / "folder.html").mkdir()
    size = (tmp_path / "folder.html").stat().st_size
    candidates = [
        ("subjects/a/index.html", Entry("k", 5)),  # there, same size
        ("short.html", Entry("k", 5)),  # truncated
        ("gone.html", Entry("k", 5)),  # deleted
        ("folder.html", Entry("k", size)),  # not a file
        ("subjects/a/index.html", Entry()),  # an old manifest without sizes
    ]
    assert kept_files(tmp_path, candidates) == {"subjects/a/index.html"}
    assert kept_files(tmp_path, candidates[1:]) == set()
