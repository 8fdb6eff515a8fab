"""tracker.net.client.HttpClient: one GET over an httpx transport, redirects followed as httpx's
Client follows them, no cookies carried, an API key never sent to another origin."""

from __future__ import annotations

import httpx
import pytest

from tracker.net.client import HttpClient
from tracker.net.fetch import fetch, make_client


def _client(handler, max_redirects: int = 5) -> HttpClient:
    return HttpClient(
        httpx.MockTransport(handler),
        headers={"User-Agent": "ua/1"},
        timeout=httpx.Timeout(30.0, connect=10.0),
        max_redirects=max_redirects,
    )


def test_headers_and_timeouts_reach_the_transport():
    seen: list[httpx.Request] = []

    def handler(request):
        seen.append(request)
        return httpx.Response(200, text="ok")

    response = _client(handler).get("http://a.example/x", {"If-None-Match": '"v1"'})
    response.read()
    (request,) = seen
    assert request.headers["user-agent"] == "ua/1"
    assert request.headers["if-none-match"] == '"v1"'
    assert request.headers["host"] == "a.example"
    assert request.headers["accept-encoding"] == "gzip, deflate"
    assert request.extensions["timeout"] == {
        "connect": 10.0,
        "read": 30.0,
        "write": 30.0,
        "pool": 30.0,
    }
    assert (response.status_code, response.text, response.history) == (200, "ok", [])
    assert str(response.url) == "http://a.example/x"


def test_relative_redirect_is_resolved_and_listed_with_the_fragment_kept():
    def handler(request):
        if request.url.path == "/dir/old":
            return httpx.Response(301, headers={"Location": "../new?q=1"})
        return httpx.Response(200, text=str(request.url))

    response = _client(handler).get("https://a.example/dir/old#spec")
    response.read()
    assert str(response.url) == "https://a.example/new?q=1#spec"
    assert [(r.status_code, str(r.url)) for r in response.history] == [
        (301, "https://a.example/dir/old#spec")
    ]
    assert all(r.is_closed for r in response.history)


def test_cross_origin_redirect_drops_the_callers_headers_same_origin_keeps_them():
    seen: list[tuple[str, str | None]] = []

    def handler(request):
        seen.append((str(request.url), request.headers.get("x-api-key")))
        if request.url.path == "/a":
            return httpx.Response(302, headers={"Location": "/b"})
        if request.url.path == "/b":
            return httpx.Response(307, headers={"Location": "https://other.example/c"})
        return httpx.Response(200)

    _client(handler).get("https://api.example/a", {"x-api-key": "secret"}).read()
    assert seen == [
        ("https://api.example/a", "secret"),
        ("https://api.example/b", "secret"),
        ("https://other.example/c", None),
    ]


def test_a_huge_redirect_body_is_not_read_into_memory():
    read: list[int] = []

    def endless():
        for _ in range(10_000):  # 10 MB, generated as it is read
            read.append(1)
            yield b"x" * 1024

    def handler(request):
        if request.url.path == "/old":
            return httpx.Response(302, headers={"Location": "/new"}, content=endless())
        return httpx.Response(200, text="ok")

    response = _client(handler).get("http://a.example/old")
    assert response.read() == b"ok"
    assert len(read) == 65  # stopped just past 64 KiB; the rest was never produced


def test_redirect_loop_stops_after_max_redirects_like_httpx():
    hits: list[str] = []

    def handler(request):
        hits.append(request.url.path)
        return httpx.Response(302, headers={"Location": "/loop"})

    with pytest.raises(httpx.TooManyRedirects):
        _client(handler, max_redirects=5).get("http://a.example/loop")
    assert len(hits) == 6  # the request and 5 redirects, as httpx.Client(max_redirects=5)


def test_redirect_to_another_scheme_is_refused():
    handler = lambda request: httpx.Response(302, headers={"Location": "ftp://a.example/f"})  # noqa: E731
    with pytest.raises(httpx.UnsupportedProtocol):
        _client(handler).get("http://a.example/x")


def test_a_304_is_not_followed_even_with_a_location():
    handler = lambda request: httpx.Response(304, headers={"Location": "/elsewhere"})  # noqa: E731
    response = _client(handler).get("http://a.example/x")
    assert response.status_code == 304 and response.history == []


def test_no_cookie_is_carried_from_one_watch_to_the_next():
    cookies: list[str | None] = []

    def handler(request):
        cookies.append(request.headers.get("cookie"))
        return httpx.Response(200, headers={"Set-Cookie": "session=abc; Path=/"})

    client = make_client(transport=httpx.MockTransport(handler))
    fetch(client, "https://a.example/1")
    fetch(client, "https://a.example/2")
    assert cookies == [None, None]


def test_close_closes_the_transport():
    closed: list[bool] = []

    class Transport(httpx.MockTransport):
        def close(self) -> None:
            closed.append(True)

    with HttpClient(
        Transport(lambda r: httpx.Response(200)),
        headers={},
        timeout=httpx.Timeout(1.0),
        max_redirects=1,
    ):
        pass
    assert closed == [True]
