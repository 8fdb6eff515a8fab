"""Every ``tracker ... --help`` renders flags as flags: no ``<bool>`` value type."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from tracker.cli import app


def _paths(command: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the CLI tree: (), ("check",), ("alerts", "send"), ..."""
    out = [prefix]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        out += _paths(sub, (*prefix, name))
    return out


PATHS = _paths(typer.main.get_command(app))


def test_the_tree_has_every_command():
    assert {("check",), ("alerts", "send"), ("claims", "import"), ("watches",)} <= set(PATHS)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "tracker")
def test_help_shows_no_bool_type_and_no_python_types(path):
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    text = result.output
    assert "<bool>" not in text
    assert "<list[" not in text  # a repeatable option names what it takes
    assert re.search(r"--help\s+Show this message and exit\.", text)
    assert not re.search(r"--(json|help)\s+<", text), "a flag takes no value: no type shown"
