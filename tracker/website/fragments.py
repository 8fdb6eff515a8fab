"""Texts made from view data, kept between builds of one process by content key.

The scheduler rebuilds the site after every cycle in one process, and most subjects'
claims did not change: their export records, CSV rows and search entries are taken
from here instead of encoded again. A key is the digest of everything the text is
made from (``pagehash.key_of`` of the views, with the code fingerprint), so a hit is
the same text the code would make. Entries a build did not use are dropped when the
next build starts, so the store holds at most two builds' worth. A build may give a
``source`` to try before making a missing text: the previous output files, through the
build cache (``segments.py``), so a new process makes only changed subjects' texts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Source = Callable[[str, str], Any]

T = TypeVar("T")


class Fragments:
    """Content-keyed store: :meth:`get` returns the kept value of ``(kind, key)`` or
    makes, keeps and returns it. :meth:`start_build` forgets what the last build did
    not use."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], Any] = {}
        self._used: dict[tuple[str, str], Any] = {}
        self.hits = 0
        self.misses = 0
        self._source: Source | None = None

    def start_build(self, source: Source | None = None) -> None:
        """Keep only the entries the previous build used (the rest cannot match data
        that changed since, except by returning to older content). ``source(kind,
        key)``, if given, is asked for a missing entry before it is made (None: not
        there)."""
        self._kept, self._used = self._used or self._kept, {}
        self.hits = self.misses = 0
        self._source = source

    def clear(self) -> None:
        """Forget every entry."""
        self._kept, self._used = {}, {}

    def get(self, kind: str, key: str, make: Callable[[], T]) -> T:
        """The value kept for ``(kind, key)``, else ``make()`` (kept for next time).
        ``key`` must change whenever ``make()`` would give something else."""
        slot = (kind, key)
        value = self._used.get(slot)
        if value is None:
            value = self._kept.get(slot)
            if value is None and self._source is not None:
                value = self._source(kind, key)
            if value is None:
                value = make()
                self.misses += 1
            else:
                self.hits += 1
            self._used[slot] = value
        return value  # type: ignore[no-any-return]


FRAGMENTS = Fragments()
