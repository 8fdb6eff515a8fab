"""The site build: collect the database into a context, then render and write ``out_dir``.

Every output file (pages, exports, feeds, assets) is a :class:`Job` with a key that
hashes what it is made from (``pagehash.py``). A file whose key matches the last
build's manifest and which is still on disk is not rendered again; the writer rewrites
only files whose bytes changed, and files the last build made that this one does not
are removed (``manifest.py``). With a build cache folder (``cache_dir``), a build in a
new process takes unchanged subjects' parts of the big exports from the last output
(``segments.py``) and reuses compiled templates.
"""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment

from tracker import settings
from tracker.website import exports as ex
from tracker.website import feeds, forked
from tracker.website.charts import render_svg
from tracker.website.claimviews import ClaimMemo
from tracker.website.collect import collect
from tracker.website.fragments import FRAGMENTS
from tracker.website.manifest import (
    MANIFEST,
    Entry,
    kept_files,
    manifest_text,
    read_manifest,
    remove_stale,
)
from tracker.website.pagehash import code_fingerprint, key_of
from tracker.website.pages import Job, SubjectDigests, index_path, page_jobs, subject_path
from tracker.website.records import RecordStore
from tracker.website.render import attach_fragments, make_environment, templates_dir
from tracker.website.search import search_index_from, subject_entries_json, table_data_js
from tracker.website.segments import Segments
from tracker.website.summary import table_columns
from tracker.website.table import table_csv, table_export, table_json
from tracker.website.views import RecordMiss, SiteContext, SubjectView, Withheld
from tracker.website.writer import Pieces, SiteError, Writer

if TYPE_CHECKING:  # `tracker build` reads through a RawDB and loads no SQLAlchemy
    from sqlalchemy.engine import Engine

    from claims.store.rawdb import RawDB

__all__ = [
    "BuildReport",
    "build_site",
    "clear_build_caches",
    "index_path",
    "resolve_base_url",
]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "http://localhost:8000/"
ASSETS = ("site.css", "site.js")
SEARCH_INDEX = "assets/search-index.js"
# From this many files to render, a helper process does the file writes (Writer.offloaded):
# its start-up (a spawned interpreter) costs more than it saves on a small rebuild.
OFFLOAD_AT = 300


@dataclass(frozen=True)
class BuildReport:
    """What a build did: files rewritten, files left byte-identical (rendered or not),
    stale files removed, and which files were rendered (the rest kept their key)."""

    pages_written: int
    pages_unchanged: int
    out_dir: Path
    pages_removed: int = 0
    written_paths: tuple[str, ...] = ()
    pages_rendered: int = 0
    rendered_paths: tuple[str, ...] = ()
    # parts of the big exports (one per claim per file) copied from the last output
    parts_spliced: int = 0


def resolve_base_url(base_url: str | None = None) -> str:
    """The site's public URL, ending in ``/``: the argument, else ``TRACKER_SITE_URL``,
    else :data:`DEFAULT_BASE_URL` (used for feed ids and links in alerts)."""
    return (base_url or settings.site_url() or DEFAULT_BASE_URL).rstrip("/") + "/"


def export_jobs(
    ctx: SiteContext, fingerprint: str, digests: SubjectDigests, segments: Segments
) -> list[Job]:
    """Jobs for ``api/``: a JSON file per subject and the four whole-site exports.
    ``api/subjects.json`` is keyed by every subject's row digest (see below),
    ``api/discrepancies.json`` by its own records; the claim exports by every subject's
    claims digest (encoding 30,000 claims to key them would cost what it saves). A
    subject's claim records and CSV rows are kept between builds by that digest
    (``fragments.py``), so a rebuild encodes only the claims of changed subjects; the
    claim exports' layouts go to the build cache (``segments``), so a new process can
    take unchanged subjects' parts from the files themselves."""
    claims_key = {sv.slug: key_of(fingerprint, digests.claims[sv.slug]) for sv in ctx.subjects}

    def records_of(sv: SubjectView) -> dict[int, str]:
        return FRAGMENTS.get(
            "claim-records", claims_key[sv.slug], partial(ex.subject_claim_records, sv)
        )

    def csv_rows_of(sv: SubjectView) -> dict[int, str]:
        def make() -> dict[int, str]:  # reads the claims only when not kept
            return ex.claim_csv_rows([cv for _, rows in sv.groups for cv in rows])

        return FRAGMENTS.get("claim-csv", claims_key[sv.slug], make)

    def claims_file(path: str, kind: str, of: Any, export: Any) -> Pieces:
        sep = "," if kind == "claim-records" else ""
        return spliced_file(ctx, segments, claims_key, (path, kind, sep), of, export)

    # a subject's summary is made of its index row's fields (its slug, name,
    # organization, weights status, open discrepancies, last change), so the file is
    # keyed by the rows' digests; the summaries are made only when it is rendered
    rows = [digests.row[sv.slug] for sv in ctx.subjects]
    discrepancies = [ex.discrepancy_record(dv) for dv in ctx.discrepancies]
    all_claims = [digests.claims[sv.slug] for sv in ctx.subjects]
    jobs = [
        Job(
            "api/subjects.json",
            key_of(fingerprint, "api/subjects.json", rows),
            lambda: ex.subjects_export([ex.subject_summary(sv) for sv in ctx.subjects]),
        ),
        Job(
            "api/claims.json",
            key_of(fingerprint, "api/claims.json", all_claims),
            partial(claims_file, "api/claims.json", "claim-records", records_of, ex.claims_export),
        ),
        Job(
            "api/claims.csv",
            key_of(fingerprint, "api/claims.csv", all_claims),
            partial(claims_file, "api/claims.csv", "claim-csv", csv_rows_of, ex.csv_from_rows),
        ),
        Job(
            "api/discrepancies.json",
            key_of(fingerprint, "api/discrepancies.json", discrepancies),
            partial(ex.discrepancies_export, discrepancies),
        ),
    ]
    jobs += table_jobs(ctx, fingerprint, digests, segments)
    for sv in ctx.subjects:
        path = f"api/subjects/{sv.slug}.json"
        key = key_of(fingerprint, "subject-json", digests.view[sv.slug])
        jobs.append(Job(path, key, partial(lambda s: ex.subject_export(s, records_of(s)), sv)))
    return jobs


def spliced_file(
    ctx: SiteContext,
    segments: Segments,
    keys: dict[str, str],
    file: tuple[str, str, str],
    of: Any,
    export: Any,
) -> Pieces:
    """A claim export ``file`` (path, fragment kind, separator of its parts) whose parts
    are each subject's claims in id order: those the last output holds for the
    subject's fragment key (``keys`` by slug) copied from it (``segments.splice``),
    the others from ``of(subject)`` (kept in memory or made); ``export(parts)`` makes
    the file around them."""
    path, kind, sep = file
    old = segments.layout(path)
    owners: dict[str, list[int]] = {}
    taken: set[int] = set()
    made: dict[int, str] = {}
    for sv in ctx.subjects:
        key = keys[sv.slug]
        ids = old.keys.get(key) if old is not None else None
        if ids is None:
            texts = of(sv)
            owners[key] = list(texts)
            made.update(texts)
        else:
            owners[key] = ids
            taken.update(ids)
    head, _, tail = export({0: "\0"}).partition("\0")
    spliced = None
    if not taken.intersection(made):  # one claim, one subject: else make them all
        spliced = segments.splice(path, kind, (head, tail), sep, taken, made, owners)
    if spliced is None:
        texts = [(keys[sv.slug], of(sv)) for sv in ctx.subjects]
        owners = {key: list(part) for key, part in texts}
        made = ex.by_claim_id([part for _, part in texts])
        spliced = segments.splice(path, kind, (head, tail), sep, set(), made, owners)
        assert spliced is not None  # nothing taken from the last output: cannot fail
    return spliced


def spliced_search_index(
    ctx: SiteContext, segments: Segments, keys: list[str], names: dict[str, str]
) -> str | Pieces:
    """``assets/search-index.js``: each subject's entries (its fragment key in ``keys``,
    in subject order; ``names`` slug -> display name, for ``relative to``) copied from
    the last output when it holds them (``segments.splice_in_order``), else kept in
    memory or made; a subject without entries has no part."""
    old = segments.layout(SEARCH_INDEX)
    parts: list[tuple[int, int | None, str | None]] = []
    owners: dict[str, list[int]] = {}
    for i, (key, sv) in enumerate(zip(keys, ctx.subjects, strict=True)):
        owners[key] = [i]
        ids = old.keys.get(key) if old is not None else None
        if ids is not None and len(ids) == 1:
            parts.append((i, ids[0], None))
            continue
        text = FRAGMENTS.get("search", key, partial(subject_entries_json, sv, names))
        if text:  # search_index_from leaves out empty parts
            parts.append((i, None, text))
    head, _, tail = search_index_from(["\0"], ctx.sources).partition("\0")
    spliced = None
    if parts:
        spliced = segments.splice_in_order(SEARCH_INDEX, "search", (head, tail), ",", parts, owners)
    if spliced is None:  # no subject parts, or the last output lacks one
        made = [
            FRAGMENTS.get("search", k, partial(subject_entries_json, sv, names))
            for k, sv in zip(keys, ctx.subjects, strict=True)
        ]
        text = search_index_from(made, ctx.sources)
        segments.record(SEARCH_INDEX, "search", text, enumerate(made), ",", owners.items())
        return text
    return spliced


def table_jobs(
    ctx: SiteContext, fingerprint: str, digests: SubjectDigests, segments: Segments
) -> list[Job]:
    """``api/table.json``, ``api/table.csv``, ``assets/table-data.js`` (keyed by the
    index rows and columns) and ``assets/search-index.js`` (keyed by every subject's
    view and the sources; each subject's entries kept between builds by its view's
    digest, and their place in the file noted in the build cache)."""
    columns = table_columns(ctx.benchmarks)
    table = cache(lambda: table_export([sv.row() for sv in ctx.subjects], columns))
    key = key_of(fingerprint, "table", columns, [digests.row[sv.slug] for sv in ctx.subjects])
    sources = [
        (s.source.key, s.source.title, s.source.publisher, s.source.url) for s in ctx.sources
    ]
    # a claim relative to another subject shows its name (subjectrefs.py): every
    # subject's entries are keyed by all names, as the subject pages are (pages.py)
    names = {sv.slug: sv.name for sv in ctx.subjects}
    names_key = key_of(sorted(names.items()))
    views = [digests.view[sv.slug] for sv in ctx.subjects]
    search_key = key_of(fingerprint, "search", sources, views, names_key)

    def search_index() -> str | Pieces:
        keys = [key_of(fingerprint, digests.view[sv.slug], names_key) for sv in ctx.subjects]
        return spliced_search_index(ctx, segments, keys, names)

    return [
        Job("api/table.json", key, lambda: table_json(table())),
        Job("api/table.csv", key, lambda: table_csv(table())),
        Job("assets/table-data.js", key, lambda: table_data_js(table())),
        Job(SEARCH_INDEX, search_key, search_index),
    ]


def feed_jobs(ctx: SiteContext, fingerprint: str, base_url: str) -> list[Job]:
    """Jobs for ``feeds/``: keyed by each feed's entries, title and links."""
    specs = feeds.site_feed_specs(ctx.events, ctx.subjects, base_url)
    return [Job(path, key_of(fingerprint, path, spec), spec.render) for path, spec in specs.items()]


def chart_jobs(ctx: SiteContext, fingerprint: str) -> list[Job]:
    """A job per chart SVG (``charts.py``), keyed by what it draws; a chart shared by
    several subject pages (a benchmark's) is one file."""
    charts = {c.path: c for sv in ctx.subjects for c in sv.charts}
    return [
        Job(path, key_of(fingerprint, path, c.key()), partial(render_svg, c))
        for path, c in charts.items()
    ]


def asset_jobs() -> list[Job]:
    """Jobs for ``assets/``: copied from ``templates/assets``, keyed by their bytes."""
    jobs = []
    for name in ASSETS:
        data = (templates_dir() / "assets" / name).read_bytes()
        key = hashlib.sha256(data).hexdigest()
        jobs.append(Job(f"assets/{name}", key, partial(bytes, data)))
    return jobs


# A full collection every this many builds (see collector_paused).
FULL_COLLECTION_EVERY = 16
_builds_since_full = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (reference counting still
    frees what it drops), then put what survives out of later automatic collections.

    Why: a build keeps ~10 objects per claim alive (the claim views a next build of the
    process reuses) and each automatic collection re-walks them; at 30,000 claims that
    was ~35 % of a full build's CPU, and the first collections after the block walked
    the ~480,000 kept objects again (0.17-0.22 CPU s after every one-claim rebuild in
    the scheduler's process). So when the block ends, a young-generation collection
    frees this build's few hundred cyclic leftovers and ``gc.freeze()`` moves the
    survivors to the permanent generation (Python docs, gc.freeze); the next build
    unfreezes them first. Cyclic garbage among older objects is freed by a full
    collection every ``FULL_COLLECTION_EVERY`` builds. When the collector was already
    off (``tracker build``, a process about to end) nothing is collected or frozen.
    Inside the block :func:`settle` freezes early what the build has made so far."""
    global _builds_since_full, _settling
    was_enabled = gc.isenabled()
    gc.disable()
    if was_enabled:
        gc.unfreeze()
    _settling = was_enabled
    try:
        yield
    finally:
        _settling = False
        if was_enabled:
            _builds_since_full += 1
            if _builds_since_full >= FULL_COLLECTION_EVERY:
                gc.unfreeze()  # what settle() froze, too
                gc.collect()
                _builds_since_full = 0
            else:
                gc.collect(0)
            gc.freeze()
            gc.enable()


_settling = False  # inside collector_paused with the collector on


def settle() -> None:
    """Freeze (``gc.freeze``) every object made so far, inside :func:`collector_paused`
    with the collector on; else nothing. Called once the database is collected: what
    that made (claim views, rows, the context: ~400,000 objects at 30,000 claims) is
    mostly kept for the next build, and the young collection when the block ends walked
    it all (0.2-0.35 CPU s of a full build, 0.07 of a one-claim rebuild) to free the few
    cycles rendering leaves. A cycle among those objects that dies later in the build
    (a few dozen objects per rebuild) waits for the next full collection."""
    if _settling:
        gc.freeze()


def build_site(
    engine: Engine | RawDB,
    out_dir: Path,
    *,
    now: dt.datetime | None = None,
    base_url: str | None = None,
    cache_dir: Path | None = None,
) -> BuildReport:
    """Build the static site into ``out_dir`` from the database behind ``engine`` (a
    SQLAlchemy engine or a :class:`~claims.store.rawdb.RawDB`: :func:`collect`).

    ``base_url`` (see :func:`resolve_base_url`) makes feed links absolute; pages
    link relatively so the folder works from any path. ``now`` is accepted for a frozen
    clock but pages carry only data times, so a rebuild of unchanged data renders and
    rewrites nothing. Files whose input changed are rendered; the report lists them.
    ``cache_dir`` (a folder outside ``out_dir``; None: none) keeps where each subject's
    part of the big exports lies in the output (``segments.py``), so a build in a new
    process encodes only changed subjects' parts; deleting it only costs time.
    Raises :class:`SiteError` (unsafe path, a file written twice, missing templates, a
    bad slug, an unreadable manifest, or ``cache_dir`` inside ``out_dir``); never writes
    outside ``out_dir`` and ``cache_dir``.
    """
    del now  # pages show data times only (see docstring)
    if cache_dir is not None and is_inside(cache_dir, out_dir):
        raise SiteError(f"build cache {cache_dir} is inside the site folder {out_dir}")
    with collector_paused():
        return _build(engine, out_dir, resolve_base_url(base_url), cache_dir)


def is_inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or below it (both resolved)."""
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


# This process's claim views, kept from one build to the next (claimviews.py).
MEMO = ClaimMemo()


def claim_memo(fingerprint: str) -> ClaimMemo:
    """The process's :class:`ClaimMemo`, started for a build with this
    ``fingerprint`` (a new one when templates or code changed)."""
    global MEMO
    if MEMO.fingerprint != fingerprint:
        MEMO = ClaimMemo(fingerprint)
    MEMO.start_build()
    return MEMO


def clear_build_caches() -> None:
    """Forget everything kept between builds of this process (claim views, fragments,
    compiled templates): the next build costs what a build in a new process does
    (the benchmark's full build and cold rebuild)."""
    global MEMO
    MEMO = ClaimMemo()
    FRAGMENTS.clear()
    environment.cache_clear()


@cache
def environment(fingerprint: str, cache_dir: Path | None = None) -> Environment:
    """The site's Environment for templates and code with this ``fingerprint``: made
    (templates compiled) once per process, so an in-process rebuild (the scheduler's)
    does not compile them again; an edit changes the fingerprint. With a build
    ``cache_dir`` the compiled templates are kept in its ``templates/`` for the next
    process."""
    return make_environment(bytecode_dir=cache_dir / "templates" if cache_dir else None)


def _build(engine: Engine | RawDB, out_dir: Path, base: str, cache_dir: Path | None) -> BuildReport:
    """The build; when a subject's build record cannot stand in for its claim views
    after all (``RecordMiss``: its page must be rendered, a part of the big exports is
    not in the segment cache, the headline benchmarks changed), the build is made again
    with every subject's views. Files the first attempt wrote were rendered from
    complete data, so they are right; the manifest is written only at the end."""
    fingerprint = code_fingerprint(templates_dir())
    records = RecordStore.load(cache_dir, fingerprint) if cache_dir else None
    while True:
        try:
            return _build_with(engine, out_dir, base, cache_dir, fingerprint, records)
        except RecordMiss as miss:
            assert records is not None and records.serve  # only records withhold views
            if miss.subjects and not records.refused:
                log.info("site build: %s; making their claim views", miss)
                records.refused |= miss.subjects
            else:  # a second miss, or one found while rendering
                log.info("site build: %s; making every subject's claim views", miss)
                records.serve = False
            records.made, records.changed = {}, True


def check_served(ctx: SiteContext, todo: list[str]) -> None:
    """Raise ``RecordMiss`` naming every subject served by its build record
    (``records.py``) whose page or JSON file is among the files ``todo`` (to render:
    a benchmark chart or the headline benchmarks changed, the file was deleted), before
    anything is written: the build is then made again with their claim views."""
    served = {sv.slug for sv in ctx.subjects if isinstance(sv.groups, Withheld)}
    if not served:
        return
    todo_set = set(todo)
    stale = frozenset(
        slug
        for slug in served
        if subject_path(slug) in todo_set or f"api/subjects/{slug}.json" in todo_set
    )
    if stale:
        raise RecordMiss(f"{len(stale)} served subjects' files to render", stale)


Plan = list[tuple[Job, Entry | None, bool]]


def write_files(plan: Plan, writer: Writer, segments: Segments) -> dict[str, Entry]:
    """Render and write the files of ``plan`` (job, its last manifest entry, render
    it?) in path order; the others are kept. The manifest entry of every file. From
    :data:`forked.FORK_AT` pages and feeds to render (:func:`forked.in_child_share`),
    where the process may fork (:func:`forked.can_fork`), a forked child and this
    process share them (``forked.py``: this process makes the rest first), and no
    helper writes (two processes for two cores); otherwise from :data:`OFFLOAD_AT`
    files a helper process does the file writes (``Writer.offloaded``)."""
    entries: dict[str, Entry] = {}
    mine: list[tuple[Job, Entry | None]] = []
    tasks: list[forked.Task] = []
    todo = [(job, before) for job, before, render in plan if render]
    pages = sum(1 for job, _ in todo if forked.in_child_share(job.path))
    fork = pages >= forked.FORK_AT and forked.can_fork()
    for job, before, render in plan:
        if not render:
            writer.keep(job.path)
            entries[job.path] = before  # type: ignore[assignment]
        elif fork and forked.in_child_share(job.path):
            tasks.append((job.path, job.render, before is not None))
        else:
            mine.append((job, before))
    keys = {job.path: job.key for job, _ in todo}
    share = forked.forked_share(tasks, writer.out_dir) if tasks else nullcontext()
    offload = not tasks and len(mine) >= OFFLOAD_AT
    with share as child:
        with writer.offloaded([job.path for job, _ in mine]) if offload else nullcontext():
            for job, before in mine:
                # A file no earlier build listed is new: no need to read what is there.
                task = (job.path, job.render, before is not None)
                entries[job.path] = Entry(job.key, render_and_write(task, writer, segments))
        if child is not None:
            while chunk := child.take():  # the pool's tasks the child has not taken
                for task in chunk:
                    try:
                        size = render_and_write(task, writer, segments)
                    except (RecordMiss, SiteError):
                        raise
                    except Exception as exc:  # named as the child names its failures
                        raise forked.failed(task[0], exc) from exc
                    entries[task[0]] = Entry(keys[task[0]], size)
            for path, changed, size in child.outcomes():
                writer.reserve(path)
                writer.count(path, changed)
                segments.wrote(path, size)
                entries[path] = Entry(keys[path], size)
    return entries


def render_and_write(task: forked.Task, writer: Writer, segments: Segments) -> int:
    """Render the file of ``task`` (path, render, compare with the file there?), write
    it, note it in ``segments``; its size in bytes."""
    path, render, compare = task
    data = render()
    payload = data.encode("utf-8") if isinstance(data, str) else data
    writer.write(path, payload, compare=compare)
    segments.wrote(path, len(payload))
    return len(payload)


def _build_with(
    engine: Engine | RawDB,
    out_dir: Path,
    base: str,
    cache_dir: Path | None,
    fingerprint: str,
    records: RecordStore | None,
) -> BuildReport:
    segments = Segments.load(cache_dir, out_dir)
    FRAGMENTS.start_build(segments.take if segments.files else None)
    if records is not None and not segments.complete():
        records.serve = False  # served subjects' parts of the big exports would be missing
    ctx = collect(engine, claim_memo(fingerprint), records)
    settle()
    env = environment(fingerprint, cache_dir)
    attach_fragments(ctx, env)
    kept = records.kept_digests(ctx.subjects) if records is not None else None
    digests = SubjectDigests.of(ctx.subjects, ctx.claim_digests, kept)
    if records is not None:
        records.note_digests(ctx.subjects, digests.row, digests.view)
    jobs: list[Job] = []
    jobs += page_jobs(ctx, env, fingerprint, digests)
    jobs += export_jobs(ctx, fingerprint, digests, segments)
    jobs += feed_jobs(ctx, fingerprint, base)
    jobs += chart_jobs(ctx, fingerprint)
    jobs += asset_jobs()

    out_dir.mkdir(parents=True, exist_ok=True)
    previous = read_manifest(out_dir)
    writer = Writer(out_dir)
    ordered = sorted(jobs, key=lambda j: j.path)
    befores = [previous.get(job.path) for job in ordered]
    same_key = [
        (job.path, before)
        for job, before in zip(ordered, befores, strict=True)
        if before is not None and before.key == job.key
    ]
    there = kept_files(out_dir, same_key)
    # (job, its manifest entry, render it?)
    plan = [
        (job, before, job.path not in there) for job, before in zip(ordered, befores, strict=True)
    ]
    todo = [job.path for job, _, render in plan if render]
    check_served(ctx, todo)
    entries = write_files(plan, writer, segments)
    removed = remove_stale(out_dir, previous, writer.paths)
    writer.write(MANIFEST, manifest_text(entries))
    segments.save()
    if records is not None:
        records.save()
    return BuildReport(
        pages_written=len(writer.written),
        pages_unchanged=len(writer.unchanged),
        out_dir=out_dir,
        pages_removed=removed,
        written_paths=tuple(sorted(writer.written, key=lambda p: (p == MANIFEST, p))),
        pages_rendered=len(todo),
        rendered_paths=tuple(todo),
        parts_spliced=segments.spliced,
    )
