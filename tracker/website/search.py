"""Search over the built site: a prebuilt index that a small script filters.

Why not Pagefind: it needs Node (or its binary) at build time, and ``make demo`` /
``make test`` must run on a machine with only Python 3.11+; and its index is fetched
with ``fetch()``, which browsers refuse from ``file://``. So the build writes the index
as a script (``assets/search-index.js`` sets ``window.TRACKER_SEARCH``), loaded by
``search.html`` with a ``<script>`` tag, which works from a folder and from a server.
Without JavaScript ``search.html`` lists every subject and source (the browser's find
works on it); ``assets/site.js`` filters the entries by every word of ``?q=``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from claims.vocabulary import labelled_value
from tracker.website.marks import VERDICT_MARKS, verdict_mark
from tracker.website.subjectrefs import named_quals_text
from tracker.website.views import SiteContext, SourceView, SubjectView

# An entry is a list, not an object: the index holds every claim (30,000 on a large
# site), and keys repeated per entry were half its bytes.
# [kind, name shown, site-relative link, detail shown, more words searched (optional)];
# kind: "s" subject, "c" claim, "o" source. The script searches name + detail + more.
# A claim's fifth item is its verdict's mark (``✓``; ``·`` for none: marks.py), which
# ``window.TRACKER_MARKS`` (in the same file) turns into the word shown and searched
# beside it: one character per claim, not a word (a contradicted and a confirmed 65.7%
# must not look the same). A claim's sixth item is its source's title, shown after the
# detail but NOT searched: a claim matches on its own text and its subject's words (name,
# organisation, aliases, slug, variants), which the script takes from the subject entry
# the claim's entries follow (every subject's part starts with it); a title is searched
# in the source's own entry. ("K3.1 Pro" found Kimi K3's claims cited from an article
# titled about K3.1 Pro: a fresh-user trial.)
Entry = list[str]


def subject_entries(sv: SubjectView, names: Mapping[str, str] | None = None) -> list[Entry]:
    """One subject's entries: the subject (name, organisation, aliases; its slug and
    variants searched too) and, after it, one per claim, linked to the claim's anchor
    (detail: qualifiers and claimant; then its mark and its source's title). ``names``
    (slug -> display name) shows a ``relative to: kimi-k3`` qualifier as ``relative to:
    Kimi K3``, as the subject page does (subjectrefs.py)."""
    page = f"subjects/{sv.slug}/index.html"
    detail = " · ".join(x for x in (sv.organization, ", ".join(sv.other_names())) if x)
    out: list[Entry] = [["s", sv.name, page, detail, " ".join([sv.slug, *sv.variants])]]
    for attribute, claims in sv.groups:
        for cv in claims:
            quals = named_quals_text(cv.qualifiers, names)
            shown = " · ".join(x for x in (quals, cv.claimant) if x)
            mark = verdict_mark(cv.verdict.status if cv.verdict else None)
            name = f"{sv.name}: {labelled_value(attribute, cv.value)}"
            out.append(["c", name, f"{page}#{cv.anchor}", shown, mark, cv.source.title or ""])
    return out


def source_entry(sv: SourceView) -> Entry:
    """A source's entry, linked to its row on ``sources.html`` (its key searched too)."""
    src = sv.source
    detail = " · ".join(x for x in (src.publisher, src.url or "no URL on record") if x)
    return ["o", src.title, f"sources.html#source-{src.key}", detail, src.key]


def search_index_js(ctx: SiteContext) -> str:
    """``assets/search-index.js``: ``window.TRACKER_SEARCH = [...]`` (subjects, their
    claims, sources; compact JSON, ``</`` escaped so the text never closes a tag)."""
    names = {sv.slug: sv.name for sv in ctx.subjects}
    parts = [subject_entries_json(sv, names) for sv in ctx.subjects]
    return search_index_from(parts, ctx.sources)


def subject_entries_json(sv: SubjectView, names: Mapping[str, str] | None = None) -> str:
    """:func:`subject_entries` as compact JSON items without the list's brackets, with
    ``</`` escaped (as in the script: the file is these parts joined, see
    :func:`search_index_from`)."""
    return _script_safe(_compact(subject_entries(sv, names))[1:-1])


def search_index_from(subject_parts: list[str], sources: list[SourceView]) -> str:
    """:func:`search_index_js` from each subject's :func:`subject_entries_json` (a
    build keeps those of unchanged subjects) and the sources. Escaping each part is
    escaping the whole: a part starts with ``[`` and ends with ``]``, so no ``</``
    spans two parts or a part and the ``,`` / brackets around it."""
    parts = [p for p in subject_parts if p]
    if sources:
        parts.append(_script_safe(_compact([source_entry(sv) for sv in sources])[1:-1]))
    return MARKS_JS + "window.TRACKER_SEARCH=[" + ",".join(parts) + "];\n"


def _marks_js() -> str:
    """``window.TRACKER_MARKS={"✓":"confirmed",...,"·":""}``: a claim entry's mark to
    its verdict word (the status, as the site's badges say it; "" for no verdict yet)."""
    marks = {mark: status for status, mark in VERDICT_MARKS.items() if status != "observed"}
    return "window.TRACKER_MARKS=" + _compact({**marks, verdict_mark(None): ""}) + ";\n"


def _script_safe(text: str) -> str:
    """``text`` with ``</`` written ``<\\/`` (the same JSON), so it never ends a script."""
    return text.replace("</", "<\\/")


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def table_data_js(table: dict[str, Any]) -> str:
    """``assets/table-data.js``: ``window.TRACKER_TABLE = <api/table.json>`` for the
    compare page (a script, not a fetch, so it works from ``file://``)."""
    text = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    return "window.TRACKER_TABLE=" + text.replace("</", "<\\/") + ";\n"


MARKS_JS = _marks_js()
