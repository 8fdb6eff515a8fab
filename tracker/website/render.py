"""Site stage 2 helper: the one Jinja2 Environment and its filters, registered here.

Autoescape is on for every template and ``StrictUndefined`` turns a misspelt name
into an error instead of an empty cell.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

import tracker
from claims.events import event_label
from claims.values.canonical import as_utc
from claims.values.timefmt import iso_z, utc_minute
from claims.vocabulary import attribute_label, rule_label
from tracker.website.summary import promise_groups, short_text
from tracker.website.views import TECHNICAL_READINGS, SiteContext
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


def short_hash(sha: str | None) -> str:
    """First 12 hex digits of a sha256 (the full one goes in ``title``)."""
    return (sha or "")[:12]


def http_url(url: str | None) -> str:
    """``url`` when it is http(s), else ``""``: a scraped ``javascript:`` or ``data:``
    URL never becomes a link."""
    if not url:
        return ""
    return url if urlsplit(url.strip()).scheme.lower() in ("http", "https") else ""


_GITHUB_HOSTS = ("github.com", "raw.githubusercontent.com")


def url_site(url: str | None) -> str:
    """The site a URL is on, as people name it: ``openrouter.ai`` (``www.`` dropped); a
    file on GitHub names its repository, ``github.com/BerriAI/litellm``, whose data it
    is. Empty for a URL that is not http(s)."""
    parts = urlsplit(http_url(url))
    host = (parts.hostname or "").removeprefix("www.")
    repo = [p for p in parts.path.split("/") if p][:2]
    if host in _GITHUB_HOSTS and len(repo) == 2:
        return "github.com/" + "/".join(repo)
    return host


def plural(n: int, word: str) -> str:
    """``1 day``, ``3 days``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# A verdict's symbol beside its word and colour, so no state is told by colour alone.
VERDICT_MARKS: dict[str, str] = {
    "confirmed": "✓",
    "contradicted": "✗",
    "disputed": "≠",
    "overdue": "!",
    "pending": "…",
    "unverified": "?",
    "observed": "○",  # not a verdict: a watch read it and no claim states it
}
# What each mark means, in the order the index's legend lists them ("none": a claim not
# verified yet, shown as ``·``).
MARK_MEANINGS: dict[str, str] = {
    "confirmed": "confirmed: a watch observed the figure",
    "contradicted": "contradicted: an observation disagrees",
    "disputed": "disputed: sources disagree and nothing observed settles it",
    "overdue": "overdue: the promised date has passed",
    "pending": "pending: the promised date has not come yet",
    "unverified": "unverified: no watch observes this figure",
    "none": "no verdict yet",
    "observed": "observed only: a watch read it, no claim states it",
}


def verdict_mark(status: str | None) -> str:
    """The symbol of a verdict status (:data:`VERDICT_MARKS`); ``·`` for none or unknown."""
    return VERDICT_MARKS.get(status or "", "·")


# Filters, not macros, for what a page shows per claim: a Jinja macro call costs ~20x a
# filter call, and a large site renders 30,000 claims.
def badge(status: str | None) -> Markup:
    """A verdict as a badge: its symbol and word, never colour alone; "no verdict yet"
    without one."""
    if not status:
        return Markup('<span class="verdict verdict-none">no verdict yet</span>')
    s = escape(status)
    return Markup(
        f'<span class="verdict verdict-{s}"><span aria-hidden="true">{verdict_mark(status)}'
        f"</span> {s}</span>"
    )


def when(moment: dt.datetime | None) -> Markup:
    """``<time datetime="…Z">2026-11-29 14:05 UTC</time>``; ``—`` for None."""
    if not moment:
        return Markup("—")
    return Markup(f'<time datetime="{iso_z(moment)}">{utc_text(moment)}</time>')


def published(src: Any) -> Markup:
    """A source's publication date as known (``SourceInfo.published_label``); an
    estimated one ("c. 2026-10-27") explained on hover and to screen readers."""
    label = src.published_label
    if src.published_precision == "estimated" and label:
        return Markup(
            '<abbr title="circa: an estimated date, the source shows no exact publication '
            f'date">{escape(label)}</abbr>'
        )
    return Markup(escape(label or "—"))


# What a line must not break inside (Chromium breaks "2026-11-04" after a hyphen): a
# date (2026-11-04, 2026-11, not part of a longer token) or a short price figure
# ("$2.00 / 1M"; "$2.00 per 1M tokens" may wrap between its words).
UNBROKEN = re.compile(r"(?<![\w-])\d{4}-\d{2}(?:-\d{2})?(?![\w-])|\$\d[\d,.]* ?/ ?1M\b")


def nobreak(text: Any) -> Markup:
    """Plain ``text`` escaped, with each date and short price figure (:data:`UNBROKEN`) in a
    ``<span class="nobr">`` (``white-space: nowrap``), so a phone never shows "2026-11-" /
    "04"; text already Markup is returned as it is (its dates may sit in attributes)."""
    if isinstance(text, Markup):
        return text
    s = str(escape(text))
    if "-" not in s and "/" not in s:
        return Markup(s)
    return Markup(UNBROKEN.sub(lambda m: f'<span class="nobr">{m.group(0)}</span>', s))


FILTERS: dict[str, Any] = {
    "verdict_mark": verdict_mark,
    "nobreak": nobreak,
    "badge": badge,
    "when": when,
    "published": published,
    "short_text": short_text,
    "promise_groups": promise_groups,  # a figure without its unit words (summary.short_text)
    "utc": utc_text,
    "utc_date": utc_date,
    "isoz": iso_z,
    "short_hash": short_hash,
    "plural": plural,
    "http_url": http_url,
    "url_site": url_site,
    "reading_note": TECHNICAL_READINGS.__getitem__,  # what a technical reading is
    # `benchmark_score` -> "Benchmark score"; rule names -> what they mean (one mapping,
    # claims/vocabulary.py, shared with the CLI); event kinds likewise (claims/events.py)
    "attribute_label": attribute_label,
    "rule_label": rule_label,
    "event_label": event_label,
}


def make_environment(path: Path | None = None) -> Environment:
    """The site's Environment: autoescape on for all templates, StrictUndefined,
    filters from :data:`FILTERS`, trailing newlines kept, blocks trimmed; templates are
    compiled once and not re-checked on disk (an Environment serves one build)."""
    env = Environment(
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
    return env


def attach_fragments(ctx: SiteContext, env: Environment) -> None:
    """Render fragments that many pages share once, before pages are keyed: each
    source's link (``_macros.html`` ``source_link``), shown beside each of its claims."""
    macros = env.get_template("_macros.html").module
    for sv in ctx.sources:  # claims share these SourceInfo objects
        sv.source.link = macros.source_link(sv.source)  # type: ignore[attr-defined]
