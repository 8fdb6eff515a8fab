"""tracker.snapshots: content-addressed, idempotent, atomic store."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from tracker.snapshots import SnapshotStore


def test_put_files_by_sha_and_get_returns_the_bytes(tmp_path):
    store = SnapshotStore(tmp_path / "snaps")
    body = b'[{"id":"moonshotai/Kimi-K2-Thinking"}]'
    sha = store.put(body)
    assert sha == hashlib.sha256(body).hexdigest()
    assert (tmp_path / "snaps" / sha[:2] / sha).read_bytes() == body
    assert store.get(sha) == body
    assert store.put(body) == sha  # idempotent
    assert sha in store
    assert [p.name for p in (tmp_path / "snaps" / sha[:2]).iterdir()] == [sha]  # no temp left


def test_missing_and_malformed_digests(tmp_path):
    store = SnapshotStore(tmp_path)
    with pytest.raises(KeyError, match="0" * 64):
        store.get("0" * 64)
    with pytest.raises(ValueError, match="not a sha256"):
        store.get("../etc/passwd")


def test_put_recreates_a_shard_folder_removed_while_running(tmp_path):
    store = SnapshotStore(tmp_path)
    sha = store.put(b"first")
    shutil.rmtree(tmp_path / sha[:2])
    assert store.put(b"first") == sha  # the cached folder is gone: made again
    assert store.get(sha) == b"first"


def test_put_with_a_known_digest_stores_under_it(tmp_path):
    store = SnapshotStore(tmp_path)
    body = b"<html>page</html>"
    sha = hashlib.sha256(body).hexdigest()
    assert store.put(body, sha) == sha
    assert store.get(sha) == body


def test_a_temp_file_left_by_a_crash_does_not_block_the_write(tmp_path):
    """A killed process can leave its temp file; a later one with the same pid and
    thread id falls back to a fresh temp name instead of failing or overwriting it."""
    import os
    import threading

    store = SnapshotStore(tmp_path)
    body = b"a page fetched again after a crash"
    sha = hashlib.sha256(body).hexdigest()
    (tmp_path / sha[:2]).mkdir()
    left = tmp_path / sha[:2] / f".tmp-{sha[:16]}-{os.getpid()}-{threading.get_ident()}"
    left.write_bytes(b"half a bo")
    assert store.put(body, sha) == sha
    assert store.get(sha) == body
    assert left.read_bytes() == b"half a bo"
    assert sorted(p.name for p in left.parent.iterdir()) == sorted([sha, left.name])
    with pytest.raises(ValueError, match="not a sha256"):
        store.put(body, "../../x")
