"""A scheduler lock whose holder ran on this machine, in this pid namespace, and has exited
is stale at once: a new scheduler takes it over without waiting for the lease to expire,
and `tracker watches` says the scheduler is not running. A holder on another host, in
another pid namespace or boot (a container sharing our host name), or whose identity is
unknown on either side, is only ever judged by its lease expiry.

The identity reader is monkeypatched (``tracker.schedule.locks.machine_identity``), so these tests
mean the same on Linux, macOS and Windows; the clock is a FakeClock (no sleeping)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest
from fakeclock import FakeClock
from sqlalchemy import update

from claims.store.engine import make_engine
from claims.store.tables import SchedulerLock
from tracker.schedule.locks import Lease, MachineIdentity, SchedulerBusy, holder_exited

BOOT = "0b6e3a2c-4f1d-4e5a-9c7b-1d2e3f4a5b6c"
HERE = MachineIdentity(boot_id=BOOT, pid_namespace="4026531836")
OTHER_PIDNS = MachineIdentity(boot_id=BOOT, pid_namespace="4026532999")
OTHER_BOOT = MachineIdentity(
    boot_id="7f00d1e2-0000-4abc-8def-0123456789ab", pid_namespace="4026531836"
)


def dead_pid() -> int:
    """The pid of a process that has run and been reaped (not alive any more)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def run_as(monkeypatch: pytest.MonkeyPatch, identity: MachineIdentity | None) -> None:
    """From now on this process reads ``identity`` as its own (None: unreadable)."""
    monkeypatch.setattr("tracker.schedule.locks.machine_identity", lambda *a, **k: identity)


@pytest.fixture
def engine(tmp_path):
    return make_engine(tmp_path / "lock.db")


def crash_holder(engine, clock, monkeypatch, identity) -> Lease:
    """A holder that recorded ``identity`` and a dead pid, then died without releasing."""
    run_as(monkeypatch, identity)
    crashed = Lease(engine, ttl_seconds=120, clock=clock, pid=dead_pid())  # kill -9
    crashed.acquire()
    return crashed


def test_a_dead_holder_in_this_pid_namespace_is_taken_over_at_once(engine, caplog, monkeypatch):
    clock = FakeClock()
    crashed = crash_holder(engine, clock, monkeypatch, HERE)
    assert crashed.owner.endswith(f"@{BOOT}/4026531836")
    assert holder_exited(crashed.holder()) is True
    newcomer = Lease(engine, ttl_seconds=120, clock=clock)
    with caplog.at_level(logging.WARNING, logger="tracker.schedule.daemon"):
        newcomer.acquire()  # the lease has 120 s left: only the dead pid lets it in
    holder = newcomer.holder()
    assert (holder.owner, holder.pid, holder.identity) == (newcomer.owner, os.getpid(), HERE)
    assert [r.getMessage() for r in caplog.records] == [
        f"took over a stale scheduler lock on {engine.url.database} from pid {crashed.pid} "
        "(exited) on this machine"
    ]


@pytest.mark.parametrize("theirs", [OTHER_PIDNS, OTHER_BOOT], ids=["pidns", "boot"])
def test_same_host_other_container_waits_for_the_lease_to_expire(engine, monkeypatch, theirs):
    # Another container with our host name: its pid is absent here, yet it may be alive.
    clock = FakeClock()
    crashed = crash_holder(engine, clock, monkeypatch, theirs)
    run_as(monkeypatch, HERE)
    assert holder_exited(crashed.holder()) is False
    with pytest.raises(SchedulerBusy, match=rf"\(pid {crashed.pid} on host "):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()
    clock.advance(seconds=119)
    with pytest.raises(SchedulerBusy):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()
    clock.advance(seconds=2)  # now past its expiry
    newcomer = Lease(engine, ttl_seconds=120, clock=clock)
    newcomer.acquire()
    assert newcomer.holder().owner == newcomer.owner


def test_an_old_row_without_identity_is_not_taken_over_at_once(engine, monkeypatch):
    clock = FakeClock()
    crashed = crash_holder(engine, clock, monkeypatch, HERE)
    old_owner = "5f0c2b8e9d7a4c1b8e3f6a2d9c0b1e4f"  # a bare uuid, as rows were written before
    with engine.begin() as conn:
        conn.execute(update(SchedulerLock.__table__).values(owner=old_owner))
    holder = crashed.holder()
    assert (holder.owner, holder.identity) == (old_owner, None)
    assert holder_exited(holder) is False
    with pytest.raises(SchedulerBusy):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()
    clock.advance(seconds=121)
    newcomer = Lease(engine, ttl_seconds=120, clock=clock)
    newcomer.acquire()
    assert newcomer.holder().owner == newcomer.owner


def test_no_instant_takeover_where_our_identity_cannot_be_read(engine, monkeypatch):
    clock = FakeClock()
    crashed = crash_holder(engine, clock, monkeypatch, HERE)
    run_as(monkeypatch, None)  # macOS, Windows, a restricted /proc
    assert holder_exited(crashed.holder()) is False
    newcomer = Lease(engine, ttl_seconds=120, clock=clock)
    assert "@" not in newcomer.owner  # nothing to record either
    with pytest.raises(SchedulerBusy):
        newcomer.acquire()
    clock.advance(seconds=121)
    newcomer.acquire()
    assert newcomer.holder().owner == newcomer.owner


def test_a_holder_recorded_without_identity_is_not_taken_over_at_once(engine, monkeypatch):
    clock = FakeClock()
    crashed = crash_holder(engine, clock, monkeypatch, None)
    assert crashed.holder().identity is None
    run_as(monkeypatch, HERE)
    assert holder_exited(crashed.holder()) is False
    with pytest.raises(SchedulerBusy):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()


def test_a_live_holder_or_one_on_another_host_still_refuses(engine, monkeypatch):
    run_as(monkeypatch, HERE)
    clock = FakeClock()
    Lease(engine, ttl_seconds=120, clock=clock, pid=dead_pid(), host="elsewhere").acquire()
    with pytest.raises(SchedulerBusy, match=r"on host elsewhere since"):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()
    clock.advance(seconds=121)
    alive = Lease(engine, ttl_seconds=120, clock=clock)  # this process: alive
    alive.acquire()
    assert holder_exited(alive.holder()) is False
    with pytest.raises(SchedulerBusy, match=rf"\(pid {os.getpid()} on host "):
        Lease(engine, ttl_seconds=120, clock=clock).acquire()


def test_permission_error_counts_as_alive(engine, monkeypatch):
    run_as(monkeypatch, HERE)
    Lease(engine, pid=1).acquire()

    def denied(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("tracker.schedule.locks.os.kill", denied)
    assert holder_exited(Lease(engine).holder()) is False
    with pytest.raises(SchedulerBusy):
        Lease(engine).acquire()


def test_the_pid_is_not_probed_for_a_holder_in_another_pid_namespace(engine, monkeypatch):
    # Its pid may belong to an unrelated process here; asking about it would be meaningless
    # (and on Windows os.kill(pid, 0) is no existence check at all).
    crash_holder(engine, FakeClock(), monkeypatch, OTHER_PIDNS)
    run_as(monkeypatch, HERE)
    probed: list[int] = []
    monkeypatch.setattr("tracker.schedule.locks.os.kill", lambda pid, sig: probed.append(pid))
    assert holder_exited(Lease(engine).holder()) is False
    assert probed == []
