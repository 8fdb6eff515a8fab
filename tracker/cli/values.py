"""How the CLI reads option values from a fixed list, words a bad value as one line, and
writes times for people and JSON."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import typer

from claims.values import timefmt


def choice(
    allowed: Sequence[str], normalize: Callable[[str], str] | None = None
) -> Callable[[str], str]:
    """A typer ``parser`` for an option whose value comes from ``allowed``: returns the
    allowed spelling of a value that matches one ignoring case (after ``normalize``,
    when given: ``pt_br`` -> ``pt-BR``); anything else raises :class:`typer.BadParameter`,
    a usage error (exit 2) naming every allowed value. Give the option a short
    metavar (``STATE``) and say the values in its help with :func:`choices_text`."""
    by_fold = {a.casefold(): a for a in allowed}

    def parse(value: str) -> str:
        if isinstance(value, str):
            found = by_fold.get((normalize(value) if normalize else value).casefold())
            if found is not None:
                return found
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(allowed)}")

    return parse


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A typer ``parser`` for an integer option that must lie in ``low..high``
    (inclusive): returns the int; anything else (``abc``, ``8.5``, ``70000``) raises
    :class:`typer.BadParameter`, a usage error (exit 2) saying what is expected:
    ``'abc' is not a number (expected a whole number from 1 to 65535)``,
    ``70000 is out of range (...)``."""

    def parse(value: str | int) -> int:
        text = str(value).strip()
        expected = f"expected a whole number from {low} to {high}"
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise typer.BadParameter(f"'{value}' is not a number ({expected})")
        if not low <= int(text) <= high:
            raise typer.BadParameter(f"{int(text)} is out of range ({expected})")
        return int(text)

    return parse


def choices_text(allowed: Sequence[str]) -> str:
    """``open, resolved, dismissed or note``: an option's allowed values for its help
    sentence. The values go there, not in the metavar: ``--help`` wraps the sentence
    between words, whereas a long ``<open|resolved|...>`` is cut mid-word at 80 columns."""
    *rest, last = allowed
    return f"{', '.join(rest)} or {last}" if rest else last


def utc_minute(moment: dt.datetime | str | None, missing: str = "-") -> str:
    """A time for people, as every human line of the CLI writes it:
    ``2026-11-28 06:00 UTC`` (UTC, to the minute). Takes a datetime (naive means UTC)
    or an ISO 8601 string as ``--json`` prints it (``2026-11-28T06:00:00Z``,
    ``2026-11-28T06:00:00+00:00``); ``missing`` for None or an empty string. A string
    that is not ISO 8601 is returned as it is."""
    if moment is None or moment == "":
        return missing
    if isinstance(moment, str):
        text = moment
        try:
            moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return text
    return timefmt.utc_minute(moment, missing)


def json_default(obj: Any) -> Any:
    """``json.dumps`` ``default`` for ``--json``: a datetime as ``2026-11-28T06:00:00Z``
    (:func:`claims.values.timefmt.iso_z`, the one time format of machine output), a date as
    ``2026-11-28``, a set as a sorted list (never its repr, ``set()``), a Decimal as a
    number, anything else as its text (paths, for one)."""
    if isinstance(obj, dt.datetime):
        return timefmt.iso_z(obj)
    if isinstance(obj, dt.date):
        return obj.isoformat()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=str)
    if isinstance(obj, Decimal):
        return int(obj) if obj == obj.to_integral_value() else float(obj)
    return str(obj)


_TYPE_MESSAGES = {
    "Input should be a valid integer, unable to parse string as an integer": "not a whole number",
    "Input should be a valid number, unable to parse string as a number": "not a number",
}


_NOT_ONE_OF = re.compile(r"'([^']*)' is not one of (.+)$")


def _nearest_choice(message: str) -> str:
    """`` (did you mean 'open'?)`` for a bad choice (``'opn' is not one of open,
    resolved, dismissed, note``: click's and :func:`choice`'s wording) close to one of
    them (difflib ratio 0.6 or more); else empty."""
    import difflib

    bad = _NOT_ONE_OF.search(message)
    if bad is None or "did you mean" in message.lower():  # a parser that suggested already
        return ""
    options = [o.strip(" '") for o in re.split(r",\s*|\s+or\s+", bad.group(2)) if o.strip()]
    near = difflib.get_close_matches(bad.group(1), options, n=1, cutoff=0.6)
    return f" (did you mean '{near[0]}'?)" if near else ""


def usage_error_line(exc: Any, command_path: str = "tracker") -> str:
    """A click usage error as one line: ``error: missing argument 'ID'; see `tracker
    review --help```, instead of typer's boxed usage panel; click's suggestion goes in
    parentheses (``error: no such command 'statu' (did you mean 'status'?); see ...``).
    ``command_path`` is used when the error carries no context."""
    message = " ".join(exc.format_message().split()).strip()
    for said, meant in _TYPE_MESSAGES.items():  # typer's (pydantic's) wording of a bad number
        message = message.replace(said, meant)
    message, _, hint = message.partition(" Did you mean ")
    message = message.rstrip(".")
    if hint:
        message += f" (did you mean {hint})"
    else:
        message += _nearest_choice(message)
    if message[:1].isupper() and message[1:2].islower():  # "Missing ..." but not "ID ..."
        message = message[0].lower() + message[1:]
    where = exc.ctx.command_path if exc.ctx is not None else command_path
    return f"error: {message}; see `{where} --help`"
