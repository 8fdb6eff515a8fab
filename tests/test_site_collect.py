"""What the site reads from the database into its views (tracker/website/collect.py)."""

from __future__ import annotations

import datetime as dt
import json

from claims.store.rows import EventRow
from tracker.website.collect import found_settled_keys

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)


def _event(n: int, kind: str, **detail) -> EventRow:
    return EventRow(n, f"e{n}", kind, "subscriber", 1, None, "t", json.dumps(detail), AT)


def test_found_settled_discrepancies_are_those_never_opened():
    events = [
        _event(1, "discrepancy_resolved", discrepancy="aa", found_settled=True),
        _event(2, "discrepancy_resolved", discrepancy="bb"),  # opened, then resolved
        _event(3, "discrepancy_opened", discrepancy="bb"),
        _event(4, "discrepancy_resolved", discrepancy="cc", found_settled=True),
        _event(5, "discrepancy_opened", discrepancy="cc"),  # reopened later
    ]
    assert found_settled_keys(events) == {"aa"}
