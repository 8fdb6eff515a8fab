"""An alert's wording (tracker/alerts/send.py ``compose``): each thing said once."""

from __future__ import annotations

import datetime as dt
import json

from claims.store.tables import Event
from tracker.alerts.send import beyond_title, compose, compose_digest

TITLE = (
    "Quillon 9B: weights available on Hugging Face (brightfern/Quillon-9B); licence "
    "cc-by-nc-4.0, gated (manual); on time for before 2026-12-15"
)
SUMMARY = (
    "brightfern/Quillon-9B: first seen 2026-12-02 03:00 UTC (the check before 2026-12-01 "
    "09:00 UTC); licence cc-by-nc-4.0, gated (manual); on time for before 2026-12-15"
)


def _landing() -> Event:
    detail = {"repo": "brightfern/Quillon-9B", "summary": SUMMARY,
              "url": "https://huggingface.co/brightfern/Quillon-9B"}  # fmt: skip
    return Event(
        id=1, kind="weights_landed", title=TITLE, detail_json=json.dumps(detail),
        created_at=dt.datetime(2026, 12, 2, 3, 0, tzinfo=dt.UTC), key="k",
    )  # fmt: skip


def test_the_landing_alert_says_licence_and_lateness_once():
    """The trial's digest read "...licence cc-by-nc-4.0, gated (manual); on time for
    before 2026-12-15 — brightfern/Quillon-9B: first seen ...; licence cc-by-nc-4.0,
    gated (manual); on time for before 2026-12-15"."""
    one = compose(_landing(), None, "https://t.example/")
    assert one.text == "first seen 2026-12-02 03:00 UTC (the check before 2026-12-01 09:00 UTC)"
    digest = compose_digest([_landing(), _landing()], "https://t.example/")
    first = digest.text.splitlines()[0]
    assert (
        first
        == f"- {TITLE} — first seen 2026-12-02 03:00 UTC (the check before 2026-12-01 09:00 UTC)"
    )
    assert first.count("cc-by-nc-4.0") == 1


def test_beyond_title_keeps_what_the_title_lacks():
    assert beyond_title("A (repo/x); licence mit", "repo/x: licence mit") == ""
    assert beyond_title("A: old -> new", "was old; now new") == "was old; now new"
