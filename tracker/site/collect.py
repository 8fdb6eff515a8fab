"""Site stage 1: query the claims database once into a :class:`SiteContext`.

Everything the templates, exports and feeds show is gathered here (pelican's
generate_context) as plain views (``views.py``); rendering never touches the database.
The bulk tables (claims, verdicts) are read as Core rows of the needed columns: ORM
objects for 30,000 claims cost more than rendering their pages.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.store.schedulenotes import missed_runs_by_watch, saved_next_runs
from claims.store.status import weights_statuses
from claims.store.tables import (
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
from claims.values.canonical import as_utc
from claims.values.value import Value
from claims.verify.compare import qualifier_key
from claims.vocabulary import RETIRED_STATE, qualifiers_text
from tracker.site.anchors import WEIGHTS_ANCHOR, claim_anchor, event_target, observed_anchor
from tracker.site.charts import benchmark_chart, price_charts, timeline_chart
from tracker.site.eventtext import describe_change, event_detail, schedule_text
from tracker.site.observed import current_observations
from tracker.site.summary import (
    CardLine,
    Fact,
    benchmark_name,
    card_lines,
    gated_text,
    headline_benchmarks,
    one_per_fact,
    subject_facts,
    table_cells,
    timeline_events,
)
from tracker.site.views import (
    ClaimView,
    DiscrepancyView,
    EventView,
    EvidenceView,
    SiteContext,
    SourceClaim,
    SourceInfo,
    SourceView,
    StatementView,
    SubjectRef,
    SubjectView,
    VerdictView,
    WatchView,
)
from tracker.site.writer import SiteError


def watch_plans(session: Session, watches: list[Watch]) -> dict[str, dict[str, Any]]:
    """Per watch name, the schedule fields of its :class:`WatchView` as the stored data
    tell them (no clock): ``schedule`` text, ``next_run`` (the next run a scheduler
    saved), ``next_run_kind`` (``retry`` while the watch is failing: the scheduler then
    saved its backoff retry, else ``scheduled``), ``missed`` and ``caught_up_at`` (the
    latest catch-up that replaced several runs, or None)."""
    saved = saved_next_runs(session)
    notes = missed_runs_by_watch(session)
    out: dict[str, dict[str, Any]] = {}
    for w in watches:
        retired = w.state == RETIRED_STATE
        at = None if retired else saved.get(w.name)
        note = notes.get(w.name)
        out[w.name] = {
            "schedule": schedule_text(w.interval_minutes, w.params),
            "next_run": at,
            "next_run_kind": None
            if at is None
            else "retry"
            if w.consecutive_failures
            else "scheduled",
            "missed": note.missed if note else None,
            "caught_up_at": note.caught_up_moment() if note else None,
        }
    return out


SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def statement_of_row(statement_json: str | None) -> StatementView:
    """The stored "stated by the claimant" status; ``not checked`` for rows written
    before it was kept (verdict.statement_json NULL)."""
    if not statement_json:
        return StatementView("not checked", "", [])
    d = json.loads(statement_json)
    return StatementView(
        str(d.get("status")), str(d.get("reason") or ""), list(d.get("evidence") or [])
    )


def _ids(text: str | None) -> list[int]:
    """A stored JSON list of ids; most verdicts have none, so skip the decoder then."""
    return [] if not text or text == "[]" else [int(i) for i in json.loads(text)]


def _decode_all(texts: list[str]) -> list[Any]:
    """``[json.loads(t) for t in texts]`` in one decoder call: 30,000 separate calls
    cost twice as much, and one call shares the decoded keys. A bad text raises the
    error that decoding it alone would."""
    try:
        decoded = json.loads(f"[{','.join(texts)}]")
    except json.JSONDecodeError:
        decoded = [json.loads(t) for t in texts]  # raises for the bad one
    if len(decoded) != len(texts):  # a text such as '1,2' holds more than one value
        decoded = [json.loads(t) for t in texts]
    return decoded  # type: ignore[no-any-return]


def by_fact(
    subject_ids: list[int],
    claims_of: dict[int, list[ClaimView]],
    discs: list[DiscrepancyView],
    value_of: dict[int, Value],
    qkey_of: dict[int, tuple[Any, ...]],
) -> tuple[
    dict[int, list[tuple[str, list[ClaimView]]]], dict[int, list[Fact]], list[DiscrepancyView]
]:
    """Each subject's claims by attribute, its facts (``summary.subject_facts``) and the
    discrepancies with those about one fact shown as one (``summary.one_per_fact``),
    by id."""
    groups_of: dict[int, list[tuple[str, list[ClaimView]]]] = {}
    facts_of: dict[int, list[Fact]] = {}
    by_subject: dict[int, list[DiscrepancyView]] = defaultdict(list)
    for dv in discs:
        by_subject[dv.subject_id].append(dv)
    for sid in subject_ids:
        grouped: dict[str, list[ClaimView]] = defaultdict(list)
        for cv in claims_of[sid]:
            grouped[cv.attribute].append(cv)
        groups_of[sid] = sorted(grouped.items())
        facts_of[sid] = subject_facts(groups_of[sid], value_of, qkey_of)
        by_subject[sid] = one_per_fact(by_subject[sid], facts_of[sid])
    merged = sorted((d for ds in by_subject.values() for d in ds), key=lambda d: d.id)
    return groups_of, facts_of, merged


def _check_targets(
    events: list[EventView], subjects: list[SubjectView], discs: list[DiscrepancyView]
) -> None:
    """Point each event whose anchor the site lacks (a claim since removed, an attribute
    no longer observed) at its page instead, so no feed entry links to nothing."""
    anchors = {d.anchor for d in discs} | {a for d in discs for a in d.anchors}
    for sv in subjects:
        page = f"subjects/{sv.slug}/"
        anchors |= {f"{page}#{cv.anchor}" for _, rows in sv.groups for cv in rows}
        anchors |= {f"{page}#{observed_anchor(o.attribute)}" for o in sv.observations}
        anchors.add(f"{page}#{WEIGHTS_ANCHOR}")
    for ev in events:
        page, _, frag = ev.target.partition("#")
        if not frag:
            continue
        known = frag in anchors if page == "discrepancies.html" else ev.target in anchors
        if not known:
            ev.target = page


def add_charts(subjects: list[SubjectView], lines: list[list[CardLine]]) -> None:
    """Add to each subject's ``charts`` (its price charts) a chart per benchmark it
    shares with another subject and its timeline (``charts.py``)."""
    scores: dict[str, list[tuple[SubjectView, CardLine]]] = defaultdict(list)
    for sv, card in zip(subjects, lines, strict=True):
        for ln in card:
            name = benchmark_name(ln)
            if name and ln.number is not None:
                scores[name].append((sv, ln))
    shared = {}
    for name, rows in scores.items():
        if len(rows) > 1:
            unit = rows[0][1].facts[0].claims[0].value_dict.get("unit")
            shared[name] = benchmark_chart(
                name,
                unit,
                [(sv.name, ln.number, ln.short) for sv, ln in rows],  # type: ignore[misc]
            )
    for sv, card in zip(subjects, lines, strict=True):
        mine = [shared[n] for n in dict.fromkeys(benchmark_name(ln) for ln in card) if n in shared]
        timeline = timeline_chart(sv.slug, timeline_events(sv.facts, sv.weights))
        sv.charts = [*sv.charts, *mine, *([timeline] if timeline else [])]


@dataclass
class Evidence:
    """Observations (by id) as :class:`EvidenceView` s, each made once: one observation
    backs many verdicts."""

    observations: dict[int, Observation]
    snapshots: dict[int, Any]
    made: dict[int, EvidenceView | None] = field(default_factory=dict)

    def __call__(self, oid: int) -> EvidenceView | None:
        """The evidence view of observation ``oid``; None if it is gone."""
        if oid in self.made:
            return self.made[oid]
        o = self.observations.get(oid)
        view = None
        if o is not None:
            snap = self.snapshots.get(o.snapshot_id) if o.snapshot_id else None
            view = EvidenceView(
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
        self.made[oid] = view
        return view

    def views(self, ids: list[int]) -> list[EvidenceView]:
        """The views of ``ids`` that still exist, in order."""
        return [e for e in (self(i) for i in ids) if e is not None]


def read_subjects(
    session: Session,
) -> tuple[list[Subject], dict[int, list[str]], dict[int, list[str]]]:
    """Subjects by slug, with their name aliases and variants (by subject id). Raises
    :class:`SiteError` for a slug that cannot be a URL path segment."""
    subjects = list(session.exec(select(Subject).order_by(Subject.slug)).all())
    for s in subjects:
        if not SLUG_RE.match(s.slug):
            raise SiteError(f"subject slug {s.slug!r} cannot be a page path")
    aliases: dict[int, list[str]] = defaultdict(list)
    for sid, alias in session.exec(
        select(SubjectAlias.subject_id, SubjectAlias.alias)
        .where(SubjectAlias.namespace == "name")
        .order_by(SubjectAlias.alias)
    ).all():
        aliases[sid].append(alias)
    variants: dict[int, list[str]] = defaultdict(list)
    for sid, name in session.exec(
        select(SubjectVariant.subject_id, SubjectVariant.name).order_by(SubjectVariant.name)
    ).all():
        variants[sid].append(name)
    return subjects, aliases, variants


def read_sources(session: Session) -> dict[int, SourceInfo]:
    """Every source by id, in key order."""
    return {
        r.id: SourceInfo(
            id=r.id,
            key=r.key,
            title=r.title,
            url=r.url,
            publisher=r.publisher,
            published=r.published,
            language=r.language,
            kind=r.kind,
            published_precision=r.published_precision,
        )
        for r in session.exec(
            select(
                Source.id,
                Source.key,
                Source.title,
                Source.url,
                Source.publisher,
                Source.published,
                Source.language,
                Source.kind,
                Source.published_precision,
            ).order_by(Source.key)
        ).all()
    }


def read_claim_rows(session: Session) -> list[Any]:
    """Every claim with its verdict's columns (None without one), by attribute and id:
    one outer join, in :data:`CLAIM_COLUMNS` order."""
    return list(
        session.exec(
            select(*CLAIM_COLUMNS)
            .outerjoin(Verdict, Verdict.claim_id == Claim.id)  # type: ignore[arg-type]
            .order_by(Claim.attribute, Claim.id)
        ).all()
    )


CLAIM_COLUMNS = (
    Claim.id,
    Claim.subject_id,
    Claim.attribute,
    Claim.qualifiers_json,
    Claim.value_json,
    Claim.raw_text,
    Claim.source_id,
    Claim.claimant,
    Claim.locator,
    Claim.stated_date,
    Claim.key,
    Claim.note,
    Verdict.status,
    Verdict.reason,
    Verdict.evidence_json,
    Verdict.as_of,
    Verdict.statement_json,
)


def read_watches(session: Session) -> tuple[list[WatchView], dict[int, str]]:
    """Every watch as a :class:`WatchView` (by name), and watch names by id."""
    watch_rows = session.exec(select(Watch).order_by(Watch.name)).all()
    plans = watch_plans(session, list(watch_rows))
    watches = [
        WatchView(
            name=w.name,
            url=w.url,
            adapter=w.adapter,
            state=w.state,
            last_run=as_utc(w.last_run) if w.last_run else None,
            last_success=as_utc(w.last_success) if w.last_success else None,
            consecutive_failures=w.consecutive_failures,
            failing_since=as_utc(w.failing_since) if w.failing_since else None,
            last_error=w.last_error,
            last_error_kind=w.last_error_kind,
            **plans[w.name],
        )
        for w in watch_rows
    ]
    return watches, {w.id: w.name for w in watch_rows}  # type: ignore[misc]


@dataclass
class ClaimViews:
    """Claim views by id, with each claim's parsed value and qualifier key (grouping
    claims by fact)."""

    views: dict[int, ClaimView]
    value_of: dict[int, Value]
    qkey_of: dict[int, tuple[Any, ...]]


class _Shown:
    """Display text, parsed values and qualifier keys by stored JSON: many claims state
    the same value or qualifiers, and parsing a Value to format it was a third of
    collect on the 30,000-claim bench."""

    def __init__(self) -> None:
        self.value: dict[str, tuple[Value, str]] = {}
        self.quals: dict[str, tuple[tuple[Any, ...], str]] = {}

    def value_of(self, value_json: str, value_dict: dict[str, Any]) -> tuple[Value, str]:
        got = self.value.get(value_json)
        if got is None:
            parsed = Value.from_dict(value_dict)
            got = self.value[value_json] = (parsed, parsed.display())
        return got

    def quals_of(self, quals_json: str, quals: dict[str, Any]) -> tuple[tuple[Any, ...], str]:
        got = self.quals.get(quals_json)
        if got is None:
            got = self.quals[quals_json] = (qualifier_key(quals), qualifiers_text(quals))
        return got


def verdict_view(
    status: str | None,
    reason: str | None,
    evidence_json: str | None,
    as_of: Any,
    statement_json: str | None,
    evidence: Evidence,
) -> VerdictView | None:
    """A claim's verdict from its joined columns; None when the claim has none."""
    if status is None:
        return None
    ids = _ids(evidence_json)
    return VerdictView(
        status=status,
        reason=reason,  # type: ignore[arg-type]
        as_of=as_utc(as_of) if as_of else None,
        evidence=evidence.views(ids),
        evidence_ids=ids,
        statement=statement_of_row(statement_json),
    )


def claim_views(
    claim_rows: list[Any],
    names: dict[int, tuple[str, str]],
    sources: dict[int, SourceInfo],
    evidence: Evidence,
) -> ClaimViews:
    """A :class:`ClaimView` per row of :func:`read_claim_rows`; ``names`` gives each
    subject id's (slug, name)."""
    out = ClaimViews({}, {}, {})
    all_quals = _decode_all([c.qualifiers_json for c in claim_rows])
    all_values = _decode_all([c.value_json for c in claim_rows])
    shown = _Shown()
    # Rows unpack as tuples, in the select's column order: a Row read by attribute
    # costs a lookup per column, 14 per claim.
    for row, quals, value_dict in zip(claim_rows, all_quals, all_values, strict=True):
        (claim_id, subject_id, attribute, quals_json, value_json, raw_text, source_id) = row[:7]
        (claimant, locator, stated_date, claim_key, note, *verdict_cols) = row[7:]
        value, value_text = shown.value_of(value_json, value_dict)
        out.value_of[claim_id] = value
        out.qkey_of[claim_id], quals_text = shown.quals_of(quals_json, quals)
        slug, name = names[subject_id]
        out.views[claim_id] = ClaimView(
            id=claim_id,
            subject_id=subject_id,
            subject_slug=slug,
            subject_name=name,
            attribute=attribute,
            qualifiers=quals_text,
            qualifiers_dict=quals,
            value=value_text,
            value_dict=value_dict,
            raw_text=raw_text,
            claimant=claimant,
            locator=locator,
            stated_date=stated_date,
            source=sources[source_id],
            verdict=verdict_view(*verdict_cols, evidence),
            anchor=claim_anchor(claim_key),
            note=note,
        )
    return out


def event_views(events: list[Event], by_id: dict[int, Subject]) -> list[EventView]:
    """Events (newest first) as views, with their wording and link target."""
    out = []
    for e in events:
        subj = by_id.get(e.subject_id) if e.subject_id is not None else None
        slug = subj.slug if subj else None
        out.append(
            EventView(
                id=e.id,  # type: ignore[arg-type]
                key=e.key,
                kind=e.kind,
                audience=e.audience,
                title=e.title,
                created_at=as_utc(e.created_at),
                change=describe_change(e),
                change_why=describe_change(e, why=True),
                target=event_target(e.kind, event_detail(e), slug),
                subject_id=e.subject_id,
                subject_slug=slug,
                subject_name=subj.name if subj else None,
            )
        )
    return out


def discrepancy_views(
    discs: list[Discrepancy],
    by_id: dict[int, Subject],
    claims: dict[int, ClaimView],
    evidence: Evidence,
) -> list[DiscrepancyView]:
    """Discrepancies as views with their sides (claims, observations) and every subject
    their claims are about."""
    out = []
    for d in discs:
        cids = _ids(d.claim_ids_json)
        oids = _ids(d.observation_ids_json)
        subj = by_id[d.subject_id]
        sides = [claims[i] for i in cids if i in claims]
        refs = {subj.slug: SubjectRef(subj.slug, subj.name)}
        for cv in sides:
            refs.setdefault(cv.subject_slug, SubjectRef(cv.subject_slug, cv.subject_name))
        out.append(
            DiscrepancyView(
                id=d.id,  # type: ignore[arg-type]
                subject_id=d.subject_id,
                subject_slug=subj.slug,
                subject_name=subj.name,
                attribute=d.attribute,
                rule=d.rule,
                state=d.state,
                reason=d.reason,
                note=d.note,
                opened_at=as_utc(d.opened_at),
                closed_at=as_utc(d.closed_at) if d.closed_at else None,
                claims=sides,
                observations=evidence.views(oids),
                claim_ids=cids,
                observation_ids=oids,
                subjects=list(refs.values()),
                key=d.key,
            )
        )
    return out


@dataclass
class SubjectParts:
    """What each subject's view is made from, by subject id."""

    aliases: dict[int, list[str]]
    variants: dict[int, list[str]]
    weights: dict[int, Any]
    events: dict[int | None, list[EventView]]
    discrepancies: dict[int, list[DiscrepancyView]]
    observations: dict[int, list[Observation]]
    current: dict[int, Any]
    groups: dict[int, list[tuple[str, list[ClaimView]]]]
    facts: dict[int, list[Fact]]


def subject_view(s: Subject, parts: SubjectParts) -> SubjectView:
    """One subject's view (its summary card and table cells come later:
    :func:`add_summaries`)."""
    sid: int = s.id  # type: ignore[assignment]
    s_events = parts.events[sid]
    s_discs = parts.discrepancies[sid]
    current = parts.current.get(sid, [])
    return SubjectView(
        slug=s.slug,
        name=s.name,
        organization=s.organization,
        aliases=parts.aliases.get(sid, []),
        variants=parts.variants.get(sid, []),
        weights=parts.weights[sid],
        open_discrepancies=sum(1 for d in s_discs if d.state == "open"),
        last_change=s_events[0].created_at if s_events else None,
        groups=parts.groups[sid],
        events=[ev for ev in s_events if ev.audience == "subscriber"],
        discrepancies=s_discs,
        charts=price_charts(s.slug, parts.observations[sid]),
        observations=current,
        facts=parts.facts[sid],
        gated=gated_text(current),
    )


def add_summaries(subject_views: list[SubjectView]) -> list[str]:
    """Give each subject its summary card, comparison-table cells and charts; returns
    the headline benchmarks (the table's score columns)."""
    lines = [card_lines(sv.facts, sv.observations) for sv in subject_views]
    benchmarks = headline_benchmarks(lines)
    for sv, card in zip(subject_views, lines, strict=True):
        sv.card = card
        sv.cells = table_cells(card, benchmarks)
    add_charts(subject_views, lines)
    return benchmarks


def source_views(
    sources: dict[int, SourceInfo], claims_from: dict[int, list[ClaimView]]
) -> list[SourceView]:
    """Each source with the claims it makes and their count by verdict status."""
    out = []
    for src in sources.values():
        mine = claims_from[src.id]
        counts: dict[str, int] = defaultdict(int)
        for cv in mine:
            counts[cv.verdict.status if cv.verdict else "none"] += 1
        listed = [
            SourceClaim(
                id=cv.id,
                subject_slug=cv.subject_slug,
                subject_name=cv.subject_name,
                attribute=cv.attribute,
                value=cv.value,
                qualifiers=cv.qualifiers,
                status=cv.verdict.status if cv.verdict else None,
            )
            for cv in mine
        ]
        out.append(SourceView(source=src, claims=listed, counts=dict(counts)))
    return out


def by_subject(items: Iterable[Any], key: str) -> dict[Any, list[Any]]:
    """``items`` grouped by their attribute ``key``, in order."""
    out: dict[Any, list[Any]] = defaultdict(list)
    for item in items:
        out[getattr(item, key)].append(item)
    return out


def collect(engine: Engine) -> SiteContext:
    """Read subjects, sources, claims, verdicts, observations, snapshots, discrepancies,
    events and watches in one session. Raises :class:`SiteError` for a slug that cannot
    be a URL path segment."""
    with Session(engine) as session:
        subjects, aliases, variants = read_subjects(session)
        sources = read_sources(session)
        snapshots = {
            r.id: r
            for r in session.exec(
                select(Snapshot.id, Snapshot.url, Snapshot.sha256, Snapshot.fetched_at)
            ).all()
        }
        observations = list(session.exec(select(Observation).order_by(Observation.id)).all())
        claim_rows = read_claim_rows(session)
        discs = list(session.exec(select(Discrepancy).order_by(Discrepancy.id)).all())
        events = list(
            session.exec(
                select(Event).order_by(Event.created_at.desc(), Event.id.desc())  # type: ignore[attr-defined]
            ).all()
        )
        watches, watch_names = read_watches(session)
        weights = weights_statuses(session, subjects)

    by_id: dict[int, Subject] = {s.id: s for s in subjects}  # type: ignore[misc]
    evidence = Evidence({o.id: o for o in observations}, snapshots)  # type: ignore[misc]
    names = {sid: (s.slug, s.name) for sid, s in by_id.items()}  # not ORM reads per claim
    claims = claim_views(claim_rows, names, sources, evidence)
    events_v = event_views(events, by_id)
    # A subject's page and JSON list its discrepancies without their sides (those are on
    # discrepancies.html), so its views carry none: the page key then changes with what
    # the page shows, not with a claim of another subject that a note names.
    claims_of = by_subject(claims.views.values(), "subject_id")
    groups_of, facts_of, disc_views = by_fact(
        list(by_id),
        claims_of,
        discrepancy_views(discs, by_id, claims.views, evidence),
        claims.value_of,
        claims.qkey_of,
    )
    parts = SubjectParts(
        aliases=aliases,
        variants=variants,
        weights=weights,
        events=by_subject(events_v, "subject_id"),
        discrepancies=by_subject(
            (replace(dv, claims=[], observations=[]) for dv in disc_views), "subject_id"
        ),
        observations=by_subject(observations, "subject_id"),
        current=current_observations(observations, claims_of, watch_names, snapshots),
        groups=groups_of,
        facts=facts_of,
    )
    subject_views = [subject_view(s, parts) for s in subjects]
    benchmarks = add_summaries(subject_views)
    _check_targets(events_v, subject_views, disc_views)
    claims_from: dict[int, list[ClaimView]] = defaultdict(list)
    for cv in claims.views.values():
        claims_from[cv.source.id].append(cv)

    # Data time, not build time: the latest successful watch check (claims loaded or
    # events written later do not make the observed data newer).
    checks = [w.last_success for w in watches if w.last_success is not None]
    attempts = [w.last_run for w in watches if w.last_run is not None]
    return SiteContext(
        subjects=subject_views,
        discrepancies=disc_views,
        sources=source_views(sources, claims_from),
        watches=watches,
        events=events_v,
        data_as_of=max(checks) if checks else None,
        latest_check=max(attempts) if attempts else None,
        benchmarks=benchmarks,
    )
