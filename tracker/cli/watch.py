"""CLI commands around watches: `check` (one cycle), `record` (capture a HAR), `parse`
(re-run an adapter on recorded responses, as `scrapy parse` does)."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claims.values.timefmt import iso_z
from tracker.cli.common import (
    DataOpt,
    DbOpt,
    JsonOpt,
    console,
    err_console,
    friendly_errors,
    open_cycle_db,
    open_db,
    plain,
    plural,
    print_json,
)
from tracker.cli.failures import error_document
from tracker.errors import ConfigError
from tracker.settings import replayed_secrets
from tracker.snapshots.store import default_root, follows_database, legacy_roots, open_store

if TYPE_CHECKING:  # the cycle (httpx, adapters) and rich.progress load when a command runs
    from claims.store.rawdb import RawDB
    from tracker.cycle.run import WatchResult
    from tracker.cycle.types import CycleSummary

ReplayOpt = Annotated[
    Path | None,
    typer.Option("--replay", help="Serve responses from this HAR 1.2 file instead of the network."),
]
WatchOpt = Annotated[
    list[str] | None,
    typer.Option("--watch", "-w", metavar="<name>", help="Only this watch (repeatable)."),
]
SnapOpt = Annotated[
    Path | None,
    typer.Option(
        "--snapshots",
        help="Folder of the content-addressed snapshot store (SQLite databases; default: "
        "snapshots/ beside the database file, data/snapshots for the default database).",
        show_default=False,
    ),
]


def _client(replay: Path | None) -> tuple[Any, dt.datetime | None]:
    """(HTTP client, the cycle's clock): a replay's clock is the time its recording was
    made (the latest response's), so everything the cycle writes — a failed watch's
    health and events included — carries the recorded time, as the successes do (one
    clock per cycle, issue 16); a live cycle's is None (the wall clock)."""
    from tracker.net.fetch import make_client
    from tracker.net.har import HarReplayTransport

    if replay is not None:
        if not replay.is_file():
            raise ConfigError(f"{replay}: no such HAR file")
        transport = HarReplayTransport(replay)
        return make_client(transport=transport), transport.latest_recorded_at()
    return make_client(), None


def _robots(replay: Path | None, client: Any) -> Any:
    """Live runs obey robots.txt (per watch policy); replays never ask for it."""
    if replay is not None:
        return None
    from tracker.net.robots import RobotsPolicy

    return RobotsPolicy.for_client(client)


def _results_printed_here() -> None:
    """The cycle logs each failed watch as a warning; a command that prints every result
    itself would show it twice (once through logging's last-resort stderr handler)."""
    import logging

    cycle_log = logging.getLogger("tracker.cycle.run")
    if not cycle_log.handlers:
        cycle_log.addHandler(logging.NullHandler())


def run_cycle(
    db: str | None,
    replay: Path | None,
    watch: list[str] | None,
    snapshots: Path | None,
    *,
    show_progress: bool,
    recorder: Any = None,
    on_result: Callable[[WatchResult], None] | None = None,
) -> CycleSummary:
    """One cycle over the watches (all, or those named), with a progress bar on a terminal.
    A replay checks only the watches it answers (all of those named, or refused: see
    :func:`tracker.cycle.replayorder.replay_selection`); the summary's
    ``not_in_recording`` names the others, left as stored.

    With ``on_result`` each watch's result is handed to it as it is recorded and the
    summary keeps only the totals (thousands of watches hold no per-watch state)."""
    keep = on_result is None
    _results_printed_here()
    raw = open_cycle_db(db)  # plain DB-API: `tracker check` never loads the ORM
    try:
        not_covered: list[str] = []
        if replay is not None and replay.is_file():  # a missing file: the cycle says so
            from tracker.cycle.replayorder import replay_selection

            watch, not_covered = replay_selection(raw, replay, watch)
        store = open_store(db, snapshots)  # bodies follow the database
    except BaseException:
        raw.close()
        raise
    # A replayed response needs no key (the key only matters live): as in the demo, an
    # unset credential reads as the replay key while replaying.
    secrets = replayed_secrets() if replay is not None else contextlib.nullcontext()
    try:
        with secrets:
            summary = _cycle(raw, replay, watch, store, show_progress, on_result, keep)
        summary.not_in_recording = not_covered
        return summary
    finally:
        store.close()
        raw.close()


def _cycle(
    raw: RawDB,
    replay: Path | None,
    watch: list[str] | None,
    store: Any,
    show_progress: bool,
    on_result: Callable[[WatchResult], None] | None,
    keep: bool,
) -> CycleSummary:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from tracker.cycle.run import run_check

    client, now = _client(replay)
    robots = _robots(replay, client)
    if not show_progress:
        with client:
            return run_check(
                raw, client, snapshot_store=store, watch_names=watch, robots=robots,
                progress=on_result, keep_results=keep, now=now,
            )  # fmt: skip
    counted = raw.one("SELECT count(*) FROM watch")
    total = len(watch) if watch else int(counted[0] if counted else 0)
    with (
        client,
        Progress(
            TextColumn("[bold]checking[/bold] {task.fields[name]}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        ) as bar,
    ):
        task = bar.add_task("check", total=total, name="")

        def step(r: WatchResult) -> None:
            bar.update(task, advance=1, name=r.name)
            if on_result is not None:
                on_result(r)

        return run_check(
            raw, client, snapshot_store=store, watch_names=watch, progress=step, robots=robots,
            keep_results=keep, now=now,
        )  # fmt: skip


def print_result(r: WatchResult) -> None:
    """One line for a watch that did not stay unchanged, and one per warning."""
    if r.outcome == "failed":
        console.print(
            f"  [red]failed[/red]  {plain(r.name)}: {r.error_kind}: {plain(r.error)}",
            highlight=False,
        )
    elif r.outcome == "skipped":
        console.print(
            f"  [yellow]skipped[/yellow] {plain(r.name)}: {plain(r.error)}", highlight=False
        )
    elif r.outcome == "changed":
        console.print(
            f"  [green]changed[/green] {plain(r.name)}: {plural(r.observations, 'new observation')}, "
            f"{plural(r.events, 'event')}"
        )
    for w in r.warnings:
        console.print(f"  [yellow]warning[/yellow] {plain(r.name)}: {plain(w)}", highlight=False)


def print_summary(summary: CycleSummary) -> None:
    """Human summary of a cycle: :func:`print_result` for each result it kept, then totals."""
    for r in summary.results:
        print_result(r)
    if summary.not_in_recording:  # once, not a line per watch: they were not checked
        n = len(summary.not_in_recording)
        console.print(
            f"  [yellow]not checked[/yellow] {plural(n, 'watch', 'watches')} the recording "
            f"has no answer for, left as stored: {plain(_listed(summary.not_in_recording))}",
            highlight=False,
        )
    # "new": first checks that found nothing to record (a never-run watch is not "unchanged")
    new = f"{summary.new} new, " if summary.new else ""
    console.print(
        f"checked {plural(summary.checked, 'watch', 'watches')}: {summary.changed} changed, "
        f"{summary.unchanged} unchanged, {new}"
        # "failed": this cycle's failures; a watch's state turns "failing" only after
        # several in a row (tracker watches), so the words differ on purpose
        f"{summary.failing} failed, {summary.skipped} skipped; "
        f"{plural(summary.observations, 'new observation')}, {plural(summary.events, 'event')}"
    )


def _listed(names: list[str], limit: int = 8) -> str:
    """``a, b, c and 5 more``."""
    if len(names) <= limit + 1:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f" and {len(names) - limit} more"


def alerts_next_line(db: str | None) -> str:
    """What to run after a cycle that stored events: ``next: `tracker alerts send --db
    X` delivers them``, with the ``--db`` given. `alerts send` reads data/subscriptions.toml
    by default; when that file is absent (and TRACKER_APPRISE_URLS unset) the line says to
    add ``--data DIR``, the folder `tracker track --data DIR --subscribe URL` wrote to."""
    from tracker.alerts.subscriptions import subscriptions_path
    from tracker.settings import apprise_urls

    on_db = "" if db is None else f" --db {shlex.quote(str(db))}"
    line = f"next: `tracker alerts send{on_db}` delivers them"
    if not subscriptions_path().is_file() and not apprise_urls():
        line += " (add --data DIR: the folder whose subscriptions.toml says where they go)"
    return line


@friendly_errors
def check(
    replay: ReplayOpt = None,
    watch: WatchOpt = None,
    db: DbOpt = None,
    snapshots: SnapOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Run one cycle over all watches: fetch, store snapshots, read observations.

    A failed fetch or an extraction that finds nothing never records a value or a
    subscriber event; the watch's health records the error instead. Exit status: 0
    no watch failed; 3 some failed (the others are recorded); 1 every watch checked
    failed (skipped watches, e.g. a missing API key, do not count).
    """
    if replay is not None and replay.is_file():  # answers dated in the future: refused
        from claims.values.canonical import utcnow
        from tracker.net.har import HarReplayTransport

        HarReplayTransport(replay).refuse_future(utcnow())
    # Plain output prints each watch's line as it is recorded; --json needs every result.
    summary = run_cycle(
        db, replay, watch, snapshots, show_progress=not json_out and sys.stdout.isatty(),
        on_result=None if json_out else print_result,
    )  # fmt: skip
    if json_out:
        print_json(summary.to_dict())
    else:
        print_summary(summary)
        if summary.events:
            console.print(alerts_next_line(db), highlight=False, markup=False)
    if summary.failing:  # scripts and cron see it, as with `tracker record`
        raise typer.Exit(1 if summary.failing == summary.checked - summary.skipped else 3)


@friendly_errors
def record(
    out: Annotated[Path, typer.Option("--out", help="HAR file to write.")],
    watch: WatchOpt = None,
    db: DbOpt = None,
    snapshots: SnapOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Run one live cycle and save every HTTP exchange as HAR 1.2.

    Replay it later with `tracker check --replay FILE` to get the same observations
    offline. Credential headers are never written. Exit status: 0 every watch recorded;
    3 some watches failed (the others are recorded); 1 none succeeded, and FILE is
    left as it was (not created, not overwritten).
    """
    from tracker.cycle.offline import failed_names, record_check
    from tracker.cycle.types import CycleSummary
    from tracker.errors import NothingRecorded

    _results_printed_here()
    try:
        summary, path = record_check(
            open_db(db, write=True),
            out,
            snapshot_store=open_store(db, snapshots),
            watch_names=watch,
        )
    except NothingRecorded as exc:
        assert isinstance(exc.summary, CycleSummary)  # record_check's (errors.py sits below it)
        if not json_out:
            _show_record(exc.summary, None, json_out)
            raise  # friendly_errors: one `error:` line, exit 1
        # one JSON document: the error, with the cycle's summary beside it
        print_json({**error_document(exc.kind, str(exc)), "har": None,
                    **exc.summary.to_dict()})  # fmt: skip
        err_console.print(f"error: {exc}", markup=False)
        raise typer.Exit(1) from None
    _show_record(summary, path, json_out)
    if summary.failing:
        err_console.print(
            f"warning: {summary.failing} of {summary.checked} watches failed "
            f"({failed_names(summary)}); {path} holds the others",
            markup=False,
        )
        raise typer.Exit(3)


def _show_record(summary: CycleSummary, path: Path | None, json_out: bool) -> None:
    if json_out:
        print_json({"har": str(path) if path else None, **summary.to_dict()})
        return
    print_summary(summary)
    if path is not None:
        console.print(f"recorded to {path}")


@friendly_errors
def parse(
    adapter: Annotated[
        str,
        typer.Argument(
            metavar="ADAPTER",
            help="Adapter kind, e.g. huggingface_org, openrouter_models, html_page.",
        ),
    ],
    har: Annotated[Path, typer.Option("--har", help="HAR file with the recorded response(s).")],
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="Only this recorded URL (default: the URLs of this adapter's watches in --data, else every URL).",
        ),
    ] = None,
    params: Annotated[
        str | None,
        typer.Option(
            "--params",
            help="The watch's params as JSON (default: those of the matching watch in --data).",
        ),
    ] = None,
    data: DataOpt = Path("data"),
    json_out: JsonOpt = False,
) -> None:
    """Re-run an adapter on recorded responses and print what it reads (no database)."""
    from tracker.cycle.offline import parse_har

    try:
        watch_params = json.loads(params) if params is not None else None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--params: not JSON ({exc})") from exc
    jobs = _parse_targets(adapter, har, url, watch_params, data)
    out: list[dict[str, Any]] = []
    pages = [p for target, ps in jobs for p in parse_har(adapter, har, url=target, params=ps)]
    for page in pages:
        if page.result is None:
            out.append(
                {
                    "url": page.url,
                    "error": f"{page.error_kind}: {page.error}",
                    "values": [],
                    "warnings": [],
                }
            )
            continue
        out.append(
            {
                "url": page.url,
                "fetched_at": iso_z(page.fetched_at) or None,
                "next_url": page.result.next_url,
                "warnings": list(page.result.warnings),
                "values": [
                    {
                        "subject_ref": list(v.subject_ref),
                        "attribute": v.attribute,
                        "qualifiers": dict(v.qualifiers),
                        "value": v.value.to_dict(),
                        "display": v.value.display(),
                    }
                    for v in page.result.values
                ],
            }
        )
    if json_out:
        print_json(out)
        return
    for shown in out:
        console.print(f"[bold]{plain(shown['url'])}[/bold]", highlight=False)
        if "error" in shown:
            console.print(f"  [red]{plain(shown['error'])}[/red]", highlight=False)
        for v in shown["values"]:
            q = ", ".join(f"{k}={val}" for k, val in v["qualifiers"].items())
            console.print(
                plain(f"  {':'.join(v['subject_ref'])}  {v['attribute']}  {v['display']}  {q}"),
                highlight=False,
            )
        for w in shown["warnings"]:
            console.print(f"  [yellow]warning[/yellow] {plain(w)}", highlight=False)


def _parse_targets(
    adapter: str, har: Path, url: str | None, params: dict[str, Any] | None, data: Path
) -> list[tuple[str | None, dict[str, Any]]]:
    """Which recorded URLs to parse, with which params: ``--url`` as given; otherwise the
    URLs of the curated watches of this adapter that the HAR holds (with their params);
    otherwise every recorded URL."""
    if url is not None:
        return [(url, params or {})]
    from claims.curated.loader import load_data
    from tracker.net.har import HarReplayTransport

    recorded = set(HarReplayTransport(har).urls())
    watches = load_data(data).watches if (data / "watches.toml").is_file() else []
    mine: list[tuple[str | None, dict[str, Any]]] = [
        (w.url, params if params is not None else w.params)
        for w in watches
        if w.adapter == adapter and w.url in recorded
    ]
    return mine or [(None, params or {})]


@friendly_errors
def snapshot(
    sha: Annotated[
        str,
        typer.Argument(
            metavar="SHA256",
            help="The snapshot's sha256, or its start as the site shows it (e.g. 3f2a9c41).",
        ),
    ],
    snapshots: SnapOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the body to this file instead.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Print the body a watch fetched (a snapshot), as it was received.

    Bodies follow the database: on PostgreSQL they are read from it (--db or
    $TRACKER_DATABASE_URL), on SQLite from the --snapshots folder (default: snapshots/
    beside the database file). A digest found nowhere is an error naming where it looked."""
    with open_store(db, snapshots) as store:
        try:
            found = store.find(sha.lower())
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if not found:
            raise ConfigError(_not_found(sha, db, snapshots))
        if len(found) > 1:
            raise ConfigError(
                f"{sha} is the start of several snapshots ({', '.join(f[:12] for f in found)}"
                "...); give more of the digest"
            )
        body = store.get(found[0])
    if out is not None:
        out.write_bytes(body)
        console.print(f"wrote {len(body):,} bytes of snapshot {found[0][:12]} to {out}")
        return
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()


def _not_found(sha: str, db: str | None, snapshots: Path | None) -> str:
    """The error of a lookup that found nothing: where it looked (the database, or the
    folder as an absolute path) and, when the current folder has the ``data/snapshots/``
    earlier releases filed every database's bodies in (:func:`legacy_roots`) holds ``sha``,
    that place."""
    if follows_database(db):
        return f"no snapshot starting with {sha} in the database"
    root = default_root(db) if snapshots is None else snapshots
    message = f"no snapshot starting with {sha} in {root.resolve()}"
    from tracker.snapshots.store import SnapshotStore

    for legacy in legacy_roots(root):
        with SnapshotStore(legacy) as old:
            if old.find(sha.lower()):
                return message + (
                    f"; {legacy.resolve()} holds it (earlier versions stored every "
                    f"database's bodies there): pass --snapshots {legacy}"
                )
    return message


def register(app: typer.Typer) -> None:
    """Add check, record, parse and snapshot to the main app."""
    app.command()(check)
    app.command()(record)
    app.command()(parse)
    app.command()(snapshot)
