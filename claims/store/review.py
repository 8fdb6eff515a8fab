"""Discrepancies for people: list them with both sides, and dismiss one with a note.

Reads/writes Discrepancy rows made by :mod:`claims.store.verification`; a dismissal is kept, so
the next verification run does not reopen it (issue 4 "Discrepancies").
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlmodel import Session, col, select

from claims.errors import ClaimsError
from claims.events import ALREADY_SETTLED, settled_never_opened
from claims.store.outbox import add_event, make_event
from claims.store.tables import Claim, Discrepancy, Event, Observation, Source, Subject
from claims.subjects.sourcenames import source_names
from claims.values.canonical import utcnow
from claims.values.timefmt import iso_z
from claims.verify.compare import DIFFERENT_SUBJECT
from claims.vocabulary import LISTED_DISCREPANCY_STATES, NOTE_STATE


class ReviewError(ClaimsError, LookupError):
    """A discrepancy id or subject that does not exist; the message names it."""

    kind = "review"


def shown_state(row: Discrepancy) -> str:
    """How a row is listed, one of :data:`claims.vocabulary.LISTED_DISCREPANCY_STATES`:
    ``note`` for a ``different_subject`` row, else its stored state (``open``,
    ``resolved``, ``dismissed``)."""
    return NOTE_STATE if row.rule == DIFFERENT_SUBJECT else row.state


def discrepancy_sides(
    session: Session, row: Discrepancy, names: dict[int | None, str] | None = None
) -> list[dict[str, Any]]:
    """Each claim of a discrepancy with its value, qualifiers, subject, source and claimant,
    then each observation (``side`` = ``observation``). ``names``: source id -> name
    (:func:`claims.subjects.sourcenames.source_names` of every source; read when not given)."""
    if names is None:
        names = source_names(session.exec(select(Source)).all())
    sides: list[dict[str, Any]] = []
    for cid in json.loads(row.claim_ids_json):
        c = session.get(Claim, cid)
        if c is None:
            continue
        src = session.get(Source, c.source_id)
        subj = session.get(Subject, c.subject_id)
        sides.append(
            {
                "side": "claim",
                "claim_id": c.id,
                "subject": subj.slug if subj else None,
                "value": c.value.display(),
                "qualifiers": c.qualifiers,
                "claimant": c.claimant,
                "source": src.title if src else None,
                "source_name": names.get(src.id) if src else None,  # as reasons name it
                "source_url": src.url if src else None,
                "publisher": src.publisher if src else None,
            }
        )
    for oid in json.loads(row.observation_ids_json):
        o = session.get(Observation, oid)
        if o is None:
            continue
        sides.append(
            {
                "side": "observation",
                "observation_id": o.id,
                "value": o.value.display(),
                "qualifiers": o.qualifiers,
                "source_url": o.source_url,
                "first_seen": iso_z(o.first_seen),
            }
        )
    return sides


def found_settled_keys(session: Session) -> set[str]:
    """Keys of the discrepancies found already settled and never opened, from the
    stored events (:func:`claims.events.settled_never_opened`)."""
    kinds = ("discrepancy_opened", "discrepancy_resolved")
    rows = session.exec(
        select(Event.kind, Event.detail_json).where(col(Event.kind).in_(kinds))
    ).all()
    return settled_never_opened((kind, json.loads(detail or "{}")) for kind, detail in rows)


def shown_label(record: dict[str, Any]) -> str:
    """The state a person reads for a :func:`discrepancy_record`: ``already settled``
    for one found settled (stored ``resolved``; the site's and `tracker verify`'s
    words), else its ``state``."""
    return ALREADY_SETTLED if record.get("found_settled") else str(record["state"])


def discrepancy_record(
    session: Session,
    row: Discrepancy,
    names: dict[int | None, str] | None = None,
    settled: set[str] | None = None,
) -> dict[str, Any]:
    """One discrepancy as a JSON-ready dict (for ``tracker discrepancies --json``);
    ``subjects`` lists every subject its claims are about (two for a different-subjects
    note);
    ``state`` as :func:`shown_state` gives it (``note`` for a different-subjects note,
    stored dismissed), so it matches the listing and ``--state``; ``found_settled``
    true for a resolved one that was found already settled, never open (``settled``:
    :func:`found_settled_keys`, read here when None); ``names`` as for
    :func:`discrepancy_sides`."""
    subj = session.get(Subject, row.subject_id)
    ids = json.loads(row.claim_ids_json or "[]")
    others = session.exec(
        select(Subject.slug)
        .join(Claim, col(Claim.subject_id) == col(Subject.id))
        .where(col(Claim.id).in_(ids))
    ).all()
    return {
        "id": row.id,
        "subject": subj.slug if subj else None,
        # every subject its claims are about: two for a different-subjects note
        "subjects": sorted(({subj.slug} if subj else set()) | set(others)),
        "attribute": row.attribute,
        "rule": row.rule,
        "state": shown_state(row),
        "found_settled": row.state == "resolved"
        and row.key in (found_settled_keys(session) if settled is None else settled),
        "reason": row.reason,
        "note": row.note,
        "opened_at": iso_z(row.opened_at) or None,
        "closed_at": iso_z(row.closed_at) or None,
        "sides": discrepancy_sides(session, row, names),
    }


def list_discrepancies(
    session: Session, *, subject: str | None = None, state: str | None = None
) -> list[dict[str, Any]]:
    """Discrepancy records, open first and notes last, optionally for one subject slug
    (rows whose claims include one about it) and/or one listed state
    (:data:`claims.vocabulary.LISTED_DISCREPANCY_STATES`, as :func:`shown_state` gives
    it: ``dismissed`` leaves the notes out; ``note`` picks them).
    Raises :class:`ReviewError` for an unknown subject or state."""
    if state is not None and state not in LISTED_DISCREPANCY_STATES:
        raise ReviewError(
            f"unknown state {state}: use one of {', '.join(LISTED_DISCREPANCY_STATES)}"
        )
    query = select(Discrepancy)
    rows = [d for d in session.exec(query).all() if state in (None, shown_state(d))]
    if subject is not None:
        from claims.store.claimlist import resolve_slug  # slug, name or alias, any spelling

        slug = resolve_slug(session, subject) or subject
        subj = session.exec(select(Subject).where(Subject.slug == slug)).first()
        if subj is None:
            from claims.curated.datafile import nearest

            slugs = session.exec(select(Subject.slug)).all()
            raise ReviewError(f"unknown subject {subject!r} ({nearest(subject, slugs)})")
        # a cross-subject note belongs to every subject one of its claims is about
        mine = {c.id for c in session.exec(select(Claim).where(Claim.subject_id == subj.id)).all()}
        rows = [
            d for d in rows if d.subject_id == subj.id or mine & set(json.loads(d.claim_ids_json))
        ]
    order = {name: rank for rank, name in enumerate(LISTED_DISCREPANCY_STATES)}
    rows.sort(key=lambda d: (order.get(shown_state(d), len(order)), d.id or 0))
    names = source_names(session.exec(select(Source)).all())
    settled = found_settled_keys(session)
    return [discrepancy_record(session, d, names, settled) for d in rows]


def unknown_id_text(session: Session, discrepancy_id: int, shown: int = 8) -> str:
    """The error for an id no discrepancy has, naming the ids there are (all up to
    ``shown``, else the ``shown`` nearest) and the command that lists them: ``no
    discrepancy with id 999 (there are #1, #2, #3; `tracker discrepancies` lists them
    with their sides)``. A trial typed an id and got only "no discrepancy"."""
    ids = sorted(i for i in session.exec(select(Discrepancy.id)).all() if i is not None)
    if not ids:
        return f"no discrepancy with id {discrepancy_id}: there are none yet (`tracker verify` finds them)"
    if len(ids) <= shown:
        there = "there are " + ", ".join(f"#{i}" for i in ids)
    else:
        near = sorted(sorted(ids, key=lambda i: (abs(i - discrepancy_id), i))[:shown])
        there = f"the nearest of {len(ids)}: " + ", ".join(f"#{i}" for i in near)
    return (
        f"no discrepancy with id {discrepancy_id} ({there}; `tracker discrepancies` lists "
        "them with their sides)"
    )


def dismiss_discrepancy(
    session: Session, discrepancy_id: int, note: str, *, now: dt.datetime | None = None
) -> Discrepancy:
    """A reviewer dismisses a discrepancy with a note (required); commits. The state stays
    ``dismissed`` on later runs. Dismissing it again adds the note, dated, after the
    earlier one (``first note | 2026-11-30: second note``) and keeps the first dismissal's
    time: a reviewer's reason is never overwritten. Dismissing an open discrepancy is an
    event (``discrepancy_dismissed``, with the note), as its opening was. Raises
    :class:`ReviewError` for an unknown id, an empty note, a different-subject note
    (never a conflict: nothing to dismiss) or a resolved discrepancy (settled already:
    ``#1 is resolved (settled by observation #50: ...): nothing to dismiss``)."""
    from claims.store.verification import DIFFERENT_SUBJECT, discrepancy_title

    row = session.get(Discrepancy, discrepancy_id)
    if row is None:
        raise ReviewError(unknown_id_text(session, discrepancy_id))
    if row.rule == DIFFERENT_SUBJECT:
        raise ReviewError(
            f"discrepancy #{discrepancy_id} is a note (figures about two different subjects), "
            "not a conflict: there is nothing to dismiss"
        )
    if row.state == "resolved":
        _, _, settled = row.reason.partition("; settled by ")
        _, _, gone = row.reason.partition("; no longer found (")
        how = (
            f" (settled by {settled})"
            if settled
            else f" (no longer found: {gone.removesuffix(')')})"
            if gone
            else ""
        )
        state = ALREADY_SETTLED if row.key in found_settled_keys(session) else "resolved"
        raise ReviewError(f"#{discrepancy_id} is {state}{how}: nothing to dismiss")
    if not note.strip():
        raise ReviewError("a dismissal needs a note saying why")
    now = now or utcnow()
    # Subscribers heard of every open discrepancy (its discrepancy_opened).
    announce = row.state == "open"
    if row.state == "dismissed" and row.note:
        row.note = f"{row.note} | {now:%Y-%m-%d}: {note.strip()}"
    else:
        row.state, row.note, row.closed_at = "dismissed", note.strip(), now
    if announce:
        subject = session.get(Subject, row.subject_id)
        title = discrepancy_title(subject.name if subject else str(row.subject_id), row)
        detail = {"discrepancy": row.key, "rule": row.rule, "note": row.note}
        add_event(
            session,
            make_event(
                "discrepancy_dismissed", title, subject_id=row.subject_id, detail=detail, at=now
            ),
        )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row
