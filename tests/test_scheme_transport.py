"""tracker.net.transport.SchemeTransport: the verified https transport is built on the first
https request only; plain http never loads a CA bundle and could not trust a server."""

from __future__ import annotations

import ssl

import httpx
import pytest

import tracker.net.transport as transport_mod
from tracker.net.transport import SchemeTransport


class RecordingTransport(httpx.BaseTransport):
    """Stands in for httpx.HTTPTransport: records how it was built and what it served."""

    built: list[RecordingTransport] = []

    def __init__(self, **kwargs: object) -> None:
        self.kwargs = kwargs
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
    monkeypatch.setattr(transport_mod.httpx, "HTTPTransport", RecordingTransport)
    return RecordingTransport.built


def test_http_only_never_builds_the_verified_transport(recording):
    with httpx.Client(transport=SchemeTransport()) as client:
        assert client.get("http://127.0.0.1:9/a").text == "ok"
        assert client.get("http://127.0.0.1:9/b").text == "ok"
    assert len(recording) == 1
    plain = recording[0]
    assert plain.urls == ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]
    ctx = plain.kwargs["verify"]
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
    assert [t.kwargs for t in recording] == [{}, {"verify": recording[1].kwargs["verify"]}]
    verified = recording[0]
    assert verified.urls == ["https://example.org/1", "https://example.org/3"]
    assert all(t.closed for t in recording)
