"""Test helper: a lease holder's fencing claim racing a newcomer's takeover (SQLite and
PostgreSQL tests share it)."""

from __future__ import annotations

import threading

from fakeclock import FakeClock

from tracker.schedule.locks import Lease, SchedulerBusy


def race_claim_and_takeover(make, rounds: int = 10) -> list[tuple[bool, bool]]:
    """Each round: a holder paused past its lease claims a run while a newcomer takes the
    lease over, at once (a barrier); returns (claimed, took_over) per round."""
    outcomes = []
    for _ in range(rounds):
        clock = FakeClock()
        paused = Lease(make(), ttl_seconds=60, clock=clock)
        paused.acquire()
        clock.advance(seconds=61)
        newcomer = Lease(make(), ttl_seconds=60, clock=clock)
        barrier = threading.Barrier(2)
        result = {}

        def claim(lease=paused, barrier=barrier, result=result) -> None:
            barrier.wait()
            result["claimed"] = lease.claim_run("watch:hub")

        def take(lease=newcomer, barrier=barrier, result=result) -> None:
            barrier.wait()
            try:
                lease.acquire()
                result["took"] = True
            except SchedulerBusy:
                result["took"] = False

        threads = [threading.Thread(target=claim), threading.Thread(target=take)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        outcomes.append((result["claimed"], result["took"]))
        for lease in (paused, newcomer):
            lease.release()
    return outcomes
