"""The "Data as of" line every page's footer has (issue 17, a fresh-user trial).

The time it gives (the latest successful watch check) moves with every check. Written
into every page it made each scheduler rebuild render every page (~3,000 in the
1,000-subject bench), so only the pages whose figures are the table's carry the time
in their HTML (index views, compare, watches: ``PageMaker``'s ``as_of``). Every other
page's footer says "Data as of" with a link to the watches page, where the time is,
and ``assets/as-of.js`` (:func:`as_of_js`, one small file re-written by each build
whose time moved) lets ``assets/site.js`` put the time itself in that link where
JavaScript runs (a script, not a fetch, so it works from ``file://``).
"""

from __future__ import annotations

import datetime as dt
import json

from claims.values.timefmt import iso_z, utc_minute

AS_OF_SCRIPT = "assets/as-of.js"


def as_of_js(data_as_of: dt.datetime | None) -> str:
    """``assets/as-of.js``: ``window.TRACKER_AS_OF={"data_as_of":"2026-11-28T06:00:00Z",
    "text":"2026-11-28 06:00 UTC"}`` (UTC; both null/empty before any successful
    check), for the footer's words (``base.html``)."""
    data = {"data_as_of": iso_z(data_as_of) or None, "text": utc_minute(data_as_of, "")}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return "window.TRACKER_AS_OF=" + text.replace("</", "<\\/") + ";\n"
