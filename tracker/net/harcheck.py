"""Validation of a HAR file's entries before any is replayed (issue 20: nine malformed
shapes, null entries, an invalid URL, a header value that is a number, a content that is
a string, a year-9999 time, gave tracebacks). Each malformed entry gets one line naming
its index and field; the transport refuses the file with all of them.

What an entry must hold (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/, as far
as replay reads it): ``request.method`` and ``request.url`` (an absolute http(s) URL),
``response.status`` (100-599), ``response.headers`` (a list of ``{name, value}`` texts),
``response.content`` (an object whose ``text`` is text, valid base64 when ``encoding``
is ``base64``), ``startedDateTime`` (ISO 8601 with an offset, years 1970-2200), and
``comment`` text when present.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from typing import Any

import httpx

MIN_YEAR, MAX_YEAR = 1970, 2200


def started_at(text: Any) -> dt.datetime:
    """``startedDateTime`` as aware UTC; ValueError naming what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"expected an ISO 8601 time, got {type(text).__name__}")
    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise ValueError(f"startedDateTime {text!r} has no UTC offset")
    if not MIN_YEAR <= when.year <= MAX_YEAR:
        raise ValueError(f"{text[:40]!r} is outside the years {MIN_YEAR}-{MAX_YEAR}")
    return when.astimezone(dt.UTC)


def _request_problem(request: Any) -> str | None:
    if not isinstance(request, dict):
        return "request: expected an object"
    if not isinstance(request.get("method"), str) or not request["method"].isalpha():
        return f"request.method: expected a method name, got {request.get('method')!r}"
    url = request.get("url")
    if not isinstance(url, str):
        return f"request.url: expected text, got {type(url).__name__}"
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        return f"request.url: {url[:80]!r} is not a URL ({exc})"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return f"request.url: {url[:80]!r} is not an absolute http(s) URL"
    return None


def _headers_problem(headers: Any) -> str | None:
    if not isinstance(headers, list):
        return "response.headers: expected a list"
    for n, h in enumerate(headers):
        if not isinstance(h, dict):
            return f"response.headers[{n}]: expected an object"
        name, value = h.get("name"), h.get("value")
        if not isinstance(name, str) or not name or not isinstance(value, str):
            return f"response.headers[{n}]: name and value must be text, got {name!r}: {value!r}"
        if any(c in name + value for c in "\r\n\0"):
            return f"response.headers[{n}]: a line break or NUL in {name!r}"
        try:
            httpx.Headers([(name, value)]).raw  # noqa: B018 - encodes as httpx will send it
        except (UnicodeError, ValueError, TypeError):
            return f"response.headers[{n}]: {name!r} cannot be an HTTP header"
    return None


def _content_problem(content: Any) -> str | None:
    if not isinstance(content, dict):
        return f"response.content: expected an object, got {type(content).__name__}"
    text = content.get("text", "")
    if not isinstance(text, str):
        return f"response.content.text: expected text, got {type(text).__name__}"
    encoding = content.get("encoding")
    if encoding not in (None, "", "base64"):
        return f"response.content.encoding: {encoding!r} (only base64 is known)"
    if encoding == "base64":
        try:
            base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return "response.content.text: not valid base64"
    else:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "response.content.text: holds a lone surrogate"
    return None


def entry_problem(entry: Any) -> str | None:
    """Why one ``log.entries[]`` item cannot be replayed (``field: message``), or None."""
    if not isinstance(entry, dict):
        return f"expected an object, got {type(entry).__name__}"
    problem = _request_problem(entry.get("request"))
    if problem:
        return problem
    response = entry.get("response")
    if not isinstance(response, dict):
        return "response: expected an object"
    status = response.get("status")
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        return f"response.status: expected 100-599, got {status!r}"
    problem = _headers_problem(response.get("headers", [])) or _content_problem(
        response.get("content", {})
    )
    if problem:
        return problem
    try:
        started_at(entry.get("startedDateTime"))
    except ValueError as exc:
        return f"startedDateTime: {exc}"
    comment = entry.get("comment", "")
    if not isinstance(comment, str):
        return f"comment: expected text, got {type(comment).__name__}"
    return None


def entries_problems(entries: Any) -> list[str]:
    """One ``log.entries[i]: field: message`` line per malformed entry (empty: all good);
    ``log.entries`` that is not a list is one line."""
    if not isinstance(entries, list):
        return [f"log.entries: expected a list, got {type(entries).__name__}"]
    out = []
    for i, entry in enumerate(entries):
        problem = entry_problem(entry)
        if problem:
            out.append(f"log.entries[{i}]: {problem}")
    return out
