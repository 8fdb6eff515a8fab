"""charts.html as built (tracker/website/charts.py speed_price_chart, pages.py
chart_page_jobs): output speed against output price across subjects."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def site(demo_build: Path) -> Path:
    return demo_build / "s"


def test_speed_price_chart_has_a_point_per_subject_with_both_figures(site):
    """charts.html (in the navigation): output speed against output price, one point
    per subject with both index figures (K2 Thinking has no speed), its text
    alternative naming each, its data table, and the SVG beside it (no script)."""
    html = (site / "charts.html").read_text()
    assert '<a href="charts.html">Charts</a>' in html
    alt = re.search(r'<img src="charts/speed-vs-price.svg" alt="([^"]+)"', html)
    assert alt is not None
    assert alt.group(1) == (
        "Output speed against output price: Kimi K3.1 Pro $10.00 per 1M output tokens, "
        "44.8 tokens/s; Kimi K3 $15.00 per 1M output tokens, 41.6 tokens/s."
    )
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", html)
    assert rows == [("Kimi K3.1 Pro", "$10.00", "44.8"), ("Kimi K3", "$15.00", "41.6")]
    svg = (site / "charts" / "speed-vs-price.svg").read_text()
    assert "<script" not in svg and "Kimi K3.1 Pro" in svg
    assert "output price, USD per 1M tokens" in svg


def test_speed_price_chart_needs_two_subjects():
    from tracker.website.charts import speed_price_chart

    assert speed_price_chart([("A", 1.0, 10.0, "$1.00", "10")]) is None
    chart = speed_price_chart([("A", 2.0, 10.0, "$2.00", "10"), ("B", 1.0, 30.0, "$1.00", "30")])
    assert chart is not None and chart.rows == (("B", "$1.00", "30"), ("A", "$2.00", "10"))


def test_speed_price_chart_names_the_subjects_it_leaves_out(site):
    # a fresh-user trial: K2 Thinking (a price, no compared speed) was silently missing
    html = (site / "charts.html").read_text()
    assert (
        '<p class="muted chart-left-out"><small>1 subject is not drawn: Kimi K2 Thinking'
        " (no compared output speed).</small></p>"
    ) in html
    # drawn for the content's width, and narrower for a phone
    assert '<source media="(max-width: 40rem)" srcset="charts/speed-vs-price-narrow.svg"' in html
    assert 'width="1200" height="520"' in html
    assert (site / "charts" / "speed-vs-price-narrow.svg").read_text().startswith("<?xml")
    assert len(html.encode()) < 150_000


def test_left_out_line_names_a_few_per_reason_then_counts():
    from tracker.website.charts import left_out_line

    assert left_out_line([]) == ""
    many = [(f"S{i}", "no output price") for i in range(14)] + [("T", "no compared output speed")]
    assert left_out_line(many) == (
        "15 subjects are not drawn: S0, S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11"
        " and 2 more (no output price); T (no compared output speed)."
    )
