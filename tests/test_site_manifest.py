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


def test_manifest_text_is_the_json_encoders(tmp_path):
    """Hex keys and sizes are written without the encoder; anything else through it:
    one text either way, and read back as written."""
    import json

    from tracker.website.manifest import MANIFEST, manifest_text, read_manifest

    entries = {
        "index.html": Entry("ab12ef", 5),
        'odd "name".html': Entry(None, None),
        "é.html": Entry("é", 3),
        "flag": Entry("k", True),  # type: ignore[arg-type]
    }
    enc = json.JSONEncoder(ensure_ascii=False).encode
    body = ",\n".join(f"{enc(p)}: {enc([e.key, e.size])}" for p, e in sorted(entries.items()))
    text = manifest_text(entries)
    assert text == f'{{"format": 2, "files": {{\n{body}\n}}}}\n'
    (tmp_path / MANIFEST).write_text(text, encoding="utf-8")
    assert read_manifest(tmp_path)["index.html"] == Entry("ab12ef", 5)
