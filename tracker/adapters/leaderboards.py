"""Leaderboard adapters: LMArena's arena-catalog JSON and the Artificial Analysis v2 API.

Formats: fixtures/real/lmarena_arena-catalog_*.json (lmarena/arena-catalog) and
fixtures/real/aa_* (Artificial Analysis API docs / OpenAPI models).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from claims.values.numbers import bounded_decimal
from claims.values.value import Value, quantity, with_extra
from tracker.adapters.base import Fetched, ObservedValue, ParseResult, register
from tracker.adapters.jsonbody import load_json
from tracker.errors import LayoutChanged


def _json_decimal(fetched: Fetched) -> Any:
    """The body as JSON with every float read as an exact Decimal."""
    return load_json(fetched.body, fetched.final_url, parse_float=Decimal)


def _num(x: Any) -> Decimal | None:
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, Decimal, str)):
        return bounded_decimal(x)
    return None


def _exact(d: Decimal, unit: str, **extra: Any) -> Value:
    v = quantity(d, unit, exact=True)
    return with_extra(v, **extra) if extra else v


@register("lmarena_catalog", "lmarena/arena-catalog leaderboard-*.json ratings, price scatter")
def parse_lmarena(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """Two files of lmarena/arena-catalog, told apart by shape:

    - ``data/leaderboard-<board>.json``: ``{category: {model_key: {rating, rating_q975,
      rating_q025}}}`` -> ``benchmark_score`` (unit ``points``; the interval is the
      95 % CI q025-q975), qualifiers ``leaderboard`` (param, default ``lmarena-<board>``)
      and ``benchmark`` (the category). The file has no rank; none is invented.
    - ``data/scatterplot-data.json``: ``[{model_api_name, input_token_price,
      output_token_price (strings, USD per 1M)}]`` -> prices, exact.

    ``subject_ref`` is ``("lmarena", model key)``. Raises LayoutChanged for another
    shape or a rating entry without a rating.
    """
    doc = _json_decimal(fetched)
    values: list[ObservedValue] = []
    if isinstance(doc, dict):
        stem = PurePosixPath(urlsplit(fetched.url).path).stem
        board = str(params.get("leaderboard") or f"lmarena-{stem.removeprefix('leaderboard-')}")
        for category, models in doc.items():
            if not isinstance(models, dict):
                raise LayoutChanged(f"{fetched.final_url}: category {category!r} is not an object")
            for key, entry in models.items():
                rating = _num(entry.get("rating")) if isinstance(entry, dict) else None
                if rating is None:
                    raise LayoutChanged(f"{fetched.final_url}: {category}/{key} has no rating")
                low, high = _num(entry.get("rating_q025")), _num(entry.get("rating_q975"))
                v = Value(
                    kind="quantity",
                    value=rating,
                    unit="points",
                    low=low if low is not None and low <= rating else rating,
                    high=high if high is not None and high >= rating else rating,
                )
                q = {"leaderboard": board, "benchmark": str(category)}
                values.append(ObservedValue(("lmarena", key), "benchmark_score", v, q))
        return ParseResult(values=values)
    if isinstance(doc, list):
        for i, item in enumerate(doc):
            if not isinstance(item, dict) or not isinstance(item.get("model_api_name"), str):
                raise LayoutChanged(f"{fetched.final_url}: item {i} has no model_api_name")
            ref = ("lmarena", item["model_api_name"])
            for field, attr in (
                ("input_token_price", "price_input_usd_per_mtok"),
                ("output_token_price", "price_output_usd_per_mtok"),
            ):
                d = _num(item.get(field))
                if d is not None and d >= 0:
                    values.append(ObservedValue(ref, attr, _exact(d, "usd_per_mtok"), {}))
        return ParseResult(values=values)
    raise LayoutChanged(f"{fetched.final_url}: neither a leaderboard object nor a price list")


AA_INDEX = "artificial_analysis_intelligence_index"


def _with_page(url: str, page: int) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "page"] + [("page", str(page))]
    return urlunsplit(parts._replace(query=urlencode(query)))


@register("artificial_analysis", "Artificial Analysis v2 API: intelligence index, tokens/s, prices")
def parse_artificial_analysis(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """``GET /api/v2/language/models/free`` (current; ``intelligence_index_version``,
    ``pagination``, ``performance{}``) or the legacy ``/api/v2/data/llms/models``.

    Per model, ``subject_ref`` ``("artificial_analysis", slug)``: ``benchmark_score``
    for the Intelligence Index (qualifier ``benchmark`` = ``aa-intelligence-index``
    and ``version`` when the response states it), ``output_tokens_per_second`` (median),
    prices per 1M (already per 1M in the API). Nulls give nothing. ``next_url`` follows
    ``pagination.has_more``. Raises LayoutChanged when there is no ``data`` list.
    """
    doc = _json_decimal(fetched)
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, list):
        raise LayoutChanged(f"{fetched.final_url}: expected {{'data': [...]}} of models")
    version = doc.get("intelligence_index_version")
    values: list[ObservedValue] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("slug"), str):
            raise LayoutChanged(f"{fetched.final_url}: item {i} has no slug")
        ref = ("artificial_analysis", item["slug"])
        evals = item.get("evaluations") if isinstance(item.get("evaluations"), dict) else {}
        score = _num(evals.get(AA_INDEX))
        if score is not None:
            q = {"benchmark": "aa-intelligence-index"}
            if version is not None:
                q["version"] = str(version)
            values.append(ObservedValue(ref, "benchmark_score", _exact(score, "points"), q))
        perf = item.get("performance") if isinstance(item.get("performance"), dict) else item
        tps = _num(perf.get("median_output_tokens_per_second"))
        if tps is not None and tps > 0:
            v = _exact(tps, "tokens_per_second", statistic="median")
            values.append(ObservedValue(ref, "output_tokens_per_second", v, {}))
        pricing = item.get("pricing") if isinstance(item.get("pricing"), dict) else {}
        for field, attr in (
            ("price_1m_input_tokens", "price_input_usd_per_mtok"),
            ("price_1m_output_tokens", "price_output_usd_per_mtok"),
        ):
            d = _num(pricing.get(field))
            if d is not None and d >= 0:
                values.append(ObservedValue(ref, attr, _exact(d, "usd_per_mtok"), {}))
    page = doc.get("pagination") if isinstance(doc.get("pagination"), dict) else {}
    next_url = None
    if page.get("has_more") is True and isinstance(page.get("page"), int):
        next_url = _with_page(fetched.url, page["page"] + 1)
    return ParseResult(values=values, next_url=next_url)
