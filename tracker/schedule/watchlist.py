"""Watch listing for ``tracker watches``: Watch rows joined with their persisted schedule
and the scheduler lease (who runs them), as plain dicts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.store.schedulenotes import MissedRuns, missed_runs_by_watch
from claims.store.tables import ScheduleState, Watch
from claims.values.canonical import as_utc, utcnow
from claims.values.timefmt import iso_z
from claims.vocabulary import RETIRED_STATE
from claims.watchstate import watch_health
from tracker.errors import ConfigError
from tracker.schedule.daemon import WATCH_PREFIX
from tracker.schedule.locks import Lease, holder_exited, on_this_machine
from tracker.schedule.triggers import (
    describe_schedule,
    latest_check,
    next_due,
    regular_due,
    watch_trigger,
)


def iso(moment: dt.datetime | None) -> str | None:
    """``2026-03-02T12:00:00Z`` (:func:`claims.values.timefmt.iso_z`), or None."""
    return iso_z(moment) or None


def _latest(*moments: dt.datetime | None) -> dt.datetime | None:
    present = [m for m in moments if m is not None]
    return max(present) if present else None


def next_run_of(
    w: Watch, st: ScheduleState | None, *, live: bool, now: dt.datetime
) -> tuple[dt.datetime | None, str | None]:
    """(time, kind) of a watch's next run: ``scheduled`` (a live scheduler holds the
    lease and saved it), else ``due``: when a scheduler starting ``now`` would first run
    it (:func:`tracker.schedule.triggers.next_due` from its schedule, last check and any saved next
    run; it may be past: overdue). ``retry`` instead when the watch is failing and that
    time is its backoff retry, earlier than its schedule. (None, None) for a retired
    watch (never run again: neither the cycle nor the scheduler picks it) and for a
    schedule that does not parse."""
    if w.state == RETIRED_STATE:
        return None, None
    persisted = st.next_run_at if st is not None else None
    last = latest_check(w, st)
    try:
        trigger = watch_trigger(w, jitter_seconds=0, start=now)
        if live and persisted is not None:
            at, kind = as_utc(persisted), "scheduled"
        else:
            at, kind = next_due(w, now=now, last_check=last, persisted=persisted), "due"
        regular = regular_due(w, now=now, last_check=last, trigger=trigger)
    except ConfigError:
        return None, None
    return at, _retry_or(kind, w, at, regular)


def _retry_or(kind: str, w: Watch, at: dt.datetime, regular: dt.datetime) -> str:
    """``retry`` when a failing watch runs before its schedule would (its backoff)."""
    return (
        "retry" if w.consecutive_failures > 0 and at < regular - dt.timedelta(seconds=1) else kind
    )


def missed_dict(note: MissedRuns | None) -> dict[str, Any] | None:
    """A :class:`MissedRuns` for ``--json``: ``missed``, ``since``, ``caught_up_at``,
    ``text`` (``3 runs missed, caught up once at T``); None stays None."""
    if note is None:
        return None
    return {
        "missed": note.missed,
        "since": note.since,
        "caught_up_at": note.caught_up_at,
        "text": note.text(),
    }


def next_run(
    engine: Engine, name: str, *, now: dt.datetime | None = None
) -> tuple[dt.datetime | None, str | None]:
    """(time, kind) of watch ``name``'s next run as ``tracker watches`` shows it
    (:func:`next_run_of`: ``scheduled``, ``due`` or a failing watch's ``retry``); (None,
    None) for an unknown or retired watch. Read-only."""
    now = now or utcnow()
    with Session(engine) as session:
        w = session.exec(select(Watch).where(Watch.name == name)).first()
        st = session.get(ScheduleState, WATCH_PREFIX + name)
    if w is None:
        return None, None
    return next_run_of(w, st, live=scheduler_live(engine, now), now=now)


def scheduler_live(engine: Engine, now: dt.datetime) -> bool:
    """Whether a scheduler holds the lease at ``now`` (not expired, its process not
    known to have exited): only then is a saved next run or retry a plan someone keeps."""
    holder = Lease(engine).holder()
    return holder is not None and holder.expires_at > now and not holder_exited(holder)


def list_watches(engine: Engine, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """``{"scheduler": {...} | None, "watches": [...]}`` ordered by watch name.

    Each watch: name, adapter, url, schedule, state (:data:`claims.watchstate.WATCH_STATES`:
    new, ok, retrying, failing, skipped, retired), consecutive_failures, last_run (the
    later of the cycle's ``Watch.last_run`` and the scheduler's last start), last_success,
    next_run and next_run_kind (see :func:`next_run_of`: ``scheduled`` by a running
    scheduler, else ``due`` by the schedule and last check, or ``retry`` for a failing
    watch's backoff retry; ISO 8601 UTC; both None for a retired watch), missed (the
    latest catch-up that replaced several runs, :func:`missed_dict`, or None), last_error
    (the watch's fetch/parse error while it is current, else the job's own error; None
    when neither is: :func:`claims.watchstate.watch_health`), skipped (why the last
    cycle skipped it, ``TRACKER_AA_API_KEY not set``, else None). ``scheduler`` describes the
    lease holder with ``exited`` = it ran on this machine in this pid namespace and its
    pid is gone (:func:`tracker.schedule.locks.holder_exited`), ``live`` = its lease has not
    expired at ``now`` and it has not exited, ``expires`` = when its lease runs out
    unless renewed, and ``same_machine`` = true / false / None (cannot tell) as
    :func:`tracker.schedule.locks.on_this_machine`. Read-only.
    """
    now = now or utcnow()
    with Session(engine) as session:
        watches = session.exec(select(Watch).order_by(Watch.name)).all()
        states = {s.job_id: s for s in session.exec(select(ScheduleState))}
        notes = missed_runs_by_watch(session)
    holder = Lease(engine).holder()
    exited = holder is not None and holder_exited(holder)
    live = holder is not None and holder.expires_at > now and not exited
    rows = []
    for w in watches:
        st = states.get(WATCH_PREFIX + w.name)
        next_run, kind = next_run_of(w, st, live=live, now=now)
        health = watch_health(w.state, w.consecutive_failures, w.last_error, w.last_error_kind,
                              st.last_error if st else None, skip_reason=w.skip_reason)  # fmt: skip
        rows.append(
            {
                "name": w.name,
                "adapter": w.adapter,
                "url": w.url,
                "schedule": describe_schedule(w),
                "state": health.state,
                "consecutive_failures": w.consecutive_failures,
                "last_run": iso(_latest(w.last_run, st.last_started_at if st else None)),
                "last_success": iso(w.last_success),
                "next_run": iso(next_run),
                "next_run_kind": kind,
                "missed": missed_dict(notes.get(w.name)),
                "last_error": health.error,
                "skipped": health.skipped,
            }
        )
    scheduler = None
    if holder is not None:
        scheduler = {
            "pid": holder.pid,
            "host": holder.host,
            "since": iso(holder.acquired_at),
            "heartbeat": iso(holder.heartbeat_at),
            "expires": iso(holder.expires_at),
            "live": live,
            "exited": exited,
            "same_machine": on_this_machine(holder),
        }
    return {"scheduler": scheduler, "watches": rows}


def next_run_text(row: dict[str, Any], now: dt.datetime) -> str:
    """A listing row's next run for people: ``scheduled T``, ``due T``, ``retry T`` (a
    failing watch's backoff), or ``due now (since T)`` when that time has passed; ``never (retired)`` for a retired watch;
    ``-`` when unknown."""
    if row.get("state") == RETIRED_STATE:
        return "never (retired)"
    at, kind = row.get("next_run"), row.get("next_run_kind")
    if at is None or kind is None:
        return "-"
    if kind in ("due", "retry") and at <= iso(now):  # ISO 8601 UTC strings sort as times
        return f"due now (since {at})"
    return f"{kind} {at}"
