"""What the scheduler left in the database for people: each watch's saved next run and
its latest catch-up that replaced several runs (a ``runs_missed`` operator event).

Read by ``tracker watches`` and the site's watches page; pure queries, no clock. Each
reader takes an ORM ``Session`` or a :class:`~claims.store.rawdb.RawDB` and reads with
plain SQL (:mod:`claims.store.rows`: ``tracker build`` loads no ORM).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from claims.store.rows import EventRow, ScheduleRow, read_rows, reader
from claims.values.canonical import as_utc

WATCH_JOB_PREFIX = "watch:"  # schedulestate job ids of watch jobs: ``watch:<name>``


@dataclass(frozen=True)
class MissedRuns:
    """A catch-up run: ``missed`` scheduled runs since ``since`` replaced by one at
    ``caught_up_at`` (ISO 8601 UTC text as the event detail holds them)."""

    missed: int
    since: str | None
    caught_up_at: str | None

    def text(self) -> str:
        """``3 runs missed, caught up once at 2026-03-06T12:00:00Z``."""
        return f"{self.missed} runs missed, caught up once at {self.caught_up_at}"

    def caught_up_moment(self) -> dt.datetime | None:
        """``caught_up_at`` as an aware UTC datetime (None when absent or unreadable)."""
        try:
            return as_utc(dt.datetime.fromisoformat(str(self.caught_up_at)))
        except ValueError:
            return None


def missed_runs_by_watch(db: Any) -> dict[str, MissedRuns]:
    """Watch name -> its latest ``runs_missed`` event (detail ``watch``, ``missed``,
    ``since``, ``caught_up_at``); events without a watch name or count are skipped."""
    notes: dict[str, MissedRuns] = {}
    rows = read_rows(reader(db), EventRow, "WHERE kind = 'runs_missed' ORDER BY created_at, id")
    for ev in rows:
        try:
            detail = json.loads(ev.detail_json or "{}")
        except json.JSONDecodeError:
            continue
        name, missed = detail.get("watch"), detail.get("missed")
        if isinstance(name, str) and isinstance(missed, int):
            notes[name] = MissedRuns(missed, detail.get("since"), detail.get("caught_up_at"))
    return notes


def saved_next_runs(db: Any) -> dict[str, dt.datetime]:
    """Watch name -> the next run a scheduler saved for it (aware UTC)."""
    rows = read_rows(reader(db), ScheduleRow)
    return {
        st.job_id.removeprefix(WATCH_JOB_PREFIX): as_utc(st.next_run_at)
        for st in rows
        if st.job_id.startswith(WATCH_JOB_PREFIX) and st.next_run_at is not None
    }
