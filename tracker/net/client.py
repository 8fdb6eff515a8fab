"""The HTTP client every fetch goes through: one GET over an httpx transport, with the
tracker's identity headers and timeouts, redirects followed.

Why not ``httpx.Client``: a watcher sends plain GETs with fixed headers, and per request
the Client also merges URLs and headers, runs its auth and redirect generators, and
copies every response into an ``http.cookiejar`` jar through urllib compatibility
objects. That was 0.3 ms of the 0.8 ms of CPU one request cost (bench/RESULTS.md,
fourth session), and carrying cookies from one watch to the next is not wanted anyway:
each check should be reproducible on its own. The protocol work (connection pool,
HTTP/1.1, TLS, decoding) stays httpx's, through its documented transport API
(https://www.python-httpx.org/advanced/transports/), so mock, replay and recording
transports plug in exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from tracker.net.policy import EXTENSION, RequestPolicy

# RFC 9110 §15.4: the redirections a GET follows (301, 302, 303, 307, 308); 300 and
# 304 are not redirections to follow. httpx's `Response.has_redirect_location` is the
# same rule.
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
REDIRECT_BODY_MAX = 64 * 1024
# httpx's own defaults for what a client sends on every request.
BASE_HEADERS = {"Accept-Encoding": "gzip, deflate", "Connection": "keep-alive"}


class HttpClient:
    """GET through ``transport`` with ``headers`` on every request; thread-safe when the
    transport is (httpx's is).

    ``timeout`` goes into each request's ``timeout`` extension (httpx's transports read
    it: connect/read/write/pool seconds). ``max_redirects`` caps the redirects followed
    per request. Use as a context manager or call :meth:`close` (closes the transport).
    """

    def __init__(
        self,
        transport: httpx.BaseTransport,
        *,
        headers: Mapping[str, str],
        timeout: httpx.Timeout,
        max_redirects: int,
    ) -> None:
        self.transport = transport
        self.headers = httpx.Headers({**BASE_HEADERS, **headers})
        self.timeout = timeout
        self.max_redirects = max_redirects
        self._extensions: Mapping[str, object] = {"timeout": timeout.as_dict()}

    def __enter__(self) -> HttpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the transport (its pooled connections)."""
        self.transport.close()

    def get(
        self,
        url: str | httpx.URL,
        headers: Mapping[str, str] | None = None,
        policy: RequestPolicy | None = None,
    ) -> httpx.Response:
        """Send ``GET url`` with the client's headers plus ``headers``; follow redirects.

        Returns the final response with its body *not read* (the caller reads or drains
        it, then closes it); ``response.history`` lists the redirect responses, oldest
        first, each closed. A redirect's ``Location`` is resolved against the request URL
        (RFC 9110 §10.2.2) and keeps the request's fragment when it has none (§10.2.2 as
        httpx does); on a change of origin (scheme, host, port) the caller's ``headers``
        and any ``Authorization`` are dropped, so an API key never reaches another host.

        With a ``policy`` (:class:`tracker.net.policy.RequestPolicy`, a watch's), a
        redirect is followed only to the first URL's host or an allowed one
        (:class:`~tracker.errors.OffHost` names the target), and every request carries
        the policy in its extensions for the transports below (the live one refuses
        private addresses and connects only to the addresses it checked, each redirect
        hop included: :class:`tracker.net.policy.AddressGuard`). Without one,
        any http(s) redirect is followed (a request made outside a watch).

        Raises ``httpx.TooManyRedirects`` after ``max_redirects``, ``httpx.UnsupportedProtocol``
        for a redirect to a non-http(s) URL, ``httpx.RemoteProtocolError`` for a
        malformed ``Location``, and the transport's ``httpx.TransportError`` subclasses.
        """
        extra = httpx.Headers(headers or {})
        first = httpx.URL(url)
        request = self._request(first, extra, policy)
        history: list[httpx.Response] = []
        while True:
            response = self.transport.handle_request(request)
            response.request = request
            if response.status_code not in REDIRECT_STATUSES or "location" not in response.headers:
                response.history = history
                return response
            if len(history) >= self.max_redirects:
                response.close()
                raise httpx.TooManyRedirects("Exceeded maximum allowed redirects.", request=request)
            target = _redirect_url(request, response)
            _discard(response)
            if policy is not None:
                policy.check_host(first, target, "redirect")
            history.append(response)
            same_origin = _origin(target) == _origin(request.url)
            request = self._request(target, extra if same_origin else httpx.Headers(), policy)

    def post_json(
        self, url: str | httpx.URL, body: object, headers: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """Send ``POST url`` with ``body`` as JSON and the client's headers plus ``headers``
        (an API call, e.g. an LLM chat endpoint); no redirect is followed (a POST is not
        replayed elsewhere). Returns the response with its body read. Raises the
        transport's ``httpx.TransportError`` subclasses and ``httpx.UnsupportedProtocol``."""
        target = httpx.URL(url)
        if target.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(
                f"Request URL has an unsupported protocol '{target.scheme}://'."
            )
        merged = self.headers.copy()
        merged.update(httpx.Headers(headers or {}))
        request = httpx.Request(
            "POST", target, headers=merged, json=body, extensions=self._extensions
        )
        response = self.transport.handle_request(request)
        response.request = request
        response.read()
        response.close()
        return response

    def _request(
        self, url: httpx.URL, extra: httpx.Headers, policy: RequestPolicy | None = None
    ) -> httpx.Request:
        if url.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(
                f"Request URL has an unsupported protocol '{url.scheme}://'."
            )
        headers = self.headers.copy()
        headers.update(extra)
        extensions = self._extensions
        if policy is not None:
            extensions = {**extensions, EXTENSION: policy}
        return httpx.Request("GET", url, headers=headers, extensions=extensions)


def _discard(response: httpx.Response) -> None:
    """Read and drop a redirect's body (usually a line of HTML), so its connection goes
    back to the pool; past ``REDIRECT_BODY_MAX`` bytes the connection is closed instead
    (httpx's Client read any length into memory)."""
    size = 0
    try:
        if response.is_stream_consumed:  # an in-memory body (a mock's or a replay's)
            return
        for chunk in response.iter_raw():
            size += len(chunk)
            if size > REDIRECT_BODY_MAX:
                break
    finally:
        response.close()


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _redirect_url(request: httpx.Request, response: httpx.Response) -> httpx.URL:
    """Where a redirect points: ``Location`` resolved against the request URL (the same
    rules as httpx's Client, including a Location with a scheme but no host)."""
    location = response.headers["location"]
    try:
        url = httpx.URL(location)
    except httpx.InvalidURL as exc:
        raise httpx.RemoteProtocolError(
            f"Invalid URL in location header: {exc}.", request=request
        ) from None
    if url.scheme and not url.host:
        url = url.copy_with(host=request.url.host)
    if url.is_relative_url:
        url = request.url.join(url)
    if request.url.fragment and not url.fragment:
        url = url.copy_with(fragment=request.url.fragment)
    return url
