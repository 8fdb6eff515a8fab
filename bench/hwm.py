"""Run a Python script; at exit, write this process's own peak RSS to ``$BENCH_HWM_FILE``.

Usage: ``python bench/hwm.py SCRIPT [ARGS...]`` (SCRIPT runs as ``__main__``).

Why not ``ru_maxrss`` from ``os.wait4``: on Linux a child's ``ru_maxrss`` keeps the
high-water mark of the memory it had before ``exec``, which for a process spawned by
the bench is the bench's own (``exec`` folds the old address space's peak into the
process's maxrss). ``VmHWM`` in ``/proc/self/status`` is the peak of the address space
the script runs in, so a small child of a big parent reads as small. Stdlib only: it
runs under urlwatch's own virtualenv too.
"""

import atexit
import os
import runpy
import sys


def _write_hwm() -> None:
    with open("/proc/self/status") as fh:
        kib = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
    with open(os.environ["BENCH_HWM_FILE"], "w") as out:
        out.write(str(kib))


if __name__ == "__main__":
    atexit.register(_write_hwm)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
