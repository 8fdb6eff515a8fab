"""Site stage 2 helper: the one Jinja2 Environment and its filters, registered here.

Autoescape is on for every template and ``StrictUndefined`` turns a misspelt name
into an error instead of an empty cell.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined

import tracker
from claims.events import event_label
from claims.values.canonical import as_utc
from claims.values.timefmt import iso_z, utc_minute
from claims.vocabulary import attribute_label, rule_label
from tracker.website.cardhtml import card_rows
from tracker.website.claimhtml import claims_by_fact, source_claim_items
from tracker.website.marks import (
    MARK_MEANINGS,
    NOT_LANDED_MARK,
    NOT_LANDED_MEANING,
    badge,
    http_url,
    nobreak,
    plural,
    published,
    text_url_breaks,
    url_breaks,
    url_site,
    verdict_mark,
    when,
)
from tracker.website.summary import promise_brief, promise_groups, short_text
from tracker.website.views import TECHNICAL_READINGS, SiteContext, unlinked_sources
from tracker.website.writer import SiteError


def templates_dir() -> Path:
    """``templates/`` beside the ``tracker`` package (a checkout or an editable install).

    Raises :class:`SiteError` when it is missing (e.g. a non-editable wheel install).
    """
    path = Path(tracker.__file__).resolve().parent.parent / "templates"
    if not (path / "base.html").is_file():
        raise SiteError(f"site templates not found at {path}; install from a checkout (pip -e)")
    return path


def utc_text(moment: dt.datetime | None) -> str:
    """``2026-11-29 14:05 UTC`` (empty for None): :func:`claims.values.timefmt.utc_minute`."""
    return utc_minute(moment)


def utc_date(moment: dt.datetime | None) -> str:
    """``2026-11-29`` (empty for None)."""
    return as_utc(moment).strftime("%Y-%m-%d") if moment else ""


def utc_time(moment: dt.datetime | None) -> str:
    """``14:05 UTC`` (empty for None): the time part of :func:`utc_text`."""
    return as_utc(moment).strftime("%H:%M UTC") if moment else ""


def short_hash(sha: str | None) -> str:
    """First 12 hex digits of a sha256 (the full one goes in ``title``)."""
    return (sha or "")[:12]


FILTERS: dict[str, Any] = {
    "verdict_mark": verdict_mark,
    "badge": badge,
    "when": when,
    "nobreak": nobreak,
    "published": published,
    "claims_by_fact": claims_by_fact,
    "card_rows": card_rows,
    "source_claim_items": source_claim_items,
    "short_text": short_text,
    "promise_brief": promise_brief,  # the index's "promised …" (sources disagreeing said so)
    "promise_groups": promise_groups,  # a figure without its unit words (summary.short_text)
    "utc": utc_text,
    "utc_date": utc_date,
    "utc_time": utc_time,
    "isoz": iso_z,
    "short_hash": short_hash,
    "plural": plural,
    "http_url": http_url,
    "url_site": url_site,
    "url_breaks": url_breaks,  # a URL's text with <wbr> at "/" and ".", for narrow columns
    "text_url_breaks": text_url_breaks,  # the same for every URL in a text
    "reading_note": TECHNICAL_READINGS.__getitem__,  # what a technical reading is
    # `benchmark_score` -> "Benchmark score"; rule names -> what they mean (one mapping,
    # claims/vocabulary.py, shared with the CLI); event kinds likewise (claims/events.py)
    "attribute_label": attribute_label,
    "rule_label": rule_label,
    "event_label": event_label,
}


def make_environment(path: Path | None = None, bytecode_dir: Path | None = None) -> Environment:
    """The site's Environment: autoescape on for all templates, StrictUndefined,
    filters from :data:`FILTERS`, trailing newlines kept, blocks trimmed; templates are
    compiled once and not re-checked on disk (an Environment serves one build).
    ``bytecode_dir`` (created if missing) keeps the compiled templates for the next
    process (Jinja's ``FileSystemBytecodeCache``: an entry is used only for the same
    template source, Jinja and Python version)."""
    cache = None
    if bytecode_dir is not None:
        bytecode_dir.mkdir(parents=True, exist_ok=True)
        cache = FileSystemBytecodeCache(str(bytecode_dir))
    env = Environment(
        bytecode_cache=cache,
        loader=FileSystemLoader(str(path or templates_dir())),
        autoescape=True,
        auto_reload=False,  # one build: no mtime check on every get_template
        cache_size=-1,  # keep every template compiled (there are a handful)
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(FILTERS)
    env.globals["mark_meanings"] = MARK_MEANINGS
    env.globals["not_landed_mark"] = (NOT_LANDED_MARK, NOT_LANDED_MEANING)
    env.globals["unlinked_sources"] = unlinked_sources
    return env


def attach_fragments(ctx: SiteContext, env: Environment) -> None:
    """Render fragments that many pages share once, before pages are keyed: each
    source's link (``_macros.html`` ``source_link``), shown beside each of its claims."""
    macros = env.get_template("_macros.html").module
    # other subjects' names, for a claim relative to one (tracker/website/subjectrefs.py)
    env.globals["subject_names"] = {sv.slug: sv.name for sv in ctx.subjects}
    for sv in ctx.sources:  # claims share these SourceInfo objects
        sv.source.link = macros.source_link(sv.source)  # type: ignore[attr-defined]
