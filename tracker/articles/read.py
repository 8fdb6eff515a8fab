"""Read an article for extraction: plain text or HTML from a file, or a URL through an
``tracker.net.client.HttpClient`` (the fetch seam). Output: :class:`Article` (main text plus title,
publisher, published date and language from metadata when present).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup, Tag

from tracker.errors import ConfigError

BLOCK_TAGS = (
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "blockquote", "figcaption",
    "pre", "dd", "dt", "caption",
)  # fmt: skip
DROP_TAGS = (
    "script",
    "style",
    "noscript",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "svg",
    "template",
)
# Collapse ordinary whitespace only: NBSP / NNBSP are number grouping in pt-PT (cases/C11).
_WS = re.compile(r"[ \t\r\n\f\v]+")
_DATE_META = (
    ("property", "article:published_time"),
    ("name", "article:published_time"),
    ("itemprop", "datePublished"),
    ("name", "date"),
    ("name", "pubdate"),
    ("name", "publish-date"),
    ("property", "og:published_time"),
    ("name", "dc.date"),
)


@dataclass(frozen=True)
class Article:
    """Main text of an article (one paragraph per line) and what its metadata says."""

    text: str
    title: str | None = None
    publisher: str | None = None
    published: dt.date | None = None
    language: str | None = None
    url: str | None = None


def looks_like_html(body: str) -> bool:
    """True when the first 500 characters look like an HTML document or fragment."""
    head = body.lstrip()[:500].lower()
    return (
        head.startswith("<!doctype html")
        or "<html" in head
        or bool(re.search(r"<(p|div|td|body)\b", head))
    )


def article_from_html(html: str, url: str | None = None) -> Article:
    """Main text from HTML with BeautifulSoup: the ``<article>`` (else ``<main>``, else
    ``<body>``) without scripts, navigation, headers, footers and forms; one line per
    block element (p, h1-h6, li, td...). Metadata: og:title/<title>, og:site_name,
    article:published_time (and similar, JSON-LD ``datePublished``, ``<time datetime>``),
    ``<html lang>``."""
    soup = BeautifulSoup(html, "lxml")
    title = _meta(soup, ("property", "og:title")) or (
        soup.title.get_text(strip=True) if soup.title else None
    )
    publisher = _meta(soup, ("property", "og:site_name")) or _meta(soup, ("name", "publisher"))
    published = _published(soup)
    html_tag = soup.find("html")
    lang = html_tag.get("lang") if isinstance(html_tag, Tag) else None
    for t in soup(DROP_TAGS):
        t.decompose()
    root = soup.find("article") or soup.find("main") or soup.body or soup
    lines: list[str] = []
    for el in root.find_all(BLOCK_TAGS):  # type: ignore[union-attr]
        if el.find(BLOCK_TAGS):
            continue  # a container: its inner blocks give the text
        line = _WS.sub(" ", el.get_text(" ")).strip()
        if line:
            lines.append(line)
    if not lines:
        lines = [
            ln for ln in (_WS.sub(" ", x).strip() for x in root.get_text("\n").split("\n")) if ln
        ]
    return Article(
        text="\n\n".join(lines),
        title=title,
        publisher=publisher,
        published=published,
        language=str(lang) if lang else None,
        url=url,
    )


DEFAULT_MAX_KB = 1024  # rule-based extraction took 25 s on 200 KB: a bound, not a target


def check_article_size(where: str, size: int, max_kb: int) -> None:
    """ConfigError when ``size`` bytes exceed ``max_kb`` KB (1 KB = 1024 bytes), naming
    ``where``, the sizes and ``--max-kb`` (a 19.7 MB text ran for minutes, silently)."""
    if size > max_kb * 1024:
        raise ConfigError(
            f"{where}: {size / 1024:,.0f} KB is more than --max-kb {max_kb} (extraction "
            "would take minutes); pass the part about the model, or raise --max-kb"
        )


def read_article_file(path: Path, max_kb: int = DEFAULT_MAX_KB) -> Article:
    """Plain text or HTML from a file (UTF-8) of at most ``max_kb`` KB. Raises
    :class:`ConfigError` if unreadable, larger (:func:`check_article_size`), or not
    UTF-8 text (a PDF or other binary file: ``not UTF-8 text``, with the byte's offset)."""
    try:
        check_article_size(str(path), path.stat().st_size, max_kb)
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read article ({exc.strerror or exc})") from exc
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "give a text or HTML file (convert a PDF or document to text first)"
        ) from None
    if "\x00" in body:
        raise ConfigError(f"{path}: not UTF-8 text (it holds NUL bytes: a binary file)")
    if looks_like_html(body) or path.suffix.lower() in (".html", ".htm"):
        return article_from_html(body)
    return Article(text=body)


def fetch_article(url: str, client: Any) -> Article:
    """GET ``url`` through the fetch seam (:func:`tracker.net.fetch.fetch`: retries, size cap,
    polite User-Agent) with ``client`` from ``tracker.net.fetch.make_client`` and read it.

    Raises the seam's :class:`FetchError` subclasses (BadStatus for a non-2xx answer);
    the body is HTML unless the content type says text/plain.
    """
    from tracker.net.fetch import fetch

    fetched = fetch(client, url)
    text = fetched.body.decode("utf-8", errors="replace")
    if "text/plain" in fetched.headers.get("content-type", ""):
        return Article(text=text, url=url)
    return article_from_html(text, url=url)


def _meta(soup: BeautifulSoup, attr: tuple[str, str]) -> str | None:
    tag = soup.find("meta", attrs={attr[0]: attr[1]})
    if isinstance(tag, Tag) and tag.get("content"):
        return str(tag["content"]).strip() or None
    return None


def _published(soup: BeautifulSoup) -> dt.date | None:
    for attr in _DATE_META:
        d = _iso_day(_meta(soup, attr))
        if d:
            return d
    for script in soup.find_all("script", attrs={"type": "application/ld+json"}):
        try:
            data = json.loads(script.get_text())
        except ValueError:
            continue
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict):
                d = _iso_day(item.get("datePublished"))
                if d:
                    return d
    t = soup.find("time", attrs={"datetime": True})
    return _iso_day(str(t["datetime"])) if isinstance(t, Tag) else None


def _iso_day(value: object) -> dt.date | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None
