"""CLI glue for verification: ``tracker verify``, ``tracker discrepancies``, ``tracker review``.

Thin layer over :func:`claims.store.verification.verify_all` and :mod:`claims.store.review`. The lead
registers them with one line in tracker/cli/main.py: ``cli_verify.register(app)``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any

import typer

from claims.vocabulary import (
    LISTED_DISCREPANCY_STATES,
    NOTE_STATE,
    attribute_label,
    qualifiers_text,
    rule_label,
)
from tracker.cli.common import (
    DbOpt,
    JsonOpt,
    echo_wrapped,
    friendly_errors,
    open_db,
    plural,
    print_json,
)
from tracker.cli.values import choice, choices_text, utc_minute


def _parse_now(text: str | dt.datetime) -> dt.datetime:
    """``--now`` of ``tracker verify``: ISO 8601 (``2026-11-29T12:00Z``, ``2026-11-29``),
    UTC unless it has an offset. Anything else is a usage error (one line naming the
    option, exit 2), as every bad option value is."""
    if isinstance(text, dt.datetime):
        return text
    try:
        t = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not an ISO date-time (e.g. 2026-11-29T12:00Z)"
        ) from None
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


@friendly_errors
def verify_cmd(
    db: DbOpt = None,
    json_out: JsonOpt = False,
    now: Annotated[
        dt.datetime | None,
        typer.Option(
            "--now",
            metavar="<date-time>",
            parser=_parse_now,
            help="Verify as if it were this time: ISO 8601, UTC unless it has an offset "
            "(e.g. 2026-11-29T12:00Z or 2026-11-29). Default: the newest evidence "
            "(the latest successful check of any watch), else now.",
        ),
    ] = None,
) -> None:
    """Verify every claim: verdicts, discrepancies and events (idempotent), e.g. `tracker
    verify`, then `tracker discrepancies`."""
    from tracker import pipeline

    report = pipeline.verify(open_db(db, write=True), now=now)
    if json_out:
        print_json(report.to_dict(), sort_keys=True)
        return
    counts = ", ".join(f"{n} {status}" for status, n in sorted(report.statuses.items()))
    total = sum(report.statuses.values())
    # found settled (never open): not "resolved", as the site and feeds word it
    settled = f"{len(report.found_settled)} already settled, " if report.found_settled else ""
    typer.echo(
        f"verified {plural(total, 'claim')} ({counts or 'none'}); "
        f"{plural(report.open_discrepancies, 'open discrepancy', 'open discrepancies')}; "
        f"{verdict_events_text(report.changed)}, "
        f"{plural(len(report.opened), 'discrepancy', 'discrepancies')} opened, "
        f"{len(report.resolved)} resolved, {settled}{plural(report.events_added, 'event')}"
    )


def verdict_events_text(changed: list[dict[str, Any]]) -> str:
    """``2 verdicts changed, 4 first verdicts that are events (only disputed,
    contradicted or overdue ones are)``: a run's verdict events (``changed`` of
    :class:`claims.store.verification.VerifyReport`), a claim's first verdict apart from a
    change of one, saying why only some first verdicts count (a fresh database reported
    "6 verdicts changed" where nothing had changed)."""
    from claims.store.verification import first_verdict_rule

    first = sum(1 for c in changed if c.get("from") is None)
    text = f"{plural(len(changed) - first, 'verdict')} changed"
    if first:
        text += (
            f", {plural(first, 'first verdict')} that {'is an event' if first == 1 else 'are events'}"
            f" (only {first_verdict_rule()} ones are)"
        )
    return text


def _side_text(side: dict[str, Any]) -> str:
    if side["side"] == "claim":
        q = qualifiers_text(side["qualifiers"])
        who = f"{side['claimant']} via " if side["claimant"] else ""  # not "— ? via"
        return (
            f"    claim #{side['claim_id']} {side['subject']}: {side['value']}"
            f"{f' [{q}]' if q else ''} — {who}{side['source_name']}"
        )
    seen = utc_minute(side["first_seen"])
    return f"    observation #{side['observation_id']}: {side['value']} (first seen {seen})"


@friendly_errors
def discrepancies_cmd(
    db: DbOpt = None,
    json_out: JsonOpt = False,
    subject: Annotated[
        str | None, typer.Option("--subject", help="Only this subject (slug or alias).")
    ] = None,
    state: Annotated[
        str | None,
        typer.Option(
            "--state",
            metavar="STATE",
            parser=choice(LISTED_DISCREPANCY_STATES),
            help=(
                f"Only discrepancies in this state: {choices_text(LISTED_DISCREPANCY_STATES)} "
                "(default: all). A note is about two different subjects, never a conflict."
            ),
        ),
    ] = None,
) -> None:
    """List discrepancies (open first) with both sides, sources and claimants."""
    from sqlmodel import Session

    from claims.store.review import list_discrepancies, shown_label

    with Session(open_db(db)) as session:
        if subject is not None:  # an alias or any case works, as for `tracker status`
            from tracker.cli.status import find_subject

            subject = find_subject(session, subject).slug
        rows = list_discrepancies(session, subject=subject, state=state)  # ReviewError: 1 line
    if json_out:
        print_json(rows, sort_keys=True)
        return
    if not rows:
        typer.echo("no discrepancies")
        return
    for r in rows:
        echo_wrapped(
            f"#{r['id']} [{shown_label(r)}] {' and '.join(r['subjects'] or [r['subject']])} "
            f"{attribute_label(r['attribute'])}: "
            f"{rule_label(r['rule'])}"
        )
        reason, note = r["reason"], r["note"]
        if r["state"] == NOTE_STATE:
            # the title already says "not a conflict"; a note's own text is the automatic
            # "not comparable" (`tracker review` refuses to annotate a note)
            reason, note = reason.removeprefix("not a conflict: "), None
        echo_wrapped(f"    {reason}")
        if note:
            echo_wrapped(f"    note: {note}")
        for side in r["sides"]:
            echo_wrapped(_side_text(side))


def _discrepancy_id(text: str) -> int:
    """``ID`` of ``tracker review``: a whole number, or ``#3`` as `tracker discrepancies`
    prints it; anything else is a usage error (one line, exit 2)."""
    digits = text.strip().removeprefix("#")
    if not re.fullmatch(r"[0-9]+", digits):
        raise typer.BadParameter(
            f"{text!r} is not a discrepancy id (a number such as 3, from `tracker discrepancies`)"
        )
    return int(digits)


@friendly_errors
def review_cmd(
    discrepancy_id: Annotated[
        int, typer.Argument(metavar="ID", help="Discrepancy id", parser=_discrepancy_id)
    ],
    dismiss: Annotated[
        str, typer.Option("--dismiss", help="Dismiss it with this note (kept on later runs)")
    ],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Dismiss a discrepancy with a reviewer's note; the next run does not reopen it.
    With --json: {"id", "rule", "state": "dismissed", "note"}."""
    from sqlmodel import Session

    from claims.store.review import dismiss_discrepancy

    with Session(open_db(db, write=True)) as session:
        row = dismiss_discrepancy(session, discrepancy_id, dismiss)  # ReviewError: one line
        if json_out:
            print_json({"id": row.id, "rule": row.rule, "state": row.state, "note": row.note})
            return
        echo_wrapped(f"dismissed discrepancy #{row.id} ({rule_label(row.rule)}): {row.note}")


def register(app: typer.Typer) -> None:
    """Add ``verify``, ``discrepancies`` and ``review`` to the tracker CLI app."""
    app.command("verify")(verify_cmd)
    app.command("discrepancies")(discrepancies_cmd)
    app.command("review")(review_cmd)
