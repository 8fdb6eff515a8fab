"""The database a command is given (``--db``): a malformed URL, an unsupported driver,
an empty PostgreSQL database and a missing one are each one ``error:`` line saying what
to do (tracker/cli/common.py ``checked_db_url``, claims/store/rawdb.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app

runner = CliRunner()
BAD_PORT = "postgresql+psycopg://postgres:s3cret@127.0.0.1:notaport/team"


@pytest.mark.parametrize(
    "args",
    [["status", "x"], ["build", "--out", "OUT"], ["check"], ["watches"], ["verify"],
     ["claims", "list"], ["db", "upgrade"], ["discrepancies"]],
)  # fmt: skip
def test_a_port_that_is_no_number_is_one_line_naming_it(args, tmp_path, monkeypatch):
    """It was a 60-line traceback (ValueError of int()) (fresh-user trial)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    args = [str(tmp_path / "site") if a == "OUT" else a for a in args]
    result = runner.invoke(app, [*args, "--db", BAD_PORT])
    assert (result.exit_code, result.stderr) == (
        1,
        "error: bad database URL 'postgresql+psycopg://postgres:***@127.0.0.1:notaport/team': "
        "port 'notaport' is not a number\n",
    )


def test_the_psycopg2_driver_gets_the_psycopg_hint():
    result = runner.invoke(app, ["status", "x", "--db", "postgresql+psycopg2://u@127.0.0.1/team"])
    assert (result.exit_code, result.stderr) == (
        1,
        "error: unsupported driver 'psycopg2' in postgresql+psycopg2://u@127.0.0.1/team: use "
        "postgresql+psycopg://USER@HOST/DB (psycopg 3, the driver installed)\n",
    )


def test_an_empty_postgresql_database_is_one_line_with_the_remedy(pg_server):
    """It was three lines (the driver's "LINE 1: ..." and caret) and no remedy."""
    result = runner.invoke(app, ["status", "x", "--db", pg_server])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: no release-tracker schema in this database ")
    assert result.stderr.endswith(
        "create it: `tracker db upgrade --db URL`, or `tracker load`/`tracker demo` with --db\n"
    )


def test_a_missing_postgresql_database_says_createdb(pg_server):
    missing = pg_server.replace("/postgres?", "/team?")
    result = runner.invoke(app, ["status", "x", "--db", missing])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.stderr
    assert 'database "team" does not exist' in result.stderr
    assert result.stderr.endswith("; create it first: `createdb team` (PostgreSQL's client)\n")
