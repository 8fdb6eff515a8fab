"""The README documents every CLI command and every event kind (sqlite-utils' habit)."""

from __future__ import annotations

from pathlib import Path

import typer

from claims.events import EVENT_KINDS
from tracker.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _commands(cli: typer.Typer, prefix: str = "") -> set[str]:
    names = {prefix + (c.name or c.callback.__name__) for c in cli.registered_commands}
    for group in cli.registered_groups:
        names |= _commands(group.typer_instance, prefix + f"{group.name} ")
    return names


def test_every_command_is_in_the_readme():
    commands = _commands(app)
    assert {"demo", "status", "check", "claims extract", "alerts send", "schedule"} <= commands
    missing = sorted(c for c in commands if f"tracker {c}" not in README)
    assert missing == []


def test_every_event_kind_is_in_the_readme():
    missing = sorted(k for k in EVENT_KINDS if f"| `{k}` |" not in README)
    assert missing == []
