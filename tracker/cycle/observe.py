"""Recording one watch's outcome in ONE transaction (a savepoint inside the cycle's group
commit, :meth:`claims.store.rawdb.RawDB.grouped`): snapshot rows, observations (one
row per distinct value, first/last seen), subscriber events, and watch health.
Input: parsed pages or the error; output: a :class:`WatchResult`.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from claims.events import event_row, value_change_event
from claims.store.outbox import Outbox
from claims.store.rawdb import RawDB
from claims.subjects.matching import AliasIndex
from claims.values.canonical import dumps
from claims.values.value import Value
from tracker.adapters.base import Fetched, ObservedValue, ParseResult
from tracker.cycle.change_rules import drop_conflicts, mark_gone, note_stale
from tracker.cycle.observe_rows import WatchRows, confirm_current, snapshot_id, weights_others
from tracker.errors import ParseError

# The watch's health, read and reset (plain SQL: see claims/store/rawdb.py for why).
_HEALTH = "SELECT state, failing_since, consecutive_failures FROM watch WHERE id = :wid"
_OK = (
    "UPDATE watch SET state = 'ok', consecutive_failures = 0, failing_since = NULL, "
    "last_error = NULL, last_error_kind = NULL, last_run = :at, last_success = :at"
)
_RESET = _OK + " WHERE id = :wid"
_RESET_VALIDATORS = _OK + ", etag = :etag, last_modified = :lm WHERE id = :wid"
_FAILED = (
    "UPDATE watch SET last_run = :at, consecutive_failures = :n, last_error = :err, "
    "last_error_kind = :kind, failing_since = :since, state = :state WHERE id = :wid"
)


class NameLookup(Protocol):
    """Subject id -> display name (a dict, or :class:`tracker.cycle.rows.SubjectNames`)."""

    def get(self, subject_id: int | None, default: Any = None, /) -> Any: ...


@dataclass(slots=True)
class WatchResult:
    """How one watch's check went: ``outcome`` is ``changed``, ``unchanged``, ``failed``
    or ``skipped`` (a credential it needs is not configured; nothing recorded)."""

    name: str
    outcome: str
    observations: int = 0  # new observation rows (a new distinct value)
    events: int = 0
    unmatched: int = 0  # values whose subject ref matched no subject
    error: str | None = None
    error_kind: str | None = None
    warnings: list[str] = field(default_factory=list)
    # "url -> final url" for every fetched page that was redirected (C12: logged).
    redirects: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class WatchSpec:
    """A detached copy of a Watch row: what the fetch step needs, so no session spans
    network I/O."""

    id: int
    name: str
    adapter: str
    url: str
    params: dict[str, Any]
    etag: str | None
    last_modified: str | None


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
    """
    result = WatchResult(spec.name, "unchanged")
    with db.transaction() as s:
        outbox = Outbox(s)
        state, stored_since, _failures = s.one(_HEALTH, {"wid": spec.id}) or (None, None, 0)
        changed = False
        validators: dict[str, Any] = {}
        if not_modified is not None:
            seen_at = not_modified.fetched_at
            # A 304 confirms every current value of this watch as of now.
            confirm_current(s, spec.id, seen_at)
        else:
            seen_at = pages[0][0].fetched_at
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
            rows = WatchRows(s, spec.id)
            for f, sid, ov in resolved:
                new_row, value_changed = _upsert(
                    rows, outbox, spec, sid, ov, f, snap_ids[id(f)], names
                )
                result.observations += int(new_row)
                changed = changed or new_row or value_changed
            rows.flush()
            for _sid, attribute, _qj in rows.same_bytes:
                result.warnings.append(
                    f"{spec.name}: {attribute} read differently from identical bytes or "
                    "as a mis-decoding of its value (a decoding difference, not a change; kept)"
                )
            note_stale(s, spec, pages, result.warnings)
            listing = {p.listing for _f, p in pages}
            if complete and len(listing) == 1 and None not in listing:
                attribute = str(next(iter(listing)))
                total = sum(len(p.values) for _f, p in pages)
                gone = mark_gone(s, outbox, spec, attribute, listed, total, seen_at, names)
                if gone < 0:
                    result.warnings.append(
                        f"{spec.name}: the listing came back empty; nothing marked gone"
                    )
                changed = changed or gone > 0
            first = pages[0][0]
            # A run that left values stale (gated files) did not read everything: keep no
            # validators, so the next run fetches in full instead of a 304 re-seeing them.
            complete_read = not any(p.stale for _f, p in pages)
            validators = {
                "etag": first.headers.get("etag") if complete_read else None,
                "lm": first.headers.get("last-modified") if complete_read else None,
            }
        if state == "failing":
            since = s.datetime(stored_since)
            outbox.add(
                event_row(
                    "watch_recovered",
                    f"Watch {spec.name} works again",
                    watch_id=spec.id,
                    detail={
                        "watch": spec.name,
                        "failing_since": since.isoformat() if since else None,
                        "recovered_at": seen_at.isoformat(),
                    },
                    at=seen_at,
                )
            )
        if validators:
            s.execute(_RESET_VALIDATORS, {"wid": spec.id, "at": seen_at, **validators})
        else:
            s.execute(_RESET, {"wid": spec.id, "at": seen_at})
    result.outcome = "changed" if changed else "unchanged"
    result.events = outbox.added
    return result


def _upsert(
    rows: WatchRows,
    outbox: Outbox,
    spec: WatchSpec,
    subject_id: int,
    ov: ObservedValue,
    f: Fetched,
    snapshot_id: int | None,
    names: NameLookup,
) -> tuple[bool, bool]:
    """Record one observed value; returns (new row, value changed).

    One row per distinct value (subject, attribute, qualifiers, value, watch): the same
    value bumps ``last_seen``; a different value from the same watch makes the old
    row(s) not current and emits a change event (:func:`claims.events.value_change_event`:
    ``price_changed``, ``license_changed`` or ``value_changed``); the first ``weights_available =
    true`` of a subject emits ``weights_landed`` (``subject_discovered`` when the repo was
    already there at the watch's first look), a further new repo ``subject_discovered``.
    """
    qj = ov.qualifiers_json
    at = f.fetched_at
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
        texts = (
            (str(old_value.value), str(ov.value.value))  # a LICENSE text's hash
            if ov.attribute == "license_text_sha256"
            else (old_value.display(), ov.value.display())
        )
        where = ov.qualifiers.get("repo") or spec.name
        kind, title = value_change_event(subject, ov.attribute, dict(ov.qualifiers), *texts, where)
        outbox.add(
            event_row(
                kind,
                title,
                subject_id=subject_id,
                watch_id=spec.id,
                detail={
                    "attribute": ov.attribute,
                    "qualifiers": dict(ov.qualifiers),
                    "from": _plain(old_value.to_dict()),
                    "to": _plain(ov.value.to_dict()),
                    "observed_at": at.isoformat(),
                },
                at=at,
            )
        )
    if new_row and ov.attribute == "weights_available" and ov.value.value is True:
        _weights_events(rows, outbox, spec, subject_id, subject, ov, qj, at)
    return new_row, replaced is not None


# An earlier observation, or a last failure saying the repo was not there (404 until launch).
FIRST_CHECK = (
    "SELECT 1 FROM observation WHERE watch_id = :watch_id AND first_seen < :at UNION ALL "
    "SELECT 1 FROM watch WHERE id = :watch_id AND last_error_kind IN "
    "('not_found', 'missing_or_private', 'unauthorized', 'gated') LIMIT 1"
)


def _weights_events(
    rows: WatchRows,
    outbox: Outbox,
    spec: WatchSpec,
    subject_id: int,
    subject: str,
    ov: ObservedValue,
    qj: str,
    at: dt.datetime,
) -> None:
    rows.flush()  # the subject's other rows, this run's included, are read from the table
    others = [
        other_qj
        for watch_id, other_qj in weights_others(rows.s, subject_id, ov.value.key())
        if (watch_id, other_qj) != (spec.id, qj)  # the unique row just recorded
    ]
    repo = ov.qualifiers.get("repo")
    detail: dict[str, Any] = {"repo": repo, "first_seen": at.isoformat()}
    created = ov.value.extra.get("created_at")
    if created:
        detail["created_at"] = created
    title = f"{subject}: weights available on Hugging Face ({repo})"
    # Listed at this watch's first check: when it landed is not known, and saying it
    # "landed" now would be wrong for a repo created long before (claims.store.status agrees).
    earlier = rows.s.one(FIRST_CHECK, {"watch_id": spec.id, "at": at})
    if earlier is None:
        title = f"{subject}: weights already on Hugging Face at the first check ({repo})"
        since = f" (repo created {str(created)[:10]})" if created else ""
        detail["at_first_check"] = True
        detail["summary"] = f"{repo} was already listed at the first check{since}"
    if not others:
        # A repo already there at the first check did not land now: it is discovered
        # (a `weights_landed` subscriber is not told a year-old release just "landed").
        first = detail.get("at_first_check")
        outbox.add(
            event_row(
                "subject_discovered" if first else "weights_landed",
                title,
                subject_id=subject_id,
                watch_id=spec.id,
                detail=detail,
                at=at,
            )
        )
    elif all(other_qj != qj for other_qj in others):
        outbox.add(
            event_row(
                "subject_discovered",
                f"{subject}: new weights repo {repo}",
                subject_id=subject_id,
                watch_id=spec.id,
                detail=detail,
                at=at,
            )
        )


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    d = dict(d)
    d.pop("extra", None)
    return d
