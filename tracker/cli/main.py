"""Command-line interface: a thin layer over the library (claims/ and tracker/).

Every command prints one clear line and exits 1 on a known error (no traceback);
`--json` prints machine-readable output for scripts.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claims.vocabulary import attribute_label, rule_label
from tracker.cli.buildrun import build_into, build_json, build_summary
from tracker.cli.common import (
    DataOpt,
    DbOpt,
    JsonOpt,
    TrackerGroup,
    TrackerTyper,
    console,
    err_console,
    friendly_errors,
    open_db,
    open_read_db,
    plain,
    plural,
    print_json,
)
from tracker.cli.interrupt import INTERRUPTED_EXIT, demo_site_dir, report_interrupt
from tracker.cli.values import utc_minute

if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable


# Commands import the ORM, the site, the scheduler... in their bodies: `tracker check`
# and `--help` then start without them (issue 7: a cycle process's start-up and memory).
# The other command modules are imported when a command of theirs runs or the list of
# commands is shown (_RootGroup): `tracker build` starts without them (issue 17).


class _RootGroup(TrackerGroup):
    """The ``tracker`` group. Made from an app with no command registered yet (what
    :func:`main` runs), it makes a command of this module alone when that is the one
    asked for (``tracker build`` loads no other command module), and registers every
    command (:func:`registered_app`) when asked for another one or for the list
    (``--help``, "did you mean"). Made from the registered app, it has them all."""

    # Any: typer's vendored click classes (typer._click), as in tracker.cli.common.
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.complete = _registered  # typer makes the group from the app as it is now

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``, or None; see the class docstring."""
        if cmd_name not in self.commands and not self.complete:
            if cmd_name in OWN_COMMANDS:
                self.commands[cmd_name] = _own_command(cmd_name)
            else:
                self.load_all()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        """Every command's name, in registration order (``tracker --help``'s)."""
        self.load_all()
        return super().list_commands(ctx)

    def load_all(self) -> None:
        """Have every command, as typer makes them from :func:`registered_app`."""
        if not self.complete:
            self.commands = typer.main.get_group(registered_app()).commands
            self.complete = True


def _new_app(**options: Any) -> typer.Typer:
    """A Typer with the settings of ``tracker``'s app, which its commands are made with."""
    return TrackerTyper(add_completion=False, pretty_exceptions_enable=False, **options)


_app = _new_app(
    help="Track AI model releases: which stated figures hold, where sources disagree, "
    "and whether the weights landed. Start with: tracker demo, then tracker status SUBJECT; "
    "tracker check --replay FILE.har checks offline from recorded answers.",
    no_args_is_help=True,
    cls=_RootGroup,
)

PACKAGE = "release-tracker"  # the distribution name in pyproject.toml


def _print_version(wanted: bool) -> None:
    """``--version``: ``release-tracker 0.1.0`` (the installed distribution's version,
    from importlib.metadata) on stdout, exit 0."""
    if not wanted:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        typer.echo(f"{PACKAGE} {version(PACKAGE)}")
    except PackageNotFoundError:  # run from a checkout that was never installed
        typer.echo(f"{PACKAGE} (version unknown: not installed; pip install -e .)")
    raise typer.Exit(0)


@_app.callback()
def _options(
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="Print the release-tracker version and exit.",
        ),
    ] = False,
) -> None:
    # The help text is the app's (above); this callback only carries --version.
    pass


@friendly_errors
def load(
    data: DataOpt = Path("data"),
    db: DbOpt = None,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Also remove the claims of the data's sources that did not come from "
            "these files (imported, or stored by a version that did not record where a "
            "claim came from), and retire the stored watches that watches.toml no longer "
            "defines (never checked again, history kept). Without it both are listed.",
        ),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Validate the curated data (subjects, watches, claims) and store it.

    Every problem in the files is listed with its path, line and field,
    and then nothing is written (with --json, also as a JSON list). A claim these files stored and no longer state (changed or
    deleted in its file, or its file deleted) is removed with its verdicts,
    and so is its source when no file defines it and no claim is left;
    run tracker verify then. Other claims of the same sources, and watches
    deleted from watches.toml, are listed; --prune removes and retires them.
    """
    from tracker.curated.load import (
        change_lines,
        claim_text,
        load_summary,
        store_curated,
        validate_curated,
    )

    curated = validate_curated(data)  # before the database is opened: bad data writes nothing
    report = store_curated(open_db(db, create=True), curated, prune=prune)
    for name in ("subjects.toml", "watches.toml"):  # a deleted or misnamed file loads nothing
        if not (data / name).exists():
            err_console.print(f"warning: {data / name} not found: none loaded from it")
    if json_out:
        print_json(report.__dict__)
        return
    console.print(load_summary(report), highlight=False)
    for line in change_lines(report):
        console.print(f"  {line}", highlight=False)
    kept = [c for c in report.claims_stale if not c["removed"]]
    if kept:
        n = len(kept)
        err_console.print(
            f"warning: {plural(n, 'stored claim')} of these sources not in the data files "
            "and not stored from them (imported, or stored before claims recorded their "
            f"file), still verified; `tracker load --prune` removes {'it' if n == 1 else 'them'}:",
            highlight=False,
        )
        for c in kept:
            err_console.print(f"  stale claim #{c['id']} {claim_text(c)}", highlight=False)
    if report.claims_removed:
        console.print("run `tracker verify` to update verdicts and discrepancies")
    stale = report.watches_stale
    if stale and prune:
        console.print(f"retired {plural(len(stale), 'watch', 'watches')}: {', '.join(stale)}")
    elif stale:
        err_console.print(
            f"warning: {plural(len(stale), 'stored watch', 'stored watches')} no longer in "
            f"watches.toml and still checked: {', '.join(stale)}; `tracker load --prune` "
            "retires them (their history is kept)",
            highlight=False,
        )


def demo_subject_line(st: Any) -> str:
    """One subject of the demo summary (rich markup; data escaped): where its weights
    landed or what was promised and how late, its licence and gating."""
    # status's wording; imported here, as `tracker build` does not use it
    from tracker.cli.status import landed_text, unknown_text, withdrawn_text

    d = st.to_dict()
    unknown = "" if st.weights_word in ("landed", "not landed", "withdrawn") else unknown_text(st)
    if st.landed:
        line = f"landed in {plain(st.repo)} ({plain(landed_text(st))})"
    elif st.withdrawn:
        line = plain(withdrawn_text(st))
    elif unknown:  # the rule of `tracker status`: "not landed" only after a Hub check
        line = unknown
    elif st.promises:
        dates = sorted(
            {
                f"{p.relation} {p.date}" + (f" [{p.qualifiers_text}]" if p.qualifiers else "")
                for p in st.promises
            }
        )
        line = f"not landed; promised {plain(' / '.join(dates))} by {len(st.promises)} sources"
        if st.overdue_days:
            line += f"; [bold red]overdue by {st.overdue_days} days[/bold red] (from the latest promised date) as of {utc_minute(d['as_of'])}"
    else:
        line = "not landed; no promise on record"
    gated = ""
    if st.gated:
        gated = ", not gated" if st.gated == "false" else f", gated ({plain(st.gated)})"
    return (
        f"  [bold]{plain(st.name)}[/bold]: weights {line}; "
        f"licence {plain(st.license or 'unknown')}{gated}"
    )


def demo_subjects_count(report: Any) -> str:
    """``3 subjects``: the subjects the summary gives a status line each (every one in
    the database); when the data files hold fewer (a subject tracked with another
    ``--data``, or data/ restored after a ``track``), ``4 subjects (3 in data/)``."""
    shown, filed = len(report.subjects), report.loaded.subjects
    return plural(shown, "subject") + (f" ({filed} in data/)" if filed != shown else "")


def demo_events_line(events: Counter[str]) -> str:
    """``events: 8 new (Verdict changed 5, Discrepancy opened 2, Weights found 1); the
    site's Changes page lists them``: every event one demo run stored, by kind, most first."""
    from claims.events import event_label

    total = sum(events.values())
    if not total:
        return "events: none new (nothing changed since the last run)"
    kinds = sorted(events.items(), key=lambda kv: (-kv[1], kv[0]))
    by_kind = ", ".join(f"{event_label(k)} {n}" for k, n in kinds)
    return f"events: {total} new ({by_kind}); the site's Changes page lists them"


def demo_first_verdicts_note(events: Counter[str], verdicts: int) -> str | None:
    """``  First verdict 4 of the 40 verdicts: ...``: why the events count fewer first
    verdicts than the verdicts line (only some first verdicts are events:
    :func:`claims.store.verification.first_verdict_rule`); None when the run stored none."""
    from claims.events import FIRST_VERDICT, event_label
    from claims.store.verification import first_verdict_rule

    n = events.get(FIRST_VERDICT, 0)
    if not n:
        return None
    return (
        f"  {event_label(FIRST_VERDICT)} {n} of the {plural(verdicts, 'verdict')}: a claim's "
        f"first verdict is an event only when {first_verdict_rule()}; the others are on "
        "the site and alert nobody"
    )


def _run_demo(db: str | None, data: Path, out: Path) -> Any:
    """The demo's work (:func:`tracker.demo.run_demo`) with a spinner; its DemoReport."""
    from tracker.curated.load import validate_curated
    from tracker.demo import run_demo

    validate_curated(data)  # before the database is created: bad data writes nothing
    with console.status(
        "loading data, replaying recorded responses, verifying, building the site..."
    ):
        engine = open_db(db, create=True)
        try:
            return run_demo(
                engine, data_dir=data, har=data / "recordings" / "demo.har", out_dir=out
            )
        finally:
            # The last connection's clean close checkpoints SQLite's WAL and removes the
            # -wal and -shm files the demo left beside the database before.
            engine.dispose()


@friendly_errors
def demo(
    db: DbOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder to build the site into (default: site/; with --db FILE, "
            "site-STEM/ beside FILE, so the site of your own database is kept).",
        ),
    ] = None,
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            help="Folder with subjects.toml, watches.toml, claims/ and "
            "recordings/demo.har (default: data/ of the folder it runs from).",
            show_default=False,
        ),
    ] = Path("data"),
    json_out: JsonOpt = False,
) -> None:
    """The main job offline: load data/, replay data/recordings/demo.har, verify, build site/.

    Safe to run again: nothing is stored twice. With --db data/demo.db (its own
    database) the site goes to data/site-demo/ (beside the database) unless --out says
    where, so the site/ built from your own database is not overwritten.
    """
    out = out if out is not None else demo_site_dir(db)
    report = _run_demo(db, data, out)
    if json_out:
        print_json(report.to_dict())
        return
    c = report.cycle
    console.print(
        f"[bold]release-tracker demo[/bold]: {demo_subjects_count(report)}, {report.loaded.sources} sources, "
        f"claims {report.loaded.claims_added} new / {report.loaded.claims_unchanged} unchanged"
    )
    kept = [c for c in report.loaded.claims_stale if not c["removed"]]
    if report.loaded.claims_removed:
        console.print(
            f"removed {plural(report.loaded.claims_removed, 'stored claim')} the data files "
            "no longer state (changed or deleted there)"
        )
    if kept:
        err_console.print(
            f"warning: {plural(len(kept), 'stored claim')} not in the data files and not "
            "stored from them: `tracker load --prune` removes them",
            highlight=False,
        )
    as_of = f" as of {utc_minute(report.to_dict()['as_of'])}" if report.as_of else ""
    console.print(
        f"checked {c.checked} watches (replayed{as_of}): {c.changed} changed, "
        f"{c.unchanged} unchanged, {f'{c.new} new, ' if c.new else ''}{c.failing} failed; {plural(c.observations, 'new observation')}"
    )
    by_status = ", ".join(f"{k} {v}" for k, v in sorted(report.verdicts.items()))
    console.print(f"verdicts: {sum(report.verdicts.values())} ({by_status})")
    console.print(demo_events_line(report.events))
    note = demo_first_verdicts_note(report.events, sum(report.verdicts.values()))
    if note:
        console.print(note, highlight=False)
    console.print()
    for st in report.subjects:
        console.print(demo_subject_line(st))
    console.print()
    console.print(f"open discrepancies: {len(report.open_discrepancies)}")
    for disc in report.open_discrepancies[:8]:
        console.print(
            f"  {plain(disc['subject'])} {attribute_label(disc['attribute'])} "
            f"({rule_label(disc['rule'])}): {plain(disc['reason'])}"
        )
    console.print()
    serve = "" if out == Path("site") else f" --dir {out}"
    console.print(f"site: {report.site_index}  (preview: .venv/bin/tracker serve{serve})")


@friendly_errors
def build(
    db: DbOpt = None,
    out: Annotated[Path, typer.Option("--out", help="Folder to build the site into.")] = Path(
        "site"
    ),
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="Public URL of the site (absolute feed links).")
    ] = None,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            "--cache-dir",
            help="Build cache folder, outside --out (default: OUT.cache beside it, e.g. "
            "site.cache). It lets a new process re-encode only changed subjects' parts of "
            "the big exports; deleting it only costs time.",
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Build the static site (pages, JSON/CSV exports, Atom feeds), e.g. `tracker build
    --out /tmp/site`.

    Renders only files whose input changed and rewrites only files whose bytes changed.
    """
    global _skip_teardown
    if _process_ends:
        # build_site pauses the cyclic collector and re-enables it when done; the first
        # collection after that walks every object the build kept (its claim views),
        # 0.15-0.2 CPU s at 1,000 subjects x 30 claims, in a process about to end.
        gc.disable()
    # Plain DB-API reads (claims.store.rows): the ORM's import was a third of a
    # one-claim rebuild in a new process (bench/RESULTS.md).
    report = build_into(open_read_db(db), out, base_url, cache_dir)
    if json_out:
        print_json(build_json(report))
    else:
        console.print(build_summary(report, out))
    _skip_teardown = True


# Set by a command that finished and left nothing to clean up (``build``): see main().
_skip_teardown = False
# Set by main(): the process ends when its command does. Unset when tests run commands
# in-process (typer's CliRunner): that process goes on and keeps its collector.
_process_ends = False


def main() -> None:
    """Console-script entry point (``tracker``).

    Output piped into a reader that stops early (``tracker status X | head -1``) ends
    quietly with exit status 1, as the Python docs advise (signal module, "Note on
    SIGPIPE"): stdout is pointed at /dev/null so the flush at exit cannot fail again.
    After ``tracker build`` succeeds the process ends with ``os._exit`` once its output
    is flushed: the interpreter's shutdown would otherwise free, object by object, the
    views the build kept for a next build that this process never makes (0.5 CPU s of a
    2 s one-claim rebuild at 1,000 subjects × 30 claims). Ctrl-C in any command is one
    line and exit 130 (:mod:`tracker.cli.interrupt`). The build closed its database
    connections and helper process itself, and no atexit handler is needed. For the
    same reason ``build`` leaves Python's cyclic garbage collector off when run here
    (``_process_ends``): re-enabled, its first pass walked all the kept views (0.2 CPU
    s of 1.75 for that rebuild)."""
    import os

    global _process_ends
    _process_ends = True
    try:
        try:
            _app()
        finally:
            sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
    except KeyboardInterrupt:  # outside a command (typer turns one inside into exit 130)
        report_interrupt()
    except SystemExit as done:
        if done.code == INTERRUPTED_EXIT:  # typer's silent exit after Ctrl-C
            report_interrupt()
        if _skip_teardown and done.code in (0, None):
            import logging

            logging.shutdown()  # what the interpreter's exit would flush
            sys.stderr.flush()
            os._exit(0)
        raise
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


# This module's commands, made without importing the other command modules.
OWN_COMMANDS: dict[str, Callable[..., Any]] = {"load": load, "demo": demo, "build": build}
_registered = False  # set once registered_app() has registered every command on _app


def _own_command(name: str) -> Any:
    """The click command typer makes of :data:`OWN_COMMANDS` ``name`` in ``tracker``'s
    app (same settings), without registering the other commands."""
    alone = _new_app()
    alone.command()(OWN_COMMANDS[name])
    return typer.main.get_group(alone).commands[name]


def registered_app() -> typer.Typer:
    """``tracker``'s app with every command registered (the first call registers them),
    in the order ``tracker --help`` lists them. Command modules register on the app, so
    they are imported here, after it exists."""
    global _registered
    if _registered:
        return _app
    _registered = True
    from tracker.cli import claimlist as cli_claimlist
    from tracker.cli import db as cli_db
    from tracker.cli import schedule as cli_schedule
    from tracker.cli import site as cli_site
    from tracker.cli import status as cli_status
    from tracker.cli import track as cli_track
    from tracker.cli import verify as cli_verify
    from tracker.cli import watch as cli_watch
    from tracker.cli.claims import claims_app

    _app.command()(load)
    cli_status.register(_app)  # status right after load in `tracker --help`
    _app.command()(demo)
    _app.command()(build)
    cli_track.register(_app)
    cli_watch.register(_app)
    cli_verify.register(_app)
    cli_site.register(_app)
    cli_schedule.register(_app)
    cli_db.register(_app)
    cli_claimlist.register(claims_app)
    _app.add_typer(claims_app, name="claims")
    return _app


def __getattr__(name: str) -> Any:
    """``app``: the whole CLI, every command registered (:func:`registered_app`), for
    code that walks or invokes it (tests: ``CliRunner().invoke(app, ...)``)."""
    if name == "app":
        return registered_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
