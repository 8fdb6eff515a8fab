"""The subject card and the comparison table (tracker/website/summary.py) on the real demo:
what the card says was observed agrees with the verdicts' evidence and the Observed
table; a claimant's own page reads "stated on"; the speed column shows a figure with its
conditions or the observed measurement; the index explains every mark, the compare
page has weights, licence and gating first; the timeline labels each event; weights
read "unknown" until a Hub check succeeds."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from claims.store.status import WeightsStatus
from tracker.website.marks import VERDICT_MARKS
from tracker.website.pages import FILTERS
from tracker.website.render import make_environment
from tracker.website.summary import weights_text


@pytest.fixture(scope="module")
def site(demo_build: Path) -> Path:
    return demo_build / "s"


def _card(site: Path, slug: str) -> dict[str, dict]:
    data = json.loads((site / "api" / "subjects" / f"{slug}.json").read_text())
    return {line["label"]: line for line in data["summary"]}


def _row(html: str, label: str) -> str:
    """The card's row whose heading is ``label``."""
    start = html.index(f">{label}</a></th>")
    return html[start : html.index("</tr>", start)]


def test_a_claimant_page_reads_stated_on_never_observed(site):
    """The vendor's page confirms parameter counts (claims.verify.statements.VENDOR_SPECS):
    Kimi K3.1 Pro's total (Moonshot AI's own claim) reads as Kimi K3's (Cerebras'), from
    one observation that is no observed value and was never a watch's reading of the Hub."""
    for slug in ("kimi-k3.1-pro", "kimi-k3"):
        total = _card(site, slug)["Total parameters"]
        assert (total["status"], total["observed"], total["checked_at"]) == (
            "confirmed", None, None,
        )  # fmt: skip
        assert (total["derived_from"], total["stated_on"]) == (1, None)
        html = (site / "subjects" / slug / "index.html").read_text()
        observed = _row(html, "Total parameters").rsplit("<td>", 1)[1]
        assert observed.endswith('">from 1 observation</a></td>\n')  # no "—" after it


def test_the_observed_column_shows_what_the_verdict_cites(site):
    card = _card(site, "kimi-k3.1-pro")
    rank = card["Rank: Artificial Analysis Intelligence Index"]
    assert (rank["status"], rank["observed"]) == ("confirmed", "#4")
    # evidence about another version of the benchmark says so
    tb4 = card["Terminal-Bench 4.0"]
    assert (tb4["status"], tb4["observed"], tb4["observed_note"]) == (
        "contradicted",
        "65.7%",
        "version: 3.0",
    )
    # a verdict computed from two prices: from 2 observations, not "not observed"
    change = card["Price change (vs kimi-k3)"]
    assert (change["status"], change["observed"], change["derived_from"]) == ("confirmed", None, 2)
    html = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    # the subject it is relative to by its name, linked (subjectrefs.label_html)
    kimi_k3 = '<a href="../../subjects/kimi-k3/index.html">Kimi K3</a>'
    start = html.index(f">Price change</a> (vs {kimi_k3})</th>")
    assert "from 2 observations</a>" in html[start : html.index("</tr>", start)]
    assert "not observed" not in _row(html, "Rank: Artificial Analysis Intelligence Index")
    # no confirmed line says "not observed"
    for label, line in card.items():
        if line["status"] == "confirmed":
            assert line["observed"] or line["derived_from"], label


def test_speed_column_compares_first_party_medians_like_with_like(site):
    """K3's Cerebras figure (1,000–2,000+ on Cerebras WSE-3T) is never the cell's value
    nor sorted against K3.1 Pro's own-endpoint median: each shows its lab's endpoint
    at p50, the Cerebras claim named beside with its hardware."""
    table = json.loads((site / "api" / "table.json").read_text())
    cells = {s["slug"]: s["cells"] for s in table["subjects"]}
    k3 = cells["kimi-k3"]["speed"]
    assert (k3["text"], k3["number"], k3["provider"], k3["statistic"], k3["observed"]) == (
        "41.6",
        41.6,
        "Moonshot AI",
        "p50",
        True,
    )
    assert k3["aside"] == "1,000–2,000+ on Cerebras WSE-3T (confirmed)"
    k31 = cells["kimi-k3.1-pro"]["speed"]
    assert (k31["text"], k31["number"], k31["provider"], k31["statistic"]) == (
        "44.8",
        44.8,
        "Moonshot AI",
        "p50",
    )
    assert k31["aside"] == ""
    # the card says the same
    assert _card(site, "kimi-k3.1-pro")["Output speed"]["observed"] == "44.8 tokens/s"
    assert _card(site, "kimi-k3")["Output speed"]["observed"] == "41.6 tokens/s"
    html = (site / "index.html").read_text()
    # the cell keeps one line for it: a dagger whose title says it; the line under the
    # table says it in full (it was "not compared: …, confirmed", six lines tall)
    k3_cell = html[html.index('data-slug="kimi-k3"') :].split("</tr>")[0]
    assert (
        '<span class="mark mark-observed" title="observed; no claim confirms it">○</span> '
        '<a class="aside-mark" href="#not-compared" title="another figure, not the 41.6 '
        "shown: 1,000–2,000+ on Cerebras WSE-3T (confirmed); not compared here (another "
        'provider or hardware)"><span aria-hidden="true">†</span><span '
        'class="visually-hidden"> (another figure, not compared here: 1,000–2,000+ on '
        "Cerebras WSE-3T (confirmed))</span></a></span><br>"
    ) in k3_cell
    note = html[html.index('<p class="aside-note muted" id="not-compared">') :].split("</p>")[0]
    assert re.sub(r"<[^>]+>", "", note) == (
        "† Another figure than the one the cell shows, not compared in its column (measured "
        "on another provider or hardware than the lab's own offering): Kimi K3, Output "
        "tok/s (the cell shows 41.6): 1,000–2,000+ on Cerebras WSE-3T (confirmed)."
    )
    assert 'id="not-compared"' not in (site / "index" / "name-landed.html").read_text()
    assert '<small class="cell-note">observed: Moonshot AI, p50</small>' in html
    # sorted by speed, the own-endpoint medians only: K3.1 Pro (44.8) before K3 (41.6)
    by_speed = (site / "index" / "speed-all.html").read_text()
    assert by_speed.index('data-slug="kimi-k3.1-pro"') < by_speed.index('data-slug="kimi-k3"')
    # the CSV keeps who served it and the statistic
    rows = {
        r["slug"]: r for r in csv.DictReader(io.StringIO((site / "api" / "table.csv").read_text()))
    }
    k3_row = rows["kimi-k3"]
    assert (k3_row["speed"], k3_row["speed_status"], k3_row["speed_provider"]) == (
        "41.6",
        "observed",
        "Moonshot AI",
    )
    assert k3_row["speed_statistic"] == "p50"
    assert k3_row["speed_note"] == (
        "observed: Moonshot AI, p50; not compared: 1,000–2,000+ on Cerebras WSE-3T (confirmed)"
    )


def test_the_not_compared_dagger_stays_on_its_figures_line_and_names_the_other_figure(site):
    """The dagger marks another figure of the cell (K3's Cerebras claim), not the 41.6
    shown: the figure, its mark and the dagger are one unbreakable run (at 390 px the
    dagger wrapped alone onto its own line), and its title says which figure it is."""
    html = (site / "index.html").read_text()
    k3_cell = html[html.index('data-slug="kimi-k3"') :].split("</tr>")[0]
    speed = k3_cell[k3_cell.index('<td class="num" data-sort="41.6">') :].split("</td>")[0]
    run = re.search(r'<span class="nobr">(.*?)</a></span>', speed)
    assert run is not None, speed
    assert re.sub(r"<[^>]+>", "", run.group(1)).startswith("41.6 ○ †")
    title = re.search(r'class="aside-mark" href="#not-compared" title="([^"]*)"', speed)
    assert title is not None
    assert title.group(1).startswith(
        "another figure, not the 41.6 shown: 1,000–2,000+ on Cerebras WSE-3T (confirmed)"
    )


def test_a_contradicted_figure_shows_with_its_verdict_never_as_a_sort_number(site):
    """Terminal-Bench 4.0 for K3.1 Pro: its only claim (65.7%, the 3.0 score) is
    contradicted, so the cell shows that figure with status ``contradicted`` (a trial
    read "— (✗ 1 source contradicted)" as a hidden figure) but no number to sort by, and
    links to that claim, in table.json, table.csv and the card."""
    table = json.loads((site / "api" / "table.json").read_text())
    k31 = next(s for s in table["subjects"] if s["slug"] == "kimi-k3.1-pro")
    cell = k31["scores"]["Terminal-Bench 4.0"]
    card = _card(site, "kimi-k3.1-pro")["Terminal-Bench 4.0"]
    assert (cell["text"], cell["number"], cell["status"], cell["contradicted"]) == (
        "65.7%",
        None,
        "contradicted",
        0,
    )
    assert cell["observed_text"] == ""  # nothing read for 4.0
    assert cell["anchor"] == card["anchor"]
    assert card["best"]["text"] == "" and card["best"]["contradicted"] == ["65.7%"]
    html = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    stated = _row(html, "Terminal-Bench 4.0").split('<td class="stated">', 1)[1]
    assert "1 source said 65.7%" in stated
    columns = [c["label"] for c in table["columns"]]
    if "Terminal-Bench 4.0" in columns:  # a headline column: the index and CSV show it
        rows = csv.DictReader(io.StringIO((site / "api" / "table.csv").read_text()))
        row = next(r for r in rows if r["slug"] == "kimi-k3.1-pro")
        assert (row["Terminal-Bench 4.0"], row["Terminal-Bench 4.0_status"]) == (
            "65.7%",
            "contradicted",
        )


def test_index_legend_explains_every_mark_it_uses(site):
    html = (site / "index.html").read_text()
    legend = html[html.index('id="legend"') : html.index("</div>", html.index('id="legend"'))]
    items = re.findall(
        r'<span class="mark mark-(\w+)" aria-hidden="true">(.)</span> ([^<]+)', legend
    )
    assert {(k, m) for k, m, _ in items} == {
        *VERDICT_MARKS.items(),
        ("none", "·"),
    }
    meaning = {k: text for k, _, text in items}
    assert meaning["unverified"] == "unverified: no watch observes this figure"
    # a trial: "30.51B ○" under which "✗ 2 sources contradicted" while the legend said
    # "no claim states it"; legend and the mark's tooltip state one rule
    assert meaning["observed"] == (
        "observed: the figure shown was read by a watch; no claim confirms it"
    )
    tips = set(re.findall(r'<span class="mark mark-observed" title="([^"]*)">', html))
    assert tips == {"observed; no claim confirms it"}
    used = set(re.findall(r'<span class="mark mark-\w+" title="[^"]*">(.)</span>', html))
    assert used and used <= {m for _, m, _ in items}


def test_compare_is_reachable_from_every_row_and_links_the_subjects_page(site):
    html = (site / "index.html").read_text()
    # the box sits in the name cell (shown on phones too), the button above the table
    assert html.count('<th scope="row"><input class="pick" type="checkbox"') == 3
    assert html.index('<button type="submit" class="compare-btn">') < html.index("<table")
    assert "td.pick" not in (site / "assets" / "site.css").read_text()
    compare = (site / "compare.html").read_text()
    assert 'on the <a href="index.html">Subjects</a> page' in compare
    js = (site / "assets" / "site.js").read_text()
    assert js.index('["Weights"') < js.index('["Licence"') < js.index('["Gated"')
    table = json.loads((site / "api" / "table.json").read_text())
    words = {s["slug"]: s["weights"]["text"] for s in table["subjects"]}
    assert words == {
        "kimi-k2-thinking": "landed",
        "kimi-k3": "not landed",
        "kimi-k3.1-pro": "not landed, overdue by 24 days",
    }


def test_timeline_labels_each_event_and_marks_overdue(site):
    svg = (site / "subjects" / "kimi-k3.1-pro" / "timeline.svg").read_text()
    labels = re.findall(r'font-weight="600">([^<]+)</text>', svg)
    assert labels == [
        "announced (on 2026-10-23)",
        "weights promised before 2026-11-04",
        "weights promised on 2026-11-04",
        "overdue by 24 days at the last Hub check",
    ]
    assert 'width="400"' in svg and 'font-size="15"' in svg  # ~14 px at a phone's 358 px
    assert re.search(r'<rect x="[\d.]+" y="\d+" width="[\d.]+" height="6" fill="#a3141b"/>', svg)


def _macros():
    return make_environment().get_template("_macros.html").module


def test_weights_unknown_until_a_hub_check_succeeds():
    w = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=None)
    assert weights_text(w) == "unknown — no successful Hub check yet"
    line = str(_macros().weights_line(w))
    assert "not landed" not in line and "✗" not in line
    assert "<strong>unknown</strong> <small>— no successful Hub check yet</small>" in line
    brief = str(_macros().weights_brief(w))
    assert "not landed" not in brief and "no successful Hub check yet" in brief


def test_weights_line_keeps_a_space_before_the_dash():
    import datetime as dt

    checked = dt.datetime(2026, 11, 28, 6, tzinfo=dt.UTC)
    w = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=checked)
    line = str(_macros().weights_line(w))
    assert "not landed</span> <small>— as of the last check" in line
    assert weights_text(w) == "not landed"


def test_weights_not_landed_are_marked_a_failure_only_when_overdue():
    """A trial read Kimi K3's red "✗ not landed" (no promise on record) as a broken
    figure: ✗ is the legend's "contradicted". Only an overdue promise is red, and not
    landed is a state with its own mark (□, in the legend), never a verdict's."""
    import datetime as dt

    checked = dt.datetime(2026, 11, 28, 6, tzinfo=dt.UTC)
    calm = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=checked)
    late = WeightsStatus(
        slug="y", name="Y", landed=False, watched=True, as_of=checked, overdue_days=24
    )
    for render in (_macros().weights_line, _macros().weights_brief):
        calm_html = (
            '<span class="state-none"><span class="mark-not-landed" aria-hidden="true">□</span>'
            " not landed</span>"
        )
        assert calm_html in str(render(calm))
        red = '<span class="state-bad"><span aria-hidden="true">□</span> not landed</span>'
        assert red in str(render(late))
        assert "✗" not in str(render(calm)) + str(render(late))


def test_the_table_export_says_unknown_for_a_subject_no_hub_check_has_seen():
    from tracker.website.table import table_csv

    table = {
        "columns": [],
        "subjects": [
            {
                "slug": s,
                "name": s,
                "organization": None,
                "weights": {"landed": landed, "repo": None, "overdue_days": None},
                "license": None,
                "gated": None,
                "open_discrepancies": 0,
                "last_change": None,
                "cells": {},
            }
            for s, landed in (("a", True), ("b", False), ("c", None))
        ],
    }
    rows = [line.split(",")[:4] for line in table_csv(table).splitlines()[1:]]
    assert [r[3] for r in rows] == ["yes", "no", "unknown"]


def test_a_stated_licence_shows_marked_stated_while_none_is_observed():
    """The index row, subject page and compare data show the sources' licence (marked
    "stated" with its verdict) instead of "unknown"; an observed licence wins."""
    from tracker.website.table import table_record
    from tracker.website.views import Cell, IndexRow

    stated = Cell("apache-2.0", "unverified", None, "c-1")
    w = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=None)
    cell = str(_macros().licence_access(w, stated=stated))
    assert cell.startswith(
        '<code class="nowrap">apache-2.0</code> <small class="license-stated">stated, unverified'
    )
    assert "unknown" not in cell
    row = IndexRow("x", "X", None, [], w, 0, None, license_stated=stated)
    record = table_record(row)
    assert (record["license"], record["license_stated"]["text"]) == (None, "apache-2.0")
    assert record["license_stated"]["status"] == "unverified"
    w.license = "mit"
    assert table_record(row)["license_stated"] is None
    assert '<code class="nowrap">mit</code>' in str(_macros().licence_access(w, stated=stated))


def test_unknown_weights_name_the_promised_date():
    from claims.store.status import Promise

    w = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=None)
    w.promises = [Promise("2027-01-15", "on", "S", None, 1)]
    assert weights_text(w) == "unknown — no successful Hub check yet; promised on 2027-01-15"
    brief = str(_macros().weights_brief(w))
    assert (
        'no successful Hub check yet; promised on <span class="nobr">2027-01-15</span></small>'
        in brief
    )


def test_the_card_licence_line_is_the_stated_licence_cell():
    from claims.values.value import text_value
    from tracker.website.summary import card_lines, make_fact, stated_license
    from tracker.website.views import ClaimView, SourceInfo, VerdictView

    src = SourceInfo(1, "s1", "Source 1", None, None, None, None, "article")
    claim = ClaimView(
        1, 1, "x", "X", "license", "", {}, "apache-2.0", text_value("apache-2.0").to_dict(),
        None, None, None, None, src, VerdictView("unverified", "", None, [], []), "c-1",
    )  # fmt: skip
    cell = stated_license(card_lines([make_fact([claim])], []))
    assert cell is not None
    assert (cell.text, cell.status, cell.anchor, cell.disputed) == (
        "apache-2.0",
        "unverified",
        "c-1",
        False,
    )


def test_index_names_its_score_columns_and_where_the_other_scores_are(site):
    html = (site / "index.html").read_text()
    start = html.index('<p class="scores-note')
    note = html[start : html.index("</p>", start)]
    # one of the three subjects has any of these scores: the note says so
    assert "Score columns: the 3 benchmarks reported by the most subjects (" in note
    assert "; 1 of 3 subjects here has a score in any of them)." in note
    assert "most subjects report" not in note
    for name in ("Terminal-Bench 3.0", "Terminal-Bench 4.0"):  # no column of their own
        assert f'{name} — <a href="subjects/kimi-k3.1-pro/index.html#attr-benchmark_score">' in note
    table = json.loads((site / "api" / "table.json").read_text())
    scores = {s["slug"]: s["scores"] for s in table["subjects"]}
    tb = scores["kimi-k3.1-pro"]["Terminal-Bench 3.0"]
    assert (tb["text"], tb["number"]) == ("65.7%", 65.7)  # the compare page's row


def test_the_card_export_gives_the_best_supported_value_never_a_contradicted_one(site):
    card = _card(site, "kimi-k3.1-pro")
    tb4 = card["Terminal-Bench 4.0"]  # contradicted by a 3.0 run: nothing to show instead
    assert tb4["best"] == {
        "text": "",
        "number": None,
        "status": "contradicted",
        "basis": "contradicted",
        "contradicted": ["65.7%"],
        "contradicted_sources": 1,
    }
    rank = card["Rank: Artificial Analysis Intelligence Index"]
    assert (rank["best"]["text"], rank["best"]["basis"], rank["best"]["status"]) == (
        "#4",
        "observed",
        "confirmed",
    )


def test_stated_and_observed_are_each_in_their_own_column(site):
    """K2 Thinking's sources state 1T and 32B, a watch read 1.03T and 31.69B: the card's
    Stated column says what was stated, its Observed column what was read (✓), and the
    table shows the stated figure, sorting by the reading."""
    html = (site / "subjects" / "kimi-k2-thinking" / "index.html").read_text()
    for label, stated, seen in (
        ("Total parameters", "1T", "1.03T"),
        ("Active parameters", "32B", "31.69B"),
    ):
        row = _row(html, label)
        assert f'<td class="stated"><strong>{stated}</strong></td>' in row
        assert (
            f'<td>{seen} <span class="mark mark-confirmed" title="matches what is stated">✓</span>'
            in row
        )
    k31 = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert '<td class="stated"><strong>#8</strong></td>' in _row(k31, "Rank: Code Arena WebDev")
    assert "<td>#7–#10 <span" in _row(k31, "Rank: Code Arena WebDev")
    table = json.loads((site / "api" / "table.json").read_text())
    k2 = next(s for s in table["subjects"] if s["slug"] == "kimi-k2-thinking")["cells"]
    total = k2["total-params"]
    assert (total["text"], total["observed_text"], total["number"]) == (
        "1T",
        "1.03T",
        1026880447728.0,
    )
    index = (site / "index.html").read_text()
    assert '<small class="cell-note">observed 1.03T</small>' in index


def test_not_landed_lists_only_subjects_a_hub_check_saw_without_weights(site):
    html = (site / "index" / "name-not-landed.html").read_text()
    shown = re.findall(r'<tr data-slug="([^"]+)"', html)
    assert shown == ["kimi-k3", "kimi-k3.1-pro"]  # not cirrus-12b: never checked, unknown


def test_observed_summary_counts_figures(site):
    html = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert (
        '<summary>10 figures observed (36 readings), <strong class="unclaimed">1 of them '
        "stated by no claim</strong></summary>"
    ) in html


def test_table_csv_names_score_columns_and_marks_observed_values(site):
    rows = list(csv.reader(io.StringIO((site / "api" / "table.csv").read_text())))
    head = rows[0]
    assert not any(h.startswith("score-") for h in head)
    for name in ("Artificial Analysis Intelligence Index", "Code Arena WebDev", "Cyber Index"):
        assert [h for h in head if h.startswith(name)] == [name, f"{name}_status", f"{name}_note"]
    speed = head.index("speed")
    assert head[speed : speed + 5] == [
        "speed",
        "speed_status",
        "speed_note",
        "speed_provider",
        "speed_statistic",
    ]
    k2 = dict(zip(head, next(r for r in rows if r[0] == "kimi-k2-thinking"), strict=True))
    assert (k2["price-in"], k2["price-in_status"]) == ("$0.60", "observed")
    # an empty index cell reads "no figure", as the compare page's
    index = (site / "index.html").read_text()
    assert "<td></td>" not in index
    assert (
        '<td><span aria-hidden="true">—</span><span class="visually-hidden">no figure</span></td>'
        in index
    )


def test_the_not_landed_filter_leaves_out_subjects_never_checked():
    """A subject no Hub check has succeeded for (landed false, state unknown) is not
    "not landed": the filter keeps only those a successful check saw without weights."""
    checked = dt.datetime(2026, 11, 28, 6, tzinfo=dt.UTC)
    keep = FILTERS["not-landed"][1]
    never = WeightsStatus(slug="x", name="X", landed=False, watched=True, as_of=None)
    seen = WeightsStatus(slug="y", name="Y", landed=False, watched=True, as_of=checked)
    landed = WeightsStatus(slug="z", name="Z", landed=True, watched=True, as_of=checked)
    rows = {w.slug: SimpleNamespace(weights=w) for w in (never, seen, landed)}
    assert [slug for slug, row in rows.items() if keep(row)] == ["y"]


def test_a_cell_whose_confirmed_claims_cannot_both_hold_shows_that_observations_differ():
    """128K and 256K context, each confirmed by its own observation: the cell is not one
    confirmed value but both, marked disputed, noting that the observations differ."""
    from claims.values.value import quantity
    from tracker.website.summary import card_lines, make_fact, table_cells
    from tracker.website.views import ClaimView, SourceInfo, VerdictView

    def claim(i: int, figure: str, obs: int) -> ClaimView:
        src = SourceInfo(i, f"s{i}", f"Source {i}", None, None, None, None, "article")
        v = quantity(figure, unit="tokens")
        return ClaimView(
            i, 1, "x", "X", "context_window", "", {}, v.display(), v.to_dict(),
            None, None, None, None, src, VerdictView("confirmed", "", None, [], [obs]),
            f"c-{i}",
        )  # fmt: skip

    lines = card_lines(
        [make_fact([claim(1, "128000", 3)]), make_fact([claim(2, "256000", 11)])], []
    )
    cell = table_cells(lines, [])["context"]
    assert (cell.status, cell.number, cell.note) == ("disputed", None, "observations differ")
    assert "128" in cell.text and "256" in cell.text
