"""Bench report: tables, targets met/missed, and the profiles that say why."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from procs import HERE, MIB, ROOT, Run, child_env, run_process


def print_table(title: str, rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"\n{title}")
    for j, r in enumerate(rows):
        print(
            "  "
            + "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
        if j == 0:
            print("  " + "  ".join("-" * w for w in widths))


def cycle_rows(n: int, res: dict[str, dict[str, Run]]) -> list[list[str]]:
    rows = []
    for tool, runs in res.items():
        for scenario, r in runs.items():
            obs = str(r.out.get("observations", "")) if tool == "ours" else "-"
            ev = str(r.out.get("events", "")) if tool == "ours" else "-"
            rows.append(
                [
                    f"{tool} {n}",
                    scenario,
                    f"{r.wall_s:.2f}",
                    f"{r.cpu_s:.2f}",
                    f"{r.out['cycle_s']:.2f}" if "cycle_s" in r.out else "-",
                    f"{r.rss / MIB:.1f}",
                    str(r.requests),
                    str(r.not_modified),
                    f"{r.bytes:,}",
                    obs,
                    ev,
                ]
            )
    return rows


def profile_top(path: Path, limit: int = 12) -> str:
    """Two views of a cProfile file: the project's own functions by cumulative CPU time
    (where the time goes, in our terms), then every function by own time (what it is)."""
    import pstats

    stats = pstats.Stats(str(path))
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = stats.stats  # type: ignore[attr-defined]
    ours = sorted(
        ((ct, nc, f"{Path(fn).relative_to(ROOT)}:{ln}({name})")
         for (fn, ln, name), (_cc, nc, _tt, ct, _callers) in rows.items()
         if fn.startswith(str(ROOT)) and "/.venv/" not in fn and "/bench/" not in fn),
        reverse=True,
    )[:limit]  # fmt: skip
    lines = [f"    total {total:.2f} CPU s profiled; project functions by cumulative time:"]
    lines += [
        f"    {ct:8.2f} s {100 * ct / total:5.1f} %  {nc:>7} calls  {where}"
        for ct, nc, where in ours
    ]
    own = sorted(
        ((tt, nc, f"{fn.split('site-packages/')[-1]}:{ln}({name})")
         for (fn, ln, name), (_cc, nc, tt, _ct, _callers) in rows.items()),
        reverse=True,
    )[:limit]  # fmt: skip
    lines.append("    all functions by own time:")
    lines += [
        f"    {tt:8.2f} s {100 * tt / total:5.1f} %  {nc:>7} calls  {where}"
        for tt, nc, where in own
    ]
    return "\n".join(ln[:160] for ln in lines)


def paired_ratios(runs: dict, scenario: str, field: str) -> list[float]:
    """ours / urlwatch of ``field`` (``wall_s``, ``cpu_s``) for each repetition of
    ``scenario``: the two runs of a pair ran back to back, under the same load."""
    return [
        getattr(o, field) / getattr(u, field)
        for o, u in zip(runs["ours"][scenario], runs["urlwatch"][scenario], strict=True)
    ]


def median(xs: list[float]) -> float:
    s = sorted(xs)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def evaluate(args, small, big, site, runs=None, extraction: str | None = None) -> list[list[str]]:
    """Rows (target, measured, status). The time ratios are the median of the paired
    per-repetition ratios when ``runs`` (bench.run.RUNS[pages]) is given, else the
    ratio of the two medians."""
    out: list[list[str]] = []
    o = small["ours"]
    for sc in ("first", "unchanged"):
        if "urlwatch" in small:
            if runs:
                ratio = median(paired_ratios(runs, sc, "wall_s"))
            else:
                ratio = o[sc].wall_s / small["urlwatch"][sc].wall_s
            out.append([f"{sc} cycle wall <= 0.5 x urlwatch", f"{ratio:.2f} x", met(ratio <= 0.5)])
        else:
            out.append([f"{sc} cycle wall <= 0.5 x urlwatch", "not run", "n/a (--with-urlwatch)"])
    share = o["unchanged"].bytes / o["first"].bytes
    body = o["unchanged"].body_bytes / o["first"].body_bytes
    out.append(
        [
            "unchanged-cycle bytes < 5 % of first",
            f"{share:.1%} on the wire ({body:.0%} of body bytes)",
            met(share < 0.05),
        ]
    )
    peak_small = max(r.rss for r in o.values())
    out.append(
        [
            f"peak RSS < 60 MiB at {args.pages}",
            f"{peak_small / MIB:.1f} MiB",
            met(peak_small < 60 * MIB),
        ]
    )
    if big:
        peak_big = max(r.rss for r in big["ours"].values())
        growth = peak_big / peak_small - 1
        out.append(
            [f"peak RSS at {args.big_pages} <= +10 %", f"{growth:+.1%}", met(growth <= 0.10)]
        )
    if site:
        out.append(
            [
                "site build >= 1,000 pages/s",
                f"{site['pages_per_s']:.0f} pages/s",
                met(site["pages_per_s"] >= 1000),
            ]
        )
        # Three rows, each judged on its own: the same process (the scheduler's), a
        # process whose caches were cleared, and a real new `tracker build` process.
        out.append(
            [
                "one-claim rebuild < 0.5 s, same process",
                f"{site['one_claim_s']:.2f} s ({site['one_claim_cpu_s']:.2f} CPU s)",
                met(site["one_claim_s"] < 0.5),
            ]
        )
        if "one_claim_cold_cpu_s" in site:
            out.append(
                [
                    "one-claim rebuild < 0.5 s, caches cleared",
                    f"{site['one_claim_cold_s']:.2f} s ({site['one_claim_cold_cpu_s']:.2f} CPU s)",
                    met(site["one_claim_cold_s"] < 0.5),
                ]
            )
            out.append(
                [
                    "one-claim rebuild < 0.5 s, new `tracker build`",
                    f"{site['one_claim_process_s']:.2f} s "
                    f"({site['one_claim_process_cpu_s']:.2f} CPU s)",
                    met(site["one_claim_process_s"] < 0.5),
                ]
            )
    else:
        out.append(["site build >= 1,000 pages/s", "not run", "n/a"])
    # extract_bench.py's first line is the 10 KB article: "... median 21.9 ms wall ..."
    m = re.search(r"median ([\d.]+) ms wall", extraction or "")
    if m:
        ms = float(m.group(1))
        out.append(["extraction of a 10 KB article < 50 ms median", f"{ms:.1f} ms", met(ms < 50)])
    else:
        out.append(["extraction of a 10 KB article < 50 ms median", "not run", "n/a"])
    return out


def met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def print_import_profile() -> None:
    """Why the RSS floor is where it is: RSS growth per imported library (a child)."""

    cmd = [sys.executable, str(HERE / "cycle_child.py"), "-", "-", "--import-profile"]
    _, _, text, _, _ = run_process(cmd, child_env())
    steps = json.loads(text.strip().splitlines()[-1])
    print("\nRSS profile of a cycle process's imports (MiB after each import, +growth):")
    prev = 0
    for name, kib in steps:
        print(f"    {name:<14} {kib / 1024:6.1f}  (+{(kib - prev) / 1024:.1f})")
        prev = kib


def mem_sites(work: Path) -> dict | None:
    """What run_check holds after its up-front loads (a child checks one watch under
    tracemalloc): peak traced MiB and the top files by size."""

    cmd = [sys.executable, str(HERE / "cycle_child.py"), str(work / "tracker.db"),
           str(work / "snaps"), "--mem-sites"]  # fmt: skip
    _, _, text, rc, _ = run_process(cmd, child_env())
    return json.loads(text.strip().splitlines()[-1]) if rc == 0 else None


def print_mem_sites(data: dict | None, n: int) -> None:
    """Why RSS grows with the number of watches (see :func:`mem_sites`)."""
    if data is None:
        print(f"  (memory sites at {n} watches: child failed)")
        return
    print(f"\ntracemalloc, {n} watches: peak {data['peak_mib']:.1f} MiB traced; alive after the"
          " first watch (run_check's up-front loads), top files:")  # fmt: skip
    for name, mib, count in data["sites"]:
        short = name.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
        print(f"    {mib:6.2f} MiB  {count:>7} blocks  {short}")
