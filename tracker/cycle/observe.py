"""Recording one watch's outcome in ONE transaction (a savepoint inside the cycle's group
commit, :meth:`claims.store.rawdb.RawDB.grouped`): snapshot rows, observations (one
row per distinct value, first/last seen), subscriber events, and watch health.
Input: parsed pages or the error; output: a :class:`WatchResult`.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from claims.events import (
    EventSpec,
    Promise,
    WatchHistory,
    WeightsSighting,
    event_row,
    first_reading_event,
    license_file_change,
    reappeared_event,
    recovered_event,
    value_change_event,
    weights_events,
)
from claims.store.outbox import Outbox
from claims.store.rawdb import RawDB
from claims.subjects.matching import AliasIndex
from claims.values.canonical import dumps
from claims.values.value import Value
from claims.verify.promises import deadline_of
from claims.vocabulary import NOT_PUBLIC_KIND
from tracker.adapters.base import ObservedValue, ParseResult
from tracker.cycle.change_rules import drop_conflicts, mark_gone, note_stale
from tracker.cycle.observe_rows import (
    WatchRows,
    add_alias,
    confirm_current,
    snapshot_id,
    subject_hub_checks,
    weights_others,
)
from tracker.cycle.types import NameLookup, WatchResult, WatchSpec
from tracker.cycle.withdrawn import gone_since
from tracker.errors import ParseError
from tracker.net.response import Fetched

# The watch's health, read and reset (plain SQL: see claims/store/rawdb.py for why).
_HEALTH = "SELECT state, failing_since, consecutive_failures FROM watch WHERE id = :wid"
_HISTORY = "SELECT last_success, last_error_kind FROM watch WHERE id = :wid"
# A check, good or failed, ends the skip the last cycle recorded (skip_reason = NULL).
_OK = (
    "UPDATE watch SET state = 'ok', consecutive_failures = 0, failing_since = NULL, "
    "last_error = NULL, last_error_kind = NULL, skip_reason = NULL, last_run = :at, "
    "last_success = :at"
)
_RESET = _OK + " WHERE id = :wid"
_RESET_VALIDATORS = _OK + ", etag = :etag, last_modified = :lm WHERE id = :wid"
_FAILED = (
    "UPDATE watch SET last_run = :at, consecutive_failures = :n, last_error = :err, "
    "last_error_kind = :kind, skip_reason = NULL, failing_since = :since, state = :state "
    "WHERE id = :wid"
)


# Only the skip: a failing watch's error stays current (nothing was checked).
_SKIPPED = "UPDATE watch SET skip_reason = :reason WHERE id = :wid"


def record_skip(db: RawDB, spec: WatchSpec, reason: str) -> None:
    """Record that this cycle skipped the watch (``reason``: ``TRACKER_AA_API_KEY not
    set``) as its ``skip_reason``, so ``tracker watches`` and the site say so; its state,
    failure count, error, last run and success, validators and observations are left as
    they were (nothing was checked). A watch whose last check failed keeps that error
    (still current) beside the skip: ``failing (3 in a row); skipped: …`` with the
    error (claims/watchstate.py). The watch's next check clears the skip."""
    with db.transaction() as s:
        s.execute(_SKIPPED, {"reason": reason, "wid": spec.id})


# The Hub's answers that a repo is not publicly there (tracker/net/fetch.py's kinds).
NOT_PUBLIC_ANSWERS = frozenset({"not_found", "missing_or_private"})
_NOT_PUBLIC = (
    "UPDATE watch SET state = 'ok', consecutive_failures = 0, failing_since = NULL, "
    "last_error = :err, last_error_kind = :kind, skip_reason = NULL, last_run = :at, "
    "last_success = :at WHERE id = :wid"
)
_OWN_ROWS = "SELECT 1 FROM observation WHERE watch_id = :wid LIMIT 1"
_WEIGHTS_REPOS = (
    "SELECT qualifiers_json FROM observation WHERE attribute = 'weights_available' "
    "AND qualifiers_json LIKE :like"
)


def seen_public(db: RawDB, spec: WatchSpec, repo: str) -> bool:
    """True when the watch observed anything, or any watch saw ``repo``'s weights:
    a "not found" since means disappeared or renamed, not "not public yet"."""
    with db.transaction() as s:
        if s.one(_OWN_ROWS, {"wid": spec.id}) is not None:
            return True
        like = {"like": f"%{repo.split('/')[-1]}%"}
        rows = s.execute(_WEIGHTS_REPOS, like).fetchall()
    return any(str(json.loads(qj).get("repo", "")).lower() == repo.lower() for (qj,) in rows)


def record_not_public(db: RawDB, spec: WatchSpec, exc: Exception, at: dt.datetime) -> WatchResult:
    """Record a model watch's "no such public repo" answer (404, 401 RepoNotFound) for a
    repo never seen public as a SUCCESSFUL check: the expected answer for a model
    tracked before release. Health is reset (``watch_recovered`` if it was failing),
    ``last_success`` = ``at`` (it bounds the landing window), ``last_error_kind`` =
    :data:`claims.vocabulary.NOT_PUBLIC_KIND` with the answer in ``last_error`` (the
    state reads ``not public yet``). No observation, no subscriber event."""
    with db.transaction() as s:
        outbox = Outbox(s)
        state, stored_since, _failures = s.one(_HEALTH, {"wid": spec.id}) or (None, None, 0)
        if state == "failing":
            outbox.add(recovered_event(spec.id, spec.name, s.datetime(stored_since), at))
        err = f"not public yet ({getattr(exc, 'kind', 'not_found')}: {exc})"
        s.execute(_NOT_PUBLIC, {"err": err, "kind": NOT_PUBLIC_KIND, "at": at, "wid": spec.id})
    return WatchResult(spec.name, "unchanged", events=outbox.added)


def _snapshot_id(s: RawDB, spec: WatchSpec, f: Fetched) -> int | None:
    """Id of this watch's snapshot row with the same URL and body, else of a new row
    (a body fetched again unchanged is one snapshot, not one per run)."""
    row = {
        "watch_id": spec.id,
        "url": f.final_url,
        "status": f.status,
        "headers_json": dumps(dict(f.headers)),
        "fetched_at": f.fetched_at,
        "sha256": f.sha256,
        "size": len(f.body),
    }
    return snapshot_id(s, spec.id, f.final_url, f.sha256, row)


def record_failure(
    db: RawDB,
    spec: WatchSpec,
    exc: Exception,
    fetched: list[Fetched],
    at: dt.datetime,
    failing_after: int,
) -> WatchResult:
    """Record a failed check in one transaction: no observation, nothing marked gone,
    no subscriber event. Health: ``consecutive_failures`` + 1, ``failing_since`` at the
    streak's first failure, ``last_error``/``last_error_kind``; at ``failing_after``
    (watch param overrides) state ``failing`` and one operator event. Pages fetched
    before the error keep their snapshot rows (for ``tracker parse`` after a fix)."""
    kind = getattr(exc, "kind", "parse_error")
    threshold = int(spec.params.get("failing_after", failing_after))
    with db.transaction() as s:
        outbox = Outbox(s)
        for f in fetched:  # kept so `tracker parse` can re-run a fixed parser on them
            _snapshot_id(s, spec, f)
        row = s.one(_HEALTH, {"wid": spec.id})
        assert row is not None
        state, stored_since, failures = row
        failures += 1
        since = s.datetime(stored_since)
        if failures == 1 or since is None:
            since = at
        if failures >= threshold and state != "failing":
            state = "failing"
            ev_kind = "extraction_failed" if isinstance(exc, ParseError) else "watch_failing"
            outbox.add(
                event_row(
                    ev_kind,
                    f"Watch {spec.name} failed {failures} times in a row ({kind})",
                    watch_id=spec.id,
                    detail={
                        "watch": spec.name,
                        "failing_since": since.isoformat(),
                        "error_kind": kind,
                        "failures": failures,
                    },
                    at=at,
                )
            )
        s.execute(
            _FAILED,
            {
                "at": at,
                "n": failures,
                "err": str(exc),
                "kind": kind,
                "since": since,
                "state": state,
                "wid": spec.id,
            },  # fmt: skip
        )
    return WatchResult(spec.name, "failed", events=outbox.added, error=str(exc), error_kind=kind)


def record_success(
    db: RawDB,
    spec: WatchSpec,
    pages: list[tuple[Fetched, ParseResult]],
    not_modified: Fetched | None,
    index: AliasIndex,
    names: NameLookup,
    complete: bool = True,
    readings: dict[str, dict[str, str]] | None = None,
    announced: set[str] | None = None,
) -> WatchResult:
    """Record a successful check in one transaction and return its result.

    ``pages`` are the fetched pages with what the adapter read from each;
    ``not_modified`` is the 304 answer instead (then every current value of the watch
    gets ``last_seen`` = its time). Values are matched to subjects through ``index``;
    unmatched ones are counted, not stored. When every page says it is a complete
    ``listing`` of one attribute and ``complete`` (all cursor pages were read), a current
    value missing from it is marked not current with a ``repo_disappeared`` event
    (history is kept); an empty listing never marks anything gone. Watch health is
    reset (``watch_recovered`` if it was failing) and the first page's ETag /
    Last-Modified are stored, unless a page marks values ``stale`` (then none are).

    Events are decided by the pure rules of :mod:`claims.events` from the watch's
    history (its previous successful check, read before this one is stored).
    ``readings`` (repo -> licence/gating) were read this cycle from a repo followed
    after this listing, so its landing event can say them; ``announced`` are repos
    whose landing event already did (no separate ``license_observed``). The result's
    ``announced`` lists the repos this recording's landing events told.
    """
    result = WatchResult(spec.name, "unchanged")
    with db.transaction() as s:
        outbox = Outbox(s)
        state, stored_since, _failures = s.one(_HEALTH, {"wid": spec.id}) or (None, None, 0)
        last_success, last_error_kind = s.one(_HISTORY, {"wid": spec.id}) or (None, None)
        run = _Run(WatchHistory(s.datetime(last_success), last_error_kind))
        run.readings.update(readings or {})
        run.announced.update(announced or ())
        changed = False
        validators: dict[str, Any] = {}
        if not_modified is not None:
            seen_at = not_modified.fetched_at
            # A 304 confirms every current value of this watch as of now.
            confirm_current(s, spec.id, seen_at)
        else:
            seen_at = pages[0][0].fetched_at
            changed, validators = _record_pages(
                s, outbox, spec, pages, index, names, complete, result, run
            )
        if state == "failing":
            outbox.add(recovered_event(spec.id, spec.name, s.datetime(stored_since), seen_at))
        if validators:
            s.execute(_RESET_VALIDATORS, {"wid": spec.id, "at": seen_at, **validators})
        else:
            s.execute(_RESET, {"wid": spec.id, "at": seen_at})
    result.outcome = "changed" if changed else "unchanged"
    result.events = outbox.added
    result.announced = run.announced
    return result


def _record_pages(
    s: RawDB,
    outbox: Outbox,
    spec: WatchSpec,
    pages: list[tuple[Fetched, ParseResult]],
    index: AliasIndex,
    names: NameLookup,
    complete: bool,
    result: WatchResult,
    run: _Run,
) -> tuple[bool, dict[str, Any]]:
    """The fetched pages' part of :func:`record_success`: match values to subjects,
    record them (events by the rules of :mod:`claims.events`), mark what a complete
    listing no longer shows; returns (anything changed, the validators to store)."""
    seen_at = pages[0][0].fetched_at
    changed = False
    resolved: list[tuple[Fetched, int, ObservedValue]] = []
    for f, parsed in pages:
        result.warnings.extend(parsed.warnings)
        for ov in parsed.values:
            sid = index.resolve_any((ov.subject_ref, *ov.alt_refs))
            if sid is None:
                result.unmatched += 1
            else:
                resolved.append((f, sid, ov))
    listed = {(sid, ov.attribute, ov.qualifiers_json) for _f, sid, ov in resolved}
    resolved = drop_conflicts(resolved, names, result.warnings)
    snap_ids: dict[int, int | None] = {}
    for f, _parsed in pages:
        snap_ids[id(f)] = _snapshot_id(s, spec, f)
    for repo, read in readings_of([ov for _f, _sid, ov in resolved]).items():
        run.readings.setdefault(repo, {}).update(read)
    rows = WatchRows(s, spec.id)
    for f, sid, ov in resolved:
        new_row, value_changed = _upsert(
            rows, outbox, spec, sid, ov, f, snap_ids[id(f)], names, run
        )
        result.observations += int(new_row)
        changed = changed or new_row or value_changed
    rows.flush()
    for _sid, attribute, _qj in rows.same_bytes:
        result.warnings.append(
            f"{spec.name}: {attribute} read differently from identical bytes or "
            "as a mis-decoding of its value (a decoding difference, not a change; kept)"
        )
    _first_readings(outbox, spec, names, run, seen_at)
    note_stale(s, spec, pages, result.warnings)
    listing = {p.listing for _f, p in pages}
    if complete and len(listing) == 1 and None not in listing:
        attribute = str(next(iter(listing)))
        total = sum(len(p.values) for _f, p in pages)
        gone = mark_gone(s, outbox, spec, attribute, listed, total, seen_at, names)
        if gone < 0:
            result.warnings.append(f"{spec.name}: the listing came back empty; nothing marked gone")
        changed = changed or gone > 0
    first = pages[0][0]
    # A run that left values stale (gated files) did not read everything: keep no
    # validators, so the next run fetches in full instead of a 304 re-seeing them.
    complete_read = not any(p.stale for _f, p in pages)
    validators = {
        "etag": first.headers.get("etag") if complete_read else None,
        "lm": first.headers.get("last-modified") if complete_read else None,
    }
    return changed, validators


@dataclass
class _Run:
    """What one watch's recording knows across its values: the watch's history before
    this check, the licence and gating read this cycle per repo (``readings``: from
    these pages and from a repo followed in the same cycle), the repos whose landing
    event told them (``announced``), and the readings seen for the first time."""

    history: WatchHistory
    readings: dict[str, dict[str, str]] = field(default_factory=dict)
    announced: set[str] = field(default_factory=set)
    first: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)
    weights_seen: dict[tuple[int, str], dt.datetime | None] = field(default_factory=dict)


# Attributes whose first reading for a repo is a ``license_observed`` event.
ACCESS_ATTRIBUTES = ("license", "gated")
_OTHER_READING = (
    "SELECT 1 FROM observation WHERE subject_id = :sid AND attribute = :attribute "
    "AND qualifiers_json = :qj AND NOT (watch_id = :wid AND value_key = :vk) LIMIT 1"
)
_WEIGHTS_FIRST_SEEN = (
    "SELECT min(first_seen) FROM observation WHERE subject_id = :sid "
    "AND attribute = 'weights_available' AND qualifiers_json = :qj"
)
_PROMISES = (
    "SELECT value_json, qualifiers_json FROM claim WHERE subject_id = :sid "
    "AND attribute = 'weights_release_date' ORDER BY id"
)


def readings_of(values: list[ObservedValue]) -> dict[str, dict[str, str]]:
    """repo -> {``license``: id, ``gated``: false/auto/manual} of a model watch's values."""
    out: dict[str, dict[str, str]] = {}
    for ov in values:
        repo = ov.qualifiers.get("repo")
        if repo and ov.attribute in ACCESS_ATTRIBUTES:
            out.setdefault(repo, {})[ov.attribute] = str(ov.value.value)
    return out


def _upsert(
    rows: WatchRows,
    outbox: Outbox,
    spec: WatchSpec,
    subject_id: int,
    ov: ObservedValue,
    f: Fetched,
    snapshot_id: int | None,
    names: NameLookup,
    run: _Run,
) -> tuple[bool, bool]:
    """Record one observed value; returns (new row, value changed).

    One row per distinct value (subject, attribute, qualifiers, value, watch): the same
    value bumps ``last_seen``; a different value from the same watch makes the old
    row(s) not current and emits a change event (:func:`claims.events.value_change_event`:
    ``price_changed``, ``license_changed`` or ``value_changed``); a new ``weights_available
    = true`` row is judged by :func:`claims.events.weights_events`; a repo's licence or
    gating read for the first time is noted for :func:`claims.events.first_reading_event`.
    """
    qj = ov.qualifiers_json
    at = f.fetched_at
    back = _gone_before(rows, subject_id, ov)
    new_row, replaced = rows.record(
        (subject_id, ov.attribute, qj),
        ov.value.key(),
        ov.value.to_dict(),
        at,
        snapshot_id,
        f.final_url,
    )
    subject = names.get(subject_id, str(subject_id))
    if replaced is not None:
        old_value = Value.from_dict(json.loads(replaced.value_json))
        where = ov.qualifiers.get("repo") or spec.name
        texts = (old_value.display(), ov.value.display())
        detail = {
            "attribute": ov.attribute,
            "qualifiers": dict(ov.qualifiers),
            "from": _plain(old_value.to_dict()),
            "to": _plain(ov.value.to_dict()),
            "observed_at": at.isoformat(),
        }
        if ov.attribute == "license_text_sha256":  # in words, never the hashes
            texts, more = _license_file_words(old_value, ov, where, run)
            # the new text as fetched (its snapshot: `tracker snapshots` by sha256)
            detail.update(more, url=f.final_url, snapshot_sha256=f.sha256)
        kind, title = value_change_event(subject, ov.attribute, dict(ov.qualifiers), *texts, where)
        outbox.add(
            event_row(kind, title, subject_id=subject_id, watch_id=spec.id, detail=detail, at=at)
        )
    elif new_row and ov.attribute in ACCESS_ATTRIBUTES and ov.qualifiers.get("repo"):
        _note_first_reading(rows, run, spec, subject_id, ov)
    if back is not None:  # public again after it was gone: landed again
        repo = str(ov.qualifiers.get("repo"))
        ev = reappeared_event(subject, repo, at, back, _repo_page(spec, repo))
        outbox.add(_row(ev, subject_id, spec.id, at))
    elif new_row and ov.attribute == "weights_available" and ov.value.value is True:
        _weights_events(rows, outbox, spec, subject_id, subject, ov, qj, at, run)
    return new_row, replaced is not None


def _license_file_words(
    old: Value, ov: ObservedValue, repo: str, run: _Run
) -> tuple[tuple[str, str], dict[str, Any]]:
    """A LICENSE text change for people: the (old, new) sizes for the title (``201``,
    ``212 lines``; empty when unknown) and the detail's ``summary``
    (:func:`claims.events.license_file_change`) and ``url`` (the file as fetched, what
    the alert links to)."""
    counts = [v.extra.get("lines") for v in (old, ov.value)]
    lines = [c if isinstance(c, int) else None for c in counts]
    texts = ("" if lines[0] is None else str(lines[0]),
             "" if lines[1] is None else f"{lines[1]} lines")  # fmt: skip
    licence = run.readings.get(repo, {}).get("license")
    more: dict[str, Any] = {"summary": license_file_change(repo, lines[0], lines[1], licence)}
    return (texts[0], texts[1]), more


def _gone_before(rows: WatchRows, subject_id: int, ov: ObservedValue) -> dt.datetime | None:
    """When the repo of a ``weights_available = true`` value went away, if it is gone
    now (:func:`tracker.cycle.withdrawn.gone_since`); None for any other value."""
    repo = ov.qualifiers.get("repo")
    if ov.attribute != "weights_available" or ov.value.value is not True or not repo:
        return None
    rows.flush()
    return gone_since(rows.s, subject_id, repo)


def _note_first_reading(
    rows: WatchRows, run: _Run, spec: WatchSpec, subject_id: int, ov: ObservedValue
) -> None:
    """Keep ``ov`` (a licence or gating) when no watch had read one for its repo."""
    rows.flush()
    params = {"sid": subject_id, "attribute": ov.attribute, "qj": ov.qualifiers_json,
              "wid": spec.id, "vk": ov.value.key()}  # fmt: skip
    if rows.s.one(_OTHER_READING, params) is not None:
        return
    repo = ov.qualifiers["repo"]
    key = (subject_id, repo)
    run.first.setdefault(key, {})[ov.attribute] = str(ov.value.value)
    if key not in run.weights_seen:
        got = rows.s.one(_WEIGHTS_FIRST_SEEN, {"sid": subject_id, "qj": ov.qualifiers_json})
        run.weights_seen[key] = rows.s.datetime(got[0]) if got else None


def _first_readings(outbox: Outbox, spec: WatchSpec, names: NameLookup, run: _Run,
                    at: dt.datetime) -> None:  # fmt: skip
    """One ``license_observed`` per repo whose licence or gating was read for the first
    time, unless this cycle's landing event told it, or the weights were first seen in
    this same check (the discovery and the licence arrive together)."""
    for (subject_id, repo), readings in sorted(run.first.items()):
        seen = run.weights_seen.get((subject_id, repo))
        if repo in run.announced or (seen is not None and seen >= at):
            continue
        spec_ev = first_reading_event(names.get(subject_id, str(subject_id)), repo, readings, at)
        if spec_ev is not None:
            outbox.add(_row(spec_ev, subject_id, spec.id, at))


def _row(ev: EventSpec, subject_id: int | None, watch_id: int, at: dt.datetime) -> dict[str, Any]:
    return event_row(
        ev.kind, ev.title, subject_id=subject_id, watch_id=watch_id if ev.per_watch else None,
        detail=ev.detail, at=at,
    )  # fmt: skip


def _repo_page(spec: WatchSpec, repo: str) -> str | None:
    """The Hub page of ``repo`` on the host the watch asks (None for other adapters)."""
    if not spec.adapter.startswith("huggingface"):
        return None
    from tracker.adapters.huggingface.watches import base_of  # Hub watches only

    return f"{base_of(spec.url)}/{repo}"


def _promises(s: RawDB, subject_id: int) -> tuple[Promise, ...]:
    """The subject's model-level promised weights dates (a variant's date is its own)."""
    out = []
    for vj, qj in s.execute(_PROMISES, {"sid": subject_id}).fetchall():
        if json.loads(qj):
            continue
        v = Value.from_dict(json.loads(vj))
        if v.kind == "date" and v.value and v.relation:
            out.append(Promise(str(v.relation), str(v.value), deadline_of(v)))
    return tuple(out)


def _weights_events(
    rows: WatchRows,
    outbox: Outbox,
    spec: WatchSpec,
    subject_id: int,
    subject: str,
    ov: ObservedValue,
    qj: str,
    at: dt.datetime,
    run: _Run,
) -> None:
    rows.flush()  # the subject's other rows, this run's included, are read from the table
    known: list[str] = []
    created: dict[str, str] = {}
    for watch_id, other_qj, other_vj, _first in weights_others(rows.s, subject_id, ov.value.key()):
        if (watch_id, other_qj) == (spec.id, qj):  # the unique row just recorded
            continue
        repo = json.loads(other_qj).get("repo")
        if repo and repo not in known:
            known.append(repo)
            stamp = json.loads(other_vj).get("extra", {}).get("created_at")
            if stamp:
                created[repo] = str(stamp)
    repo = str(ov.qualifiers.get("repo"))
    readings = run.readings.get(repo, {})
    stamp = ov.value.extra.get("created_at")
    renamed = ov.value.extra.get("renamed_from")
    sighting = WeightsSighting(
        subject=subject,
        repo=repo,
        seen_at=at,
        created_at=str(stamp) if stamp else None,
        license=readings.get("license"),
        gated=readings.get("gated"),
        known_repos=tuple(known),
        created=created,
        renamed_from=str(renamed) if renamed else None,
        promises=_promises(rows.s, subject_id),
        url=_repo_page(spec, repo),
    )
    history = run.history.joined(subject_hub_checks(rows.s, subject_id, spec.id), at)
    for ev in weights_events(sighting, history):
        outbox.add(_row(ev, subject_id, spec.id, at))
        if ev.kind == "weights_landed" and readings:
            run.announced.add(repo)
        if ev.kind == "repo_renamed":
            add_alias(rows.s, subject_id, repo)


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    d = dict(d)
    d.pop("extra", None)
    return d
