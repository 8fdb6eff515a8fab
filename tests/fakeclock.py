"""A fake UTC clock for scheduler tests.

APScheduler 3.x has no clock seam: it calls ``datetime.now`` in
``apscheduler.schedulers.base`` (due jobs) and ``apscheduler.executors.base`` (misfire
check). ``FakeClock.patch_apscheduler`` swaps those two module globals for a datetime
subclass whose ``now`` reads this clock; everything else in the tracker takes the clock
as an argument.
"""

from __future__ import annotations

import datetime as dt
import threading

import apscheduler.executors.base
import apscheduler.schedulers.base
import pytest

T0 = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)


class FakeClock:
    """Callable returning an aware UTC datetime that only moves on :meth:`advance`."""

    def __init__(self, start: dt.datetime = T0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> dt.datetime:
        with self._lock:
            return self._now

    def advance(self, **delta: float) -> dt.datetime:
        with self._lock:
            self._now += dt.timedelta(**delta)
            return self._now

    def patch_apscheduler(self, monkeypatch: pytest.MonkeyPatch) -> None:
        clock = self

        class _FakeDatetime(dt.datetime):
            @classmethod
            def now(cls, tz: dt.tzinfo | None = None) -> dt.datetime:  # type: ignore[override]
                now = clock()
                return now.astimezone(tz) if tz else now.replace(tzinfo=None)

        monkeypatch.setattr(apscheduler.schedulers.base, "datetime", _FakeDatetime)
        monkeypatch.setattr(apscheduler.executors.base, "datetime", _FakeDatetime)
