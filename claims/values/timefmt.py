"""The two ways this project writes a time.

People read ``2026-11-28 06:00 UTC`` (UTC, to the minute: :func:`utc_minute`), in the
CLI, on the site, in alerts and in verdict reasons. Machine output (every ``--json``,
the site's exports) reads ``2026-11-28T06:00:00Z`` (RFC 3339, UTC, seconds:
:func:`iso_z`). Stored event details keep whatever they were written with; readers
accept both ``Z`` and ``+00:00``."""

from __future__ import annotations

import datetime as dt

from claims.values.canonical import as_utc


def utc_minute(moment: dt.datetime | None, missing: str = "") -> str:
    """``2026-11-28 06:00 UTC`` for an aware or naive (= UTC, as SQLite hands datetimes
    back) datetime; ``missing`` for None."""
    if moment is None:
        return missing
    return f"{as_utc(moment):%Y-%m-%d %H:%M} UTC"


def iso_z(moment: dt.datetime | None) -> str:
    """RFC 3339 text in UTC with a ``Z`` offset, seconds precision (fractions dropped):
    ``2026-11-29T14:05:00Z``. Aware datetimes are converted to UTC, naive ones are taken
    as UTC. ``""`` for None (JSON writers use ``iso_z(t) or None`` for a null)."""
    if moment is None:
        return ""
    return as_utc(moment).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
