"""Price and score history as geometry for inline SVG (the template draws it).

Numbers only leave here: markup is written by ``templates/_chart.html`` so that
every label goes through Jinja's autoescape like the rest of the page.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from decimal import Decimal

from claims.store.tables import Observation
from claims.values.canonical import as_utc

CHART_ATTRIBUTES = (
    "price_input_usd_per_mtok",
    "price_output_usd_per_mtok",
    "benchmark_score",
    "output_tokens_per_second",
)
WIDTH, HEIGHT, PAD = 320, 120, 8


@dataclass(frozen=True)
class Chart:
    """One series: ``points`` is the SVG polyline ``x,y`` list; labels are display text."""

    title: str
    points: str
    low_label: str
    high_label: str
    start: dt.datetime
    end: dt.datetime
    values: tuple[tuple[dt.datetime, str], ...]


def build_charts(observations: list[Observation]) -> list[Chart]:
    """A step chart per (attribute, qualifiers) with at least two observed values.

    Each observation row is one distinct value held from ``first_seen`` to ``last_seen``.
    """
    series: dict[tuple[str, str], list[tuple[dt.datetime, dt.datetime, Decimal, str]]] = {}
    for o in observations:
        if o.attribute not in CHART_ATTRIBUTES:
            continue
        v = o.value
        if v.kind != "quantity" or not isinstance(v.value, Decimal):
            continue
        key = (o.attribute, o.qualifiers_json)
        row = (as_utc(o.first_seen), as_utc(o.last_seen), v.value, v.display())
        series.setdefault(key, []).append(row)
    charts = []
    for (attribute, qjson), rows in sorted(series.items()):
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: r[0])
        quals = json.loads(qjson or "{}")
        label = ", ".join(f"{k}: {quals[k]}" for k in sorted(quals))
        charts.append(_chart(f"{attribute} ({label})" if label else attribute, rows))
    return charts


def _chart(attribute: str, rows: list[tuple[dt.datetime, dt.datetime, Decimal, str]]) -> Chart:
    start = rows[0][0]
    end = max(r[1] for r in rows)
    span = max((end - start).total_seconds(), 1.0)
    lo = min(r[2] for r in rows)
    hi = max(r[2] for r in rows)
    vspan = float(hi - lo) or 1.0

    def xy(moment: dt.datetime, value: Decimal) -> str:
        x = PAD + (WIDTH - 2 * PAD) * (moment - start).total_seconds() / span
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * float(value - lo) / vspan
        return f"{x:.1f},{y:.1f}"

    pts: list[str] = []
    for i, (first, last, value, _) in enumerate(rows):
        until = rows[i + 1][0] if i + 1 < len(rows) else last
        pts += [xy(first, value), xy(until, value)]
    lows = next(r[3] for r in rows if r[2] == lo)
    highs = next(r[3] for r in rows if r[2] == hi)
    return Chart(
        title=attribute,
        points=" ".join(pts),
        low_label=lows,
        high_label=highs,
        start=start,
        end=end,
        values=tuple((r[0], r[3]) for r in rows),
    )
