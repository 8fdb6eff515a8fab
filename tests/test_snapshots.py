"""tracker.snapshots.store: content-addressed, idempotent store in one SQLite file."""

from __future__ import annotations

import hashlib
import sqlite3
import threading

import pytest

from tracker.snapshots.store import FILE_NAME, SnapshotStore


def test_put_stores_by_sha_and_get_returns_the_bytes(tmp_path):
    store = SnapshotStore(tmp_path / "snaps")
    body = b'[{"id":"moonshotai/Kimi-K2-Thinking"}]'
    sha = store.put(body)
    assert sha == hashlib.sha256(body).hexdigest()
    assert store.get(sha) == body
    assert store.put(body) == sha  # idempotent
    assert sha in store
    store.close()
    with sqlite3.connect(tmp_path / "snaps" / FILE_NAME) as conn:
        assert conn.execute("SELECT sha256, data FROM body").fetchall() == [(sha, body)]


def test_a_put_is_committed_at_once_for_another_process_to_read(tmp_path):
    """Each body is its own transaction: a reader on another connection (another
    process, or the next run after a kill) sees it without any close or flush."""
    store = SnapshotStore(tmp_path)
    sha = store.put(b"<html>v1</html>")
    with sqlite3.connect(tmp_path / FILE_NAME) as other:
        assert other.execute("SELECT data FROM body WHERE sha256 = ?", (sha,)).fetchone() == (
            b"<html>v1</html>",
        )
    assert SnapshotStore(tmp_path).get(sha) == b"<html>v1</html>"


def test_missing_and_malformed_digests(tmp_path):
    store = SnapshotStore(tmp_path / "none")
    with pytest.raises(KeyError, match="0" * 64):
        store.get("0" * 64)
    assert "0" * 64 not in store
    assert not (tmp_path / "none").exists()  # reading creates no store
    with pytest.raises(ValueError, match="not a sha256"):
        store.get("../etc/passwd")
    with pytest.raises(ValueError, match="not a sha256"):
        store.put(b"x", "../../x")


def test_put_with_a_known_digest_stores_under_it(tmp_path):
    store = SnapshotStore(tmp_path)
    body = b"<html>page</html>"
    sha = hashlib.sha256(body).hexdigest()
    assert store.put(body, sha) == sha
    assert store.get(sha) == body


def test_bodies_filed_by_an_earlier_version_are_still_read(tmp_path):
    """Before the SQLite file, each body was a file ``<root>/<sha[:2]>/<sha>``."""
    body = b"<html>stored as a file</html>"
    sha = hashlib.sha256(body).hexdigest()
    (tmp_path / sha[:2]).mkdir()
    (tmp_path / sha[:2] / sha).write_bytes(body)
    store = SnapshotStore(tmp_path)
    assert store.get(sha) == body
    assert sha in store
    assert store.put(b"new") == hashlib.sha256(b"new").hexdigest()
    assert store.get(sha) == body  # still read once the SQLite file exists


def test_worker_threads_share_one_store(tmp_path):
    store = SnapshotStore(tmp_path)
    bodies = [f"<p>{i}</p>".encode() * 50 for i in range(200)]

    def put(chunk: list[bytes]) -> None:
        for b in chunk:
            store.put(b)

    threads = [threading.Thread(target=put, args=(bodies[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(store.get(hashlib.sha256(b).hexdigest()) == b for b in bodies)
    with sqlite3.connect(tmp_path / FILE_NAME) as conn:
        assert conn.execute("SELECT count(*) FROM body").fetchone() == (200,)


def test_find_by_the_start_of_a_digest_in_both_layouts(tmp_path):
    store = SnapshotStore(tmp_path)
    a = store.put(b"<html>a</html>")
    old = hashlib.sha256(b"old file").hexdigest()
    (tmp_path / old[:2]).mkdir()
    (tmp_path / old[:2] / old).write_bytes(b"old file")
    assert store.find(a[:8]) == [a]
    assert store.find(old[:6]) == [old]
    assert store.find("ffff" if not a.startswith("ffff") else "0000") == []
    with pytest.raises(ValueError, match="4 to 64 hex digits"):
        store.find(a[:3])
