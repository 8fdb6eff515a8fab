"""Command-line interface: a thin layer over the library (claims/ and tracker/).

Every command prints one clear line and exits non-zero on a TrackerError; `--json`
prints machine-readable output for scripts.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Track AI model releases: which stated figures hold, where sources disagree, "
    "and whether the weights landed.",
    no_args_is_help=True,
    add_completion=False,
)


def main() -> None:
    """Console-script entry point (``tracker``)."""
    app()

from tracker.cli_claims import claims_app  # noqa: E402

app.add_typer(claims_app, name="claims")
