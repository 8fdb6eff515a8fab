"""Group commit for the watch cycle: which recorded watches a commit makes durable, and
telling ``progress`` about each once it is."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claims.store.rawdb import RawDB
    from tracker.cycle.observe import WatchResult
    from tracker.cycle.run import CycleSummary

# Group commit (RawDB.grouped): at most this many watches, or seconds, per commit.
GROUP_MAX = 64
GROUP_MAX_S = 0.25


class GroupCommit:
    """Watches recorded since the last commit of the cycle's group transaction
    (:meth:`claims.store.rawdb.RawDB.grouped`): committed every ``GROUP_MAX`` watches or
    ``GROUP_MAX_S`` seconds, and before waiting for a fetch; ``progress`` hears of a
    watch only once it is committed."""

    def __init__(
        self,
        raw: RawDB,
        summary: CycleSummary,
        progress: Callable[[WatchResult], None] | None,
        keep_results: bool,
        fence: Callable[[RawDB], None] | None = None,
    ) -> None:
        self.raw = raw
        self.fence = fence
        self.summary = summary
        self.progress = progress
        self.keep_results = keep_results
        self.results: list[WatchResult] = []
        self.started = 0.0

    def add(self, result: WatchResult) -> None:
        """Hold ``result`` (its watch is recorded, not yet committed); commit when the
        group is full or old enough."""
        if not self.results:
            self.started = time.monotonic()
        self.results.append(result)
        if len(self.results) >= GROUP_MAX or time.monotonic() - self.started >= GROUP_MAX_S:
            self.commit()

    def commit(self) -> None:
        """Commit the group's transaction, then report its watches. With a ``fence`` (a
        scheduler's lease check, :meth:`tracker.schedule.locks.Lease.fence`), it runs
        first, inside the same transaction; when it raises, the group's watches are
        rolled back, not reported, and the error propagates: a scheduler that lost its
        lease mid-run commits nothing of that run."""
        if self.fence is not None and self.results:
            try:
                self.fence(self.raw)
            except BaseException:
                self.raw.rollback()
                self.results = []
                raise
        self.raw.commit_group()
        self.report()

    def report(self) -> None:
        """Add each held result to the summary and hand it to ``progress``, in order."""
        results, self.results = self.results, []
        for result in results:
            self.summary.add(result, self.keep_results)
            if self.progress is not None:
                self.progress(result)
