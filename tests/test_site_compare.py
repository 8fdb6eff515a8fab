"""The compare page as built (tracker/website/compare.py): a picker that is a plain form,
a default comparison in the HTML (no JavaScript needed), its cells as the script draws
them; and the figures the compare page shares with the index and search: the Released
cell, "Last change" as it counts observations, a label and value with the unit said
once."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from claims.store.status import WeightsStatus
from claims.vocabulary import labelled_value
from tracker.website.compare import cell_parts, compare_rows, default_choice
from tracker.website.views import IndexRow


@pytest.fixture(scope="module")
def site(demo_build: Path) -> Path:
    return demo_build / "s"


def _row(slug: str, org: str | None, day: int | None) -> IndexRow:
    when = dt.datetime(2026, 11, day, tzinfo=dt.UTC) if day else None
    return IndexRow(slug, slug.title(), org, [], WeightsStatus(slug, slug, False), 0, when)


def test_default_is_the_family_of_the_latest_change_newest_first():
    rows = [
        _row("a", "Lab A", 1),
        _row("b", "Lab B", 20),
        _row("c", "Lab B", 5),
        _row("d", "Lab A", 10),
        _row("e", "Lab B", None),
    ]
    assert [r.slug for r in default_choice(rows)] == ["b", "c", "e"]


def test_default_falls_back_to_the_three_changed_last_when_the_family_is_alone():
    rows = [_row("a", "A", 1), _row("b", "B", 20), _row("c", "C", 5), _row("d", None, 9)]
    assert [r.slug for r in default_choice(rows)] == ["b", "d", "c"]
    assert default_choice([_row("a", "A", 1)]) == []


def test_default_family_stops_at_four():
    rows = [_row(f"s{i}", "Lab", i + 1) for i in range(6)]
    assert [r.slug for r in default_choice(rows)] == ["s5", "s4", "s3", "s2"]


def test_cell_parts_show_a_contradicted_figure_and_every_note():
    cell = {
        "text": "65.7%", "status": "contradicted", "observed": False, "note": "",
        "observed_text": "64%", "contradicted": 0, "aside": "",
    }  # fmt: skip
    assert [tuple(p) for p in cell_parts(cell)] == [
        ("text", "65.7%"),
        ("verdict", "contradicted"),
        ("note", "observed 64%"),
    ]
    speed = {
        "text": "41.6", "status": None, "observed": True, "note": "Moonshot AI, p50",
        "observed_text": "", "contradicted": 2, "aside": "2,000 on Cerebras (confirmed)",
    }  # fmt: skip
    assert [p.text for p in cell_parts(speed)] == [
        "41.6",
        "observed",
        "Moonshot AI, p50",
        "✗ 2 sources contradicted",
        "not compared here: 2,000 on Cerebras (confirmed)",
    ]
    assert [tuple(p) for p in cell_parts(None)] == [("none", "—")]


def test_compare_rows_list_weights_first_then_columns_then_other_benchmarks(site):
    table = json.loads((site / "api" / "table.json").read_text())
    records = sorted(table["subjects"], key=lambda s: s["slug"])
    columns = [(c["key"], c["label"]) for c in table["columns"]]
    rows = compare_rows(records, columns)
    labels = [label for label, _ in rows]
    assert labels[:5] == ["Weights", "Licence", "Gated", "Released", "Total params"]
    assert labels[-2:] == ["Terminal-Bench 3.0", "Terminal-Bench 4.0"]
    gated = dict(rows)["Gated"]
    assert [p[0].text for p in gated] == ["no", "unknown", "unknown"]


def test_compare_rows_leave_out_a_figure_no_compared_subject_has(site):
    # a fresh-user trial: comparing K3 with K2 Thinking gave three benchmark rows of
    # "—" only; a row one of them has stays, with its "—" for the other
    table = json.loads((site / "api" / "table.json").read_text())
    records = [s for s in table["subjects"] if s["slug"] in ("kimi-k3", "kimi-k2-thinking")]
    columns = [(c["key"], c["label"]) for c in table["columns"]]
    rows = dict(compare_rows(records, columns))
    assert list(rows) == [
        "Weights", "Licence", "Gated", "Released", "Total params", "Active params",
        "Context", "Input $/M", "Output $/M", "Output tok/s",
    ]  # fmt: skip
    assert [[tuple(p) for p in ps] for ps in rows["Active params"]] == [
        [("text", "32B"), ("verdict", "confirmed"), ("note", "observed 31.69B")],
        [("none", "—")],
    ]


def test_compare_page_has_a_plain_form_picker_and_a_default_table(site):
    html = (site / "compare.html").read_text()
    start = html.index('<form id="compare-pick"')
    form = html[start : html.index("</form>", start)]
    assert 'action="compare.html" method="get"' in form
    boxes = re.findall(r'<input type="checkbox" name="s" value="([^"]+)"( checked)?>', form)
    assert boxes == [
        ("kimi-k2-thinking", " checked"),
        ("kimi-k3", " checked"),
        ("kimi-k3.1-pro", " checked"),
    ]
    table = html[html.index('<table class="side-by-side" id="compare-default">') :]
    table = table[: table.index("</table>")]
    assert "Moonshot AI's subjects, the family of the latest change" in table
    heads = re.findall(r'<th scope="col"><a href="subjects/([^/]+)/index.html">', table)
    assert heads == ["kimi-k2-thinking", "kimi-k3", "kimi-k3.1-pro"]
    row = table[table.index('<th scope="row">Terminal-Bench 4.0</th>') :]
    row = re.sub(r"<[^>]+>", "", row[: row.index("</tr>")])
    # the contradicted figure shows with its verdict, not hidden behind a dash
    assert row.endswith("65.7% contradicted")
    assert len(html.encode()) < 150_000


def test_last_change_counts_a_subjects_first_observation(site):
    """Kimi K3 has no event, but its prices were first read on 2026-11-28: that is its
    last change, on the index and in table.json; the column's title says what it counts."""
    table = json.loads((site / "api" / "table.json").read_text())
    k3 = next(s for s in table["subjects"] if s["slug"] == "kimi-k3")
    assert k3["last_change"] == "2026-11-28T06:00:00Z"
    html = (site / "index.html").read_text()
    row = html[html.index('<tr data-slug="kimi-k3"') :]
    row = row[: row.index("</tr>")]
    assert row.endswith('<td data-sort="2026-11-28T06:00:00Z"><time datetime="2026-11-28T06:00:00Z"'
                        ' title="2026-11-28 06:00 UTC">2026-11-28</time></td>\n')  # fmt: skip
    head = re.search(r'<th scope="col" title="([^"]+)"[^>]*data-key="last-change"', html)
    assert head is not None and "first observation included" in head.group(1)


@pytest.mark.parametrize(
    ("attribute", "text", "joined"),
    [
        ("total_params", "2.8T params", "Total parameters 2.8T"),
        ("active_params", "about 32B params", "Active parameters about 32B"),
        ("hub_params_raw", "1.03T (1,026,880,447,728) params",
         "Hub parameter count (raw, packed) 1.03T (1,026,880,447,728)"),
        ("context_window", "1M tokens", "Context window 1M tokens"),
        ("price_output_usd_per_mtok", "$10.00 per 1M tokens", "Output price $10.00 per 1M tokens"),
        ("weights_release_date", "before 2026-11-04", "Open-weights date before 2026-11-04"),
        ("license", "modified-mit", "Licence modified-mit"),
        ("output_tokens_per_second", "1,000–2,000+ tokens/s", "Output speed 1,000–2,000+ tokens/s"),
        ("benchmark_score", "55 points", "Benchmark score 55 points"),
        ("leaderboard_rank", "#4", "Leaderboard rank #4"),
        ("weights_precision_bits", "4 bits", "Weight precision 4 bits"),
    ],
)  # fmt: skip
def test_labelled_value_says_the_unit_once(attribute, text, joined):
    assert labelled_value(attribute, text) == joined


def test_search_entries_say_each_unit_once(site):
    index = (site / "assets" / "search-index.js").read_text()
    names = set(re.findall(r'\["c","([^"]+)"', index))
    assert "Kimi K3.1 Pro: Total parameters 2.8T" in names
    assert "Kimi K3: Total parameters about 3T" in names
    assert not [n for n in names if "parameters" in n and n.endswith("params")]


def test_released_cell_is_the_date_sorted_by_its_ordinal(site):
    """The index's Released column: the stated release date ("on" left out), its number
    the date's ordinal (newest sorts first), in table.json and table.csv."""
    table = json.loads((site / "api" / "table.json").read_text())
    assert table["columns"][0] == {"key": "released", "label": "Released"}
    by = {s["slug"]: s["cells"].get("released") for s in table["subjects"]}
    assert by["kimi-k3"] is None
    cell = by["kimi-k3.1-pro"]
    # a watch read the same date: the pages show no "observed" beside an equal figure
    assert (cell["text"], cell["status"], cell["observed_text"]) == (
        "2026-10-23",
        "confirmed",
        "2026-10-23",
    )
    assert cell["number"] == dt.date(2026, 10, 23).toordinal()
    csv_head = (site / "api" / "table.csv").read_text().splitlines()[0]
    assert "released,released_status,released_note" in csv_head
