"""Canonical JSON and UTC helpers shared by the ORM models and the lean cycle store.

Kept free of SQLAlchemy/SQLModel imports so a watch cycle process can use them
without loading the ORM (issue 7: start-up time and memory).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any


def utcnow() -> dt.datetime:
    """Aware UTC now, microseconds dropped (stable text in feeds and keys)."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def as_utc(t: dt.datetime) -> dt.datetime:
    """Aware UTC: SQLite hands datetimes back naive, and the database only holds UTC."""
    return t.replace(tzinfo=dt.UTC) if t.tzinfo is None else t.astimezone(dt.UTC)


def dumps(obj: Any) -> str:
    """Canonical JSON (sorted keys, no spaces) used for stored JSON and content keys."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
