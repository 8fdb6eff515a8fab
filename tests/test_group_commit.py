"""Group commit (claims.store.rawdb.RawDB.grouped, tracker.cycle.run): watches are committed
together, each still all or nothing; progress hears only of committed watches; the
write lock is never held while the cycle waits for the network."""

from __future__ import annotations

import sqlite3
import threading

import httpx
import pytest
from cycle_setup import add_named_subject, add_watch
from sqlmodel import Session

from claims.store.rawdb import RawDB
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.snapshots.store import SnapshotStore

WATCH = {"name": "w", "adapter": "a", "url": "u", "params_json": "{}",
         "interval_minutes": 60, "state": "new", "consecutive_failures": 0}  # fmt: skip


def _count(path, table: str = "watch") -> int:
    """Rows another connection sees (only committed ones)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def test_grouped_transactions_commit_together_and_fail_alone(engine, tmp_path):
    path = tmp_path / "test.db"
    raw = RawDB.open(path)
    with raw.grouped():
        with raw.transaction():
            raw.insert("watch", {**WATCH, "name": "a"})
        with pytest.raises(RuntimeError), raw.transaction():
            raw.insert("watch", {**WATCH, "name": "b"})
            raise RuntimeError("boom")
        assert _count(path) == 0  # not committed yet
        raw.commit_group()
        assert _count(path) == 1
        with raw.transaction():
            raw.insert("watch", {**WATCH, "name": "c"})
    names = [r[0] for r in raw.execute("SELECT name FROM watch ORDER BY name")]
    assert names == ["a", "c"] and _count(path) == 2
    raw.close()


def test_an_error_leaving_the_group_keeps_the_finished_transactions(engine, tmp_path):
    path = tmp_path / "test.db"
    raw = RawDB.open(path)
    with pytest.raises(KeyError), raw.grouped():
        with raw.transaction():
            raw.insert("watch", {**WATCH, "name": "a"})
        with raw.transaction():
            raw.insert("watch", {**WATCH, "name": "b"})
            raise KeyError("stop")
    assert _count(path) == 1
    # Outside a group, transaction() commits at once again.
    with raw.transaction():
        raw.insert("watch", {**WATCH, "name": "c"})
    assert _count(path) == 2
    raw.close()


def _page(request: httpx.Request) -> httpx.Response:
    n = request.url.path.rsplit("/", 1)[1]
    body = f"<table class=s><tr><td>Model {n}</td><td>{n}00</td></tr></table>"
    return httpx.Response(200, html=body, headers={"ETag": f'"{n}"'})


def _add_page_watches(engine, n: int) -> None:
    """``n`` watches of one-row pages, each naming its own subject ``Model <i>``."""
    with Session(engine) as s:
        for i in range(n):
            add_named_subject(s, f"model-{i}", f"Model {i}")
        s.commit()
    for i in range(n):
        add_watch(engine, f"p{i:02d}", "html_page", f"https://example.org/m/{i}",
                  selector="table.s tr", columns={"1": "output_tokens_per_second"})  # fmt: skip


def test_progress_hears_of_a_watch_only_once_it_is_committed(engine, tmp_path):
    _add_page_watches(engine, 5)
    path = tmp_path / "test.db"
    committed_when_told = []

    def progress(result):
        conn = sqlite3.connect(path)
        row = conn.execute("SELECT last_run FROM watch WHERE name = ?", (result.name,))
        committed_when_told.append((result.name, row.fetchone()[0] is not None))
        conn.close()

    with make_client(transport=httpx.MockTransport(_page)) as client:
        summary = run_check(str(path), client, snapshot_store=SnapshotStore(tmp_path / "s"),
                            progress=progress, concurrency=2)  # fmt: skip
    assert summary.checked == 5
    assert committed_when_told == [(f"p{i:02d}", True) for i in range(5)]


def test_the_write_lock_is_free_while_the_cycle_waits_for_a_fetch(engine, tmp_path):
    """Watch p01's request takes the database's write lock from another connection
    before answering. The recording thread has recorded p00 by then and waits for p01:
    had it kept p00's group open, the lock would never come (busy timeout: 5 s)."""
    _add_page_watches(engine, 3)
    path = tmp_path / "test.db"
    got_lock = threading.Event()

    def handler(request):
        if request.url.path.endswith("/1"):
            conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                got_lock.set()
                conn.execute("ROLLBACK")
            finally:
                conn.close()
        return _page(request)

    with make_client(transport=httpx.MockTransport(handler)) as client:
        summary = run_check(str(path), client, snapshot_store=SnapshotStore(tmp_path / "s"),
                            concurrency=1)  # fmt: skip
    assert got_lock.is_set()
    assert [(r.name, r.outcome) for r in summary.results] == [
        ("p00", "changed"), ("p01", "changed"), ("p02", "changed")]  # fmt: skip
    assert _count(path, "observation") == 3
