"""`tracker status SUBJECT`: did the weights land, when (and how late), under what
licence; what was promised, by whom, and how overdue. Also how a subject is found by
slug or alias (shared with `tracker discrepancies`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from claims.values.canonical import utcnow
from tracker.cli.common import (
    DbOpt,
    JsonOpt,
    console,
    echo_wrapped,
    friendly_errors,
    open_db,
    plain,
    print_json,
)
from tracker.cli.values import utc_minute
from tracker.errors import UnknownName

if TYPE_CHECKING:
    from sqlmodel import Session

    from claims.store import tables as models
    from claims.store.status import WeightsStatus


@friendly_errors
def status(
    subject: Annotated[
        str,
        typer.Argument(
            metavar="SUBJECT", help="Subject slug or alias, e.g. kimi-k3.1-pro or 'Kimi K3.1 Pro'."
        ),
    ],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Did the weights land, and under what licence?

    Shows the repo and first-seen time when the weights landed; otherwise every
    promised date, by which source, and how many days overdue as of the last Hub check.
    """
    engine = open_db(db)
    from sqlmodel import Session

    from claims.store.status import weights_status

    with Session(engine) as session:
        row = find_subject(session, subject)
        st = weights_status(session, row)
    if st.last_failure is not None:
        from tracker.schedule.watchlist import next_run, scheduler_live

        st.next_retry, _kind = next_run(engine, st.last_failure.watch)
        st.scheduler_running = scheduler_live(engine, utcnow())
    if json_out:
        print_json(st.to_dict())
        return
    console.print(f"[bold]{plain(st.name)}[/bold] ({plain(st.slug)})")
    if st.landed:
        echo_wrapped(f"  weights: landed — {st.repo}, {landed_text(st)}")
    elif st.withdrawn:
        echo_wrapped(f"  weights: {withdrawn_text(st)}")
    elif st.weights_word == "not landed":
        # the time the answer is from, as --json's as_of (a not-landed is only ever "yet")
        since = f" (as of {utc_minute(st.as_of)})" if st.as_of is not None else ""
        console.print(f"  weights: [bold red]not landed[/bold red]{since}", highlight=False)
    else:
        console.print(f"  weights: {unknown_text(st)}", highlight=False)
    for p in st.promises:
        late = None if st.landed else p.days_overdue(st.as_of)
        # the same count and words as the overall line below (claims.verify.promises.days_past)
        note = f" — overdue by {late} days (from its deadline {p.deadline()})" if late else ""
        what = f" [{p.qualifiers_text}]" if p.qualifiers else ""
        echo_wrapped(
            f"  promised: {p.relation} {p.date}{what} — {p.source} "
            f"(claimant: {p.claimant or 'unknown'}){note}"
        )
    for line in check_lines(st, row.hub_org):
        echo_wrapped(f"  {line}")
    for line in access_lines(st):
        echo_wrapped(f"  {line}")


NO_SUCCESS = "no successful Hub check yet"  # the site's words too


def unknown_text(st: WeightsStatus) -> str:
    """The weights of a subject no successful Hub check answered for: ``unknown (no
    successful Hub check yet)`` when a watch looks (or looked), else ``unknown (nothing
    checks)``; the words of `tracker status` and the demo's summary alike."""
    return f"unknown ({NO_SUCCESS})" if st.watched or st.retired else "unknown (nothing checks)"


def check_lines(st: WeightsStatus, hub_org: str | None) -> list[str]:
    """What the Hub checks say beside the weights line: how overdue as of the last
    check, ``not watched (untracked: its watches are retired)``, the failed latest
    check of a watch (:func:`failure_lines`: after an earlier success, the weights line
    is that success's answer), ``no Hub check has run yet``, or that no watch looks."""
    d = st.to_dict()
    lines = []
    if st.overdue_days:
        lines.append(
            f"overdue by {st.overdue_days} days as of {utc_minute(d['as_of'])} "
            f"(counted from the latest promised deadline, {st.latest_deadline})"
        )
    if st.retired:
        return [*lines, "not watched (untracked: its watches are retired)"]
    if st.last_failure is not None:
        return [*lines, *failure_lines(st)]
    if st.landed or st.withdrawn or st.as_of is not None:
        return lines
    if st.watched:
        return [*lines, "no Hub check has run yet: run `tracker check`"]
    org = f" ({hub_org})" if hub_org else ""
    return [
        *lines,
        f"no watch looks at its Hub org{org} or repos, so nothing would see the weights "
        "land: add a huggingface_org or huggingface_model watch to watches.toml "
        "(docs/watches.md)",
    ]


def failure_lines(st: WeightsStatus) -> list[str]:
    """A failing latest Hub check, for people: ``last successful Hub check T (the lines
    above are its answers)`` when one succeeded before, then ``last Hub check failed at
    T: kind: error (watch W, 2 failures in a row); next retry T``."""
    failure = st.last_failure
    assert failure is not None
    lines = []
    if st.as_of is not None:
        lines.append(f"last successful Hub check {utc_minute(st.as_of)} (the weights are as of it)")
    row = "1 failure" if failure.failures == 1 else f"{failure.failures} failures"
    retry = f"; next retry {utc_minute(st.next_retry)}" if st.next_retry else ""
    if st.next_retry and not st.scheduler_running:  # a plan nobody keeps (a stopped scheduler's)
        retry = (
            f"; retry due {utc_minute(st.next_retry)}, but no scheduler is running: "
            "`tracker check` or `tracker schedule` runs it"
        )
    lines.append(
        f"last Hub check failed at {utc_minute(failure.at)}: {failure.kind}: {failure.error} "
        f"(watch {failure.watch}, {row} in a row){retry}"
    )
    return lines


def access_lines(st: WeightsStatus) -> list[str]:
    """``licence: apache-2.0 (SPDX Apache-2.0, https://huggingface.co/ORG/NAME/blob/main/LICENSE)
    — read 2026-11-28 06:00 UTC`` (the link: the repo's licence file, else the SPDX page,
    else why there is none: ``no licence file in the repo``) and ``access: gated (manual) — read ...``: what the Hub said last
    (``gated``: not gated, gated (auto), gated (manual); unknown when never read)."""
    d = st.to_dict()
    if st.license:
        where = st.license_link or st.license_note or ""  # the licence itself, or why not
        how = ", ".join(x for x in (f"SPDX {st.license_spdx}" if st.license_spdx else "",
                                     where) if x)  # fmt: skip
        lic = f"licence: {st.license}" + (f" ({how})" if how else "")
        lic += f" — read {utc_minute(d['license_read_at'])}" if st.license_read_at else ""
    else:
        lic = "licence: unknown"
    if st.gated is None:
        access = "access: unknown (gating not read)"
    else:
        said = "not gated" if st.gated == "false" else f"gated ({st.gated})"
        access = f"access: {said} — read {utc_minute(d['gated_read_at'])}"
    return [lic, access]


def withdrawn_text(st: WeightsStatus) -> str:
    """Weights that were public and are no longer: ``withdrawn — auralis/Nova-2 no
    longer public since T (last seen public T; alert: TITLE)``; the words of `tracker
    status` and the demo's summary."""
    d = st.to_dict()["withdrawn"]
    since = f" since {utc_minute(d['since'])}" if d["since"] else ""
    alert = f"; alert: {st.withdrawn_alert}" if st.withdrawn_alert else ""
    return (
        f"withdrawn — {st.repo} no longer public{since} "
        f"(last seen public {utc_minute(d['last_seen_public'])}{alert})"
    )


def landed_text(st: WeightsStatus) -> str:
    """'first seen T', noting when T is only the first check (the repo was already there)."""
    d = st.to_dict()
    seen = utc_minute(d["landed_at"])
    if st.at_first_check:
        created = f"; repo created {st.repo_created}" if st.repo_created else ""
        return f"already listed at the first Hub check {seen}{created}"
    late = st.landed_late_days
    text = f"first seen {seen}"
    if st.landed_after is not None:  # the previous successful check bounds the landing
        text = f"landed between {utc_minute(d['landed_after'])} and {seen} (first seen)"
    return text + (f", {late} days after the latest promised date" if late else "")


def find_subject(session: Session, name: str) -> models.Subject:
    """A subject by slug, name or any alias, case, spaces and hyphens not counting
    (``KIMI-K3.1-PRO``, ``kimi k3.1 pro``, ``nova-2`` for the alias ``Nova 2``:
    :func:`claims.store.claimlist.resolve_slug`); UnknownName naming the known slugs and
    the nearest of every name (slugs, names, aliases)."""
    from sqlmodel import select

    from claims.store import tables as models
    from claims.store.claimlist import resolve_slug

    slug = resolve_slug(session, name)
    row = None
    if slug is not None:
        row = session.exec(select(models.Subject).where(models.Subject.slug == slug)).first()
    if row is None:
        raise UnknownName(*unknown_subject(session, name))
    return row


def unknown_subject(session: Session, name: str) -> tuple[str, list[str]]:
    """(message, hints) of a name no subject goes by: ``unknown subject 'nova2x' (did you
    mean 'auralis-nova-2'?); known: …``, the hint the nearest slug, name or alias read
    as the slug it names, else the one slug the name begins or is the start of. The one
    wording of `status`, `claims list` and the other commands that take a subject."""
    from claims.curated.datafile import near_names
    from claims.store.claimlist import name_key, subject_names, subject_slugs

    slugs = subject_slugs(session)
    keys = {name_key(n): slug for n, slug in subject_names(session).items()}
    hint = list(dict.fromkeys(keys[k] for k in near_names(name_key(name), list(keys))))
    # several names of one subject begin with the typed one ('borealis': its slug, name
    # and aliases), which near_names leaves out as ambiguous: its slugs alone decide
    hint = hint or near_names(name, slugs)
    known = ", ".join(slugs) or "none (run `tracker load`)"
    near = f" (did you mean {hint[0]!r}?)" if hint else ""
    return f"unknown subject {name!r}{near}; known: {known}", hint


def register(app: typer.Typer) -> None:
    """Add status to the main app."""
    app.command()(status)
