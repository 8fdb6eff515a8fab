"""The whole pipeline on SQLite and on PostgreSQL (a server the test starts): `tracker demo`
(load data/, check replaying data/recordings/demo.har, verify, build) as a user runs it,
then alerts sent to a local webhook. Both databases give byte-identical sites and the
same alerts; snapshot bodies follow the database (PostgreSQL: its table; SQLite: the
local file)."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from webhook import Hook

from claims.store.engine import make_engine
from tracker.alerts.send import DIGEST_FROM, drain
from tracker.alerts.subscriptions import Subscription
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
TRACKER = str(Path(sys.executable).with_name("tracker"))

pytestmark = pytest.mark.postgres


def _tracker(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([TRACKER, *args], cwd=cwd, capture_output=True, timeout=300, env=_env())
    assert done.returncode == 0, done.stderr.decode()
    return done


def _env() -> dict[str, str]:
    """This environment without TRACKER_* settings (each run names its database)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("TRACKER_")}


def _workdir(tmp_path: Path) -> Path:
    """A folder whose data/ shows the checkout's data files (the demo reads data/ and
    stores SQLite bodies in data/snapshots/, here outside the checkout)."""
    work = tmp_path / "work"
    (work / "data").mkdir(parents=True)
    for item in ("subjects.toml", "watches.toml", "claims", "recordings"):
        (work / "data" / item).symlink_to(ROOT / "data" / item)
    return work


def _alerts(db: str, hook: Hook, at: dt.datetime) -> list[dict]:
    """Send every alert the run produced (as of an hour after the recording: the
    recorded events are inside the 48-hour backlog) to ``hook``; the posts received (one
    digest when several are due)."""
    engine = make_engine(db)
    start = len(hook.posts)
    try:
        url = f"json://127.0.0.1:{hook.port}/"
        report = drain(engine, [Subscription(name="team", url=url)], now=at + dt.timedelta(hours=1))
    finally:
        engine.dispose()
    # several alerts for one target in one run go as one digest (tracker.alerts.send)
    posts = 1 if report.delivered >= DIGEST_FROM else report.delivered
    assert report.failed == 0 and report.delivered > 0 and len(hook.posts) - start == posts
    return sorted(hook.posts[start:], key=lambda p: (p.get("title", ""), p.get("message", "")))


def _files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()
    }


def test_the_pipeline_gives_the_same_site_on_sqlite_and_postgresql(pg_server, tmp_path):
    work = _workdir(tmp_path)
    recorded_at = HarReplayTransport(DEMO_HAR).latest_recorded_at()
    lite = str(tmp_path / "tracker.db")
    with Hook(lambda body: 200) as hook:
        _tracker(work, "demo", "--db", pg_server, "--out", str(tmp_path / "site-pg"))
        assert not (work / "data" / "snapshots").exists()  # PostgreSQL: bodies in the database
        pg_alerts = _alerts(pg_server, hook, recorded_at)
        _tracker(work, "demo", "--db", lite, "--out", str(tmp_path / "site-lite"))
        lite_alerts = _alerts(lite, hook, recorded_at)
    assert pg_alerts == lite_alerts

    pg_site, lite_site = _files(tmp_path / "site-pg"), _files(tmp_path / "site-lite")
    assert len(lite_site) > 20 and "index.html" in lite_site
    assert sorted(pg_site) == sorted(lite_site)
    differing = [name for name in lite_site if pg_site[name] != lite_site[name]]
    assert differing == []

    # Bodies follow the database: the same bodies, in the table on PostgreSQL and in the
    # local file on SQLite; `tracker snapshot` reads each where it is.
    engine = make_engine(pg_server)
    try:
        with engine.connect() as conn:
            stored = dict(conn.exec_driver_sql("SELECT sha256, data FROM snapshotbody").all())
            cited = {sha for (sha,) in conn.exec_driver_sql("SELECT sha256 FROM snapshot")}
    finally:
        engine.dispose()
    assert set(stored) == cited and len(cited) >= 4
    assert all(hashlib.sha256(body).hexdigest() == sha for sha, body in stored.items())
    # the SQLite file's bodies beside it, not under the folder the demo ran in
    assert not (work / "data" / "snapshots").exists()
    with SnapshotStore(tmp_path / "snapshots") as files:
        assert all(files.get(sha) == bytes(body) for sha, body in stored.items())
    sha = sorted(cited)[0]
    shown = _tracker(work, "snapshot", sha[:12], "--db", pg_server).stdout
    assert shown == bytes(stored[sha])
