"""Jobs for `tracker schedule --jobs sched_jobs:slow_jobs` in subprocess tests.

The watch job runs the real watch cycle (tracker.cycle.run.run_check) against a mocked
page that answers once the test creates $SCHED_TEST_DIR/release (no transaction is open
while it waits); marker files there say when the fetch started and when the run ended.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx

from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.schedule.jobs import Jobs
from tracker.snapshots.store import SnapshotStore

PAGE = "<html><body><p>128000</p></body></html>"


def slow_jobs(engine) -> Jobs:
    marks = Path(os.environ["SCHED_TEST_DIR"])
    store = SnapshotStore(marks / "snapshots")

    def slow_page(request: httpx.Request) -> httpx.Response:
        name = request.url.path.strip("/")
        (marks / f"started-{name}").touch()
        # a server that answers only when the test says so (it creates "release" after
        # signalling), so the signal surely arrives while this fetch is in flight
        deadline = time.monotonic() + 60
        while not (marks / "release").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return httpx.Response(200, html=PAGE)

    client = make_client(transport=httpx.MockTransport(slow_page))

    def run_watch(name: str) -> None:
        run_check(engine, client, snapshot_store=store, watch_names=[name])
        (marks / f"done-{name}").touch()

    def rebuild_site() -> None:
        with (marks / "rebuilds").open("a") as f:
            f.write("rebuild\n")

    return Jobs(run_watch=run_watch, rebuild_site=rebuild_site)
