"""Site stage 1: query the claims database once into a :class:`SiteContext`.

Everything the templates, exports and feeds show is gathered here (pelican's
generate_context) as plain views (``views.py``); rendering never touches the database.
The reads are plain SQL through the database driver (:mod:`claims.store.siteread`, rows
as :mod:`claims.store.rows` objects; the 30,000 claims as tuples of the needed columns):
``tracker build`` loads no ORM, whose import was a third of a one-claim rebuild.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from claims.events import event_label, reader_kind, reader_title, settled_never_opened
from claims.store import siteread
from claims.store.rawdb import RawDB
from claims.store.rows import DiscrepancyRow, EventRow, ObservationRow, SubjectRow, WatchRow
from claims.store.schedulenotes import missed_runs_by_watch, saved_next_runs
from claims.store.sitedigest import claim_inputs
from claims.store.status import weights_statuses
from claims.vocabulary import RETIRED_STATE
from tracker.website.anchors import WEIGHTS_ANCHOR, event_target, observed_anchor
from tracker.website.charts import TimelineEvent, benchmark_chart, price_charts, timeline_chart
from tracker.website.claimviews import (
    ClaimMemo,
    Evidence,
    SubjectClaims,
    read_claim_rows,
    stored_ids,
    subject_claims,
)
from tracker.website.eventtext import describe_change, event_detail, schedule_text
from tracker.website.observed import current_observations
from tracker.website.pagehash import key_of
from tracker.website.records import (
    RecordPlan,
    RecordStore,
    SubjectRecord,
    input_keys,
    plan_records,
)
from tracker.website.summary import (
    CardLine,
    Fact,
    announced_events,
    benchmark_names,
    card_lines,
    gated_text,
    headline_benchmarks,
    one_per_fact,
    score_cells,
    stated_license,
    table_cells,
    timeline_from,
)
from tracker.website.views import (
    ClaimView,
    DiscrepancyView,
    EventView,
    RecordMiss,
    SiteContext,
    SourceClaim,
    SourceInfo,
    SourceListing,
    SourceView,
    SubjectRef,
    SubjectView,
    WatchView,
    Withheld,
)
from tracker.website.writer import SiteError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def watch_plans(raw: RawDB, watches: list[WatchRow]) -> dict[str, dict[str, Any]]:
    """Per watch name, the schedule fields of its :class:`WatchView` as the stored data
    tell them (no clock): ``schedule`` text, ``next_run`` (the next run a scheduler
    saved), ``next_run_kind`` (``retry`` while the watch is failing: the scheduler then
    saved its backoff retry, else ``scheduled``), ``missed`` and ``caught_up_at`` (the
    latest catch-up that replaced several runs, or None)."""
    saved = saved_next_runs(raw)
    notes = missed_runs_by_watch(raw)
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


def by_fact(
    subject_ids: list[int],
    claims: dict[int, SubjectClaims],
    discs: list[DiscrepancyView],
) -> tuple[
    dict[int, list[tuple[str, list[ClaimView]]]], dict[int, list[Fact]], list[DiscrepancyView]
]:
    """Each subject's claims by attribute and its facts (from ``claims``, see
    ``claimviews.py``), and the discrepancies with those about one fact shown as one
    (``summary.one_per_fact``), by id."""
    groups_of: dict[int, list[tuple[str, list[ClaimView]]]] = {}
    facts_of: dict[int, list[Fact]] = {}
    by_subject: dict[int, list[DiscrepancyView]] = defaultdict(list)
    for dv in discs:
        by_subject[dv.subject_id].append(dv)
    for sid in subject_ids:
        mine = claims.get(sid)
        groups_of[sid] = mine.groups if mine else []
        facts_of[sid] = mine.facts if mine else []
        by_subject[sid] = one_per_fact(by_subject[sid], facts_of[sid])
    merged = sorted((d for ds in by_subject.values() for d in ds), key=lambda d: d.id)
    return groups_of, facts_of, merged


def _check_targets(
    events: list[EventView],
    subjects: list[SubjectView],
    discs: list[DiscrepancyView],
    claim_anchors: Callable[[int], list[str]],
) -> None:
    """Point each event whose anchor the site lacks (a claim since removed, an attribute
    no longer observed) at its page instead, so no feed entry links to nothing.
    ``claim_anchors(i)``: the claims' anchors of ``subjects[i]``. A subject
    page's anchors are gathered only for the pages events link to (a slug holds no
    ``/`` or ``#``, so ``subjects/<slug>/#<anchor>`` splits back at its first ``#``):
    all 30,000 claims' anchors as strings cost ~10 ms of a one-claim rebuild."""
    pages: dict[str, list[int]] = {}
    for i, sv in enumerate(subjects):
        pages.setdefault(f"subjects/{sv.slug}/", []).append(i)
    on_page: dict[str, set[str]] = {}

    def has(target: str) -> bool:
        page, mark, frag = target.partition("#")
        if not mark:
            return False
        if page not in on_page:
            found = on_page[page] = set()
            for i in pages.get(page, ()):
                found.update(claim_anchors(i))
                found.update(observed_anchor(o.attribute) for o in subjects[i].observations)
                found.add(WEIGHTS_ANCHOR)
        return frag in on_page[page]

    listed = {d.anchor for d in discs} | {a for d in discs for a in d.anchors}
    for ev in events:
        page, _, frag = ev.target.partition("#")
        if not frag:
            continue
        if page == "discrepancies.html":
            known = frag in listed or has(frag)
        else:
            known = ev.target in listed or has(ev.target)
        if not known:
            ev.target = page


def bench_rows(card: list[CardLine], names: list[str | None]) -> list[tuple[str, Any, float, str]]:
    """``(benchmark name, unit, score, score text)`` of each card line with a benchmark
    name (``names``: :func:`benchmark_names` of ``card``) and a score."""
    return [
        (name, ln.facts[0].claims[0].value_dict.get("unit") if ln.facts else None)
        + (ln.number, ln.short)
        for ln, name in zip(card, names, strict=True)
        if name and ln.number is not None
    ]


def add_charts(
    subjects: list[SubjectView],
    names: list[list[str | None]],
    scored: list[list[tuple[str, Any, float, str]]],
    announced: list[list[TimelineEvent]],
) -> None:
    """Add to each subject's ``charts`` (its price charts) a chart per benchmark it
    shares with another subject and its timeline (``charts.py``). By subject:
    ``names`` each card line's :func:`benchmark_name`, ``scored`` its
    :func:`bench_rows`, ``announced`` its ``summary.announced_events``."""
    scores: dict[str, list[tuple[str, Any, float, str]]] = defaultdict(list)
    for sv, rows in zip(subjects, scored, strict=True):
        for name, unit, number, short in rows:
            scores[name].append((sv.name, unit, number, short))
    shared = {}
    for name, rows in scores.items():
        if len(rows) > 1:
            shared[name] = benchmark_chart(name, rows[0][1], [(n, v, t) for n, _, v, t in rows])
    for sv, card_names, ann in zip(subjects, names, announced, strict=True):
        mine = [shared[n] for n in dict.fromkeys(card_names) if n in shared]
        timeline = timeline_chart(sv.slug, timeline_from(ann, sv.weights))
        sv.charts = [*sv.charts, *mine, *([timeline] if timeline else [])]


def read_subjects(
    raw: RawDB,
) -> tuple[list[SubjectRow], dict[int, list[str]], dict[int, list[str]]]:
    """Subjects by slug, with their name aliases and variants (by subject id). Raises
    :class:`SiteError` for a slug that cannot be a URL path segment."""
    subjects = siteread.subjects(raw)
    for s in subjects:
        if not SLUG_RE.match(s.slug):
            raise SiteError(f"subject slug {s.slug!r} cannot be a page path")
    aliases: dict[int, list[str]] = defaultdict(list)
    for sid, alias in siteread.name_aliases(raw):
        aliases[sid].append(alias)
    variants: dict[int, list[str]] = defaultdict(list)
    for sid, name in siteread.variants(raw):
        variants[sid].append(name)
    return subjects, aliases, variants


def read_sources(raw: RawDB) -> dict[int, SourceInfo]:
    """Every source by id, in key order."""
    return {
        s.id: SourceInfo(
            id=s.id,
            key=s.key,
            title=s.title,
            url=s.url,
            publisher=s.publisher,
            published=s.published,
            language=s.language,
            kind=s.kind,
            published_precision=s.published_precision,
        )
        for s in siteread.sources(raw)
    }


def read_watches(raw: RawDB) -> tuple[list[WatchView], dict[int, str]]:
    """Every watch as a :class:`WatchView` (by name), and watch names by id."""
    watch_rows = siteread.watches(raw)
    plans = watch_plans(raw, watch_rows)
    watches = [
        WatchView(
            name=w.name,
            url=w.url,
            adapter=w.adapter,
            state=w.state,
            last_run=w.last_run,
            last_success=w.last_success,
            consecutive_failures=w.consecutive_failures,
            failing_since=w.failing_since,
            last_error=w.last_error,
            last_error_kind=w.last_error_kind,
            skip_reason=w.skip_reason,
            **plans[w.name],
        )
        for w in watch_rows
    ]
    return watches, {w.id: w.name for w in watch_rows}


def _event_label(kind: str, detail: dict[str, Any]) -> str:
    """The kind in words as pages show it: :func:`claims.events.event_label` of its
    :func:`claims.events.reader_kind` ("First verdict" for a verdict's first status,
    "Disagreement already settled" for a discrepancy that never opened)."""
    return event_label(reader_kind(kind, detail))


def event_views(events: list[EventRow], by_id: dict[int, SubjectRow]) -> list[EventView]:
    """Events (newest first) as views, with their wording and link target."""
    out = []
    for e in events:
        subj = by_id.get(e.subject_id) if e.subject_id is not None else None
        slug = subj.slug if subj else None
        detail = event_detail(e)
        out.append(
            EventView(
                id=e.id,
                key=e.key,
                kind=e.kind,
                audience=e.audience,
                title=reader_title(e.kind, e.title, detail),
                label=_event_label(e.kind, detail),
                created_at=e.created_at,
                change=describe_change(e),
                change_why=describe_change(e, why=True),
                target=event_target(e.kind, detail, slug),
                subject_id=e.subject_id,
                subject_slug=slug,
                subject_name=subj.name if subj else None,
            )
        )
    return out


def found_settled_keys(events: list[EventRow]) -> set[str]:
    """Keys of the discrepancies found already settled and never opened
    (:func:`claims.events.settled_never_opened`; only the events that can say so have
    their detail read)."""
    said = (
        (e.kind, event_detail(e))
        for e in events
        if e.kind == "discrepancy_opened"
        or (e.kind == "discrepancy_resolved" and "found_settled" in e.detail_json)
    )
    return settled_never_opened(said)


def discrepancy_views(
    discs: list[DiscrepancyRow],
    by_id: dict[int, SubjectRow],
    claims: dict[int, ClaimView],
    evidence: Evidence,
    settled: Collection[str] = frozenset(),
) -> list[DiscrepancyView]:
    """Discrepancies as views with their sides (claims, observations) and every subject
    their claims are about; a resolved one whose key is in ``settled``
    (:func:`found_settled_keys`) is marked ``found_settled``."""
    out = []
    for d in discs:
        cids = stored_ids(d.claim_ids_json)
        oids = stored_ids(d.observation_ids_json)
        subj = by_id[d.subject_id]
        sides = [claims[i] for i in cids if i in claims]
        refs = {subj.slug: SubjectRef(subj.slug, subj.name)}
        for cv in sides:
            refs.setdefault(cv.subject_slug, SubjectRef(cv.subject_slug, cv.subject_name))
        out.append(
            DiscrepancyView(
                id=d.id,
                subject_id=d.subject_id,
                subject_slug=subj.slug,
                subject_name=subj.name,
                attribute=d.attribute,
                rule=d.rule,
                state=d.state,
                reason=d.reason,
                note=d.note,
                opened_at=d.opened_at,
                closed_at=d.closed_at,
                claims=sides,
                observations=evidence.views(oids),
                claim_ids=cids,
                observation_ids=oids,
                subjects=list(refs.values()),
                key=d.key,
                found_settled=d.state == "resolved" and d.key in settled,
            )
        )
    return out


@dataclass
class SubjectParts:
    """What each subject's view is made from, by subject id."""

    aliases: dict[int, list[str]]
    variants: dict[int, list[str]]
    weights: dict[int | None, Any]  # as claims.store.status.weights_statuses keys them
    events: dict[int | None, list[EventView]]
    discrepancies: dict[int, list[DiscrepancyView]]
    observations: dict[int, list[ObservationRow]]
    current: dict[int, Any]
    groups: dict[int, list[tuple[str, list[ClaimView]]]]
    facts: dict[int, list[Fact]]


def last_change(events: list[EventView], observations: list[ObservationRow]) -> dt.datetime | None:
    """When something last changed for a subject: its latest event (``events`` newest
    first) or the latest time a watch first read a value (an observation's
    ``first_seen``: a value first observed, or a new one after a change), whichever is
    later; None with neither. (Kimi K3, whose prices were first read on 2026-11-28 and
    which had no event, showed "—": a fresh-user trial.)"""
    times = [o.first_seen for o in observations]
    if events:
        times.append(events[0].created_at)
    return max(times, default=None)


def subject_view(s: SubjectRow, parts: SubjectParts) -> SubjectView:
    """One subject's view (its summary card and table cells come later:
    :func:`add_summaries`)."""
    sid = s.id
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
        last_change=last_change(s_events, parts.observations[sid]),
        groups=parts.groups[sid],
        events=[ev for ev in s_events if ev.audience == "subscriber"],
        discrepancies=s_discs,
        charts=price_charts(s.slug, parts.observations[sid]),
        observations=current,
        facts=parts.facts[sid],
        gated=gated_text(current),
    )


def card_of(sv: SubjectView, claims: SubjectClaims | None) -> list[CardLine]:
    """``summary.card_lines`` of ``sv``, kept with its claims (``SubjectClaims.cards``)
    for as long as its current observations stay the same."""
    if claims is None:
        return card_lines(sv.facts, sv.observations, sv.organization)
    key = key_of(sv.observations) if sv.observations else ""
    got = claims.cards.get(key)
    if got is None:
        claims.cards.clear()
        claims.derived.clear()
        got = claims.cards[key] = card_lines(sv.facts, sv.observations, sv.organization)
    return got


def card_derived(
    claims: SubjectClaims | None, what: str, make: Callable[[], Any], given: Any = None
) -> Any:
    """``make()``, a pure function of the subject's card and ``given``, kept in
    ``claims.derived[what]`` with ``given`` while the card stays (:func:`card_of` clears
    it) and made again when ``given`` differs (one entry per ``what``): an in-process
    rebuild derives table cells and benchmark names only for subjects whose card
    changed."""
    if claims is None:
        return make()
    kept = claims.derived.get(what)
    if kept is None or kept[0] != given:
        kept = claims.derived[what] = (given, make())
    return kept[1]


class Summaries(NamedTuple):
    """What :func:`add_summaries` chose and drew from: the headline benchmarks and, by
    subject, its card's benchmark names, :func:`bench_rows` and announced events."""

    benchmarks: list[str]
    names: list[list[str | None]]
    scored: list[list[tuple[str, Any, float, str]]]
    announced: list[list[TimelineEvent]]


def add_summaries(
    subject_views: list[SubjectView],
    claims: list[SubjectClaims | None],
    served: list[SubjectRecord | None],
) -> Summaries:
    """Give each subject its summary card, comparison-table cells and charts; returns
    the headline benchmarks (the table's score columns) and, by subject, what the
    charts were drawn from (a build record keeps them). ``claims``: each subject's
    (see :func:`card_of`); ``served``: its build record when that stands in for its
    claims (``records.py``; raises ``RecordMiss`` when its cells were made for other
    headline benchmarks)."""
    lines = [
        card_of(sv, sc) if rec is None else cast(list[CardLine], Withheld(f"{sv.slug} card"))
        for sv, sc, rec in zip(subject_views, claims, served, strict=True)
    ]
    names = [
        card_derived(sc, "benchmarks", partial(benchmark_names, card)) if rec is None else rec.names
        for sc, card, rec in zip(claims, lines, served, strict=True)
    ]
    benchmarks = headline_benchmarks(names)
    for sv, sc, card, rec in zip(subject_views, claims, lines, served, strict=True):
        sv.card = card
        if rec is not None:
            if rec.cells_for != benchmarks:
                raise RecordMiss(f"{sv.slug}: headline benchmarks changed")
            sv.cells, sv.license_stated, sv.scores = (
                dict(rec.cells),
                rec.license_stated,
                dict(rec.scores),
            )
            continue
        sv.cells = dict(
            card_derived(
                sc, "cells", partial(table_cells, card, benchmarks, sv.organization), benchmarks
            )
        )
        sv.license_stated = card_derived(sc, "licence", partial(stated_license, card))
        sv.scores = dict(card_derived(sc, "scores", partial(score_cells, card)))
    scored = [
        bench_rows(card, card_names) if rec is None else rec.bench
        for card, card_names, rec in zip(lines, names, served, strict=True)
    ]
    announced = [
        announced_events(sv.facts) if rec is None else rec.announced
        for sv, rec in zip(subject_views, served, strict=True)
    ]
    add_charts(subject_views, names, scored, announced)
    return Summaries(benchmarks, names, scored, announced)


def source_views(
    sources: dict[int, SourceInfo], counts: dict[int, Counter[str | None]], listing: SourceListing
) -> list[SourceView]:
    """Each source with the claims it makes (``listing``: as ``sources.html`` lists them,
    made on first use) and their count by verdict status ("none": no verdict) from
    ``counts`` (:func:`source_counts`)."""
    out = []
    for src in sources.values():
        mine: dict[str, int] = {}
        for status, n in counts.get(src.id, Counter()).items():
            word = status or "none"
            mine[word] = mine.get(word, 0) + n
        out.append(SourceView(source=src, counts=mine, listing=listing))
    return out


def source_counts(
    claims: dict[int, ClaimView],
    listed: dict[int, SourceClaim],
    served: dict[int, SubjectRecord],
) -> dict[int, Counter[str | None]]:
    """Source id -> how many of its claims have each verdict status (None: no verdict):
    ``claims`` made this build (``listed``: their rows) and the rows of the ``served``
    subjects' records, counted in C (``Counter.update`` of pairs)."""
    pairs: Counter[tuple[int, str | None]] = Counter()
    pairs.update((cv.source.id, listed[cid].status) for cid, cv in claims.items())
    for rec in served.values():
        pairs.update(zip(rec.source_ids, rec.statuses, strict=True))
    out: dict[int, Counter[str | None]] = defaultdict(Counter)
    for (source_id, status), n in pairs.items():
        out[source_id][status] += n
    return out


def by_subject(items: Iterable[Any], key: str) -> dict[Any, list[Any]]:
    """``items`` grouped by their attribute ``key``, in order."""
    out: dict[Any, list[Any]] = defaultdict(list)
    for item in items:
        out[getattr(item, key)].append(item)
    return out


def page_inputs(
    subjects: list[SubjectRow],
    aliases: dict[int, list[str]],
    variants: dict[int, list[str]],
    weights: dict[int | None, Any],
    events: list[EventRow],
) -> dict[int, Any]:
    """By subject id, plain data of its page's inputs besides its claims and
    observations: aliases, variants, weights status and its events' columns."""
    out: dict[int, Any] = {
        s.id: [aliases.get(s.id, []), variants.get(s.id, []), weights.get(s.id), []]
        for s in subjects
    }
    for e in events:
        if e.subject_id in out:
            row = (e.id, e.key, e.kind, e.audience, e.watch_id, e.title, e.detail_json)
            out[e.subject_id][3].append((*row, str(e.created_at)))
    return out


def record_plan(
    raw: RawDB,
    records: RecordStore | None,
    subjects: list[SubjectRow],
    sources: dict[int, SourceInfo],
    observations: list[ObservationRow],
    snapshots: dict[int, Any],
    watch_names: dict[int, str],
    discs: list[DiscrepancyRow],
    own: dict[int, Any],
) -> RecordPlan:
    """Which subjects this build serves from ``records`` (``records.py``): none without
    them, or on a database the per-subject digest cannot read (``sitedigest.py``).
    ``own``: each subject's page inputs besides its claims (``records.input_keys``)."""
    if records is None:
        return RecordPlan({}, {})
    inputs = claim_inputs(raw, records.known_inputs())
    if inputs is None:
        return RecordPlan({}, {})
    keys = input_keys(
        records.fingerprint, subjects, inputs, sources, observations, snapshots, watch_names, own
    )
    involved = ((d.subject_id, stored_ids(d.claim_ids_json)) for d in discs)
    return plan_records(records, subjects, keys, involved, inputs)


def source_claims(
    claims: dict[int, ClaimView],
    listed: dict[int, SourceClaim],
    served: dict[int, SubjectRecord],
    names: dict[int, tuple[str, str]],
) -> dict[int, list[SourceClaim]]:
    """Source id -> the claims it makes as ``sources.html`` lists them, by attribute and
    id (the claim rows' order): ``claims`` made this build (``listed``: their rows),
    and the rows of the ``served`` subjects' records (``names``: (slug, name) by
    subject id)."""
    # (attribute, id, source id, row): tuples sort in C, and claim ids are unique
    entries = [(cv.attribute, cid, cv.source.id, listed[cid]) for cid, cv in claims.items()]
    if served:
        make = tuple.__new__  # a SourceClaim from its fields without its Python __new__
        for sid, rec in served.items():
            slug, name = names[sid]
            entries += [
                (attr, cid, src, make(SourceClaim, (cid, slug, name, attr, value, quals, status)))
                for src, cid, attr, value, quals, status in rec.listed
            ]
        entries.sort()
    out: dict[int, list[SourceClaim]] = defaultdict(list)
    for _, _, source_id, sc in entries:
        out[source_id].append(sc)
    return out


def note_records(
    records: RecordStore,
    plan: RecordPlan,
    subject_views: list[SubjectView],
    ids: list[int],
    per_subject: dict[int, SubjectClaims],
    summaries: Summaries,
    anchors: Callable[[int], list[str]],
) -> None:
    """Note in ``records`` each subject's record after this build: a served one as it
    was, a subject whose views were made (and that has claims) a new one.
    ``anchors(i)``: the claim anchors of the ``i``-th subject."""
    shared: dict[Any, Any] = {}

    def same(text: Any) -> Any:
        return shared.setdefault(text, text)

    for i, (sv, sid) in enumerate(zip(subject_views, ids, strict=True)):
        rec = plan.served.get(sid)
        sc, key = per_subject.get(sid), plan.keys.get(sid)
        if rec is None and sc is not None and key is not None:
            # one object per distinct attribute, qualifiers and status text: the pickle
            # then writes each once per record (a third smaller, loaded faster)
            listed = []
            for _, rows in sc.groups:
                for cv in rows:
                    row = sc.listed[cv.id]
                    texts = (same(row.attribute), row.value, same(row.qualifiers), same(row.status))
                    listed.append((cv.source.id, cv.id, *texts))
            rec = SubjectRecord.made(
                listed,
                anchors(i),
                input_key=key,
                digest=sc.digest,
                listed_digest=sc.listed_digest,
                names=summaries.names[i],
                bench=summaries.scored[i],
                cells_for=summaries.benchmarks,
                cells=dict(sv.cells),
                license_stated=sv.license_stated,
                scores=dict(sv.scores),
                announced=summaries.announced[i],
                current=sv.observations,
                inputs=plan.inputs.get(sid),
            )
        if rec is not None:
            records.keep(sv.slug, rec)


@dataclass
class Read:
    """Every row a build reads, in one transaction (:func:`read_all`)."""

    subjects: list[SubjectRow]
    aliases: dict[int, list[str]]
    variants: dict[int, list[str]]
    sources: dict[int, SourceInfo]
    snapshots: dict[int, Any]
    observations: list[ObservationRow]
    discs: list[DiscrepancyRow]
    events: list[EventRow]
    watches: list[WatchView]
    watch_names: dict[int, str]
    weights: dict[int | None, Any]
    plan: RecordPlan
    claim_rows: list[Any]


def read_all(raw: RawDB, records: RecordStore | None) -> Read:
    """Read what :func:`collect` shows; the claim rows only of subjects ``records``
    does not serve (``records.py``)."""
    subjects, aliases, variants = read_subjects(raw)
    sources = read_sources(raw)
    snapshots = {r.id: r for r in siteread.snapshots(raw)}
    observations = siteread.observations(raw)
    discs = siteread.discrepancies(raw)
    events = siteread.events(raw)
    watches, watch_names = read_watches(raw)
    weights = weights_statuses(raw, subjects)
    own = page_inputs(subjects, aliases, variants, weights, events) if records else {}
    plan = record_plan(
        raw, records, subjects, sources, observations, snapshots, watch_names, discs, own
    )
    served = plan.served
    claim_rows = read_claim_rows(
        raw, [s.id for s in subjects if s.id not in served] if served else None
    )
    return Read(
        subjects,
        aliases,
        variants,
        sources,
        snapshots,
        observations,
        discs,
        events,
        watches,
        watch_names,
        weights,
        plan,
        claim_rows,
    )


def collect(
    db: RawDB | Engine, memo: ClaimMemo | None = None, records: RecordStore | None = None
) -> SiteContext:
    """Read subjects, sources, claims, verdicts, observations, snapshots, discrepancies,
    events and watches from ``db`` (a :class:`RawDB`; or a SQLAlchemy engine, whose
    pooled connection is used) in one transaction. ``memo`` keeps subjects' claim views
    between builds (``claimviews.py``; a fresh one when None). With ``records``
    (``records.py``), a subject whose input key is its record's gets no claim views
    (its ``groups``, ``facts`` and ``card`` are ``Withheld``): what other files take
    from them comes from the record; this build's records are noted in it. Raises
    :class:`SiteError` for a slug that cannot be a URL path segment, ``RecordMiss``
    when a record cannot stand in (``add_summaries``)."""
    raw = db if isinstance(db, RawDB) else RawDB.from_engine(db)
    try:
        r = read_all(raw, records)
    finally:
        raw.rollback()  # end the read transaction (PostgreSQL opened one)
        if raw is not db:
            raw.close()
    subjects, sources, observations, snapshots = r.subjects, r.sources, r.observations, r.snapshots
    served = r.plan.served
    by_id: dict[int, SubjectRow] = {s.id: s for s in subjects}
    slugs = {sid: s.slug for sid, s in by_id.items()}  # evidence links to its subject's page
    evidence = Evidence({o.id: o for o in observations}, snapshots, slugs)
    names = {sid: (s.slug, s.name) for sid, s in by_id.items()}  # not ORM reads per claim
    per_subject = subject_claims(r.claim_rows, names, sources, evidence, memo or ClaimMemo())
    made = {cv.id: cv for sc in per_subject.values() for _, cvs in sc.groups for cv in cvs}
    claims = {row[0]: made[row[0]] for row in r.claim_rows}  # in row order, as before
    events_v = event_views(r.events, by_id)
    # A subject's page and JSON list its discrepancies without their sides (those are on
    # discrepancies.html), so its views carry none: the page key then changes with what
    # the page shows, not with a claim of another subject that a note names.
    claims_of = by_subject(claims.values(), "subject_id")
    groups_of, facts_of, disc_views = by_fact(
        list(by_id),
        per_subject,
        discrepancy_views(r.discs, by_id, claims, evidence, found_settled_keys(r.events)),
    )
    current = current_observations(observations, claims_of, r.watch_names, snapshots)
    for sid, rec in served.items():  # its claims are withheld; its record has them
        groups_of[sid] = cast(list[Any], Withheld(f"{slugs[sid]} claims"))
        facts_of[sid] = cast(list[Fact], Withheld(f"{slugs[sid]} facts"))
        current[sid] = rec.current
    parts = SubjectParts(
        aliases=r.aliases,
        variants=r.variants,
        weights=r.weights,
        events=by_subject(events_v, "subject_id"),
        discrepancies=by_subject(
            (replace(dv, claims=[], observations=[]) for dv in disc_views), "subject_id"
        ),
        observations=by_subject(observations, "subject_id"),
        current=current,
        groups=groups_of,
        facts=facts_of,
    )
    subject_views = [subject_view(s, parts) for s in subjects]
    ids: list[int] = list(by_id)
    summaries = add_summaries(
        subject_views, [per_subject.get(i) for i in ids], [served.get(i) for i in ids]
    )

    def anchors(i: int) -> list[str]:  # a served record's are loaded only when asked for
        rec = served.get(ids[i])
        if rec is not None:
            return rec.anchors
        return [cv.anchor for _, rows in subject_views[i].groups for cv in rows]

    _check_targets(events_v, subject_views, disc_views, anchors)
    listed = {i: sc for c in per_subject.values() for i, sc in c.listed.items()}
    listing = SourceListing(partial(source_claims, claims, listed, served, names))
    shown = (sources, source_counts(claims, listed, served), listing)
    if records is not None:
        note_records(records, r.plan, subject_views, ids, per_subject, summaries, anchors)
    digests = {by_id[sid].slug: (sc.digest, sc.listed_digest) for sid, sc in per_subject.items()}
    digests |= {slugs[sid]: (rec.digest, rec.listed_digest) for sid, rec in served.items()}
    return site_context(r.watches, subject_views, disc_views, shown, events_v, summaries, digests)


def site_context(
    watches: list[WatchView],
    subject_views: list[SubjectView],
    disc_views: list[DiscrepancyView],
    sources: tuple[dict[int, SourceInfo], dict[int, Counter[str | None]], SourceListing],
    events_v: list[EventView],
    summaries: Summaries,
    digests: dict[str, tuple[str, str]],
) -> SiteContext:
    """The :class:`SiteContext` of :func:`collect`; ``sources``: the sources, their
    claims' counts and listing (:func:`source_views`); ``digests``: each subject's
    claims and listed digests by slug."""
    # Data time, not build time: the latest successful watch check (claims loaded or
    # events written later do not make the observed data newer).
    checks = [w.last_success for w in watches if w.last_success is not None]
    attempts = [w.last_run for w in watches if w.last_run is not None]
    return SiteContext(
        subjects=subject_views,
        discrepancies=disc_views,
        sources=source_views(*sources),
        watches=watches,
        events=events_v,
        data_as_of=max(checks) if checks else None,
        latest_check=max(attempts) if attempts else None,
        benchmarks=summaries.benchmarks,
        claim_digests={slug: d for slug, (d, _) in digests.items()},
        listed_digest=key_of(sorted((slug, ld) for slug, (_, ld) in digests.items())),
    )
