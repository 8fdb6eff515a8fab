"""A weights repo that is no longer public, and one that is public again.

A model watch whose page answers "no such public repo" (404, 401 RepoNotFound) AFTER
the repo was seen public has an answer, not a failure: the repo is gone (private or
removed). :func:`record_gone` records that fact in one transaction: the repo's current
``weights_available`` rows (every watch's: the model page speaks for the repo) stop
being current, one ``repo_disappeared`` is sent unless a listing already sent it since
the last sighting, and the watch reads ``no longer public`` (no retry). A renamed or
transferred repo (cases/C34: a row says ``renamed_from`` = this repo) is not gone: its
rows stop being current with no event. :func:`gone_since` tells the recording of a new
sighting that the repo was gone, so its return is an event (``weights_landed`` again).
"""

from __future__ import annotations

import datetime as dt
import json

from claims.events import event_row, gone_event, recovered_event
from claims.store.outbox import Outbox
from claims.store.rawdb import RawDB
from claims.vocabulary import GONE_KIND
from tracker.cycle.change_rules import renamed_to
from tracker.cycle.types import NameLookup, WatchResult, WatchSpec

_HEALTH = "SELECT state, failing_since FROM watch WHERE id = :wid"
_ANSWERED = (
    "UPDATE watch SET state = 'ok', consecutive_failures = 0, failing_since = NULL, "
    "last_error = :err, last_error_kind = :kind, skip_reason = NULL, last_run = :at, "
    "last_success = :at WHERE id = :wid"
)
_WEIGHTS_ROWS = (
    "SELECT id, subject_id, qualifiers_json, value_json, last_seen, current FROM observation "
    "WHERE attribute = 'weights_available' AND qualifiers_json LIKE :like"
)
_RETIRE = "UPDATE observation SET current = :cur WHERE id = :oid"
_DISAPPEARED = (
    "SELECT detail_json, created_at FROM event WHERE kind = 'repo_disappeared' "
    "AND subject_id = :sid ORDER BY id"
)


def _rows_of(s: RawDB, repo: str) -> list[tuple[int, int, dict[str, str], dt.datetime, bool]]:
    """(id, subject id, qualifiers, last seen, current) of every ``weights_available =
    true`` row of ``repo`` (its id compared case-insensitively, as the Hub does)."""
    out = []
    like = {"like": f"%{repo.split('/')[-1]}%"}
    for oid, sid, qj, vj, last_seen, current in s.execute(_WEIGHTS_ROWS, like).fetchall():
        q = json.loads(qj)
        if str(q.get("repo", "")).lower() == repo.lower() and json.loads(vj).get("value") is True:
            seen = s.datetime(last_seen)
            assert seen is not None
            out.append((oid, sid, q, seen, bool(current)))
    return out


def _told_since(s: RawDB, subject_id: int, repo: str, since: dt.datetime) -> dt.datetime | None:
    """When a ``repo_disappeared`` of ``repo`` was recorded at or after ``since`` (its
    latest), else None."""
    latest = None
    for dj, created in s.execute(_DISAPPEARED, {"sid": subject_id}).fetchall():
        at = s.datetime(created)
        said = json.loads(dj).get("qualifiers", {}).get("repo", "")
        if at is not None and at >= since and str(said).lower() == repo.lower():
            latest = at
    return latest


def record_gone(
    db: RawDB, spec: WatchSpec, exc: Exception, at: dt.datetime, repo: str, names: NameLookup
) -> WatchResult:
    """Record a model watch's "no such public repo" answer for ``repo``, seen public
    before, as an answered check (see the module docstring). Returns the watch's
    result: ``changed`` when rows stopped being current, with the events it sent."""
    with db.transaction() as s:
        outbox = Outbox(s)
        state, stored_since = s.one(_HEALTH, {"wid": spec.id}) or (None, None)
        if state == "failing":
            outbox.add(recovered_event(spec.id, spec.name, s.datetime(stored_since), at))
        rows = _rows_of(s, repo)
        current = [r for r in rows if r[4]]
        s.executemany(_RETIRE, [{"oid": r[0], "cur": False} for r in current])
        for sid in sorted({r[1] for r in current}):
            seen = max(r[3] for r in rows if r[1] == sid)
            if _told_since(s, sid, repo, seen) is not None:
                continue  # the org listing already said so since the last sighting
            q = next(r[2] for r in rows if r[1] == sid)
            ev = gone_event(
                str(names.get(sid, sid)), repo,
                "no longer public on Hugging Face (its model page answers not found)",
                "weights_available", q, seen, at, renamed_to(s, sid, repo),
            )  # fmt: skip
            if ev is not None:
                outbox.add(event_row(ev.kind, ev.title, subject_id=sid, watch_id=spec.id,
                                     detail=ev.detail, at=at))  # fmt: skip
        err = f"no longer public ({getattr(exc, 'kind', 'not_found')}: {exc})"
        s.execute(_ANSWERED, {"err": err, "kind": GONE_KIND, "at": at, "wid": spec.id})
    outcome = "changed" if current else "unchanged"
    return WatchResult(spec.name, outcome, events=outbox.added)


def gone_since(s: RawDB, subject_id: int, repo: str) -> dt.datetime | None:
    """When ``repo`` of the subject went away, if it is gone now: it has ``weights_available
    = true`` rows, none of them current, and a ``repo_disappeared`` since its last
    sighting (that event's time). None otherwise (never seen, or still public)."""
    rows = [r for r in _rows_of(s, repo) if r[1] == subject_id]
    if not rows or any(r[4] for r in rows):
        return None
    return _told_since(s, subject_id, repo, max(r[3] for r in rows))
