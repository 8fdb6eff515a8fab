"""Alerts: drain the event outbox to Apprise subscriptions, logging each delivery.

Why Apprise: one URL syntax for ~100 chat, mail and push services
(https://appriseit.com/services/), each plugin knows its channel's length limits
(``body_maxlen``/``title_maxlen``), and it is maintained. Delivery rules:

- one :class:`claims.store.tables.Delivery` row per (event, subscription) under a unique
  index; the row is switched from ``pending`` to ``sending`` (compare-and-set) and
  committed *before* the send, so a crash or a second process never sends twice
  (at most once: a row a crash leaves in ``sending`` is not resent by itself);
  every URL is checked before any claim, and an error after a claim but before the
  message reaches the sender puts the row back to ``pending`` (it was not sent);
- a 2xx marks it ``delivered``; anything else is logged in ``last_error`` and retried
  with exponential backoff, ``dead`` after :data:`MAX_ATTEMPTS`;
- each row is sent on its own: one failing channel never blocks the others;
- a message longer than the channel takes is cut with ``…`` keeping the full link
  (where the channel posts title and body as one text, as Discord does, the title
  counts too); a 400/413/422 answer retries at once in a shorter form (cases/C20).
  Cases/C20 allows cutting or splitting into parts: one cut message keeps an alert one
  delivery (one row, delivered or not) and its link always present.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import apprise
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from claims.store.tables import Delivery, Event, Subject, utcnow
from tracker.alerts.report import DrainReport, count_waiting
from tracker.alerts.subscriptions import Subscription
from tracker.errors import TrackerError
from tracker.site.anchors import event_target
from tracker.site.build import resolve_base_url
from tracker.site.eventtext import as_utc, describe_change, event_detail

MAX_ATTEMPTS = 6
BACKOFF_BASE = dt.timedelta(minutes=1)  # 1, 4, 16, 64 min, then capped
BACKOFF_CAP = dt.timedelta(hours=6)
BACKLOG = dt.timedelta(hours=48)  # a new subscription gets at most this much history
SHORTER = (2000, 1000, 500)  # lengths tried after a "too long"-looking rejection
TITLE_CAP = 256  # Discord embed titles; no chat shows more
RETRY_AT_ONCE = {400, 413, 422}
ELLIPSIS = "…"
JOIN = "\r\n"  # what Apprise puts between title and body when it posts them as one text


class NotifyError(TrackerError):
    """An alert could not be sent (``tracker alerts test``) or a URL is unusable."""

    kind = "notify"


class DoesNotFit(NotifyError):
    """The alert cannot be made to fit the channel (its link alone is longer than the
    channel allows): retrying cannot help, so the delivery is given up, not retried."""


class NotSent(NotifyError):
    """Raised by a sender that knows nothing went out (e.g. a URL Apprise rejects), so
    the claimed delivery can go back to ``pending``."""


@dataclass(frozen=True)
class SendResult:
    """``ok`` after a 2xx; ``status`` is the HTTP code Apprise logged, when it did."""

    ok: bool
    detail: str = ""
    status: int | None = None


Sender = Callable[[str, str, str], SendResult]  # (apprise url, title, body) -> result


def _cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut with ``…`` (empty when no room)."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS if limit > 1 else ""


@dataclass(frozen=True)
class Message:
    """An alert: title, what changed, and the link that must reach the reader whole."""

    title: str
    text: str
    link: str

    def fit(
        self, limit: int, title_limit: int = TITLE_CAP, *, joined: bool = False
    ) -> tuple[str, str]:
        """(title, body) within the limits: body = text + newline + link, the text cut
        with ``…`` when needed so the link always survives whole.

        ``joined``: the channel posts title and body as one text (``title\\r\\nbody``:
        Discord's ``content`` through Apprise, or a service without titles), so the
        title counts against ``limit`` too (cut first if it would leave no room for the
        link). Raises :class:`DoesNotFit` when the link alone does not fit."""
        title = _cut(self.title, title_limit)
        if joined and title:
            title = _cut(title, limit - len(JOIN) - len(self.link) - len(ELLIPSIS) - 1)
            limit -= (len(title) + len(JOIN)) if title else 0
        body = f"{self.text}\n{self.link}"
        if len(body) <= limit:
            return title, body
        room = limit - len(self.link) - len(ELLIPSIS) - 1
        if room < 0:
            raise DoesNotFit(f"link of {len(self.link)} characters does not fit in {limit}")
        return title, f"{self.text[:room].rstrip()}{ELLIPSIS}\n{self.link}"


def compose(event: Event, subject: Subject | None, base_url: str) -> Message:
    """The alert for an event: its title, what changed from what to what, and a link to
    the anchor of what it is about on the site (:func:`tracker.site.anchors.event_target`:
    the claim, the discrepancy, the weights line or the observed row), or
    ``detail["url"]`` when the event names its own page."""
    detail = event_detail(event)
    link = base_url + event_target(event.kind, detail, subject.slug if subject else None)
    url = detail.get("url")
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        link = url  # e.g. a pricing-table diff page
    return Message(title=event.title, text=describe_change(event, why=True), link=link)


@contextmanager
def _captured(logger_name: str = "apprise") -> Iterator[list[str]]:
    lines: list[str] = []

    class Grab(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                lines.append(record.getMessage())

    logger = logging.getLogger(logger_name)
    handler = Grab()
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


def apprise_send(url: str, title: str, body: str) -> SendResult:
    """Send through Apprise; returns its verdict and the warnings it logged (which carry
    ``error=<status>`` for HTTP plugins). Raises :class:`NotSent` for a bad URL."""
    app = apprise.Apprise()
    if not app.add(url):
        raise NotSent("not a usable Apprise URL (see https://appriseit.com/services/)")
    with _captured() as lines:
        ok = bool(app.notify(body=body, title=title, body_format=apprise.NotifyFormat.TEXT))
    detail = " | ".join(lines)
    m = re.search(r"error=(\d{3})", detail)
    return SendResult(ok=ok, detail=detail, status=int(m.group(1)) if m else None)


def channel_limits(sub: Subscription) -> tuple[int, int, bool]:
    """(body, title, joined): the Apprise plugin's own limits, the body lowered by
    ``max_length``; ``joined`` when the service counts the title in the body's limit
    (``overflow_amalgamate_title``, e.g. Discord's 2,000-character ``content``) or has no
    title (Apprise then puts it before the body)."""
    plugin = apprise.Apprise.instantiate(sub.url)
    if not plugin:
        raise NotifyError(f"{sub.label()}: not a usable Apprise URL")
    body = int(getattr(plugin, "body_maxlen", 0) or 32768)
    raw_title = int(getattr(plugin, "title_maxlen", 0) or 0)
    joined = bool(getattr(plugin, "overflow_amalgamate_title", False)) or raw_title <= 0
    title = raw_title or TITLE_CAP
    if sub.max_length:
        body = min(body, sub.max_length)
    return body, min(title, TITLE_CAP), joined


def backoff(attempts: int) -> dt.timedelta:
    """Wait before attempt ``attempts + 1``: 1 min × 4^(attempts-1), at most 6 h."""
    return min(BACKOFF_BASE * (4 ** max(attempts - 1, 0)), BACKOFF_CAP)


def plan(
    session: Session,
    subs: Sequence[Subscription],
    now: dt.datetime,
    backlog: dt.timedelta = BACKLOG,
) -> tuple[int, int]:
    """Create pending Delivery rows for recent events each subscription wants; returns
    (rows created, events too old for a subscription that has never had a delivery).
    Existing rows are never recreated: nothing is sent twice."""
    slugs = {s.id: s.slug for s in session.exec(select(Subject)).all()}
    events = session.exec(select(Event).order_by(Event.created_at, Event.id)).all()
    have = {(d.event_id, d.subscription) for d in session.exec(select(Delivery)).all()}
    served = {name for _id, name in have}
    fresh = [sub for sub in subs if sub.name not in served]
    new = too_old = 0
    for ev in events:
        if as_utc(ev.created_at) < now - backlog:
            # Said in the summary, so a new subscription's silence is explained.
            too_old += any(
                sub.wants(ev.kind, ev.audience, slugs.get(ev.subject_id))  # type: ignore[arg-type]
                for sub in fresh
            )
            continue
        for sub in subs:
            if (ev.id, sub.name) in have:
                continue
            if not sub.wants(ev.kind, ev.audience, slugs.get(ev.subject_id)):  # type: ignore[arg-type]
                continue
            session.add(Delivery(event_id=ev.id, subscription=sub.name, next_attempt_at=now))  # type: ignore[arg-type]
            try:
                session.commit()
                new += 1
            except IntegrityError:  # another process planned it first
                session.rollback()
    return new, too_old


def drain(
    engine: Engine,
    subs: Sequence[Subscription],
    *,
    now: dt.datetime | None = None,
    base_url: str | None = None,
    sender: Sender | None = None,
    backlog: dt.timedelta = BACKLOG,
) -> DrainReport:
    """Plan, then send every due delivery once. Idempotent: a re-run sends nothing new.

    Events older than ``backlog`` are not planned (a new subscription is not flooded
    with history). ``sender`` defaults to :func:`apprise_send`. Returns counts, with
    each failing subscription's first error. An alert that cannot fit its channel
    (:class:`DoesNotFit`) is given up at once (``dead``) and the run goes on; any other
    error before the hand-off puts the row back to ``pending`` and is raised. Raises :class:`NotifyError` for an unusable
    URL before anything is planned or claimed.
    """
    now = as_utc(now or utcnow())
    send = sender or apprise_send
    base = resolve_base_url(base_url)
    limits = validate(subs)  # before anything is planned or claimed
    by_name = {s.name: s for s in subs}
    tried: list[int] = []
    with Session(engine) as session:
        planned, too_old = plan(session, subs, now, backlog)
        report = DrainReport(planned=planned, too_old=too_old, backlog=backlog)
        due = session.exec(
            select(Delivery).where(Delivery.state == "pending").order_by(Delivery.id)
        ).all()
        for d in due:
            sub = by_name.get(d.subscription)
            if sub is None or (d.next_attempt_at and as_utc(d.next_attempt_at) > now):
                continue
            event = session.get(Event, d.event_id)
            subject = session.get(Subject, event.subject_id) if event and event.subject_id else None
            if not _claim(session, d, now):
                continue  # another process took it
            tried.append(d.id)  # type: ignore[arg-type]
            hopeless = False
            with _release_unless_handed(session, d) as handed:
                msg = compose(event, subject, base)  # type: ignore[arg-type]
                try:
                    result, chars = _send_fitted(
                        send, sub, msg, d.attempts, limits[sub.name], handed
                    )
                except DoesNotFit as exc:  # the same next time: give this one up, go on
                    result, chars, hopeless = SendResult(ok=False, detail=str(exc)), 0, True
            d.attempts += 1
            if result.ok:
                d.state, d.delivered_at, d.sent_chars, d.parts = "delivered", now, chars, 1
                d.last_error = None
                report.delivered += 1
            else:
                d.last_error = (result.detail or "send failed")[:500]
                if hopeless or d.attempts >= MAX_ATTEMPTS:
                    d.state = "dead"
                    report.record_failure(sub.name, d.last_error, None)
                else:
                    d.state, d.next_attempt_at = "pending", now + backoff(d.attempts)
                    report.record_failure(sub.name, d.last_error, d.next_attempt_at)
            session.add(d)
            session.commit()
        report.waiting, report.next_retry_at = count_waiting(session, by_name, tried, now)
    return report


def validate(subs: Sequence[Subscription]) -> dict[str, tuple[int, int, bool]]:
    """Every subscription's :func:`channel_limits` by name; raises :class:`NotifyError`
    naming the first unusable URL, so a bad configuration claims nothing."""
    return {sub.name: channel_limits(sub) for sub in subs}


@contextmanager
def _release_unless_handed(session: Session, d: Delivery) -> Iterator[list[bool]]:
    """Guard the claimed window: an error before the message reached the sender (or a
    :class:`NotSent` from it) puts ``d`` back to ``pending``; once it may have gone out,
    the row stays ``sending`` (at most once). Yields the flag the sender sets."""
    handed = [False]
    try:
        yield handed
    except BaseException as exc:
        if not handed[0] or isinstance(exc, NotSent):
            session.rollback()
            session.exec(  # type: ignore[call-overload]
                update(Delivery)
                .where(Delivery.id == d.id, Delivery.state == "sending")
                .values(state="pending")
            )
            session.commit()
        raise


def _claim(session: Session, d: Delivery, now: dt.datetime) -> bool:
    """Mark ``d`` as ``sending`` only if it is still ``pending`` (a compare-and-set that
    two concurrent drains cannot both win), committed before anything is sent."""
    claimed = session.exec(  # type: ignore[call-overload]
        update(Delivery)
        .where(Delivery.id == d.id, Delivery.state == "pending")
        .values(state="sending", last_attempt_at=now)
    )
    session.commit()
    session.refresh(d)
    return bool(claimed.rowcount == 1)


def _send_fitted(
    send: Sender,
    sub: Subscription,
    msg: Message,
    attempts: int,
    limits: tuple[int, int, bool],
    handed: list[bool],
) -> tuple[SendResult, int]:
    """Send within the channel's ``limits``; after a 400/413/422 retry at once shorter.

    Earlier failed attempts start the ladder lower, so a retried alert goes out shorter.
    ``handed[0]`` is True while a send is in flight (then it may have gone out).
    """
    body_max, title_max, joined = limits
    ladder = [body_max] + [n for n in SHORTER if n < body_max]
    errors: list[str] = []
    rungs = ladder[min(attempts, len(ladder) - 1) :]
    for i, limit in enumerate(rungs):
        title, body = msg.fit(limit, title_max, joined=joined)
        handed[0] = True
        result = send(sub.url, title, body)
        if result.ok:
            return result, len(body)
        handed[0] = False  # a failure answer: known not delivered
        sent = len(title) + len(JOIN) + len(body) if joined and title else len(body)
        errors.append(f"{sent} chars: {result.detail or 'failed'}")
        shorter_helps = i + 1 < len(rungs) and sent > rungs[i + 1]
        if result.status not in RETRY_AT_ONCE or not shorter_helps:
            break
    return SendResult(ok=False, detail=" ; ".join(errors), status=result.status), 0


def send_test(
    subs: Sequence[Subscription], *, sender: Sender | None = None
) -> list[tuple[Subscription, str | None]]:
    """Send one test message to each subscription, every one even after a failure.

    Returns ``(subscription, None)`` for each that answered 2xx and ``(subscription,
    why)`` for each that did not (the error Apprise logged, or why the URL is unusable),
    in the order given. Raises nothing for a failed target.
    """
    send = sender or apprise_send
    results: list[tuple[Subscription, str | None]] = []
    for sub in subs:
        try:
            result = send(sub.url, "release-tracker test", "Test alert from release-tracker.")
        except NotSent as exc:
            results.append((sub, str(exc)))
            continue
        results.append((sub, None if result.ok else (result.detail or "failed")))
    return results
