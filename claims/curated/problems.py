"""Every problem of a curated data folder in one load, for :mod:`claims.curated.loader`.

A folder with five mistakes used to take five runs of ``tracker load``, one per error
(fresh-user trials). The loader now validates each file and each ``[[subject]]``,
``[[watch]]``, ``[[claim]]`` entry and ``[source]`` table on its own, collects their
errors in a :class:`Problems`, and raises them together: one error as the plain
:class:`DataFileError` it always was, several as :class:`DataFileErrors`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from claims.curated.datafile import DataFileError

MAX_SHOWN = 50  # past this, one line says how many more: a long list hides the top
T = TypeVar("T")


class DataFileErrors(DataFileError):
    """Several problems of one data folder. ``errors``: each a :class:`DataFileError`,
    in the order the files were read, then by line. ``path``, ``line``, ``field`` and
    ``message`` are those of the first, so ``except DataFileError`` code reads it as
    before. ``str()``: one ``path:line: field: message`` line per error, at most
    :data:`MAX_SHOWN`, then ``and N more problems``. Raises ValueError when ``errors``
    is empty."""

    def __init__(self, errors: list[DataFileError]) -> None:
        if not errors:
            raise ValueError("DataFileErrors needs at least one error")
        first = errors[0]
        super().__init__(first.path, first.line, first.field, first.message)
        self.errors = list(errors)

    def __str__(self) -> str:
        lines = [str(e) for e in self.errors[:MAX_SHOWN]]
        hidden = len(self.errors) - MAX_SHOWN
        if hidden > 0:
            lines.append(f"and {hidden} more problem{'s' if hidden > 1 else ''}")
        return "\n".join(lines)


def error_text(exc: DataFileError) -> str:
    """What ``tracker load`` prints after ``error:``: ``str(exc)`` for one error; for
    :class:`DataFileErrors`, ``N problems in the data files (nothing was loaded):`` then
    its lines."""
    if not isinstance(exc, DataFileErrors) or len(exc.errors) == 1:
        return str(exc)
    return f"{len(exc.errors)} problems in the data files (nothing was loaded):\n{exc}"


def error_records(exc: DataFileError) -> list[dict[str, object]]:
    """Every error of ``exc`` (all of them, never cut at :data:`MAX_SHOWN`) as
    ``{"path", "line", "field", "message"}`` for ``--json``; ``line`` is None for a
    problem of a whole file or folder."""
    errors = exc.errors if isinstance(exc, DataFileErrors) else [exc]
    return [
        {"path": e.path, "line": e.line, "field": e.field, "message": e.message} for e in errors
    ]


class Problems:
    """The errors one load found so far; :meth:`attempt` runs one independent check."""

    def __init__(self) -> None:
        self.errors: list[DataFileError] = []

    def add(self, error: DataFileError) -> None:
        """Record ``error`` (a :class:`DataFileErrors` adds each of its errors)."""
        self.errors.extend(error.errors if isinstance(error, DataFileErrors) else [error])

    def attempt(self, check: Callable[..., T], *args: object) -> T | None:
        """``check(*args)``, or None when it raised DataFileError (recorded here): the
        caller leaves that entry out of later cross-checks, so one mistake is not
        reported again as another (a malformed subject as every claim's unknown one)."""
        try:
            return check(*args)
        except DataFileError as exc:
            self.add(exc)
            return None

    def raise_if_any(self) -> None:
        """Raise nothing when no error was recorded, the error itself when one was,
        :class:`DataFileErrors` when several: files in the order they were first named
        (the order they were read), then by line, a whole-file error (no line) first."""
        if not self.errors:
            return
        if len(self.errors) == 1:
            raise self.errors[0]
        order: dict[str, int] = {}
        for e in self.errors:
            order.setdefault(e.path, len(order))
        ranked = sorted(self.errors, key=lambda e: (order[e.path], e.line or 0))
        raise DataFileErrors(ranked)
