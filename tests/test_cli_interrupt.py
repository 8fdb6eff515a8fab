"""Ctrl-C in any command (tracker/cli/interrupt.py): one line naming what may be partial,
exit 130; never a traceback (the plain `build` path), never a silent exit (`demo`), never
the rollback error the interrupt caused ("cannot rollback - no transaction is active")."""

from __future__ import annotations

import gc
import signal
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


_late: dict = {}


def _run(monkeypatch, capsys, argv: list[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["tracker", *argv])
    # main() marks the process as ending (a build then leaves gc off); this one goes on
    monkeypatch.setattr(cli_main, "_process_ends", False)
    monkeypatch.setattr(cli_main, "_skip_teardown", False)
    # main() reports a Ctrl-C in the teardown that follows; pytest's process goes on
    monkeypatch.setattr(signal, "signal", lambda sig, handler: _late.update({sig: handler}))
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


def test_ctrl_c_after_verify_printed_its_summary_is_one_line_and_130(tmp_path, monkeypatch, capsys):
    """Ctrl-C while the interpreter tore down after `tracker verify` printed its summary
    killed the process by SIGINT with no line (a fresh-user trial)."""
    db = tmp_path / "t.db"
    populate(make_engine(db))
    _late.clear()
    code, _err = _run(monkeypatch, capsys, ["verify", "--db", str(db)])
    assert code == 0 and capsys.readouterr().out == ""  # its summary was read by _run
    exits: list[int] = []

    def exited(status):
        exits.append(status)
        raise SystemExit(status)

    monkeypatch.setattr("os._exit", exited)
    with pytest.raises(SystemExit):
        _late[signal.SIGINT](signal.SIGINT, None)
    assert (exits, capsys.readouterr().err) == ([130], "interrupted; nothing stored was lost\n")


def test_ctrl_c_stops_serve_with_one_line_and_130(tmp_path, monkeypatch, capsys):
    """`tracker serve` exited 0 silently on Ctrl-C, against the README's every command."""
    closed: list[bool] = []

    class Server:  # no socket: serve_forever is where Ctrl-C lands
        server_address = ("127.0.0.1", 8765)
        serve_forever = staticmethod(_interrupt)

        def server_close(self):
            closed.append(True)

    monkeypatch.setattr("tracker.cli.site.make_server", lambda directory, port: Server())
    code, err = _run(monkeypatch, capsys, ["serve", "--dir", str(tmp_path / "out")])
    assert closed == [True]
    assert (code, err) == (130, f"interrupted; stopped serving {tmp_path / 'out'}\n")
