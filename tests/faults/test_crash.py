"""Crash safety (issue 7): SIGKILL a check cycle at several points, re-run it, and
lose no observation, duplicate no event, and keep SQLite's integrity check ``ok``.

Kill points: the page server kills the child right after answering its K-th request
(while it reads, parses or stores that page), or the child kills itself right after its
N-th stored body (the body committed, the observations citing it not yet) or right after
its N-th write statement (inside an open write transaction, before the commit). The
result is compared with the same history run in-process without kills.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cycle_setup import add_named_subject
from sqlalchemy import text
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Event, Observation, Watch
from claims.values.canonical import dumps
from tracker.cycle.run import run_check
from tracker.net.fetch import FetchSettings, make_client
from tracker.snapshots.store import SnapshotStore

CHILD = Path(__file__).with_name("crash_child.py")
N_WATCHES = 24
PARAMS = {
    "selector": "table.specs tr",
    "columns": {"1": "total_params", "2": "license", "3": "price_input_usd_per_mtok"},
}


def page(i: int, version: int) -> bytes:
    params = (i + 1) * 10 + version
    lic = ("mit", "apache-2.0")[version % 2]
    price = f"{i + 1}.{version}0"
    return (
        f"<html><body><table class='specs'><tr><th>Model</th><th>P</th><th>L</th><th>$</th></tr>"
        f"<tr><td>Crash Model {i}</td><td>{params},000,000,000</td><td>{lic}</td>"
        f"<td>${price}</td></tr></table></body></html>"
    ).encode()


class Pages:
    """Versions of the pages, the request count and an optional kill order."""

    def __init__(self) -> None:
        self.versions = [0] * N_WATCHES
        self.lock = threading.Lock()
        self.count = 0
        self.victim: int | None = None
        self.kill_at = 0
        self.killed = threading.Event()

    def arm(self, pid: int, kill_at: int) -> None:
        with self.lock:
            self.count, self.victim, self.kill_at = 0, pid, kill_at
            self.killed.clear()


def make_handler(pages: Pages) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            i = int(self.path.rsplit("/", 1)[1])
            body = page(i, pages.versions[i])
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            with pages.lock:
                pages.count += 1
                fire = pages.victim is not None and pages.count == pages.kill_at
                victim = pages.victim
            if fire:
                os.kill(victim, signal.SIGKILL)
                pages.killed.set()

    return Handler


@pytest.fixture
def server():
    pages = Pages()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(pages))
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield pages, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    t.join(timeout=5)


def seed(db: Path, base: str) -> None:
    engine = make_engine(db)
    with Session(engine) as s:
        for i in range(N_WATCHES):
            add_named_subject(s, f"crash-model-{i}", f"Crash Model {i}")
            s.add(
                Watch(
                    name=f"card-{i:02d}",
                    adapter="html_page",
                    url=f"{base}/m/{i}",
                    params_json=dumps(PARAMS),
                )
            )
        s.commit()
    engine.dispose()


def run_child(
    db: Path,
    snaps: Path,
    pages: Pages,
    kill_at: int | None = None,
    at_body: int | None = None,
    at_write: int | None = None,
) -> int:
    """Run one cycle in a child; SIGKILL it after request ``kill_at``, after stored body
    ``at_body`` or after write statement ``at_write``."""
    env = {**os.environ, "NO_PROXY": "127.0.0.1"}
    if at_write is not None:
        env["CRASH_AT_WRITE"] = str(at_write)
    if at_body is not None:
        env["CRASH_AFTER_BODY"] = str(at_body)
    p = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(snaps)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    if kill_at is not None:
        pages.arm(p.pid, kill_at)
    out, err = p.communicate(timeout=60)
    pages.victim = None
    if kill_at is None and at_write is None and at_body is None:
        assert p.returncode == 0, err.decode()[-2000:]
        assert out.decode().split() == [str(N_WATCHES), "0"]
    return p.returncode


def state(db: Path) -> tuple[list[tuple], list[tuple], set[tuple]]:
    """(observations, events, watch health) without ids and times, sorted."""
    engine = make_engine(db)
    with Session(engine) as s:
        obs = sorted(
            (o.watch_id, o.attribute, o.value_key, o.current) for o in s.exec(select(Observation))
        )
        evs = sorted(
            (e.kind, e.watch_id, e.detail_json.split('"observed_at"')[0])
            for e in s.exec(select(Event))
        )
        health = {(w.state, w.consecutive_failures) for w in s.exec(select(Watch))}
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
    engine.dispose()
    return obs, evs, health


def reference(tmp: Path, base: str, pages: Pages, changed: list[int]) -> tuple:
    """The same history in-process without kills."""
    db = tmp / "ref.db"
    seed(db, base)
    engine = make_engine(db)
    store = SnapshotStore(tmp / "ref-snaps")
    with make_client(FetchSettings(min_interval=0.0, allow_private=True)) as client:
        saved = list(pages.versions)
        pages.versions = [0] * N_WATCHES
        run_check(engine, client, snapshot_store=store)
        for i in changed:
            pages.versions[i] = 1
        run_check(engine, client, snapshot_store=store)
        pages.versions = saved
    engine.dispose()
    return state(db)


def test_sigkill_mid_cycle_loses_nothing_and_duplicates_nothing(tmp_path, server):
    pages, base = server
    db, snaps = tmp_path / "t.db", tmp_path / "snaps"
    seed(db, base)
    changed = list(range(0, N_WATCHES, 2))

    # First cycle: killed once the 3rd body is stored (its values not yet recorded), then
    # inside a write transaction (today's cycle writes 3 statements per new page:
    # snapshot, the 3 values in one INSERT, health; write 14 is the 5th watch's values,
    # uncommitted), then completed.
    assert run_child(db, snaps, pages, at_body=3) == -signal.SIGKILL
    assert run_child(db, snaps, pages, at_write=14) == -signal.SIGKILL
    run_child(db, snaps, pages)
    # Half the pages change; that cycle is killed inside a transaction (a changed watch
    # writes 7 statements: snapshot, its 3 events, the new values, the old ones marked
    # not current, health; an unchanged one 2: last seen, health. Write 15: the 3rd
    # watch's new values inserted and the old ones marked not current, no commit yet),
    # then after an answer; then completed.
    for i in changed:
        pages.versions[i] = 1
    assert run_child(db, snaps, pages, at_write=15) == -signal.SIGKILL
    assert run_child(db, snaps, pages, kill_at=17) == -signal.SIGKILL
    run_child(db, snaps, pages)

    obs, evs, health = state(db)
    ref_obs, ref_evs, _ = reference(tmp_path, base, pages, changed)
    # Every value of every page, old and new: 24 x 3 first, +12 x 3 changed (old kept).
    assert len(obs) == N_WATCHES * 3 + len(changed) * 3
    assert sum(o[3] for o in obs) == N_WATCHES * 3
    assert obs == ref_obs
    # One change event per changed value (parameters, licence, price), none twice; no other.
    kinds = ["value_changed", "license_changed", "price_changed"] * len(changed)
    assert sorted(e[0] for e in evs) == sorted(kinds)
    assert len(set(evs)) == len(evs)
    assert evs == ref_evs
    assert health == {("ok", 0)}
