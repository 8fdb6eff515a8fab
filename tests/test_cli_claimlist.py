"""`tracker claims list` in text fits the terminal: $COLUMNS honoured (piped too), long
reasons wrapped between words, every cell whole in --json (tracker.cli.claimlist)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app

runner = CliRunner()


@pytest.fixture
def demo_db(demo_build: Path) -> Path:
    return demo_build / "t.db"


@pytest.mark.parametrize("columns", [80, 100])
def test_claims_list_fits_columns_and_json_keeps_the_whole_reason(demo_db, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    out = runner.invoke(app, ["claims", "list", "--db", str(demo_db)])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines) == columns
    assert lines[-1] == "40 claims"
    rows = json.loads(runner.invoke(app, ["claims", "list", "--db", str(demo_db), "--json"]).stdout)
    longest = max(len(r["reason"] or "") for r in rows)
    assert longest > 300  # the text could only fit by wrapping it
    words = " ".join(line.split("│")[-2].strip() for line in lines if line.count("│") > 2)
    assert "observed 1.03T (1,026,880,447,728) params (observation #46)" in words
