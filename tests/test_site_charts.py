"""Site charts (tracker/website/charts.py): SVG files drawn at build time with pygal, only
where there is data, each shown with a text alternative and its data as a table."""

from __future__ import annotations

import re

import pytest
from sitefixture import NOW, populate, t
from sqlmodel import Session, select

from claims.store.tables import Claim, Source, Subject
from claims.values.canonical import dumps
from claims.values.value import quantity
from tracker.website import build_site


def test_price_chart_shows_both_prices_with_dates_on_labelled_axes(engine, tmp_path):
    """The recorded input-price change ($0.60 from 11-01, $0.45 from 11-10): both values
    and both dates are drawn, with titled axes; the SVG makes no request (no script)."""
    populate(engine)
    out = tmp_path / "site"
    build_site(engine, out, now=NOW)
    svg = (out / "subjects" / "kimi-k3.1-pro" / "price-0.svg").read_text()
    assert ">USD per 1M</text>" in svg and ">date (UTC)</text>" in svg  # axis titles
    assert "$0.60" in svg and "$0.45" in svg
    assert "2026-11-01" in svg and "2026-11-10" in svg
    assert "<script" not in svg and "kozea.github.io" not in svg
    # equal data, equal bytes (pygal's random chart id is replaced)
    again = tmp_path / "again"
    build_site(engine, again, now=NOW)
    assert (again / "subjects" / "kimi-k3.1-pro" / "price-0.svg").read_text() == svg
    page = (out / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert 'alt="Price history: input $0.60 → $0.45 on 2026-11-10."' in page


def test_no_chart_without_data(engine, tmp_path):
    """Orca has no price history, no shared benchmark and no dated events: no chart."""
    populate(engine)
    out = tmp_path / "site"
    build_site(engine, out, now=NOW)
    assert sorted(p.name for p in (out / "subjects" / "orca-9b").iterdir()) == ["index.html"]
    assert '<h2 id="history">' not in (out / "subjects" / "orca-9b" / "index.html").read_text()


def test_benchmark_chart_is_shared_by_the_subjects_reporting_it(engine, tmp_path):
    """A benchmark two subjects report gets one chart, highest score first, on both pages."""
    populate(engine)
    with Session(engine) as s:
        k2 = s.exec(select(Subject).where(Subject.slug == "kimi-k2-thinking")).one()
        src = s.exec(select(Source)).first()
        s.add(
            Claim(
                key="k2-tb4",
                subject_id=k2.id,
                attribute="benchmark_score",
                qualifiers_json=dumps({"benchmark": "Terminal-Bench", "version": "4.0"}),
                value_json=dumps(quantity("47.1", "percent").to_dict()),
                raw_text="47.1%",
                source_id=src.id,
                claimant="Moonshot AI",
                created_at=t(1),
            )
        )
        s.commit()
    out = tmp_path / "site"
    build_site(engine, out, now=NOW)
    charts = list((out / "charts").glob("benchmark-*.svg"))
    assert len(charts) == 1
    name = charts[0].name
    for slug in ("kimi-k3.1-pro", "kimi-k2-thinking"):
        page = (out / "subjects" / slug / "index.html").read_text()
        assert f'src="../../charts/{name}"' in page
        assert 'alt="Terminal-Bench 4.0: Kimi K3.1 Pro 65.7%, Kimi K2 Thinking 47.1%."' in page
    # the unit's title is whole, under the values (a rotated "percent" beside two bars
    # was broken into "percen" and "t")
    titles = re.findall(r'<text [^>]*class="title"[^>]*>([^<]*)</text>', charts[0].read_text())
    assert titles == ["score (%)"]
    table = re.sub(r"\s+", " ", (out / "subjects" / "kimi-k2-thinking" / "index.html").read_text())
    assert (
        "<td>Kimi K3.1 Pro</td><td>65.7%</td></tr><tr><td>Kimi K2 Thinking</td><td>47.1%</td>"
        in table
    )


def test_a_month_promise_is_drawn_as_its_month_or_at_its_deadline():
    """ "on 2027-01" is a bar over January (labelled "whole month"), "by 2027-01" a dot
    on 2027-01-31 (its deadline, said in the label); neither sits on 2027-01-01."""
    import datetime as dt

    from tracker.website.charts import TimelineEvent, timeline_chart, timeline_svg
    from tracker.website.summary import promise_event

    announced = TimelineEvent("announced", dt.datetime(2026, 12, 1, tzinfo=dt.UTC), "announced")
    chart = timeline_chart("fict", [announced, promise_event("by", "2027-01"),
                                    promise_event("on", "2027-01")])  # fmt: skip
    assert chart is not None
    assert chart.rows == (
        ("announced", "2026-12-01"),
        ("weights promised on 2027-01 (whole month)", "2027-01-01 – 2027-01-31"),
        ("weights promised by 2027-01 (by 2027-01-31)", "2027-01-31"),
    )
    svg = timeline_svg(chart).decode()
    # the axis runs 2026-12-01 .. 2027-01-31 (61 days) over x 14..386: January is 203..386
    bar = re.search(r'<rect x="([\d.]+)" y="\d+" width="([\d.]+)" height="12" rx="6"', svg)
    assert bar is not None
    start, width = float(bar[1]) + 6, float(bar[2]) - 12
    assert (round(start), round(start + width)) == (203, 386)
    assert re.search(r'<circle cx="386.0" cy="\d+" r="6" fill="#8a4b00"/>', svg)  # by: its deadline
    assert ">2027-01-31 (UTC)</text>" in svg


def _month_promises_chart():
    """Events like a fresh user's model: landed, checked, a whole-month promise ending
    at the axis's right end, a day and a "by" month (the longest label)."""
    import datetime as dt

    from tracker.website.charts import TimelineEvent, timeline_chart
    from tracker.website.summary import promise_event

    day = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
    return timeline_chart("fict", [
        TimelineEvent("landed", day, "weights first seen"),
        TimelineEvent("checked", day + dt.timedelta(hours=1), "last Hub check"),
        promise_event("on", "2027-01"), promise_event("on", "2027-01-15"),
        promise_event("by", "2027-01"),
    ])  # fmt: skip


def test_timeline_labels_are_whole_and_inside_the_canvas():
    """ "(by 2027-01-31)" lost its ")" past the right edge, and the days after a bar
    ending there showed only "2": every label is drawn whole (a long one on two lines),
    each day text starts inside the canvas, and the canvas grows to hold the lines."""
    from xml.etree import ElementTree as ET

    from tracker.website.charts import timeline_svg

    chart = _month_promises_chart()
    assert chart is not None
    root = ET.fromstring(timeline_svg(chart))
    ns = "{http://www.w3.org/2000/svg}"
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    assert (width, height) == (400, chart.height)
    texts = [(el.text or "", el) for el in root.iter(f"{ns}text")]
    labels = [s for s, el in texts if el.get("font-weight") == "600"]
    drawn = " ".join(labels)
    for text, _ in chart.rows:
        assert text in drawn, text  # whole, perhaps over two lines
    assert "weights promised by 2027-01 (by" in labels and "2027-01-31)" in labels
    days = [(s, el) for s, el in texts if el.get("font-weight") != "600"]
    assert [s for s, _ in days][:5] == [day for _, day in chart.rows]
    for s, el in days:
        x, y = float(el.get("x", "0")), float(el.get("y", "0"))
        assert 0 <= x <= width and 0 < y <= height, s
        # a text drawn from x to the right needs its own room; to the left, the same
        room = width - x if el.get("text-anchor", "start") == "start" else x
        assert room >= 8 * len(s), s  # a day's digits are ~8.3 px at 15 px


@pytest.mark.parametrize(
    ("kinds", "title"),
    [(["announced", "promised", "landed", "checked"],
      "Timeline: announced, weights promised, weights first seen and last Hub check"),
     (["overdue", "promised", "announced", "promised"],
      "Timeline: announced, weights promised and overdue at the last Hub check"),
     (["landed", "checked"], "Timeline: weights first seen and last Hub check"),
     (["checked", "announced"], "Timeline: announced and last Hub check"),
     (["promised"], "Timeline: weights promised"),
     (["checked"], "Timeline: nothing announced, promised or landed yet; last Hub check"),
     ([], "Timeline: nothing announced, promised or landed yet")],
)  # fmt: skip
def test_the_timeline_caption_names_only_the_events_it_has(kinds, title):
    """A model tracked before any news, seen on the Hub, has no announcement or promise:
    its caption said "announced, promised and landed" all the same."""
    from tracker.website.charts import timeline_title

    assert timeline_title(kinds) == title


def test_a_tracked_model_s_timeline_chart_says_what_it_shows():
    import datetime as dt

    from tracker.website.charts import TimelineEvent, timeline_chart

    day = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
    chart = timeline_chart("orca", [TimelineEvent("landed", day, "weights first seen"),
                                    TimelineEvent("checked", day, "last Hub check")])  # fmt: skip
    assert chart is not None
    assert chart.title == "Timeline: weights first seen and last Hub check"


def _weights(**kw):
    import datetime as dt

    from claims.store.status import WeightsStatus

    seen = dt.datetime(2026, 11, 28, 6, tzinfo=dt.UTC)
    return WeightsStatus(slug="k2", name="K2", landed=True, repo="moonshotai/K2",
                         landed_at=seen, as_of=seen, **kw)  # fmt: skip


def test_the_timeline_shows_the_repo_s_creation_apart_from_its_first_sighting():
    """K2's chart said "weights first seen 2026-11-28" only: the Hub's createdAt
    (2025-11-04) is a row of its own, and the sighting says it was already listed at the
    first check; without a createdAt there is no creation row."""
    from tracker.website.charts import timeline_chart
    from tracker.website.summary import timeline_events

    events = timeline_events([], _weights(repo_created="2025-11-04", at_first_check=True))
    chart = timeline_chart("k2", events)
    assert chart is not None
    assert chart.rows == (
        ("repo created (the Hub's createdAt)", "2025-11-04"),
        ("weights first seen (already listed at the first Hub check)", "2026-11-28"),
        ("last Hub check", "2026-11-28"),
    )
    assert chart.title == "Timeline: repo created, weights first seen and last Hub check"
    plain = [e.text for e in timeline_events([], _weights())]
    assert plain == ["weights first seen", "last Hub check"]
