"""Per-host politeness for live runs: a minimum interval between requests to one host
and a cap on concurrent requests per host, as an httpx transport wrapper.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping

import httpx

DEFAULT_MIN_INTERVAL_S = 1.0
DEFAULT_MAX_CONCURRENT = 2


class HostThrottle(httpx.BaseTransport):
    """Wraps ``inner``; requests to one host start at least ``min_interval`` seconds
    apart (``per_host`` overrides by host name) and at most ``max_concurrent`` run at
    once per host (``per_host_concurrent`` overrides by host name). ``sleep`` /
    ``monotonic`` are injectable for tests. Thread-safe: the concurrent cycle
    (``tracker.cycle.run.run_check`` with ``concurrency`` > 1) calls it from worker threads.
    """

    def __init__(
        self,
        inner: httpx.BaseTransport,
        *,
        min_interval: float = DEFAULT_MIN_INTERVAL_S,
        per_host: Mapping[str, float] | None = None,
        max_concurrent: int = DEFAULT_MAX_CONCURRENT,
        per_host_concurrent: Mapping[str, int] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.min_interval = min_interval
        self.per_host = dict(per_host or {})
        self.max_concurrent = max_concurrent
        self.per_host_concurrent = dict(per_host_concurrent or {})
        self.sleep = sleep
        self.monotonic = monotonic
        self._lock = threading.Lock()
        self._next_start: dict[str, float] = {}
        self._slots: dict[str, threading.BoundedSemaphore] = {}

    def _slot(self, host: str) -> threading.BoundedSemaphore:
        with self._lock:
            if host not in self._slots:
                cap = self.per_host_concurrent.get(host, self.max_concurrent)
                self._slots[host] = threading.BoundedSemaphore(max(1, cap))
            return self._slots[host]

    def _reserve(self, host: str) -> float:
        """Seconds to wait before this request may start; books its start time."""
        interval = self.per_host.get(host, self.min_interval)
        with self._lock:
            now = self.monotonic()
            start = max(now, self._next_start.get(host, now))
            self._next_start[host] = start + interval
            return start - now

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        with self._slot(host):
            wait = self._reserve(host)
            if wait > 0:
                self.sleep(wait)
            # The slot is held until the headers are in; the body is streamed after,
            # so fetch's size cap still applies.
            return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()
