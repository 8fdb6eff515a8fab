"""Command-line interface: a thin layer over the library (claims/ and tracker/).

Every command prints one clear line and exits 1 on a known error (no traceback);
`--json` prints machine-readable output for scripts.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from sqlmodel import Session, select

from claims import models
from claims.db import make_engine
from claims.loader import DataFileError
from claims.status import weights_status
from tracker.errors import TrackerError

app = typer.Typer(
    help="Track AI model releases: which stated figures hold, where sources disagree, "
    "and whether the weights landed. Start with `tracker demo`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="SQLite path or database URL (default: $TRACKER_DATABASE_URL or data/tracker.db)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
DataOpt = Annotated[Path, typer.Option("--data", help="Folder with subjects.toml, watches.toml and claims/.")]

F = TypeVar("F", bound=Callable[..., Any])


def friendly_errors(fn: F) -> F:
    """Turn known errors into one line on stderr and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TrackerError, DataFileError) as exc:
            err_console.print(f"error: {exc}", markup=False, highlight=False)
            raise typer.Exit(1) from None
        except OSError as exc:
            err_console.print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), markup=False)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any) -> None:
    """JSON to stdout (plain, so pipes get exactly the document)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


@app.command()
@friendly_errors
def load(data: DataOpt = Path("data"), db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Validate the curated data (subjects, watches, claims) and store it.

    A malformed file stops with its path, line and field; nothing is written.
    """
    from tracker.loading import load_curated

    report = load_curated(make_engine(db), data)
    if json_out:
        print_json(report.__dict__)
    else:
        console.print(
            f"loaded {report.subjects} subjects, {report.sources} sources, {report.watches} watches; "
            f"claims: {report.claims_added} new, {report.claims_unchanged} unchanged"
        )


@app.command()
@friendly_errors
def status(
    subject: Annotated[str, typer.Argument(help="Subject slug or alias, e.g. kimi-k3.1-pro or 'Kimi K3.1 Pro'.")],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Did the weights land, and under what licence?

    Shows the repo and first-seen time when the weights landed; otherwise every
    promised date, by which source, and how many days overdue as of the last Hub check.
    """
    engine = make_engine(db)
    with Session(engine) as session:
        row = find_subject(session, subject)
        st = weights_status(session, row)
    if json_out:
        print_json(st.to_dict())
        return
    d = st.to_dict()
    console.print(f"[bold]{st.name}[/bold] ({st.slug})")
    if st.landed:
        console.print(f"  weights: landed — {st.repo}, first seen {d['landed_at']}")
    else:
        console.print("  weights: [bold red]not landed[/bold red]")
    for p in st.promises:
        console.print(f"  promised: {p.relation} {p.date} — {p.source} (claimant: {p.claimant or 'unknown'})")
    if st.overdue_days:
        console.print(f"  overdue by {st.overdue_days} days as of {d['as_of']}")
    elif not st.landed and d["as_of"] is None:
        console.print("  no Hub check has run yet: run `tracker check`")
    console.print(f"  licence: {st.license or 'unknown'}")


def find_subject(session: Session, name: str) -> models.Subject:
    """A subject by slug or by any alias (case-insensitive); TrackerError naming the known slugs."""
    row = session.exec(select(models.Subject).where(models.Subject.slug == name)).first()
    if row is None:
        for alias in session.exec(select(models.SubjectAlias)):
            if alias.alias.lower() == name.lower():
                row = session.get(models.Subject, alias.subject_id)
                break
    if row is None:
        known = ", ".join(s.slug for s in session.exec(select(models.Subject))) or "none (run `tracker load`)"
        raise TrackerError(f"unknown subject {name!r}; known: {known}")
    return row


def main() -> None:
    """Console-script entry point (``tracker``)."""
    app()


from tracker import cli_schedule  # noqa: E402, F401  (registers `schedule` and `watches`)
