"""A fresh user's trial: subjects found by slug in any case, unknown subjects answered with
the known ones, verify's counts in singular and plural."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)  # the demo reads data/ relative to the checkout
        result = runner.invoke(app, ["demo", "--db", str(tmp / "t.db"), "--out", str(tmp / "s")])
        assert result.exit_code == 0, result.output
    return tmp / "t.db"


@pytest.mark.parametrize("name", ["KIMI-K3.1-PRO", "Kimi-K3.1-Pro", "kimi k3.1 pro"])
def test_status_finds_a_slug_or_alias_in_any_case(demo_db, name):
    result = runner.invoke(app, ["status", name, "--db", str(demo_db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Kimi K3.1 Pro (kimi-k3.1-pro)"


def test_discrepancies_for_an_unknown_subject_lists_the_known_ones(demo_db):
    result = runner.invoke(app, ["discrepancies", "--subject", "nope", "--db", str(demo_db)])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: unknown subject 'nope'; known: kimi-k3.1-pro, kimi-k3, kimi-k2-thinking"
    )


def test_discrepancies_take_an_alias_or_any_case(demo_db):
    by_slug = runner.invoke(
        app, ["discrepancies", "--subject", "kimi-k3.1-pro", "--db", str(demo_db)]
    )
    for name in ("KIMI-K3.1-PRO", "Kimi K3.1 Pro"):
        result = runner.invoke(app, ["discrepancies", "--subject", name, "--db", str(demo_db)])
        assert result.exit_code == 0, result.output
        assert result.stdout == by_slug.stdout
    assert by_slug.stdout.startswith("#1 [open] kimi-k3.1-pro ")
