"""tracker.net.pinning: the live transport connects only to the addresses the address
guard checked (DNS rebinding), on every request and redirect hop, with SNI and the
certificate check on the host name.

These tests run the real live stack (``live_transport``: throttle, guard, pinned backend,
httpcore pool) against real servers on 127.0.0.1. No packet leaves the machine: the
network backend under the pinned one (:class:`LoopbackOnly`) opens loopback sockets
only, and "connects" to a public address by going to a local server standing in for it,
or refuses.
"""

from __future__ import annotations

import socket
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpcore
import httpx
import pytest

from tracker.errors import FetchError, PrivateAddress
from tracker.net.fetch import FetchSettings, fetch, live_transport, make_client
from tracker.net.pinning import PinnedBackend, pinned
from tracker.net.policy import RequestPolicy

PUBLIC = "93.184.216.34"  # a public address; never actually connected to
SETTINGS = FetchSettings(min_interval=0.0, connect_timeout=5.0, read_timeout=5.0)


class Server:
    """A real HTTP server on 127.0.0.1 recording each request's path and Host header;
    ``location`` (when set) makes it answer 302 there, else 200 ``ok``."""

    def __init__(self, location: str | None = None) -> None:
        self.requests: list[tuple[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
                outer.requests.append((self.path, self.headers.get("Host", "")))
                if location is not None:
                    self.send_response(302)
                    self.send_header("Location", location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


class LoopbackOnly(httpcore.NetworkBackend):
    """The socket layer under the pinned backend in these tests: records every host it
    is asked to connect to and resolves it as httpcore's own backend does
    (``socket.getaddrinfo``, a no-op for an IP literal); opens real sockets to 127.0.0.1
    only; a connection to a public address in ``stand_ins`` goes to that local port
    instead (the "internet"), any other is refused without touching the network."""

    def __init__(self, stand_ins: dict[tuple[str, int], int] | None = None) -> None:
        self.real = httpcore.SyncBackend()
        self.stand_ins = stand_ins or {}
        self.attempts: list[tuple[str, int]] = []

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        self.attempts.append((host, port))
        host = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4][0]
        if host == "127.0.0.1":
            return self.real.connect_tcp(host, port, timeout, local_address, socket_options)
        if (host, port) in self.stand_ins:
            local = self.stand_ins[(host, port)]
            return self.real.connect_tcp("127.0.0.1", local, timeout, None, socket_options)
        raise httpcore.ConnectError(f"test network: {host}:{port} is unreachable")

    def sleep(self, seconds: float) -> None:
        raise AssertionError("no retry sleeps expected")


def test_a_name_that_rebinds_to_loopback_never_reaches_the_loopback_server(servers, monkeypatch):
    """The resolver answers a public address first, then 127.0.0.1 (the rebinding attack).
    The connection must go to the public address that was checked, not ask again."""
    victim = Server()
    servers.append(victim)
    real_getaddrinfo = socket.getaddrinfo
    answers = iter([PUBLIC])

    def rebinding(host, port, *args, **kwargs):
        if host != "rebind.example":
            return real_getaddrinfo(host, port, *args, **kwargs)  # IP literals
        address = next(answers, "127.0.0.1")  # public once, loopback from then on
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    network = LoopbackOnly()
    client = make_client(SETTINGS, transport=live_transport(SETTINGS, network_backend=network))
    url = f"http://rebind.example:{victim.port}/secret"
    with pytest.raises(FetchError, match="unreachable"):
        fetch(client, url, retries=3, sleep=lambda _s: None)
    assert victim.requests == []
    # Three attempts, each to the checked address (kept for a minute), never re-asked.
    assert network.attempts == [(PUBLIC, victim.port)] * 3


def test_a_redirect_to_a_name_on_a_private_address_is_refused(servers):
    """A public page redirects to a host (allowed by name) that resolves to 127.0.0.1."""
    victim = Server()
    servers.append(victim)
    public = Server(location=f"http://internal.example:{victim.port}/latest/meta-data")
    servers.append(public)
    answers = {"public.example": [PUBLIC], "internal.example": ["127.0.0.1"]}
    network = LoopbackOnly(stand_ins={(PUBLIC, public.port): public.port})
    transport = live_transport(
        SETTINGS, resolve=lambda host, _port: answers[host], network_backend=network
    )
    client = make_client(SETTINGS, transport=transport)
    policy = RequestPolicy(hosts=("internal.example",))
    with pytest.raises(PrivateAddress, match="internal.example resolves to 127.0.0.1"):
        fetch(client, f"http://public.example:{public.port}/model", policy=policy)
    # The first hop went to the checked public address, Host header still the name.
    assert public.requests == [("/model", f"public.example:{public.port}")]
    assert victim.requests == []
    assert network.attempts == [(PUBLIC, public.port)]


def test_each_redirect_hop_connects_to_its_own_checked_address(servers):
    """Two public hosts (stand-ins on loopback): each hop is resolved, checked and
    connected to by its own address, with its own Host header."""
    second = Server()
    servers.append(second)
    first = Server(location=f"http://cdn.example:{second.port}/file")
    servers.append(first)
    other = "93.184.216.35"
    answers = {"hub.example": [PUBLIC], "cdn.example": [other]}
    network = LoopbackOnly(
        stand_ins={(PUBLIC, first.port): first.port, (other, second.port): second.port}
    )
    transport = live_transport(
        SETTINGS, resolve=lambda host, _port: answers[host], network_backend=network
    )
    client = make_client(SETTINGS, transport=transport)
    policy = RequestPolicy(hosts=("cdn.example",))
    fetched = fetch(client, f"http://hub.example:{first.port}/model", policy=policy)
    assert fetched.body == b"ok"
    assert network.attempts == [(PUBLIC, first.port), (other, second.port)]
    assert first.requests == [("/model", f"hub.example:{first.port}")]
    assert second.requests == [("/file", f"cdn.example:{second.port}")]


def test_a_watch_allowed_private_addresses_reaches_them_by_name(servers):
    """allow_private: the name is still connected to through the address it resolved
    to (pinned), over a real socket, with the Host header of the URL."""
    intranet = Server()
    servers.append(intranet)
    network = LoopbackOnly()
    transport = live_transport(
        SETTINGS, resolve=lambda host, _port: ["127.0.0.1"], network_backend=network
    )
    client = make_client(SETTINGS, transport=transport)
    url = f"http://wiki.intranet.example:{intranet.port}/page"
    with pytest.raises(PrivateAddress):
        fetch(client, url)
    fetched = fetch(client, url, policy=RequestPolicy(allow_private=True))
    assert fetched.body == b"ok"
    assert intranet.requests == [("/page", f"wiki.intranet.example:{intranet.port}")]
    assert network.attempts == [("127.0.0.1", intranet.port)]


class TlsProbe(httpcore.NetworkBackend):
    """Records the address connected to and the TLS parameters httpcore asks for, then
    stops the handshake (no server needed)."""

    def __init__(self) -> None:
        self.connected: list[str] = []
        self.tls: list[tuple[str | None, ssl.SSLContext]] = []

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        self.connected.append(host)
        probe = self

        class Stream(httpcore.NetworkStream):
            def start_tls(self, ssl_context, server_hostname=None, timeout=None):
                probe.tls.append((server_hostname, ssl_context))
                raise httpcore.ConnectError("handshake stopped by the test")

            def close(self) -> None:
                pass

        return Stream()


def test_tls_is_checked_against_the_host_name_not_the_pinned_address():
    probe = TlsProbe()
    transport = live_transport(
        SETTINGS, resolve=lambda host, _port: [PUBLIC], network_backend=probe
    )
    client = make_client(SETTINGS, transport=transport)
    with pytest.raises(FetchError, match="handshake stopped"):
        fetch(client, "https://hub.example/api/models/x", retries=1)
    assert probe.connected == [PUBLIC]
    [(server_hostname, context)] = probe.tls
    assert server_hostname == "hub.example"  # SNI and certificate name: the URL's host
    assert context.check_hostname is True and context.verify_mode == ssl.CERT_REQUIRED


def test_the_pinned_backend_fails_closed_without_a_checked_address():
    probe = TlsProbe()
    backend = PinnedBackend(probe)
    with pytest.raises(httpcore.ConnectError, match="no checked address"):
        backend.connect_tcp("hub.example", 443)
    with pinned("hub.example", [PUBLIC]):
        with pinned("cdn.example", ["93.184.216.35"]):
            backend.connect_tcp("HUB.example.", 443)  # the same host, however written
            backend.connect_tcp("cdn.example", 443)
        with pytest.raises(httpcore.ConnectError):
            backend.connect_tcp("cdn.example", 443)  # that pin ended with its block
    assert probe.connected == [PUBLIC, "93.184.216.35"]


def test_a_name_that_does_not_resolve_is_a_connect_error():
    def nowhere(host, port):
        raise socket.gaierror(-2, "Name or service not known")

    transport = live_transport(SETTINGS, resolve=nowhere, network_backend=TlsProbe())
    with pytest.raises(httpx.ConnectError, match="nowhere.example: .*Name or service"):
        make_client(SETTINGS, transport=transport).get("https://nowhere.example/")
