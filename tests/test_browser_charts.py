"""charts.html in headless Chromium (the fixtures of test_browser.py): reached from the
navigation, it fits 1280 and 390 px, fetches nothing outside the site folder, shows its
SVG, and passes axe; screenshots go to the build's _screenshots/."""

# ruff: noqa: F811  (the fixtures of test_browser.py, imported by name, are parameters here)
from __future__ import annotations

from test_browser import (  # noqa: F401  (fixtures)
    WIDTHS,
    axe_serious,
    browser,
    demo_site,
    local_only,
    overflow,
    pages,
    url,
)


def test_charts_page_from_the_nav_fits_and_is_clean(demo_site, pages):
    for width in WIDTHS:
        page = pages[width]
        page.goto(url(demo_site, "index.html"))
        href = page.eval(
            "[...document.querySelectorAll('header nav a')]"
            ".find(a => a.textContent === 'Charts').href"
        )
        page.goto(href)
        assert page.problems == [] and local_only(page) == []
        fit = overflow(page)
        assert fit["page"] <= 0 and fit["table"] <= 0, fit
        img = page.eval(
            "(i => [i.complete, i.naturalWidth, i.getBoundingClientRect().right])"
            "(document.querySelector('figure.chart img'))"
        )
        assert img[0] is True and img[1] > 0 and img[2] <= width, img
        # the chart takes the content's width (a trial: 400 px of 1280, labels of 8 px),
        # drawn for it: at 1280 px the wide drawing near its size, on a phone the narrow one
        shown = page.eval(
            "(i => [i.getBoundingClientRect().width, i.currentSrc.split('/').pop(),"
            " document.querySelector('main').clientWidth])"
            "(document.querySelector('figure.chart img'))"
        )
        if width == 1280:
            assert shown[0] >= shown[2] - 40 and shown[1] == "speed-vs-price.svg", shown
        else:
            assert shown[1] == "speed-vs-price-narrow.svg", shown
        assert axe_serious(page) == []
        page.screenshot(demo_site / "_screenshots" / f"charts-{width}.png")
