"""Weights status of a subject: did the weights land, where, under what licence, and
how late are the promises. Reads observations, claims and watch checks; pure queries.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, select

from claims import models
from claims.loaders import last_hub_check, load_observations
from claims.models import as_utc
from claims.values import Value


@dataclass(frozen=True)
class Promise:
    """One source's statement of when the weights come: ``date`` ISO, ``relation`` on/before/by."""

    date: str
    relation: str
    source: str
    claimant: str | None
    claim_id: int

    def __iter__(self):  # type: ignore[no-untyped-def]
        """Unpacks as ``(date, relation, source, claimant)`` for templates."""
        return iter((self.date, self.relation, self.source, self.claimant))

    def days_overdue(self, as_of: dt.datetime | None) -> int | None:
        """Whole days past :meth:`deadline` at ``as_of`` (None when not past or unknown)."""
        if as_of is None:
            return None
        late = (as_of.date() - self.deadline()).days
        return late if late > 0 else None

    def deadline(self) -> dt.date:
        """Last day that keeps the promise: the day before for "before", else the date."""
        d = Value(kind="date", value=self.date, relation=self.relation).as_date()
        return d - dt.timedelta(days=1) if self.relation == "before" else d


@dataclass
class WeightsStatus:
    """Answer to "did the weights land, and under what licence" for one subject.

    ``as_of`` is the last successful check of a watch that would show the weights
    (the subject's Hub org listing or one of its repos); ``overdue_days`` counts whole
    days from the most generous promised deadline to ``as_of`` (None when not overdue
    or when the weights landed).
    """

    slug: str
    name: str
    landed: bool
    repo: str | None = None
    landed_at: dt.datetime | None = None
    license: str | None = None
    license_source: str | None = None
    promises: list[Promise] = field(default_factory=list)
    overdue_days: int | None = None
    as_of: dt.datetime | None = None
    # The repo was already listed the first time its watch ran: ``landed_at`` is then
    # only "by this time", not the landing date. ``repo_created`` is the Hub's createdAt.
    at_first_check: bool = False
    repo_created: str | None = None

    def to_dict(self) -> dict[str, Any]:
        def iso(t: dt.datetime | None) -> str | None:
            return as_utc(t).isoformat().replace("+00:00", "Z") if t else None

        return {
            "subject": self.slug,
            "name": self.name,
            "weights": "landed" if self.landed else "not landed",
            "landed": self.landed,
            "repo": self.repo,
            "landed_at": iso(self.landed_at),
            "landed_at_meaning": (
                "first seen at the first check (landed earlier)"
                if self.at_first_check
                else "first seen"
            )
            if self.landed
            else None,
            "repo_created": self.repo_created,
            "license": self.license,
            "license_source": self.license_source,
            "promises": [
                {
                    "date": p.date,
                    "relation": p.relation,
                    "source": p.source,
                    "claimant": p.claimant,
                    "days_overdue": None if self.landed else p.days_overdue(self.as_of),
                }
                for p in self.promises
            ],
            "overdue_days": self.overdue_days,
            "as_of": iso(self.as_of),
        }


def weights_status(session: Session, subject: models.Subject) -> WeightsStatus:
    """Compute :class:`WeightsStatus` for ``subject`` from the database."""
    status = WeightsStatus(slug=subject.slug, name=subject.name, landed=False)
    obs = session.exec(
        select(models.Observation).where(
            models.Observation.subject_id == subject.id,
            models.Observation.attribute == "weights_available",
        )
    ).all()
    landed = [o for o in obs if o.value.value is True]
    if landed:
        first = min(landed, key=lambda o: as_utc(o.first_seen))
        status.landed = True
        status.repo = first.qualifiers.get("repo")
        status.landed_at = as_utc(first.first_seen)
        same_watch = session.exec(
            select(models.Observation.first_seen).where(
                models.Observation.watch_id == first.watch_id
            )
        ).all()
        status.at_first_check = (
            bool(same_watch) and min(as_utc(t) for t in same_watch) == status.landed_at
        )
        created = first.value.extra.get("created_at")
        status.repo_created = str(created)[:10] if created else None
    lic = session.exec(
        select(models.Observation).where(
            models.Observation.subject_id == subject.id,
            models.Observation.attribute == "license",
            models.Observation.current == True,  # noqa: E712
        )
    ).all()
    if lic:
        latest = max(lic, key=lambda o: as_utc(o.last_seen))
        status.license, status.license_source = (
            str(latest.value.value),
            latest.source_url or "observed",
        )
    rows = session.exec(
        select(models.Claim, models.Source)
        .where(
            models.Claim.subject_id == subject.id, models.Claim.attribute == "weights_release_date"
        )
        .where(models.Claim.source_id == models.Source.id)
    ).all()
    for claim, source in rows:
        v = claim.value
        assert claim.id is not None
        status.promises.append(
            Promise(str(v.value), str(v.relation), source.title, claim.claimant, claim.id)
        )
    status.promises.sort(key=lambda p: (p.date, p.relation, p.source))
    own = [o for o in load_observations(session) if o.subject_id == subject.id]
    status.as_of = last_hub_check(session, subject, own)
    if not status.landed and status.promises and status.as_of is not None:
        latest_deadline = max(p.deadline() for p in status.promises)
        late = (status.as_of.date() - latest_deadline).days
        status.overdue_days = late if late > 0 else None
    return status
