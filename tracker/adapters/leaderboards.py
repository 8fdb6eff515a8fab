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

from claims.readings.boards import (
    Board,
    BoardRow,
    FormatChanged,
    aa_board,
    arena_boards,
    terminal_bench_run,
)
from claims.values.numbers import bounded_decimal
from claims.values.value import Value, quantity, with_extra
from claims.verify.ranks import RankSpan, rank_spans
from tracker.adapters.base import ObservedValue, ParseResult, register
from tracker.errors import LayoutChanged
from tracker.net.jsonbody import load_json
from tracker.net.response import Fetched


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


def _rank_value(row: BoardRow, span: RankSpan) -> Value:
    """A ``leaderboard_rank`` observation: the span of ranks the row holds (low = best,
    high = worst; equal when untied), with the score, the tie rule and the board size."""
    best, worst = Decimal(span.best), Decimal(span.worst)
    value = best if best == worst else None
    v = Value(kind="quantity" if value is not None else "range", value=value, unit="rank",
              low=best, high=worst)  # fmt: skip
    return with_extra(v, score=str(row.score), rule=span.rule, size=span.size)


def board_values(board: Board, namespace: str, extra_q: Mapping[str, str]) -> list[ObservedValue]:
    """``benchmark_score`` (with its 95 % interval when published) and ``leaderboard_rank``
    (:func:`_rank_value`) for every row of a board; qualifiers ``benchmark`` /
    ``leaderboard`` = the board's name, ``version`` when the board states one."""
    out: list[ObservedValue] = []
    spans = rank_spans({k: row.entry for k, row in board.rows.items()})
    for row in board.rows.values():
        q = {**extra_q}
        if row.version is not None:
            q["version"] = row.version
        score = Value(
            kind="quantity",
            value=row.score,
            unit="points",
            low=row.low if row.low is not None else row.score,
            high=row.high if row.high is not None else row.score,
        )
        ref = (namespace, row.key)
        out.append(ObservedValue(ref, "benchmark_score", score, {"benchmark": board.name, **q}))
        rank_q = {"leaderboard": board.name, **q}
        out.append(ObservedValue(ref, "leaderboard_rank", _rank_value(row, spans[row.key]), rank_q))
    return out


@register("lmarena_catalog", "lmarena/arena-catalog leaderboard-*.json ratings and ranks, prices")
def parse_lmarena(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """Two files of lmarena/arena-catalog, told apart by shape:

    - ``data/leaderboard-<board>.json``: ``{category: {model_key: {rating, rating_q975,
      rating_q025}}}`` -> per model and category ``benchmark_score`` (unit ``points``;
      the interval is the 95 % CI q025-q975) and ``leaderboard_rank``: the span of ranks
      the intervals allow (:mod:`claims.verify.ranks`, as LMArena ranks: ties are ties).
      The board is named by param ``leaderboard`` (default ``lmarena-<board>``) for
      category ``full`` and ``<name> / <category>`` otherwise (qualifiers ``benchmark``
      and ``leaderboard``). An entry missing an interval end is ranked by score with a
      warning (:func:`claims.readings.boards.arena_boards`).
    - ``data/scatterplot-data.json``: ``[{model_api_name, input_token_price,
      output_token_price (strings, USD per 1M)}]`` -> prices, exact.

    ``subject_ref`` is ``("lmarena", model key)``. Raises LayoutChanged for another
    shape or a rating entry without a rating (a renamed key).
    """
    doc = _json_decimal(fetched)
    values: list[ObservedValue] = []
    if isinstance(doc, dict):
        stem = PurePosixPath(urlsplit(fetched.url).path).stem
        name = str(params.get("leaderboard") or f"lmarena-{stem.removeprefix('leaderboard-')}")
        try:
            boards = arena_boards(doc, name, fetched.final_url)
        except FormatChanged as exc:
            raise LayoutChanged(str(exc)) from exc
        warnings: list[str] = []
        for board in boards:
            values.extend(board_values(board, "lmarena", {}))
            warnings.extend(board.warnings)
        return ParseResult(values=values, warnings=warnings)
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


def _with_page(url: str, page: int) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "page"] + [("page", str(page))]
    return urlunsplit(parts._replace(query=urlencode(query)))


@register(
    "artificial_analysis",
    "Artificial Analysis v2 API: intelligence index and rank, tokens/s, prices",
)
def parse_artificial_analysis(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """``GET /api/v2/language/models/free`` (current; ``intelligence_index_version``,
    ``pagination``, ``performance{}``) or the legacy ``/api/v2/data/llms/models``.

    Per model, ``subject_ref`` ``("artificial_analysis", slug)``: ``benchmark_score`` for
    the Intelligence Index (qualifier ``benchmark`` = ``Artificial Analysis Intelligence
    Index`` and ``version`` when the response states it), ``leaderboard_rank`` (the same
    name as ``leaderboard``; equal scores tie) when the response is the whole list (not
    one page of several), ``output_tokens_per_second`` (median over AA's own runs; no
    provider, so no measurement a provider's claim is checked against), prices per 1M.
    Nulls give nothing. ``next_url`` follows ``pagination.has_more``. Raises
    LayoutChanged when there is no ``data`` list or an item has no slug.
    """
    doc = _json_decimal(fetched)
    try:
        board = aa_board(doc, fetched.final_url)
    except FormatChanged as exc:
        raise LayoutChanged(str(exc)) from exc
    page = doc.get("pagination") if isinstance(doc.get("pagination"), dict) else {}
    paged = page.get("has_more") is True or (page.get("page") or 1) != 1
    values: list[ObservedValue] = [
        v
        for v in board_values(board, "artificial_analysis", {})
        if not (paged and v.attribute == "leaderboard_rank")
    ]
    for item in doc["data"]:
        ref = ("artificial_analysis", item["slug"])
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
    next_url = None
    if page.get("has_more") is True and isinstance(page.get("page"), int):
        next_url = _with_page(fetched.url, page["page"] + 1)
    return ParseResult(values=values, next_url=next_url)


@register("terminal_bench", "Terminal-Bench leaderboard run results.json: score per version")
def parse_terminal_bench(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """One run's ``results.json`` from laude-institute/terminal-bench-leaderboard, at
    ``.../results/<dataset>:<version>/<date>_<agent>_<model>/<run>/results.json``
    (fixtures/real/terminal-bench_core-0.1.1_run_results_excerpt.json) ->
    ``benchmark_score`` in percent (``accuracy`` x 100, exact), qualifiers ``benchmark``
    (param ``benchmark``, default ``Terminal-Bench``), ``version`` and ``agent`` from the
    path: the leaderboard holds a score per agent + model pair under one dataset version.
    ``subject_ref`` is ``("terminal_bench", model)``. LayoutChanged when ``accuracy`` is
    missing or the URL is not in that layout.
    """
    try:
        run = terminal_bench_run(_json_decimal(fetched), urlsplit(fetched.url).path)
    except FormatChanged as exc:
        raise LayoutChanged(f"{fetched.final_url}: {exc}") from exc
    v = with_extra(
        quantity(run.accuracy, "percent", exact=True),
        resolved=run.resolved,
        trials=run.total,
        dataset=run.dataset,
    )
    q = {
        "benchmark": str(params.get("benchmark") or "Terminal-Bench"),
        "version": run.version,
        "agent": run.agent,
    }
    return ParseResult([ObservedValue(("terminal_bench", run.model), "benchmark_score", v, q)])
