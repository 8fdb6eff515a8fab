"""The retry delay a chat service asked for, seen underneath Apprise.

Apprise (v1 and v2 alike) returns whether a service accepted a message, not when a
rate-limited one may be tried again (caronc/apprise#901: Discord answers 429 with the
delay; Telegram allows about 20 messages a minute per group and answers 429 with
``Retry-After``). Most Apprise plugins post with ``requests``, so while
:func:`watching` is active, every response ``requests`` receives in that context is
noted (a :mod:`contextvars` variable: Apprise 2 runs its plugins in worker threads with
a copy of the caller's context, so they are included), and :func:`delay_of` reads the
delay it asked for: ``Retry-After``
(seconds or an HTTP date, RFC 9110 section 10.2.3) or Discord's
``X-RateLimit-Reset-After`` (seconds). Code outside :func:`watching` sees ``requests``
unchanged.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.utils import parsedate_to_datetime
from typing import Any

import requests.sessions

Notes = list[tuple[int, dict[str, str]]]
_seen: contextvars.ContextVar[Notes | None] = contextvars.ContextVar("responses", default=None)
_installed = False
_install_lock = threading.Lock()
MAX_DELAY = dt.timedelta(hours=24)  # a longer ask is taken as 24 h


def _install() -> None:
    """Wrap ``requests.Session.send`` once (idempotent) to note responses in watched contexts."""
    global _installed
    with _install_lock:
        if _installed:
            return
        original = requests.sessions.Session.send

        def send(self: Any, request: Any, **kwargs: Any) -> Any:
            response = original(self, request, **kwargs)
            notes = _seen.get()
            if notes is not None:
                notes.append((response.status_code, dict(response.headers)))
            return response

        requests.sessions.Session.send = send  # type: ignore[method-assign]
        _installed = True


@contextmanager
def watching() -> Iterator[Notes]:
    """Note (status, headers) of every ``requests`` response in this context meanwhile."""
    _install()
    notes: Notes = []
    token = _seen.set(notes)
    try:
        yield notes
    finally:
        _seen.reset(token)


def delay_of(status: int, headers: dict[str, str], now: dt.datetime) -> dt.timedelta | None:
    """The delay a 429 or 503 answer asks for (``Retry-After`` as seconds or an HTTP
    date, else ``X-RateLimit-Reset-After`` seconds), at most :data:`MAX_DELAY`; None when
    it names none or the answer is another status. Header names are case-insensitive."""
    if status not in (429, 503):
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    for name in ("retry-after", "x-ratelimit-reset-after"):
        value = (lower.get(name) or "").strip()
        if not value:
            continue
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                continue
            if when.tzinfo is None:
                when = when.replace(tzinfo=dt.UTC)
            seconds = (when - now).total_seconds()
        if seconds != seconds or seconds < 0:  # NaN or past: at once
            seconds = 0.0
        return min(dt.timedelta(seconds=min(seconds, MAX_DELAY.total_seconds())), MAX_DELAY)
    return None
