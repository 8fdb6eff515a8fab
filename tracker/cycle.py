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

from claims.matching import AliasIndex
from claims.models import Subject, SubjectAlias, Watch
from claims.values import ValueError_
from claims.vocabulary import ATTRIBUTES
from tracker.adapters.base import Fetched, ObservedValue, ParseResult, get_adapter
from tracker.errors import ConfigError, ParseError, TrackerError
from tracker.fetch import MissingCredential, auth_headers, fetch
from tracker.observe import WatchResult, WatchSpec, record_failure, record_success
from tracker.robots import RobotsPolicy
from tracker.snapshots import SnapshotStore

log = logging.getLogger(__name__)

FAILING_AFTER = 3  # consecutive failures before a watch is "failing" (watch param overrides)
MAX_PAGES = 20  # cursor pages followed per watch and run


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
    robots: RobotsPolicy | None = None,
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
    the whole step succeeded. ``robots`` (live runs) checks each URL against robots.txt
    unless the watch sets param ``robots = false`` (an API documented for programs);
    a disallowed URL fails the watch with kind ``robots_disallowed``. Raises
    ConfigError when ``watch_names`` names an unknown watch.
    """
    clock = (lambda: now) if now is not None else _utcnow
    with Session(engine) as s:
        rows = s.exec(select(Watch).order_by(Watch.name)).all()
        index = AliasIndex.build(s.exec(select(Subject)).all(), s.exec(select(SubjectAlias)).all())
        names = {sub.id: sub.name for sub in s.exec(select(Subject)).all()}
        specs = [
            WatchSpec(w.id, w.name, w.adapter, w.url, w.params, w.etag, w.last_modified)  # type: ignore[arg-type]
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
            robots,
        )
        summary.add(result)
        if progress is not None:
            progress(result)
    return summary


def _check_one(
    engine: Engine,
    client: Any,
    spec: WatchSpec,
    store: SnapshotStore,
    index: AliasIndex,
    names: dict[int | None, str],
    clock: Callable[[], dt.datetime],
    failing_after: int,
    sleep: Callable[[float], None],
    extra_headers: dict[str, str],
    robots: RobotsPolicy | None,
) -> WatchResult:
    pages: list[tuple[Fetched, ParseResult]] = []
    fetched: list[Fetched] = []
    not_modified: Fetched | None = None
    try:
        adapter = get_adapter(spec.adapter)
        url: str | None = spec.url
        while url and len(fetched) < MAX_PAGES:
            first = not fetched
            if robots is not None and spec.params.get("robots", True) is not False:
                robots.check(url)
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
            parsed = adapter.parse(f, spec.params)
            for ov in parsed.values:
                _check_vocabulary(ov, spec)
            pages.append((f, parsed))
            url = parsed.next_url
    except (TrackerError, ValueError_) as exc:
        result = record_failure(engine, spec, exc, fetched, clock(), failing_after)
    else:
        complete = not url  # False when MAX_PAGES cut the listing short
        result = record_success(engine, spec, pages, not_modified, index, names, complete)
    for f in fetched:
        if f.redirects:
            result.redirects.append(f"{f.url} -> {f.final_url}")
            log.info("watch %s: %s redirected to %s", spec.name, f.url, f.final_url)
    if result.error:
        log.warning("watch %s failed (%s): %s", spec.name, result.error_kind, result.error)
    return result


def _check_vocabulary(ov: ObservedValue, spec: WatchSpec) -> None:
    allowed = ATTRIBUTES.get(ov.attribute)
    if allowed is None or ov.value.kind not in allowed[0]:
        raise ParseError(
            f"watch {spec.name}: adapter {spec.adapter} produced {ov.attribute!r} "
            f"({ov.value.kind}), which the vocabulary does not allow"
        )
