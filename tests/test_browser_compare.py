"""The compare page in headless Chromium (one browser, the fixtures of test_browser.py):
opened from the navigation it shows a picker and a default comparison, with and without
JavaScript; ``?s=a,b,c`` and repeated ``s`` redraw it; its columns are even; the
pre-built pages the picker links to without JavaScript exist and fit a phone."""

# ruff: noqa: F811  (the fixtures of test_browser.py, imported by name, are parameters here)
from __future__ import annotations

from test_browser import (  # noqa: F401  (fixtures)
    axe_serious,
    browser,
    demo_site,
    local_only,
    overflow,
    pages,
    url,
)

HEADS = "[...document.querySelectorAll('.side-by-side thead th a')].map(a => a.textContent)"


def test_compare_from_the_nav_shows_a_picker_and_a_default(demo_site, pages):
    """The nav's Compare link opens a page with every subject's box and the Moonshot AI
    family side by side, the same with and without JavaScript."""
    for js in (True, False):
        page = pages[1280]
        page.goto(url(demo_site, "index.html"), js=js)
        href = page.eval(
            "[...document.querySelectorAll('header nav a')]"
            ".find(a => a.textContent === 'Compare').href"
        )
        assert href == url(demo_site, "compare.html")
        page.goto(href, js=js)
        boxes = page.eval(
            "[...document.querySelectorAll('#compare-pick input[name=s]')]"
            ".map(i => i.value + (i.checked ? '*' : ''))"
        )
        assert boxes == ["kimi-k2-thinking*", "kimi-k3*", "kimi-k3.1-pro*"]
        assert page.eval(HEADS) == ["Kimi K2 Thinking", "Kimi K3", "Kimi K3.1 Pro"]
        caption = page.eval("document.querySelector('.side-by-side caption').textContent")
        assert caption.startswith("Moonshot AI's subjects, the family of the latest change")
        assert page.eval("document.getElementById('compare-note').hidden") is True
        assert page.problems == [] and local_only(page) == []
        page.screenshot(
            demo_site / "_screenshots" / f"compare-default-{'js' if js else 'nojs'}.png"
        )


def test_compare_reads_a_comma_list_and_ticks_the_picker(demo_site, pages):
    page = pages[1280]
    page.goto(url(demo_site, "compare.html?s=kimi-k3.1-pro,kimi-k3"))
    assert page.eval(HEADS) == ["Kimi K3", "Kimi K3.1 Pro"]
    assert page.eval("document.querySelectorAll('.side-by-side').length") == 1
    ticked = page.eval(
        "[...document.querySelectorAll('#compare-pick input:checked')].map(i => i.value)"
    )
    assert ticked == ["kimi-k3", "kimi-k3.1-pro"]
    # the picker sends repeated s= (a plain GET form); the script reads both forms
    page.eval("document.querySelector('#compare-pick input[value=kimi-k2-thinking]').click()")
    target = page.eval(
        "(() => { const f = document.getElementById('compare-pick');"
        " return f.action + '?' + new URLSearchParams(new FormData(f)); })()"
    )
    assert target.endswith("compare.html?s=kimi-k2-thinking&s=kimi-k3&s=kimi-k3.1-pro")
    page.goto(target)
    assert page.eval(HEADS) == ["Kimi K2 Thinking", "Kimi K3", "Kimi K3.1 Pro"]


ROWS = "[...document.querySelectorAll('.side-by-side tbody th')].map(th => th.textContent)"


def test_compare_leaves_out_rows_no_chosen_subject_has(demo_site, pages):
    """A figure none of the chosen subjects has (every cell "—") is no row, in the
    table the script draws as in the built one (compare.py compare_rows)."""
    import json

    from tracker.website.compare import compare_rows

    page = pages[1280]
    page.goto(url(demo_site, "compare.html?s=kimi-k3,kimi-k2-thinking"))
    drawn = page.eval(ROWS)
    table = json.loads((demo_site / "api" / "table.json").read_text())
    records = [s for s in table["subjects"] if s["slug"] in ("kimi-k3", "kimi-k2-thinking")]
    columns = [(c["key"], c["label"]) for c in table["columns"]]
    assert drawn == [label for label, _ in compare_rows(records, columns)]
    assert "Cyber Index" not in drawn and "Active params" in drawn
    # the three of the default keep every benchmark K3.1 Pro has
    page.goto(url(demo_site, "compare.html"), js=False)
    built = page.eval(ROWS)
    page.goto(url(demo_site, "compare.html?s=kimi-k2-thinking,kimi-k3,kimi-k3.1-pro"))
    assert page.eval(ROWS) == built and "Cyber Index" in built


def _widths(page) -> list[float]:  # type: ignore[no-untyped-def]
    return page.eval(  # type: ignore[no-any-return]
        "[...document.querySelectorAll('.side-by-side thead th')].slice(1)"
        ".map(th => th.getBoundingClientRect().width)"
    )


def test_compare_columns_are_even_whatever_their_notes(demo_site, pages):
    """A long "Output tok/s" note (K3's Cerebras figure) made one column 45% wide: with
    a fixed layout every subject's column is as wide as the others."""
    page = pages[1280]
    for address in ("compare.html", "compare.html?s=kimi-k3&s=kimi-k2-thinking"):
        page.goto(url(demo_site, address))
        widths = _widths(page)
        assert len(widths) >= 2 and max(widths) - min(widths) <= 1, (address, widths)
        assert overflow(page)["page"] <= 0


def test_prebuilt_comparisons_without_javascript(demo_site, pages):
    """Without JavaScript the picker's fallback lists each subject's pre-built page
    (it and its closest relatives); each opens, fits 390 px and passes axe."""
    page = pages[390]
    page.goto(url(demo_site, "compare.html"), js=False)
    links = page.eval(
        "[...document.querySelectorAll('.no-js-compare a')].map(a => a.getAttribute('href'))"
    )
    assert links[:3] == [
        "compare/kimi-k2-thinking.html",
        "compare/kimi-k3.html",
        "compare/kimi-k3.1-pro.html",
    ]
    page.goto(url(demo_site, "compare/kimi-k3.html"), js=False)
    assert page.eval(HEADS) == ["Kimi K3", "Kimi K3.1 Pro", "Kimi K2 Thinking"]
    assert overflow(page)["page"] <= 0
    page.goto(url(demo_site, "compare/kimi-k3.html"))
    assert page.problems == [] and local_only(page) == []
    assert overflow(page)["page"] <= 0
    assert axe_serious(page) == []
    page.screenshot(demo_site / "_screenshots" / "compare-prebuilt-390.png")


def test_compare_default_fits_a_phone_and_passes_axe(demo_site, pages):
    page = pages[390]
    page.goto(url(demo_site, "compare.html"))
    fit = overflow(page)
    assert fit["page"] <= 0 and fit["table"] <= 0, fit
    assert axe_serious(page) == []
    page.screenshot(demo_site / "_screenshots" / "compare-default-390.png")
