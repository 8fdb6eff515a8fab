"""Entry for the crash test: one check cycle (``run_check``) over a database.

Usage: ``python crash_child.py DB SNAPSHOT_DIR``; prints ``checked failing`` and exits 0.
The test kills this process with SIGKILL at chosen points of the cycle: from the page
server after its K-th answer; with ``CRASH_AFTER_BODY=N`` the process kills itself right
after its N-th body is stored (committed to the body file; the observations citing it
not yet recorded); with ``CRASH_AT_WRITE=N``, the process kills itself
right after its N-th write statement (INSERT/UPDATE/DELETE; an executemany counts
once), i.e. inside an open write transaction before its commit. The cycle writes through
:class:`claims.store.rawdb.RawDB`, so that is where statements are counted.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from claims.store.rawdb import RawDB
from tracker.cycle.run import run_check
from tracker.net.fetch import FetchSettings, make_client
from tracker.snapshots.store import SnapshotStore


def arm_write_kill(n: int) -> None:
    writes = 0

    def counted(method):  # type: ignore[no-untyped-def]
        def run(self, sql, *args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal writes
            out = method(self, sql, *args, **kwargs)
            if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
                writes += 1
                if writes == n:
                    os.kill(os.getpid(), signal.SIGKILL)
            return out

        return run

    RawDB.execute = counted(RawDB.execute)  # type: ignore[method-assign]
    RawDB.executemany = counted(RawDB.executemany)  # type: ignore[method-assign]


def arm_body_kill(n: int) -> None:
    stored = 0
    put = SnapshotStore.put
    lock = threading.Lock()  # the cycle's fetch workers store bodies concurrently

    def counted(self, body, sha=None):  # type: ignore[no-untyped-def]
        nonlocal stored
        out = put(self, body, sha)
        with lock:
            stored += 1
            if stored == n:
                os.kill(os.getpid(), signal.SIGKILL)
        return out

    SnapshotStore.put = counted  # type: ignore[method-assign]


def main() -> None:
    db, snapshots = sys.argv[1], sys.argv[2]
    if os.environ.get("CRASH_AT_WRITE"):
        arm_write_kill(int(os.environ["CRASH_AT_WRITE"]))
    if os.environ.get("CRASH_AFTER_BODY"):
        arm_body_kill(int(os.environ["CRASH_AFTER_BODY"]))
    # A local test server: no per-host politeness interval. The database path goes to the
    # cycle as is (the lean path `tracker check` and the scheduler take).
    # A local server: the private-address guard is lifted explicitly (tests only).
    with make_client(FetchSettings(min_interval=0.0, allow_private=True)) as client:
        summary = run_check(db, client, snapshot_store=SnapshotStore(snapshots))
    print(summary.checked, summary.failing)


if __name__ == "__main__":
    main()
