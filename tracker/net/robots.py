"""robots.txt policy: may this watch fetch this URL? (RFC 9309, parsed with protego).

Input: a URL; output: nothing, or :class:`~tracker.errors.Disallowed`. One policy
object caches each origin's robots.txt for the length of one cycle.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from protego import Protego

from tracker.errors import BadStatus, Disallowed, FetchError, RobotsUnreachable

USER_AGENT_TOKEN = "release-tracker"


class RobotsPolicy:
    """Obeys robots.txt for ``user_agent`` (the product token of our User-Agent).

    ``fetch_text(url) -> str`` fetches robots.txt; it raises
    :class:`~tracker.errors.BadStatus` for a 4xx (RFC 9309: no restrictions) and other
    FetchErrors for 5xx, 429 or network failure (complete disallow, so a flaky robots.txt
    never turns into crawling what it forbids). Use :meth:`for_client` in live runs.
    """

    def __init__(
        self, fetch_text: Callable[..., str], *, user_agent: str = USER_AGENT_TOKEN
    ) -> None:
        self.fetch_text = fetch_text
        self.user_agent = user_agent
        self._cache: dict[str, Protego | Exception | None] = {}
        # Worker threads of a concurrent cycle share one policy: one robots.txt fetch
        # per origin, never two racing ones.
        self._lock = threading.Lock()

    @classmethod
    def for_client(cls, client: Any, **fetch_kwargs: Any) -> RobotsPolicy:
        """A policy that fetches robots.txt through ``client`` with :func:`tracker.net.fetch.fetch`."""
        from tracker.net.fetch import fetch

        def fetch_text(url: str, **kw: Any) -> str:
            got = fetch(client, url, retries=1, max_bytes=512 * 1024, **fetch_kwargs, **kw)
            return got.body.decode("utf-8", "replace")

        return cls(fetch_text)

    def _rules(self, url: str, policy: Any = None) -> Protego | Exception | None:
        parts = urlsplit(url)
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        with self._lock:
            return self._rules_locked(origin, policy)

    def _rules_locked(self, origin: str, policy: Any = None) -> Protego | Exception | None:
        if origin not in self._cache:
            kw = {"policy": policy} if policy is not None else {}
            try:
                self._cache[origin] = Protego.parse(self.fetch_text(origin + "/robots.txt", **kw))
            except BadStatus as exc:
                status = exc.status or 0
                self._cache[origin] = None if 400 <= status < 500 and status != 429 else exc
            except FetchError as exc:
                self._cache[origin] = exc
        return self._cache[origin]

    def check(self, url: str, policy: Any = None) -> None:
        """Return if ``url`` may be fetched; raise :class:`Disallowed` naming it if not.
        ``policy`` (the watch's :class:`tracker.net.policy.RequestPolicy`) goes with the
        robots.txt request (a watch allowed a private address may read its robots.txt)."""
        rules = self._rules(url, policy)
        if rules is None:
            return
        if isinstance(rules, Exception):
            raise RobotsUnreachable(
                f"{url}: robots.txt could not be fetched ({rules}); not fetching the page",
                url=url,
            )
        if not rules.can_fetch(url, self.user_agent):
            raise Disallowed(f"{url}: disallowed by robots.txt for {self.user_agent}", url=url)

    def crawl_delay(self, url: str) -> float | None:
        """The robots.txt ``Crawl-delay`` for our agent at ``url``'s origin, if any."""
        rules = self._rules(url)
        if isinstance(rules, Protego):
            delay = rules.crawl_delay(self.user_agent)
            return float(delay) if delay is not None else None
        return None
