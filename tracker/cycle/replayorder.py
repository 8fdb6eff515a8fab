"""The one rule that keeps a replay from setting a watch back: recordings replay in the
order they were made.

A replay writes the time its recording was made (its latest response) as the time of
everything it observes. Replayed over a watch whose last successful check is later, it
would date that watch's new observations, its last check and its events before what is
already stored: a recording made before a model's weights landed, replayed after the
one that saw them, turned the repo "no longer public" and told subscribers it had
disappeared before it was last seen (a fresh-user trial). So a watch a recording answers
is refused when its last success is later than the answer it would be given (each
watch's own entry: a recording's entries may be of several dates); watches the
recording does not answer are no reason, whatever their time, and `tracker check
--replay` leaves them as stored (:func:`replay_selection`). `tracker demo` and
`tracker check --replay` both apply it (each with its own advice on what to do instead).

A live check needs no such guard: its observations carry the local clock at the fetch
(:func:`tracker.net.fetch.fetch`), never the server's ``Date`` header, and a replay
dated after now is refused (:meth:`tracker.net.har.HarReplayTransport.refuse_future`),
so a stored check is never later than a live one unless the machine's clock is set back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping
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


def answer_times(
    rows: Iterable[tuple[str, str, str | None]], transport: HarReplayTransport
) -> dict[str, dt.datetime]:
    """Name -> the time (aware UTC) of the recorded answer each watch of ``rows`` (name,
    url, state) would use (:meth:`HarReplayTransport.answered_at`), for the watches the
    recording answers (:func:`covered_watches`: retired ones never). A recording's
    entries may be of several dates: each watch's observations carry its own answer's."""
    from tracker.net.fetch import RETRY_STATUSES  # the statuses a fetch asks again after

    out: dict[str, dt.datetime] = {}
    for name, url, state in rows:
        when = None if state == RETIRED_STATE else transport.answered_at(url, RETRY_STATUSES)
        if when is not None:
            out[name] = as_utc(when)
    return out


def later_checks(
    rows: Iterable[tuple[str, dt.datetime | None]],
    recorded_at: dt.datetime | Mapping[str, dt.datetime],
    covered: Collection[str] | None = None,
) -> list[tuple[dt.datetime, str]]:
    """The rule: (last success as aware UTC, name) of every watch of ``rows`` (name, last
    successful check) that is among ``covered`` (None: every one) and was checked
    successfully after the recording, oldest first. ``recorded_at`` is one time for the
    whole recording, or per watch name (:func:`answer_times`: a watch absent from it is
    not answered, so no reason). Failed or skipped checks are no reason (they observed
    nothing; their ``last_success`` is unchanged), nor are watches never checked."""
    out = []
    for name, last in rows:
        if last is None or (covered is not None and name not in covered):
            continue
        when = recorded_at.get(name) if isinstance(recorded_at, Mapping) else recorded_at
        if when is not None and as_utc(last) > as_utc(when):
            out.append((as_utc(last), name))
    return sorted(out)


def names_text(later: list[tuple[dt.datetime, str]], limit: int = 3) -> str:
    """``a (2026-12-01 06:00 UTC), b (…) and 2 more``: the watches of :func:`later_checks`,
    each with its last successful check, newest first."""
    shown = [f"{name} ({utc_minute(at)})" for at, name in sorted(later, reverse=True)]
    if len(shown) <= limit + 1:  # "and 1 more" would be no shorter
        return ", ".join(shown)
    return ", ".join(shown[:limit]) + f" and {len(shown) - limit} more"


_WATCHES = "SELECT name, url, state, last_success FROM watch ORDER BY name"


def refuse_older_replay(raw: RawDB, har: Path, watch_names: Iterable[str] | None) -> None:
    """Raise :class:`~tracker.errors.ConfigError`, before anything is stored, when a
    watch the recording ``har`` answers, among those a `tracker check --replay` checks
    (``watch_names``, else every one), was last checked successfully after the answer
    it would be given (:func:`answer_times`, :func:`later_checks`): per watch, so a
    recording of mixed dates whose older entry answers a watch checked since is refused
    too. The message names the file, the watches with their last checks and the
    answers' times, and what to do. ``raw``: the cycle's connection; an unreadable HAR
    raises the replay's own ConfigError."""
    transport = HarReplayTransport(har)
    rows = raw.execute(_WATCHES).fetchall()
    times = answer_times([(n, u, st) for n, u, st, _t in rows], transport)
    covered = set(times) if watch_names is None else set(times) & set(watch_names)
    later = later_checks([(n, raw.datetime(t)) for n, _u, _s, t in rows], times, covered)
    if not later:
        return
    n, dates = len(later), {times[name] for _at, name in later}
    if len(dates) == 1:  # one time: the recording's
        said = f"recorded {utc_minute(dates.pop())}, before"
        names = names_text(later)
    else:
        said = "holds answers recorded before"
        names = ", ".join(
            f"{name} (checked {utc_minute(at)}, its answer recorded {utc_minute(times[name])})"
            for at, name in sorted(later, reverse=True)
        )
    raise ConfigError(
        f"{har}: {said} the last successful check of {n} watch{'es' if n > 1 else ''} it "
        f"answers ({names}); replaying it would set their state back, so nothing was "
        "replayed: replay recordings in the order they were made, or name only other "
        "watches with --watch"
    )


def replay_selection(
    raw: RawDB, har: Path, watch_names: Collection[str] | None
) -> tuple[list[str], list[str]]:
    """(watches to check, active watches the recording has no answer for), both sorted,
    for `tracker check --replay`: without ``watch_names`` the ones it answers are
    checked and the others are left exactly as stored (not checked, so neither failing
    nor gone: a recording of some watches says nothing about the rest). Raises
    :class:`~tracker.errors.ConfigError` when a name of ``watch_names`` is an active
    watch the recording does not answer (names unknown or retired are left to the
    cycle's own errors), and :func:`refuse_older_replay`'s; nothing is stored then."""
    refuse_older_replay(raw, har, watch_names)
    transport = HarReplayTransport(har)
    rows = [(n, u, st) for n, u, st, _t in raw.execute(_WATCHES).fetchall()]
    covered = set(covered_watches(rows, transport.urls()))
    active = {n for n, _u, st in rows if st != RETIRED_STATE}
    if watch_names is not None:
        unanswered = sorted(n for n in set(watch_names) & active if n not in covered)
        if unanswered:
            urls = {n: u for n, u, _st in rows}
            listed = ", ".join(f"{n} ({urls[n]})" for n in unanswered)
            raise ConfigError(
                f"{har}: no recorded answer for watch{'es' if len(unanswered) > 1 else ''} "
                f"{listed}; nothing was replayed: name only watches the recording answers "
                "(without --watch, a replay checks those and leaves the others as they are)"
            )
        return sorted(watch_names), []
    return sorted(covered), sorted(active - covered)
