"""HAR 1.2 files as an httpx transport: replay recorded responses, or record live ones.

HAR is the format browsers export (http://www.softwareishard.com/blog/har-12-spec/):
``log.entries[]`` with ``startedDateTime``, ``request.method/url``,
``response.status/headers/content.text/encoding`` and an optional ``comment``.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import threading
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import httpx

from tracker.errors import ConfigError, NotRecorded
from tracker.net.body import read_body
from tracker.net.harcheck import entries_problems, started_at
from tracker.net.policy import policy_of

# Headers that describe the bytes on the wire; a HAR body is stored decoded, so they
# must not be replayed (httpx would try to gunzip plain text).
_WIRE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
# What one recorded body may be, decoded (tracker.net.fetch's defaults: a cap and a
# total time per exchange, so a recording is no easier to exhaust than a check).
RECORD_MAX_BYTES = 20 * 1024 * 1024
RECORD_TOTAL_TIMEOUT = 120.0
# Request headers that carry credentials; never written to a HAR file.
_SECRET_HEADERS = frozenset(
    {"authorization", "cookie", "x-api-key", "api-key", "proxy-authorization"}
)


def _key(method: str, url: str | httpx.URL) -> tuple[str, str]:
    """Method + URL with the query decoded, so ``expand%5B%5D=x`` (as a browser exports
    it) and ``expand[]=x`` (as httpx sends it) are one key; parameter order counts."""
    u = httpx.URL(str(url))
    query = "&".join(f"{k}={v}" for k, v in u.params.multi_items())
    port = f":{u.port}" if u.port else ""
    return (method.upper(), f"{u.scheme}://{u.host}{port}{u.path}" + (f"?{query}" if query else ""))


# How far a replayed entry may be dated after now (clocks differ a little) before it is
# refused as dated in the future.
FUTURE_SKEW = dt.timedelta(minutes=5)


def request_key(method: str, url: str | httpx.URL) -> tuple[str, str]:
    """The key a replay finds a request's answer by: method and URL with the query
    decoded (``expand%5B%5D=x`` and ``expand[]=x`` are one key; order counts)."""
    return _key(method, url)


def _parse_time(text: str) -> dt.datetime:
    return started_at(text)


def _iso(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class _Recorded:
    __slots__ = ("status", "headers", "body", "recorded_at", "comment", "index", "url")

    def __init__(self, entry: dict[str, Any], where: str, index: int = 0) -> None:
        self.index = index
        try:
            self.url = str(entry["request"]["url"])
            resp = entry["response"]
            self.status = int(resp["status"])
            self.headers = [
                (h["name"], h["value"])
                for h in resp.get("headers", [])
                if h["name"].lower() not in _WIRE_HEADERS
            ]
            content = resp.get("content", {})
            text = content.get("text", "")
            if content.get("encoding") == "base64":
                self.body = base64.b64decode(text)
            else:
                self.body = text.encode("utf-8")
            self.recorded_at = _parse_time(entry["startedDateTime"])
            self.comment = entry.get("comment", "")
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: malformed HAR entry ({exc})") from exc

    def header(self, name: str) -> str | None:
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return None


class HarReplayTransport(httpx.BaseTransport):
    """Serves the responses recorded in a HAR file, keyed by method + URL.

    - Several entries for one key are served in file order; the last one repeats (so a
      recorded 429, 429, 200 sequence replays as such).
    - A request whose key is not in the file raises :class:`NotRecorded` naming it.
    - Conditional requests are answered as the server would (RFC 9110 §13.1): an
      ``If-None-Match`` equal to the recorded ``ETag`` or an ``If-Modified-Since`` equal
      to the recorded ``Last-Modified`` gets a 304 with no body.
    - Each response carries ``extensions["recorded_at"]`` (the entry's
      ``startedDateTime``, aware UTC) which :func:`tracker.net.fetch.fetch` uses as the fetch
      time, so replayed observations carry the recorded time, not now.
    - Thread-safe: each key's entries are served in order whichever thread asks.

    Raises :class:`ConfigError` when the file is not a readable HAR 1.2 log.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            entries = data["log"]["entries"]
            if not isinstance(entries, list):
                raise TypeError("log.entries is not a list")
        except (KeyError, TypeError) as exc:  # JSON, but not HAR 1.2's shape
            raise ConfigError(
                f"{self.path}: not a HAR file: no log.entries list (HAR 1.2, "
                "http://www.softwareishard.com/blog/har-12-spec/)"
            ) from exc
        except (OSError, ValueError, RecursionError) as exc:
            raise ConfigError(f"{self.path}: not a readable HAR file ({exc})") from exc
        problems = entries_problems(entries)
        if problems:  # every malformed entry, one line each, before anything is served
            raise ConfigError(
                f"{self.path}: {len(problems)} malformed HAR entr"
                f"{'y' if len(problems) == 1 else 'ies'}:\n"
                + "\n".join(f"{self.path}: {p}" for p in problems)
            )
        self._entries: dict[tuple[str, str], list[_Recorded]] = {}
        self._urls: list[str] = []
        for i, entry in enumerate(entries):
            where = f"{self.path}: log.entries[{i}]"
            key = _key(entry["request"]["method"], entry["request"]["url"])
            if key not in self._entries:
                self._urls.append(entry["request"]["url"])
            self._entries.setdefault(key, []).append(_Recorded(entry, where, i))
        self._served: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()  # the concurrent cycle replays from worker threads

    def urls(self) -> list[str]:
        """Every recorded URL, in file order of first appearance."""
        return list(self._urls)

    def refuse_future(self, now: dt.datetime, skew: dt.timedelta = FUTURE_SKEW) -> None:
        """Raise ConfigError naming the file and every entry (``log.entries[3]``, its
        URL and time) whose ``startedDateTime`` is later than ``now`` + ``skew``: an
        answer cannot have been recorded in the future (a hand-written replay with a
        wrong date would otherwise date observations, and each watch's last check, ahead
        of every real check)."""
        late = [
            f"{self.path}: log.entries[{rec.index}] ({rec.url}): startedDateTime "
            f"{_iso(rec.recorded_at)} is later than now ({_iso(now)})"
            for recs in self._entries.values()
            for rec in recs
            if rec.recorded_at > now + skew
        ]
        if late:
            raise ConfigError(
                f"{self.path}: {len(late)} entr{'y' if len(late) == 1 else 'ies'} dated in "
                "the future (a replay is of answers already given; fix the dates):\n"
                + "\n".join(sorted(late))
            )

    def latest_recorded_at(self) -> dt.datetime | None:
        """The latest ``startedDateTime`` in the file (aware UTC), None for an empty log:
        the time the recorded data is as of."""
        times = [rec.recorded_at for recs in self._entries.values() for rec in recs]
        return max(times) if times else None

    def answered_at(self, url: str, retried: Collection[int] = frozenset()) -> dt.datetime | None:
        """The time (aware UTC) of the entry a first GET of ``url`` ends up answered by:
        entries of one key are served in file order, and a fetch asks again after a
        status in ``retried`` (:data:`tracker.net.fetch.RETRY_STATUSES`), so it is the
        first entry of the key with another status, else the last one. None when the
        recording has no answer for ``url``. A replayed watch's observations carry this
        time (:func:`tracker.net.fetch.fetch` reads it as the fetch time)."""
        recorded = self._entries.get(_key("GET", url))
        if not recorded:
            return None
        final = next((r for r in recorded if r.status not in retried), recorded[-1])
        return final.recorded_at

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key = _key(request.method, request.url)
        recorded = self._entries.get(key)
        if not recorded:
            raise NotRecorded(
                f"{request.method} {request.url} is not recorded in {self.path}",
                url=str(request.url),
            )
        with self._lock:
            n = self._served.get(key, 0)
            self._served[key] = n + 1
        rec = recorded[min(n, len(recorded) - 1)]
        ext = {"recorded_at": rec.recorded_at}
        if 200 <= rec.status < 300 and _not_modified(request, rec):
            keep = [
                (k, v) for k, v in rec.headers if k.lower() in ("etag", "last-modified", "date")
            ]
            return httpx.Response(304, headers=keep, request=request, extensions=ext)
        return httpx.Response(
            rec.status, headers=rec.headers, content=rec.body, request=request, extensions=ext
        )


def _not_modified(request: httpx.Request, rec: _Recorded) -> bool:
    inm = request.headers.get("if-none-match")
    etag = rec.header("etag")
    if inm is not None:
        return etag is not None and inm.strip() == etag.strip()
    ims = request.headers.get("if-modified-since")
    lm = rec.header("last-modified")
    return ims is not None and lm is not None and ims.strip() == lm.strip()


def har_entry(
    method: str,
    url: str,
    status: int,
    headers: list[tuple[str, str]],
    body: bytes,
    started: dt.datetime,
    *,
    comment: str = "",
    request_headers: list[tuple[str, str]] | None = None,
    status_text: str = "",
) -> dict[str, Any]:
    """One HAR 1.2 entry. Text bodies are stored as text, others base64."""
    mime = next((v for k, v in headers if k.lower() == "content-type"), "")
    try:
        content: dict[str, Any] = {
            "size": len(body),
            "mimeType": mime,
            "text": body.decode("utf-8"),
        }
    except UnicodeDecodeError:
        content = {
            "size": len(body),
            "mimeType": mime,
            "text": base64.b64encode(body).decode("ascii"),
            "encoding": "base64",
        }
    parsed = httpx.URL(url)
    return {
        "startedDateTime": _iso(started),
        "time": 0,
        "request": {
            "method": method.upper(),
            "url": url,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": [{"name": k, "value": v} for k, v in (request_headers or [])],
            "queryString": [{"name": k, "value": v} for k, v in parsed.params.multi_items()],
            "headersSize": -1,
            "bodySize": 0,
        },
        "response": {
            "status": status,
            "statusText": status_text,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": [{"name": k, "value": v} for k, v in headers],
            "content": content,
            "redirectURL": next((v for k, v in headers if k.lower() == "location"), ""),
            "headersSize": -1,
            "bodySize": len(body),
        },
        "cache": {},
        "timings": {"send": 0, "wait": 0, "receive": 0},
        "comment": comment,
    }


def har_document(entries: list[dict[str, Any]], *, comment: str = "") -> dict[str, Any]:
    """A HAR 1.2 ``{"log": ...}`` document around ``entries``."""
    from tracker.net.fetch import package_version  # the creator version, read in one place

    log: dict[str, Any] = {
        "version": "1.2",
        "creator": {"name": "release-tracker", "version": package_version()},
        "entries": entries,
    }
    if comment:
        log["comment"] = comment
    return {"log": log}


def write_har(path: str | Path, entries: list[dict[str, Any]], *, comment: str = "") -> Path:
    """Write a HAR file (UTF-8, 2-space indent, trailing newline); returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(har_document(entries, comment=comment), indent=2, ensure_ascii=False)
    # Written beside and renamed: an interrupted write never truncates an older capture.
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(out)
    return out


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


class HarRecorder(httpx.BaseTransport):
    """Wraps a transport and records every exchange, for ``tracker record --out FILE``.

    Bodies are read (decoded) so they can be written, at most ``max_bytes`` after
    decoding (a gzip bomb raises :class:`~tracker.errors.TooLarge` once the cap is
    passed, never decompressed whole) and within ``total_timeout`` seconds of
    ``monotonic`` (else :class:`~tracker.errors.FetchTimeout`); the exchange is then not
    recorded. The response handed back is equivalent to the original. Call :meth:`save`
    to write the HAR file. Credential request headers (Authorization, Cookie,
    X-Api-Key...) and every header a watch's ``auth`` adds, whatever its name (the
    request's :class:`~tracker.net.policy.RequestPolicy` names them), are never written.
    """

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        *,
        clock: Callable[[], dt.datetime] = _utcnow,
        comment: str = "live capture by release-tracker",
        max_bytes: int = RECORD_MAX_BYTES,
        total_timeout: float = RECORD_TOTAL_TIMEOUT,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner or httpx.HTTPTransport()
        self.clock = clock
        self.comment = comment
        self.max_bytes = max_bytes
        self.total_timeout = total_timeout
        self.monotonic = monotonic
        self.entries: list[dict[str, Any]] = []  # in completion order
        self._threads: list[int] = []  # the thread that made each entry's request
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        started = self.clock()
        began = self.monotonic()
        response = self.inner.handle_request(request)
        wire = httpx.Response(
            response.status_code, headers=response.headers, stream=response.stream, request=request
        )
        try:
            body = self._read(wire, began)  # decodes Content-Encoding, capped
        finally:
            wire.close()
        headers = [
            (k, v) for k, v in response.headers.multi_items() if k.lower() not in _WIRE_HEADERS
        ]
        policy = policy_of(request)
        secret = _SECRET_HEADERS | (policy.secret_headers if policy else frozenset())
        req_headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() not in secret]
        entry = har_entry(
            request.method,
            str(request.url),
            response.status_code,
            headers,
            body,
            started,
            comment=self.comment,
            request_headers=req_headers,
        )
        with self._lock:
            self.entries.append(entry)
            self._threads.append(threading.get_ident())
        return httpx.Response(
            response.status_code,
            headers=headers,
            content=body,
            request=request,
            extensions={"recorded_at": started},
        )

    def _read(self, wire: httpx.Response, began: float) -> bytes:
        return read_body(wire, self.max_bytes, (began + self.total_timeout, self.monotonic))

    def save(self, path: str | Path, watch_urls: Sequence[str] | None = None) -> Path:
        """Write every recorded exchange to ``path`` as HAR 1.2: in completion order, or,
        given the cycle's ``watch_urls`` (in watch order), grouped by watch in that order
        (:func:`in_watch_order`), so two recordings of one cycle list entries alike."""
        with self._lock:
            entries, threads = list(self.entries), list(self._threads)
        if watch_urls is not None:
            entries = in_watch_order(entries, threads, watch_urls)
        return write_har(path, entries)

    def close(self) -> None:
        self.inner.close()


def in_watch_order(
    entries: Sequence[dict[str, Any]], threads: Sequence[int], watch_urls: Sequence[str]
) -> list[dict[str, Any]]:
    """HAR ``entries`` (completion order; ``threads[i]`` made entry ``i``'s request)
    regrouped by watch, in the order of ``watch_urls``, each group in request order.

    A cycle runs each watch start to end in one worker thread, its own URL first, then
    its cursor pages and repo files; so an entry belongs to the watch whose URL that
    thread requested last. A robots.txt request belongs to the request it gates, the next
    one of its thread. Entries of no watch (none expected) go last, in completion order.
    """
    position: dict[str, list[int]] = {}
    for i, url in enumerate(watch_urls):
        position.setdefault(_key("GET", url)[1], []).append(i)
    started: set[int] = set()
    current: dict[int, int] = {}  # thread -> the watch it runs now
    pending: dict[int, list[int]] = {}  # thread -> robots.txt entries awaiting their request
    group: dict[int, int] = {}
    last = len(watch_urls)
    for i, (entry, thread) in enumerate(zip(entries, threads, strict=True)):
        url = _key("GET", entry["request"]["url"])[1]
        if httpx.URL(url).path == "/robots.txt":
            pending.setdefault(thread, []).append(i)
            continue
        fresh = [w for w in position.get(url, []) if w not in started]
        if fresh:  # the first request of a watch (a watch URL seen again is a retry)
            current[thread] = fresh[0]
            started.add(fresh[0])
        group[i] = current.get(thread, last)
        for j in pending.pop(thread, []):
            group[j] = group[i]
    order = sorted(range(len(entries)), key=lambda i: (group.get(i, last), i))
    return [entries[i] for i in order]
