"""Alerts: drain the event outbox to Apprise subscriptions, logging each delivery.

Why Apprise: one URL syntax for ~100 chat, mail and push services
(https://appriseit.com/services/), each plugin knows its channel's length limits
(``body_maxlen``/``title_maxlen``), and it is maintained. Delivery rules:

- one :class:`claims.store.tables.Delivery` row per (event, target) under a unique
  index: a subscription with several URLs has one target per URL
  (:mod:`tracker.alerts.subscriptions`), so each URL's delivery is recorded and retried on
  its own (cases/C31: a Discord 429 never resends the Telegram and mail copies); the row is switched from ``pending`` to ``sending`` (compare-and-set) and
  committed *before* the send, so a crash or a second process never sends twice
  (at most once: a row a crash leaves in ``sending`` is not resent by itself);
  every URL is checked before any claim, and an error after a claim but before the
  message reaches the sender puts the row back to ``pending`` (it was not sent);
- a 2xx marks it ``delivered``; anything else is logged in ``last_error`` and retried
  with exponential backoff, or after the delay the service asked for (``Retry-After``,
  :mod:`tracker.alerts.retry_after`), ``dead`` after :data:`MAX_ATTEMPTS`;
- Apprise's third answer, "no service matched" (v1 ``None``, v2 ``NOMATCH``: nothing was
  tried), is neither success nor a failure to retry: the row becomes ``unrouted``, is
  reported once as a configuration error and never retried (cases/C31);
- several alerts due for one target in one drain (:data:`DIGEST_FROM` or more) go as one
  digest message listing their titles, so a poll with 25 price changes is one message,
  not 25 (chat services rate-limit bursts: Telegram about 20 a minute per group);
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
from sqlmodel import Session, col, select

from claims.events import reader_title
from claims.store.tables import Delivery, Event, Subject
from claims.values.canonical import as_utc, utcnow
from claims.values.safetext import chat_text
from tracker.alerts.report import DrainReport, count_waiting
from tracker.alerts.retry_after import delay_of, watching
from tracker.alerts.subscriptions import Subscription
from tracker.errors import TrackerError
from tracker.website.anchors import event_target
from tracker.website.build import resolve_base_url
from tracker.website.eventtext import describe_change, event_detail

MAX_ATTEMPTS = 6
BACKOFF_BASE = dt.timedelta(minutes=1)  # 1, 4, 16, 64 min, then capped
BACKOFF_CAP = dt.timedelta(hours=6)
BACKLOG = dt.timedelta(hours=48)  # a new subscription gets at most this much history
SHORTER = (2000, 1000, 500)  # lengths tried after a "too long"-looking rejection
TITLE_CAP = 256  # Discord embed titles; no chat shows more
RETRY_AT_ONCE = {400, 413, 422}
ELLIPSIS = "…"
DIGEST_FROM = 2  # alerts due for one target in one drain that go as one digest message
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
    """``ok`` after a 2xx; ``status`` is the HTTP code of the failure, when known;
    ``retry_after`` the delay the service asked for (429/503 ``Retry-After``);
    ``unrouted`` when Apprise tried no service at all (v1 ``None``, v2 ``NOMATCH``)."""

    ok: bool
    detail: str = ""
    status: int | None = None
    retry_after: dt.timedelta | None = None
    unrouted: bool = False


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
    the anchor of what it is about on the site (:func:`tracker.website.anchors.event_target`:
    the claim, the discrepancy, the weights line or the observed row), or
    ``detail["url"]`` when the event names its own page. Title and text come from scraped
    data, so mentions are neutralized and links in them shown as text
    (:func:`claims.values.safetext.chat_text`; issue 20); the link is ours."""
    detail = event_detail(event)
    link = base_url + event_target(event.kind, detail, subject.slug if subject else None)
    url = detail.get("url")
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        link = url  # e.g. a pricing-table diff page
    # the title as the site and feeds word it (a found-settled discrepancy: not "resolved")
    title = chat_text(reader_title(event.kind, event.title, detail))
    text = beyond_title(title, chat_text(describe_change(event, why=True)))
    return Message(title=title, text=text, link=link)


def beyond_title(title: str, text: str) -> str:
    """What ``text`` says that ``title`` does not, so an alert says each thing once: the
    ``; ``-separated parts of ``text`` already in ``title`` are left out, and a leading
    ``REPO: `` that the title names. A landing's title "Quillon 9B: weights available on
    Hugging Face (brightfern/Quillon-9B); licence cc-by-nc-4.0, gated (manual); on time
    for before 2026-12-15" with its text "brightfern/Quillon-9B: first seen … (…);
    licence cc-by-nc-4.0, gated (manual); on time for before 2026-12-15" keeps
    "first seen … (…)". Empty when the title says it all."""
    head, sep, rest = text.partition(": ")
    if sep and head in title and " " not in head:
        text = rest
    parts = [p for p in text.split("; ") if p and p not in title]
    return "; ".join(parts)


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


def webhook_hint(url: str) -> str:
    """What to add to "not a usable Apprise URL" for ``url``: for an ``http://`` or
    ``https://`` URL (no Apprise service: a plain webhook is Apprise's ``json://`` or
    ``jsons://``, https://appriseit.com/services/json/) ``; for a plain webhook use
    json://HOST/PATH or jsons://HOST/PATH (...)``; else ``""``."""
    scheme = url.partition("://")[0].strip().lower() if "://" in url else ""
    if scheme not in ("http", "https"):
        return ""
    return (  # never echoes the URL: it may carry a password or token
        "; for a plain webhook use json://HOST/PATH or jsons://HOST/PATH "
        "(Apprise's JSON webhook schemes: http and https)"
    )


def apprise_send(url: str, title: str, body: str) -> SendResult:
    """Send through Apprise; returns its verdict and the warnings it logged (which carry
    ``error=<status>`` for HTTP plugins). Raises :class:`NotSent` for a bad URL."""
    app = apprise.Apprise()
    if not app.add(url):
        raise NotSent(
            "not a usable Apprise URL (see https://appriseit.com/services/)" + webhook_hint(url)
        )
    with _captured() as lines, watching() as responses:
        answer = app.notify(body=body, title=title, body_format=apprise.NotifyFormat.TEXT)
    return read_answer(answer, " | ".join(lines), responses, utcnow())


def read_answer(
    answer: object, detail: str, responses: Sequence[tuple[int, dict[str, str]]], now: dt.datetime
) -> SendResult:
    """An Apprise ``notify()`` answer as a :class:`SendResult`. v1 answers True, False or
    None (nothing matched); v2 an ``AppriseResult`` whose ``status`` is SUCCESS, FAILURE,
    NOMATCH, PARTIAL or TIMEOUT (caronc/apprise#538, #1664). ``responses`` are the HTTP
    answers seen meanwhile (:func:`tracker.alerts.retry_after.watching`): the last failing
    one gives ``status`` and any ``retry_after``; else ``error=NNN`` in Apprise's log."""
    status_name = getattr(getattr(answer, "status", None), "name", None)
    if answer is None or status_name == "NOMATCH":
        return SendResult(ok=False, detail=detail or "no service matched", unrouted=True)
    ok = bool(answer) and status_name in (None, "SUCCESS")
    failing = [(code, headers) for code, headers in responses if code >= 400]
    m = re.search(r"error=(\d{3})", detail)
    code = failing[-1][0] if failing else (int(m.group(1)) if m else None)
    retry = next((d for c, h in reversed(failing) if (d := delay_of(c, h, now)) is not None), None)
    return SendResult(ok=ok, detail=detail, status=code, retry_after=retry)


def channel_limits(sub: Subscription) -> tuple[int, int, bool]:
    """(body, title, joined): the Apprise plugin's own limits, the body lowered by
    ``max_length``; ``joined`` when the service counts the title in the body's limit
    (``overflow_amalgamate_title``, e.g. Discord's 2,000-character ``content``) or has no
    title (Apprise then puts it before the body)."""
    plugin = apprise.Apprise.instantiate(sub.url)
    if not plugin:
        raise NotifyError(f"{sub.label()}: not a usable Apprise URL{webhook_hint(sub.url)}")
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
    events = session.exec(select(Event).order_by(col(Event.created_at), col(Event.id))).all()
    have = {(d.event_id, d.subscription) for d in session.exec(select(Delivery)).all()}
    served = {name for _id, name in have}
    fresh = [sub for sub in subs if sub.name not in served]
    new = too_old = 0
    for ev in events:
        if as_utc(ev.created_at) < now - backlog:
            # Said in the summary, so a new subscription's silence is explained.
            too_old += any(
                sub.wants(ev.kind, ev.audience, slugs.get(ev.subject_id)) for sub in fresh
            )
            continue
        for sub in subs:
            if (ev.id, sub.name) in have:
                continue
            if not sub.wants(ev.kind, ev.audience, slugs.get(ev.subject_id)):
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
    with history). ``sender`` defaults to :func:`apprise_send`. Due deliveries are sent
    per target (subscription URL): one message each, or one digest when
    :data:`DIGEST_FROM` or more are due for one target. Returns counts, with each failing
    subscription's first error and each unrouted one's configuration error. An alert
    that cannot fit its channel (:class:`DoesNotFit`) is given up at once (``dead``) and
    the run goes on; any other error before the hand-off puts the rows back to
    ``pending`` and is raised. Raises :class:`NotifyError` for an unusable URL before
    anything is planned or claimed.
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
            select(Delivery).where(Delivery.state == "pending").order_by(col(Delivery.id))
        ).all()
        groups: dict[str, list[Delivery]] = {}
        for d in due:
            if d.subscription not in by_name:
                continue
            if d.next_attempt_at and as_utc(d.next_attempt_at) > now:
                continue
            groups.setdefault(d.subscription, []).append(d)
        for name, rows in groups.items():
            claimed = [d for d in rows if _claim(session, d, now)]  # others: another process
            tried.extend(d.id for d in claimed)  # type: ignore[misc]
            if claimed:
                _deliver(session, send, by_name[name], claimed, limits[name], base, now, report)
        report.waiting, report.next_retry_at = count_waiting(session, by_name, tried, now)
    return report


def _deliver(
    session: Session,
    send: Sender,
    sub: Subscription,
    rows: list[Delivery],
    limits: tuple[int, int, bool],
    base: str,
    now: dt.datetime,
    report: DrainReport,
) -> None:
    """Send the claimed ``rows`` of one target as one message (a digest for several) and
    record the outcome on each row."""
    events = [session.get(Event, d.event_id) for d in rows]
    subjects = [
        session.get(Subject, ev.subject_id) if ev is not None and ev.subject_id else None
        for ev in events
    ]
    hopeless = False
    with _release_unless_handed(session, rows) as handed:
        if len(rows) >= DIGEST_FROM:
            msg = compose_digest(events, base, subjects)  # type: ignore[arg-type]
        else:
            msg = compose(events[0], subjects[0], base)  # type: ignore[arg-type]
        try:
            attempts = min(d.attempts for d in rows)
            result, chars = _send_fitted(send, sub, msg, attempts, limits, handed)
        except DoesNotFit as exc:  # the same next time: give these up, go on
            result, chars, hopeless = SendResult(ok=False, detail=str(exc)), 0, True
    for d in rows:
        _settle(d, result, chars, hopeless, now, report, sub.name)
        d.parts = 1 if result.ok else d.parts
        session.add(d)
    session.commit()


def _settle(
    d: Delivery,
    result: SendResult,
    chars: int,
    hopeless: bool,
    now: dt.datetime,
    report: DrainReport,
    name: str,
) -> None:
    """One row's new state after a send: delivered, unrouted (never retried), dead, or
    pending until the service's retry delay or :func:`backoff`."""
    d.attempts += 1
    if result.ok:
        d.state, d.delivered_at, d.sent_chars, d.last_error = "delivered", now, chars, None
        report.delivered += 1
        return
    d.last_error = (result.detail or "send failed")[:500]
    if result.unrouted:
        d.state = "unrouted"
        report.record_unrouted(name, d.last_error)
    elif hopeless or d.attempts >= MAX_ATTEMPTS:
        d.state = "dead"
        report.record_failure(name, d.last_error, None)
    else:
        wait = result.retry_after if result.retry_after is not None else backoff(d.attempts)
        d.state, d.next_attempt_at = "pending", now + wait
        report.record_failure(name, d.last_error, d.next_attempt_at)


def compose_digest(
    events: Sequence[Event], base_url: str, subjects: Sequence[Subject | None] = ()
) -> Message:
    """One message for several alerts to one target: ``N alerts`` and, per alert (in
    event order), its title, what it says (:func:`describe_change`, when that is more than
    the title) and its own link (:func:`compose`'s: the anchor on the subject's page, or
    the event's own ``url``), e.g. ``- Cirrus 12B: weights available … — nimbuslabs/…:
    first seen …`` then ``  https://…/subjects/cirrus-12b/#weights``; then the changes
    page (cut with ``…`` to the channel's limit by :meth:`Message.fit`, the last link
    kept whole). ``subjects``: each event's subject (None, or shorter: no subject page).
    Titles are scraped text: mentions neutralized and links shown as text
    (:func:`claims.values.safetext.chat_text`)."""
    lines = []
    for i, ev in enumerate(events):
        one = compose(ev, subjects[i] if i < len(subjects) else None, base_url)
        said = f" — {one.text}" if one.text and one.text != one.title else ""
        lines.append(f"- {one.title}{said}\n  {one.link}")
    return Message(
        title=f"{len(events)} alerts from release-tracker",
        text="\n".join(lines),
        link=f"{base_url}changes.html",
    )


def validate(subs: Sequence[Subscription]) -> dict[str, tuple[int, int, bool]]:
    """Every subscription's :func:`channel_limits` by name; raises :class:`NotifyError`
    naming the first unusable URL, so a bad configuration claims nothing."""
    return {sub.name: channel_limits(sub) for sub in subs}


@contextmanager
def _release_unless_handed(session: Session, rows: Sequence[Delivery]) -> Iterator[list[bool]]:
    """Guard the claimed window: an error before the message reached the sender (or a
    :class:`NotSent` from it) puts ``rows`` back to ``pending``; once it may have gone out,
    they stay ``sending`` (at most once). Yields the flag the sender sets."""
    handed = [False]
    try:
        yield handed
    except BaseException as exc:
        if not handed[0] or isinstance(exc, NotSent):
            session.rollback()
            session.exec(
                update(Delivery)
                .where(
                    col(Delivery.id).in_([d.id for d in rows]),
                    col(Delivery.state) == "sending",
                )
                .values(state="pending")
            )
            session.commit()
        raise


def _claim(session: Session, d: Delivery, now: dt.datetime) -> bool:
    """Mark ``d`` as ``sending`` only if it is still ``pending`` (a compare-and-set that
    two concurrent drains cannot both win), committed before anything is sent."""
    claimed = session.exec(
        update(Delivery)
        .where(col(Delivery.id) == d.id, col(Delivery.state) == "pending")
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
    failed = SendResult(
        ok=False,
        detail=" ; ".join(errors),
        status=result.status,
        retry_after=result.retry_after,
        unrouted=result.unrouted,
    )
    return failed, 0


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
