"""Every ``tracker ... --help`` renders flags as flags (no ``<bool>`` value type) and names
arguments and value types in words (``SUBJECT``, ``<text>``), not Python's."""

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
    # placeholders in words: no Python type names, no braces around a required argument
    assert not re.search(r"<(str|int|float)>", text)
    assert not re.search(r"Usage: .*\{", text)


@pytest.mark.parametrize(
    ("path", "usage", "row"),
    [
        (["status"], "Usage: tracker status [OPTIONS] SUBJECT\n", r"\*\s+SUBJECT\s+<text>\s"),
        (["review"], "Usage: tracker review [OPTIONS] ID\n", r"\*\s+ID\s+<integer>\s"),
        (
            ["claims", "import"],
            "Usage: tracker claims import [OPTIONS] FILE\n",
            r"--url\s+<text>\s",
        ),
        (["schedule"], "Usage: tracker schedule [OPTIONS]\n", r"--lock-ttl\s+<number>\s"),
    ],
)
def test_help_names_arguments_and_value_types_readably(path, usage, row):
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"}, prog_name="tracker")
    text = re.sub(r" +\n", "\n", result.output)  # rich pads lines to the width
    assert usage in text
    assert re.search(row, text)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["review"], "error: missing argument 'ID'; see `tracker review --help`"),
        (["review", "3"], "error: missing option '--dismiss'; see `tracker review --help`"),
        (["status"], "error: missing argument 'SUBJECT'; see `tracker status --help`"),
        (["check", "--bogus"], "error: no such option: --bogus; see `tracker check --help`"),
        (
            ["serve", "--port", "x"],
            "error: invalid value for '--port': Input should be a valid integer, unable to "
            "parse string as an integer; see `tracker serve --help`",
        ),
        (["nosuch"], "error: no such command 'nosuch'; see `tracker --help`"),
        (["claims", "nosuch"], "error: no such command 'nosuch'; see `tracker claims --help`"),
        (
            ["alerts", "test", "--to"],
            "error: option '--to' requires an argument; see `tracker alerts test --help`",
        ),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, line):
    result = CliRunner().invoke(app, args, prog_name="tracker")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", line + "\n")


def test_a_group_without_a_command_still_shows_its_help():
    result = CliRunner().invoke(app, ["claims"], prog_name="tracker")
    assert "Usage: tracker claims [OPTIONS] COMMAND [ARGS]..." in result.output
    assert "error:" not in result.output
