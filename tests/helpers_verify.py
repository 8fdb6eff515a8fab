"""Builders for verification tests: claim and observation views in the stored formats."""

from __future__ import annotations

import datetime as dt
from typing import Any

from claims.facts import ClaimView, ObsView
from claims.values import Value

SUBJECTS = {1: "kimi-k3.1-pro", 2: "kimi-k3", 3: "kimi-k2-thinking"}


def cv(
    cid: int,
    attribute: str,
    value: Value,
    *,
    subject: int = 1,
    source: int = 1,
    claimant: str = "Moonshot AI",
    q: dict[str, Any] | None = None,
    stated: str | None = None,
) -> ClaimView:
    return ClaimView(
        id=cid,
        key=f"k{cid}",
        subject_id=subject,
        subject=SUBJECTS[subject],
        attribute=attribute,
        value=value,
        qualifiers=q or {},
        source_id=source,
        source=f"source {source}",
        claimant=claimant,
        stated_date=stated,
    )


def ts(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def ov(
    oid: int,
    attribute: str,
    value: Value,
    *,
    subject: int = 1,
    first: str = "2026-11-28T06:00Z",
    last: str | None = None,
    q: dict[str, Any] | None = None,
    current: bool = True,
) -> ObsView:
    return ObsView(
        id=oid,
        subject_id=subject,
        attribute=attribute,
        value=value,
        first_seen=ts(first),
        last_seen=ts(last or first),
        qualifiers=q or {},
        current=current,
    )
