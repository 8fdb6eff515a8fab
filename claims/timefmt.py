"""The one way people read a time in this project: ``2026-11-28 06:00 UTC`` (UTC, to the
minute), in the CLI, on the site, in alerts and in verdict reasons. Machine output
(``--json``, exports, feeds) keeps ISO 8601 instead."""

from __future__ import annotations

import datetime as dt


def utc_minute(moment: dt.datetime | None, missing: str = "") -> str:
    """``2026-11-28 06:00 UTC`` for an aware or naive (= UTC, as SQLite hands datetimes
    back) datetime; ``missing`` for None."""
    if moment is None:
        return missing
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return f"{moment.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC"
