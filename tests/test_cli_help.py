"""Every ``tracker ... --help`` renders flags as flags (no ``<bool>`` value type) and names
arguments and value types in words (``SUBJECT``, ``<text>``), not Python's."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from tracker.cli.main import app


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
    assert "``" not in text  # reST markup from a docstring is not shown to users


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
            "error: invalid value for '--port': 'x' is not a number (expected a whole number "
            "from 1 to 65535); see `tracker serve --help`",
        ),
        (
            ["serve", "--port", "8.5"],
            "error: invalid value for '--port': '8.5' is not a number (expected a whole "
            "number from 1 to 65535); see `tracker serve --help`",
        ),
        (
            ["serve", "--port", "70000"],
            "error: invalid value for '--port': 70000 is out of range (expected a whole "
            "number from 1 to 65535); see `tracker serve --help`",
        ),
        (
            ["serve", "--port", "0"],
            "error: invalid value for '--port': 0 is out of range (expected a whole number "
            "from 1 to 65535); see `tracker serve --help`",
        ),
        (
            ["schedule", "--workers", "x"],
            "error: invalid value for '--workers': not a whole number; "
            "see `tracker schedule --help`",
        ),
        (
            ["schedule", "--settle", "soon"],
            "error: invalid value for '--settle': not a number; see `tracker schedule --help`",
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


def _description_paragraphs(text: str) -> list[list[str]]:
    """The help's prose above the option panels, as paragraphs of stripped lines."""
    prose = text.split("╭─")[0].split("\n")[2:]  # below the usage line
    paragraphs: list[list[str]] = [[]]
    for line in (ln.strip() for ln in prose):
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


@pytest.mark.parametrize("path", [p for p in PATHS if p], ids=" ".join)
def test_help_prose_wraps_at_the_terminal_width_not_at_the_docstrings_breaks(path):
    """A docstring's line breaks left single words on lines at 80 columns."""
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    for paragraph in _description_paragraphs(result.output):
        for line, following in zip(paragraph, paragraph[1:], strict=False):
            # a line ends early only when the next word would not fit on it
            assert len(line) + 1 + len(following.split()[0]) > 78, (line, following)


def test_record_help_reads_as_whole_sentences():
    result = CliRunner().invoke(app, ["record", "--help"], env={"COLUMNS": "80"})
    prose = " ".join(" ".join(p) for p in _description_paragraphs(result.output))
    assert "to get the same observations offline. Credential headers are never written." in prose


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["site"], "error: no such command 'site' (did you mean 'build'?); see `tracker --help`"),
        (
            ["statu"],
            "error: no such command 'statu' (did you mean 'status'?); see `tracker --help`",
        ),
        (["nonsense"], "error: no such command 'nonsense'; see `tracker --help`"),
    ],
)
def test_unknown_command_suggests_the_command_meant(args, line):
    result = CliRunner().invoke(app, args, prog_name="tracker")
    assert result.exit_code == 2
    assert result.stderr.strip() == line


@pytest.mark.parametrize(
    ("path", "option", "words"),
    [
        (["verify"], "--now", "<date-time>  Verify as if it were this time: ISO 8601, UTC"),
        (
            ["discrepancies"],
            "--state",
            "STATE  Only discrepancies in this state: open, resolved, dismissed or note "
            "(default: all). A note is about two different subjects",
        ),
        (["schedule"], "--jobs", "<module:function>  What each run does, for developers"),
        (["schedule"], "--heartbeat", "<number>  How often, in seconds, this scheduler records"),
        (["schedule"], "--lock-ttl", "<number>  Seconds without that record after which"),
    ],
)
def test_option_help_says_what_values_mean(path, option, words):
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    row = next(ln for ln in result.output.splitlines() if f" {option} " in ln)
    assert words in re.sub(r"\s{2,}", "  ", row.split(option, 1)[1]).strip()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["discrepancies", "--state", "opn"],
            "error: invalid value for '--state': 'opn' is not one of open, resolved, "
            "dismissed, note (did you mean 'open'?); see `tracker discrepancies --help`",
        ),
        (
            ["claims", "extract", "x.txt", "--lang", "fr"],
            "error: invalid value for '--lang': 'fr' is not one of auto, pt, pt-BR, pt-PT, "
            "en; see `tracker claims extract --help`",
        ),
        (
            ["claims", "import", "x.json", "--source", "s", "--kind", "blog"],
            "error: invalid value for '--kind': 'blog' is not one of vendor, press, "
            "third_party, hub, pricing, leaderboard; see `tracker claims import --help`",
        ),
    ],
)
def test_a_value_outside_an_options_list_is_a_usage_error_naming_the_list(args, line):
    # checked before anything runs: no database, file or article is needed
    result = CliRunner().invoke(app, args, prog_name="tracker")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", line + "\n")


@pytest.mark.parametrize(
    ("path", "option", "metavar", "allowed"),
    [
        (["discrepancies"], "--state", "STATE", ["open", "resolved", "dismissed", "note"]),
        (["claims", "extract"], "--lang", "LANG", ["auto", "pt", "pt-BR", "pt-PT", "en"]),
        (
            ["claims", "import"],
            "--kind",
            "KIND",
            ["vendor", "press", "third_party", "hub", "pricing", "leaderboard"],
        ),
    ],
)
def test_help_at_80_columns_lists_a_choices_values_as_whole_words(path, option, metavar, allowed):
    """A trial: at 80 columns `<open|resolved|dismissed|note>` was cut into
    `<open|resolved|dismissed|not` / `e>`; the values are now in the help sentence."""
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    lines = result.output.splitlines()
    start = next(i for i, ln in enumerate(lines) if f" {option} " in ln)
    assert re.search(rf" {option}\s+{metavar}\s", lines[start])
    cell = []  # the option's help cell: its row and the rows continuing it
    for ln in lines[start:]:
        if ln is not lines[start] and re.match(r"│\s+-", ln):
            break
        cell.append(ln.strip("│ "))
    words = {w.strip(",.;:()") for w in " ".join(cell).split()}
    assert [a for a in allowed if a not in words] == []
    assert max(map(len, lines)) <= 80


@pytest.mark.parametrize(
    ("value", "parsed"), [("OPEN", "open"), ("pt_br", "pt-BR"), ("PT-pt", "pt-PT"), ("EN", "en")]
)
def test_a_choice_matches_any_case_and_gives_the_listed_spelling(value, parsed):
    from tracker.cli.claims import LANGS, _locale
    from tracker.cli.values import choice

    allowed = ("open", "resolved", "dismissed") if value == "OPEN" else LANGS
    assert choice(allowed, None if value == "OPEN" else _locale)(value) == parsed


def test_claims_group_help_names_every_command_and_list_takes_one_subject():
    """The group's help said only "read figures ... and import"; list's usage printed
    ``[[SUBJECT]]``."""
    group = CliRunner().invoke(
        app, ["claims", "--help"], prog_name="tracker", env={"COLUMNS": "200"}
    )
    assert (
        "Claims from articles and the database: extract candidate claims from an article, "
        "import reviewed candidates, list stored claims with their verdicts, export a "
        "source's claims as a data file." in group.output
    )
    listing = CliRunner().invoke(app, ["claims", "list", "--help"], prog_name="tracker")
    usage = next(ln.strip() for ln in listing.output.splitlines() if "Usage:" in ln)
    assert usage == "Usage: tracker claims list [OPTIONS] [SUBJECT]"
