"""The scheduler lease on PostgreSQL: one winner among racing processes' engines, stale takeover.

Uses the throwaway PostgreSQL server of conftest's ``pg_server`` fixture; skipped when the
server binaries or psycopg are missing.
"""

from __future__ import annotations

import threading

import pytest
from fakeclock import FakeClock
from lease_race import race_claim_and_takeover

from claims.store.engine import make_engine
from tracker.schedule.locks import Lease, LockLost, SchedulerBusy

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_engine(pg_server):
    """make_engine(url) for this test; every engine is disposed at the end (no open sockets)."""
    made = []

    def make():
        made.append(make_engine(pg_server))
        return made[-1]

    yield make
    for engine in made:
        engine.dispose()


def test_pg_four_engines_race_for_the_lease_and_exactly_one_wins(pg_engine):
    engines = [pg_engine() for _ in range(4)]
    barrier = threading.Barrier(4)
    results: list[str] = []

    def worker(engine) -> None:
        lease = Lease(engine)
        barrier.wait()
        try:
            lease.acquire()
            results.append("won")
        except SchedulerBusy as exc:
            results.append(str(exc))

    threads = [threading.Thread(target=worker, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results.count("won") == 1
    losers = [r for r in results if r != "won"]
    assert len(losers) == 3
    for message in losers:
        assert message.startswith("a scheduler is already running against postgresql+psycopg://")
        assert message.endswith("); not starting another")
    with engines[0].begin() as conn:
        conn.exec_driver_sql("DELETE FROM schedulerlock")


def test_pg_stale_lease_is_taken_over_by_exactly_one(pg_engine):
    clock = FakeClock()
    crashed = Lease(pg_engine(), ttl_seconds=60, clock=clock, pid=1, host="gone")
    crashed.acquire()
    clock.advance(seconds=61)
    contenders = [Lease(pg_engine(), ttl_seconds=60, clock=clock) for _ in range(4)]
    barrier = threading.Barrier(4)
    won: list[Lease] = []

    def worker(lease: Lease) -> None:
        barrier.wait()
        try:
            lease.acquire()
            won.append(lease)
        except SchedulerBusy:
            pass

    threads = [threading.Thread(target=worker, args=(c,)) for c in contenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(won) == 1
    assert won[0].holder().owner == won[0].owner
    with pytest.raises(LockLost):
        crashed.renew()
    assert won[0].release() is True


def test_pg_dead_holder_taken_over_at_once_only_in_the_same_pid_namespace(pg_engine, monkeypatch):
    from test_locks_exited import HERE, OTHER_PIDNS, dead_pid, run_as

    clock = FakeClock()
    engine = pg_engine()
    run_as(monkeypatch, OTHER_PIDNS)  # a container with our host name: its pid is not ours
    Lease(engine, ttl_seconds=60, clock=clock, pid=dead_pid()).acquire()
    run_as(monkeypatch, HERE)
    with pytest.raises(SchedulerBusy):
        Lease(engine, ttl_seconds=60, clock=clock).acquire()
    with engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM schedulerlock")
    Lease(engine, ttl_seconds=60, clock=clock, pid=dead_pid()).acquire()  # same namespace
    newcomer = Lease(engine, ttl_seconds=60, clock=clock)
    newcomer.acquire()  # 60 s left on the lease: only the dead pid in our namespace lets it in
    assert newcomer.holder().owner == newcomer.owner
    assert newcomer.release() is True


def test_pg_a_claim_and_a_takeover_never_both_succeed(pg_engine):
    """The fencing claim (Lease.claim_run) of a holder paused past its lease races a
    newcomer's takeover: in every round exactly one of them wins."""
    outcomes = race_claim_and_takeover(pg_engine)
    assert all(claimed != took for claimed, took in outcomes), outcomes
