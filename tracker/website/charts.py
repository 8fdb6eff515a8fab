"""Charts drawn at build time as SVG files with pygal, each with a text alternative and
its data as a table (the page shows both; the SVG is an ``<img>``).

Why pygal: pure Python (no browser, no Node, no compiled renderer), so ``make demo``
needs only Python; it draws a chart in ~15 ms and imports in ~0.1 s (matplotlib takes
seconds to import and ~10x longer per chart; Vega-Lite through vl-convert ships a
~100 MB binary). Its SVG carries its own styles; we turn its script off (``js=[]``), so
a chart makes no request and works from ``file://``. Charts exist only where there is
data (a price that changed, a benchmark two subjects report, dated events), and each
is a build job keyed by its data, so a rebuild draws only charts whose data changed.

Four kinds: every subject's output speed against its output price
(``charts/speed-vs-price.svg`` on ``charts.html``, a point per subject), a subject's price history per offering (``price-<n>.svg``: input and
output prices at each observation, labelled), a benchmark's scores of every tracked
subject that reports it (``charts/benchmark-<hash>.svg``, shared by their pages), and
a subject's timeline (``timeline.svg``: announced, promised, repo created, landed,
last check or overdue), drawn as plain SVG by :func:`timeline_svg` (a labelled row per event, legible
on a phone; pygal's time axis left its three dots unlabelled).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from claims.values.canonical import as_utc
from claims.vocabulary import qualifiers_text
from tracker.website import timelinedraw

if TYPE_CHECKING:
    from claims.store.rows import ObservationRow

# Bumped when the drawing code changes, so a rebuild redraws charts whose data did not.
DRAWING = 6
PRICE_ATTRIBUTES = {"price_input_usd_per_mtok": "Input", "price_output_usd_per_mtok": "Output"}
WIDTH, HEIGHT = 640, 320


class TimelineEvent(NamedTuple):
    """One dated event of a subject's timeline: ``kind`` (announced, promised, created,
    landed, checked, overdue), ``moment`` (UTC), ``text`` (its label) and, for a promise of a
    whole month ("on 2027-01"), ``end`` its last day (drawn as a bar from ``moment``);
    ``day`` the date column's text when it is not ``moment``'s day."""

    kind: str
    moment: dt.datetime
    text: str
    end: dt.datetime | None = None
    day: str = ""

    @property
    def day_text(self) -> str:
        """``2027-01-15``, or ``day`` (``2027-01-01 – 2027-01-31`` for a month)."""
        return self.day or f"{self.moment:%Y-%m-%d}"


@dataclass(frozen=True)
class ChartFile:
    """One chart: ``path`` (site-relative SVG), ``anchor`` on the page, ``title``, ``alt``
    (the text alternative), the data table (``headers``, ``rows``, display text) and
    ``series``: ``(name, ((x, y), ...))`` with x an ISO time or a label and y a number,
    what :func:`render_svg` draws (``kind``: ``price``, ``benchmark`` or ``timeline``)."""

    kind: str
    path: str
    anchor: str
    title: str
    alt: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    series: tuple[tuple[str, tuple[tuple[str, float], ...]], ...]
    y_title: str = ""  # the value axis's title (a benchmark chart's bottom axis)
    width: int = WIDTH
    height: int = HEIGHT

    def key(self) -> str:
        """A digest of what is drawn (the build job's key input)."""
        drawn = [self.kind, self.title, self.series, self.y_title, self.rows]
        text = json.dumps([DRAWING, *drawn, self.width, self.height])
        return hashlib.sha256(text.encode()).hexdigest()


def _money(v: Decimal | float) -> str:
    return f"${Decimal(str(v)):,.2f}"


def price_charts(slug: str, observations: Sequence[ObservationRow]) -> list[ChartFile]:
    """A chart per offering (qualifiers other than the price side) whose input or
    output price took two or more values: a point at each value's first and last
    sighting, so the step and its date show. Empty when no price changed."""
    by_offer: dict[str, dict[str, list[tuple[dt.datetime, dt.datetime, Decimal]]]] = {}
    for o in observations:
        side = PRICE_ATTRIBUTES.get(o.attribute)
        v = o.value
        if side is None or v.kind != "quantity" or not isinstance(v.value, Decimal):
            continue
        offer = by_offer.setdefault(o.qualifiers_json or "{}", {})
        offer.setdefault(side, []).append((as_utc(o.first_seen), as_utc(o.last_seen), v.value))
    out = []
    for n, (qjson, sides) in enumerate(sorted(by_offer.items())):
        if not any(len({r[2] for r in rows}) > 1 for rows in sides.values()):
            continue
        quals = qualifiers_text(json.loads(qjson))
        series, table, changes = [], [], []
        for side in ("Input", "Output"):
            rows = sorted(sides.get(side, []))
            points: list[tuple[str, float]] = []
            for i, (first, last, value) in enumerate(rows):
                points.append((first.isoformat(), float(value)))
                if last > first:
                    points.append((last.isoformat(), float(value)))
                table.append(
                    (
                        side,
                        _money(value),
                        first.strftime("%Y-%m-%d %H:%M"),
                        last.strftime("%Y-%m-%d %H:%M"),
                    )
                )
                if i:
                    before = rows[i - 1][2]
                    changes.append(
                        f"{side.lower()} {_money(before)} → {_money(value)} on {first:%Y-%m-%d}"
                    )
            if points:
                series.append((side, tuple(points)))
        what = f"Price history{f' ({quals})' if quals else ''}"
        alt = f"{what}: " + ("; ".join(changes) if changes else "no change") + "."
        out.append(
            ChartFile(
                "price",
                f"subjects/{slug}/price-{n}.svg",
                f"chart-price-{n}",
                what,
                alt,
                ("Price", "USD per 1M tokens", "First seen (UTC)", "Last seen (UTC)"),
                tuple(table),
                tuple(series),
                y_title="USD per 1M tokens",
            )
        )
    return out


def benchmark_chart(
    name: str, unit: str | None, scores: Sequence[tuple[str, float, str]]
) -> ChartFile:
    """Scores of ``name`` (a benchmark and version) for each subject reporting it, as
    ``(subject name, score, display text)``, highest first; shared by their pages."""
    ranked = sorted(scores, key=lambda s: (-s[1], s[0]))
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    alt = f"{name}: " + ", ".join(f"{s} {shown}" for s, _, shown in ranked) + "."
    return ChartFile(
        "benchmark",
        f"charts/benchmark-{digest}.svg",
        f"chart-benchmark-{digest}",
        f"{name}, tracked subjects side by side",
        alt,
        ("Subject", "Score"),
        tuple((s, shown) for s, _, shown in ranked),
        tuple((s, ((name, v),)) for s, v, _ in ranked),
        # the value axis's title: a bar chart's values run along the bottom (pygal's
        # x axis when horizontal), where a word has the chart's width; "%" says the unit
        y_title="score (%)" if unit == "percent" else "score",
        height=max(160, 60 + 36 * len(ranked)),
    )


def speed_price_chart(points: Sequence[tuple[str, float, float, str, str]]) -> ChartFile | None:
    """Every subject's output speed against its output price, as ``(subject name,
    price in USD per 1M tokens, tokens/s, price text, speed text)`` (the index's
    "Output $/M" and "Output tok/s" figures: ``charts.html``); a point per subject,
    cheapest first in the table; None with fewer than two subjects having both."""
    if len(points) < 2:
        return None
    ranked = sorted(points, key=lambda p: (p[1], -p[2], p[0]))
    alt = (
        "Output speed against output price: "
        + "; ".join(
            f"{name} {price_text} per 1M output tokens, {speed_text} tokens/s"
            for name, _, _, price_text, speed_text in ranked
        )
        + "."
    )
    return ChartFile(
        "scatter",
        "charts/speed-vs-price.svg",
        "chart-speed-price",
        "Output speed vs output price",
        alt,
        ("Subject", "Output $/M", "Output tok/s"),
        tuple((name, pt, st) for name, _, _, pt, st in ranked),
        tuple((name, ((str(price), speed),)) for name, price, speed, _, _ in ranked),
        y_title="output tokens/s",
        width=WIDE[0],
        height=WIDE[1],
    )


# The cross-subject chart is drawn for the content's width (80rem) and, for a phone,
# a narrower copy (``charts.html`` picks one with <picture>): one drawing scaled to both
# had labels of 8 px at 1280 px (a fresh-user trial) or of 4 px on a phone.
WIDE = (1200, 520)
NARROW_PATH, NARROW = "charts/speed-vs-price-narrow.svg", (640, 480)
# How many subjects a left-out reason names before "and N more" (a large site's page
# stays small).
NAMED = 12


def narrow_copy(chart: ChartFile) -> ChartFile:
    """:func:`speed_price_chart` drawn for a phone (``NARROW``, at ``NARROW_PATH``)."""
    return replace(chart, path=NARROW_PATH, width=NARROW[0], height=NARROW[1])


def left_out_line(left: Sequence[tuple[str, str]]) -> str:
    """The line under the speed/price chart naming the subjects it leaves out, as
    ``(subject name, reason)`` pairs (``no output price``, ...): ``"1 subject is not
    drawn: Kimi K2 Thinking (no compared output speed)."``; by reason, each naming up
    to :data:`NAMED` then "and N more"; "" when none is left out."""
    if not left:
        return ""
    by: dict[str, list[str]] = {}
    for name, reason in left:
        by.setdefault(reason, []).append(name)
    groups = []
    for reason, names in by.items():
        shown = ", ".join(names[:NAMED])
        more = f" and {len(names) - NAMED} more" if len(names) > NAMED else ""
        groups.append(f"{shown}{more} ({reason})")
    n = len(left)
    head = f"{n} subject is" if n == 1 else f"{n} subjects are"
    return f"{head} not drawn: " + "; ".join(groups) + "."


# What each kind of timeline event is called in the chart's caption, in caption order.
TIMELINE_WORDS = {
    "announced": "announced",
    "promised": "weights promised",
    "created": "repo created",
    "landed": "weights first seen",
    "overdue": "overdue at the last Hub check",
    "checked": "last Hub check",
}


def timeline_title(kinds: Sequence[str]) -> str:
    """The timeline's caption, naming only the kinds of event it has (``Timeline:
    announced, weights promised and overdue at the last Hub check``); "nothing
    announced, promised or landed yet" when it has none of those three (a model
    tracked before any news). ``kinds``: :class:`TimelineEvent` kinds, any order."""
    present = [TIMELINE_WORDS[k] for k in TIMELINE_WORDS if k in kinds]
    if not {"announced", "promised", "landed"} & set(kinds):
        return "; ".join(["Timeline: nothing announced, promised or landed yet", *present])
    head = ", ".join(present[:-1])
    return "Timeline: " + (f"{head} and {present[-1]}" if head else present[-1])


def timeline_chart(slug: str, events: Sequence[TimelineEvent]) -> ChartFile | None:
    """A subject's dated events (announced, promised, landed, last check or overdue) on
    one time axis, one labelled row per event in time order (:func:`timeline_svg` draws
    it; an event with an ``end`` has a second point there); None with fewer than two."""
    if len(events) < 2:
        return None
    ordered = sorted(events, key=lambda e: (e.moment, e.end or e.moment))
    series = tuple(
        (e.kind, ((e.moment.isoformat(), float(i)),) + _end_point(e, i))
        for i, e in enumerate(ordered)
    )
    alt = "Timeline: " + "; ".join(f"{e.text} {e.day_text}" for e in ordered) + "."
    return ChartFile(
        "timeline",
        f"subjects/{slug}/timeline.svg",
        "chart-timeline",
        timeline_title([e.kind for e in ordered]),
        alt,
        ("Event", "Date (UTC)"),
        tuple((e.text, e.day_text) for e in ordered),
        series,
        width=timelinedraw.WIDTH,
        height=timelinedraw.height(
            [(e.moment, e.end or e.moment) for e in ordered],
            [(e.text, e.day_text) for e in ordered],
        ),
    )


def _end_point(e: TimelineEvent, row: int) -> tuple[tuple[str, float], ...]:
    return ((e.end.isoformat(), float(row)),) if e.end else ()


def _spans(chart: ChartFile) -> list[tuple[dt.datetime, dt.datetime]]:
    """Each timeline row's (moment, end) from ``chart.series``."""
    return [
        (dt.datetime.fromisoformat(points[0][0]), dt.datetime.fromisoformat(points[-1][0]))
        for _, points in chart.series
    ]


def timeline_svg(chart: ChartFile) -> bytes:
    """The timeline as a plain SVG (:func:`tracker.website.timelinedraw.draw`): a row per
    event (``chart.series``: kind and moment, in time order; ``chart.rows``: its text and
    day). Shown at a phone's 358 px its 15 px text stays ~14 px."""
    kinds = [k for k, _ in chart.series]
    return timelinedraw.draw(kinds, _spans(chart), chart.rows, chart.width)


def _pygal() -> Any:
    """pygal, imported only when a chart is drawn (most rebuilds draw none). Its import
    appends a finder for map plugins to ``sys.meta_path`` that lacks ``find_spec``: every
    later failed import then warns (ImportWarning); we use no map plugin, so it goes."""
    import pygal

    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "PluginImportFixer"]
    return pygal


def render_svg(chart: ChartFile) -> bytes:
    """The chart's SVG bytes (pygal, no script, explicit size, white background)."""
    if chart.kind == "timeline":
        return timeline_svg(chart)
    pygal = _pygal()
    from pygal.style import Style

    style = Style(
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#16181d",
        foreground_strong="#16181d",
        foreground_subtle="#8a909c",
        colors=("#1a4fd6", "#c2410c", "#0b6b34", "#6b3fa0", "#a3141b", "#24506e"),
        font_family="system-ui, sans-serif",
        value_font_size=13,
        label_font_size=13,
        major_label_font_size=13,
        title_font_size=16,
        legend_font_size=14,
    )
    common: dict[str, Any] = {
        "js": [],
        "width": chart.width,
        "height": chart.height,
        "explicit_size": True,
        "style": style,
        "title": chart.title,
        "y_title": chart.y_title or None,
        "print_values": True,
        "legend_at_bottom": True,
    }
    if chart.kind == "benchmark":
        # the subjects' axis (left, rotated: 160 px tall at two subjects, where pygal
        # broke "percent" into "percen / t") needs no title; the values' title goes below
        common["x_title"], common["y_title"] = common["y_title"], None
        plot = pygal.HorizontalBar(**common, show_legend=False)
        plot.x_labels = [name for name, _ in chart.series]
        plot.add(chart.title, [points[0][1] for _, points in chart.series])
        return _stable(plot, chart)
    if chart.kind == "scatter":
        return _scatter(pygal, common, chart)
    plot = pygal.DateTimeLine(
        **common,
        x_title="date (UTC)",
        x_value_formatter=lambda d: d.strftime("%Y-%m-%d"),
        show_dots=True,
        dots_size=4,
        truncate_label=-1,
    )
    plot.config.value_formatter = lambda v: _money(v)
    plot.config.y_labels = sorted({y for _, points in chart.series for _, y in points})
    plot.config.margin_right = 70  # room for the last point's label
    # Ticks only at the dates of the points (a change, a promise): pygal's own ticks
    # overlap on a span of weeks.
    moments = sorted(
        {dt.datetime.fromisoformat(x) for _, points in chart.series for x, _ in points}
    )
    plot.x_labels = moments
    plot.config.x_label_rotation = 30
    for name, points in chart.series:
        plot.add(name, [(dt.datetime.fromisoformat(x), y) for x, y in points])
    return _stable(plot, chart)


def _scatter(pygal: Any, common: dict[str, Any], chart: ChartFile) -> bytes:
    """A ``scatter`` chart (:func:`speed_price_chart`): a point per subject, its name
    beside it and in the legend, both axes from 0 (two close figures read as far apart
    on a cut axis); the data table has the figures."""
    common["style"].value_label_font_size = 13  # a point's name (pygal's default: 10)
    xs = [float(x) for _, ((x, _),) in chart.series]
    ys = [y for _, ((_, y),) in chart.series]
    plot = pygal.XY(
        **{**common, "print_values": False, "print_labels": True},
        stroke=False,
        dots_size=6,
        x_title="output price, USD per 1M tokens",
        x_value_formatter=lambda v: f"${v:,.0f}" if v >= 2 or v == 0 else f"${v:,.2f}",
        truncate_label=-1,
        xrange=(0, max(xs) * 1.25),
        range=(0, max(ys) * 1.25),
    )
    plot.config.margin_right = 70
    for name, ((x, y),) in chart.series:
        plot.add(name, [{"value": (float(x), y), "label": name}])
    return _stable(plot, chart)


# pygal writes its config as an inline script even with js=[]; an SVG shown as an image
# never runs it, and without it the file is smaller and plainly inert.
_SCRIPT = re.compile(rb"<script[^>]*>.*?</script>", re.S)


def _stable(plot: Any, chart: ChartFile) -> bytes:
    """The rendered bytes without pygal's inline script and with its random chart id (a
    uuid4 per render) replaced by one made from the chart's data: equal data, equal
    bytes (a rebuild rewrites nothing)."""
    svg: bytes = _SCRIPT.sub(b"", plot.render())
    stable = chart.key()[:32]
    uid = f"{stable[:8]}-{stable[8:12]}-{stable[12:16]}-{stable[16:20]}-{stable[20:32]}"
    return svg.replace(str(plot.uuid).encode(), uid.encode())
