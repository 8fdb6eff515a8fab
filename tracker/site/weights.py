"""Weights status for the site: ``claims.status.weights_status`` when it exists.

Until the lead's ``claims.status`` lands, a minimal stand-in computed from the tables
keeps the same shape (delete the fallback once it is on main).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlmodel import Session, select

from claims.models import Claim, Observation, Source, Subject, Watch
from tracker.eventtext import as_utc

try:  # the lead's implementation is the authority
    from claims.status import weights_status as _weights_status  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - exercised until claims.status lands
    _weights_status = None


@dataclass
class WeightsStatus:
    """Mirror of ``claims.status.WeightsStatus``: promises are (date ISO, relation,
    source title, claimant)."""

    landed: bool
    repo: str | None = None
    landed_at: dt.datetime | None = None
    promises: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    overdue_days: int | None = None
    as_of: dt.datetime | None = None
    license: str | None = None


def weights_status(session: Session, subject: Subject) -> WeightsStatus:
    """Did the weights land, where, under what licence; promises and days overdue.

    Delegates to ``claims.status.weights_status`` when importable.
    """
    if _weights_status is not None:
        return _weights_status(session, subject)  # type: ignore[no-any-return]
    return _from_tables(session, subject)


def _from_tables(session: Session, subject: Subject) -> WeightsStatus:
    obs = session.exec(
        select(Observation).where(Observation.subject_id == subject.id, Observation.current)
    ).all()
    landed_rows = sorted(
        (o for o in obs if o.attribute == "weights_available" and o.value.value is True),
        key=lambda o: as_utc(o.first_seen),
    )
    licence = next((str(o.value.value) for o in obs if o.attribute == "license"), None)
    rows = session.exec(
        select(Claim, Source)
        .where(Claim.subject_id == subject.id, Claim.attribute == "weights_release_date")
        .where(Claim.source_id == Source.id)
        .order_by(Claim.id)
    ).all()
    promises = [(str(c.value.value), str(c.value.relation), s.title, c.claimant) for c, s in rows]
    checks = [
        as_utc(w.last_success)
        for w in session.exec(select(Watch).where(Watch.adapter.startswith("huggingface"))).all()
        if w.last_success is not None
    ]
    as_of = max(checks) if checks else None
    status = WeightsStatus(
        landed=bool(landed_rows), promises=promises, as_of=as_of, license=licence
    )
    if landed_rows:
        first = landed_rows[0]
        status.repo = first.qualifiers.get("repo") or first.value.extra.get("repo")
        status.landed_at = as_utc(first.first_seen)
    elif promises and as_of is not None:
        deadline = min(dt.date.fromisoformat(p[0][:10]) for p in promises)
        late = (as_of.date() - deadline).days
        status.overdue_days = late if late > 0 else None
    return status
