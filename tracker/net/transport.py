"""The live network transport: httpx's own, one per URL scheme, built on first use."""

from __future__ import annotations

import threading

import httpx


class SchemeTransport(httpx.BaseTransport):
    """httpx's ``HTTPTransport``, one per URL scheme, each built on first use.

    Building the https one loads the CA bundle into a TLS context (about 0.1 s, every
    process), so a cycle that only fetches ``http://`` URLs never pays for it; the
    first ``https://`` request builds it exactly as ``httpx.HTTPTransport()`` would
    (certificate and host name verified). The ``http://`` one gets a TLS context that
    verifies but trusts no CA: it never makes a TLS connection, and would fail closed if
    it did. A redirect from http to https is a new request and goes to the https one.
    Thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_scheme: dict[str, httpx.BaseTransport] = {}

    def _transport(self, scheme: str) -> httpx.BaseTransport:
        transport = self._by_scheme.get(scheme)
        if transport is None:
            with self._lock:
                transport = self._by_scheme.get(scheme)
                if transport is None:
                    if scheme == "http":
                        import ssl

                        untrusting = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                        transport = httpx.HTTPTransport(verify=untrusting)
                    else:  # https, and anything else httpx itself should refuse
                        transport = httpx.HTTPTransport()
                    self._by_scheme[scheme] = transport
        return transport

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._transport(request.url.scheme).handle_request(request)

    def close(self) -> None:
        with self._lock:
            transports, self._by_scheme = list(self._by_scheme.values()), {}
        for transport in transports:
            transport.close()
