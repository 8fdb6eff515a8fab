"""A local page server for the bench: 127.0.0.1, threaded, ETag + Last-Modified, 304s.

Serves ``/m/<index>`` from an in-memory :class:`PageSite` and counts what it sent
(requests, 304s, bytes on the wire: status line + headers + body). Started and
stopped by the bench itself (``with serve(site) as url: ...``).
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pages


@dataclass
class Page:
    body: bytes
    etag: str
    last_modified: str


@dataclass
class Counters:
    requests: int = 0
    not_modified: int = 0
    bytes_sent: int = 0
    body_bytes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def snapshot(self) -> tuple[int, int, int, int]:
        """(requests, 304s, bytes on the wire, body bytes) so far."""
        with self.lock:
            return self.requests, self.not_modified, self.bytes_sent, self.body_bytes


class PageSite:
    """``n`` pages; :meth:`change` bumps some of them to a new version (new bytes)."""

    def __init__(self, n: int) -> None:
        self.versions = [0] * n
        self.pages: list[Page] = []
        self._clock = 1_700_000_000.0
        for i in range(n):
            self.pages.append(self._make(i))
        self.counters = Counters()

    def _make(self, i: int) -> Page:
        body = pages.render(i, self.versions[i])
        self._clock += 1
        lm = email.utils.formatdate(self._clock, usegmt=True)
        return Page(body, pages.etag(body), lm)

    def change(self, indexes: list[int]) -> None:
        for i in indexes:
            self.versions[i] += 1
            self.pages[i] = self._make(i)


class _Handler(BaseHTTPRequestHandler):
    server_version = "bench/1"
    protocol_version = "HTTP/1.1"
    site: PageSite

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass

    def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        head = [f"{self.protocol_version} {status} {self.responses[status][0]}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        raw = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        self.wfile.write(raw)
        c = self.site.counters
        with c.lock:
            c.requests += 1
            c.bytes_sent += len(raw)
            c.body_bytes += len(body)
            c.not_modified += status == 304

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        parts = self.path.strip("/").split("/")
        if (
            len(parts) != 2
            or parts[0] != "m"
            or not parts[1].isdigit()
            or int(parts[1]) >= len(self.site.pages)
        ):
            self._send(404, {"Content-Length": "0"}, b"")
            return
        page = self.site.pages[int(parts[1])]
        date = self.date_time_string()
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if (inm is not None and inm == page.etag) or (inm is None and ims == page.last_modified):
            # RFC 9110 section 15.4.5: a 304 carries Date and ETag (as a 200 would), SHOULD
            # NOT carry other representation metadata such as Last-Modified when an ETag is
            # sent, and MUST NOT carry a Content-Length other than the 200's (section 8.6).
            self._send(304, {"Date": date, "ETag": page.etag}, b"")
            return
        self._send(
            200,
            {
                "Date": date,
                "ETag": page.etag,
                "Last-Modified": page.last_modified,
                "Content-Type": "text/html; charset=utf-8",
                "Content-Length": str(len(page.body)),
            },
            page.body,
        )


@contextmanager
def serve(site: PageSite) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (a free port) in a daemon thread; yields the base URL."""
    handler = type("Handler", (_Handler,), {"site": site})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    httpd.request_queue_size = 128
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
        time.sleep(0)
