"""Site stage 1: query the claims database once into a :class:`SiteContext`.

Everything the templates, exports and feeds show is gathered here (pelican's
generate_context); rendering never touches the database.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.models import (
    Claim,
    Discrepancy,
    Event,
    Observation,
    Snapshot,
    Source,
    Subject,
    SubjectAlias,
    SubjectVariant,
    Verdict,
    Watch,
)
from claims.status import WeightsStatus, weights_statuses
from tracker.eventtext import as_utc, describe_change
from tracker.website.charts import Chart, build_charts
from tracker.website.writer import SiteError

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass
class EvidenceView:
    observation_id: int
    attribute: str
    value: str
    first_seen: dt.datetime
    last_seen: dt.datetime
    current: bool
    source_url: str | None
    sha256: str | None
    fetched_at: dt.datetime | None


@dataclass
class VerdictView:
    status: str
    reason: str
    as_of: dt.datetime | None
    evidence: list[EvidenceView]
    evidence_ids: list[int]


@dataclass
class ClaimView:
    claim: Claim
    subject_slug: str
    subject_name: str
    qualifiers: str
    value: str
    value_dict: dict[str, Any]
    source: Source
    verdict: VerdictView | None


@dataclass
class EventView:
    event: Event
    created_at: dt.datetime
    change: str
    subject_slug: str | None
    subject_name: str | None


@dataclass
class DiscrepancyView:
    row: Discrepancy
    subject_slug: str
    subject_name: str
    claims: list[ClaimView]
    observations: list[EvidenceView]
    claim_ids: list[int]
    observation_ids: list[int]


@dataclass
class SubjectView:
    subject: Subject
    aliases: list[str]
    variants: list[str]
    weights: WeightsStatus
    open_discrepancies: int
    last_change: dt.datetime | None
    groups: list[tuple[str, list[ClaimView]]]
    events: list[EventView]
    discrepancies: list[DiscrepancyView]
    charts: list[Chart]

    @property
    def slug(self) -> str:
        return self.subject.slug


@dataclass
class SourceView:
    source: Source
    claims: list[ClaimView]
    counts: dict[str, int]


@dataclass
class SiteContext:
    """Everything a build shows; ``data_as_of`` is the latest successful watch check."""

    subjects: list[SubjectView]
    discrepancies: list[DiscrepancyView]
    sources: list[SourceView]
    watches: list[Watch]
    events: list[EventView]
    data_as_of: dt.datetime | None


def collect(engine: Engine) -> SiteContext:
    """Read subjects, sources, claims, verdicts, observations, snapshots, discrepancies,
    events and watches in one session. Raises :class:`SiteError` for a slug that cannot
    be a URL path segment."""
    with Session(engine) as session:
        subjects = session.exec(select(Subject).order_by(Subject.slug)).all()
        for s in subjects:
            if not SLUG_RE.match(s.slug):
                raise SiteError(f"subject slug {s.slug!r} cannot be a page path")
        by_id = {s.id: s for s in subjects}
        aliases: dict[int, list[str]] = defaultdict(list)
        for a in session.exec(select(SubjectAlias).order_by(SubjectAlias.alias)).all():
            if a.namespace == "name":
                aliases[a.subject_id].append(a.alias)
        variants: dict[int, list[str]] = defaultdict(list)
        for v in session.exec(select(SubjectVariant).order_by(SubjectVariant.name)).all():
            variants[v.subject_id].append(v.name)
        sources = {s.id: s for s in session.exec(select(Source).order_by(Source.key)).all()}
        snapshots = {s.id: s for s in session.exec(select(Snapshot)).all()}
        observations = session.exec(select(Observation).order_by(Observation.id)).all()
        obs_by_id = {o.id: o for o in observations}
        verdicts = {v.claim_id: v for v in session.exec(select(Verdict)).all()}
        claims = session.exec(select(Claim).order_by(Claim.attribute, Claim.id)).all()
        discs = session.exec(select(Discrepancy).order_by(Discrepancy.id)).all()
        events = session.exec(
            select(Event).order_by(Event.created_at.desc(), Event.id.desc())  # type: ignore[attr-defined]
        ).all()
        watches = list(session.exec(select(Watch).order_by(Watch.name)).all())
        weights = weights_statuses(session, subjects)

    def evidence(oid: int) -> EvidenceView | None:
        o = obs_by_id.get(oid)
        if o is None:
            return None
        snap = snapshots.get(o.snapshot_id) if o.snapshot_id else None
        return EvidenceView(
            observation_id=oid,
            attribute=o.attribute,
            value=o.value.display(),
            first_seen=as_utc(o.first_seen),
            last_seen=as_utc(o.last_seen),
            current=o.current,
            source_url=o.source_url or (snap.url if snap else None),
            sha256=snap.sha256 if snap else None,
            fetched_at=as_utc(snap.fetched_at) if snap else None,
        )

    claim_views: dict[int, ClaimView] = {}
    for c in claims:
        subj = by_id[c.subject_id]
        verdict = verdicts.get(c.id)  # type: ignore[arg-type]
        vview = None
        if verdict is not None:
            ids = [int(i) for i in json.loads(verdict.evidence_json or "[]")]
            vview = VerdictView(
                status=verdict.status,
                reason=verdict.reason,
                as_of=as_utc(verdict.as_of) if verdict.as_of else None,
                evidence=[e for e in (evidence(i) for i in ids) if e is not None],
                evidence_ids=ids,
            )
        quals = c.qualifiers
        claim_views[c.id] = ClaimView(  # type: ignore[index]
            claim=c,
            subject_slug=subj.slug,
            subject_name=subj.name,
            qualifiers=", ".join(f"{k}: {quals[k]}" for k in sorted(quals)),
            value=c.value.display(),
            value_dict=json.loads(c.value_json),
            source=sources[c.source_id],
            verdict=vview,
        )

    event_views = [
        EventView(
            event=e,
            created_at=as_utc(e.created_at),
            change=describe_change(e),
            subject_slug=by_id[e.subject_id].slug if e.subject_id in by_id else None,
            subject_name=by_id[e.subject_id].name if e.subject_id in by_id else None,
        )
        for e in events
    ]
    disc_views = []
    for d in discs:
        cids = [int(i) for i in json.loads(d.claim_ids_json or "[]")]
        oids = [int(i) for i in json.loads(d.observation_ids_json or "[]")]
        subj = by_id[d.subject_id]
        disc_views.append(
            DiscrepancyView(
                row=d,
                subject_slug=subj.slug,
                subject_name=subj.name,
                claims=[claim_views[i] for i in cids if i in claim_views],
                observations=[e for e in (evidence(i) for i in oids) if e is not None],
                claim_ids=cids,
                observation_ids=oids,
            )
        )

    claims_of: dict[int, list[ClaimView]] = defaultdict(list)
    claims_from: dict[int, list[ClaimView]] = defaultdict(list)
    for cv in claim_views.values():
        claims_of[cv.claim.subject_id].append(cv)
        claims_from[cv.claim.source_id].append(cv)
    events_of: dict[int | None, list[EventView]] = defaultdict(list)
    for ev in event_views:
        events_of[ev.event.subject_id].append(ev)
    discs_of: dict[int, list[DiscrepancyView]] = defaultdict(list)
    for dv in disc_views:
        discs_of[dv.row.subject_id].append(dv)
    obs_of: dict[int, list[Observation]] = defaultdict(list)
    for o in observations:
        obs_of[o.subject_id].append(o)

    subject_views = []
    for s in subjects:
        sid: int = s.id  # type: ignore[assignment]
        groups: dict[str, list[ClaimView]] = defaultdict(list)
        for cv in claims_of[sid]:
            groups[cv.claim.attribute].append(cv)
        s_events = events_of[sid]
        s_discs = discs_of[sid]
        subject_views.append(
            SubjectView(
                subject=s,
                aliases=aliases.get(sid, []),
                variants=variants.get(sid, []),
                weights=weights[sid],
                open_discrepancies=sum(1 for d in s_discs if d.row.state == "open"),
                last_change=s_events[0].created_at if s_events else None,
                groups=sorted(groups.items()),
                events=[ev for ev in s_events if ev.event.audience == "subscriber"],
                discrepancies=s_discs,
                charts=build_charts(obs_of[sid]),
            )
        )

    source_views = []
    for src in sources.values():
        mine = claims_from[src.id]  # type: ignore[index]
        counts: dict[str, int] = defaultdict(int)
        for cv in mine:
            counts[cv.verdict.status if cv.verdict else "none"] += 1
        source_views.append(SourceView(source=src, claims=mine, counts=dict(counts)))

    # Data time, not build time: the latest successful watch check (claims loaded or
    # events written later do not make the observed data newer).
    checks = [as_utc(w.last_success) for w in watches if w.last_success is not None]
    return SiteContext(
        subjects=subject_views,
        discrepancies=disc_views,
        sources=source_views,
        watches=watches,
        events=event_views,
        data_as_of=max(checks) if checks else None,
    )
