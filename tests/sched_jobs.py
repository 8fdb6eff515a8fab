"""Jobs for `tracker schedule --jobs sched_jobs:slow_jobs` in subprocess tests.

The watch job runs the real watch cycle (tracker.cycle.run.run_check) against a mocked
page. The test passes two pipes: the job writes ``started-NAME`` to $SCHED_STARTED_FD
when the fetch begins, and the page answers once the test closes the other end of
$SCHED_RELEASE_FD (no transaction is open while it waits). Marker files in
$SCHED_TEST_DIR say that the fetch started and that the run ended.
"""

from __future__ import annotations

import os
import select
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
    started = int(os.environ["SCHED_STARTED_FD"])
    release = int(os.environ["SCHED_RELEASE_FD"])

    def slow_page(request: httpx.Request) -> httpx.Response:
        name = request.url.path.strip("/")
        (marks / f"started-{name}").touch()
        os.write(started, f"started-{name}\n".encode())
        # a server that answers only when the test says so (it closes the release pipe
        # after signalling), so the signal surely arrives while this fetch is in flight
        select.select([release], [], [], 60)
        return httpx.Response(200, html=PAGE)

    client = make_client(transport=httpx.MockTransport(slow_page))

    def run_watch(name: str) -> None:
        run_check(engine, client, snapshot_store=store, watch_names=[name])
        (marks / f"done-{name}").touch()

    def rebuild_site() -> None:
        with (marks / "rebuilds").open("a") as f:
            f.write("rebuild\n")

    return Jobs(run_watch=run_watch, rebuild_site=rebuild_site)
