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


def _legacy_file(root, rows):
    """A body file as releases before the schema version made it: the table, no number."""
    root.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(root / FILE_NAME) as conn:
        conn.execute("CREATE TABLE body (sha256 TEXT PRIMARY KEY, data BLOB NOT NULL)")
        conn.executemany("INSERT INTO body VALUES (?, ?)", rows)
    conn.close()


def test_a_file_of_an_earlier_release_is_upgraded_and_keeps_its_bodies(tmp_path):
    from tracker.snapshots.store import SCHEMA_VERSION

    body = b"<html>fetched last year</html>"
    sha = hashlib.sha256(body).hexdigest()
    _legacy_file(tmp_path, [(sha, body)])
    store = SnapshotStore(tmp_path)
    assert store.get(sha) == body
    new = store.put(b"<html>today</html>")
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert sorted(conn.execute("SELECT sha256 FROM body")) == sorted([(sha,), (new,)])
    conn.close()
    assert SCHEMA_VERSION == 1


def test_a_new_file_records_its_schema_version(tmp_path):
    store = SnapshotStore(tmp_path)
    store.check()
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (1,)
    conn.close()


def test_a_file_newer_than_the_code_is_refused_naming_it_and_left_as_it_was(tmp_path):
    from tracker.errors import BodyStoreError

    body = b"<html>kept</html>"
    sha = hashlib.sha256(body).hexdigest()
    _legacy_file(tmp_path, [(sha, body)])
    with sqlite3.connect(tmp_path / FILE_NAME) as conn:
        conn.execute("PRAGMA user_version = 7")
    conn.close()
    before = (tmp_path / FILE_NAME).read_bytes()
    store = SnapshotStore(tmp_path)
    for call in (store.check, lambda: store.get(sha), lambda: store.put(b"x")):
        with pytest.raises(BodyStoreError) as info:
            call()
        assert str(tmp_path / FILE_NAME) in str(info.value)
        assert "schema version 7, newer than this release-tracker knows (1)" in str(info.value)
    store.close()
    assert (tmp_path / FILE_NAME).read_bytes() == before
    with sqlite3.connect(tmp_path / FILE_NAME) as conn:
        assert conn.execute("SELECT data FROM body").fetchall() == [(body,)]
    conn.close()


def test_a_file_that_is_not_a_database_is_refused_naming_it_and_left_as_it_was(tmp_path):
    from tracker.errors import BodyStoreError

    garbage = b"this was never an SQLite file\n" * 200
    (tmp_path / FILE_NAME).write_bytes(garbage)
    store = SnapshotStore(tmp_path)
    calls = (
        store.check,
        lambda: store.get("a" * 64),
        lambda: store.put(b"x"),
        lambda: store.find("abcd"),
    )
    for call in calls:
        with pytest.raises(BodyStoreError, match="file is not a database") as info:
            call()
        assert str(tmp_path / FILE_NAME) in str(info.value)
    store.close()
    assert (tmp_path / FILE_NAME).read_bytes() == garbage


def test_a_cycle_with_an_unreadable_body_file_stops_before_fetching(tmp_path):
    import httpx
    from cycle_setup import add_page_watch

    from claims.store.engine import make_engine
    from tracker.cycle.run import run_check
    from tracker.errors import BodyStoreError
    from tracker.net.fetch import make_client

    engine = make_engine(tmp_path / "t.db")
    add_page_watch(engine, "page")
    (tmp_path / "snaps").mkdir()
    (tmp_path / "snaps" / FILE_NAME).write_bytes(b"not a database" * 100)
    sent: list[str] = []

    def answer(request):
        sent.append(str(request.url))
        return httpx.Response(200, text="<p>x</p>")

    client = make_client(transport=httpx.MockTransport(answer))
    with pytest.raises(BodyStoreError, match="snaps/bodies.sqlite3"):
        run_check(engine, client, snapshot_store=SnapshotStore(tmp_path / "snaps"))
    assert sent == []
