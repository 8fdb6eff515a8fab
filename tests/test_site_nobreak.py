"""Every date the site shows stays on one line (marks.nobreak_html, ``<time>``): a phone
never shows "2026-12-" / "01". Checked on built pages by what the stylesheet keeps
unbroken, so a new place that prints a date unwrapped is found wherever it is."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from sitefixture import NOW, populate

from claims.store.engine import make_engine
from tracker.website import build_site

ROOT = Path(__file__).resolve().parent.parent
DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}(?:-\d{2})?(?![\w-])")
VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source", "col", "area"}
# elements whose text no reader sees as running text, or never wraps at a hyphen
UNREAD = {"script", "style", "title", "svg", "code", "time"}


class DateLines(HTMLParser):
    """Collects text holding a date that no ``white-space: nowrap`` rule of site.css
    keeps whole: ``time``, ``.nobr``, ``.nowrap`` (but not inside the card's Stated cell,
    ``table.glance td.stated .nowrap { white-space: normal }``) and ``td.num``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, set[str]]] = []
        self.broken: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append((tag, set((dict(attrs).get("class") or "").split())))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def _kept_whole(self) -> bool:
        glance = stated = kept = False
        for tag, cls in self.stack:
            glance = glance or (tag == "table" and "glance" in cls)
            stated = stated or (glance and tag == "td" and "stated" in cls)
            if tag in UNREAD or "nobr" in cls:
                return True
            kept = kept or (tag == "td" and "num" in cls) or ("nowrap" in cls and not stated)
        return kept

    def handle_data(self, data: str) -> None:
        if DATE.search(data) and not self._kept_whole():
            self.broken.append(data.strip())


def _unbroken_dates_missing(site: Path) -> dict[str, list[str]]:
    out = {}
    for page in sorted(site.rglob("*.html")):
        scan = DateLines()
        scan.feed(page.read_text())
        if scan.broken:
            out[str(page.relative_to(site))] = scan.broken
    return out


def test_the_stylesheet_keeps_what_the_check_counts_on_one_line():
    css = (ROOT / "templates" / "assets" / "site.css").read_text()
    assert ".nowrap, time, .nobr { white-space: nowrap; }" in css
    assert "td.num { text-align: right; white-space: nowrap; }" in css


def test_every_date_on_the_demo_site_stays_on_one_line(tmp_path):
    # a trial: the card's "Release date on 2026-12-01" broke at 390 px ("2026-12-" / "01");
    # its Observed cell, quoted claims and qualifiers printed dates unwrapped too
    from tracker.demo import run_demo

    site = tmp_path / "site"
    run_demo(
        make_engine(tmp_path / "demo.db"),
        data_dir=ROOT / "data",
        har=ROOT / "data" / "recordings" / "demo.har",
        out_dir=site,
        snapshot_dir=tmp_path / "snapshots",
    )
    page = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert '<td class="stated"><strong>on <span class="nobr">2026-10-23</span></strong>' in page
    assert _unbroken_dates_missing(site) == {}


def test_every_date_on_the_fixture_site_stays_on_one_line(engine, tmp_path):
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW, base_url="https://dash.example.org/")
    assert _unbroken_dates_missing(tmp_path / "site") == {}
