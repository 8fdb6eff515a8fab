"""Where one watch's requests may go, and what of them a recording may keep (issue 20:
fetching that cannot be steered).

- Hosts: a redirect or a next-page link is followed only to the host of the URL the
  watch asked for, or to a host of its allow-list (watch param ``allow_hosts``, plus
  the adapter's own, e.g. the Hub's file CDN): ``"cdn.example.com"`` or
  ``"*.hf.co"`` (any subdomain). Anything else fails the watch with
  :class:`~tracker.errors.OffHost` naming the target.
- Addresses: a private, loopback, link-local (169.254.169.254, the cloud metadata
  service), multicast, reserved or unspecified address is refused unless the watch
  sets ``allow_private = true`` (or the client's settings allow it: tests against a
  local server). Checked on the literal host and, on the live transport, on every
  address the name resolves to (:class:`AddressGuard`), each redirect hop too; the
  connection then goes to one of the addresses checked, never to a second answer of
  the name (:mod:`tracker.net.pinning`: DNS rebinding).
- Secrets: the names of the headers a watch's ``auth`` adds are never written to a
  recording, whatever they are called.

The policy travels with each request in its extensions (:data:`EXTENSION`), so the
transports below the client (address guard, recorder) apply it.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from tracker.errors import OffHost, PrivateAddress

EXTENSION = "tracker_policy"
RESOLVE_TTL_S = 60.0  # seconds a host's resolved addresses are reused by AddressGuard


def host_matches(host: str, pattern: str) -> bool:
    """``host`` is ``pattern``, or a subdomain of ``pattern``'s ``*.`` suffix
    (case-insensitive; ``*.hf.co`` matches ``cdn-lfs.hf.co``, not ``hf.co.evil``)."""
    host, pattern = host.lower().rstrip("."), pattern.lower().rstrip(".")
    if pattern.startswith("*."):
        return host.endswith(pattern[1:])
    return host == pattern


def is_private(address: str) -> bool:
    """True for an IP address a watch must not reach by default (private, loopback,
    link-local, multicast, reserved, unspecified; an IPv4-mapped IPv6 address by its
    IPv4 one). False for a public address or a name that is not an IP literal."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


@dataclass(frozen=True)
class RequestPolicy:
    """One watch's request policy. ``hosts``: extra host patterns redirects and links
    may go to; ``allow_private``: reach private addresses; ``secret_headers``: lower-case
    names of headers never written to a recording."""

    hosts: tuple[str, ...] = ()
    allow_private: bool = False
    secret_headers: frozenset[str] = frozenset()

    def check_host(self, origin: str | httpx.URL, target: str | httpx.URL, what: str) -> None:
        """Raise OffHost unless ``target``'s host is ``origin``'s or an allowed one;
        ``what`` says what pointed there (``redirect``, ``next-page link``, ``file``)."""
        o, t = httpx.URL(str(origin)), httpx.URL(str(target))
        if t.host == o.host or any(host_matches(t.host, p) for p in self.hosts):
            return
        raise OffHost(
            f"{origin}: {what} to {target} refused: host {t.host} is not {o.host} nor in "
            "the watch's allow_hosts",
            url=str(target),
        )

    def check_address(self, url: str | httpx.URL) -> None:
        """Raise PrivateAddress when ``url``'s host is a private IP literal (and the
        policy does not allow it)."""
        host = httpx.URL(str(url)).host
        if not self.allow_private and (is_private(host) or host.lower() == "localhost"):
            raise PrivateAddress(
                f"{url}: {host} is a private, loopback or link-local address "
                "(set allow_private = true on the watch to fetch it)",
                url=str(url),
            )


def same_host(a: str | httpx.URL, b: str | httpx.URL) -> bool:
    """Whether two URLs name the same host (credentials go only to their own host)."""
    return httpx.URL(str(a)).host.lower() == httpx.URL(str(b)).host.lower()


def watch_policy(
    params: Mapping[str, Any], adapter_hosts: Iterable[str], auth_names: Iterable[str]
) -> RequestPolicy:
    """A watch's policy from its params (``allow_hosts``: host patterns,
    ``allow_private``: true), its adapter's own host patterns and the names of the
    headers its ``auth`` adds."""
    extra = params.get("allow_hosts") or ()
    hosts = tuple(str(h) for h in (extra if isinstance(extra, list) else ()))
    return RequestPolicy(
        hosts=(*hosts, *adapter_hosts),
        allow_private=params.get("allow_private") is True,
        secret_headers=frozenset(n.lower() for n in auth_names),
    )


def policy_of(request: httpx.Request) -> RequestPolicy | None:
    """The policy a request carries (None: a request made outside a watch)."""
    policy = request.extensions.get(EXTENSION)
    return policy if isinstance(policy, RequestPolicy) else None


Resolver = Callable[[str, int], Iterable[str]]


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))  # in order, once each


class AddressGuard(httpx.BaseTransport):
    """Live transport wrapper: refuses a request whose host resolves to a private
    address unless its policy (or ``allow_private`` for the whole client) allows it,
    and pins the addresses it checked for the request
    (:func:`tracker.net.pinning.pinned`), so the live transport's connection goes to
    one of them and never resolves the name again (DNS rebinding: a second answer of
    127.0.0.1 is never asked for). Every request is checked, each redirect hop too
    (the client sends each as a request).

    A host's answer is kept :data:`RESOLVE_TTL_S` seconds, so pooled requests to one
    host cost no lookup each. A request without a policy is checked as if with the
    default one. A request its policy lets reach private addresses goes to
    ``private_inner`` when given (its own connection pool: a connection opened to a
    private address is never reused by a request that may not reach one).
    A name that does not resolve raises ``httpx.ConnectError``.
    """

    def __init__(
        self,
        inner: httpx.BaseTransport,
        *,
        allow_private: bool = False,
        resolve: Resolver = _resolve,
        monotonic: Callable[[], float] = time.monotonic,
        private_inner: httpx.BaseTransport | None = None,
    ) -> None:
        self.inner = inner
        self.private_inner = private_inner
        self.allow_private = allow_private
        self.resolve = resolve
        self.monotonic = monotonic
        self._cache: dict[tuple[str, int], tuple[float, list[str]]] = {}
        self._lock = threading.Lock()

    def _addresses(self, request: httpx.Request) -> list[str]:
        host, port = (
            request.url.host,
            request.url.port or _DEFAULT_PORTS.get(request.url.scheme, 443),
        )
        now = self.monotonic()
        with self._lock:
            hit = self._cache.get((host, port))
        if hit is not None and now - hit[0] < RESOLVE_TTL_S:
            return hit[1]
        try:
            addresses = list(self.resolve(host, port))
        except OSError as exc:
            raise httpx.ConnectError(f"{host}: {exc}", request=request) from exc
        with self._lock:
            self._cache[(host, port)] = (now, addresses)
        return addresses

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        from tracker.net.pinning import pinned

        policy = policy_of(request) or RequestPolicy()
        check = not (self.allow_private or policy.allow_private)
        inner = self.inner
        if policy.allow_private and not self.allow_private and self.private_inner is not None:
            inner = self.private_inner
        if check:
            policy.check_address(request.url)
        addresses = self._addresses(request)
        if check:
            for address in addresses:
                if is_private(address):
                    raise PrivateAddress(
                        f"{request.url}: {request.url.host} resolves to {address}, a "
                        "private, loopback or link-local address (set allow_private = "
                        "true on the watch)",
                        url=str(request.url),
                    )
        with pinned(request.url.host, addresses):
            return inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()
        if self.private_inner is not None:
            self.private_inner.close()
