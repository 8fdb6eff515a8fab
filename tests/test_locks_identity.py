"""Reading this process's machine identity (boot id + pid namespace), parsing it back from
a lease owner, and how `tracker watches` names where the lease holder runs."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import sys
from pathlib import Path

import pytest
from fakeclock import T0, FakeClock
from sqlmodel import Session
from test_locks_exited import BOOT, HERE, OTHER_PIDNS, dead_pid, run_as
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import Watch
from tracker.cli.main import app
from tracker.schedule.locks import Lease, machine_identity, owner_identity


def fake_proc(tmp_path, boot_id: str, pidns_link: str) -> tuple[str, str]:
    """A boot_id file and a pid-namespace symlink as /proc has them."""
    boot = tmp_path / "boot_id"
    boot.write_text(boot_id)
    link = tmp_path / "pid"
    link.symlink_to(pidns_link)
    return str(boot), str(link)


def test_the_reader_takes_the_boot_id_and_the_pid_namespace_number(tmp_path):
    boot, link = fake_proc(tmp_path, BOOT.upper() + "\n", "pid:[4026531836]")
    assert machine_identity(boot, link) == HERE


@pytest.mark.parametrize(
    ("boot_id", "link"),
    [
        ("not-a-boot-id\n", "pid:[4026531836]"),
        (BOOT + "\n", "net:[4026531840]"),
        (BOOT + "\n", "pid:[]"),
        ("", "pid:[4026531836]"),
    ],
)
def test_the_reader_gives_none_for_contents_of_another_form(tmp_path, boot_id, link):
    assert machine_identity(*fake_proc(tmp_path, boot_id, link)) is None


def test_the_reader_gives_none_where_proc_is_missing(tmp_path):
    boot, link = fake_proc(tmp_path, BOOT, "pid:[1]")
    assert machine_identity(str(tmp_path / "none"), link) is None
    assert machine_identity(boot, str(tmp_path / "none")) is None
    assert machine_identity(boot, boot) is None  # not a symlink: readlink fails


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux /proc")
def test_on_linux_the_reader_matches_proc():
    here = machine_identity()
    if here is None:
        pytest.skip("/proc is restricted here")
    assert f"pid:[{here.pid_namespace}]" == os.readlink("/proc/self/ns/pid")
    with open("/proc/sys/kernel/random/boot_id") as f:
        assert here.boot_id == f.read().strip()


@pytest.mark.parametrize(
    ("owner", "identity"),
    [
        (f"5f0c2b8e9d7a4c1b8e3f6a2d9c0b1e4f@{BOOT}/4026531836", HERE),
        ("5f0c2b8e9d7a4c1b8e3f6a2d9c0b1e4f", None),  # before identities were recorded
        ("5f0c2b8e@", None),
        (f"5f0c2b8e@{BOOT}", None),
        (f"5f0c2b8e@{BOOT}/", None),
        (f"5f0c2b8e@{BOOT}/pid:[4026531836]", None),
        ("5f0c2b8e@host/4026531836", None),
        ("", None),
    ],
)
def test_owner_identity_is_parsed_tolerantly(owner, identity):
    assert owner_identity(owner) == identity


def test_a_new_lease_records_its_identity_in_the_owner(tmp_path, monkeypatch):
    run_as(monkeypatch, HERE)
    lease = Lease(make_engine(tmp_path / "lock.db"))
    token, _, suffix = lease.owner.partition("@")
    assert (len(token), suffix) == (32, f"{BOOT}/4026531836")
    lease.acquire()
    assert lease.holder().identity == HERE


def watches_first_line(tmp_path, monkeypatch, holder_identity, *, now, pid, host=None):
    """`tracker watches` at ``now`` with a holder that took the lease at T0 (ttl 120 s)."""
    db = tmp_path / "w.db"
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(Watch(name="slow", adapter="html_page", url="https://example.test/slow"))
        s.commit()
    run_as(monkeypatch, holder_identity)
    Lease(engine, ttl_seconds=120, clock=FakeClock(), pid=pid, host=host).acquire()
    run_as(monkeypatch, HERE)
    monkeypatch.setattr("tracker.cli.schedule.utcnow", lambda: now)
    result = CliRunner().invoke(app, ["watches", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    listing = json.loads(CliRunner().invoke(app, ["watches", "--db", str(db), "--json"]).stdout)
    return result.output.splitlines()[0], listing["scheduler"]


def test_watches_says_a_dead_holder_on_this_machine_is_not_running(tmp_path, monkeypatch):
    pid = dead_pid()
    line, sched = watches_first_line(tmp_path, monkeypatch, HERE, now=T0, pid=pid)
    assert (
        line == f"scheduler: not running (pid {pid} on this machine has exited; its lock is stale)"
    )
    assert (sched["pid"], sched["host"], sched["live"], sched["exited"]) == (
        pid,
        socket.gethostname(),
        False,
        True,
    )
    assert sched["same_machine"] is True


def test_watches_says_a_live_holder_runs_on_this_machine(tmp_path, monkeypatch):
    line, _ = watches_first_line(tmp_path, monkeypatch, HERE, now=T0, pid=os.getpid())
    assert (
        line == f"scheduler: running, pid {os.getpid()} on this machine since 2026-03-02 12:00 UTC"
    )


def test_watches_names_a_holder_in_another_container_and_its_expiry(tmp_path, monkeypatch):
    # A dead-looking pid in another pid namespace: not "exited", running by its lease.
    now = T0 + dt.timedelta(seconds=30)
    line, sched = watches_first_line(tmp_path, monkeypatch, OTHER_PIDNS, now=now, pid=dead_pid())
    assert line.endswith(
        f"on host {socket.gethostname()} since 2026-03-02 12:00 UTC (another container or "
        "machine; its lease runs until 2026-03-02 12:02 UTC unless renewed)"
    )
    assert line.startswith("scheduler: running, pid ")
    assert (sched["live"], sched["exited"], sched["same_machine"]) == (True, False, False)
    assert sched["expires"] == "2026-03-02T12:02:00Z"


def test_watches_on_a_holder_without_identity_and_on_an_expired_lease(tmp_path, monkeypatch):
    now = T0 + dt.timedelta(seconds=30)
    line, sched = watches_first_line(tmp_path, monkeypatch, None, now=now, pid=4242, host="web-1")
    assert line == (
        "scheduler: running, pid 4242 on host web-1 since 2026-03-02 12:00 UTC (another "
        "container or machine; its lease runs until 2026-03-02 12:02 UTC unless renewed)"
    )
    assert sched["same_machine"] is False  # another host name: another machine
    doc = (Path(__file__).parent.parent / "docs" / "scheduler.md").read_text()
    assert f"    {line}\n" in doc  # the sample in docs/scheduler.md is this output
    later = T0 + dt.timedelta(minutes=5)
    (tmp_path / "b").mkdir()
    line, sched = watches_first_line(
        tmp_path / "b", monkeypatch, None, now=later, pid=dead_pid(), host=None
    )
    assert sched["same_machine"] is None  # our host name, but no identity recorded
    assert line.startswith("scheduler: stale (lease expired), pid ")
    assert line.endswith(f"on host {socket.gethostname()} since 2026-03-02 12:00 UTC")


def test_watches_cannot_tell_a_same_named_holder_without_identity(tmp_path, monkeypatch):
    now = T0 + dt.timedelta(seconds=30)
    line, _ = watches_first_line(tmp_path, monkeypatch, None, now=now, pid=4242)
    assert line == (
        f"scheduler: running, pid 4242 on host {socket.gethostname()} since 2026-03-02 "
        "12:00 UTC (not known to be this machine; its lease runs until 2026-03-02 12:02 UTC "
        "unless renewed)"
    )
