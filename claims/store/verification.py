"""Verification run: Claims + Observations + Watches in the database -> Verdicts,
Discrepancies and Events.

Database glue around the pure rules (:mod:`claims.verify.compare`, :mod:`claims.verify.judge`,
:mod:`claims.verify.promises`). Idempotent: a re-run with nothing new changes no row and adds
no event.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from claims.events import found_settled_title
from claims.store.outbox import add_event, make_event
from claims.store.rows import reader
from claims.store.status import landing_events
from claims.store.tables import Discrepancy, Subject, SubjectVariant, Verdict, Watch
from claims.store.upsert import upsert
from claims.store.views import aware, last_hub_check, load_claims, load_observations
from claims.values.canonical import dumps, utcnow
from claims.values.timefmt import iso_z
from claims.verify.compare import (
    CONTRADICTED_BY_OBSERVATION,
    DIFFERENT_SUBJECT,
    Finding,
    find_conflicts,
    find_cross_subject_notes,
)
from claims.verify.discrepancies import (
    differ_reason,
    explained_claims,
    found_settled,
    observation_findings,
    settled_by,
    state_event,
)
from claims.verify.facts import ClaimView, ObsView
from claims.verify.judge import Decision, judge_claim, settle_versions
from claims.verify.promises import landed_at_first_look
from claims.vocabulary import attribute_label, qualifiers_text, rule_label

# A claim's first verdict is an event only when a stated figure does not hold or a
# promise is already broken (product decision: late weights are what subscribers follow):
# a first confirmed, unverified or pending shows on the site but alerts nobody. Any
# later change of status is an event.
FIRST_VERDICT_EVENTS: tuple[str, ...] = ("disputed", "contradicted", "overdue")


def first_verdict_rule() -> str:
    """``disputed, contradicted or overdue``: the first verdicts that are events
    (:data:`FIRST_VERDICT_EVENTS`), as summaries explain a count of them."""
    *most, last = FIRST_VERDICT_EVENTS
    return f"{', '.join(most)} or {last}" if most else last


@dataclass
class VerifyReport:
    """What one :func:`verify_all` run found and changed."""

    as_of: dt.datetime
    statuses: dict[str, int] = field(default_factory=dict)
    changed: list[dict[str, Any]] = field(default_factory=list)  # claim_id, from, to
    opened: list[int] = field(default_factory=list)  # discrepancy ids opened / reopened
    resolved: list[int] = field(default_factory=list)
    # found already settled (never open): announced apart, never counted as resolved
    found_settled: list[int] = field(default_factory=list)
    open_discrepancies: int = 0
    events_added: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "as_of": iso_z(self.as_of),
            "statuses": dict(sorted(self.statuses.items())),
            "changed": self.changed,
            "opened": self.opened,
            "resolved": self.resolved,
            "found_settled": self.found_settled,
            "open_discrepancies": self.open_discrepancies,
            "events_added": self.events_added,
        }


def verify_all(session: Session, *, now: dt.datetime | None = None) -> VerifyReport:
    """Verify every claim and sync discrepancies; commits. Issue 2 item 7 and issue 4.

    Writes one Verdict per claim (status, reason, evidence = observation ids, ``as_of``),
    Discrepancy rows (claim-vs-claim rules of :mod:`claims.verify.compare`, claims contradicted
    by an observation, and dismissed ``different_subject`` notes), and Events
    (``verdict_changed`` when a status changes, a first verdict only when it is one of
    :data:`FIRST_VERDICT_EVENTS`; ``discrepancy_opened`` / ``discrepancy_resolved`` on
    state changes); ``report.changed`` lists the same verdict changes. A dismissed
    discrepancy stays dismissed. Running twice with the same data changes nothing.

    ``now`` (``tracker verify --now``) is the time the verdicts are judged at and the
    events carry; by default the newest evidence (:func:`evidence_time`), so replayed
    recordings are judged as of their own time, not the clock's (a promise checked only
    before its deadline is pending, not "deadline passed"), and their events sort with
    the cycle's events of the same data."""
    now = aware(now) or evidence_time(session) or utcnow()
    report = VerifyReport(as_of=now)
    claims = load_claims(session)
    observations = load_observations(session)
    subjects = {s.id: s for s in session.exec(select(Subject)).all()}
    existing = {d.key: d for d in session.exec(select(Discrepancy)).all()}

    conflicts = find_conflicts(claims)
    disputes: dict[int, list[Finding]] = {}
    for f in conflicts:
        row = existing.get(f.key)
        if row is not None and row.state == "dismissed":
            continue
        for cid in f.claim_ids:
            disputes.setdefault(cid, []).append(f)

    subject_ids = {subj.slug: sid for sid, subj in subjects.items() if sid is not None}
    vendors = {
        sid: subj.organization
        for sid, subj in subjects.items()
        if sid is not None and subj.organization
    }
    variants: dict[int, list[str]] = {}
    for sv in session.exec(select(SubjectVariant)).all():
        variants.setdefault(sv.subject_id, []).append(sv.name)
    first_looks = _first_looks(session, observations)
    checks: dict[int, dt.datetime | None] = {}
    decisions: dict[int, Decision] = {}
    for c in claims:
        if c.subject_id not in checks:
            subj = subjects.get(c.subject_id)
            checks[c.subject_id] = last_hub_check(session, subj, observations) if subj else None
        decisions[c.id] = judge_claim(
            c,
            observations,
            last_check=checks[c.subject_id],
            disputes=disputes.get(c.id, []),
            now=now,
            first_looks=first_looks,
            subject_ids=subject_ids,
            variants=variants,
            vendors=vendors,
        )

    decisions.update(settle_versions(conflicts, decisions, claims))
    names = {sid: subj.name for sid, subj in subjects.items() if sid is not None}
    report.events_added += _store_verdicts(session, claims, decisions, report, names)
    live = [f for f in conflicts if getattr(existing.get(f.key), "state", "") != "dismissed"]
    found: list[tuple[Finding, tuple[int, ...]]] = [
        (f, ()) for f in conflicts + find_cross_subject_notes(claims)
    ]
    found += observation_findings(claims, decisions, explained_claims(live, decisions))
    origins = _origins(session, observations)
    report.events_added += _sync_discrepancies(
        session, found, decisions, existing, now, report, names, origins
    )
    session.commit()
    report.statuses = dict(Counter(d.status for d in decisions.values()))
    report.open_discrepancies = len(
        session.exec(select(Discrepancy).where(Discrepancy.state == "open")).all()
    )
    return report


def evidence_time(session: Session) -> dt.datetime | None:
    """The latest successful check of any watch (replayed or live): the time of the
    newest evidence, which verdicts are judged at by default; None before any."""
    times = [aware(t) for t in session.exec(select(Watch.last_success)).all()]
    known = [t for t in times if t is not None]
    return max(known) if known else None


def _first_looks(session: Session, observations: Sequence[ObsView]) -> set[int]:
    """Ids of the ``weights_available = true`` observations made at their watch's first
    look, by the landing window `tracker status` uses
    (:func:`claims.verify.promises.landed_at_first_look`, the cycle's landing events)."""
    first_of: dict[int, dt.datetime] = {}
    for o in observations:
        if o.watch_id is not None:
            t = first_of.get(o.watch_id)
            first_of[o.watch_id] = o.first_seen if t is None else min(t, o.first_seen)
    landed = [
        o
        for o in observations
        if o.attribute == "weights_available" and o.value.kind == "boolean" and o.value.value
    ]
    told = landing_events(reader(session), {o.subject_id for o in landed})
    return {
        o.id
        for o in landed
        if landed_at_first_look(
            o.first_seen,
            first_of.get(o.watch_id) if o.watch_id is not None else None,
            told.get((o.subject_id, o.qualifiers.get("repo"))),
        )[0]
    }


def _origins(session: Session, observations: Sequence[ObsView]) -> dict[int, str]:
    """Observation id -> its value and where it was read, as a discrepancy's reason names
    it: ``262,144 tokens, watch hf-model-x (huggingface_model), max_position_embeddings``
    (the reading's key when the adapter records one)."""
    watches = {w.id: w for w in session.exec(select(Watch)).all()}
    out = {}
    for o in observations:
        w = watches.get(o.watch_id) if o.watch_id is not None else None
        where = f"watch {w.name} ({w.adapter})" if w is not None else "no watch"
        key = o.value.extra.get("key") if o.value.extra else None
        out[o.id] = f"{o.value.display()}, {where}" + (f", {key}" if key else "")
    return out


def _store_verdicts(
    session: Session,
    claims: Sequence[ClaimView],
    decisions: dict[int, Decision],
    report: VerifyReport,
    names: dict[int, str],
) -> int:
    added = 0
    rows = {v.claim_id: v for v in session.exec(select(Verdict)).all()}
    for c in claims:
        d = decisions[c.id]
        evidence = dumps(list(d.evidence))
        statement = dumps(d.statement.to_dict())
        row = rows.get(c.id)
        old = row.status if row else None
        if row is not None and (
            row.status,
            row.reason,
            row.evidence_json,
            aware(row.as_of),
            row.statement_json,
        ) == (d.status, d.reason, evidence, d.as_of, statement):
            continue
        if row is None:  # another run may store it first: an upsert keyed on the claim
            values = {"claim_id": c.id, "status": d.status, "reason": d.reason,
                      "evidence_json": evidence, "as_of": d.as_of, "checked_at": report.as_of,
                      "statement_json": statement}  # fmt: skip
            upsert(session, Verdict, values, ["claim_id"], list(values)[1:])
        else:
            row.status, row.reason, row.evidence_json = d.status, d.reason, evidence
            row.as_of, row.checked_at = d.as_of, report.as_of
            row.statement_json = statement
            session.add(row)
        if old != d.status and (old is not None or d.status in FIRST_VERDICT_EVENTS):
            report.changed.append({"claim_id": c.id, "from": old, "to": d.status})
            detail = {
                "claim": c.key,
                "from": old,
                "to": d.status,
                "reason": d.reason,
                "as_of": d.as_of.isoformat() if d.as_of else None,
            }
            title = verdict_title(c, names.get(c.subject_id, c.subject), old, d.status)
            added += add_event(
                session,
                make_event(
                    "verdict_changed",
                    title,
                    subject_id=c.subject_id,
                    detail=detail,
                    at=report.as_of,
                ),
            )
    session.flush()
    return added


def verdict_title(c: ClaimView, subject: str, old: str | None, status: str) -> str:
    """An event title naming the claim in words, e.g. ``Kimi K3.1 Pro: Benchmark score
    65.7% [benchmark: Terminal-Bench, version: 4.0] (Moonshot AI via Máquina Web) is now
    contradicted (was confirmed)``; qualifiers, claimant and source tell apart claims of
    the same figure (the site shows qualifiers the same way)."""
    quals = qualifiers_text(c.qualifiers)
    figure = f"{c.value.display()} [{quals}]" if quals else c.value.display()
    what = f"{subject}: {attribute_label(c.attribute)} {figure} ({c.who()})"
    if old is None:
        return f"{what} is {status}"
    return f"{what} is now {status} (was {old})"


def discrepancy_title(subject: str, row: Discrepancy) -> str:
    """``Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a
    benchmark (open)``."""
    return f"{subject}: {attribute_label(row.attribute)}: {rule_label(row.rule)} ({row.state})"


def _sync_discrepancies(
    session: Session,
    found: Sequence[tuple[Finding, tuple[int, ...]]],
    decisions: dict[int, Decision],
    existing: dict[str, Discrepancy],
    now: dt.datetime,
    report: VerifyReport,
    subjects: dict[int, str],
    origins: dict[int, str],
) -> int:
    """Store ``found`` (findings with the observation ids they cite), resolve open rows
    no longer found, and add the event each change of state means
    (:func:`claims.verify.discrepancies.state_event`); returns how many events. A
    finding whose sides are each confirmed by their own observations stays open, its
    reason naming them (``origins``, :func:`claims.verify.discrepancies.differ_reason`)."""
    added = 0
    seen: set[str] = set()
    for f, obs_ids in found:
        seen.add(f.key)
        row = existing.get(f.key)
        settled = settled_by(f, decisions)
        state = f.state if f.state == "dismissed" else ("resolved" if settled else "open")
        why = settled or differ_reason(f, decisions, origins)
        reason = f"{f.reason}; {why}" if why else f.reason
        claim_ids, obs_json = dumps(list(f.claim_ids)), dumps(list(obs_ids))
        if row is None:
            row = _insert_discrepancy(session, f, claim_ids, obs_json, state, reason, now)
            existing[f.key] = row
            added += _announce(session, report, row, None, subjects, now)
            continue
        if row.state == "dismissed":
            continue  # a reviewer's (or the rule's) dismissal holds
        old = row.state
        if (row.claim_ids_json, row.observation_ids_json, row.reason, old) == (
            claim_ids, obs_json, reason, state,
        ):  # fmt: skip
            continue
        row.claim_ids_json, row.observation_ids_json, row.reason = claim_ids, obs_json, reason
        if old != state:
            row.state = state
            row.closed_at = now if state == "resolved" else None
        session.add(row)
        added += _announce(session, report, row, old, subjects, now)
    for key, row in existing.items():
        if key in seen or row.state != "open":
            continue
        row.state, row.closed_at = "resolved", now
        row.reason = f"{row.reason}; no longer found ({_why_gone(row, decisions, existing)})"
        session.add(row)
        added += _announce(session, report, row, "open", subjects, now)
    session.flush()
    return added


def _announce(
    session: Session,
    report: VerifyReport,
    row: Discrepancy,
    old: str | None,
    subjects: dict[int, str],
    now: dt.datetime,
) -> int:
    """Record in ``report`` and as an event the change of ``row`` from state ``old``."""
    kind = state_event(old, row.state)
    if kind is None:
        return 0
    settled = found_settled(old, row.state)
    if kind == "discrepancy_opened":
        report.opened.append(row.id or 0)
    else:
        (report.found_settled if settled else report.resolved).append(row.id or 0)
    reopened = now if kind == "discrepancy_opened" and old is not None else None
    return _event(session, kind, row, subjects, reopened, now, settled)


def _insert_discrepancy(
    session: Session,
    f: Finding,
    claim_ids: str,
    obs_json: str,
    state: str,
    reason: str,
    now: dt.datetime,
) -> Discrepancy:
    """Store a discrepancy this run found first, as an upsert on its key (a concurrent
    run may store it first; a dismissal stored meanwhile holds); returns the row."""
    row = Discrepancy(
        key=f.key,
        subject_id=f.subject_id,
        attribute=f.attribute,
        rule=f.rule,
        claim_ids_json=claim_ids,
        observation_ids_json=obs_json,
        state=state,
        reason=reason,
        opened_at=now,
        closed_at=now if state != "open" else None,
        note="not comparable: different subjects" if f.rule == DIFFERENT_SUBJECT else None,
    )
    values = {c: getattr(row, c) for c in _DISCREPANCY_COLUMNS}
    changing = ("claim_ids_json", "observation_ids_json", "state", "reason", "closed_at")
    kept = col(Discrepancy.state) != "dismissed"
    row.id = upsert(session, Discrepancy, values, ["key"], changing, where=kept)
    if row.id is None:  # stored and dismissed meanwhile: what is stored holds
        stored = session.exec(select(Discrepancy).where(Discrepancy.key == f.key)).one()
        session.refresh(stored)
        return stored
    return row


_DISCREPANCY_COLUMNS = ("key", "subject_id", "attribute", "rule", "claim_ids_json",
                        "observation_ids_json", "state", "reason", "note", "opened_at",
                        "closed_at")  # fmt: skip


def _why_gone(
    row: Discrepancy, decisions: dict[int, Decision], rows: dict[str, Discrepancy]
) -> str:
    ids = json.loads(row.claim_ids_json)
    removed = [i for i in ids if i not in decisions]
    if removed:  # `tracker load` removed a claim its data file no longer states
        which = ", ".join(f"#{i}" for i in removed)
        return f"claim {which} corrected or removed in its data file"
    if row.rule == CONTRADICTED_BY_OBSERVATION:
        now_status = [decisions[i].status for i in ids if i in decisions]
        if now_status and set(now_status) == {"contradicted"}:
            settled = sorted(  # one discrepancy per fact: the settled conflict says it
                r.id or 0
                for r in rows.values()
                if r.rule not in (CONTRADICTED_BY_OBSERVATION, DIFFERENT_SUBJECT)
                and r.state == "resolved"
                and set(ids) & set(json.loads(r.claim_ids_json))
            )
            if settled:
                return "explained by discrepancy " + ", ".join(f"#{i}" for i in settled)
        return f"verdict is now {', '.join(now_status) or 'gone'}"
    return "the claims no longer conflict"


def _event(
    session: Session,
    kind: str,
    row: Discrepancy,
    subjects: dict[int, str],
    reopened_at: dt.datetime | None,
    at: dt.datetime,
    settled: bool = False,
) -> int:
    detail: dict[str, Any] = {
        "discrepancy": row.key,
        "rule": row.rule,
        "state": row.state,
        "claims": json.loads(row.claim_ids_json),
        "reason": row.reason,
    }
    if reopened_at is not None:
        detail["reopened_at"] = reopened_at.isoformat()
    title = discrepancy_title(subjects.get(row.subject_id, str(row.subject_id)), row)
    if settled:  # never open: found already settled (claims.verify.discrepancies)
        detail["found_settled"] = True
        title = found_settled_title(title)
    event = make_event(kind, title, subject_id=row.subject_id, detail=detail, at=at)
    return add_event(session, event)
