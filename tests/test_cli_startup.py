"""What a `tracker` process loads before its command runs: `tracker build` imports the
site stage and the CLI's own module, not the other command modules, rich, the ORM, the
verdict rules, or feedgen when no feed changed (issue 17: a one-claim rebuild in a new
process); the lazily registered commands still all show in `tracker --help`."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from sitefixture import populate
from sqlmodel import Session, select

from claims.store.tables import Claim
from tracker.cli.common import LazyConsole

# The console script (`tracker`): its entry point, named as it is.
ENTRY = "import sys; sys.argv[0] = 'tracker'; from tracker.cli.main import main; main()"
# Modules `tracker build` never needs when no feed renders; each loaded for it once.
NOT_FOR_A_BUILD = (
    "sqlalchemy",  # the ORM: the build reads through claims.store.rawdb
    "sqlmodel",
    "pydantic",
    "alembic",
    "rich",  # the summary line is plain text
    "feedgen",  # feeds render only when their events changed
    "lxml",
    "dateutil",
    "importlib.metadata",  # library versions come from dist-info folder names
    "claims.verify.judge",  # observation views need claims.verify.paramcounts only
    "claims.verify.derived",
    "tracker.cli.status",  # the other command modules
    "tracker.cli.watch",
    "tracker.cli.claims",
    "tracker.cli.schedule",
)


def _run(args: list[str], *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``tracker ARGS`` through the console script's entry point, in a new process, with
    ``-X importtime`` (every module it imports is named on stderr)."""
    cmd = [sys.executable, "-X", "importtime", "-c", ENTRY, *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def _imported(stderr: str) -> set[str]:
    """The modules ``-X importtime`` reported: ``import time: self | cumulative | name``."""
    lines = (line.split("|") for line in stderr.splitlines() if line.startswith("import time:"))
    return {parts[2].strip() for parts in lines if len(parts) == 3} - {"package"}


def _touch_one_claim(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        claim = s.exec(select(Claim).order_by(Claim.id)).first()
        assert claim is not None
        claim.claimant = "Another lab"
        s.add(claim)
        s.commit()


def test_a_one_claim_rebuild_loads_no_command_module_rich_orm_or_feed_writer(engine, tmp_path):
    populate(engine)
    db, out = str(tmp_path / "test.db"), str(tmp_path / "site")
    first = _run(["build", "--db", db, "--out", out])
    assert first.returncode == 0, first.stderr
    assert {"feedgen.feed", "tracker.website.build"} <= _imported(first.stderr)  # feeds written
    _touch_one_claim(engine)
    again = _run(["build", "--db", db, "--out", out])
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"site built in {out}: ")
    assert " 0 rendered" not in again.stdout  # the changed claim's files were rendered
    loaded = _imported(again.stderr)
    assert "tracker.website.build" in loaded
    assert [m for m in NOT_FOR_A_BUILD if m in loaded] == []


def test_help_through_the_entry_point_lists_every_command_as_the_whole_app_does():
    from typer.testing import CliRunner

    from tracker.cli.main import app

    env = {"COLUMNS": "100", "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    shown = _run(["--help"], env=env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == CliRunner().invoke(app, ["--help"], env=env, prog_name="tracker").output
    for command in ("load", "status", "demo", "build", "check", "serve", "alerts", "claims"):
        assert f" {command} " in shown.stdout


def test_a_command_of_another_module_and_did_you_mean_through_the_entry_point(tmp_path):
    missing = tmp_path / "absent.db"
    status = _run(["status", "x", "--db", str(missing)])
    assert status.returncode == 1
    assert status.stderr.splitlines()[-1].startswith(f"error: database {missing} does not exist")
    assert "tracker.cli.status" in _imported(status.stderr)
    meant = _run(["site"])
    assert meant.returncode == 2
    assert meant.stderr.splitlines()[-1] == (
        "error: no such command 'site' (did you mean 'build'?); see `tracker --help`"
    )


@pytest.mark.parametrize(
    "text",
    [
        "site built in site: 45 files, 3 rendered (42 up to date); 2 written, 43 kept",
        "a path /tmp/x:y with one colon, é and 漢字",
        "  indented and trailing  ",
        "x" * 300,  # longer than the piped console's 200 columns: soft wrap keeps it whole
    ],
)
def test_a_plain_line_is_written_as_rich_writes_it(text, capsys):
    options = {"highlight": False, "soft_wrap": True, "width": 200}
    lazy = LazyConsole(**options)
    assert lazy.passes_through((text,), {})
    lazy.print(text)
    rich_out = io.StringIO()
    Console(file=rich_out, **options).print(text)  # type: ignore[arg-type]
    assert capsys.readouterr().out == rich_out.getvalue() == text + "\n"


@pytest.mark.parametrize(
    "text",
    ["[bold]markup[/bold]", "an emoji :thumbs_up: code", "a\ttab", "bell\x07"],
)
def test_text_rich_would_change_goes_to_rich(text, capsys):
    lazy = LazyConsole(highlight=False, soft_wrap=True, width=200)
    assert not lazy.passes_through((text,), {})
    lazy.print(text)
    rich_out = io.StringIO()
    Console(file=rich_out, highlight=False, soft_wrap=True, width=200).print(text)
    assert capsys.readouterr().out == rich_out.getvalue() != text + "\n"


def test_a_wrapping_console_or_a_styled_print_goes_to_rich():
    wrapping = LazyConsole(highlight=False, soft_wrap=False, width=80)
    assert not wrapping.passes_through(("plain",), {})
    assert not LazyConsole(soft_wrap=True).passes_through(("plain",), {"style": "bold"})


def test_library_versions_are_the_installed_distributions():
    from importlib import metadata

    from tracker.website.pagehash import LIBRARIES, installed_versions

    assert installed_versions(LIBRARIES) == {name: metadata.version(name) for name in LIBRARIES}
    assert installed_versions(["no-such-distribution"]) == {"no-such-distribution": "?"}


def _bench_import_only() -> str:
    """bench/site_bench.py's IMPORT_ONLY, read from its source (the bench's modules are
    not imported into the test process)."""
    source = (Path(__file__).resolve().parents[1] / "bench" / "site_bench.py").read_text()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "IMPORT_ONLY":
            return str(ast.literal_eval(node.value))
    raise AssertionError("bench/site_bench.py has no IMPORT_ONLY")


def test_the_bench_start_up_imports_what_tracker_build_imports(engine, tmp_path):
    """bench/site_bench.py's IMPORT_ONLY (start-up without the build) loads the modules a
    one-claim `tracker build` loads, so its figure is that process's start-up."""
    import_only = _bench_import_only()
    populate(engine)
    db, out = str(tmp_path / "test.db"), str(tmp_path / "site")
    assert _run(["build", "--db", db, "--out", out]).returncode == 0
    _touch_one_claim(engine)
    build = _run(["build", "--db", db, "--out", out])
    start = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", import_only], capture_output=True, text=True
    )
    # typer loads its help-option decorator while it parses a command line (0.3 ms)
    assert sorted(_imported(build.stderr) - _imported(start.stderr)) == ["typer._click.decorators"]
