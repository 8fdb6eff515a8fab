"""The index's Released column in headless Chromium (the fixtures of test_browser.py):
sorted newest first by a plain link without JavaScript and in place with it; the
"Last change" heading says what it counts."""

# ruff: noqa: F811  (the fixtures of test_browser.py, imported by name, are parameters here)
from __future__ import annotations

from test_browser import browser, demo_site, pages, rows, url  # noqa: F401  (fixtures)


def test_released_column_sorts_without_and_with_javascript(demo_site, pages):
    page = pages[1280]
    page.goto(url(demo_site, "index.html"), js=False)
    href = page.eval("document.querySelector('th[data-key=\"released\"] a').getAttribute('href')")
    assert href == "index/released-all.html"
    page.goto(url(demo_site, href), js=False)
    # 2026-10-23, 2025-11-06, then K3 (no release date stated) last
    assert rows(page) == ["kimi-k3.1-pro", "kimi-k2-thinking", "kimi-k3"]
    cells = page.eval(
        "[...document.querySelectorAll('#subjects tbody tr')]"
        ".map(r => r.cells[3].innerText.replace(/\\s+/g, ' ').trim())"
    )
    assert cells == ["2026-10-23 ✓", "2025-11-06 ✓", "— no figure"]
    page.goto(url(demo_site, "index.html"))
    page.eval("document.querySelector('th[data-key=\"released\"] a').click()")
    assert rows(page) == ["kimi-k3.1-pro", "kimi-k2-thinking", "kimi-k3"]
    title = page.eval("document.querySelector('th[data-key=\"last-change\"]').title")
    assert "first observation included" in title
    assert page.problems == []
