"""Leaderboard formats -> board rows: LMArena arena-catalog files, the Artificial Analysis
v2 API and Terminal-Bench run results (pure readers; the adapters in
tracker/adapters/leaderboards.py call them).

Formats (fixtures/real/): ``lmarena_arena-catalog_leaderboard-text_excerpt.json``
(lmarena/arena-catalog ``data/leaderboard-<board>.json``), ``synthetic_aa_language_models_free_v2.json``
and ``aa_llms_models_legacy_v2_data_doc_example.json`` (Artificial Analysis API docs /
OpenAPI models), ``terminal-bench_core-0.1.1_run_results_excerpt.json``
(laude-institute/terminal-bench-leaderboard ``results/<dataset>:<version>/<date>_<agent>_<model>/<run>/results.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from claims.errors import ClaimsError

# Arena-catalog entry keys: the rating and its 95 % bootstrap interval.
ARENA_KEYS: tuple[str, str, str] = ("rating", "rating_q025", "rating_q975")
AA_INDEX = "artificial_analysis_intelligence_index"


class FormatChanged(ClaimsError, ValueError):
    """A body whose shape is not the documented one (a renamed key, a missing list);
    the message names the place. Adapters raise it on as LayoutChanged."""


def number(x: Any) -> Decimal | None:
    """A JSON number or numeric string as Decimal; None for null, bool or text."""
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, Decimal)):
        return Decimal(x)
    if isinstance(x, float):
        return Decimal(repr(x))
    if isinstance(x, str):
        try:
            return Decimal(x.strip())
        except ArithmeticError:
            return None
    return None


@dataclass(frozen=True)
class Entry:
    """One model on a board: ``score`` and, when the board publishes it, the 95 %
    interval ``low``-``high`` (None when missing). Ranked by :mod:`claims.verify.ranks`."""

    key: str
    score: Decimal
    low: Decimal | None = None
    high: Decimal | None = None


@dataclass(frozen=True)
class BoardRow:
    """One model on one board: ``key`` as the board names it, ``score``, its 95 %
    interval (None when not published), ``version`` of the board, ``extra``
    format-specific fields (tokens/s...)."""

    key: str
    score: Decimal
    low: Decimal | None = None
    high: Decimal | None = None
    version: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def entry(self) -> Entry:
        """The row as a rank :class:`Entry`."""
        return Entry(self.key, self.score, self.low, self.high)


@dataclass(frozen=True)
class Board:
    """One table: ``name`` (e.g. ``Code Arena WebDev``, or ``<board> / <category>``),
    rows by key, and ``warnings`` (entries without an interval)."""

    name: str
    rows: dict[str, BoardRow]
    warnings: tuple[str, ...] = ()


def _board(name: str, entries: dict[str, Entry], version: str | None, extra=None) -> Board:
    rows = {
        k: BoardRow(k, e.score, e.low, e.high, version, (extra or {}).get(k, {}))
        for k, e in entries.items()
    }
    return Board(name, rows)


def arena_boards(doc: Any, board: str, where: str = "") -> list[Board]:
    """``{category: {model_key: {rating, rating_q975, rating_q025}}}`` -> one Board per
    category, named ``board`` for ``full`` (the overall table) and ``board / category``
    otherwise. An entry without ``rating`` (a renamed key) raises FormatChanged; an
    entry missing an interval end is kept with ``low``/``high`` None, and its board is
    then ranked by score (warning says so): a rank is never read from a half interval
    (:func:`claims.verify.ranks.rank_spans`)."""
    if not isinstance(doc, dict):
        raise FormatChanged(f"{where}: expected {{category: {{model: rating}}}}")
    out: list[Board] = []
    for category, models in doc.items():
        if not isinstance(models, dict):
            raise FormatChanged(f"{where}: category {category!r} is not an object")
        entries: dict[str, Entry] = {}
        missing: list[str] = []
        for key, entry in models.items():
            rating = number(entry.get("rating")) if isinstance(entry, dict) else None
            if rating is None:
                raise FormatChanged(f"{where}: {category}/{key} has no 'rating'")
            low, high = number(entry.get("rating_q025")), number(entry.get("rating_q975"))
            if low is None or high is None or not low <= rating <= high:
                missing.append(str(key))
                low = high = None
            entries[str(key)] = Entry(str(key), rating, low, high)
        name = board if category == "full" else f"{board} / {category}"
        b = _board(name, entries, None)
        if missing:
            note = f"{name}: no 95 % interval for {', '.join(missing)}; ranked by score"
            b = Board(b.name, b.rows, (note,))
        out.append(b)
    return out


def aa_board(doc: Any, where: str = "") -> Board:
    """Artificial Analysis ``GET /api/v2/language/models/free`` (``intelligence_index_version``,
    ``data[]{slug, evaluations{artificial_analysis_intelligence_index}, performance{...}}``)
    or the legacy ``/api/v2/data/llms/models`` -> the Intelligence Index board (models
    with a null index are left out and not ranked), version as published (None for the
    legacy shape). ``extra``: ``median_output_tokens_per_second``. No ``data`` list or an
    item without ``slug`` raises FormatChanged."""
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, list):
        raise FormatChanged(f"{where}: expected {{'data': [...]}} of models")
    version = doc.get("intelligence_index_version")
    entries: dict[str, Entry] = {}
    extra: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("slug"), str):
            raise FormatChanged(f"{where}: item {i} has no slug")
        evals = item.get("evaluations")
        score = number(evals.get(AA_INDEX)) if isinstance(evals, dict) else None
        if score is None:
            continue
        entries[item["slug"]] = Entry(item["slug"], score)
        perf = item.get("performance")
        perf = perf if isinstance(perf, dict) else item
        tps = number(perf.get("median_output_tokens_per_second"))
        extra[item["slug"]] = {"median_output_tokens_per_second": tps}
    v = None if version is None else str(version)
    return _board("Artificial Analysis Intelligence Index", entries, v, extra)


@dataclass(frozen=True)
class BenchRun:
    """One Terminal-Bench run: ``dataset`` and ``version`` (from the results folder
    ``<dataset>:<version>``), ``agent`` and ``model`` (from ``<date>_<agent>_<model>``),
    ``accuracy`` as a percentage, resolved/total trials."""

    dataset: str
    version: str
    agent: str
    model: str
    accuracy: Decimal
    resolved: int
    total: int


def terminal_bench_run(doc: Any, path: str) -> BenchRun:
    """A run's ``results.json`` (``accuracy`` 0-1, ``n_resolved``, ``n_unresolved``) and
    its leaderboard path ``results/<dataset>:<version>/<date>_<agent>_<model>/<run>/results.json``
    -> BenchRun. The leaderboard stores a score per agent + model pair under one dataset
    version, so all three come from the path. FormatChanged when ``accuracy`` is missing
    or the path does not have that layout."""
    if not isinstance(doc, dict) or number(doc.get("accuracy")) is None:
        raise FormatChanged(f"{path}: results.json has no 'accuracy'")
    parts = [p for p in path.split("/") if p]
    try:
        i = parts.index("results")
        dataset, version = parts[i + 1].rsplit(":", 1)
        _date, agent, model = parts[i + 2].split("_", 2)
    except (ValueError, IndexError):
        raise FormatChanged(
            f"{path}: not results/<dataset>:<version>/<date>_<agent>_<model>/..."
        ) from None
    acc = number(doc["accuracy"])
    assert acc is not None
    resolved = int(doc.get("n_resolved") or 0)
    total = resolved + int(doc.get("n_unresolved") or 0)
    return BenchRun(dataset, version, agent, model, acc * 100, resolved, total)
