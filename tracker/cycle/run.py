"""One check cycle: for each watch, fetch (worker threads, no transaction open), store
the snapshot, parse, match subjects, then record observations, events and watch health,
each watch all or nothing (a savepoint; watches are committed in groups), in name order.
A repo an org listing shows for the first time is followed in the same step (its model
info and files; a model watch is kept for it). Input: Watch rows; output: a
:class:`CycleSummary`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from claims.store.rawdb import RawDB
from claims.subjects.matching import AliasIndex
from claims.values.canonical import dumps
from claims.values.physical import range_problem
from claims.values.value import ValueError_
from claims.vocabulary import ATTRIBUTES, RETIRED_STATE
from tracker.adapters.base import (
    ADAPTER_HOSTS,
    Adapter,
    ObservedValue,
    ParseResult,
    check_kind,
    get_adapter,
    read_files,
)
from tracker.cycle.commit import GroupCommit
from tracker.cycle.observe import (
    NOT_PUBLIC_ANSWERS,
    readings_of,
    record_failure,
    record_not_public,
    record_skip,
    record_success,
    seen_public,
)
from tracker.cycle.rows import WATCH_NAMED, WATCH_RETIRED, iter_specs, load_subjects
from tracker.cycle.types import CycleSummary, NameLookup, WatchResult, WatchSpec
from tracker.cycle.withdrawn import record_gone
from tracker.errors import (
    DATA_ERRORS,
    ConfigError,
    NotRecorded,
    ParseError,
    TrackerError,
    UnknownName,
    unexpected,
)
from tracker.net.fetch import FetchSettings, MissingCredential, auth_headers, fetch
from tracker.net.policy import RequestPolicy, same_host, watch_policy
from tracker.net.response import Fetched
from tracker.net.robots import RobotsPolicy
from tracker.snapshots.store import BodyStore

log = logging.getLogger(__name__)

FAILING_AFTER = 3  # consecutive failures before a watch is "failing" (watch param overrides)
MAX_PAGES = 20  # cursor pages followed per watch and run
AHEAD_PER_WORKER = 4  # watches fetched ahead of the recording thread, per worker


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def run_check(
    db: Any,
    client: Any,
    *,
    snapshot_store: BodyStore,
    watch_names: Iterable[str] | None = None,
    now: dt.datetime | None = None,
    progress: Callable[[WatchResult], None] | None = None,
    failing_after: int = FAILING_AFTER,
    sleep: Callable[[float], None] = time.sleep,
    robots: RobotsPolicy | None = None,
    concurrency: int | None = None,
    keep_results: bool = True,
    fence: Callable[[RawDB], None] | None = None,
) -> CycleSummary:
    """Check every watch (or those named); return the totals.

    ``db`` is the claims database: a :class:`~claims.store.rawdb.RawDB` (used as is), a path or
    URL (opened with :meth:`RawDB.open`, closed at the end; the schema must exist), or a
    SQLAlchemy engine from :func:`claims.store.engine.make_engine` (one pooled connection is used).
    The cycle itself runs plain SQL, never the ORM (see :mod:`claims.store.rawdb`). ``client``
    is a :class:`~tracker.net.client.HttpClient` from :func:`tracker.net.fetch.make_client`. ``now``
    freezes the clock (tests; it is also the fetch time when the transport gives no
    recorded time). ``progress`` is called with each :class:`WatchResult`; with
    ``keep_results`` False the summary keeps only the totals, not every result (a long
    cycle that reports through ``progress`` then holds no per-watch state: issue 7).

    Concurrency: up to ``concurrency`` watches (default
    ``FetchSettings.from_env().max_concurrent``: ``TRACKER_CONCURRENCY`` or 8; 1 runs them
    one after another) fetch and parse at once in worker threads, each through the one
    ``client`` (thread-safe; a live client's :class:`~tracker.net.throttle.HostThrottle`
    caps requests and spacing per host). Workers never touch the database: the calling
    thread records each watch's outcome as one unit (a savepoint), in watch-name order,
    so results, row ids and events do not depend on timing. Recorded watches are
    committed together (group commit: every ``GROUP_MAX`` watches or ``GROUP_MAX_S``
    seconds, and before waiting for a fetch, so the write lock is never held across
    network waits); ``progress`` is called for each once it is committed, and a kill
    loses only uncommitted watches, each whole (the next run checks them again).

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
    ConfigError when ``watch_names`` names a retired watch, UnknownName an unknown one,
    and the body store's error (:class:`~tracker.errors.BodyStoreError`: a newer or
    unreadable body file) before any fetch.

    ``fence`` (a scheduler's lease check) runs inside each group's transaction before it
    commits; when it raises, that group is rolled back and the error propagates
    (:class:`~tracker.cycle.commit.GroupCommit`).
    """
    snapshot_store.check()  # a body store it cannot write fails the run, not each watch
    raw, owned = _connect(db)
    try:
        return _run(
            raw, client, snapshot_store, watch_names, now, progress, failing_after, sleep,
            robots, concurrency, keep_results, fence,
        )  # fmt: skip
    finally:
        if owned:
            raw.close()


def _connect(db: Any) -> tuple[RawDB, bool]:
    """(connection, whether this call opened it and must close it)."""
    if isinstance(db, RawDB):
        return db, False
    if hasattr(db, "raw_connection"):  # a SQLAlchemy engine (not imported here)
        return RawDB.from_engine(db), True
    return RawDB.open(db), True


def _run(
    raw: RawDB,
    client: Any,
    snapshot_store: BodyStore,
    watch_names: Iterable[str] | None,
    now: dt.datetime | None,
    progress: Callable[[WatchResult], None] | None,
    failing_after: int,
    sleep: Callable[[float], None],
    robots: RobotsPolicy | None,
    concurrency: int | None,
    keep_results: bool,
    fence: Callable[[RawDB], None] | None = None,
) -> CycleSummary:
    clock = (lambda: now) if now is not None else _utcnow
    wanted = None if watch_names is None else set(watch_names)
    if wanted:
        _check_names(raw, wanted)
    index, names = load_subjects(raw)
    summary = CycleSummary()
    follow = _Follow(_model_watch_repos(raw), index)
    ctx = _FetchContext(client, snapshot_store, clock, sleep, robots, follow)
    planned = _plan(iter_specs(raw, wanted))
    if concurrency is None:
        concurrency = FetchSettings.from_env().max_concurrent
    workers = max(1, concurrency)
    # Workers run at most this many watches ahead of the recording thread: finished
    # pages wait in memory for their turn, and with thousands of watches an unbounded
    # lead held every body and parse result at once (issue 7: peak RSS). Watch rows are
    # read as they are needed, in pages, for the same reason.
    window = workers * AHEAD_PER_WORKER
    pending: deque[tuple[WatchSpec, str | None, Future[_Gathered] | None]] = deque()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="watch") as pool:

        def fill() -> None:
            while len(pending) < window:
                item = next(planned, None)
                if item is None:
                    return
                spec, headers, missing = item
                future = pool.submit(_gather, ctx, spec, headers) if missing is None else None
                pending.append((spec, missing, future))

        group = GroupCommit(raw, summary, progress, keep_results, fence)
        with raw.grouped():
            try:
                fill()
                while pending:  # name order
                    spec, missing, future = pending.popleft()
                    fill()
                    if future is None:
                        record_skip(raw, spec, f"{missing} not set")
                        result = WatchResult(spec.name, "skipped", error=f"{missing} is not set")
                    else:
                        if not future.done():
                            group.commit()  # never hold the write lock while waiting
                        got = future.result()
                        for result in _record(raw, spec, got, index, names, clock, failing_after):
                            group.add(result)
                        continue
                    group.add(result)
                group.commit()
            except BaseException:
                for _spec, _missing, pending_future in pending:
                    if pending_future is not None:
                        pending_future.cancel()
                # The watches recorded before the error are whole: keep them (the failed
                # one was rolled back to its savepoint).
                with contextlib.suppress(Exception):
                    group.commit()
                raise
    return summary


def _check_names(raw: RawDB, wanted: set[str]) -> None:
    """Raise ConfigError for a ``--watch`` name that is retired, UnknownName (with the
    near names: ``did you mean 'hf-org-x'?``) for one that no watch has."""
    unknown = sorted(n for n in wanted if raw.one(WATCH_NAMED, {"name": n}) is None)
    retired = sorted(n for n in wanted - set(unknown) if raw.one(WATCH_RETIRED, {"name": n}))
    if retired:
        raise ConfigError(
            f"watch {', '.join(retired)} is retired (watches.toml no longer defines it); "
            "define it again and run `tracker load` to check it"
        )
    if unknown:
        # Only the live ones: a retired name given to --watch is refused (above).
        live = "SELECT name FROM watch WHERE state != :retired ORDER BY name"
        known = [r[0] for r in raw.execute(live, {"retired": RETIRED_STATE})]
        hint = ", ".join(known[:20]) + (", ..." if len(known) > 20 else "")
        from claims.curated.datafile import near_names  # the did-you-mean of other names

        near = {n: near_names(n, known) for n in unknown}
        named = ", ".join(
            n + (f" (did you mean {near[n][0]!r}?)" if near[n] else "") for n in unknown
        )
        raise UnknownName(
            f"unknown watch name(s): {named} (known: {hint or 'none'}; "
            "`tracker watches` lists them)",
            [m[0] for m in near.values() if m],
        )


def _plan(
    specs: Iterator[WatchSpec],
) -> Iterator[tuple[WatchSpec, dict[str, str], str | None]]:
    """(spec, auth headers, missing credential env or None) for each watch, with one
    warning per missing key, not one per watch."""
    noticed: set[str] = set()
    for spec in specs:
        try:
            yield spec, auth_headers(spec.params), None
        except MissingCredential as exc:
            if exc.env not in noticed:
                noticed.add(exc.env)
                log.warning("%s is not set: skipping the watches that need it", exc.env)
            yield spec, {}, exc.env


_MODEL_WATCHES = "SELECT url, params_json FROM watch WHERE adapter = 'huggingface_model'"


def _model_watch_repos(raw: RawDB) -> set[str]:
    """Repos (lower-case) some ``huggingface_model`` watch asks for, retired ones too (a
    repo someone untracked is not followed again)."""
    from tracker.adapters.huggingface import watches as hub_watches  # not for html-only cycles

    out = set()
    for url, params in raw.execute(_MODEL_WATCHES).fetchall():
        repo = hub_watches.repo_of_model_watch(url, json.loads(params))
        if repo:
            out.add(repo.lower())
    return out


class _Follow:
    """Which repos a listing shows that the cycle follows at once (issue 16, item 2): a
    repo that matches a subject and that no model watch asks for yet. Workers claim a
    repo under a lock, so two listings showing it follow it once."""

    def __init__(self, watched: set[str], index: AliasIndex) -> None:
        self.watched = watched
        self.index = index
        self.lock = threading.Lock()

    def claim(self, ov: ObservedValue) -> str | None:
        """The repo of a listed ``weights_available`` value to follow now, or None."""
        repo = ov.qualifiers.get("repo")
        if ov.attribute != "weights_available" or not repo:
            return None
        if self.index.resolve_any((ov.subject_ref, *ov.alt_refs)) is None:
            return None
        with self.lock:
            if repo.lower() in self.watched:
                return None
            self.watched.add(repo.lower())
        return repo


@dataclass(frozen=True)
class _FetchContext:
    """What every worker shares: the client, the snapshot store, clock, sleep, robots,
    and which listed repos to follow."""

    client: Any
    store: BodyStore
    clock: Callable[[], dt.datetime]
    sleep: Callable[[float], None]
    robots: RobotsPolicy | None
    follow: _Follow | None = None


@dataclass
class _Gathered:
    """One watch's network step: pages read (or a 304), every body fetched, or the error."""

    pages: list[tuple[Fetched, ParseResult]] = field(default_factory=list)
    fetched: list[Fetched] = field(default_factory=list)
    not_modified: Fetched | None = None
    complete: bool = True
    error: Exception | None = None
    # Repos this listing showed for the first time, each with its model watch's step.
    follows: list[tuple[dict[str, Any], _Gathered]] = field(default_factory=list)


def _get(
    ctx: _FetchContext, spec: WatchSpec, url: str, headers: dict[str, str], **kw: Any
) -> Fetched:
    """Fetch ``url`` for ``spec`` under its request policy (:mod:`tracker.net.policy`):
    the watch's credentials go only to its own host; redirects stay on allowed hosts."""
    policy = watch_policy(spec.params, ADAPTER_HOSTS.get(spec.adapter, ()), headers)
    if ctx.robots is not None and spec.params.get("robots", True) is not False:
        ctx.robots.check(url, policy if policy.allow_private else None)
    if not same_host(spec.url, url):
        headers = {}
    return fetch(
        ctx.client, url, sleep=ctx.sleep, clock=ctx.clock, headers=headers, policy=policy, **kw
    )


def _gather(ctx: _FetchContext, spec: WatchSpec, extra_headers: dict[str, str]) -> _Gathered:
    """Fetch and parse one watch (worker thread; no database). Never raises: this is the
    watch's error boundary (issue 20). A TrackerError is returned in ``error`` for the
    recording step as it is; any other exception (a RecursionError, an overflow, a
    parser's ValueError on a hostile body) becomes a ParseError of kind ``parse_error``
    whose one-line message names the URL and the exception (:func:`unexpected`)."""
    out = _Gathered()
    url: str | None = spec.url
    try:
        check_kind(spec.adapter)  # a misconfigured watch sends no request
        adapter: Adapter | None = None  # loaded after a 304 is ruled out (import time)
        while url and len(out.fetched) < MAX_PAGES:
            first = not out.fetched
            f = _get(
                ctx,
                spec,
                url,
                extra_headers,
                etag=spec.etag if first else None,
                last_modified=spec.last_modified if first else None,
            )
            if f.unchanged:
                out.not_modified = f
                break
            ctx.store.put(f.body, f.sha256)
            out.fetched.append(f)
            adapter = adapter or get_adapter(spec.adapter)
            parsed = adapter.parse(f, spec.params)
            for ov in parsed.values:
                _check_vocabulary(ov, spec, f.final_url)
            out.pages.append((f, parsed))
            url = parsed.next_url
            if url:  # a Link header may point anywhere: only the watch's hosts (issue 20)
                _policy(spec).check_host(spec.url, url, "next-page link")
        out.complete = not url  # False when MAX_PAGES cut the listing short
        if adapter is not None and out.pages and out.pages[0][1].files:
            _gather_files(ctx, spec, adapter, out, extra_headers)
    except (TrackerError, ValueError_) as exc:
        out.error = exc
    except Exception as exc:  # noqa: BLE001 - the error boundary of one watch (issue 20)
        out.error = unexpected(url or spec.url, exc)
    if out.error is None and spec.adapter == "huggingface_org":
        _gather_follows(ctx, spec, out, extra_headers)
    return out


def _gather_follows(
    ctx: _FetchContext, spec: WatchSpec, out: _Gathered, extra_headers: dict[str, str]
) -> None:
    """Fetch, in this same step, the model info and files of every repo the listing
    shows that matches a subject and has no model watch (watch param ``follow = false``
    turns this off): its licence, gating and parameter counts are read in the same
    cycle as its landing, and its model watch is kept from then on."""
    from tracker.adapters.huggingface import models as hub_models
    from tracker.adapters.huggingface import watches as hub_watches

    if ctx.follow is None or not hub_models.follows_new_repos(spec.params):
        return

    for _f, parsed in out.pages:
        for ov in parsed.values:
            repo = ctx.follow.claim(ov)
            if repo is None:
                continue
            entry = hub_watches.model_watch(
                repo, hub_watches.base_of(spec.url), followed_from=spec.name
            )
            follow_spec = WatchSpec(
                0, entry["name"], entry["adapter"], entry["url"], entry["params"], None, None
            )
            out.follows.append((entry, _gather(ctx, follow_spec, extra_headers)))


def _gather_files(
    ctx: _FetchContext,
    spec: WatchSpec,
    adapter: Adapter,
    out: _Gathered,
    extra_headers: dict[str, str],
) -> None:
    """Fetch the ``files`` the first page asks for (each stored as a snapshot) and let
    the adapter combine them (:func:`tracker.adapters.base.read_files`)."""

    def get(url: str) -> Fetched:
        _policy(spec).check_host(spec.url, url, "file")
        f = _get(ctx, spec, url, extra_headers)
        ctx.store.put(f.body, f.sha256)
        out.fetched.append(f)
        return f

    main, parsed = out.pages[0]
    pages = read_files(adapter, main, parsed, get, spec.params)
    for f, result in pages:
        for ov in result.values:
            _check_vocabulary(ov, spec, f.final_url)
    out.pages[0:1] = pages


def _policy(spec: WatchSpec) -> RequestPolicy:
    return watch_policy(spec.params, ADAPTER_HOSTS.get(spec.adapter, ()), ())


def _record(
    raw: RawDB,
    spec: WatchSpec,
    got: _Gathered,
    index: AliasIndex,
    names: NameLookup,
    clock: Callable[[], dt.datetime],
    failing_after: int,
    readings: dict[str, dict[str, str]] | None = None,
    announced: set[str] | None = None,
) -> list[WatchResult]:
    """Record one watch's outcome (calling thread, one transaction or savepoint) and log
    it; then the model watch of each repo it followed (created now), each its own
    result. The listing's landing event carries the licence and gating those read."""
    before = raw.one(_LAST_RUN, {"wid": spec.id})
    first = before is None or before[0] is None
    if got.error is None:
        readings = dict(readings or {})
        for _entry, follow in got.follows:
            for _f, parsed in follow.pages:
                readings.update(readings_of(list(parsed.values)))
        try:
            result = record_success(
                raw, spec, got.pages, got.not_modified, index, names, got.complete,
                readings=readings, announced=announced,
            )  # fmt: skip
        except DATA_ERRORS as exc:  # a value the database cannot hold; its savepoint is undone
            got.error = unexpected(spec.url, exc)
    error = got.error
    answer = _not_public_answer(raw, spec, got) if error is not None else None
    if error is not None and answer == "not_public":
        result = record_not_public(raw, spec, error, clock())
    elif error is not None and answer is not None:  # seen public before: gone, an answer
        result = record_gone(raw, spec, error, clock(), answer, names)
    elif got.error is not None:
        result = record_failure(raw, spec, got.error, got.fetched, clock(), failing_after)
    if first and result.outcome == "unchanged":  # nothing to compare with: new
        result.outcome = "new"
    for f in got.fetched:
        if f.redirects:
            result.redirects.append(f"{f.url} -> {f.final_url}")
            log.info("watch %s: %s redirected to %s", spec.name, f.url, f.final_url)
    if result.error:
        log.warning("watch %s failed (%s): %s", spec.name, result.error_kind, result.error)
    results = [result]
    for entry, follow in got.follows:
        followed = _followed_spec(raw, entry)
        log.info("watch %s: following %s (new watch %s)", spec.name, entry["url"], entry["name"])
        if isinstance(follow.error, NotRecorded):
            # a replay without the new repo's page: the watch is kept, left unchecked (a
            # failure here made a replay fail on a watch it had just made; trial)
            log.info("watch %s: not in the recording; checked on its next run", entry["name"])
            continue
        results.extend(
            _record(raw, followed, follow, index, names, clock, failing_after,
                    announced=result.announced)
        )  # fmt: skip
    return results


def _not_public_answer(raw: RawDB, spec: WatchSpec, got: _Gathered) -> str | None:
    """What a model watch's own page answering "no such public repo" (404, 401
    RepoNotFound) means: ``"not_public"`` when the repo was never seen public (a model
    tracked before release, not a failure), else the repo's id (it was public: gone,
    :func:`tracker.cycle.withdrawn.record_gone`; also an answer, not a failure). None
    for any other error (a failure as before: network errors and 5xx retry)."""
    kind = getattr(got.error, "kind", None)
    if spec.adapter != "huggingface_model" or kind not in NOT_PUBLIC_ANSWERS or got.pages:
        return None
    from tracker.adapters.huggingface import watches as hub_watches

    repo = hub_watches.repo_of_model_watch(spec.url, dict(spec.params))
    if repo is None:
        return None
    return repo if seen_public(raw, spec, repo) else "not_public"


_WATCH_ID = "SELECT id FROM watch WHERE name = :name"
_LAST_RUN = "SELECT last_run FROM watch WHERE id = :wid"


def _followed_spec(raw: RawDB, entry: dict[str, Any]) -> WatchSpec:
    """The model watch a listing's new repo is followed by (``entry``: from
    :func:`tracker.adapters.huggingface.watches.model_watch`), stored now when no watch
    has its name: kept from then on, listed by ``tracker watches``."""
    with raw.transaction() as s:
        row = s.one(_WATCH_ID, {"name": entry["name"]})
        wid = int(row[0]) if row else s.insert(
            "watch",
            {"name": entry["name"], "adapter": entry["adapter"], "url": entry["url"],
             "params_json": dumps(entry["params"]), "interval_minutes": entry["interval_minutes"],
             "state": "new", "consecutive_failures": 0},
        )  # fmt: skip
    return WatchSpec(
        wid, entry["name"], entry["adapter"], entry["url"], entry["params"], None, None
    )


def _check_vocabulary(ov: ObservedValue, spec: WatchSpec, url: str) -> None:
    """A value the vocabulary does not allow, or outside its attribute's physical range
    (:func:`claims.values.physical.range_problem`), is a ParseError: never recorded."""
    allowed = ATTRIBUTES.get(ov.attribute)
    if allowed is None or ov.value.kind not in allowed[0]:
        raise ParseError(
            f"watch {spec.name}: adapter {spec.adapter} produced {ov.attribute!r} "
            f"({ov.value.kind}), which the vocabulary does not allow"
        )
    problem = range_problem(ov.attribute, ov.value)
    if problem:
        raise ParseError(f"{url}: {problem} (for {ov.subject_ref[1]!r})")
