"""CLI commands ``tracker schedule`` (the daemon) and ``tracker watches`` (the listing).

Registered on the main app by :func:`register`.
"""

from __future__ import annotations

import datetime as dt
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from claims.values.canonical import utcnow
from tracker.cli.common import (
    DbOpt,
    JsonOpt,
    console,
    friendly_errors,
    open_db,
    print_json,
    print_table,
    whole_word_widths,
)
from tracker.cli.values import utc_minute

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

log = logging.getLogger("tracker.schedule.daemon")

JobsOpt = Annotated[
    str,
    typer.Option(
        "--jobs",
        metavar="<module:function>",
        help="What each run does, for developers: a Python function (given the database "
        "engine, returning tracker.schedule.jobs.Jobs). The default checks the watch, then "
        "verifies, rebuilds the site and sends alerts.",
    ),
]
DataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="Data folder whose subscriptions.toml alerts go to, as `track`/`load` take "
        "it (default data/).",
        show_default=False,
    ),
]

_handler: logging.Handler | None = None


def _setup_logging() -> None:
    """Log lines to stderr for the daemon (once per process, however often it is called)."""
    global _handler
    # APScheduler's own INFO lines repeat ours ("Adding job tentatively" per watch) and
    # say "executed successfully" after a watch that failed: only its warnings show.
    levels = {"tracker": logging.INFO, "apscheduler": logging.WARNING}
    for name, level in levels.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        if _handler is not None:
            logger.removeHandler(_handler)
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("tracker", "apscheduler"):
        logging.getLogger(name).addHandler(_handler)


@friendly_errors
def schedule_cmd(
    db: DbOpt = None,
    jobs: JobsOpt = "tracker.schedule.jobs:default_jobs",
    jitter: Annotated[int, typer.Option(help="Random delay 0..N s added to each run.")] = 30,
    workers: Annotated[int, typer.Option(help="Watch runs at the same time.")] = 4,
    site_interval: Annotated[
        int, typer.Option(help="Rebuild the site at least every N minutes.")
    ] = 24 * 60,
    settle: Annotated[float, typer.Option(help="Seconds after a run before rebuilding.")] = 5.0,
    heartbeat: Annotated[
        float,
        typer.Option(
            help="How often, in seconds, this scheduler records that it is still running "
            "(renews its claim to the database)."
        ),
    ] = 30.0,
    lock_ttl: Annotated[
        float,
        typer.Option(
            help="Seconds without that record after which another scheduler may take "
            "over (this one is taken to have crashed)."
        ),
    ] = 120.0,
    out: Annotated[Path, typer.Option("--out", help="Folder the site is rebuilt into.")] = Path(
        "site"
    ),
    data: DataOpt = None,
    snapshots: Annotated[
        Path | None,
        typer.Option(
            "--snapshots",
            help="Folder of the content-addressed snapshot store (SQLite databases; default: "
            "snapshots/ beside the database file).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run every watch on its schedule until SIGTERM/SIGINT (then finish, commit, exit 0).

    Only one scheduler runs per database: a second one logs who holds it and exits 1.
    """
    from tracker.schedule.daemon import Scheduler, ScheduleSettings
    from tracker.schedule.jobs import load_jobs
    from tracker.schedule.locks import SchedulerBusy

    _setup_logging()
    engine = open_db(db, write=True)
    bundle = load_jobs(jobs, engine, site_dir=out, snapshot_dir=snapshots, data_dir=data)
    settings = ScheduleSettings(
        jitter_seconds=jitter,
        max_workers=workers,
        site_interval_minutes=site_interval,
        settle_seconds=settle,
        heartbeat_seconds=heartbeat,
        lock_ttl_seconds=lock_ttl,
    )
    sched = Scheduler(
        engine, bundle.run_watch, bundle.rebuild_site, bundle.drain_outbox, settings=settings
    )
    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("%s received: finishing running jobs, then stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        sched.start()
    except SchedulerBusy as exc:
        log.warning("%s", exc)  # the log line is the one message (cases/C14)
        raise typer.Exit(1) from None
    log.info("alerts: %s", alerts_source(data))  # once it runs (a busy one says only why not)
    sched.run_until(stop)


def alerts_source(data: Path | None) -> str:
    """Where the scheduler's alerts go, said once at its start: ``2 subscriptions from
    my-models/subscriptions.toml`` or ``no subscriptions (...); alerts wait in the
    outbox``; a broken subscriptions file is named here (it stops only each drain)."""
    from tracker.alerts.subscriptions import describe_source, load_subscriptions
    from tracker.errors import ConfigError

    try:
        subs = load_subscriptions(data_dir=data)
    except ConfigError as exc:
        return f"cannot read subscriptions: {exc}"
    told = describe_source(subs, data_dir=data)
    return told if subs else f"{told}; alerts wait in the outbox (give --data DIR)"


@friendly_errors
def watches_cmd(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Every watch: schedule, last run, next run (or retry), state, last error; who schedules
    them; and each watch's latest catch-up run that replaced missed runs.

    Times read 2026-11-28 06:00 UTC (to the minute); --json gives RFC 3339 in UTC
    (2026-11-28T06:00:00Z), as every command's --json does."""
    from tracker.schedule.watchlist import list_watches

    now = utcnow()
    listing = list_watches(open_db(db), now=now)
    if json_out:
        print_json({**listing, "scheduler": scheduler_json(listing["scheduler"])})
        return
    console.print(scheduler_line(listing["scheduler"]))
    if not listing["watches"]:
        on_db = "" if db is None else f" --db {db}"
        console.print(
            "no watches yet: add one with `tracker track NAME --org ORG" + on_db + "` or load "
            "data/watches.toml with `tracker load" + on_db + "` (or `tracker demo`)",
            highlight=False,
            markup=False,
        )
        return
    table = wide_watch_table(listing["watches"], now)
    if console.is_terminal and (
        whole_word_widths(table, console.width, breakable=6, whole_lines=True) is None
    ):
        table = narrow_watch_table(listing["watches"], now)
    print_table(table, breakable=len(table.columns) - 1)
    for line in missed_lines(listing["watches"]):
        console.print(line)


def missed_lines(watches: list[dict]) -> list[Text]:
    """One line per watch whose latest catch-up run replaced several scheduled runs:
    ``hub: 3 runs missed, caught up once at 2026-03-05 12:00 UTC`` (plain text)."""
    from rich.text import Text

    return [
        Text(
            f"{w['name']}: {w['missed']['missed']} runs missed, caught up once at "
            f"{utc_minute(w['missed']['caught_up_at'])}"
        )
        for w in watches
        if w.get("missed")
    ]


SCHEDULER_KEYS = ("pid", "host", "since", "heartbeat", "expires", "live", "exited", "same_machine")


def scheduler_json(sched: dict | None) -> dict:
    """`tracker watches --json`'s ``scheduler``: always an object, ``running`` true only
    for a live holder (the text's ``scheduler: running``), ``state`` the text line's
    words after ``scheduler: `` (``not running``, ``stale (lease expired), pid …``), and
    the holder's fields (:func:`tracker.schedule.watchlist.list_watches`; null without one)."""
    holder = {k: (sched or {}).get(k) for k in SCHEDULER_KEYS}
    running = bool(sched and sched["live"] and not sched.get("exited"))
    state = scheduler_line(sched).removeprefix("scheduler: ")
    return {"running": running, "state": state, **holder}


def scheduler_line(sched: dict | None) -> str:
    """The `tracker watches` line about the lease holder (``sched`` as
    :func:`tracker.schedule.watchlist.list_watches` gives it, or None). A holder on this machine
    reads "on this machine"; one elsewhere names its host and, while its lease runs, when
    it expires: a new scheduler can only take over after that (its pid means nothing
    here)."""
    if sched is None:
        return "scheduler: not running"
    pid, where = sched["pid"], sched.get("same_machine")
    if sched.get("exited"):
        return f"scheduler: not running (pid {pid} on this machine has exited; its lock is stale)"
    place = "this machine" if where is True else f"host {sched['host']}"
    line = f"scheduler: {'running' if sched['live'] else 'stale (lease expired)'}, pid {pid} "
    line += f"on {place} since {utc_minute(sched['since'])}"
    if sched["live"] and where is not True:
        other = "another container or machine" if where is False else "not known to be this machine"
        line += f" ({other}; its lease runs until {utc_minute(sched['expires'])} unless renewed)"
    return line


def _next_run(w: dict, now: dt.datetime) -> str:
    from tracker.schedule.watchlist import next_run_text

    text = next_run_text(w, now)
    return text.replace(w["next_run"], utc_minute(w["next_run"])) if w["next_run"] else text


def wide_watch_table(watches: list[dict], now: dt.datetime) -> Table:
    """The listing with one column each (piped, or a terminal wide enough for every
    column but the last error on one line)."""
    from rich.table import Table
    from rich.text import Text  # plain text: a "[...]" in a name or error is no markup

    from claims.values.safetext import terminal_text  # ESC from data is shown, not sent

    table = Table("watch", "adapter", "schedule", "last run", "next run", "state", "last error")
    for w in watches:
        table.add_row(
            Text(terminal_text(w["name"])),
            w["adapter"],
            Text(terminal_text(w["schedule"])),
            utc_minute(w["last_run"]),
            _next_run(w, now),
            state_text(w),
            Text(terminal_text(w["last_error"] or "")),
        )
    return table


def narrow_watch_table(watches: list[dict], now: dt.datetime) -> Table:
    """The listing for a narrower terminal (80 columns and up): adapter and schedule
    under the name, the last error after the state, so that names, schedules and times
    fit whole and the error gets the room that is left."""
    from rich.table import Table
    from rich.text import Text  # plain text: a "[...]" in a name or error is no markup

    from claims.values.safetext import terminal_text  # ESC from data is shown, not sent

    table = Table("watch", "last run", "next run", "state")
    for w in watches:
        error = w["last_error"]  # only while current (claims.watchstate)
        # after a skip ("…; skipped: KEY not set") the error is named, not run on
        sep = "; last error: " if w.get("skipped") else ": "
        state = state_text(w) + (f"{sep}{error}" if error else "")
        name = Text(terminal_text(w["name"]) + "\n") + Text(
            terminal_text(f"{w['adapter']}\n{w['schedule']}"), style="dim"
        )
        table.add_row(
            name, utc_minute(w["last_run"]), _next_run(w, now), Text(terminal_text(state))
        )
    return table


def state_text(w: dict) -> str:
    """A listing row's state with its run of failures
    (:meth:`claims.watchstate.WatchHealth.text`)."""
    from claims.watchstate import WatchHealth

    health = WatchHealth(str(w["state"]), w.get("consecutive_failures") or 0,
                         w.get("last_error"), w.get("skipped"))  # fmt: skip
    return health.text()


def register(app: typer.Typer) -> None:
    """Add schedule and watches to the main app."""
    app.command("schedule")(schedule_cmd)
    app.command("watches")(watches_cmd)
