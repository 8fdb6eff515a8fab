"""`tracker track NAME --org ORG` and `tracker untrack SLUG`: start or stop tracking a
model in one command (the data files are edited by :mod:`tracker.curated.edit`, then
loaded)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tracker import settings
from tracker.cli.common import (
    DataOpt,
    DbOpt,
    JsonOpt,
    console,
    err_console,
    friendly_errors,
    open_db,
    print_json,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from tracker.curated.edit import Plan

DryRunOpt = Annotated[
    bool,
    typer.Option("--dry-run", help="Print the diff of the data files; write and load nothing."),
]


@friendly_errors
def track(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The model's name, e.g. 'Qwen4-Max'.")
    ],
    org: Annotated[
        str,
        typer.Option(
            "--org", help="The organization that releases it, as people write it ('Mistral AI')."
        ),
    ],
    hf_org: Annotated[
        str | None,
        typer.Option(
            "--hf-org",
            help="Its Hugging Face namespace ('mistralai'); default: the org of --repo, "
            "else --org when that is a valid Hub name.",
        ),
    ] = None,
    alias: Annotated[
        list[str] | None,
        typer.Option(
            "--alias", metavar="<name>", help="Another name it goes by in text (repeatable)."
        ),
    ] = None,
    repo: Annotated[
        str | None, typer.Option("--repo", help="Its Hub repo ORG/NAME, when known.")
    ] = None,
    openrouter: Annotated[
        str | None, typer.Option("--openrouter", help="Its OpenRouter model id (prices).")
    ] = None,
    subscribe: Annotated[
        str | None,
        typer.Option("--subscribe", help="An Apprise URL to alert about its events."),
    ] = None,
    dry_run: DryRunOpt = False,
    data: DataOpt = Path("data"),
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Start tracking a model: add its subject, the watches it needs and an optional
    subscription to the data files (comments and order kept), validate, and load them.

    Writes the org listing watch unless one exists for that Hub org, the repo's model
    watch with --repo, and the OpenRouter models watch with --openrouter. Nothing is
    written when any file would be invalid (the error names the file and line). For a
    model already tracked, it writes the model watches the cycle made to follow its
    repos into watches.toml (kept in git from then on).
    """
    from tracker.curated.edit import apply, plan_track

    plan = plan_track(
        data, name, org, hf_org=hf_org, aliases=alias or (), repo=repo,
        openrouter=openrouter, subscribe=subscribe, followed=_followed_entries(db, name),
        retired=_retired_entries(db, name),
    )  # fmt: skip
    for warning in plan.warnings:
        err_console.print(f"warning: {warning}", highlight=False, markup=False)
    if dry_run:
        from tracker.curated.edit import validate

        validate(plan)  # what a real run would refuse, a dry run refuses too
        _show_dry_run(plan, json_out, "would add ")
        return
    from tracker.curated.load import store_curated

    curated = apply(plan)
    store_curated(open_db(db, create=True), curated)
    if json_out:
        print_json({"subject": plan.slug, "added": plan.changes, "files": sorted(plan.texts),
                    "warnings": plan.warnings})  # fmt: skip
        return
    _show_tracked(plan, data, db)


def _show_tracked(plan: Any, data: Path, db: str | None) -> None:
    """What `track` added and wrote, then the next commands, with the ``--db`` the user
    gave (they read the database `track` loaded, not the data folder)."""
    console.print(f"tracking [bold]{plan.slug}[/bold]:", highlight=False)
    for line in plan.changes:
        console.print(f"  added {line}", highlight=False)
    on_db = "" if db is None else f" --db {shlex.quote(str(db))}"
    # alerts send reads subscriptions.toml of --data: the folder written to, named when not data/
    on_data = "" if data == Path("data") else f" --data {shlex.quote(str(data))}"
    alerts = (
        f", then `tracker alerts send{on_data}{on_db}`"
        if "subscriptions.toml" in plan.texts
        else ""
    )
    # name the database loaded: with --data DIR and no --db it is the default one, where
    # a trial's own models joined the demo's without a word
    into = db if db is not None else (settings.database_url() or "data/tracker.db")
    apart = (
        f" (the default database: pass --db {shlex.quote(str(data / 'tracker.db'))} to keep "
        "this folder's models apart from the demo's)"
        if db is None and data != Path("data")
        else ""
    )
    console.print(
        f"written to {', '.join(str(data / n) for n in plan.texts)} and loaded into "
        f"{into}{apart}; next: "
        f"`tracker check{on_db}`, then `tracker status {plan.slug}{on_db}`{alerts}",
        highlight=False,
        markup=False,
    )


@friendly_errors
def untrack(
    slug: Annotated[str, typer.Argument(metavar="SLUG", help="The subject's slug.")],
    dry_run: DryRunOpt = False,
    data: DataOpt = Path("data"),
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Stop checking a model: remove the watches only it needs from watches.toml and
    retire them and the model watches that followed its repos (never checked again).
    The subject, its claims and everything observed stay."""
    from tracker.curated.edit import apply, plan_untrack

    engine = open_db(db, write=True)  # retires watches: an older schema is upgraded first
    plan = plan_untrack(data, slug, _followed_watches(engine, slug))
    if dry_run:
        _show_dry_run(plan, json_out)
        return
    if plan.texts:
        apply(plan)
    _retire(engine, plan.retire)
    if json_out:
        print_json({"subject": slug, "retired": plan.retire})
        return
    if not plan.retire:
        console.print(f"{slug}: no watch of its own to retire", highlight=False)
    for line in plan.changes:
        console.print(f"  {line}", highlight=False)


def _show_dry_run(plan: Plan, json_out: bool, verb: str = "") -> None:
    """The diff; with ``verb`` (track's "would add "), each change in words after it."""
    if json_out:
        print_json({"subject": plan.slug, "changes": plan.changes, "diff": plan.diff(),
                    "retire": plan.retire, "warnings": plan.warnings})  # fmt: skip
        return
    typer.echo(plan.diff(), nl=False)
    for line in plan.changes if verb else ():
        typer.echo(f"{verb}{line}")
    typer.echo("dry run: nothing written or loaded")


def _followed_entries(db: str | None, name: str) -> list[dict[str, Any]]:
    """Watch entries (name, adapter, url, interval_minutes, params) of the model watches
    the cycle made to follow the repos of the subject ``name`` would have; [] without a
    database."""
    import json

    from sqlmodel import Session, col, select

    from claims.errors import ClaimsError
    from claims.store import tables as models
    from tracker.curated.edit import slug_of
    from tracker.errors import TrackerError

    try:
        engine = open_db(db)
    except (TrackerError, ClaimsError):  # no database yet (or an older one): none followed
        return []
    names = set(_followed_watches(engine, slug_of(name)))
    with Session(engine) as session:
        rows = session.exec(select(models.Watch).where(col(models.Watch.name).in_(names))).all()
    return [
        {"name": w.name, "adapter": w.adapter, "url": w.url,
         "interval_minutes": w.interval_minutes, "params": json.loads(w.params_json)}
        for w in sorted(rows, key=lambda w: w.name)
        if "followed_from" in w.params
    ]  # fmt: skip


def _retired_entries(db: str | None, name: str) -> list[dict[str, Any]]:
    """Watch entries (name, adapter, url, interval_minutes, params) of the retired
    watches that would show the weights of the subject ``name`` (its Hub org listing
    and model watches, as `tracker untrack` retires them); [] without a database or
    subject."""
    from sqlmodel import Session, select

    from claims.errors import ClaimsError
    from claims.store import tables as models
    from claims.store.views import hub_watches, load_observations
    from claims.vocabulary import RETIRED_STATE
    from tracker.curated.edit import slug_of
    from tracker.errors import TrackerError

    try:
        engine = open_db(db)
    except (TrackerError, ClaimsError):  # no database yet (or an older one): none retired
        return []
    with Session(engine) as session:
        subject = session.exec(
            select(models.Subject).where(models.Subject.slug == slug_of(name))
        ).first()
        if subject is None:
            return []
        own = [o for o in load_observations(session) if o.subject_id == subject.id]
        rows = [w for w in hub_watches(session, subject, own) if w.state == RETIRED_STATE]
    return [
        {"name": w.name, "adapter": w.adapter, "url": w.url,
         "interval_minutes": w.interval_minutes, "params": w.params}
        for w in sorted(rows, key=lambda w: w.name)
    ]  # fmt: skip


def _followed_watches(engine: Engine, slug: str) -> list[str]:
    """Model watches (live) that observed the subject: those the cycle created to follow
    its repos, and any other model watch of its repos."""
    from sqlmodel import Session, select

    from claims.store import tables as models
    from claims.vocabulary import RETIRED_STATE

    W, O, S = models.Watch, models.Observation, models.Subject  # noqa: N806, E741
    with Session(engine) as session:
        rows = session.exec(
            select(W.name)
            .where(W.id == O.watch_id, O.subject_id == S.id, S.slug == slug)
            .where(W.adapter == "huggingface_model", W.state != RETIRED_STATE)
            .distinct()
        ).all()
    return sorted(rows)


def _retire(engine: Engine, names: list[str]) -> None:
    from sqlmodel import Session, col, select

    from claims.store import tables as models
    from claims.vocabulary import RETIRED_STATE

    with Session(engine) as session:
        for row in session.exec(select(models.Watch).where(col(models.Watch.name).in_(names))):
            row.state = RETIRED_STATE
            session.add(row)
        session.commit()


def register(app: typer.Typer) -> None:
    """Add track and untrack to the main app."""
    app.command()(track)
    app.command()(untrack)
