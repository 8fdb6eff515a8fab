"""Connect only to the addresses the address guard checked (DNS rebinding).

:class:`~tracker.net.policy.AddressGuard` resolves a request's host and checks every
address against the watch's policy; if the connection then resolved the name again, a
hostile DNS server could answer a public address to the check and 127.0.0.1 or
169.254.169.254 to the connection. So the guard *pins* the checked addresses for the
request (:func:`pinned`, on the calling thread: httpcore's sync pool opens a connection
on the thread that sends the request) and the live transport's network backend,
:class:`PinnedBackend`, connects to those literal addresses only, never resolving a
name; with no pin for the host it refuses to connect (fails closed).

Why a network backend and not the common recipe of rewriting the URL to the IP with
the ``sni_hostname`` extension (encode/httpx#2868, encode/httpcore#691): the pool keys
connections by the URL's origin, so with the IP in the URL a TLS connection verified
for one host would be reused for another host on the same (CDN) address. A network
backend (httpcore's public API, https://www.encode.io/httpcore/network-backends) leaves
the URL, the pool key, the ``Host`` header and TLS alone: httpcore still calls
``start_tls(server_hostname=<the URL's host>)``, so SNI and the certificate check are on
the host name, while the socket goes to the checked address. The rule is the usual one
for SSRF guards: resolve once, check, and hand the client the exact address checked
so it never looks the name up again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import httpcore

_pins = threading.local()


@contextmanager
def pinned(host: str, addresses: Sequence[str]) -> Iterator[None]:
    """While the block runs on this thread, connections to ``host`` go to ``addresses``
    (IP literals, tried in order) and nowhere else. Nests (a previous pin for another
    host is kept and restored)."""
    table: dict[str, tuple[str, ...]] = getattr(_pins, "table", None) or {}
    key = host.lower().rstrip(".")
    before = table.get(key)
    table[key] = tuple(addresses)
    _pins.table = table
    try:
        yield
    finally:
        if before is None:
            table.pop(key, None)
        else:
            table[key] = before


def pinned_addresses(host: str) -> tuple[str, ...] | None:
    """The addresses pinned for ``host`` on this thread (None: no pin)."""
    table: dict[str, tuple[str, ...]] = getattr(_pins, "table", None) or {}
    return table.get(host.lower().rstrip("."))


class PinnedBackend(httpcore.NetworkBackend):
    """An httpcore network backend that opens TCP connections only to the addresses
    pinned for the host on this thread (:func:`pinned`), through ``inner``
    (default ``httpcore.SyncBackend()``, plain sockets). Raises ``httpcore.ConnectError``
    when the host has no pin, or the last address's error when none connects."""

    def __init__(self, inner: httpcore.NetworkBackend | None = None) -> None:
        self.inner = inner if inner is not None else httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = pinned_addresses(host)
        if not addresses:
            raise httpcore.ConnectError(
                f"{host}: no checked address to connect to (the address guard must "
                "resolve and check the host first)"
            )
        error: Exception | None = None
        for address in addresses:
            try:
                return self.inner.connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                error = exc
        assert error is not None
        raise error

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not used by the tracker")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)
