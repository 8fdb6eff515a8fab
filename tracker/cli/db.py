"""CLI group ``tracker db``: the database's schema (``tracker db upgrade``).

Registered on the main app by :func:`register`.
"""

from __future__ import annotations

import typer

from tracker.cli.common import DbOpt, JsonOpt, TrackerTyper, friendly_errors, open_db, print_json

db_app = TrackerTyper(help="The database's schema.", no_args_is_help=True)


@db_app.command("upgrade")
@friendly_errors
def upgrade_cmd(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Bring the database to this release's schema, keeping every row.

    Applies the missing schema revisions in order (alembic; a database made by
    release 0.1.0 is adopted as it is). Commands that write do this by themselves;
    commands that only read never do, and ask for it. Safe to run again.
    """
    from claims.store.migrate import current_revision, upgrade

    engine = open_db(db, schema=False)
    try:
        applied = upgrade(engine)
        with engine.connect() as conn:
            revision = current_revision(conn)
    finally:
        engine.dispose()
    if json_out:
        print_json({"revision": revision, "applied": applied})
    elif applied:
        typer.echo(
            f"database upgraded to schema revision {revision} (applied {', '.join(applied)})"
        )
    else:
        typer.echo(f"database already at schema revision {revision}")


def register(app: typer.Typer) -> None:
    """Add the ``db`` group to the tracker CLI app."""
    app.add_typer(db_app, name="db")
