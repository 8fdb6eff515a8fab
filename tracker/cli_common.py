"""Shared pieces of the CLI: options, consoles, JSON output, one-line error handling."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from claims.loader import DataFileError
from tracker.errors import TrackerError

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLite path or database URL (default: $TRACKER_DATABASE_URL or data/tracker.db).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of text.")]
DataOpt = Annotated[
    Path, typer.Option("--data", help="Folder with subjects.toml, watches.toml and claims/.")
]

F = TypeVar("F", bound=Callable[..., Any])


def friendly_errors(fn: F) -> F:
    """Turn known errors into one line on stderr and exit status 1 (no traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TrackerError, DataFileError) as exc:
            err_console.print(f"error: {exc}", markup=False)
            raise typer.Exit(1) from None
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            err_console.print(f"error: {exc.strerror or exc}{where}", markup=False)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any) -> None:
    """JSON to stdout (plain, so pipes get exactly the document)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")
