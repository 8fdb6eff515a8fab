"""CLI wording: one quote style in discrepancy sentences, readable
help placeholders, schedules in hours, one term for what a check records."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.store.tables import Watch
from tracker.cli.main import app
from tracker.schedule.triggers import describe_schedule

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
runner = CliRunner()


def _ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)  # the demo reads data/ relative to the checkout
        _ok("demo", "--db", str(tmp / "t.db"), "--out", str(tmp / "site"))
    return tmp / "t.db"


def test_discrepancy_sentences_quote_with_curly_quotes_only(demo_db):
    out = _ok("discrepancies", "--db", str(demo_db))
    # rule label and reason of the open-weights date discrepancy
    assert "e.g. “before” vs “on”\n" in out
    assert "    “before 2026-11-04” vs “on 2026-11-04”: different promises" in out
    assert "via “Kimi K3.1 Pro launch: architecture, pricing…”" in out  # named by its title
    # headings and reasons (not the source titles listed under them) hold no straight quote
    sentences = [line for line in out.splitlines() if not line.startswith("    claim #")]
    assert sentences and not [line for line in sentences if "'" in line or '"' in line]
    page = html.unescape((demo_db.parent / "site" / "discrepancies.html").read_text())
    page = re.sub(r'<span class="nobr">([^<]*)</span>', r"\1", page)  # dates kept whole
    assert "e.g. “before” vs “on”" in page
    assert "“before 2026-11-04” vs “on 2026-11-04”: different promises" in page
    assert "'before" not in page and "'on'" not in page


@pytest.mark.parametrize(
    ("minutes", "params", "shown"),
    [
        (360, {}, "every 6 h"),
        (60, {}, "every 1 h"),
        (1440, {}, "every 24 h"),
        (90, {}, "every 90 min"),  # not whole hours
        (30, {}, "every 30 min"),
        (60, {"cron": "30 */6 * * *"}, "cron 30 */6 * * * UTC"),
    ],
)
def test_schedules_read_in_hours_when_whole(minutes, params, shown):
    watch = Watch(
        name="w",
        adapter="html_page",
        url="https://x.test/",
        interval_minutes=minutes,
        params_json=json.dumps(params),
    )
    assert describe_schedule(watch) == shown


def test_watches_lists_the_demo_schedules_in_hours(demo_db):
    out = _ok("watches", "--db", str(demo_db))
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("│ ")}
    assert "every 6 h" in rows["hf-model-kimi-k2-thinking"]  # 360 min in data/watches.toml
    assert "every 1 h" in rows["hf-org-moonshotai"]
    assert "every 12 h" in rows["litellm-prices"]
    assert " min " not in out


def test_check_counts_observations_in_one_term(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "t.db")
    _ok("load", "--db", db)
    out = _ok("check", "--replay", str(DEMO_HAR), "--db", db, "--snapshots", str(tmp_path / "s"))
    per_watch = re.findall(r"^  changed (\S+): (\d+) new observations?, (\d+) events?$", out, re.M)
    assert per_watch == [
        ("aa-intelligence-index", "4", "0"),
        ("aa-kimi-k3", "16", "0"),
        ("aa-kimi-k3.1-pro", "8", "0"),
        ("aa-kimi-k3.1-pro-hs", "8", "0"),
        ("cerebras-kimi-k3-post", "4", "0"),
        ("hf-model-kimi-k2-thinking", "10", "1"),
        ("hf-org-moonshotai", "1", "0"),
        ("litellm-prices", "9", "0"),
        ("lmarena-webdev", "4", "0"),
        ("moonshot-kimi-k3-page", "1", "0"),
        ("moonshot-kimi-k3.1-pro", "3", "0"),
        ("openrouter-models", "4", "0"),
        ("speed-kimi-k3", "3", "0"),
        ("speed-kimi-k3.1-pro", "3", "0"),
        ("speed-kimi-k3.1-pro-hs", "3", "0"),
        ("tbench-kimi-k3.1-pro", "1", "0"),
    ]
    assert out.splitlines()[-2] == (
        "checked 16 watches: 16 changed, 0 unchanged, 0 failed, 0 skipped; "
        "82 new observations, 1 event"
    )  # the per-watch counts add up to the total (a replay needs no AA key, as the demo)
    assert sum(int(n) for _w, n, _e in per_watch) == 82
    assert out.splitlines()[-1].startswith("next: `tracker alerts send --db ")  # 1 event
    assert "new value" not in out
