"""Process plumbing for the bench: run a child, read its wall time, CPU time and peak
RSS (``os.wait4``), and the page server's request and byte counts around it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import server

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIB = 1024 * 1024


@dataclass
class Run:
    """One measured process: wall seconds, peak RSS (bytes), its JSON line, server deltas."""

    wall_s: float
    rss: int
    cpu_s: float = 0.0
    out: dict = field(default_factory=dict)
    requests: int = 0
    bytes: int = 0
    not_modified: int = 0
    body_bytes: int = 0


def run_process(
    cmd: list[str], env: dict[str, str] | None = None
) -> tuple[float, int, str, int, float]:
    """Run the Python script ``cmd`` (``[python, script, *args]``) under ``bench/hwm.py``;
    return (wall s, peak RSS bytes, stdout, exit code, CPU s). CPU is user + system time
    from ``os.wait4``; peak RSS is the script's own ``VmHWM`` (see hwm.py for why not
    ``ru_maxrss``)."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r", suffix=".hwm") as hwm,
    ):
        env = dict(os.environ if env is None else env, BENCH_HWM_FILE=hwm.name)
        cmd = [cmd[0], str(HERE / "hwm.py"), *cmd[1:]]
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", "replace")
        if p.returncode != 0:
            sys.stderr.write(err.read().decode("utf-8", "replace")[-3000:])
        cpu = usage.ru_utime + usage.ru_stime
        peak = hwm.read().strip()
        return wall, int(peak or 0) * 1024, text, p.returncode, cpu


def measured(site: server.PageSite, cmd: list[str], env: dict[str, str] | None = None) -> Run:
    r0, m0, b0, d0 = site.counters.snapshot()
    wall, rss, text, rc, cpu = run_process(cmd, env)
    r1, m1, b1, d1 = site.counters.snapshot()
    if rc != 0:
        raise SystemExit(f"bench: {cmd[:3]} exited {rc}")
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    out = json.loads(lines[-1]) if lines else {}
    return Run(wall, rss, cpu, out, r1 - r0, b1 - b0, m1 - m0, d1 - d0)


def compile_sources() -> None:
    """Write the .pyc files of ``claims`` and ``tracker`` before anything is timed.

    ``pip install`` compiles what it installs (urlwatch, httpx, ...), but an editable
    install leaves our sources to be compiled on first import, and with
    ``PYTHONDONTWRITEBYTECODE`` set (as on this project's machine) every cycle process
    compiled them again: ~0.05 s a process that a normal install never pays.
    """
    import compileall

    for package in ("claims", "tracker"):
        compileall.compile_dir(str(ROOT / package), quiet=1)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("HTTP_PROXY", None)
    env.pop("http_proxy", None)
    env["NO_PROXY"] = "127.0.0.1,localhost"
    return env


def fmt_run(r: Run) -> str:
    return (
        f"{r.wall_s:6.2f} s wall  {r.cpu_s:6.2f} s CPU  {r.rss / MIB:5.1f} MiB  "
        f"{r.requests} req  {r.bytes} B"
    )
