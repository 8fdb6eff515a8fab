"""Checks of a watch's schedule, limits and common params, for the curated loader
(issue 20: everything a watch says is validated at load, never when the cycle or the
scheduler meets it). Pure: each returns ``(field, message)`` pairs, the loader names
file and line.

- ``interval_minutes``: a whole number from 1 to :data:`MAX_INTERVAL_MINUTES` (a year).
- ``params.cron``: a crontab of 5 fields (minute hour day month day-of-week), each
  ``*``, a number, a range ``a-b``, a step ``/n`` or a list ``,`` within its field's
  bounds; months and days of week also by name (``jan``, ``mon``). Day of week is 0-7
  as crontab(5) numbers it: 0 and 7 are Sunday, 1 is Monday (the scheduler translates
  it: :mod:`tracker.schedule.crontab`). Six fields
  put a seconds field (0-59) first, as Quartz and Spring write them; any other count is
  refused at load, not when ``tracker schedule`` starts.
  ``params.timezone``: an IANA name (``America/Los_Angeles``) the system knows.
- ``params.failing_after``: 1 to 1000; ``params.robots`` and ``params.allow_private``:
  true or false; ``params.allow_hosts``: a list of host names or ``*.domain`` patterns;
  ``params.auth``: a table of ``env`` (a variable name) and ``header`` (a header name).
- Names: no control characters (:func:`control_problem`); slugs: :func:`slug_problem`.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from collections.abc import Mapping
from typing import Any

MAX_INTERVAL_MINUTES = 366 * 24 * 60
MAX_FAILING_AFTER = 1000
SLUG_RE = re.compile(r"[a-z0-9][a-z0-9.\-]*")
MAX_SLUG = 120
# (name, lowest, highest, names) of each crontab field, as crontab(5) reads them: day of
# week 0-7 with 0 and 7 Sunday (the scheduler translates it for APScheduler 3.x).
_FIELDS = (
    ("minute", 0, 59, ()),
    ("hour", 0, 23, ()),
    ("day", 1, 31, ()),
    ("month", 1, 12, ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                      "nov", "dec")),
    ("day of week", 0, 7, ("sun", "mon", "tue", "wed", "thu", "fri", "sat")),
)  # fmt: skip
_SECOND = ("second", 0, 59, ())
_ITEM = re.compile(r"(?P<start>\*|[0-9a-z]+)(?:-(?P<end>[0-9a-z]+))?(?:/(?P<step>[0-9]+))?")
_HOST = re.compile(r"(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")
_HEADER = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 token
_ENV = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def control_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name (a control, format or line-separator character, which
    would garble a terminal, a feed or a file name), or None."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch not in "\u200d":
            return f"{text!r} holds the control character U+{ord(ch):04X}"
    return None


def slug_problem(slug: str) -> str | None:
    """Why ``slug`` is not a safe slug (lower-case letters, digits, dots and dashes,
    starting with a letter or digit, no ``..``, at most :data:`MAX_SLUG` characters: it
    names files and URLs of the site), or None. ``"x\\n"`` and ``"../../x"`` are refused."""
    if not SLUG_RE.fullmatch(slug) or ".." in slug or len(slug) > MAX_SLUG:
        return (
            f"{slug!r} is not a safe lower-case slug (letters, digits, '.' and '-', "
            "starting with a letter or digit, no '..')"
        )
    return None


def _value(text: str, low: int, high: int, names: tuple[str, ...]) -> int | None:
    if text.isdigit():
        n = int(text)
        return n if low <= n <= high else None
    if text in names:
        return names.index(text) + (1 if low == 1 else 0)
    return None


def _field_problem(text: str, name: str, low: int, high: int, names: tuple[str, ...]) -> str | None:
    for item in text.lower().split(","):
        m = _ITEM.fullmatch(item)
        if not m:
            return f"{name} field {text!r}: {item!r} is not a number, range, step or '*'"
        start, end, step = m.group("start", "end", "step")
        if start == "*":
            if end is not None:
                return f"{name} field {text!r}: '*' cannot start a range"
        else:
            a = _value(start, low, high, names)
            b = _value(end, low, high, names) if end is not None else a
            if a is None or b is None:
                return f"{name} field {text!r}: outside {low}-{high}"
            if b < a:
                return f"{name} field {text!r}: the range runs backwards"
        if step is not None and not 1 <= int(step) <= high - low + 1:
            return f"{name} field {text!r}: step {step} outside 1-{high - low + 1}"
    return None


def cron_problem(expr: Any) -> str | None:
    """Why ``expr`` is not a crontab of 5 fields (or 6, seconds first) the scheduler can
    run, or None: ``"99 99 * * *"`` -> ``minute field '99': outside 0-59``."""
    if not isinstance(expr, str):
        return f"expected a crontab text such as '0 6 * * *', got {type(expr).__name__}"
    parts = expr.split()
    if len(parts) not in (5, 6):
        return (
            f"{expr!r} has {len(parts)} fields; the scheduler reads 5 "
            "(minute hour day month weekday) or 6 (second first; a time zone goes in "
            "`timezone`)"
        )
    fields = ((_SECOND,) if len(parts) == 6 else ()) + _FIELDS
    for text, (name, low, high, names) in zip(parts, fields, strict=True):
        problem = _field_problem(text, name, low, high, names)
        if problem:
            return problem
    return None


def timezone_problem(name: Any) -> str | None:
    """Why ``name`` is not an IANA time zone the system knows, or None."""
    if not isinstance(name, str) or not name or control_problem(name):
        return f"expected an IANA time zone name such as 'America/Los_Angeles', got {name!r}"
    if name.startswith(("/", ".")) or ".." in name or "\\" in name:
        return f"{name!r} is not an IANA time zone name"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return f"unknown time zone {name!r} (an IANA name such as 'Europe/Berlin')"
    return None


def interval_problem(minutes: Any) -> str | None:
    """Why ``minutes`` is not a whole number of minutes from 1 to a year, or None."""
    if not isinstance(minutes, int) or isinstance(minutes, bool):
        return "expected a whole number of minutes >= 1"
    if not 1 <= minutes <= MAX_INTERVAL_MINUTES:
        return f"{minutes} is outside 1-{MAX_INTERVAL_MINUTES} minutes (a year)"
    return None


def _auth_problem(auth: Any) -> str | None:
    if not isinstance(auth, Mapping):
        return 'expected a table: { env = "VARIABLE", header = "Header-Name" }'
    env, header = auth.get("env"), auth.get("header", "Authorization")
    if not isinstance(env, str) or not _ENV.fullmatch(env):
        return f"env: {env!r} is not an environment variable name"
    if not isinstance(header, str) or not _HEADER.fullmatch(header):
        return f"header: {header!r} is not an HTTP header name"
    extra = sorted(set(auth) - {"env", "header"})
    return f"unknown key {extra[0]!r} (env, header)" if extra else None


def _hosts_problem(hosts: Any) -> str | None:
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        return 'expected a list of host names, e.g. ["cdn.example.com", "*.hf.co"]'
    bad = next((h for h in hosts if not _HOST.fullmatch(h.lower()) or h.startswith("*.*")), None)
    return f"{bad!r} is not a host name or *.domain pattern" if bad is not None else None


def _flag_problem(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, got {value!r}"


def _failing_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"expected a whole number, got {value!r}"
    if not 1 <= value <= MAX_FAILING_AFTER:
        return f"{value} is outside 1-{MAX_FAILING_AFTER}"
    return None


_CHECKS = {
    "cron": cron_problem,
    "timezone": timezone_problem,
    "failing_after": _failing_problem,
    "robots": _flag_problem,
    "allow_private": _flag_problem,
    "allow_hosts": _hosts_problem,
    "auth": _auth_problem,
}


def common_param_problems(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(param name, message)`` for each common watch param that is malformed."""
    out = []
    for key, check in _CHECKS.items():
        if key in params:
            problem = check(params[key])
            if problem:
                out.append((key, problem))
    return out
