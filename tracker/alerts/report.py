"""What one ``tracker alerts send`` did, per subscription: counts, first error, next retry.

Kept apart from :mod:`tracker.alerts.send` (the sending) so the CLI can print why deliveries
failed, and how many wait for a later retry, without a second pass over the outbox.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from sqlmodel import Session, col, func, select

from claims.store.tables import Delivery
from claims.values.canonical import as_utc
from claims.values.timefmt import iso_z, utc_minute

_SIZE_TAG = re.compile(r"(^|; )\d+ chars: ")


@dataclass
class SubscriptionFailures:
    """One subscription's failed deliveries in a drain: retried later, or given up."""

    subscription: str
    failed: int = 0
    dead: int = 0
    first_error: str = ""
    next_attempt_at: dt.datetime | None = None

    def add(self, error: str, next_attempt_at: dt.datetime | None) -> None:
        """Count one failure: ``next_attempt_at`` None means it was given up."""
        if next_attempt_at is None:
            self.dead += 1
        else:
            self.failed += 1
            if self.next_attempt_at is None or next_attempt_at < self.next_attempt_at:
                self.next_attempt_at = next_attempt_at
        # The log keeps each try's size ("76 chars: ..."); a person needs the error.
        self.first_error = self.first_error or _SIZE_TAG.sub(r"\1", error)

    def warning(self) -> str:
        """One line for stderr: how many failed, the first error, when the next try is."""
        n = self.failed + self.dead
        what = f"{n} deliver{'y' if n == 1 else 'ies'} failed ({self.first_error})"
        parts = [f"subscription {self.subscription!r}: {what}"]
        if self.dead:
            parts.append(f"{self.dead} given up")
        if self.next_attempt_at:
            parts.append(f"next attempt after {_stamp(self.next_attempt_at)}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready fields (times as ``2026-11-29T16:01:00Z``, :func:`claims.values.timefmt.iso_z`)."""
        return {
            "subscription": self.subscription,
            "failed": self.failed,
            "dead": self.dead,
            "first_error": self.first_error,
            "next_attempt_at": _iso(self.next_attempt_at),
        }


@dataclass
class DrainReport:
    """Counts of one drain: deliveries planned, delivered, failed (to retry), dead, and
    ``waiting``: earlier failures not due yet (``next_retry_at`` the soonest);
    ``too_old``: events older than ``backlog`` that a subscription with no delivery yet
    would have wanted (not sent, and said so); ``unrouted``: per subscription, the
    deliveries Apprise routed to no service at all (a configuration error, never
    retried; :meth:`config_errors` says so once per subscription)."""

    planned: int
    too_old: int = 0  # events a new subscription would want, older than ``backlog``
    backlog: dt.timedelta = dt.timedelta(hours=48)
    delivered: int = 0
    failed: int = 0
    dead: int = 0
    waiting: int = 0
    next_retry_at: dt.datetime | None = None
    failures: dict[str, SubscriptionFailures] = field(default_factory=dict)
    unrouted: dict[str, list[str]] = field(default_factory=dict)  # subscription -> errors

    def record_unrouted(self, sub: str, error: str) -> None:
        """Count a delivery of ``sub`` that no service matched (cases/C31)."""
        self.unrouted.setdefault(sub, []).append(_SIZE_TAG.sub(r"\1", error))

    def config_errors(self) -> list[str]:
        """One line per subscription with unrouted deliveries in this run: ``subscription
        'x': no service matched its URL (ERROR); 2 alerts not routed (fix the
        subscription; they are not retried)``."""
        out = []
        for sub, errors in self.unrouted.items():
            n = len(errors)
            out.append(
                f"subscription {sub!r}: no service matched its URL ({errors[0]}); "
                f"{n} alert{'' if n == 1 else 's'} not routed "
                "(fix the subscription; they are not retried)"
            )
        return out

    def record_failure(self, sub: str, error: str, next_attempt_at: dt.datetime | None) -> None:
        """Count a failed delivery of ``sub``; ``next_attempt_at`` None: given up."""
        if next_attempt_at is None:
            self.dead += 1
        else:
            self.failed += 1
        self.failures.setdefault(sub, SubscriptionFailures(sub)).add(error, next_attempt_at)

    def summary(self) -> str:
        """The one-line stdout summary of ``tracker alerts send``: ``alerts: 3 planned,
        0 delivered, 3 failed, 0 given up; 5 waiting to retry (next at 2026-11-29 16:01
        UTC)``. Waiting to retry: this run's failures and earlier ones not due yet,
        with the soonest next attempt of either (one wording for both)."""
        line = (
            f"alerts: {self.planned} planned, {self.delivered} delivered, "
            f"{self.failed} failed, {self.dead} given up; "
            f"{self.failed + self.waiting} waiting to retry"
        )
        soonest = [f.next_attempt_at for f in self.failures.values() if f.next_attempt_at]
        soonest += [self.next_retry_at] if self.waiting and self.next_retry_at else []
        if soonest:
            line += f" (next at {_stamp(min(as_utc(t) for t in soonest))})"
        unrouted = sum(len(e) for e in self.unrouted.values())
        if unrouted:
            line += f"; {unrouted} not routed (configuration error)"
        if self.too_old:
            hours = round(self.backlog.total_seconds() / 3600)
            line += (
                f"; {self.too_old} older event{'' if self.too_old == 1 else 's'} not sent: "
                f"a new subscription gets only the last {hours} h"
            )
        return line

    def to_dict(self) -> dict[str, object]:
        """JSON-ready counts plus one entry per subscription with failures."""
        return {
            "planned": self.planned,
            "too_old": self.too_old,
            "delivered": self.delivered,
            "failed": self.failed,
            "dead": self.dead,
            "waiting": self.waiting,
            "next_retry_at": _iso(self.next_retry_at),
            "failures": [f.to_dict() for f in self.failures.values()],
            "unrouted": sum(len(e) for e in self.unrouted.values()),
        }


def count_waiting(
    session: Session, subs: Collection[str], tried: Collection[int], now: dt.datetime
) -> tuple[int, dt.datetime | None]:
    """(count, soonest) of pending deliveries of ``subs`` not due before ``now`` and not
    tried in this drain (those are already counted as failed)."""
    query = select(func.count(), func.min(Delivery.next_attempt_at)).where(
        Delivery.state == "pending",
        col(Delivery.subscription).in_(list(subs)),
        col(Delivery.next_attempt_at) > now,
    )
    if tried:
        query = query.where(col(Delivery.id).not_in(list(tried)))
    count, soonest = session.exec(query).one()
    return int(count), as_utc(soonest) if soonest else None


def _stamp(t: dt.datetime) -> str:
    return utc_minute(t)


def _iso(t: dt.datetime | None) -> str | None:
    return iso_z(t) or None
