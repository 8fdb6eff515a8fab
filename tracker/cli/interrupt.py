"""Ctrl-C (SIGINT) in any command: one line on stderr and exit status 130, never a
traceback nor a silent exit. Stored data is safe (every write is a transaction, rolled
back when interrupted); a site folder being written may be partial, and the line names it.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
from pathlib import Path
from types import FrameType

INTERRUPTED_EXIT = 130  # 128 + SIGINT, as shells report it


def demo_site_dir(db: str | None) -> Path:
    """``site`` for the default database; for ``--db FILE``, ``site-STEM`` beside the
    file (``data/site-demo`` for ``--db data/demo.db``, ``../site-demo2`` for ``--db
    ../demo2.db``, whatever folder the command runs from); ``site-demo-db`` for a
    database URL."""
    if db is None:
        return Path("site")
    if "://" in db:
        return Path("site-demo-db")
    return Path(db).parent / f"site-{Path(db).stem}"


def _option(args: list[str], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` in ``args`` (the last one)."""
    value = None
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(name + "="):
            value = arg.partition("=")[2]
    return value


def site_being_written(args: list[str]) -> Path | None:
    """The site folder the command line ``args`` (``sys.argv[1:]``) writes: ``build``'s
    ``--out`` (default ``site``), ``demo``'s ``--out`` (default :func:`demo_site_dir`),
    ``schedule``'s ``--out`` (default ``site``); None for any other command."""
    command = next((a for a in args if not a.startswith("-")), None)
    if command not in ("build", "demo", "schedule"):
        return None
    out = _option(args, "--out")
    if out is not None:
        return Path(out)
    return demo_site_dir(_option(args, "--db")) if command == "demo" else Path("site")


def interrupted_line(args: list[str]) -> str:
    """What an interrupted command says: ``interrupted; nothing stored was lost`` and,
    for a command that writes a site, ``; the site folder site may be partial — run
    `tracker build` again``; ``serve`` (which stores nothing) says ``interrupted; stopped
    serving DIR``."""
    if next((a for a in args if not a.startswith("-")), None) == "serve":
        return f"interrupted; stopped serving {_option(args, '--dir') or 'site'}"
    line = "interrupted; nothing stored was lost"
    site = site_being_written(args)
    if site is not None:
        line += f"; the site folder {site} may be partial — run `tracker build` again"
    return line


def was_interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is, or was raised while handling, a KeyboardInterrupt (a rollback
    that failed because Ctrl-C cut its transaction short: "cannot rollback - no
    transaction is active" is then not the error to report)."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def report_interrupt(args: list[str] | None = None) -> None:
    """Print :func:`interrupted_line` on stderr and exit 130."""
    print(interrupted_line(sys.argv[1:] if args is None else args), file=sys.stderr)
    raise SystemExit(INTERRUPTED_EXIT)


def _late_interrupt(_signum: int, _frame: FrameType | None) -> None:
    try:
        sys.stdout.flush()
        print(interrupted_line(sys.argv[1:]), file=sys.stderr, flush=True)
    finally:
        os._exit(INTERRUPTED_EXIT)


def report_late_interrupts() -> None:
    """From now on (the command has returned), Ctrl-C prints :func:`interrupted_line` and
    ends the process with 130 at once; once the interpreter's exit starts (atexit), it is
    ignored: the command finished, and CPython resets a Python handler to the default
    before tearing modules down, where Ctrl-C killed the process by SIGINT with no line
    (after `tracker verify` printed its summary), while an ignored signal stays ignored.
    Call only from the main thread (:func:`signal.signal` requires it)."""
    signal.signal(signal.SIGINT, _late_interrupt)
    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
