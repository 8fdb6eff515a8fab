"""One release-tracker check cycle in its own process, so the bench can read its peak RSS.

Usage: ``python bench/cycle_child.py DB SNAPSHOT_DIR [--profile FILE] [--import-only]``.
Prints one JSON line: cycle seconds, watches checked/changed/unchanged/failing, new
observation rows and events (the cycle's own counts).
"""

from __future__ import annotations

import argparse
import json
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("snapshots")
    ap.add_argument("--profile", help="write cProfile stats of the cycle to this file")
    ap.add_argument("--import-only", action="store_true", help="import everything, run nothing")
    ap.add_argument("--import-profile", action="store_true", help="RSS after each big import")
    ap.add_argument(
        "--mem-sites",
        action="store_true",
        help="check one watch under tracemalloc; print the top allocation sites alive then",
    )
    args = ap.parse_args()
    if args.import_profile:
        print(json.dumps(import_profile()))
        return

    from claims.store.rawdb import RawDB
    from tracker.cycle.run import run_check
    from tracker.net.fetch import FetchSettings, make_client
    from tracker.snapshots.store import SnapshotStore

    if args.import_only:
        from tracker.adapters.base import get_adapter

        get_adapter("html_page")  # what a cycle over the bench's watches loads

        print(json.dumps({"cycle_s": 0.0}))
        return
    # The lean path `tracker check` and the scheduler use: plain DB-API, no ORM.
    engine = RawDB.open(args.db)
    store = SnapshotStore(args.snapshots)
    if args.mem_sites:
        print(json.dumps(mem_sites(engine, store, run_check, make_client, FetchSettings)))
        return
    prof = None
    if args.profile:
        import cProfile

        prof = cProfile.Profile(time.process_time)  # CPU time: robust to a busy machine
        _run_workers_inline()
    t0 = time.perf_counter()
    # The bench server is local and stands in for many sites: no per-host politeness
    # interval or per-host cap (urlwatch has neither); watches fetched at once as set by
    # TRACKER_CONCURRENCY (default 8), like urlwatch's 10 workers. It is on 127.0.0.1,
    # which the fetch policy refuses unless allowed (without it no page was fetched).
    settings = FetchSettings.from_env()
    settings = FetchSettings(
        allow_private=True,
        min_interval=0.0,
        max_concurrent=settings.max_concurrent,
        max_concurrent_per_host=settings.max_concurrent,
    )
    with make_client(settings) as client:
        if prof:
            prof.enable()
        # As `tracker check` without --json: results go to a callback as they are
        # recorded (the CLI prints them), the summary keeps only the totals.
        errors: set[str] = set()

        def seen(r):  # type: ignore[no-untyped-def]
            if r.error_kind:
                errors.add(r.error_kind)

        summary = run_check(engine, client, snapshot_store=store, progress=seen, keep_results=False)
        if prof:
            prof.disable()
    cycle_s = time.perf_counter() - t0
    if prof:
        prof.dump_stats(args.profile)
    engine.close()
    out = {k: v for k, v in summary.to_dict().items() if k != "results"}
    print(json.dumps({"cycle_s": cycle_s, **out, "error_kinds": sorted(errors)}))


def mem_sites(engine, store, run_check, make_client, settings_cls) -> dict:  # type: ignore[no-untyped-def]
    """Traced memory while run_check holds what it loaded up front (snapshot taken when the
    first watch is done), with the top allocation sites in MiB."""
    import tracemalloc

    first = engine.one("SELECT name FROM watch ORDER BY name LIMIT 1")[0]
    taken: list[tracemalloc.Snapshot] = []
    tracemalloc.start()
    with make_client(settings_cls(min_interval=0.0)) as client:
        run_check(
            engine,
            client,
            snapshot_store=store,
            watch_names=[first],
            progress=lambda _r: taken.append(tracemalloc.take_snapshot()),
        )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    stats = taken[0].statistics("filename")[:6]
    return {
        "peak_mib": peak / 2**20,
        "sites": [(str(st.traceback[0].filename), st.size / 2**20, st.count) for st in stats],
    }


class _InlineExecutor:
    """Stands in for ThreadPoolExecutor under the profiler: runs each job at submit, in
    the calling thread (cProfile sees only the thread that enabled it)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __enter__(self) -> _InlineExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller like a pool would
            future.set_exception(exc)
        return future


def _run_workers_inline() -> None:
    import tracker.cycle.run

    tracker.cycle.run.ThreadPoolExecutor = _InlineExecutor  # type: ignore[attr-defined,misc]


IMPORTS = (
    "sqlite3",
    "httpx",
    "lxml.etree",
    "claims.store.rawdb",
    "tracker.cycle.run",
    "tracker.adapters",
)


def _rss_kib() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def import_profile() -> list[tuple[str, int]]:
    """[(module, RSS KiB after importing it)], starting with the bare interpreter."""
    import importlib

    out = [("python", _rss_kib())]
    for name in IMPORTS:
        importlib.import_module(name)
        out.append((name, _rss_kib()))
    return out


if __name__ == "__main__":
    main()
