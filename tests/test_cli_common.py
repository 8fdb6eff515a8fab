"""tracker.cli.common.print_table: no cell text is lost, on a terminal or piped."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from tracker.cli import common as cli_common

LONG = "https://example.test/api/models?author=someone&sort=createdAt&direction=-1"


def _table() -> Table:
    table = Table("watch", "last error")
    table.add_row("listing", LONG)
    return table


def test_piped_table_is_printed_at_its_natural_width(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(cli_common, "console", Console(file=out, width=40))
    cli_common.print_table(_table())
    assert f"│ listing │ {LONG} │" in out.getvalue().splitlines()


def test_terminal_table_wraps_a_long_cell_instead_of_cutting_it(monkeypatch):
    out = io.StringIO()
    terminal = Console(file=out, width=40, force_terminal=True, color_system=None)
    monkeypatch.setattr(cli_common, "console", terminal)
    cli_common.print_table(_table())
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) == 40
    assert "…" not in out.getvalue()
    cells = [line.split("│")[2].strip() for line in lines if line.startswith("│ ")]
    assert "".join(cells) == LONG  # the error, folded over several lines
