"""How every command reports an error: one ``error: ...`` line on stderr and a non-zero
exit status (1; 2 for a usage error), and with ``--json`` also one JSON document on
stdout, so a script reads errors as it reads results::

    {"error": {"kind": "unknown_name", "message": "unknown subject 'kimi-k3'
     (did you mean 'kimi-k3.1-pro'?); known: ...", "did_you_mean": ["kimi-k3.1-pro"]}}

``kind`` is one of :data:`ERROR_KINDS` (or the kind of a failed fetch); ``did_you_mean``
lists the near names the message suggests (empty when none); a ``data_file`` error adds
``problems``, every problem as ``{"path", "line", "field", "message"}``, a ``candidates``
error every bad candidate as ``{"candidate", "message"}``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer

# The kinds of --json errors (README "Commands" and this table say the same).
ERROR_KINDS: dict[str, str] = {
    "usage": "a missing or unknown argument, option or command, or an option value of the "
    "wrong type or outside its list (exit 2)",
    "unknown_name": "a subject, source or other name nothing stored has",
    "data_file": "problems in the data files (every one in problems)",
    "candidates": "bad candidates in a `claims import` file (every one in problems)",
    "config": "a bad setting, option value, subscriptions or input file",
    "database": "the database cannot be opened or read, or has an older schema",
    "file": "a file or folder cannot be read or written",
    "review": "a discrepancy that does not exist or cannot be dismissed",
    "invalid": "a value that cannot be read or stated",
    "error": "anything else the command refuses",
}


def error_document(
    kind: str, message: str, did_you_mean: Sequence[str] = (), **extra: Any
) -> dict[str, Any]:
    """``{"error": {"kind", "message", "did_you_mean": [...], **extra}}``."""
    return {"error": {"kind": kind, "message": message, "did_you_mean": list(did_you_mean),
                      **extra}}  # fmt: skip


def report(
    message: str,
    *,
    kind: str,
    json_out: bool,
    did_you_mean: Sequence[str] = (),
    code: int = 1,
    **extra: Any,
) -> typer.Exit:
    """Print ``error: message`` on stderr and, with ``json_out``, the error document on
    stdout; returns the :class:`typer.Exit` of status ``code`` to raise."""
    if json_out:
        doc = error_document(kind, message.splitlines()[0], did_you_mean, **extra)
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")
    sys.stderr.write(f"error: {message}\n")
    return typer.Exit(code)


_HINT = re.compile(r"did you mean (.+?)\?", re.IGNORECASE)


def hinted_names(message: str) -> list[str]:
    """The names a message's ``did you mean 'x'?`` (ours, or click's ``Did you mean
    --json?``) suggests, quotes dropped; [] without one."""
    found = _HINT.search(message)
    if not found:
        return []
    return [n.strip("'\" ") for n in re.split(r",|\bor\b", found.group(1)) if n.strip("'\" ")]


def fail(exc: BaseException, *, json_out: bool) -> typer.Exit:
    """:func:`report` of a TrackerError or ClaimsError: its ``kind``, its message, its
    ``did_you_mean`` (an :class:`tracker.errors.UnknownName`'s list, else the names its
    message suggests)."""
    names = getattr(exc, "did_you_mean", None)
    if names is None:
        names = hinted_names(str(exc))
    problems = getattr(exc, "problems", None)
    extra: dict[str, Any] = {"problems": problems} if isinstance(problems, list) else {}
    return report(str(exc), kind=getattr(exc, "kind", "error"), json_out=json_out,
                  did_you_mean=names, **extra)  # fmt: skip
