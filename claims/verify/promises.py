"""Promises of open weights: a ``weights_release_date`` claim + hub evidence -> PromiseOutcome.

Issue 4 "Dates and promises": pending, overdue (as of the last hub check), met, met late
by N days. The evidence is the first_seen of a ``weights_available = true`` observation
(a repo first seen in a listing), never the Hub's ``createdAt``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claims.values.canonical import as_utc
from claims.values.display import format_value
from claims.values.timefmt import utc_minute
from claims.values.value import Value
from claims.verify.compare import date_window
from claims.verify.facts import ObsView

# Promise status -> verdict status. Met late is "contradicted": the stated date was wrong,
# and the reason says by how many days (decision recorded for the lead).
VERDICT_OF: dict[str, str] = {
    "met": "confirmed",
    "met_late": "contradicted",
    "pending": "pending",
    "overdue": "overdue",
    "unknown": "unverified",
}


@dataclass(frozen=True)
class PromiseOutcome:
    """``status``: met / met_late / pending / overdue / unknown; ``days`` late or overdue."""

    status: str
    deadline: dt.date | None
    days: int | None
    evidence: tuple[int, ...]
    as_of: dt.datetime | None
    reason: str

    @property
    def verdict(self) -> str:
        return VERDICT_OF[self.status]


def deadline_of(promise: Value) -> dt.date | None:
    """Last day that keeps a dated promise: on D -> D; before D -> D-1; by D -> D
    (month precision: the month's last day); after D -> None (no deadline)."""
    return date_window(promise)[1]


def days_past(deadline: dt.date | None, at: dt.datetime | None) -> int | None:
    """Calendar days from ``deadline`` (the last day that keeps the promise,
    :func:`deadline_of`) to ``at``'s UTC date (the hour of ``at`` does not count); None
    when not past, or either is unknown.

    The one count of "overdue by N days" and "late by N days" everywhere (verdicts,
    `tracker status` per promise and overall, the site): "before 2026-11-04" ends on
    2026-11-03, so as of 2026-11-28 it is 25 days overdue, "on 2026-11-04" 24."""
    if deadline is None or at is None:
        return None
    late = (at.astimezone(dt.UTC).date() - deadline).days
    return late if late > 0 else None


def _ts(t: dt.datetime) -> str:
    return utc_minute(t)


def landed_at_first_look(
    landed_at: dt.datetime,
    watch_first: dt.datetime | None,
    told: tuple[str, Mapping[str, Any]] | None,
) -> tuple[bool, dt.datetime | None]:
    """Whether a repo's first sighting (``landed_at``) was the first look of its watch,
    and the last check before it that saw no weights: ``(at_first_check, landed_after)``.

    The one landing window of `tracker status` and of the promise verdicts.
    ``watch_first``: the earliest observation of the watch that saw it; ``told``: the
    ``(kind, detail)`` of the cycle's first ``weights_landed`` / first-check
    ``subject_discovered`` event for the repo (:func:`claims.events.weights_events`). The
    cycle knew the watch's history (an empty org listing stores no observation), so its
    event decides when there is one: a landing after a successful check
    (``previous_check``) or after "not found" is no first look; else the repo's first
    sighting being the watch's first observation is."""
    at_first = watch_first is not None and as_utc(watch_first) == as_utc(landed_at)
    kind, detail = told or (None, {})
    after = detail.get("previous_check")
    if kind == "subject_discovered":
        return True, None
    if kind == "weights_landed" and (after or detail.get("not_public_before")):
        return False, as_utc(dt.datetime.fromisoformat(after)) if after else None
    return at_first, None


def weights_evidence(observations: Sequence[ObsView]) -> ObsView | None:
    """The earliest-seen ``weights_available = true`` observation, or None."""
    seen = [
        o
        for o in observations
        if o.attribute == "weights_available"
        and o.value.kind == "boolean"
        and o.value.value is True
    ]
    return min(seen, key=lambda o: (o.first_seen, o.id)) if seen else None


def evaluate_promise(
    promise: Value,
    observations: Sequence[ObsView],
    last_check: dt.datetime | None,
    now: dt.datetime,
    first_looks: Collection[int] = (),
) -> PromiseOutcome:
    """Status of a weights promise (``weights_release_date`` with on/before/by/after).

    ``observations``: the subject's observations (only ``weights_available = true`` count).
    ``last_check``: last successful run of a watch that would show the weights (the org
    listing of the subject's ``hub_org``, or a model watch of its repo).

    - evidence first seen on or before the deadline -> met; after it -> met late by N days
      (first_seen's UTC date minus the deadline);
    - no evidence, last check after the deadline -> overdue by (check date - deadline) days,
      "as of" the check: "before 2026-11-04" is one day more overdue than "on 2026-11-04";
    - no evidence, deadline not passed (now) -> pending;
    - no evidence, deadline passed but no check since -> unknown (verdict unverified);
    - evidence seen at its watch's first look (``first_looks``: ids of the observations
      :func:`landed_at_first_look` says were, the same window `tracker status` uses) after
      the deadline -> unknown: the repo was already there when watching began, so its
      first_seen only bounds the landing from above."""
    deadline = deadline_of(promise)
    stated = format_value(promise)
    ev = weights_evidence(observations)
    if ev is not None:
        return _with_evidence(ev, deadline, stated, first_looks)
    return _without_evidence(deadline, stated, last_check, now)


def _with_evidence(
    ev: ObsView,
    deadline: dt.date | None,
    stated: str,
    first_looks: Collection[int],
) -> PromiseOutcome:
    """Weights seen (``ev``): met, met late by N days, or unknown when they were already
    there at the watch's first check after the deadline (see :func:`evaluate_promise`)."""
    seen = ev.first_seen.astimezone(dt.UTC)
    if deadline is None or seen.date() <= deadline:
        return PromiseOutcome(
            "met",
            deadline,
            0,
            (ev.id,),
            seen,
            f"met: weights first seen {_ts(seen)} (observation #{ev.id}); promised {stated}",
        )
    if ev.id in first_looks:
        return PromiseOutcome(
            "unknown",
            deadline,
            None,
            (ev.id,),
            seen,
            f"weights already listed at the first hub check {_ts(seen)} (observation "
            f"#{ev.id}); whether they landed by {deadline} cannot be told from it",
        )
    days = days_past(deadline, seen) or 0
    return PromiseOutcome(
        "met_late",
        deadline,
        days,
        (ev.id,),
        seen,
        f"late by {days} days: weights first seen {_ts(seen)} (observation #{ev.id}); "
        f"promised {stated} (deadline {deadline})",
    )


def _without_evidence(
    deadline: dt.date | None, stated: str, last_check: dt.datetime | None, now: dt.datetime
) -> PromiseOutcome:
    """No weights seen: pending, overdue as of ``last_check``, or unknown when the deadline
    passed with no check since (see :func:`evaluate_promise`)."""
    if deadline is None:
        return PromiseOutcome(
            "pending", None, None, (), last_check, f"promised {stated}: no weights seen yet"
        )
    days = days_past(deadline, last_check)
    if days is not None and last_check is not None:
        return PromiseOutcome(
            "overdue",
            deadline,
            days,
            (),
            last_check,
            f"overdue by {days} days as of {_ts(last_check)}: promised {stated} "
            f"(deadline {deadline}), no weights seen on the hub",
        )
    if now.astimezone(dt.UTC).date() <= deadline:
        checked = (
            f"last successful Hub check {_ts(last_check)}"
            if last_check
            else "no successful Hub check yet"
        )
        return PromiseOutcome(
            "pending",
            deadline,
            None,
            (),
            last_check,
            f"promised {stated} (deadline {deadline}); not due yet, no weights seen ({checked})",
        )
    checked = f"last checked {_ts(last_check)}" if last_check else "never checked"
    return PromiseOutcome(
        "unknown",
        deadline,
        None,
        (),
        last_check,
        f"deadline {deadline} has passed but the hub has not been checked since ({checked})",
    )
