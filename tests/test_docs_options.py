"""Every `tracker COMMAND --option` the alerts, site-export and scheduler docs show is an
option that command really has (a trial found `--site-url` documented for feeds, which
only `tracker alerts send` takes; `tracker build` has `--base-url`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer

from tracker.cli.main import app

DOCS = Path(__file__).resolve().parent.parent / "docs"
SPAN_RE = re.compile(r"`(tracker [^`]*)`")


def commands() -> dict[str, Any]:
    """``{"alerts send": <click command>, ...}`` for every command and subcommand."""
    found: dict[str, Any] = {}

    def walk(cmd: Any, prefix: str) -> None:
        if prefix:
            found[prefix] = cmd
        if hasattr(cmd, "commands"):  # a group (typer vendors its own click)
            for name, sub in cmd.commands.items():
                walk(sub, f"{prefix} {name}".strip())

    walk(typer.main.get_command(app), "")
    return found


def documented_uses(text: str) -> list[tuple[str, list[str]]]:
    """(command, options) of each backticked ``tracker ...`` span in ``text``."""
    known = commands()
    uses = []
    for span in SPAN_RE.findall(text):
        words = span.split()[1:]
        name = next(
            " ".join(words[:n]) for n in range(len(words), 0, -1) if " ".join(words[:n]) in known
        )
        flags = [w.lstrip("[") for w in words]  # `[--json]`: an optional flag
        uses.append((name, [re.sub(r"[^\w-].*", "", f) for f in flags if f.startswith("--")]))
    return uses


@pytest.mark.parametrize("doc", ["alerts.md", "site-api.md", "scheduler.md"])
def test_documented_options_exist(doc):
    known = commands()
    uses = documented_uses((DOCS / doc).read_text())
    assert uses
    wrong = [
        f"tracker {name} {opt}"
        for name, options in uses
        for opt in options
        if opt not in {o for p in known[name].params for o in p.opts}
    ]
    assert wrong == []


def test_feed_links_are_documented_with_the_options_that_set_them():
    uses = documented_uses((DOCS / "site-api.md").read_text())
    assert ("build", ["--base-url"]) in uses
    assert ("alerts send", ["--site-url"]) in uses
