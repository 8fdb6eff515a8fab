"""The live network transport: httpx's request/response model over an httpcore
connection pool whose network backend connects only to checked addresses
(:mod:`tracker.net.pinning`), one pool per URL scheme, built on first use."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import httpcore
import httpx

# httpcore's exceptions as httpx's (the same names; most specific first), as
# httpx.HTTPTransport maps them, so callers catch httpx.TransportError subclasses.
_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextmanager
def _as_httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for core, mapped in _ERRORS:
            if isinstance(exc, core):
                raise mapped(str(exc)) from exc
        raise


class _Body(httpx.SyncByteStream):
    """A response body read from the pool, its errors as httpx's."""

    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx_errors():
            yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class CoreTransport(httpx.BaseTransport):
    """``httpx.HTTPTransport`` without proxies, with a chosen httpcore network backend
    (httpx's own transport takes none): one ``httpcore.ConnectionPool`` (httpx's default
    limits) with TLS context ``ssl_context``. Request extensions (``timeout``,
    ``sni_hostname``) reach httpcore as they do through httpx's transport."""

    def __init__(
        self, ssl_context: ssl.SSLContext, network_backend: httpcore.NetworkBackend
    ) -> None:
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self.pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=network_backend,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _as_httpx_errors():
            response = self.pool.handle_request(core)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Body(response.stream),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self.pool.close()


class SchemeTransport(httpx.BaseTransport):
    """A :class:`CoreTransport` per URL scheme, each built on first use, all connecting
    through ``network_backend`` (default :class:`tracker.net.pinning.PinnedBackend`:
    only to the addresses the address guard checked).

    Building the https one loads the CA bundle into a TLS context (about 0.1 s, every
    process), so a cycle that only fetches ``http://`` URLs never pays for it; the
    first ``https://`` request builds it as ``httpx.HTTPTransport()`` would
    (``httpx.create_ssl_context()``: certificate and host name verified, against the
    URL's host name whatever address the socket went to). The ``http://`` one gets a TLS
    context that verifies but trusts no CA: it never makes a TLS connection, and would
    fail closed if it did. A redirect from http to https is a new request and goes to
    the https one. Thread-safe.
    """

    def __init__(self, network_backend: httpcore.NetworkBackend | None = None) -> None:
        if network_backend is None:
            from tracker.net.pinning import PinnedBackend

            network_backend = PinnedBackend()
        self.network_backend = network_backend
        self._lock = threading.Lock()
        self._by_scheme: dict[str, httpx.BaseTransport] = {}

    def _transport(self, scheme: str) -> httpx.BaseTransport:
        transport = self._by_scheme.get(scheme)
        if transport is None:
            with self._lock:
                transport = self._by_scheme.get(scheme)
                if transport is None:
                    if scheme == "http":
                        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # trusts no CA
                    else:  # https, and anything else httpcore itself refuses
                        context = httpx.create_ssl_context()
                    transport = CoreTransport(context, self.network_backend)
                    self._by_scheme[scheme] = transport
        return transport

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._transport(request.url.scheme).handle_request(request)

    def close(self) -> None:
        with self._lock:
            transports, self._by_scheme = list(self._by_scheme.values()), {}
        for transport in transports:
            transport.close()
