"""Site build benchmark: 1,000 subjects x 30 claims; full build, then a one-claim rebuild.

Run alone with ``python bench/site_bench.py [--runs N]``; ``bench/run.py`` (``make
bench``) reuses :func:`populate` and :func:`touch_one_claim`. Prints, per run, files per
second of the full build (wall and CPU seconds of the build process, plus those of its
second process: the forked one that renders a share of the pages, or where the build
cannot fork, the helper that writes a large build's files) and the time of a rebuild after one
claim changed, with the files it rendered (only those whose input changed) and rewrote
(only those whose bytes changed). The full build starts cold (``clear_build_caches``:
nothing kept from an earlier build of this process). The one-claim rebuild is timed
three ways: warm, in the process that just built (as the scheduler rebuilds after each
cycle, reusing the claim views and fragments of unchanged subjects), and cold, after
another claim changed and the caches were cleared (what ``tracker build`` in a new
process pays, imports aside; the build cache on disk, ``OUT.cache``, is kept, as it is
between processes), and in a real new process: ``tracker build`` run as a
subprocess after a third claim changed (its wall and CPU seconds, start-up and imports
included; beside it, what a process that only starts and imports the build costs; the
``.pyc`` files of ``claims`` and ``tracker`` are written first, as an installed package
has them: :func:`procs.compile_sources`). Every
line gives the load average when it was measured: the machine is shared, and wall
seconds follow the load. Each run starts from a copy of the same database and an empty
output folder. Every run's output is kept until all runs end: on this machine's ext4 (no
journal) a new file skips inodes deleted in the last minutes, so deleting the 3,000
files of one run made the next run's file creation several times slower (perf:
``recently_deleted``), which measured the bench's clean-up, not the build.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from procs import compile_sources
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.tables import Claim, Source, Subject, Verdict
from claims.values.canonical import dumps
from claims.values.value import quantity
from claims.vocabulary import ATTRIBUTES
from tracker.website.build import build_site, clear_build_caches

SUBJECTS, CLAIMS_PER_SUBJECT, SOURCES = 1000, 30, 50
NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)


def populate(engine) -> None:  # type: ignore[no-untyped-def]
    numeric = [a for a, (kinds, unit) in ATTRIBUTES.items() if "quantity" in kinds and unit]
    with Session(engine) as s:
        sources = [
            Source(key=f"src-{i}", title=f"Source {i}", language="en") for i in range(SOURCES)
        ]
        s.add_all(sources)
        s.flush()
        for n in range(SUBJECTS):
            subj = Subject(slug=f"model-{n:04d}", name=f"Model {n:04d}", organization="Lab")
            s.add(subj)
            s.flush()
            made = []
            for k in range(CLAIMS_PER_SUBJECT):
                attr = numeric[k % len(numeric)]
                unit = ATTRIBUTES[attr][1]
                value = quantity(str(k + 1), unit or "points")
                c = Claim(
                    key=f"{n}-{k}",
                    subject_id=subj.id,
                    attribute=attr,
                    qualifiers_json=dumps({"variant": f"v{k // len(numeric)}"}),
                    value_json=dumps(value.to_dict()),
                    raw_text=str(k + 1),
                    source_id=sources[(n + k) % SOURCES].id,
                    claimant="Lab",
                    created_at=NOW,
                )
                made.append(c)
            s.add_all(made)
            s.flush()
            for c in made:
                s.add(
                    Verdict(
                        claim_id=c.id,
                        status="unverified",
                        reason="nothing observed",
                        checked_at=NOW,
                    )
                )
        s.commit()


def touch_one_claim(engine, claimant: str = "Another lab") -> None:  # type: ignore[no-untyped-def]
    """Change one claim (its claimant): the one-claim rebuild scenario."""
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.key == "500-3")).one()
        claim.claimant = claimant
        s.add(claim)
        s.commit()


def children_cpu() -> float:
    """CPU seconds of this process's finished child processes (the build's second
    process: forked renderer or writer helper)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cache_dir_of(out: Path) -> Path:
    """The build cache ``tracker build --out OUT`` uses by default (``OUT.cache``)."""
    return out.resolve().with_name(out.name + ".cache")


def timed_build(engine, out: Path):  # type: ignore[no-untyped-def]
    """(report, wall s, CPU s, helper CPU s) of one build_site into ``out``, with the
    build cache ``tracker build`` would use (:func:`cache_dir_of`)."""
    t0, c0, h0 = time.perf_counter(), time.process_time(), children_cpu()
    report = build_site(engine, out, now=NOW, cache_dir=cache_dir_of(out))
    return report, time.perf_counter() - t0, time.process_time() - c0, children_cpu() - h0


def load() -> str:
    """The 1-minute load average, as printed beside each figure."""
    return f"load {os.getloadavg()[0]:.1f}"


# What a `tracker build` process imports before it builds (start-up without the build):
# every module a one-claim rebuild loads (tests/test_cli_startup.py checks it). The CLI
# loads its other command modules only for their commands, so tracker.cli.main is light.
IMPORT_ONLY = "import sqlite3, tracker.cli.main, tracker.pipeline, tracker.website.build"


def process_seconds(cmd: list[str]) -> tuple[float, float]:
    """(wall s, CPU s: user + system) of running ``cmd`` to its end; raises
    CalledProcessError when it fails."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return wall, usage.ru_utime + usage.ru_stime


def tracker_build(db: Path, out: Path) -> tuple[float, float]:
    """(wall s, CPU s) of ``tracker build --db DB --out OUT`` in a new process (the
    ``tracker`` script beside this interpreter, else its entry point run by this one)."""
    script = Path(sys.executable).with_name("tracker")
    entry = [sys.executable, "-c", "from tracker.cli.main import main; main()"]
    cmd = [str(script)] if script.exists() else entry
    return process_seconds([*cmd, "build", "--db", str(db), "--out", str(out)])


def startup_seconds() -> tuple[float, float]:
    """(wall s, CPU s) of a process that only imports what ``tracker build`` imports."""
    return process_seconds([sys.executable, "-c", IMPORT_ONLY])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="full + one-claim builds to time (1)")
    args = ap.parse_args()
    compile_sources()  # as `make bench` (bench/run.py) does: see its docstring
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        template = root / "bench.db"
        engine = make_engine(template)
        t0 = time.perf_counter()
        populate(engine)
        engine.dispose()
        took = time.perf_counter() - t0
        print(f"database: {SUBJECTS} subjects x {CLAIMS_PER_SUBJECT} claims in {took:.1f} s")
        for run in range(1, args.runs + 1):
            db = root / f"run-{run}.db"
            shutil.copy(template, db)
            engine = make_engine(db)
            out = root / f"site-{run}"
            clear_build_caches()
            full, wall, cpu, helper = timed_build(engine, out)
            files = full.pages_written + full.pages_unchanged
            print(
                f"run {run} full build: {files} files in {wall:.2f} s wall, {cpu:.2f} CPU s "
                f"+ {helper:.2f} in its second process = {files / wall:.0f} files/s "
                f"({files / (cpu + helper):.0f} per CPU second of both); {load()}"
            )
            touch_one_claim(engine)
            again, wall, cpu, helper = timed_build(engine, out)
            print(
                f"run {run} one-claim rebuild, warm: {wall:.2f} s wall, {cpu:.2f} CPU s "
                f"(+ {helper:.2f} helper); "
                f"{again.pages_rendered} files rendered ({', '.join(sorted(again.rendered_paths))}); "
                f"{again.pages_written} rewritten, {again.pages_unchanged} unchanged; {load()}"
            )
            touch_one_claim(engine, "A third lab")
            clear_build_caches()
            again, wall, cpu, helper = timed_build(engine, out)
            print(
                f"run {run} one-claim rebuild, cold (caches cleared): {wall:.2f} s wall, "
                f"{cpu:.2f} CPU s; {again.pages_rendered} files rendered, "
                f"{again.pages_written} rewritten; {load()}"
            )
            touch_one_claim(engine, "A fourth lab")
            engine.dispose()
            wall, cpu = tracker_build(db, out)
            start_wall, start_cpu = startup_seconds()
            print(
                f"run {run} one-claim rebuild, new process (`tracker build`): {wall:.2f} s wall, "
                f"{cpu:.2f} CPU s; of which start-up and imports alone take {start_wall:.2f} s "
                f"wall, {start_cpu:.2f} CPU s; {load()}"
            )  # the output stays until the end (see the docstring)


if __name__ == "__main__":
    main()
