"""A scheduler lock whose holder ran on this host and has exited is stale at once: a new
scheduler takes it over without waiting for the lease to expire, and `tracker watches`
says the scheduler is not running. A holder on another host still waits for expiry."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys

import pytest
from fakeclock import FakeClock
from sqlmodel import Session
from typer.testing import CliRunner

from claims.db import make_engine
from claims.models import Watch
from tracker.cli import app
from tracker.locks import Lease, SchedulerBusy, holder_exited


def dead_pid() -> int:
    """The pid of a process that has run and been reaped (not alive any more)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def engine(tmp_path):
    return make_engine(tmp_path / "lock.db")


def test_a_dead_holder_on_this_host_is_taken_over_at_once(engine, caplog):
    clock = FakeClock()
    pid = dead_pid()
    crashed = Lease(engine, ttl_seconds=120, clock=clock, pid=pid)  # kill -9: no release
    crashed.acquire()
    assert holder_exited(crashed.holder()) is True
    newcomer = Lease(engine, ttl_seconds=120, clock=clock)
    with caplog.at_level(logging.WARNING, logger="tracker.schedule"):
        newcomer.acquire()  # the lease has 120 s left: only the dead pid lets it in
    holder = newcomer.holder()
    assert (holder.owner, holder.pid) == (newcomer.owner, os.getpid())
    assert [r.getMessage() for r in caplog.records] == [
        f"took over a stale scheduler lock on {engine.url.database} from pid {pid} "
        "(exited) on this host"
    ]


def test_a_live_holder_or_one_on_another_host_still_refuses(engine):
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
    Lease(engine, pid=1).acquire()

    def denied(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("tracker.locks.os.kill", denied)
    assert holder_exited(Lease(engine).holder()) is False
    with pytest.raises(SchedulerBusy):
        Lease(engine).acquire()


def test_watches_says_a_dead_holder_on_this_host_is_not_running(tmp_path):
    db = tmp_path / "w.db"
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(Watch(name="slow", adapter="html_page", url="https://example.test/slow"))
        s.commit()
    pid = dead_pid()
    Lease(engine, pid=pid).acquire()
    result = CliRunner().invoke(app, ["watches", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        f"scheduler: not running (pid {pid} on this host has exited; its lock is stale)"
    )
    result = CliRunner().invoke(app, ["watches", "--db", str(db), "--json"])
    listing = json.loads(result.stdout)["scheduler"]
    assert (listing["pid"], listing["host"], listing["live"], listing["exited"]) == (
        pid,
        socket.gethostname(),
        False,
        True,
    )
