"""Every internal link of the demo site (``tracker demo``) reaches a file that exists and,
when it names an anchor, an element with that id in that file."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and (name == "id" or tag == "a"):
                self.ids.add(value)
            if (name == "href" and tag in ("a", "link")) or (name == "src" and tag != "script"):
                self.links.append(value)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path) -> list[str]:
    """``page: link (why)`` for each internal link whose file or anchor is missing."""
    pages = {p: _read(p) for p in site.rglob("*.html")}
    out = []
    for page, parsed in sorted(pages.items()):
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "data:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(site)}: {link}"
            if not target.is_file():
                out.append(f"{where} (no file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _read(target).ids
                if unquote(parts.fragment) not in ids:
                    out.append(f"{where} (no #{parts.fragment} there)")
    return out


def test_every_internal_link_of_the_demo_site_resolves(demo_build):
    site = demo_build / "s"
    assert len(list(site.rglob("*.html"))) > 10
    assert broken_links(site) == []
