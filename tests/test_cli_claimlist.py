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


def _cells(lines: list[str], column: int) -> list[str]:
    return [line.split("│")[column].strip() for line in lines if line.count("│") > 2]


@pytest.mark.parametrize("columns", [80, 100])
def test_at_a_piped_width_no_word_is_split(demo_db, monkeypatch, columns):
    """At 80 columns the eight columns split slugs and verdicts mid-word ("confi|rmed"):
    the subject, attribute and value stack in one column instead, words whole."""
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = runner.invoke(app, ["claims", "list", "--db", str(demo_db)]).stdout.splitlines()
    rows = json.loads(runner.invoke(app, ["claims", "list", "--db", str(demo_db), "--json"]).stdout)
    assert max(len(line) for line in lines) == columns
    assert "subject /" in lines[1] and "verdict: reason" in "".join(lines[:5])
    stacked = _cells(lines, 2)  # each row's subject, attribute and value, one under another
    words = {w for cell in stacked for w in cell.split()}
    for row in rows:
        assert row["subject"] in stacked  # a slug, whole on its line
        assert set(row["value"].split()) <= words  # wrapped between words only
    verdicts = [c.split(":")[0] for c in _cells(lines, 4) if c.split(":")[0] in
                {"confirmed", "contradicted", "pending", "overdue", "unverified", "disputed"}]  # fmt: skip
    assert len(verdicts) == len(rows)  # every verdict whole, at the start of its reason


def test_piped_without_columns_prints_at_full_width_one_line_a_claim(demo_db, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    lines = runner.invoke(app, ["claims", "list", "--db", str(demo_db)]).stdout.splitlines()
    rows = json.loads(runner.invoke(app, ["claims", "list", "--db", str(demo_db), "--json"]).stdout)
    body = [line for line in lines if line.startswith("│")]
    assert len(body) == len(rows) == 40  # nothing wrapped
    assert [c for c in _cells(lines, 7)] == [r["verdict"] or "no verdict yet" for r in rows]
    assert max(len(line) for line in lines) > 300  # the longest reason, whole


def test_json_names_each_source_bare_the_text_in_quotes(demo_db, monkeypatch):
    """--json's ``source`` is the source's bare name: a source named by its title gives
    the whole title, without the quotes and the cut the text puts round it."""
    monkeypatch.setenv("COLUMNS", "400")
    text = runner.invoke(app, ["claims", "list", "--db", str(demo_db)]).stdout
    assert "“Kimi K3.1 Pro launch: architecture, pricing…”" in text
    rows = json.loads(runner.invoke(app, ["claims", "list", "--db", str(demo_db), "--json"]).stdout)
    named = {r["source_key"]: r["source"] for r in rows}
    assert named["report-k31-launch"] == (
        "Kimi K3.1 Pro launch: architecture, pricing and open-weights date"
    )
    assert named["maquinaweb-k31-cerebras"] == "Máquina Web"
    assert not any("“" in r["source"] for r in rows)
