"""Entry for the crash test: one check cycle (``run_check``) over a database.

Usage: ``python crash_child.py DB SNAPSHOT_DIR``; prints ``checked failing`` and exits 0.
The test kills this process with SIGKILL at chosen points of the cycle: from the page
server after its K-th answer, or, with ``CRASH_AT_FLUSH=N``, the process kills itself
on the N-th ORM flush, i.e. inside an open write transaction before its commit.
"""

from __future__ import annotations

import os
import signal
import sys

from claims.db import make_engine
from tracker.cycle import run_check
from tracker.fetch import FetchSettings, make_client
from tracker.snapshots import SnapshotStore


def arm_flush_kill(n: int) -> None:
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    flushes = 0

    @event.listens_for(Session, "after_flush")
    def _kill(session, context) -> None:  # type: ignore[no-untyped-def]
        nonlocal flushes
        flushes += 1
        if flushes == n:
            os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    db, snapshots = sys.argv[1], sys.argv[2]
    if os.environ.get("CRASH_AT_FLUSH"):
        arm_flush_kill(int(os.environ["CRASH_AT_FLUSH"]))
    engine = make_engine(db)
    # A local test server: no per-host politeness interval.
    with make_client(FetchSettings(min_interval=0.0)) as client:
        summary = run_check(engine, client, snapshot_store=SnapshotStore(snapshots))
    print(summary.checked, summary.failing)


if __name__ == "__main__":
    main()
