"""`tracker watches` on an 80-column terminal: names, adapters and times wrap between
words, never inside one; tables in general wrap between words where they can."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.db import make_engine
from claims.models import Watch
from tracker import cli_common, cli_schedule
from tracker.cli import app

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
# "[retry later]" would be read as a rich style tag, and vanish, if printed as markup
ERROR = "https://huggingface.co/api/models?author=moonshotai&sort=createdAt: HTTP 503 [retry later]"
runner = CliRunner()


def _terminal(monkeypatch: pytest.MonkeyPatch, width: int) -> io.StringIO:
    out = io.StringIO()
    term = Console(file=out, width=width, force_terminal=True, color_system=None)
    monkeypatch.setattr(cli_common, "console", term)
    monkeypatch.setattr(cli_schedule, "console", term)
    return out


@pytest.fixture
def checked_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo's watches after one replayed check; one of them failing with a URL."""
    monkeypatch.chdir(ROOT)
    db = tmp_path / "t.db"
    for args in (["load"], ["check", "--replay", str(DEMO_HAR), "--snapshots", str(tmp_path)]):
        result = runner.invoke(app, [*args, "--db", str(db)])
        assert result.exit_code == 0, result.output
    engine = make_engine(db)
    with Session(engine) as s:
        w = s.exec(select(Watch).where(Watch.name == "litellm-prices")).one()
        w.state, w.consecutive_failures, w.last_error = "failing", 3, ERROR
        s.add(w)
        s.commit()
    engine.dispose()
    return db


def _cell_lines(text: str) -> list[list[str]]:
    """The body rows' cell texts, line by line (rich's heavy-header box)."""
    return [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in text.splitlines()
        if line.startswith("│ ")
    ]


def test_watches_at_80_columns_breaks_no_name_adapter_or_time(checked_db, monkeypatch):
    out = _terminal(monkeypatch, 80)
    result = runner.invoke(app, ["watches", "--db", str(checked_db)])
    assert result.exit_code == 0, result.output
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "┃ watch " in text and "┃ schedule " in text  # the narrow layout
    lines = _cell_lines(text)
    names = [row[0] for row in lines]
    for name, adapter in (
        ("hf-model-kimi-k2-thinking", "huggingface_model"),
        ("hf-org-moonshotai", "huggingface_org"),
        ("litellm-prices", "litellm_prices"),
        ("openrouter-models", "openrouter_models"),
    ):
        assert names[names.index(name) + 1] == adapter  # each whole, adapter under the name
    # every word of the other columns is whole: a date, a time, a schedule word...
    words = {w for row in lines for cell in row[1:4] for w in cell.split()}
    assert words == {
        "every", "1", "6", "12", "h", "2026-11-28", "06:00",
        "due", "now", "(since", "07:00)", "12:00)", "18:00)",
    }  # fmt: skip
    # the state column keeps "failing (3 in a row):" whole; only the URL is folded
    state = " ".join(row[4] for row in lines if row[4])
    assert "failing (3 in a row):" in state
    assert "".join(state.split()).count("".join(ERROR.split())) == 1


def test_watches_on_a_wide_terminal_keeps_one_column_each(checked_db, monkeypatch):
    out = _terminal(monkeypatch, 200)
    assert runner.invoke(app, ["watches", "--db", str(checked_db)]).exit_code == 0
    row = next(r for r in _cell_lines(out.getvalue()) if r[0] == "hf-model-kimi-k2-thinking")
    assert row[:5] == [
        "hf-model-kimi-k2-thinking",
        "huggingface_model",
        "every 6 h",
        "2026-11-28T06:00:00Z",
        "due now (since 2026-11-28T12:00:00Z)",
    ]


def test_watches_piped_prints_every_cell_on_one_line(checked_db):
    result = runner.invoke(app, ["watches", "--db", str(checked_db)])  # not a terminal
    row = next(ln for ln in result.stdout.splitlines() if "│ litellm-prices " in ln)
    assert row.endswith(f"│ failing (3 in a row) │ {ERROR} │")
    listing = json.loads(runner.invoke(app, ["watches", "--db", str(checked_db), "--json"]).stdout)
    assert [w["schedule"] for w in listing["watches"]] == [
        "every 6 h",
        "every 1 h",
        "every 12 h",
        "every 6 h",
    ]


def test_whole_word_widths_fit_words_and_share_the_rest(monkeypatch):
    _terminal(monkeypatch, 40)
    table = Table("name", "note")
    table.add_row("alpha-beta-gamma", "one two three four five six seven")
    # 2 columns: 7 characters of borders and padding; words of 16 and 5 characters
    widths = cli_common.whole_word_widths(table, 40)
    assert widths is not None and sum(widths) == 33 and widths[0] == 16
    assert cli_common.whole_word_widths(table, 200) == [16, 33]  # as wide as it wants
    assert cli_common.whole_word_widths(table, 27) is None  # 16 + 5 + 7 > 27
    assert cli_common.whole_word_widths(table, 27, breakable=1) == [16, 4]
