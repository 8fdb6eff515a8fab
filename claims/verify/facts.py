"""Plain read-only views of claims, observations and watches for the pure verification rules.

The database glue (:mod:`claims.store.verification`) builds these from rows; :mod:`claims.verify.compare`,
:mod:`claims.verify.promises` and :mod:`claims.verify.judge` take them, so the rules are testable
without a database.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from claims.values.value import Value


@dataclass(frozen=True)
class ClaimView:
    """One claim with what a reason needs to name it: subject slug, claimant, and
    ``source``, the name sentences give its source (:func:`claims.subjects.sourcenames.source_names`)."""

    id: int
    key: str
    subject_id: int
    subject: str
    attribute: str
    value: Value
    qualifiers: dict[str, Any] = field(default_factory=dict)
    source_id: int = 0
    source: str = ""
    claimant: str | None = None
    stated_date: str | None = None

    def who(self) -> str:
        """``claimant via source`` for reasons (just ``claimant`` when the source is the
        claimant's own, e.g. Moonshot AI's model card)."""
        if self.claimant and self.source and self.claimant.casefold() != self.source.casefold():
            return f"{self.claimant} via {self.source}"
        return self.claimant or self.source or f"claim #{self.id}"


@dataclass(frozen=True)
class ObsView:
    """One observation; ``value`` is already the effective value (e.g. corrected params)."""

    id: int
    subject_id: int
    attribute: str
    value: Value
    first_seen: dt.datetime
    last_seen: dt.datetime
    qualifiers: dict[str, Any] = field(default_factory=dict)
    current: bool = True
    watch_id: int | None = None
