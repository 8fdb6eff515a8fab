"""The one rule that keeps a replay from setting a watch back: recordings replay in the
order they were made.

A replay writes the time its recording was made (its latest response) as the time of
everything it observes. Replayed over a watch whose last successful check is later, it
would date that watch's new observations, its last check and its events before what is
already stored: a recording made before a model's weights landed, replayed after the
one that saw them, turned the repo "no longer public" and told subscribers it had
disappeared before it was last seen (a fresh-user trial). So a watch a recording answers
is refused when its last success is later than the recording; watches the recording
does not answer are no reason, whatever their time. `tracker demo` and `tracker check
--replay` both apply it (each with its own advice on what to do instead).

A live check needs no such guard: its observations carry the local clock at the fetch
(:func:`tracker.net.fetch.fetch`), never the server's ``Date`` header, and a replay
dated after now is refused (:meth:`tracker.net.har.HarReplayTransport.refuse_future`),
so a stored check is never later than a live one unless the machine's clock is set back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from pathlib import Path

from claims.store.rawdb import RawDB
from claims.values.canonical import as_utc
from claims.values.timefmt import utc_minute
from claims.vocabulary import RETIRED_STATE
from tracker.errors import ConfigError
from tracker.net.har import HarReplayTransport, request_key


def covered_watches(rows: Iterable[tuple[str, str, str | None]], urls: Iterable[str]) -> list[str]:
    """Names (in ``rows`` order) of the watches whose URL a recording answers: ``rows``
    are (name, url, state) of stored watches, ``urls`` the recording's request URLs (a
    query decoded or not is one URL, as the replay finds answers). Retired watches are
    never among them: no cycle checks them."""
    answered = {request_key("GET", u) for u in urls}
    return [
        name
        for name, url, state in rows
        if state != RETIRED_STATE and request_key("GET", url) in answered
    ]


def later_checks(
    rows: Iterable[tuple[str, dt.datetime | None]],
    recorded_at: dt.datetime,
    covered: Collection[str] | None = None,
) -> list[tuple[dt.datetime, str]]:
    """The rule: (last success as aware UTC, name) of every watch of ``rows`` (name, last
    successful check) that is among ``covered`` (None: every one) and was checked
    successfully after ``recorded_at``, oldest first. Failed or skipped checks are no
    reason (they observed nothing; their ``last_success`` is unchanged), nor are
    watches never checked."""
    return sorted(
        (as_utc(last), name)
        for name, last in rows
        if last is not None
        and as_utc(last) > as_utc(recorded_at)
        and (covered is None or name in covered)
    )


def names_text(later: list[tuple[dt.datetime, str]], limit: int = 3) -> str:
    """``a (2026-12-01 06:00 UTC), b (…) and 2 more``: the watches of :func:`later_checks`,
    each with its last successful check, newest first."""
    shown = [f"{name} ({utc_minute(at)})" for at, name in sorted(later, reverse=True)]
    if len(shown) <= limit + 1:  # "and 1 more" would be no shorter
        return ", ".join(shown)
    return ", ".join(shown[:limit]) + f" and {len(shown) - limit} more"


_WATCHES = "SELECT name, url, state, last_success FROM watch ORDER BY name"


def refuse_older_replay(raw: RawDB, har: Path, watch_names: Iterable[str] | None) -> None:
    """Raise :class:`~tracker.errors.ConfigError`, before anything is stored, when the
    recording ``har`` is older (its latest response) than the last successful check of
    watches it answers among those a `tracker check --replay` checks (``watch_names``,
    else every one), by :func:`later_checks`. The message names the file, the watches
    with their last checks and the recording's time, and what to do. ``raw``: the
    cycle's connection; an unreadable HAR raises the replay's own ConfigError."""
    transport = HarReplayTransport(har)
    recorded_at = transport.latest_recorded_at()
    if recorded_at is None:
        return
    rows = raw.execute(_WATCHES).fetchall()
    covered = set(covered_watches([(n, u, st) for n, u, st, _t in rows], transport.urls()))
    if watch_names is not None:
        covered &= set(watch_names)
    later = later_checks([(n, raw.datetime(t)) for n, _u, _s, t in rows], recorded_at, covered)
    if not later:
        return
    n = len(later)
    raise ConfigError(
        f"{har}: recorded {utc_minute(as_utc(recorded_at))}, before the last successful "
        f"check of {n} watch{'es' if n > 1 else ''} it answers ({names_text(later)}); "
        "replaying it would set their state back, so nothing was replayed: replay "
        "recordings in the order they were made, or name only other watches with --watch"
    )
