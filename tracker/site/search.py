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
from typing import Any

from claims.vocabulary import attribute_label
from tracker.site.views import SiteContext, SourceView, SubjectView


def subject_entries(sv: SubjectView) -> list[dict[str, str]]:
    """One subject's entries: the subject (name, slug, organisation, aliases, variants)
    and one per claim (linked to its anchor). Keys: ``k`` kind, ``n`` name shown, ``u``
    site-relative link, ``d`` detail shown, ``t`` the text searched."""
    page = f"subjects/{sv.slug}/index.html"
    about = " ".join([sv.name, sv.slug, sv.organization or "", *sv.aliases, *sv.variants])
    out = [
        {
            "k": "subject",
            "n": sv.name,
            "u": page,
            "d": " · ".join(x for x in (sv.organization, ", ".join(sv.aliases)) if x),
            "t": about,
        }
    ]
    for attribute, claims in sv.groups:
        label = attribute_label(attribute)
        for cv in claims:
            src = cv.source
            out.append(
                {
                    "k": "claim",
                    "n": f"{sv.name}: {label} {cv.value}",
                    "u": f"{page}#{cv.anchor}",
                    "d": " · ".join(x for x in (cv.qualifiers, cv.claimant, src.title) if x),
                    # the subject by name only: "Moonshot" finds the subjects, not every
                    # claim of theirs (a claimant named Moonshot AI still matches)
                    "t": " ".join(
                        x
                        for x in (sv.name, label, cv.value, cv.qualifiers, cv.claimant, src.title)
                        if x
                    ),
                }
            )
    return out


def source_entry(sv: SourceView) -> dict[str, str]:
    """A source's entry, linked to its row on ``sources.html``."""
    src = sv.source
    return {
        "k": "source",
        "n": src.title,
        "u": f"sources.html#source-{src.key}",
        "d": " · ".join(x for x in (src.publisher, src.url or "no URL on record") if x),
        "t": " ".join(x for x in (src.title, src.key, src.publisher, src.url) if x),
    }


def search_index_js(ctx: SiteContext) -> str:
    """``assets/search-index.js``: ``window.TRACKER_SEARCH = [...]`` (subjects, their
    claims, sources; compact JSON, ``</`` escaped so the text never closes a tag)."""
    entries: list[dict[str, Any]] = []
    for sv in ctx.subjects:
        entries += subject_entries(sv)
    entries += [source_entry(sv) for sv in ctx.sources]
    text = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    return "window.TRACKER_SEARCH=" + text.replace("</", "<\\/") + ";\n"


def table_data_js(table: dict[str, Any]) -> str:
    """``assets/table-data.js``: ``window.TRACKER_TABLE = <api/table.json>`` for the
    compare page (a script, not a fetch, so it works from ``file://``)."""
    text = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    return "window.TRACKER_TABLE=" + text.replace("</", "<\\/") + ";\n"
