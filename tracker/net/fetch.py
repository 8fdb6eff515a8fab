"""The one network seam: an httpx client and a polite, honest ``fetch`` of one URL.

Input: a URL and stored validators; output: a :class:`~tracker.net.response.Fetched`
or a :class:`~tracker.errors.FetchError`. Only this module (and ``tracker.net.har``,
``tracker.net.harcheck``, ``tracker.net.client``, ``tracker.net.body``, ``tracker.net.policy``,
``tracker.net.throttle``, ``tracker.net.transport``, ``tracker.net.pinning``: the rest
of the fetch layer) imports httpx (and httpcore, below it). Settings from :mod:`tracker.settings`: ``TRACKER_CONTACT``,
``TRACKER_CONCURRENCY`` (watches fetched at once; default 8).
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from tracker import settings
from tracker.errors import (
    BadStatus,
    FetchError,
    FetchTimeout,
    RateLimited,
    TrackerError,
)
from tracker.net.body import read_body
from tracker.net.client import HttpClient
from tracker.net.policy import RequestPolicy, Resolver
from tracker.net.response import Fetched

if TYPE_CHECKING:
    import httpcore

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
# Retry-After longer than this is not waited for: the watch fails as rate_limited
# and the next scheduled run tries again.
MAX_RETRY_WAIT_S = 600.0
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
DEFAULT_CONCURRENCY = 8  # watches fetched at once by one cycle
DEFAULT_TOTAL_TIMEOUT = 120.0  # seconds per attempt, body included


def package_version() -> str:
    """The installed release-tracker version (User-Agent, HAR creator); ``0.1.0`` from a
    source checkout that is not installed."""
    try:
        from importlib.metadata import version

        return version("release-tracker")
    except Exception:  # pragma: no cover - not installed (source checkout)
        return "0.1.0"


@dataclass(frozen=True)
class FetchSettings:
    """How the client behaves: identity, timeouts (seconds), redirects, size cap (bytes).

    ``contact`` goes into the User-Agent (``release-tracker/<version> (+contact)``) so a
    site operator can reach whoever runs the tracker; :meth:`from_env` reads it from
    ``TRACKER_CONTACT``.
    """

    contact: str = "https://github.com/release-tracker"
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    max_redirects: int = 5
    max_bytes: int = DEFAULT_MAX_BYTES
    # Seconds one attempt of a fetch may take in all, however the server drips its bytes
    # (issue 20: one byte every 5 s held a watch 187 s under the per-read timeout).
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT
    # Reach private, loopback and link-local addresses for every watch (tests against a
    # local server); otherwise only a watch with param allow_private = true may.
    allow_private: bool = False
    # Live runs only: seconds between requests to one host (per-host overrides) and
    # concurrent requests per host (per-host overrides; tracker.net.throttle.HostThrottle).
    min_interval: float = 1.0
    per_host_interval: Mapping[str, float] = field(default_factory=dict)
    max_concurrent_per_host: int = 2
    per_host_concurrent: Mapping[str, int] = field(default_factory=dict)
    # Watches fetched at once by one cycle (tracker.cycle.run.run_check ``concurrency``).
    max_concurrent: int = DEFAULT_CONCURRENCY

    @classmethod
    def from_env(cls) -> FetchSettings:
        """Defaults, with ``TRACKER_CONTACT`` and ``TRACKER_CONCURRENCY`` (a positive
        integer) when set; raises ConfigError for a malformed ``TRACKER_CONCURRENCY``."""
        kw: dict[str, Any] = {}
        contact = settings.contact()
        if contact:
            kw["contact"] = contact
        workers = settings.concurrency()
        if workers is not None:
            kw["max_concurrent"] = workers
        return cls(**kw)

    @property
    def user_agent(self) -> str:
        return f"release-tracker/{package_version()} (+{self.contact})"


def make_client(
    settings: FetchSettings | None = None, transport: httpx.BaseTransport | None = None
) -> HttpClient:
    """The client every fetch goes through (:class:`tracker.net.client.HttpClient`).

    ``transport=None`` uses httpx's own network transport (live runs) behind a per-host
    :class:`~tracker.net.throttle.HostThrottle`; tests pass ``httpx.MockTransport``;
    ``--replay`` passes :class:`tracker.net.har.HarReplayTransport` (neither is throttled).
    Redirects are followed up to ``settings.max_redirects`` (httpx only speaks http(s)).
    """
    s = settings or FetchSettings.from_env()
    if transport is None:
        transport = live_transport(s)
    return HttpClient(
        transport,
        headers={
            "User-Agent": s.user_agent,
            "Accept": "application/json, text/html;q=0.9, */*;q=0.5",
        },
        timeout=httpx.Timeout(s.read_timeout, connect=s.connect_timeout),
        max_redirects=s.max_redirects,
    )


def live_transport(
    settings: FetchSettings,
    *,
    resolve: Resolver | None = None,
    network_backend: httpcore.NetworkBackend | None = None,
) -> httpx.BaseTransport:
    """httpx's request model over httpcore (:class:`SchemeTransport`) behind the
    private-address guard (:class:`~tracker.net.policy.AddressGuard`, which pins the
    addresses it checked: the connection goes to one of them, never to a second DNS
    answer) and the per-host :class:`~tracker.net.throttle.HostThrottle`.

    ``resolve`` (host, port -> IP literals; default ``socket.getaddrinfo``) and
    ``network_backend`` (what opens sockets, wrapped by
    :class:`~tracker.net.pinning.PinnedBackend`; default httpcore's plain sockets) are
    for tests, which run this same stack against local servers."""
    from tracker.net.pinning import PinnedBackend
    from tracker.net.policy import AddressGuard
    from tracker.net.throttle import HostThrottle
    from tracker.net.transport import SchemeTransport

    backend = PinnedBackend(network_backend)
    guard_kw: dict[str, Any] = {} if resolve is None else {"resolve": resolve}
    guard = AddressGuard(
        SchemeTransport(backend),
        allow_private=settings.allow_private,
        private_inner=SchemeTransport(backend),
        **guard_kw,
    )
    return HostThrottle(
        guard,
        min_interval=settings.min_interval,
        per_host=settings.per_host_interval,
        max_concurrent=settings.max_concurrent_per_host,
        per_host_concurrent=settings.per_host_concurrent,
    )


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


_RATELIMIT_T = re.compile(r";\s*t=(\d+)")


def retry_after_seconds(headers: httpx.Headers, now: dt.datetime) -> float | None:
    """Seconds the server asks us to wait, or None when it does not say.

    ``Retry-After`` as delay-seconds or HTTP-date (RFC 9110 §10.2.3); otherwise the
    IETF ``RateLimit`` header's ``t=`` (seconds to reset) that the Hugging Face Hub sends
    with 429 (hub-docs rate-limits.md; fixtures/real/synthetic_hf_error_responses.json).
    """
    value = headers.get("retry-after")
    if value:
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            when = None
        if when is not None:
            if when.tzinfo is None:
                when = when.replace(tzinfo=dt.UTC)
            return max(0.0, (when - now).total_seconds())
    rl = headers.get("ratelimit")
    if rl:
        m = _RATELIMIT_T.search(rl)
        if m:
            return float(m.group(1))
    return None


def _bad_status(url: str, response: httpx.Response) -> BadStatus:
    """Classify a final non-2xx answer. The Hub answers 401 + ``X-Error-Code:
    RepoNotFound`` to anonymous requests for a repo that is missing *or private*, and
    404 + RepoNotFound only when it truly does not exist for the caller; ``GatedRepo``
    means the metadata exists but files need approval (huggingface_hub ``_http.py``)."""
    status = response.status_code
    code = response.headers.get("x-error-code")
    message = response.headers.get("x-error-message")
    if code == "GatedRepo":
        kind = "gated"
    elif code == "RepoNotFound" and status == 401:
        kind = "missing_or_private"
    elif status == 404 and code in (None, "RepoNotFound"):
        kind = "not_found"
    elif code == "EntryNotFound":
        kind = "entry_not_found"
    elif code == "RevisionNotFound":
        kind = "revision_not_found"
    elif status in (401, 403):
        kind = "unauthorized"
    else:
        kind = "bad_status"
    detail = f" {code}" if code else ""
    text = f": {message}" if message else ""
    return BadStatus(
        f"{url}: HTTP {status}{detail}{text}", url=url, status=status, error_code=code, kind=kind
    )


def fetch(
    client: HttpClient,
    url: str,
    *,
    etag: str | None = None,
    last_modified: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    retries: int = 3,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], dt.datetime] = _utcnow,
    max_wait: float = MAX_RETRY_WAIT_S,
    rng: random.Random | None = None,
    headers: Mapping[str, str] | None = None,
    policy: RequestPolicy | None = None,
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT,
    monotonic: Callable[[], float] = time.monotonic,
) -> Fetched:
    """GET ``url`` once, politely; return the response or raise a FetchError.

    - ``etag`` / ``last_modified`` become ``If-None-Match`` / ``If-Modified-Since``; a
      304 returns a Fetched with ``unchanged`` True and an empty body.
    - ``retries`` is the number of attempts in all. 429 and 503 wait what
      ``Retry-After`` (or ``RateLimit: t=``) says, via ``sleep`` (seconds), never less;
      other 5xx, timeouts and connection errors back off exponentially with jitter.
      When the budget is spent: 429/503 -> :class:`RateLimited` (never "repo missing",
      cases/C06), 5xx -> :class:`BadStatus`, timeouts -> :class:`FetchTimeout`.
    - Other non-2xx -> :class:`BadStatus` at once, with ``status``, ``error_code`` and
      ``kind`` telling 401 RepoNotFound (missing or private) from a real 404.
    - A body over ``max_bytes`` -> :class:`TooLarge` (streamed, not read whole).
    - ``fetched_at`` is the response's ``extensions["recorded_at"]`` when a replay
      transport supplies one, else ``clock()``.
    - ``headers`` are extra request headers (e.g. an API key from :func:`auth_headers`).
    - ``policy`` (a watch's :class:`~tracker.net.policy.RequestPolicy`): redirects only
      to allowed hosts (:class:`~tracker.errors.OffHost`, never retried); the live
      transport refuses private addresses the policy does not allow
      (:class:`~tracker.errors.PrivateAddress`).
    - One attempt may take ``total_timeout`` seconds (``monotonic``), body included;
      past it the body is dropped and the attempt times out (:class:`FetchTimeout`).
    - A 2xx answer that is a bot challenge (``cf-mitigated: challenge``) is
      :class:`RateLimited` with kind ``challenge``: never read as the page.
    """
    headers = dict(headers or {})
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    rng = rng or random.Random()
    last_error: FetchError | None = None
    for attempt in range(1, retries + 1):
        wait: float | None = None
        started = monotonic()
        try:
            response = client.get(url, headers, policy)
            try:
                if response.status_code in RETRY_STATUSES:
                    last_error, wait = _retry_after(url, response, attempt, rng, clock, max_wait)
                    _drain(response)
                else:
                    deadline = (started + total_timeout, monotonic)
                    return _final_answer(url, response, max_bytes, deadline, clock)
            finally:
                response.close()
        except httpx.TimeoutException as exc:
            last_error = FetchTimeout(f"{url}: timed out ({type(exc).__name__})", url=url)
            wait = _backoff(attempt, rng)
        except httpx.TooManyRedirects as exc:
            raise FetchError(f"{url}: too many redirects ({exc})", url=url) from exc
        except httpx.UnsupportedProtocol as exc:
            raise FetchError(f"{url}: redirect to a non-http(s) URL ({exc})", url=url) from exc
        except httpx.TransportError as exc:  # connection reset, truncated body...
            last_error = FetchError(f"{url}: network error ({exc})", url=url)
            wait = _backoff(attempt, rng)
        except httpx.HTTPError as exc:  # e.g. a body that fails its Content-Encoding
            raise FetchError(f"{url}: unreadable response ({exc})", url=url) from exc
        if attempt < retries and wait is not None:
            sleep(wait)
    assert last_error is not None
    raise last_error


def _retry_after(
    url: str,
    response: httpx.Response,
    attempt: int,
    rng: random.Random,
    clock: Callable[[], dt.datetime],
    max_wait: float,
) -> tuple[FetchError, float]:
    """For a retryable status (:data:`RETRY_STATUSES`): the error to raise when no attempt
    is left, and the seconds to wait before the next one. 429, and 503 with a
    ``Retry-After``, wait what the server says (:class:`RateLimited`; a wait over
    ``max_wait`` raises it at once); other 5xx back off (:class:`BadStatus`)."""
    status = response.status_code
    advertised = retry_after_seconds(response.headers, clock())
    if status == 429 or (status == 503 and advertised is not None):
        wait = advertised if advertised is not None else _backoff(attempt, rng)
        if wait > max_wait:
            raise RateLimited(
                f"{url}: HTTP {status}, server asks to wait {wait:.0f}s "
                f"(more than {max_wait:.0f}s)",
                url=url,
                status=status,
            )
        limited = RateLimited(
            f"{url}: HTTP {status}, rate limited after {attempt} attempt(s)",
            url=url,
            status=status,
        )
        return limited, wait
    return _bad_status(url, response), _backoff(attempt, rng)


def _final_answer(
    url: str,
    response: httpx.Response,
    max_bytes: int,
    deadline: tuple[float, Callable[[], float]],
    clock: Callable[[], dt.datetime],
) -> Fetched:
    """A non-retryable answer: 304 -> unchanged (empty body); a 2xx bot challenge ->
    :class:`RateLimited` kind ``challenge``; other 2xx -> the body read under
    ``max_bytes`` and ``deadline``; anything else -> :class:`BadStatus` (not retried)."""
    status = response.status_code
    if status == 304:
        _drain(response)
        return _fetched(url, response, b"", clock)
    if 200 <= status < 300 and _challenge(response):
        _drain(response)
        raise _challenged(url, status)
    if 200 <= status < 300:
        body = _read_capped(url, response, max_bytes, deadline)
        return _fetched(url, response, body, clock)
    _drain(response)
    raise _bad_status(url, response)


def _backoff(attempt: int, rng: random.Random) -> float:
    """2, 4, 8... seconds plus up to 1 s of jitter, so retries from many watches spread."""
    return float(2**attempt) + rng.random()


DRAIN_MAX_BYTES = 64 * 1024


def _drain(response: httpx.Response) -> None:
    """Read what is left of a body we do not use (a 304's empty one, a short error page),
    so the connection goes back to the pool for the next request instead of being
    closed; a longer or broken body is left, and the connection closed as before."""
    if response.is_stream_consumed or response.is_closed:
        return
    size = 0
    try:
        for chunk in response.iter_raw():
            size += len(chunk)
            if size > DRAIN_MAX_BYTES:
                return
    except (httpx.HTTPError, httpx.StreamError):
        return


def _challenge(response: httpx.Response) -> bool:
    """Cloudflare marks a challenge page it serves in place of the content."""
    return response.headers.get("cf-mitigated", "").strip().lower() == "challenge"


def _challenged(url: str, status: int) -> RateLimited:
    err = RateLimited(
        f"{url}: HTTP {status} bot challenge, not the content", url=url, status=status
    )
    err.kind = "challenge"
    return err


def _read_capped(
    url: str,
    response: httpx.Response,
    max_bytes: int,
    deadline: tuple[float, Callable[[], float]] | None = None,
) -> bytes:
    """The body, decoded (Content-Encoding), at most ``max_bytes`` of it after decoding
    (:class:`TooLarge`), read before ``deadline`` = (monotonic time, clock) or
    :class:`FetchTimeout` (:func:`tracker.net.body.read_body`)."""
    return read_body(response, max_bytes, deadline)


def _fetched(
    url: str, response: httpx.Response, body: bytes, clock: Callable[[], dt.datetime]
) -> Fetched:
    recorded = response.extensions.get("recorded_at")
    fetched_at = recorded if isinstance(recorded, dt.datetime) else clock()
    return Fetched(
        url=url,
        final_url=str(response.url),
        status=response.status_code,
        headers={k.lower(): v for k, v in response.headers.items()},
        body=body,
        fetched_at=fetched_at,
        sha256=hashlib.sha256(body).hexdigest(),
        redirects=tuple(str(r.url) for r in response.history),
    )


class MissingCredential(TrackerError):
    """The watch needs an API key whose environment variable is not set (not an error:
    the cycle skips the watch with one notice)."""

    def __init__(self, env: str) -> None:
        super().__init__(f"{env} is not set")
        self.env = env

    kind = "missing_credential"


def auth_headers(params: Mapping[str, Any]) -> dict[str, str]:
    """Request headers a watch's ``auth`` param asks for, read from the environment.

    ``[watch.params.auth] env = "TRACKER_AA_API_KEY", header = "x-api-key"`` sends that
    variable's value in that header (Artificial Analysis API docs: ``x-api-key``).
    No ``auth`` param -> ``{}``. Raises :class:`MissingCredential` when the variable is
    unset or empty.
    """
    auth = params.get("auth")
    if not isinstance(auth, Mapping):
        return {}
    env = str(auth.get("env", ""))
    value = (settings.secret(env) or "") if env else ""
    if not value:
        raise MissingCredential(env or "auth.env")
    return {str(auth.get("header", "Authorization")): value}


def post_json(
    client: HttpClient, url: str, body: object, headers: Mapping[str, str] | None = None
) -> tuple[int, str]:
    """``POST url`` with ``body`` as JSON through ``client`` (an API call such as an LLM
    chat endpoint; no retry, no redirect): (status, body text). Raises
    :class:`FetchTimeout` or :class:`FetchError` (network, protocol) naming the URL."""
    try:
        response = client.post_json(url, body, headers)
    except httpx.TimeoutException as exc:
        raise FetchTimeout(f"{url}: timed out ({type(exc).__name__})", url=url) from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"{url}: {type(exc).__name__}: {exc}", url=url) from exc
    return response.status_code, response.text
