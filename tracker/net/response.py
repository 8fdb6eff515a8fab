"""One HTTP response as the fetch step saw it (:class:`Fetched`): what the fetch seam
returns, what snapshots store and what every adapter parses."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Fetched:
    """One HTTP response as the fetch step saw it.

    - ``url``: the URL requested; ``final_url``: after redirects (``redirects`` lists
      every intermediate URL, oldest first).
    - ``status``: HTTP status; 304 means "unchanged" and ``body`` is ``b""``.
    - ``headers``: response headers with lower-case names.
    - ``fetched_at``: aware UTC; for a replayed response the time it was recorded.
    - ``sha256``: hex digest of ``body``.
    """

    url: str
    final_url: str
    status: int
    headers: Mapping[str, str]
    body: bytes
    fetched_at: dt.datetime
    sha256: str
    redirects: tuple[str, ...] = ()

    @property
    def unchanged(self) -> bool:
        """True for a 304 Not Modified answer to a conditional GET."""
        return self.status == 304

    @classmethod
    def from_body(
        cls,
        url: str,
        body: bytes,
        fetched_at: dt.datetime,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        final_url: str | None = None,
    ) -> Fetched:
        """Build a Fetched from a stored body (tests, ``tracker parse`` on a snapshot)."""
        if fetched_at.tzinfo is None:
            raise ValueError("fetched_at must be timezone-aware UTC")
        return cls(
            url=url,
            final_url=final_url or url,
            status=status,
            headers={k.lower(): v for k, v in (headers or {}).items()},
            body=body,
            fetched_at=fetched_at,
            sha256=hashlib.sha256(body).hexdigest(),
        )

    def json(self) -> Any:
        """The body as JSON within :mod:`tracker.net.jsonbody`'s bounds (depth, size,
        number digits and magnitude); raises :class:`ParseError` naming the URL when it
        is not JSON or breaks a bound."""
        from tracker.net.jsonbody import load_json  # not loaded by html-only cycles

        return load_json(self.body, self.final_url)
