"""Entry for the crash test: one check cycle (``run_check``) over a database.

Usage: ``python crash_child.py DB SNAPSHOT_DIR``; prints ``checked failing`` and exits 0.
The test kills this process with SIGKILL at chosen points of the cycle: from the page
server after its K-th answer, or, with ``CRASH_AT_WRITE=N``, the process kills itself
right after its N-th write statement (INSERT/UPDATE/DELETE, ORM flush or Core), i.e.
inside an open write transaction before its commit. Counting statements, not ORM
flushes, keeps the kill points inside transactions that write with Core statements.
"""

from __future__ import annotations

import os
import signal
import sys

from claims.db import make_engine
from tracker.cycle import run_check
from tracker.fetch import FetchSettings, make_client
from tracker.snapshots import SnapshotStore


def arm_write_kill(n: int) -> None:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    writes = 0

    @event.listens_for(Engine, "after_cursor_execute")
    def _kill(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        nonlocal writes
        if statement.lstrip().split(None, 1)[0].upper() not in ("INSERT", "UPDATE", "DELETE"):
            return
        writes += 1
        if writes == n:
            os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    db, snapshots = sys.argv[1], sys.argv[2]
    if os.environ.get("CRASH_AT_WRITE"):
        arm_write_kill(int(os.environ["CRASH_AT_WRITE"]))
    engine = make_engine(db)
    # A local test server: no per-host politeness interval.
    with make_client(FetchSettings(min_interval=0.0)) as client:
        summary = run_check(engine, client, snapshot_store=SnapshotStore(snapshots))
    print(summary.checked, summary.failing)


if __name__ == "__main__":
    main()
