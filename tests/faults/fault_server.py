"""A misbehaving HTTP server on 127.0.0.1 for the fault suite, started by the tests.

Each watch has a path ``/w/<name>`` and a mode: ``good`` serves its good body; any
other mode misbehaves in one way (see :data:`MODES`). One request per connection
(``Connection: close``). ``blackhole`` is a second listening socket whose accept queue
is full while it is paused, so connecting to it times out; resumed, it serves the good
body of its watch. Every wait is bounded and :meth:`FaultServer.close` stops it all.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections import Counter
from collections.abc import Callable

CONSENT = (
    b'<html><body><div id="consent"><p>Aceite os cookies para continuar.</p>'
    b"<button>Aceitar</button></div></body></html>"
)
BOT = (
    b"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    b'<div id="cf-chl-widget">Checking your browser before accessing the site.</div>'
    b"</body></html>"
)
REDESIGNED = (
    b'<html><body><div class="prices-v2"><span data-model="Orca 9B">0.45</span></div></body></html>'
)
PARKED = b"<html><body><h1>This domain is for sale</h1></body></html>"
INVALID_JSON = b'{"id": "acme/Orca-9B", "cardData": {"license": "apache-2.0"'
OVERSIZED_TOTAL = 21 * 1024 * 1024  # over fetch's 20 MiB cap

MODES = (
    "good",
    "read_timeout",  # reads the request, never answers
    "reset",  # closes with RST before answering
    "429",  # 429 Too Many Requests, Retry-After: 1
    "500",
    "503",
    "truncated",  # Content-Length 5000, 100 bytes, close
    "oversized",  # chunked, 21 MiB
    "invalid_json",
    "consent",
    "bot",
    "layout",  # the page was redesigned: the selector matches nothing
    "redirect_loop",
    "redirect_other_host",  # 302 to http://localhost:<port>/parked
    "empty",  # 200 with an empty body
)


class FaultServer:
    """Serve ``/w/<name>`` by ``modes[name]``; ``good[name]`` is (content type, body)."""

    def __init__(self) -> None:
        self.modes: dict[str, str] = {}
        self.good: dict[str, tuple[str, bytes]] = {}
        self.hits: Counter[str] = Counter()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.sock = self._listen(backlog=64)
        self.port = self.sock.getsockname()[1]
        self._spawn(self._accept_loop, self.sock, None)
        # The black hole: its own port, serving one watch when resumed.
        self.hole = self._listen(backlog=0)
        self.hole_port = self.hole.getsockname()[1]
        self.hole_watch: str | None = None
        self._hole_open = threading.Event()
        self._fillers: list[socket.socket] = []
        self._spawn(self._accept_loop, self.hole, self._hole_open)

    # -- control ---------------------------------------------------------------

    def url(self, name: str) -> str:
        if name == self.hole_watch:
            return f"http://127.0.0.1:{self.hole_port}/w/{name}"
        return f"http://127.0.0.1:{self.port}/w/{name}"

    def set_all(self, mode_of: Callable[[str], str]) -> None:
        with self._lock:
            for name in self.modes:
                self.modes[name] = mode_of(name)

    def pause_hole(self) -> None:
        """Stop accepting on the black-hole port and fill its queue: connects time out."""
        self._hole_open.clear()
        for _ in range(3):
            c = socket.socket()
            c.setblocking(False)
            try:
                c.connect(("127.0.0.1", self.hole_port))
            except BlockingIOError:
                pass
            self._fillers.append(c)

    def resume_hole(self) -> None:
        for c in self._fillers:
            c.close()
        self._fillers.clear()
        self._hole_open.set()

    def close(self) -> None:
        self._stop.set()
        self._hole_open.set()
        for c in self._fillers:
            c.close()
        for s in (self.sock, self.hole):
            s.close()
        for t in self._threads:
            t.join(timeout=5)

    # -- serving ---------------------------------------------------------------

    def _listen(self, backlog: int) -> socket.socket:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(backlog)
        s.settimeout(0.05)
        return s

    def _spawn(self, fn: Callable[..., None], *args: object) -> None:
        t = threading.Thread(target=fn, args=args, daemon=True)
        t.start()
        self._threads.append(t)

    def _accept_loop(self, sock: socket.socket, gate: threading.Event | None) -> None:
        while not self._stop.is_set():
            if gate is not None and not gate.wait(0.05):
                continue
            try:
                conn, _ = sock.accept()
            except (TimeoutError, BlockingIOError):
                continue
            except OSError:
                return  # closed
            self._spawn(self._handle, conn)

    def _handle(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                head += chunk
            path = head.split(b" ", 2)[1].decode("latin-1")
            self._serve(conn, path)
        except OSError:
            pass
        finally:
            conn.close()

    def _serve(self, conn: socket.socket, path: str) -> None:
        if path == "/parked":
            return _send(conn, 200, {"Content-Type": "text/html"}, PARKED)
        name = path.removeprefix("/w/")
        with self._lock:
            mode = self.modes.get(name)
            self.hits[name] += 1
        if mode is None:
            return _send(conn, 404, {}, b"")
        ctype, good = self.good[name]
        if mode == "good":
            _send(conn, 200, {"Content-Type": ctype}, good)
        elif mode == "read_timeout":
            self._stop.wait(3)
        elif mode == "reset":
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif mode == "429":
            _send(conn, 429, {"Retry-After": "1"}, b'{"error": "rate limited"}')
        elif mode in ("500", "503"):
            _send(conn, int(mode), {"Content-Type": "text/html"}, b"<h1>Server error</h1>")
        elif mode == "truncated":
            conn.sendall(_head(200, {"Content-Type": ctype, "Content-Length": "5000"}) + good[:100])
        elif mode == "oversized":
            conn.sendall(_head(200, {"Content-Type": ctype, "Transfer-Encoding": "chunked"}))
            chunk = b"x" * 65536
            sent = 0
            while sent < OVERSIZED_TOTAL and not self._stop.is_set():
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
            conn.sendall(b"0\r\n\r\n")
        elif mode == "invalid_json":
            _send(conn, 200, {"Content-Type": "application/json"}, INVALID_JSON)
        elif mode == "consent":
            _send(conn, 200, {"Content-Type": "text/html"}, CONSENT)
        elif mode == "bot":
            _send(conn, 200, {"Content-Type": "text/html"}, BOT)
        elif mode == "layout":
            _send(conn, 200, {"Content-Type": "text/html"}, REDESIGNED)
        elif mode == "redirect_loop":
            _send(conn, 302, {"Location": path}, b"")
        elif mode == "redirect_other_host":
            _send(conn, 302, {"Location": f"http://localhost:{self.port}/parked"}, b"")
        elif mode == "empty":
            _send(conn, 200, {"Content-Type": "text/html"}, b"")
        else:  # pragma: no cover - a typo in a test
            raise ValueError(f"unknown mode {mode!r}")


def _head(status: int, headers: dict[str, str]) -> bytes:
    lines = [
        f"HTTP/1.1 {status} X",
        "Connection: close",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _send(conn: socket.socket, status: int, headers: dict[str, str], body: bytes) -> None:
    conn.sendall(_head(status, {**headers, "Content-Length": str(len(body))}) + body)
