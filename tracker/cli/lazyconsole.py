"""A rich console made on first use, and the one ``tracker`` prints its results on.

Kept apart from :mod:`tracker.cli.common` (which loads typer) so that ``tracker build``'s
own entry (:mod:`tracker.cli.entry`) prints its line exactly as every command does
without loading the CLI framework.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

# Text rich's Console.print writes unchanged: one line of printable characters with no
# markup (``[``) and nothing that could be an emoji code (``:name:``).
_INERT_TEXT = re.compile(r"[^\[]*")
_EMOJI_LIKE = re.compile(r":\S*?:")


class LazyConsole:
    """A rich ``Console(**options)`` made on first use: importing rich was a tenth of a
    `tracker build` process's start-up, and that command prints one plain line.

    ``print`` of one line of text that rich would write unchanged (printable, no markup,
    no ``:name:``; the console not wrapping lines: ``soft_wrap``) is written to the
    stream as is, before anything else has made the console; everything else, and every
    other attribute, goes to the Console."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def made(self) -> Console:
        """The Console, made now if it was not yet."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)

    def passes_through(self, objects: tuple[Any, ...], options: dict[str, Any]) -> bool:
        """Whether ``print(*objects, **options)`` writes ``objects[0]`` and a newline."""
        if self._console is not None or not self._options.get("soft_wrap"):
            return False
        if (
            len(objects) != 1
            or not isinstance(objects[0], str)
            or options not in ({}, {"highlight": False})
        ):
            return False
        text = objects[0]
        return (
            text.isprintable()
            and _INERT_TEXT.fullmatch(text) is not None
            and not _EMOJI_LIKE.search(text)
        )

    def print(self, *objects: Any, **options: Any) -> None:
        """``Console.print``; a plain line is written without making the Console."""
        if self.passes_through(objects, options):
            stream = sys.stderr if self._options.get("stderr") else sys.stdout
            stream.write(objects[0] + "\n")
            stream.flush()  # as rich does after each print
            return
        self.made().print(*objects, **options)


def stdout_console() -> LazyConsole:
    """The console of a command's results on stdout: piped output is not wrapped at 80
    columns (scripts and logs get whole lines), a terminal's is."""
    tty = sys.stdout.isatty()
    return LazyConsole(highlight=False, soft_wrap=not tty, width=None if tty else 200)
