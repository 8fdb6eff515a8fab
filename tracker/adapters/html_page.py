"""Generic HTML watch: CSS selector (+ optional regex) to typed values, for vendor
pricing pages and leaderboards without an API. Fails loudly rather than guess (C12).

Parsed with lxml directly (cssselect for the selector), not BeautifulSoup: the same
libxml2 tree at about a twentieth of the cost per page (bench/RESULTS.md). The text
rules are BeautifulSoup's ``get_text(" ", strip=True)``: strings inside script, style,
template, rt and rp, and comments, are not page text.
"""

from __future__ import annotations

import codecs
import functools
import re
import threading
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from cssselect import SelectorError
from cssselect.xpath import ExpressionError
from lxml import etree, html
from lxml.cssselect import CSSSelector

from claims.values.numbers import MAX_DIGITS, bounded_decimal
from claims.values.value import Value, quantity, text_value, with_extra
from claims.vocabulary import ATTRIBUTES
from tracker.adapters.base import ObservedValue, ParseResult, register
from tracker.errors import ConfigError, LayoutChanged
from tracker.net.response import Fetched

# Pages that are not the content: a bot challenge, or an interstitial asking for consent.
BOT_MARKERS = (
    "just a moment...",
    "cf-chl",
    "checking your browser",
    "captcha",
    "verify you are human",
    "access denied",
)
CONSENT_MARKERS = ("cookie", "consent", "aceite", "aceitar", "accept all", "gdpr")
PLACEHOLDER_CLASSES = ("skeleton", "placeholder", "shimmer", "loading")
_SPACES = "\u00a0\u202f\u2009 "
_NUMBER = re.compile(r"[-+]?\d[\d.,\u00a0\u202f\u2009 ]*")


def read_number(text: str, decimal: str = ".") -> Decimal:
    """The first number in ``text``, with ``decimal`` as the page's decimal separator.

    The other of ``.``/``,`` and (narrow) no-break or plain spaces group thousands; a
    group after a grouping separator must have exactly 3 digits, so ``"8.00"`` read with
    ``decimal=","`` is refused rather than read as 800 (cases/C11). Raises LayoutChanged
    when no number can be read unambiguously.
    """
    if decimal not in (".", ","):
        raise ConfigError(f"html_page: decimal must be '.' or ',', got {decimal!r}")
    m = _NUMBER.search(text)
    if not m:
        raise LayoutChanged(f"no number in {text.strip()[:60]!r}")
    token = m.group(0).strip(_SPACES)
    group = "," if decimal == "." else "."
    if token.count(decimal) > 1:
        raise LayoutChanged(f"ambiguous number {token!r}: decimal {decimal!r} occurs twice")
    digits = sum(c.isdigit() for c in token)
    if digits > MAX_DIGITS:  # a 5,000-digit "figure" is not one (issue 20)
        raise LayoutChanged(f"a number of {digits} digits (at most {MAX_DIGITS})")
    whole, _, frac = token.partition(decimal)
    parts = re.split(f"[{re.escape(group)}{_SPACES}]", whole)
    if len(parts) > 1 and (not 1 <= len(parts[0]) <= 3 or any(len(p) != 3 for p in parts[1:])):
        raise LayoutChanged(f"ambiguous number {token!r} for decimal separator {decimal!r}")
    try:
        return Decimal("".join(parts) + ("." + frac if frac else ""))
    except InvalidOperation:
        raise LayoutChanged(f"unreadable number {token!r}") from None


# Text nodes BeautifulSoup's get_text counts: not inside script/style/template/rt/rp
# (its special string containers); comments and processing instructions are not text.
_STRINGS = etree.XPath(
    "descendant::text()[not(ancestor::script or ancestor::style or ancestor::template"
    " or ancestor::rt or ancestor::rp)]"
)
_NO_TEXT = frozenset({"script", "style", "template", "rt", "rp"})
_CHARSET = re.compile(rb"""<\s*meta[^>]+charset\s*=\s*["']?\s*([^\s"'/>;]+)""", re.I)
_HTTP_CHARSET = re.compile(r"charset\s*=\s*([^;\s]+)", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
_local = threading.local()  # one HTMLParser per worker thread (parsers are not shared)


def _get_text(node: etree._Element) -> str:
    """``node.get_text(" ", strip=True)`` as BeautifulSoup gives it."""
    if len(node) == 0 and node.tag not in _NO_TEXT:  # a leaf (most table cells): no XPath
        return (node.text or "").strip()
    return " ".join(t for t in (str(s).strip() for s in _STRINGS(node)) if t)


def _text(node: etree._Element) -> str:
    return " ".join(_get_text(node).split())


def _is_placeholder(node: etree._Element) -> bool:
    for el in node.iter(etree.Element):
        classes = (el.get("class") or "").lower()
        if any(c in classes for c in PLACEHOLDER_CLASSES):
            return True
    return False


def _http_charset(content_type: str | None) -> list[str]:
    m = _HTTP_CHARSET.search(content_type or "")
    return [m.group(1).strip("\"' ")] if m else []


def _decode(body: bytes, content_type: str | None = None) -> str:
    """The page as text (cases/C28; the WHATWG order): a BOM, else the HTTP
    ``Content-Type`` charset, else the declared ``<meta charset>``, each when the bytes
    decode with it, else UTF-8, else windows-1252. No sniffing first: legacy bytes can
    also be valid UTF-8."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                     (codecs.BOM_UTF16_BE, "utf-16-be")):  # fmt: skip
        if body.startswith(bom):
            return body[len(bom) :].decode(enc, "replace")
    m = _CHARSET.search(body[:4096])
    candidates = [
        *_http_charset(content_type),
        *([m.group(1).decode("ascii", "replace")] if m else []),
    ]
    for enc in [*candidates, "utf-8"]:
        try:
            return body.decode(enc)
        except (LookupError, UnicodeDecodeError):
            continue
    return body.decode("windows-1252", "replace")


def _parse(body: bytes, content_type: str | None = None) -> etree._Element:
    """The document root (an empty ``<html>`` for an empty or unparsable page); the
    HTTP ``content_type`` gives the charset when it names one (:func:`_decode`)."""
    text = _XML_DECL.sub("", _decode(body, content_type), count=1)
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = html.HTMLParser()
    try:
        root = html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError):
        root = None
    return root if root is not None else html.Element("html")


@functools.lru_cache(maxsize=256)
def _selector(css: str) -> CSSSelector:
    """A compiled selector (translating CSS to XPath costs more than parsing a page)."""
    return CSSSelector(css, translator="html")


def _int_problem(value: Any, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return f"expected a whole number from {low} to {high}, got {value!r}"
    return None


def _columns_problem(columns: Any) -> str | None:
    if not isinstance(columns, Mapping) or not columns:
        return 'expected a table of cell index = attribute, e.g. { 1 = "price_input_usd_per_mtok" }'
    for key, attr in columns.items():
        if not str(key).isdigit() or int(key) > 1000:
            return f"{key!r} is not a cell index (0, 1, 2...)"
        if attr not in ATTRIBUTES or not {"quantity", "text"} & set(ATTRIBUTES[attr][0]):
            return f"{attr!r} is not an attribute a page cell can hold"
    return None


def check_params(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(param, message)`` for each html_page watch param that cannot work, for
    ``tracker load`` (issue 20: a bad selector, regex, scale or column used to load and
    then fail the cycle): ``selector`` compiles as CSS, ``regex`` as a Python regular
    expression, ``scale`` is a positive number, ``decimal`` is ``.`` or ``,``,
    ``columns`` maps cell indexes to attributes, ``expect_min`` and ``name_cell`` are
    small whole numbers."""
    out: list[tuple[str, str]] = []
    selector = params.get("selector")
    if not isinstance(selector, str) or not selector.strip():
        out.append(("selector", "required: a CSS selector"))
    else:
        try:
            _selector(selector)
        except (SelectorError, ExpressionError, ValueError) as exc:
            out.append(("selector", f"{selector!r} is not a CSS selector ({exc})"))
    regex = params.get("regex")
    if regex is not None:
        try:
            re.compile(str(regex))
        except (re.error, RecursionError, OverflowError) as exc:
            out.append(("regex", f"{regex!r} is not a regular expression ({exc})"))
    if "scale" in params:
        scale = bounded_decimal(params["scale"])
        if scale is None or scale <= 0 or isinstance(params["scale"], bool):
            out.append(("scale", f"expected a positive number, got {params['scale']!r}"))
    if params.get("decimal", ".") not in (".", ","):
        out.append(("decimal", f"expected '.' or ',', got {params['decimal']!r}"))
    for key, high in (("expect_min", 100_000), ("name_cell", 1000)):
        problem = _int_problem(params[key], 0, high) if key in params else None
        if problem:
            out.append((key, problem))
    if "columns" in params:
        problem = _columns_problem(params["columns"])
        if problem:
            out.append(("columns", problem))
    return out


def _value(attribute: str, raw: str, params: Mapping[str, Any]) -> Value:
    kinds, unit = ATTRIBUTES[attribute]
    regex = params.get("regex")
    if regex:
        m = re.search(regex, raw)
        if not m:
            raise LayoutChanged(f"{raw[:60]!r} does not match regex {regex!r}")
        raw = m.group(1) if m.groups() else m.group(0)
    if "quantity" in kinds:
        number = read_number(raw, params.get("decimal", "."))
        number *= Decimal(str(params.get("scale", "1")))
        v = quantity(number, params.get("unit") or unit or "", exact=True)
        return with_extra(v, text=raw.strip())
    if "text" in kinds:
        return text_value(raw.strip())
    raise ConfigError(f"html_page: attribute {attribute!r} cannot be read from page text")


def _qualifiers(params: Mapping[str, Any]) -> dict[str, str]:
    q = params.get("qualifiers") or {}
    return {str(k): str(v) for k, v in q.items()}


@register("html_page", "CSS selector (+ regex) to typed values; fails on empty/consent/skeleton")
def parse_html(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """Read values from an HTML page with a CSS selector. Watch params:

    - ``selector`` (required): CSS; ``expect_min`` (default 1): fewer matches fail.
    - Table mode, when ``columns`` is given: each match is a row; cell ``name_cell``
      (default 0) is the model name (subject ref ``("name", text)``) and ``columns``
      maps cell index -> attribute. Rows of header cells only are skipped.
    - Single mode otherwise: ``subject`` (a subject name) and ``attribute``; the first
      match's text is the value.
    - ``regex`` (group 1 is the figure), ``decimal`` (``.`` or ``,``), ``scale``
      (e.g. ``1000`` for per-thousand prices), ``unit``, ``qualifiers``.

    Never a value from a page that is not the content (cases/C12): zero or too few
    matches (explained as consent wall or bot challenge when the page shows one), a
    bot challenge anywhere, skeleton/placeholder or empty cells, or an unreadable
    figure all raise :class:`LayoutChanged`. Raises ConfigError for missing params.
    """
    selector = params.get("selector")
    if not selector:
        raise ConfigError("html_page: watch param 'selector' is required")
    root = _parse(fetched.body, fetched.headers.get("content-type"))
    page_text = _get_text(root).lower()
    raw_lower = fetched.body[:20000].decode("utf-8", "replace").lower()
    url = fetched.final_url
    if any(m in page_text or m in raw_lower for m in BOT_MARKERS[:3]):
        raise LayoutChanged(f"{url}: a bot challenge page, not the content")
    matches = _selector(selector)(root)
    expect_min = int(params.get("expect_min", 1))
    if len(matches) < expect_min:
        why = "selector not found"
        if any(m in page_text for m in BOT_MARKERS):
            why = "bot challenge"
        elif any(m in page_text for m in CONSENT_MARKERS):
            why = "consent wall"
        raise LayoutChanged(
            f"{url}: {selector!r} matched {len(matches)} (expected >= {expect_min}): {why}"
        )
    q = _qualifiers(params)
    columns = params.get("columns")
    values: list[ObservedValue] = []
    if columns:
        name_cell = int(params.get("name_cell", 0))
        wanted = {int(k): str(v) for k, v in columns.items()}
        for attr in wanted.values():
            if attr not in ATTRIBUTES:
                raise ConfigError(f"html_page: unknown attribute {attr!r} in columns")
        for row in matches:
            cells = [c for c in row if c.tag in ("td", "th")]
            if not any(c.tag == "td" for c in cells):
                continue  # a header row
            needed = [name_cell, *wanted]
            if max(needed) >= len(cells):
                raise LayoutChanged(f"{url}: a row has {len(cells)} cells, expected more")
            if any(_is_placeholder(cells[i]) or not _text(cells[i]) for i in needed):
                raise LayoutChanged(f"{url}: placeholder or empty cells (page not rendered)")
            name = _text(cells[name_cell])
            for index, attr in sorted(wanted.items()):
                value = _value(attr, _text(cells[index]), params)
                values.append(ObservedValue(("name", name), attr, value, q))
        if not values:
            raise LayoutChanged(f"{url}: {selector!r} matched only header rows")
    else:
        subject, attribute = params.get("subject"), params.get("attribute")
        if not subject or attribute not in ATTRIBUTES:
            raise ConfigError("html_page: single mode needs params 'subject' and 'attribute'")
        node = matches[0]
        if _is_placeholder(node) or not _text(node):
            raise LayoutChanged(f"{url}: placeholder or empty element (page not rendered)")
        values.append(
            ObservedValue(
                ("name", str(subject)), attribute, _value(attribute, _text(node), params), q
            )
        )
    return ParseResult(values=values)


def page_text(body: bytes, selector: str | None = None) -> str:
    """The page's text as a reader sees it (BeautifulSoup's ``get_text(" ", strip=True)``
    rules, whitespace collapsed), of the first element ``selector`` matches when given
    (e.g. ``article``). Raises LayoutChanged for a bot challenge or when ``selector``
    matches nothing, so a claimant page that moved is never read as "not stated"."""
    root = _parse(body)
    text = _text(root)
    if any(m in text.lower() for m in BOT_MARKERS[:3]):
        raise LayoutChanged("a bot challenge page, not the content")
    if selector:
        found = _selector(selector)(root)
        if not found:
            raise LayoutChanged(f"{selector!r} matched nothing")
        text = _text(found[0])
    if not text:
        raise LayoutChanged("the page has no text")
    return text
