"""A small Chrome DevTools Protocol client for the browser tests: ONE headless Chromium
process for the whole session, driven over ``--remote-debugging-pipe`` (fds 3 and 4,
NUL-terminated JSON), so no websocket library and no port are needed.

``Browser(binary)`` starts it; ``browser.page(width, height)`` opens a tab with that
viewport; ``page.goto(url, js=True)`` loads a page and waits for its load event;
``page.eval(expr)`` returns a value; ``page.problems`` lists console errors, uncaught
exceptions and failed loads; ``page.requests`` every URL the page asked for;
``page.screenshot(path)`` writes a full-page PNG.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--allow-file-access-from-files",
    "--remote-debugging-pipe",
)
TIMEOUT = 60.0


class CDPError(RuntimeError):
    """A command failed or timed out."""


class Browser:
    """One Chromium process; commands and events over its debugging pipe."""

    def __init__(self, binary: str, profile: Path) -> None:
        to_child, self._out = os.pipe()  # we write commands, Chromium reads fd 3
        self._in, from_child = os.pipe()  # Chromium writes fd 4, we read

        def wire() -> None:  # in the child, before exec
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        self.proc = subprocess.Popen(  # noqa: S603 - a fixed local binary
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=wire,  # noqa: PLW1509 - single-threaded at this point
        )
        os.close(to_child)
        os.close(from_child)
        self._next = 0
        self._lock = threading.Lock()
        self._waiting: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._events: dict[str, queue.Queue[dict[str, Any]]] = {}
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        while True:
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg and msg["id"] in self._waiting:
                    self._waiting.pop(msg["id"]).put(msg)
                elif "method" in msg:
                    sink = self._events.get(msg.get("sessionId", ""))
                    if sink is not None:
                        sink.put(msg)

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send one command and return its result; raises :class:`CDPError`."""
        with self._lock:
            self._next += 1
            n = self._next
            box: queue.Queue[dict[str, Any]] = queue.Queue()
            self._waiting[n] = box
            msg: dict[str, Any] = {"id": n, "method": method, "params": params}
            if session:
                msg["sessionId"] = session
            os.write(self._out, json.dumps(msg).encode() + b"\0")
        try:
            reply = box.get(timeout=TIMEOUT)
        except queue.Empty as exc:
            raise CDPError(f"{method}: no reply in {TIMEOUT} s") from exc
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error']}")
        return reply.get("result", {})  # type: ignore[no-any-return]

    def page(self, width: int, height: int) -> Page:
        """A new tab with a ``width`` x ``height`` CSS-pixel viewport."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self._events[session] = queue.Queue()
        return Page(self, session, target, width, height)

    def close(self) -> None:
        """End the Chromium process (the one this object started)."""
        try:
            self.send("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass


class Page:
    """One tab: navigation, evaluation, screenshots and what went wrong on it."""

    def __init__(self, browser: Browser, session: str, target: str, width: int, height: int):
        self.browser, self.session, self.target = browser, session, target
        self.width, self.height = width, height
        self.problems: list[str] = []
        self.requests: list[str] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command in this tab."""
        return self.browser.send(method, self.session, **params)

    def _drain(self, until: str | None = None) -> None:
        """Read this tab's events, noting problems and requests, until ``until`` (an
        event name) arrives; raises :class:`CDPError` when it does not in time."""
        events = self.browser._events[self.session]
        while True:
            try:
                msg = events.get(timeout=TIMEOUT if until else 0.05)
            except queue.Empty:
                if until:
                    raise CDPError(f"no {until} in {TIMEOUT} s") from None
                return
            method, params = msg["method"], msg.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                text = details.get("exception", {}).get("description") or details.get("text")
                self.problems.append(f"uncaught: {text}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                args = [a.get("value", a.get("description")) for a in params.get("args", [])]
                self.problems.append(f"console.error: {args}")
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                self.problems.append(f"log: {params['entry'].get('text')}")
            elif method == "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            elif method == "Network.loadingFailed" and not params.get("canceled"):
                self.problems.append(f"failed load: {params.get('errorText')}")
            if until and method == until:
                return

    def goto(self, url: str, *, js: bool = True) -> None:
        """Load ``url`` (scripts on or off) and wait for its load event."""
        self._drain()
        self.problems.clear()
        self.requests.clear()
        self.send("Emulation.setScriptExecutionDisabled", value=not js)
        self.send("Page.navigate", url=url)
        self._drain(until="Page.loadEventFired")
        self._drain()

    def eval(self, expression: str, *, await_promise: bool = False) -> Any:
        """The value of a JavaScript expression in the page (works with scripts off:
        the DevTools protocol evaluates regardless)."""
        result = self.send(
            "Runtime.evaluate",
            expression=expression,
            returnByValue=True,
            awaitPromise=await_promise,
        )
        if "exceptionDetails" in result:
            raise CDPError(f"evaluate: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        """A PNG of the whole page (not only the viewport) at ``path``."""
        self.send("Page.bringToFront")  # a background tab draws no frame to capture
        height = int(self.eval("document.documentElement.scrollHeight"))
        shot = self.send(
            "Page.captureScreenshot",
            format="png",
            captureBeyondViewport=True,
            clip={"x": 0, "y": 0, "width": self.width, "height": min(height, 16000), "scale": 1},
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        """Close the tab."""
        self.browser.send("Target.closeTarget", targetId=self.target)
