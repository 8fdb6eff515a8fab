"""The site build: collect the database into a context, then render and write ``out_dir``.

Pages, exports and feeds are all rendered from one :class:`SiteContext`; the writer
only rewrites files whose bytes changed and removes files an earlier build made that
this one no longer does (listed in ``.site-manifest.json``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from tracker import feeds
from tracker.website.collect import SiteContext, SubjectView, collect
from tracker.website.exports import exports
from tracker.website.render import make_environment, templates_dir
from tracker.website.writer import SiteError, Writer, safe_join

DEFAULT_BASE_URL = "http://localhost:8000/"
BASE_URL_ENV = "TRACKER_SITE_URL"
MANIFEST = ".site-manifest.json"
ASSETS = ("site.css", "filter.js")
CHANGES_LIMIT = 200


@dataclass(frozen=True)
class BuildReport:
    """What a build did: files rewritten, files left byte-identical, stale files removed."""

    pages_written: int
    pages_unchanged: int
    out_dir: Path
    pages_removed: int = 0
    written_paths: tuple[str, ...] = ()


def _overdue_key(sv: SubjectView) -> tuple[int, str]:
    return (-(sv.weights.overdue_days or -1), sv.subject.name.lower())


def _last_change_key(sv: SubjectView) -> tuple[float, str]:
    ts = sv.last_change.timestamp() if sv.last_change else float("inf")
    return (-ts if sv.last_change else ts, sv.subject.name.lower())


# sort key name -> (label, key function); "name" is index.html itself.
SORTS: dict[str, tuple[str, Callable[[SubjectView], Any]]] = {
    "name": ("Name", lambda sv: sv.subject.name.lower()),
    "weights": ("Weights", lambda sv: (sv.weights.landed, _overdue_key(sv))),
    "overdue": ("Days overdue", _overdue_key),
    "discrepancies": ("Open discrepancies", lambda sv: (-sv.open_discrepancies, sv.slug)),
    "last-change": ("Last change", _last_change_key),
}
FILTERS: dict[str, tuple[str, Callable[[SubjectView], bool]]] = {
    "all": ("All", lambda sv: True),
    "landed": ("Weights landed", lambda sv: sv.weights.landed),
    "not-landed": ("Not landed", lambda sv: not sv.weights.landed),
    "overdue": ("Overdue", lambda sv: bool(sv.weights.overdue_days)),
    "disputed": ("Open discrepancies", lambda sv: sv.open_discrepancies > 0),
}


def resolve_base_url(base_url: str | None = None) -> str:
    """The site's public URL, ending in ``/``: the argument, else ``TRACKER_SITE_URL``,
    else :data:`DEFAULT_BASE_URL` (used for feed ids and links in alerts)."""
    return (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/") + "/"


def index_path(sort: str = "name", only: str = "all") -> str:
    """Stable path of one index view: ``index.html`` or ``index/<sort>-<filter>.html``."""
    return "index.html" if (sort, only) == ("name", "all") else f"index/{sort}-{only}.html"


def render_pages(ctx: SiteContext, base_url: str) -> dict[str, str]:
    """Relative path -> HTML for every page of the site."""
    env = make_environment()
    common = {
        "base_url": base_url,
        "data_as_of": ctx.data_as_of,
        "sorts": {k: v[0] for k, v in SORTS.items()},
        "filters": {k: v[0] for k, v in FILTERS.items()},
        "index_path": index_path,
    }

    def page(template: str, path: str, **values: Any) -> tuple[str, str]:
        root = "../" * path.count("/")
        html = env.get_template(template).render(root=root, page_path=path, **common, **values)
        return path, html

    pages = dict(
        page("index.html", index_path(sort, only), subjects=rows, sort=sort, only=only)
        for sort, (_, key) in SORTS.items()
        for only, (_, keep) in FILTERS.items()
        for rows in [sorted((sv for sv in ctx.subjects if keep(sv)), key=key)]
    )
    for sv in ctx.subjects:
        path, html = page("subject.html", f"subjects/{sv.slug}/index.html", s=sv)
        pages[path] = html
    for template, path, values in (
        ("discrepancies.html", "discrepancies.html", {"discrepancies": ctx.discrepancies}),
        ("sources.html", "sources.html", {"sources": ctx.sources}),
        ("watches.html", "watches.html", {"watches": ctx.watches}),
        ("changes.html", "changes.html", {"events": ctx.events[:CHANGES_LIMIT]}),
    ):
        pages.update([page(template, path, **values)])
    return pages


def build_site(
    engine: Engine,
    out_dir: Path,
    *,
    now: dt.datetime | None = None,
    base_url: str | None = None,
) -> BuildReport:
    """Build the static site into ``out_dir`` from the database behind ``engine``.

    ``base_url`` (see :func:`resolve_base_url`) makes feed links absolute; pages
    link relatively so the folder works from any path. ``now`` is accepted for a frozen
    clock but pages carry only data times, so a rebuild of unchanged data rewrites
    nothing. Raises :class:`SiteError` (unsafe path, a file written twice, missing
    templates or a bad slug); never writes outside ``out_dir``.
    """
    del now  # pages show data times only (see docstring)
    base = resolve_base_url(base_url)
    ctx = collect(engine)
    files: dict[str, str | bytes] = {}
    files.update(render_pages(ctx, base))
    files.update(exports(ctx))
    files.update(feeds.site_feeds(ctx.events, [sv.subject for sv in ctx.subjects], base))
    assets = templates_dir() / "assets"
    for name in ASSETS:
        files[f"assets/{name}"] = (assets / name).read_bytes()

    out_dir.mkdir(parents=True, exist_ok=True)
    writer = Writer(out_dir)
    for relpath in sorted(files):
        writer.write(relpath, files[relpath])
    removed = _remove_stale(out_dir, writer.paths)
    writer.write(MANIFEST, json.dumps(sorted(writer.paths), indent=1) + "\n")
    return BuildReport(
        pages_written=len(writer.written),
        pages_unchanged=len(writer.unchanged),
        out_dir=out_dir,
        pages_removed=removed,
        written_paths=tuple(writer.written),
    )


def _remove_stale(out_dir: Path, keep: set[str]) -> int:
    """Delete files the previous build listed that this build did not produce."""
    manifest = out_dir / MANIFEST
    if not manifest.is_file():
        return 0
    try:
        previous = json.loads(manifest.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SiteError(f"{manifest}: unreadable build manifest ({exc})") from exc
    removed = 0
    for rel in previous:
        if rel in keep or rel == MANIFEST:
            continue
        target = safe_join(out_dir, rel)
        if target.is_file():
            target.unlink()
            removed += 1
    return removed
