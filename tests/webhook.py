"""A local webhook for alert tests: records JSON posts; ``respond`` picks the status."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Hook:
    """Serves on 127.0.0.1:<free port>; ``posts`` holds every JSON body received;
    ``headers`` are sent with every answer (e.g. ``Retry-After`` with a 429)."""

    def __init__(
        self, respond: Callable[[dict[str, Any]], int], headers: dict[str, str] | None = None
    ) -> None:
        self.posts: list[dict[str, Any]] = []
        self.headers = dict(headers or {})
        self.statuses: list[int] = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                hook.posts.append(body)
                status = respond(body)
                hook.statuses.append(status)
                payload = b'{"content": ["too long"]}' if status == 400 else b""
                self.send_response(status)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in hook.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Hook:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
