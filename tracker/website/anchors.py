"""Stable anchors of the site's pages: where a feed entry or an alert points.

An anchor is made from a content key (claims and discrepancies are keyed by sha256,
``claims.store.tables``), so an event's stored ``detail`` alone says where it points:
feeds (``feeds.py``) and alerts (``tracker.alerts.send``) need no database lookup, and
a rebuild never moves an anchor. Pages also keep the older ``claim-<id>`` and
``d<id>`` ids.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

KEY_CHARS = 12  # 48 bits of a sha256: unique among any site's claims in practice
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _short(key: str) -> str:
    """The first 12 hex digits of a sha256 key; a key of another shape (hand-made test
    or imported rows) is hashed first, so two such keys never share an anchor."""
    if not _SHA256.fullmatch(key):
        key = hashlib.sha256(key.encode()).hexdigest()
    return key[:KEY_CHARS]


def claim_anchor(key: str) -> str:
    """``c-<first 12 hex of the claim's key>`` (the id of its row on the subject page)."""
    return f"c-{_short(key)}"


def discrepancy_anchor(key: str) -> str:
    """``d-<first 12 hex of the discrepancy's key>`` (on discrepancies.html)."""
    return f"d-{_short(key)}"


def observed_anchor(attribute: str) -> str:
    """``observed-<attribute>``: the first Observed row of an attribute."""
    return f"observed-{attribute}"


WEIGHTS_ANCHOR = "weights"  # the summary card's weights line


def event_target(kind: str, detail: dict[str, Any], slug: str | None) -> str:
    """Site-relative link of an event (``subjects/<slug>/#c-…``, ``discrepancies.html#d-…``,
    ``changes.html``) from its kind and stored ``detail`` (``claims.events``):
    a verdict change points at its claim, a discrepancy event at the discrepancy, a
    weights or licence event at the weights line, an observed change at the attribute's
    Observed row; anything else at the subject page (``changes.html`` without one)."""
    page = f"subjects/{slug}/" if slug else "changes.html"
    claim, disc = detail.get("claim"), detail.get("discrepancy")
    if slug and kind == "verdict_changed" and isinstance(claim, str) and claim:
        return f"{page}#{claim_anchor(claim)}"
    if kind.startswith("discrepancy_") and isinstance(disc, str) and disc:
        return f"discrepancies.html#{discrepancy_anchor(disc)}"
    if not slug:
        return page
    if kind in ("weights_landed", "subject_discovered", "license_changed") or detail.get("repo"):
        return f"{page}#{WEIGHTS_ANCHOR}"
    attribute = detail.get("attribute")
    if isinstance(attribute, str) and attribute:
        return f"{page}#{observed_anchor(attribute)}"
    return page
