"""One check cycle: for each watch, fetch (no transaction open), store the snapshot,
parse, match subjects, then record observations, events and watch health in ONE
transaction. Input: Watch rows; output: a :class:`CycleSummary`.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.events import make_event
from claims.matching import AliasIndex
from claims.models import Event, Observation, Snapshot, Subject, SubjectAlias, Watch, dumps
from claims.values import ValueError_
from claims.vocabulary import ATTRIBUTES
from tracker.adapters.base import Fetched, ObservedValue, ParseResult, get_adapter
from tracker.errors import ConfigError, ParseError, TrackerError
from tracker.fetch import MissingCredential, auth_headers, fetch
from tracker.snapshots import SnapshotStore

log = logging.getLogger(__name__)

FAILING_AFTER = 3  # consecutive failures before a watch is "failing" (watch param overrides)
MAX_PAGES = 20  # cursor pages followed per watch and run


@dataclass
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


@dataclass
class CycleSummary:
    """Totals of one cycle (the CLI prints these; ``--json`` prints :meth:`to_dict`).

    ``failing`` counts watches whose check failed in this cycle.
    """

    checked: int = 0
    unchanged: int = 0
    changed: int = 0
    failing: int = 0
    skipped: int = 0
    observations: int = 0
    events: int = 0
    results: list[WatchResult] = field(default_factory=list)

    def add(self, r: WatchResult) -> None:
        self.results.append(r)
        self.checked += 1
        self.observations += r.observations
        self.events += r.events
        if r.outcome == "failed":
            self.failing += 1
        elif r.outcome == "skipped":
            self.skipped += 1
        elif r.outcome == "changed":
            self.changed += 1
        else:
            self.unchanged += 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _WatchSpec:
    """A detached copy of what the fetch step needs, so no session spans network I/O."""

    id: int
    name: str
    adapter: str
    url: str
    params: dict[str, Any]
    etag: str | None
    last_modified: str | None


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def run_check(
    engine: Engine,
    client: Any,
    *,
    snapshot_store: SnapshotStore,
    watch_names: Iterable[str] | None = None,
    now: dt.datetime | None = None,
    progress: Callable[[WatchResult], None] | None = None,
    failing_after: int = FAILING_AFTER,
    sleep: Callable[[float], None] = time.sleep,
) -> CycleSummary:
    """Check every watch (or those named), in name order; return the totals.

    ``client`` is an ``httpx.Client`` from :func:`tracker.fetch.make_client`. ``now``
    freezes the clock (tests; it is also the fetch time when the transport gives no
    recorded time). ``progress`` is called with each :class:`WatchResult`.

    Per watch (cases/C06, C12, C17): the fetch runs with the watch's stored
    validators and outside any transaction; a failed fetch or parse records no
    observation, marks nothing gone and emits no subscriber event: the last good value
    stays current and the watch's health records the error; after ``failing_after``
    consecutive failures (watch param ``failing_after`` overrides) one operator event
    (``watch_failing``, or ``extraction_failed`` for a parse error) is emitted, and
    ``watch_recovered`` when it works again. ETag / Last-Modified are stored only after
    the whole step succeeded. Raises ConfigError when ``watch_names`` names an unknown
    watch.
    """
    clock = (lambda: now) if now is not None else _utcnow
    with Session(engine) as s:
        rows = s.exec(select(Watch).order_by(Watch.name)).all()
        index = AliasIndex.build(s.exec(select(Subject)).all(), s.exec(select(SubjectAlias)).all())
        names = {sub.id: sub.name for sub in s.exec(select(Subject)).all()}
        specs = [
            _WatchSpec(w.id, w.name, w.adapter, w.url, w.params, w.etag, w.last_modified)  # type: ignore[arg-type]
            for w in rows
        ]
    if watch_names is not None:
        wanted = list(watch_names)
        unknown = sorted(set(wanted) - {w.name for w in specs})
        if unknown:
            raise ConfigError(f"unknown watch name(s): {', '.join(unknown)}")
        specs = [w for w in specs if w.name in wanted]
    summary = CycleSummary()
    noticed: set[str] = set()
    for spec in specs:
        try:
            extra_headers = auth_headers(spec.params)
        except MissingCredential as exc:
            if exc.env not in noticed:  # one notice per missing key, not one per watch
                noticed.add(exc.env)
                log.warning("%s is not set: skipping the watches that need it", exc.env)
            skipped = WatchResult(spec.name, "skipped", error=f"{exc.env} is not set")
            summary.add(skipped)
            if progress is not None:
                progress(skipped)
            continue
        result = _check_one(
            engine,
            client,
            spec,
            snapshot_store,
            index,
            names,
            clock,
            failing_after,
            sleep,
            extra_headers,
        )
        summary.add(result)
        if progress is not None:
            progress(result)
    return summary


def _check_one(
    engine: Engine,
    client: Any,
    spec: _WatchSpec,
    store: SnapshotStore,
    index: AliasIndex,
    names: dict[int | None, str],
    clock: Callable[[], dt.datetime],
    failing_after: int,
    sleep: Callable[[float], None],
    extra_headers: dict[str, str],
) -> WatchResult:
    pages: list[tuple[Fetched, ParseResult]] = []
    fetched: list[Fetched] = []
    not_modified: Fetched | None = None
    try:
        adapter = get_adapter(spec.adapter)
        url: str | None = spec.url
        while url and len(fetched) < MAX_PAGES:
            first = not fetched
            f = fetch(
                client,
                url,
                etag=spec.etag if first else None,
                last_modified=spec.last_modified if first else None,
                sleep=sleep,
                clock=clock,
                headers=extra_headers,
            )
            if f.unchanged:
                not_modified = f
                break
            store.put(f.body)
            fetched.append(f)
            result = adapter.parse(f, spec.params)
            for ov in result.values:
                _check_vocabulary(ov, spec)
            pages.append((f, result))
            url = result.next_url
    except (TrackerError, ValueError_) as exc:
        result = _record_failure(engine, spec, exc, fetched, clock(), failing_after)
    else:
        result = _record_success(engine, spec, pages, not_modified, index, names)
    for f in fetched:
        if f.redirects:
            result.redirects.append(f"{f.url} -> {f.final_url}")
            log.info("watch %s: %s redirected to %s", spec.name, f.url, f.final_url)
    if result.error:
        log.warning("watch %s failed (%s): %s", spec.name, result.error_kind, result.error)
    return result


def _check_vocabulary(ov: ObservedValue, spec: _WatchSpec) -> None:
    allowed = ATTRIBUTES.get(ov.attribute)
    if allowed is None or ov.value.kind not in allowed[0]:
        raise ParseError(
            f"watch {spec.name}: adapter {spec.adapter} produced {ov.attribute!r} "
            f"({ov.value.kind}), which the vocabulary does not allow"
        )


def _snapshot_row(spec: _WatchSpec, f: Fetched) -> Snapshot:
    return Snapshot(
        watch_id=spec.id,
        url=f.final_url,
        status=f.status,
        headers_json=dumps(dict(f.headers)),
        fetched_at=f.fetched_at,
        sha256=f.sha256,
        size=len(f.body),
    )


def _snapshot_id(s: Session, spec: _WatchSpec, f: Fetched) -> int | None:
    """Id of this watch's snapshot row with the same URL and body, else of a new row
    (a body fetched again unchanged is one snapshot, not one per run)."""
    same = s.exec(
        select(Snapshot.id).where(
            Snapshot.watch_id == spec.id, Snapshot.url == f.final_url, Snapshot.sha256 == f.sha256
        )
    ).first()
    if same is not None:
        return same
    snap = _snapshot_row(spec, f)
    s.add(snap)
    s.flush()
    return snap.id


class _Outbox:
    """Events of one transaction, skipping any whose content key is already stored."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.keys: set[str] = set()
        self.added = 0

    def add(self, event: Event) -> None:
        if event.key in self.keys:
            return
        self.keys.add(event.key)
        if self.session.exec(select(Event.id).where(Event.key == event.key)).first() is not None:
            return
        self.session.add(event)
        self.added += 1


def _record_failure(
    engine: Engine,
    spec: _WatchSpec,
    exc: Exception,
    fetched: list[Fetched],
    at: dt.datetime,
    failing_after: int,
) -> WatchResult:
    kind = getattr(exc, "kind", "parse_error")
    threshold = int(spec.params.get("failing_after", failing_after))
    with Session(engine) as s:
        outbox = _Outbox(s)
        for f in fetched:  # kept so `tracker parse` can re-run a fixed parser on them
            s.add(_snapshot_row(spec, f))
        w = s.get(Watch, spec.id)
        assert w is not None
        w.last_run = at
        w.consecutive_failures += 1
        w.last_error = str(exc)
        w.last_error_kind = kind
        if w.consecutive_failures == 1 or w.failing_since is None:
            w.failing_since = at
        if w.consecutive_failures >= threshold and w.state != "failing":
            w.state = "failing"
            ev_kind = "extraction_failed" if isinstance(exc, ParseError) else "watch_failing"
            outbox.add(
                make_event(
                    ev_kind,
                    f"Watch {spec.name} failed {w.consecutive_failures} times in a row ({kind})",
                    watch_id=spec.id,
                    detail={
                        "watch": spec.name,
                        "failing_since": w.failing_since.isoformat(),
                        "error_kind": kind,
                        "failures": w.consecutive_failures,
                    },
                )
            )
        s.add(w)
        s.commit()
    return WatchResult(spec.name, "failed", events=outbox.added, error=str(exc), error_kind=kind)


def _record_success(
    engine: Engine,
    spec: _WatchSpec,
    pages: list[tuple[Fetched, ParseResult]],
    not_modified: Fetched | None,
    index: AliasIndex,
    names: dict[int | None, str],
) -> WatchResult:
    result = WatchResult(spec.name, "unchanged")
    with Session(engine) as s:
        outbox = _Outbox(s)
        w = s.get(Watch, spec.id)
        assert w is not None
        changed = False
        if not_modified is not None:
            seen_at = not_modified.fetched_at
            # A 304 confirms every current value of this watch as of now.
            for o in s.exec(
                select(Observation).where(Observation.watch_id == spec.id, Observation.current)
            ).all():
                if seen_at > o.last_seen:
                    o.last_seen = seen_at
                    s.add(o)
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
            resolved = _drop_conflicts(resolved, names, result.warnings)
            snap_ids: dict[int, int | None] = {}
            for f, _parsed in pages:
                snap_ids[id(f)] = _snapshot_id(s, spec, f)
            for f, sid, ov in resolved:
                new_row, value_changed = _upsert(
                    s, outbox, spec, sid, ov, f, snap_ids[id(f)], names
                )
                result.observations += int(new_row)
                changed = changed or new_row or value_changed
            first = pages[0][0]
            w.etag = first.headers.get("etag")
            w.last_modified = first.headers.get("last-modified")
        if w.state == "failing":
            outbox.add(
                make_event(
                    "watch_recovered",
                    f"Watch {spec.name} works again",
                    watch_id=spec.id,
                    detail={
                        "watch": spec.name,
                        "failing_since": w.failing_since.isoformat() if w.failing_since else None,
                        "recovered_at": seen_at.isoformat(),
                    },
                )
            )
        w.state = "ok"
        w.consecutive_failures = 0
        w.failing_since = None
        w.last_error = None
        w.last_error_kind = None
        w.last_run = seen_at
        w.last_success = seen_at
        s.add(w)
        s.commit()
    result.outcome = "changed" if changed else "unchanged"
    result.events = outbox.added
    return result


def _drop_conflicts(
    resolved: list[tuple[Fetched, int, ObservedValue]],
    names: dict[int | None, str],
    warnings: list[str],
) -> list[tuple[Fetched, int, ObservedValue]]:
    """Drop values where one run gives one subject/attribute/qualifiers two different
    values (e.g. two price-list keys aliased to one subject): recording either would
    make the value flip between runs and alert each time. A warning names them."""
    seen: dict[tuple[int, str, str], set[str]] = {}
    for _f, sid, ov in resolved:
        seen.setdefault((sid, ov.attribute, dumps(dict(ov.qualifiers))), set()).add(ov.value.key())
    bad = {k for k, keys in seen.items() if len(keys) > 1}
    for sid, attribute, qj in sorted(bad):
        warnings.append(
            f"{names.get(sid, sid)}: {attribute} {qj} has {len(seen[(sid, attribute, qj)])} "
            "different values in one response; none recorded (check the aliases)"
        )
    return [r for r in resolved if (r[1], r[2].attribute, dumps(dict(r[2].qualifiers))) not in bad]


def _upsert(
    s: Session,
    outbox: _Outbox,
    spec: _WatchSpec,
    subject_id: int,
    ov: ObservedValue,
    f: Fetched,
    snapshot_id: int | None,
    names: dict[int | None, str],
) -> tuple[bool, bool]:
    """Record one observed value; returns (new row, value changed).

    One row per distinct value (subject, attribute, qualifiers, value, watch): the same
    value bumps ``last_seen``; a different value from the same watch makes the old
    row(s) not current and emits ``value_changed``; the first ``weights_available =
    true`` of a subject emits ``weights_landed``, a further new repo ``subject_discovered``.
    """
    qj = dumps(dict(ov.qualifiers))
    vk = ov.value.key()
    same = (
        Observation.subject_id == subject_id,
        Observation.attribute == ov.attribute,
        Observation.qualifiers_json == qj,
        Observation.watch_id == spec.id,
    )
    row = s.exec(select(Observation).where(*same, Observation.value_key == vk)).first()
    previous = s.exec(
        select(Observation).where(*same, Observation.current, Observation.value_key != vk)
    ).all()
    at = f.fetched_at
    new_row = row is None
    if row is None:
        row = Observation(
            subject_id=subject_id,
            attribute=ov.attribute,
            qualifiers_json=qj,
            value_json=dumps(ov.value.to_dict()),
            value_key=vk,
            watch_id=spec.id,
            snapshot_id=snapshot_id,
            source_url=f.final_url,
            first_seen=at,
            last_seen=at,
            current=True,
        )
    else:
        if at > row.last_seen:
            row.last_seen = at
        row.snapshot_id = snapshot_id
        row.current = True
    s.add(row)
    for old in previous:
        old.current = False
        s.add(old)
    s.flush()
    subject = names.get(subject_id, str(subject_id))
    if previous:
        old_value = previous[0].value
        outbox.add(
            make_event(
                "value_changed",
                f"{subject}: {ov.attribute} changed from {old_value.display()} "
                f"to {ov.value.display()}",
                subject_id=subject_id,
                watch_id=spec.id,
                detail={
                    "attribute": ov.attribute,
                    "qualifiers": dict(ov.qualifiers),
                    "from": _plain(old_value.to_dict()),
                    "to": _plain(ov.value.to_dict()),
                    "observed_at": at.isoformat(),
                },
            )
        )
    if new_row and ov.attribute == "weights_available" and ov.value.value is True:
        _weights_events(s, outbox, spec, subject_id, subject, ov, row, at)
    return new_row, bool(previous)


def _weights_events(
    s: Session,
    outbox: _Outbox,
    spec: _WatchSpec,
    subject_id: int,
    subject: str,
    ov: ObservedValue,
    row: Observation,
    at: dt.datetime,
) -> None:
    others = s.exec(
        select(Observation).where(
            Observation.subject_id == subject_id,
            Observation.attribute == "weights_available",
            Observation.value_key == row.value_key,
            Observation.id != row.id,
        )
    ).all()
    repo = ov.qualifiers.get("repo")
    detail = {"repo": repo, "first_seen": at.isoformat()}
    if "created_at" in ov.value.extra:
        detail["created_at"] = ov.value.extra["created_at"]
    if not others:
        outbox.add(
            make_event(
                "weights_landed",
                f"{subject}: weights available on Hugging Face ({repo})",
                subject_id=subject_id,
                watch_id=spec.id,
                detail=detail,
            )
        )
    elif all(o.qualifiers_json != row.qualifiers_json for o in others):
        outbox.add(
            make_event(
                "subject_discovered",
                f"{subject}: new weights repo {repo}",
                subject_id=subject_id,
                watch_id=spec.id,
                detail=detail,
            )
        )


def _plain(d: dict[str, Any]) -> dict[str, Any]:
    d = dict(d)
    d.pop("extra", None)
    return d
