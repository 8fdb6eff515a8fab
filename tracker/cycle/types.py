"""The cycle's shared shapes: a watch as the fetch step needs it (:class:`WatchSpec`),
how one watch's check went (:class:`WatchResult`), a cycle's totals
(:class:`CycleSummary`) and the subject-name lookup recording takes (:class:`NameLookup`).
Kept apart so the cycle's modules import these, not each other."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol


class NameLookup(Protocol):
    """Subject id -> display name (a dict, or :class:`tracker.cycle.rows.SubjectNames`)."""

    def get(self, subject_id: int | None, default: Any = None, /) -> Any: ...


@dataclass(slots=True)
class WatchResult:
    """How one watch's check went: ``outcome`` is ``changed``, ``unchanged``, ``new`` (its
    first check, which changed nothing: not "unchanged", it had nothing to compare
    with), ``failed`` or ``skipped`` (a credential it needs is not configured; nothing recorded)."""

    name: str
    outcome: str
    observations: int = 0  # new observation rows (a new distinct value)
    events: int = 0
    unmatched: int = 0  # values whose subject ref matched no subject
    error: str | None = None
    error_kind: str | None = None
    warnings: list[str] = field(default_factory=list)
    # "url -> final url" for every fetched page that was redirected (C12: logged).
    redirects: list[str] = field(default_factory=list)
    # Repos whose weights_landed event carried the licence/gating read this cycle.
    announced: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class WatchSpec:
    """A detached copy of a Watch row: what the fetch step needs, so no session spans
    network I/O."""

    id: int
    name: str
    adapter: str
    url: str
    params: dict[str, Any]
    etag: str | None
    last_modified: str | None


@dataclass
class CycleSummary:
    """Totals of one cycle (the CLI prints these; ``--json`` prints :meth:`to_dict`).

    ``failing`` counts watches whose check failed in this cycle.
    """

    checked: int = 0
    unchanged: int = 0
    changed: int = 0
    new: int = 0  # first checks that recorded nothing new (e.g. "not public yet")
    failing: int = 0
    skipped: int = 0
    observations: int = 0
    events: int = 0
    results: list[WatchResult] = field(default_factory=list)
    # A replay's active watches it has no answer for: not checked, left as stored.
    not_in_recording: list[str] = field(default_factory=list)

    def add(self, r: WatchResult, keep: bool = True) -> None:
        """Count ``r``; keep it in :attr:`results` when ``keep``."""
        if keep:
            self.results.append(r)
        self.checked += 1
        self.observations += r.observations
        self.events += r.events
        if r.outcome == "failed":
            self.failing += 1
        elif r.outcome == "skipped":
            self.skipped += 1
        elif r.outcome == "changed":
            self.changed += 1
        elif r.outcome == "new":
            self.new += 1
        else:
            self.unchanged += 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
