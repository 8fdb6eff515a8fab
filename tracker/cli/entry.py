"""The ``tracker`` console script: a plain ``tracker build`` runs without the CLI framework.

Loading typer and making the app's command (:mod:`tracker.cli.main`) was a tenth of a
one-claim rebuild in a new process (issue 17: ~35 ms of ~0.4 CPU s at 1,000 subjects x
30 claims). So when the arguments are ``build`` and nothing but its four value options,
each given once with a value that cannot be read as an option (:func:`plain_build`),
this module opens the database and builds itself (:func:`tracker.cli.buildrun.build_into`,
the command's own code) and prints the same line. Anything else (``--json``,
``--help``, another command, a repeated or unknown option, a value starting with
``-``), and a database that does not open, goes to :func:`tracker.cli.main.main`,
which parses, explains and fails exactly as before; a build that fails is reported by
the command's own error handling (:func:`tracker.cli.common.friendly_errors`, loaded
then), with the same lines and exit status.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from pathlib import Path
from typing import Any

# ``tracker build``'s value options (tracker.cli.main.build), by flag.
BUILD_OPTIONS = {"--db": "db", "--out": "out", "--base-url": "base_url", "--cache-dir": "cache_dir"}


def plain_build(args: list[str]) -> dict[str, str] | None:
    """The options of ``args`` (``sys.argv[1:]``) by parameter name when they are
    ``build`` and only :data:`BUILD_OPTIONS` (``--opt value`` or ``--opt=value``), each
    once, each value non-empty and not starting with ``-`` (and a folder typer would
    refuse, an existing unreadable one, left to it); else None."""
    if not args or args[0] != "build":
        return None
    found: dict[str, str] = {}
    rest = args[1:]
    while rest:
        flag, eq, value = rest[0].partition("=")
        if not eq:
            if len(rest) < 2:
                return None
            value = rest[1]
        name = BUILD_OPTIONS.get(flag)
        if name is None or name in found or not value or value.startswith("-"):
            return None
        if name in ("out", "cache_dir") and not _readable_or_absent(value):
            return None  # typer's Path option refuses it with its own message
        found[name] = value
        rest = rest[1 if eq else 2 :]
    return found


def _readable_or_absent(path: str) -> bool:
    """What typer's check of a ``Path`` option (readable, need not exist) lets through."""
    try:
        os.stat(path)
    except OSError:
        return True
    return os.access(path, os.R_OK)


def main() -> None:
    """Console-script entry point: see the module docstring. Ctrl-C, even while the
    modules load, is one line and exit 130 (:mod:`tracker.cli.interrupt`)."""
    try:
        _main()
    except KeyboardInterrupt:
        from tracker.cli.interrupt import report_interrupt

        report_interrupt()
    finally:  # the interpreter's teardown follows: a Ctrl-C there is reported too
        from tracker.cli.interrupt import report_late_interrupts

        report_late_interrupts()


def _main() -> None:
    options = plain_build(sys.argv[1:])
    if options is None:
        return _whole_cli()
    from claims.store.rawdb import RawDB
    from tracker import settings

    gc.disable()  # the process ends after the build (see tracker.cli.main.main)
    db = options.get("db")
    try:
        raw = RawDB.open(db or settings.database_url())
    except Exception:  # the whole CLI opens it again and says why it cannot
        gc.enable()
        return _whole_cli()
    try:
        _build(raw, db, options)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    logging.shutdown()  # what the interpreter's exit would flush
    sys.stderr.flush()
    os._exit(0)  # no teardown of the views the build kept (tracker.cli.main.main)


def _build(raw: Any, db: str | None, options: dict[str, str]) -> None:
    """Build as ``tracker build`` does and print its line; a failure as the command
    reports it (exit status and lines of :func:`tracker.cli.common.friendly_errors`)."""
    from tracker.cli.buildrun import build_into, build_summary
    from tracker.cli.lazyconsole import stdout_console

    out = Path(options.get("out", "site"))
    cache = options.get("cache_dir")
    try:
        report = build_into(raw, out, options.get("base_url"), Path(cache) if cache else None)
    except Exception as exc:
        _report(exc, db)
        raise
    stdout_console().print(build_summary(report, out))


def _report(exc: Exception, db: str | None) -> None:
    """Report ``exc`` as the typer command would: ``friendly_errors`` prints it and
    raises typer's Exit, which ends the process with its status (as click does); an
    error it does not know returns, and the caller raises it."""
    import typer

    from tracker.cli.common import friendly_errors

    def failing(db: str | None) -> None:
        raise exc

    try:
        friendly_errors(failing)(db=db)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as again:
        if again is not exc:
            raise


def _whole_cli() -> None:
    from tracker.cli.main import main as whole

    whole()
