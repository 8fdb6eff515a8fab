"""Ctrl-C in any command (tracker/cli/interrupt.py): one line naming what may be partial,
exit 130; never a traceback (the plain `build` path), never a silent exit (`demo`), never
the rollback error the interrupt caused ("cannot rollback - no transaction is active")."""

from __future__ import annotations

import gc
import sqlite3
import sys

import pytest
from sitefixture import populate

from claims.store.engine import make_engine
from tracker.cli import entry
from tracker.cli import main as cli_main


def _interrupt(*_args, **_kwargs):
    raise KeyboardInterrupt


def _cut_rollback(*_args, **_kwargs):
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise sqlite3.OperationalError("cannot rollback - no transaction is active") from None


def _run(monkeypatch, capsys, argv: list[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["tracker", *argv])
    # main() marks the process as ending (a build then leaves gc off); this one goes on
    monkeypatch.setattr(cli_main, "_process_ends", False)
    monkeypatch.setattr(cli_main, "_skip_teardown", False)
    try:
        with pytest.raises(SystemExit) as done:
            entry.main()
    finally:
        gc.enable()  # the plain build turns it off for a process that then ends; this one goes on
    return done.value.code, capsys.readouterr().err


def test_an_interrupted_plain_build_is_one_line_naming_the_site_folder(
    tmp_path, monkeypatch, capsys
):
    db = tmp_path / "t.db"
    populate(make_engine(db))
    monkeypatch.setattr("tracker.cli.buildrun.build_into", _interrupt)
    code, err = _run(monkeypatch, capsys, ["build", "--db", str(db), "--out", "cs"])
    assert (code, err) == (
        130,
        "interrupted; nothing stored was lost; the site folder cs may be partial — run "
        "`tracker build` again\n",
    )


@pytest.mark.parametrize("raiser", [_interrupt, _cut_rollback])
def test_an_interrupted_demo_says_so_and_names_its_site(tmp_path, monkeypatch, capsys, raiser):
    """The demo exited 130 silently; once it said "error: database ...: cannot rollback"."""
    monkeypatch.setattr(cli_main, "_run_demo", raiser)
    code, err = _run(monkeypatch, capsys, ["demo", "--db", str(tmp_path / "mine.db")])
    assert (code, err) == (
        130,
        f"interrupted; nothing stored was lost; the site folder {tmp_path / 'site-mine'} "
        "may be partial — run `tracker build` again\n",
    )


def test_an_interrupted_reading_command_says_nothing_was_lost(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("tracker.cli.status.open_db", _interrupt)
    code, err = _run(monkeypatch, capsys, ["status", "x"])
    assert (code, err) == (130, "interrupted; nothing stored was lost\n")
