"""tracker.net.transport.SchemeTransport: the verified https transport is built on the first
https request only; plain http never loads a CA bundle and could not trust a server."""

from __future__ import annotations

import ssl

import httpx
import pytest

import tracker.net.transport as transport_mod
from tracker.net.pinning import PinnedBackend
from tracker.net.transport import SchemeTransport


class RecordingTransport(httpx.BaseTransport):
    """Stands in for CoreTransport (the pool): records how it was built and what it served."""

    built: list[RecordingTransport] = []

    def __init__(self, ssl_context: ssl.SSLContext, network_backend: object) -> None:
        self.ssl_context = ssl_context
        self.network_backend = network_backend
        self.urls: list[str] = []
        self.closed = False
        RecordingTransport.built.append(self)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.urls.append(str(request.url))
        return httpx.Response(200, text="ok")

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def recording(monkeypatch):
    RecordingTransport.built = []
    monkeypatch.setattr(transport_mod, "CoreTransport", RecordingTransport)
    return RecordingTransport.built


def test_http_only_never_builds_the_verified_transport(recording):
    with httpx.Client(transport=SchemeTransport()) as client:
        assert client.get("http://127.0.0.1:9/a").text == "ok"
        assert client.get("http://127.0.0.1:9/b").text == "ok"
    assert len(recording) == 1
    plain = recording[0]
    assert plain.urls == ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]
    ctx = plain.ssl_context
    assert isinstance(ctx, ssl.SSLContext)
    # Fails closed if it were ever used for TLS: verification on, no CA trusted.
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname is True
    assert ctx.get_ca_certs() == []
    assert plain.closed


def test_https_builds_httpx_default_transport_once_on_first_use(recording):
    transport = SchemeTransport()
    with httpx.Client(transport=transport) as client:
        client.get("https://example.org/1")
        client.get("http://example.org/2")
        client.get("https://example.org/3")
    assert len(recording) == 2
    verified = recording[0]
    # httpx's own default context: the system's CAs (certifi), host names checked.
    assert verified.ssl_context.verify_mode == ssl.CERT_REQUIRED
    assert verified.ssl_context.check_hostname is True
    assert verified.ssl_context.get_ca_certs() != []
    assert recording[1].ssl_context.get_ca_certs() == []
    # Both pools connect through the pinned backend (only to checked addresses).
    assert all(isinstance(t.network_backend, PinnedBackend) for t in recording)
    assert verified.urls == ["https://example.org/1", "https://example.org/3"]
    assert all(t.closed for t in recording)
