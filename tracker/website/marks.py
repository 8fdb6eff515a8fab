"""Small markup shared by templates and Python-written HTML (``claimhtml.py``,
``cardhtml.py``): escaping, a verdict's mark and badge, a time, a source's publication
date, safe links (registered as filters by ``render.py``).
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup, escape

from claims.values.timefmt import iso_z, utc_minute

# A verdict's symbol beside its word and colour, so no state is told by colour alone.
VERDICT_MARKS: dict[str, str] = {
    "confirmed": "✓",
    "contradicted": "✗",
    "disputed": "≠",
    "overdue": "!",
    "pending": "…",
    "unverified": "?",
    "observed": "○",  # not a verdict: the figure shown is observed and no claim confirms it
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
    # the rule the cell's tooltip states too: claims may state another figure (and be
    # contradicted by this one), none confirms it
    "observed": "observed: the figure shown was read by a watch; no claim confirms it",
}

# Weights not (yet) on the Hub: a state, not a verdict, so a mark no verdict uses (the
# index once showed "✗ not landed" beside a legend where ✗ means contradicted); shown with
# its word, told apart by shape, not colour.
NOT_LANDED_MARK = "□"
NOT_LANDED_MEANING = "not landed: no weights on the Hub at the last check (a state, not a verdict)"


def verdict_mark(status: str | None) -> str:
    """The symbol of a verdict status (:data:`VERDICT_MARKS`); ``·`` for none or unknown."""
    return VERDICT_MARKS.get(status or "", "·")


# Filters, not macros, for what a page shows per claim: a Jinja macro call costs ~20x a
# filter call, and a large site renders 30,000 claims.
@lru_cache(maxsize=256)  # a page shows a badge per fact; statuses are a handful
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
    return Markup(f'<time datetime="{iso_z(moment)}">{utc_minute(moment)}</time>')


def published(src: Any) -> Markup:
    """A source's publication date as known (``SourceInfo.published_label``); an
    estimated one ("c. 2026-10-27") explained on hover and to screen readers."""
    return _published(src.published_label, src.published_precision)


@lru_cache(maxsize=4096)  # a page shows it per claim; sources are a few hundred
def _published(label: str | None, precision: str | None) -> Markup:
    if precision == "estimated" and label:
        return Markup(
            '<abbr title="circa: an estimated date, the source shows no exact publication '
            f'date">{escape(label)}</abbr>'
        )
    return Markup(escape(label or "—"))


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


def esc(text: Any) -> str:
    """``str(markupsafe.escape(text))``: ``& < > ' "`` as ``&amp; &lt; &gt; &#39; &#34;``;
    a ``Markup`` (already safe), a number or None as ``escape`` gives them. A plain
    ``str`` without those characters (most texts) is returned as is, without the
    ``Markup`` that ``escape`` makes: a tenth of its cost."""
    if text.__class__ is not str:
        return str(escape(text))
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return (
            text.replace("&", "&amp;")
            .replace(">", "&gt;")
            .replace("<", "&lt;")
            .replace("'", "&#39;")
            .replace('"', "&#34;")
        )
    return text


# What a line must not break inside (Chromium breaks "2026-11-04" after a hyphen): a
# date (2026-11-04, 2026-11, not part of a longer token) or a short price figure
# ("$2.00 / 1M"; "$2.00 per 1M tokens" may wrap between its words).
UNBROKEN = re.compile(r"(?<![\w-])\d{4}-\d{2}(?:-\d{2})?(?![\w-])|\$\d[\d,.]* ?/ ?1M\b")


@lru_cache(maxsize=8192)
def _unbroken(s: str) -> str:
    """``s`` (escaped) with its :data:`UNBROKEN` pieces wrapped; cached, as a large site
    repeats its reasons (a substitution costs ~4 µs, a cache hit a tenth of one)."""
    return UNBROKEN.sub(r'<span class="nobr">\g<0></span>', s)


def nobreak_html(text: Any) -> str:
    """Plain ``text`` escaped (:func:`esc`), with each date and short price figure
    (:data:`UNBROKEN`) in a ``<span class="nobr">`` (``white-space: nowrap``), so a phone
    never shows "2026-11-" / "04"; a ``Markup`` is returned as it is (its dates may sit
    in attributes)."""
    if isinstance(text, Markup):
        return str(text)
    s = esc(text)
    if "-" not in s and "/" not in s:
        return s
    return _unbroken(s)


def nobreak(text: Any) -> Markup:
    """:func:`nobreak_html` as ``Markup`` (the ``nobreak`` filter)."""
    return text if isinstance(text, Markup) else Markup(nobreak_html(text))


def plural(n: int, word: str) -> str:
    """``1 claim``, ``3 claims`` (the ``plural`` filter)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# Where a URL may break on a narrow column: after a "/" (not the scheme's "//"), "?", "&"
# and "=" (where a browser may break itself), and before "." and "_" (a browser breaks
# after "-" itself), so no segment is cut mid-word.
_URL_BREAK = re.compile(r"(?<=[^:/]/)|(?<=[?&=])|(?=[._])")


def url_breaks(url: Any) -> Markup:
    """``url`` escaped, with ``<wbr>`` where it may break (:data:`_URL_BREAK`), for a
    link's text in a narrow column (watches.html): ``https://huggingface.co/<wbr>api…``."""
    parts = _URL_BREAK.split(str(url))
    return Markup("<wbr>").join(escape(p) for p in parts if p)


_URL_IN_TEXT = re.compile(r"https?://\S+")


def text_url_breaks(text: Any) -> Markup:
    """``text`` escaped, each http(s) URL in it with ``<wbr>`` (:func:`url_breaks`): an
    error text in a narrow column breaks its URLs at "/" and ".", not mid-word."""
    s, out, at = str(text), [], 0
    for m in _URL_IN_TEXT.finditer(s):
        out += [escape(s[at : m.start()]), url_breaks(m.group())]
        at = m.end()
    out.append(escape(s[at:]))
    return Markup("").join(out)


# A local file path in an error text: absolute (``/home/u/x.har``, ``C:\\x.har``, ``~/x``),
# ``./``/``../``-relative, or a relative one ending in a file type the tracker reads.
# Only its last part is shown: the path is the user's machine, the site may be public.
_LOCAL_PATH = re.compile(
    r"""(?<![^\s'"(=])"""
    r"(?:(?:~|\.{1,2})?[/\\]|[A-Za-z]:[/\\])(?:[^\s/\\'\")]+[/\\])*([^\s/\\'\")]+)"
    r"""|(?<![^\s'"(=])(?:[\w.-]+/)+([\w.-]+\.(?:har|json|toml|db|sqlite|html|txt|csv|ya?ml|gz))\b"""
)


def public_error(text: str) -> str:
    """An error text with every local file path (:data:`_LOCAL_PATH`) cut to its file
    name: ``GET https://x.org/a is not recorded in ../new.har`` -> ``… in new.har``;
    URLs are left as they are."""
    return _LOCAL_PATH.sub(lambda m: m.group(1) or m.group(2), text)
