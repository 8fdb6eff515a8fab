"""release-tracker benchmarks: watch cycles (and urlwatch side by side), site build,
extraction. Prints one table of figures and which targets are met.

    python bench/run.py [--pages 500] [--big-pages 5000] [--with-urlwatch] [--no-big]

Every cycle runs in a child process (``bench/cycle_child.py``) whose peak RSS is read
with ``os.wait4``; requests and bytes are counted by the bench's own page server on
127.0.0.1 (bytes on the wire: status line, headers and body). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import pages  # noqa: E402
import server  # noqa: E402
from procs import MIB, Run, child_env, compile_sources, fmt_run, measured, run_process  # noqa: E402
from report import (  # noqa: E402
    cycle_rows,
    evaluate,
    median,
    mem_sites,
    paired_ratios,
    print_import_profile,
    print_mem_sites,
    print_table,
    profile_top,
)
from sqlalchemy import insert  # noqa: E402

from claims.store.engine import make_engine  # noqa: E402
from claims.store.tables import Subject, SubjectAlias, Watch  # noqa: E402
from claims.values.canonical import dumps  # noqa: E402

# -- release-tracker ---------------------------------------------------------------


def setup_tracker(work: Path, n: int, base_url: str) -> Path:
    """A temp SQLite database with ``n`` subjects (name aliases) and ``n`` html_page watches."""
    db = work / "tracker.db"
    engine = make_engine(db)
    params = dumps(pages.WATCH_PARAMS)
    with engine.begin() as conn:
        conn.execute(
            insert(Subject),
            [{"id": i + 1, "slug": pages.slug(i), "name": pages.name(i)} for i in range(n)],
        )
        conn.execute(
            insert(SubjectAlias),
            [{"subject_id": i + 1, "namespace": "name", "alias": pages.name(i)} for i in range(n)],
        )
        conn.execute(
            insert(Watch),
            [
                {
                    "name": f"card-{i:05d}",
                    "adapter": "html_page",
                    "url": f"{base_url}/m/{i}",
                    "params_json": params,
                    "interval_minutes": 60,
                    "state": "new",
                    "consecutive_failures": 0,
                }
                for i in range(n)
            ],
        )
    engine.dispose()
    return db


def ours(site: server.PageSite, work: Path, profile: Path | None = None) -> Run:
    cmd = [
        sys.executable,
        str(HERE / "cycle_child.py"),
        str(work / "tracker.db"),
        str(work / "snaps"),
    ]
    if profile:
        cmd += ["--profile", str(profile)]
    return measured(site, cmd, child_env())


# -- urlwatch ----------------------------------------------------------------------


class Urlwatch:
    """urlwatch in a throwaway virtualenv, with its urls, config and cache in ``work``."""

    def __init__(self, work: Path, n: int, base_url: str, venv: Path | None = None) -> None:
        """Install urlwatch into ``work/venv`` (or reuse ``venv``); write its files for
        ``n`` pages under ``base_url``."""
        self.work = work
        t0 = time.perf_counter()
        if venv is None:
            venv = work / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            # pip's warnings (e.g. about unreachable index folders in a machine's pip
            # config) are shown only when the install fails.
            pip = subprocess.run(
                [
                    str(venv / "bin" / "pip"),
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "urlwatch",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if pip.returncode != 0:
                sys.stderr.write(pip.stdout + pip.stderr)
                raise SystemExit(f"installing urlwatch failed (pip exit {pip.returncode})")
        self.venv = venv
        self.install_s = time.perf_counter() - t0
        self.exe = str(venv / "bin" / "urlwatch")
        self.version = subprocess.run(
            [self.exe, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
        jobs = [f"name: card {i}\nurl: {base_url}/m/{i}\n" for i in range(n)]
        (work / "urls.yaml").write_text("---\n".join(jobs))
        # No filters; the default stdout report (its output is discarded by the bench).
        (work / "urlwatch.yaml").write_text(
            "report:\n  stdout:\n    enabled: true\n    color: false\n"
        )
        self.env = child_env()
        for var in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            self.env[var] = str(work)

    def run(self, site: server.PageSite) -> Run:
        w = self.work
        cmd = [
            str(self.venv / "bin" / "python"),
            self.exe,
            "--urls", str(w / "urls.yaml"),
            "--config", str(w / "urlwatch.yaml"),
            "--cache", str(w / "cache.db"),
            "--hooks", str(w / "hooks.py"),
        ]  # fmt: skip
        return measured(site, cmd, self.env)


# -- the cycle bench ---------------------------------------------------------------

SCENARIOS = ("first", "unchanged", "changed10")
MEM: dict[int, dict | None] = {}  # pages -> mem_sites() of that run
# pages -> {tool: {scenario: [Run per repetition]}}; repetition i of both tools ran
# back to back, so their ratio is paired (the same machine conditions).
RUNS: dict[int, dict[str, dict[str, list[Run]]]] = {}


def cycle_bench(
    n: int, with_urlwatch: bool, tmp: Path, repeat: int = 1
) -> dict[str, dict[str, Run]]:
    """Run the three scenarios over ``n`` pages ``repeat`` times (each time on fresh pages,
    a fresh database and a fresh urlwatch cache; who goes first alternates); returns
    {tool: {scenario: the run with the median wall time}}. Every run is printed."""
    runs: dict[str, dict[str, list[Run]]] = {"ours": {sc: [] for sc in SCENARIOS}}
    venv: Path | None = None
    for rep in range(repeat):
        site = server.PageSite(n)
        with server.serve(site) as base:
            work = tmp / f"ours-{n}-{rep}"
            work.mkdir()
            setup_tracker(work, n, base)
            uw = None
            if with_urlwatch:
                runs.setdefault("urlwatch", {sc: [] for sc in SCENARIOS})
                uwork = tmp / f"urlwatch-{n}-{rep}"
                uwork.mkdir()
                if venv is None:
                    print(f"  installing urlwatch into a throwaway venv ({tmp})...", flush=True)
                uw = Urlwatch(uwork, n, base, venv=venv)
                if venv is None:
                    print(f"  {uw.version} installed in {uw.install_s:.0f} s", flush=True)
                venv = uw.venv
            tools: list[tuple[str, Callable[[], Run]]] = [
                ("ours", functools.partial(ours, site, work))
            ]
            if uw is not None:
                tools.append(("urlwatch", functools.partial(uw.run, site)))
                if rep % 2:
                    tools.reverse()
            for scenario in SCENARIOS:
                if scenario == "changed10":
                    site.change(list(range(0, n, 10)))
                for tool, run in tools:
                    r = run()
                    runs[tool][scenario].append(r)
                    print(f"  {tool:<9} {n:>5} {scenario:<10} {fmt_run(r)}", flush=True)
            if rep == 0:
                MEM[n] = mem_sites(work)
    RUNS[n] = runs
    return {
        tool: {sc: sorted(rs, key=lambda r: r.wall_s)[len(rs) // 2] for sc, rs in by_sc.items()}
        for tool, by_sc in runs.items()
    }


def import_baseline() -> int:
    """Peak RSS (bytes) of a child that only imports what a cycle imports."""
    cmd = [sys.executable, str(HERE / "cycle_child.py"), "-", "-", "--import-only"]
    _, rss, _, _, _ = run_process(cmd, child_env())
    return rss


# -- site build and extraction -----------------------------------------------------


def site_bench(tmp: Path, profile_missed: bool = True) -> dict | None:
    """Full build pages/s and one-claim rebuild seconds (bench/site_bench.py's data:
    1,000 subjects x 30 claims with verdicts), or None when tracker.website is absent."""
    try:
        from tracker.website import build_site
    except ImportError:
        return None
    import site_bench as sb

    engine = make_engine(tmp / "site.db")
    sb.populate(engine)
    out = tmp / "site"
    cache = sb.cache_dir_of(out)  # where `tracker build --out OUT` keeps its build cache
    sb.clear_build_caches()
    load_full = os.getloadavg()[0]
    t0, c0, h0 = time.perf_counter(), time.process_time(), sb.children_cpu()
    report = build_site(engine, out, now=sb.NOW, cache_dir=cache)
    full, full_cpu = time.perf_counter() - t0, time.process_time() - c0
    helper_cpu = sb.children_cpu() - h0  # its second process (forked renderer or writer)
    n_pages = report.pages_written + report.pages_unchanged
    sb.touch_one_claim(engine)
    t0, c0 = time.perf_counter(), time.process_time()
    report2 = build_site(engine, out, now=sb.NOW, cache_dir=cache)
    one, one_cpu = time.perf_counter() - t0, time.process_time() - c0
    # Cold: another change, nothing kept in memory from the builds above (a new
    # `tracker build`); the build cache on disk is kept, as it is between processes.
    sb.touch_one_claim(engine, "A third lab")
    sb.clear_build_caches()
    t0, c0 = time.perf_counter(), time.process_time()
    build_site(engine, out, now=sb.NOW, cache_dir=cache)
    one_cold, one_cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    # A real new process: `tracker build` after a fourth change, start-up included.
    sb.touch_one_claim(engine, "A fourth lab")
    engine.dispose()
    load_one = os.getloadavg()[0]
    one_process, one_process_cpu = sb.tracker_build(tmp / "site.db", out)
    startup, startup_cpu = sb.startup_seconds()
    profile = None
    if profile_missed and n_pages / full < 1000:
        import cProfile

        # Profile a 100-subject build (same shape, a tenth of the time).
        small = make_engine(tmp / "site-small.db")
        full_size, sb.SUBJECTS = sb.SUBJECTS, 100
        try:
            sb.populate(small)
        finally:
            sb.SUBJECTS = full_size
        prof_path = tmp / "site.prof"
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        build_site(small, tmp / "site-profiled", now=sb.NOW)
        prof.disable()
        small.dispose()
        prof.dump_stats(str(prof_path))
        profile = profile_top(prof_path)
    return {
        "subjects": sb.SUBJECTS,
        "claims": sb.SUBJECTS * sb.CLAIMS_PER_SUBJECT,
        "pages": n_pages,
        "full_s": full,
        "full_cpu_s": full_cpu,
        "full_helper_cpu_s": helper_cpu,
        "profile": profile,
        "pages_per_s": n_pages / full,
        "one_claim_s": one,
        "one_claim_cpu_s": one_cpu,
        "one_claim_cold_s": one_cold,
        "one_claim_cold_cpu_s": one_cold_cpu,
        "one_claim_process_s": one_process,
        "one_claim_process_cpu_s": one_process_cpu,
        "startup_s": startup,
        "startup_cpu_s": startup_cpu,
        "load_full": load_full,
        "load_one": load_one,
        "rewritten": report2.pages_written,
        "rendered": getattr(report2, "pages_rendered", None),
    }


def extract_bench() -> str | None:
    """Output of bench/extract_bench.py (written with the extraction work), if present."""
    script = HERE / "extract_bench.py"
    if not script.exists():
        return None
    _, _, text, rc, _ = run_process([sys.executable, str(script)], child_env())
    return text.strip() if rc == 0 else f"extract_bench.py failed (exit {rc})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--pages", type=int, default=500, help="pages in the main cycle bench (500)")
    ap.add_argument("--big-pages", type=int, default=5000, help="pages in the growth run (5000)")
    ap.add_argument("--no-big", action="store_true", help="skip the growth run")
    ap.add_argument("--with-urlwatch", action="store_true", help="also run urlwatch (pip install)")
    ap.add_argument("--no-profile", action="store_true", help="no cProfile of missed speed targets")
    ap.add_argument("--no-site", action="store_true", help="skip the site build bench")
    ap.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="runs of each scenario at --pages; medians (and median paired ratios) are "
        "reported (5: the machine's speed swings between runs)",
    )
    args = ap.parse_args(argv)
    started = time.perf_counter()
    print(
        f"release-tracker bench: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC"
    )
    compile_sources()
    with tempfile.TemporaryDirectory(prefix="rt-bench-") as tmpname:
        tmp = Path(tmpname)
        base_rss = import_baseline()
        print(f"\nwatch cycle, {args.pages} pages (~2 KB each) on 127.0.0.1")
        small = cycle_bench(args.pages, args.with_urlwatch, tmp, max(1, args.repeat))
        big = None
        if not args.no_big:
            print(f"\nwatch cycle, {args.big_pages} pages")
            big = cycle_bench(args.big_pages, False, tmp)
        site = None
        if not args.no_site:
            print("\nsite build (1,000 subjects x 30 claims)...", flush=True)
            site = site_bench(tmp, profile_missed=not args.no_profile)
        ext = extract_bench()

        header = [
            "run", "scenario", "wall s", "CPU s", "cycle s", "peak MiB", "requests", "304s",
            "bytes recv", "observations", "events",
        ]  # fmt: skip
        rows = [header, *cycle_rows(args.pages, small)]
        if big:
            rows += cycle_rows(args.big_pages, big)
        print_table(
            "Watch cycle (wall = whole process incl. start-up; cycle = run_check only)", rows
        )
        print(f"  import-only baseline of a cycle process: {base_rss / MIB:.1f} MiB peak RSS")
        if "urlwatch" in small:
            ratio_rows = [
                ["scenario", "wall ratio: paired median (range)", "of medians", "CPU ratio",
                 "peak RSS ratio"]
            ]  # fmt: skip
            for sc in SCENARIOS:
                o, u = small["ours"][sc], small["urlwatch"][sc]
                walls = paired_ratios(RUNS[args.pages], sc, "wall_s")
                cpus = paired_ratios(RUNS[args.pages], sc, "cpu_s")
                ratio_rows.append([
                    sc, f"{median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f})",
                    f"{o.wall_s / u.wall_s:.2f}", f"{median(cpus):.2f}", f"{o.rss / u.rss:.2f}",
                ])  # fmt: skip
            print_table(
                f"Side by side with urlwatch, {args.pages} pages (ours / urlwatch; a pair is "
                "one repetition, run back to back)",
                ratio_rows,
            )
        if site:
            print(
                f"\nSite build ({site['subjects']:,} subjects, {site['claims']:,} claims): "
                f"{site['pages']} pages in {site['full_s']:.2f} s = "
                f"{site['pages_per_s']:.0f} pages/s; {site['full_cpu_s']:.2f} CPU s = "
                f"{site['pages'] / site['full_cpu_s']:.0f} pages per CPU second "
                f"(+ {site['full_helper_cpu_s']:.2f} CPU s in its second process); one-claim rebuild "
                f"{site['one_claim_s']:.2f} s in the same process ({site['one_claim_cpu_s']:.2f} "
                f"CPU s, {site['rendered']} files rendered, {site['rewritten']} rewritten), "
                f"{site['one_claim_cold_s']:.2f} s cold (caches cleared; "
                f"{site['one_claim_cold_cpu_s']:.2f} CPU s), "
                f"{site['one_claim_process_s']:.2f} s in a new `tracker build` process "
                f"({site['one_claim_process_cpu_s']:.2f} CPU s; start-up and imports alone "
                f"{site['startup_s']:.2f} s, {site['startup_cpu_s']:.2f} CPU s); load average "
                f"{site['load_full']:.1f} at the full build, {site['load_one']:.1f} at the last"
            )
            if site["profile"]:
                print("cProfile (CPU time) of a 100-subject site build:")
                print(site["profile"])
        elif not args.no_site:
            print(
                "\nSite build: not available (tracker.website.build_site is not in this checkout)"
            )
        print(
            f"Extraction: {ext}"
            if ext
            else "Extraction: not available (bench/extract_bench.py absent)"
        )

        targets = evaluate(args, small, big, site, RUNS.get(args.pages), ext)
        print_table("Targets", [["target", "measured", "status"], *targets])
        if any(t[2] == "MISSED" and "RSS" in t[0] for t in targets):
            print_import_profile()
        if big and any(
            t[2] == "MISSED" and t[0].startswith(f"peak RSS at {args.big_pages}") for t in targets
        ):
            print_mem_sites(MEM.get(args.pages), args.pages)
            print_mem_sites(MEM.get(args.big_pages), args.big_pages)
        missed_time = [t for t in targets[:2] if t[2] == "MISSED"]
        if missed_time and not args.no_profile:
            profile_missed(tmp, min(args.pages, 200), missed_time)
    print(f"\nbench finished in {time.perf_counter() - started:.0f} s")
    return 0


def profile_missed(tmp: Path, n: int, missed: list[list[str]]) -> None:
    """Re-run the missed scenarios under cProfile on a fresh database; print top entries."""
    site = server.PageSite(n)
    with server.serve(site) as base:
        work = tmp / f"profile-{n}"
        work.mkdir()
        setup_tracker(work, n, base)
        for sc in ("first", "unchanged"):
            prof = work / f"{sc}.prof"
            ours(site, work, profile=prof)
            if any(m[0].startswith(sc) for m in missed):
                print(
                    f"\ncProfile (CPU time, workers run inline) of our {sc} cycle over {n} pages:"
                )
                print(profile_top(prof))


if __name__ == "__main__":
    raise SystemExit(main())
