"""How `tracker claims extract` shows a date stored as "after": its meaning in words
beside the quote, not a month before the quoted one (claims/values/display.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.values.display import candidate_value_text, date_meaning
from claims.values.value import date_value
from tracker.cli.main import app

SUBJECTS = str(Path(__file__).parent / "data" / "subjects.toml")


@pytest.mark.parametrize(
    ("iso", "relation", "precision", "words"),
    [
        ("2027-02", "after", "month", "not before March 2027"),
        ("2027-12", "after", "month", "not before January 2028"),
        ("2027-03-04", "after", "day", "not before 5 March 2027"),
        ("2027-03", "on", "month", "in March 2027"),
        ("2027-03-05", "on", "day", "on 5 March 2027"),
        ("2027-03-05", "before", "day", "before 5 March 2027"),
        ("2027-03", "by", "month", "by the end of March 2027"),
    ],
)
def test_a_date_reads_as_the_window_it_stands_for(iso, relation, precision, words):
    assert date_meaning(date_value(iso, relation, precision=precision)) == words


def test_only_an_after_date_gets_words_beside_the_stored_form():
    after = date_value("2027-02", "after", precision="month")
    assert candidate_value_text(after) == "not before March 2027 (stored: after 2027-02)"
    assert candidate_value_text(date_value("2027-03", "by", precision="month")) == "by 2027-03"


@pytest.mark.parametrize(
    ("lang", "sentence", "quote"),
    [
        ("en", "The lab says the open weights will not ship until March 2027.", "March 2027"),
        (
            "pt",
            "O laboratório afirma que os pesos abertos não sairão antes de março de 2027.",
            "março de 2027",
        ),
    ],
)
def test_extract_shows_a_negated_until_as_not_before_and_keeps_the_quote(
    tmp_path, lang, sentence, quote
):
    """A trial: "won't release the weights until March 2027" read `after 2027-02` beside
    the quote "March 2027", which looked like a contradiction."""
    article = tmp_path / "a.txt"
    article.write_text(sentence + "\n", encoding="utf-8")
    args = ["claims", "extract", str(article), "--lang", lang, "--published", "2026-11-20"]
    args += ["--subjects", SUBJECTS, "--subject", "kimi-k3.1-pro"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    [row] = [ln for ln in result.stdout.splitlines() if "weights_release_date" in ln]
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[3] == "not before March 2027 (stored: after 2027-02)"
    assert cells[5] == quote
    stored = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)[0]["value"]
    assert (stored["relation"], stored["value"]) == ("after", "2027-02")  # stored as before


@pytest.mark.parametrize(
    ("text", "unit", "scale", "shown"),
    [
        ("65.0", "percent", 1, "65.0%"),  # was "65%": the stated precision 0.1 lost
        ("65", "percent", 1, "65%"),
        ("74.50", "percent", 1, "74.50%"),
        ("2.80", "params", 10**12, "2.80T params"),
        ("2.8", "params", 10**12, "2.8T params"),
        ("1.0", "tokens", 10**6, "1.0M tokens"),
        ("0.600", "usd_per_mtok", 1, "$0.600 per 1M tokens"),
        ("2.00", "usd_per_mtok", 1, "$2.00 per 1M tokens"),
        ("1692.40", "points", 1, "1,692.40 points"),
        ("-3.0", "percent", 1, "\u22123.0%"),
    ],
)
def test_a_figure_keeps_the_decimals_it_was_stated_with(text, unit, scale, shown):
    from claims.values.value import quantity

    assert quantity(text, unit, scale=scale).display() == shown
    # an exact reading (an API's) shows no decimals it did not have
    assert quantity("65.0", "percent", exact=True).display() == "65%"


def test_extract_shows_65_0_percent_as_written(tmp_path):
    """A trial: `claims extract` showed "65%" for the written "65.0%" while the stored
    precision was 0.1."""
    article = tmp_path / "a.txt"
    article.write_text("Kimi K3.1 Pro reaches 65.0% on SWE-bench Verified.\n", encoding="utf-8")
    args = ["claims", "extract", str(article), "--lang", "en", "--published", "2026-11-20"]
    args += ["--subjects", SUBJECTS]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    [row] = [ln for ln in result.stdout.splitlines() if "benchmark_score" in ln]
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[3] == "65.0%" and cells[5] == "65.0%"
    stored = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)[0]["value"]
    assert (stored["value"], stored["precision"]) == (65, "0.1")  # stored as before
