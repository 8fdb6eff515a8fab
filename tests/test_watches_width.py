"""`tracker watches` on an 80-column terminal: names, adapters and times wrap between
words, never inside one; tables in general wrap between words where they can."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import Watch
from tracker.cli import common as cli_common
from tracker.cli import schedule as cli_schedule
from tracker.cli.main import app

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
        # a replay needs no key, so no watch was skipped: one as a live cycle without it
        aa = s.exec(select(Watch).where(Watch.name == "aa-kimi-k3")).one()
        aa.skip_reason = "TRACKER_AA_API_KEY not set"
        s.add(aa)
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


def _words_of(*texts: str) -> set[str]:
    return {w for t in texts for w in t.split()}


# every word that may appear in a table cell or header, whole (the error's URL may be
# shortened with "…"; it is checked apart)
HEADERS = {"watch", "adapter", "schedule", "last", "next", "run", "state", "error"}


@pytest.mark.parametrize("width", [80, 100, 120, 122, 160, 200])
def test_watches_breaks_no_header_or_value_inside_a_word(checked_db, monkeypatch, width):
    out = _terminal(monkeypatch, width)
    result = runner.invoke(app, ["watches", "--db", str(checked_db)])
    assert result.exit_code == 0, result.output
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    header = {
        w for line in text.splitlines() if line.startswith("┃") for w in line.strip("┃").split()
    }
    assert header - {"┃"} <= HEADERS
    cells = _words_of(*(c for row in _cell_lines(text) for c in row))
    names = {"hf-model-kimi-k2-thinking", "hf-org-moonshotai", "litellm-prices"}
    names |= {"openrouter-models", "huggingface_model", "huggingface_org", "litellm_prices"}
    names |= {"openrouter_models"}
    assert names <= cells  # names and adapters whole
    # schedules and times: one format (2026-11-28 06:00 UTC, to the minute), whole
    assert {"every", "6", "12", "h", "2026-11-28", "06:00", "UTC", "due", "now", "(since"} <= cells
    assert not any("T06:00" in w for w in cells)
    # the error: whole words but its URL, which is shortened with "…" when too long
    error_words = ERROR.split()
    url = error_words[0]
    assert set(error_words[1:]) <= {w.rstrip(":") for w in cells} | {"[retry", "later]"}
    assert "[retry" in cells and "later]" in cells
    shown = [w for w in cells if w.startswith("https://")]
    assert len(shown) == 1 and url.startswith(shown[0].rstrip("…"))
    assert shown[0] == url or shown[0].endswith("…")
    assert {"failing", "(3", "in", "a"} <= cells and cells & {"row)", "row):"}


def test_watches_at_80_columns_stacks_adapter_and_schedule_under_the_name(checked_db, monkeypatch):
    out = _terminal(monkeypatch, 80)
    assert runner.invoke(app, ["watches", "--db", str(checked_db)]).exit_code == 0
    lines = _cell_lines(out.getvalue())
    assert len(lines) <= 72  # 16 watches, the failing one's error over a few lines
    names = [row[0] for row in lines]
    i = names.index("litellm-prices")
    assert names[i + 1 : i + 3] == ["litellm_prices", "every 12 h"]
    assert lines[i][1:3] == ["2026-11-28", "due now"]  # times wrap between words


def test_watches_on_a_wide_terminal_keeps_one_column_each(checked_db, monkeypatch):
    out = _terminal(monkeypatch, 260)
    assert runner.invoke(app, ["watches", "--db", str(checked_db)]).exit_code == 0
    rows = {r[0]: r for r in _cell_lines(out.getvalue()) if r[0]}
    assert rows["hf-model-kimi-k2-thinking"][:5] == [
        "hf-model-kimi-k2-thinking",
        "huggingface_model",
        "every 6 h",
        "2026-11-28 06:00 UTC",
        "due now (since 2026-11-28 12:00 UTC)",
    ]
    assert rows["litellm-prices"][5:] == ["failing (3 in a row)", ERROR]


def test_watches_piped_prints_every_cell_on_one_line(checked_db):
    result = runner.invoke(app, ["watches", "--db", str(checked_db)])  # not a terminal
    row = next(ln for ln in result.stdout.splitlines() if "│ litellm-prices " in ln)
    # the state column is as wide as its longest cell, the AA watch's skip
    assert re.search(rf"│ failing \(3 in a row\) +│ {re.escape(ERROR)} │$", row)
    skipped = next(ln for ln in result.stdout.splitlines() if "│ skipped: " in ln)
    assert "│ skipped: TRACKER_AA_API_KEY not set │" in skipped and " ok " not in skipped
    listing = json.loads(runner.invoke(app, ["watches", "--db", str(checked_db), "--json"]).stdout)
    schedules = {w["name"]: w["schedule"] for w in listing["watches"]}
    assert len(schedules) == 16
    assert [schedules[n] for n in ("hf-model-kimi-k2-thinking", "hf-org-moonshotai")] == [
        "every 6 h",
        "every 1 h",
    ]
    assert [schedules[n] for n in ("litellm-prices", "openrouter-models")] == [
        "every 12 h",
        "every 6 h",
    ]
    assert schedules["aa-intelligence-index"] == schedules["lmarena-webdev"] == "every 24 h"


def test_whole_word_widths_fit_words_and_share_the_rest(monkeypatch):
    _terminal(monkeypatch, 40)
    table = Table("name", "note")
    table.add_row("alpha-beta-gamma", "one two three four five six seven")
    # 2 columns: 7 characters of borders and padding; words of 16 and 5 characters
    widths = cli_common.whole_word_widths(table, 40)
    assert widths is not None and sum(widths) == 33 and widths[0] == 16
    assert cli_common.whole_word_widths(table, 200) == [16, 33]  # as wide as it wants
    assert cli_common.whole_word_widths(table, 27) is None  # 16 + 5 + 7 > 27
    # free text keeps at least its header's longest word and FREE_TEXT_MIN characters
    assert cli_common.whole_word_widths(table, 27, breakable=1) is None
    assert cli_common.whole_word_widths(table, 43, breakable=1) == [16, 20]
    header = Table("name", "explanation")
    header.add_row("alpha-beta-gamma", "x")
    assert cli_common.whole_word_widths(header, 34, breakable=1) == [16, 11]
