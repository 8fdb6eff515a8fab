"""`tracker claims list` and `tracker claims export`: stored claims from the terminal
(value, qualifiers, source, claimant, verdict, reason, as of), and one source's claims
as a data file that `tracker load` reads back to the same claims."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claims.vocabulary import ATTRIBUTES, VERDICT_STATUSES, attribute_label, qualifiers_text
from tracker.cli.common import (
    DbOpt,
    JsonOpt,
    console,
    fit_width,
    friendly_errors,
    open_db,
    print_json,
    print_table,
    whole_word_minimum,
)
from tracker.cli.values import choice, choices_text, utc_minute
from tracker.errors import TrackerError, UnknownName

if TYPE_CHECKING:
    from rich.table import Table
    from sqlmodel import Session

    from claims.store.claimlist import ClaimRow

# A claim `tracker verify` has not judged yet: the same words in the verdict column, in
# --verdict and in `claims import`'s closing line.
NO_VERDICT = "no verdict yet"
VERDICT_CHOICES = (*VERDICT_STATUSES, NO_VERDICT)
ATTRIBUTE_CHOICES = tuple(ATTRIBUTES)
# Help texts out of the annotations (which are strings, evaluated later).
VERDICT_HELP = (
    f"Only this verdict (repeatable): {', '.join(VERDICT_STATUSES)} or "
    f'"{NO_VERDICT}" (claims `tracker verify` has not judged).'
)
ATTRIBUTE_HELP = f"Only this attribute (repeatable): {choices_text(ATTRIBUTE_CHOICES)}."


def _slug_or_hint(session: Session, name: str) -> str:
    """The slug ``name`` names (slug, name or alias: :func:`claims.store.claimlist.resolve_slug`);
    UnknownName otherwise, worded as `status` words it (did you mean, known)."""
    from claims.store.claimlist import resolve_slug
    from tracker.cli.status import unknown_subject

    slug = resolve_slug(session, name)
    if slug is None:
        raise UnknownName(*unknown_subject(session, name))
    return slug


def _choice(allowed: tuple[str, ...], normalize: Callable[[str], str] | None = None) -> Any:
    """:func:`tracker.cli.values.choice` (a usage error, exit 2, naming every allowed
    value) with a did-you-mean for a near miss (``confirmd``)."""
    from claims.curated.datafile import nearest

    parse = choice(allowed, normalize)

    def checked(value: str) -> str:
        try:
            return parse(value)
        except typer.BadParameter as exc:
            hint = nearest(value, allowed)
            near = f" ({hint})" if hint.startswith("did you mean") else ""
            raise typer.BadParameter(f"{exc}{near}") from None

    return checked


def _verdict_word(value: str) -> str:
    """``no-verdict-yet``, ``no_verdict_yet`` and ``none`` (the JSON's null) -> the
    words ``no verdict yet``."""
    words = value.replace("-", " ").replace("_", " ")
    return NO_VERDICT if words.casefold() in (NO_VERDICT, "none") else value


@friendly_errors
def list_cmd(
    subject: Annotated[
        str | None,
        typer.Argument(metavar="SUBJECT", help="A subject slug or alias; default: all."),
    ] = None,
    attribute: Annotated[
        list[str] | None,
        typer.Option(
            "--attribute",
            metavar="ATTRIBUTE",
            parser=_choice(ATTRIBUTE_CHOICES),
            help=ATTRIBUTE_HELP,
        ),
    ] = None,
    verdict: Annotated[
        list[str] | None,
        typer.Option(
            "--verdict",
            metavar="VERDICT",
            parser=_choice(VERDICT_CHOICES, _verdict_word),
            help=VERDICT_HELP,
        ),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every stored claim with its verdict: value, qualifiers, source, claimant, verdict,
    reason and as of (run tracker verify for verdicts), e.g. `tracker claims list
    kimi-k3.1-pro --verdict overdue`."""
    from sqlmodel import Session

    from claims.store.claimlist import list_claims

    with Session(open_db(db)) as session:
        slug = _slug_or_hint(session, subject) if subject else None
        rows = list_claims(
            session, subject=slug,
            attributes=attribute or [],
            verdicts=["none" if v == NO_VERDICT else v for v in verdict or []],
        )  # fmt: skip
    if json_out:
        print_json([r.to_dict() for r in rows])
        return
    table = claims_table(rows)
    width = fit_width()
    if width is not None and whole_word_minimum(table, len(table.columns) - 1) > width:
        table = claims_table(rows, stacked=True)  # its words whole side by side, narrower
    print_table(table, breakable=len(table.columns) - 1, fit=True)
    console.print(f"{len(rows)} claims", highlight=False)


def claims_table(rows: Sequence[ClaimRow], *, stacked: bool = False) -> Table:
    """The text table of ``rows``, one column a field, the reason last (it wraps);
    ``stacked`` (for a width where the longest words of those eight columns do not fit
    side by side, 80 columns with the demo's claims): four columns, the subject,
    attribute and value one under the other, the claimant under the source, the
    verdict before its reason, so no word is split."""
    from rich.table import Table
    from rich.text import Text  # plain text: no "[...]" in a cell is read as markup

    if stacked:
        table = Table("#", "subject / attribute / value", "source / claimant", "verdict: reason")
    else:
        table = Table(
            "#", "subject", "attribute", "value", "source", "claimant", "verdict", "reason"
        )
    for r in rows:
        what = attribute_label(r.attribute) + qualifiers_short(r.qualifiers)
        said = r.reason or ("" if r.verdict else "run `tracker verify` to give it one")
        as_of = (
            f" (as of {utc_minute(r.to_dict()['as_of'])})"
            if r.as_of and "as of" not in said
            else ""
        )
        verdict = r.verdict or NO_VERDICT
        if stacked:
            table.add_row(
                str(r.id), Text(f"{r.subject}\n{what}\n{r.value}"),
                Text(f"{r.source}\n{r.claimant}" if r.claimant else r.source),
                Text(f"{verdict}: {said}{as_of}" if said or as_of else verdict),
            )  # fmt: skip
            continue
        table.add_row(
            str(r.id), r.subject, Text(what), Text(r.value), Text(r.source),
            Text(r.claimant or ""), verdict, Text(said + as_of),
        )  # fmt: skip
    return table


def qualifiers_short(qualifiers: dict[str, str]) -> str:
    """What the attribute cell adds after `` · ``: ``{"benchmark": "Terminal-Bench",
    "version": "4.0"}`` -> `` · Terminal-Bench 4.0``; any other qualifier as
    :func:`claims.vocabulary.qualifiers_text` labels it (`` · variant: Mini``); empty
    without qualifiers."""
    rest = dict(qualifiers)
    parts = []
    if "benchmark" in rest:
        bench = str(rest.pop("benchmark"))
        version = rest.pop("version", None)
        parts.append(f"{bench} {version}" if version else bench)
    if rest:
        parts.append(qualifiers_text(rest))
    return "".join(f" · {p}" for p in parts)


@friendly_errors
def export_cmd(
    source: Annotated[str, typer.Option("--source", help="The source key to export.")],
    db: DbOpt = None,
) -> None:
    """Print one source and its claims as a claims data file (TOML), e.g.
    `tracker claims export --source KEY > data/claims/KEY.toml`: `tracker load` reads it
    back to the same claims (values, qualifiers, claimant, locator), so imported claims
    can be kept in git."""
    from sqlmodel import Session

    from claims.curated.datafile import near_names, nearest
    from claims.curated.export import ExportError, claims_file
    from claims.store.claimlist import source_keys, source_with_claims

    with Session(open_db(db)) as session:
        found = source_with_claims(session, source)
        if found is None:
            keys = source_keys(session)
            raise UnknownName(
                f"unknown source {source!r} ({nearest(source, keys)})", near_names(source, keys)
            )
        src, rows = found
        fields = {name: getattr(src, name, None) for name in
                  ("key", "title", "url", "publisher", "published", "published_precision",
                   "language", "kind")}  # fmt: skip
        claims = [
            {"id": c.id, "subject": slug, "attribute": c.attribute, "value": c.value,
             "qualifiers": c.qualifiers, "raw": c.raw_text, "claimant": c.claimant,
             "locator": c.locator, "stated_date": c.stated_date, "note": c.note}
            for c, slug in rows
        ]  # fmt: skip
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = (
        f"Exported by `tracker claims export --source {source}` on {stamp}.\n"
        "`tracker load` stores these claims from this file from now on (docs/data.md)."
    )
    try:
        typer.echo(claims_file(fields, claims, header), nl=False)
    except ExportError as exc:
        raise TrackerError(str(exc)) from None


def register(app: typer.Typer) -> None:
    """Add list and export to the claims command group."""
    app.command("list")(list_cmd)
    app.command("export")(export_cmd)
