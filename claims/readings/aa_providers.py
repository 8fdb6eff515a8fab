"""Artificial Analysis' per-provider data of one language model (pure reader).

Format: ``GET https://artificialanalysis.ai/api/v2/language/models/{slug}`` (the detail
endpoint; key in header ``x-api-key``). Its item is the OpenAPI ``ModelDataExternal``
(the generated pydantic models shipped in the PyPI package artificial-analysis-cli 0.1.0,
``_generated/pydantic_gen.py``), in the envelope the list endpoints use: ``{tier,
intelligence_index_version, data}`` with ``data`` the one model (a body that is the
model object itself is read too: the CLI's OpenAPI snapshot does not include the detail
path, so its envelope is inferred). On the Commercial tier only, the item has
``providers[]`` = ``ModelProviderDataExternal`` ``{id, name, slug, pricing{
price_1m_input_tokens, price_1m_output_tokens, price_1m_blended_3_to_1, ...},
performance{percentile_05 / quartile_25 / median / quartile_75 / percentile_95
_output_tokens_per_second, ..._time_to_first_token_seconds, ...}, context_window_tokens}``.
Every field there is required and nullable: null means "not measured", a missing key is
a changed format.

AA measures under its stated prompt options: the legacy response states
``prompt_options{parallel_queries, prompt_length}`` (fixtures/real/
aa_llms_models_legacy_v2_data_doc_example.json: ``medium``, 1 query); the v2 endpoints
take ``prompt_type`` (``medium``, ``long``, ``100k``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from claims.readings.boards import FormatChanged, number

# Output-speed fields of ProviderModelPerformance -> the statistic they are, in order.
SPEED_FIELDS: tuple[tuple[str, str], ...] = (
    ("percentile_05_output_tokens_per_second", "p5"),
    ("quartile_25_output_tokens_per_second", "p25"),
    ("median_output_tokens_per_second", "median"),
    ("quartile_75_output_tokens_per_second", "p75"),
    ("percentile_95_output_tokens_per_second", "p95"),
)
PRICE_FIELDS: tuple[str, ...] = ("price_1m_input_tokens", "price_1m_output_tokens")
PROVIDER_FIELDS: tuple[str, ...] = ("name", "pricing", "performance", "context_window_tokens")
# The prompt length AA measures with when a response states none (the legacy default).
DEFAULT_PROMPT = "medium"


@dataclass(frozen=True)
class ProviderReading:
    """One provider serving the model: ``name``, ``slug``, output tokens/s by statistic
    (``p5``, ``p25``, ``median``, ``p75``, ``p95``; a null figure is absent), input and
    output USD per 1M tokens (None when null), ``context_tokens`` (None when null)."""

    name: str
    slug: str
    speeds: dict[str, Decimal]
    price_input: Decimal | None
    price_output: Decimal | None
    context_tokens: Decimal | None


@dataclass(frozen=True)
class AAModelReading:
    """The detail response: model ``slug``, the key's ``tier``, index ``version`` (as
    sent, None when absent), ``prompt`` (prompt length the measurements used),
    ``parallel`` (parallel queries, None when not stated) and the providers."""

    slug: str
    tier: str | None
    version: str | None
    prompt: str
    parallel: str | None
    providers: tuple[ProviderReading, ...]


def _model(doc: Any, where: str) -> dict[str, Any]:
    item = doc.get("data", doc) if isinstance(doc, dict) else None
    if isinstance(item, list):
        raise FormatChanged(
            f"{where}: 'data' is a list of models (the list endpoint); the detail "
            "endpoint /api/v2/language/models/{slug} answers with one model"
        )
    if not isinstance(item, dict) or not isinstance(item.get("slug"), str):
        raise FormatChanged(f"{where}: expected one model {{'data': {{'slug': ...}}}}")
    return item


def _provider(p: Any, i: int, where: str) -> ProviderReading:
    if not isinstance(p, dict):
        raise FormatChanged(f"{where}: providers[{i}] is not an object")
    for key in PROVIDER_FIELDS:
        if key not in p:
            raise FormatChanged(f"{where}: providers[{i}] has no '{key}'")
    perf, pricing = p["performance"], p["pricing"]
    if not isinstance(perf, dict) or not isinstance(pricing, dict):
        raise FormatChanged(f"{where}: providers[{i}] 'performance'/'pricing' not objects")
    name = str(p["name"])
    speeds: dict[str, Decimal] = {}
    for key, stat in SPEED_FIELDS:
        if key not in perf:
            raise FormatChanged(f"{where}: providers[{i}] ({name}) performance has no '{key}'")
        d = number(perf[key])
        if d is not None and d > 0:
            speeds[stat] = d
    for key in PRICE_FIELDS:
        if key not in pricing:
            raise FormatChanged(f"{where}: providers[{i}] ({name}) pricing has no '{key}'")
    return ProviderReading(
        name=name,
        slug=str(p.get("slug") or name),
        speeds=speeds,
        price_input=number(pricing["price_1m_input_tokens"]),
        price_output=number(pricing["price_1m_output_tokens"]),
        context_tokens=number(p["context_window_tokens"]),
    )


def read_aa_model(
    doc: Any, where: str = "", slug: str | None = None, prompt: str | None = None
) -> AAModelReading:
    """The detail response -> :class:`AAModelReading`.

    ``slug``: the one the URL asked for; a response about another model raises.
    ``prompt``: the ``prompt_type`` the request asked for; the response's
    ``prompt_options.prompt_length`` wins, and with neither it is :data:`DEFAULT_PROMPT`. Raises
    :class:`~claims.readings.boards.FormatChanged` naming the field when ``data`` is not
    one model, ``providers`` is absent (the message says which tier the key has: the
    list is Commercial tier only), a provider lacks ``name``, ``pricing``,
    ``performance`` or ``context_window_tokens``, or a speed percentile or price field
    is missing (renamed)."""
    if not isinstance(doc, dict):
        raise FormatChanged(f"{where}: expected a JSON object")
    item = _model(doc, where)
    if slug is not None and item["slug"] != slug:
        raise FormatChanged(f"{where}: asked for model {slug!r}, the answer is {item['slug']!r}")
    tier = doc.get("tier")
    tier = str(tier) if tier is not None else None
    providers = item.get("providers")
    if providers is None:
        raise FormatChanged(
            f"{where}: model {item['slug']!r} has no 'providers' (tier {tier or 'not stated'}); "
            "per-provider speed and price are Commercial tier only: TRACKER_AA_API_KEY "
            "must be a Commercial key"
        )
    if not isinstance(providers, list):
        raise FormatChanged(f"{where}: 'providers' is not a list")
    raw_opts = doc.get("prompt_options")
    opts: dict[str, Any] = raw_opts if isinstance(raw_opts, dict) else {}
    prompt_length = opts.get("prompt_length") or prompt or DEFAULT_PROMPT
    parallel = opts.get("parallel_queries")
    version = doc.get("intelligence_index_version")
    return AAModelReading(
        slug=item["slug"],
        tier=tier,
        version=None if version is None else str(version),
        prompt=str(prompt_length),
        parallel=None if parallel is None else str(parallel),
        providers=tuple(_provider(p, i, where) for i, p in enumerate(providers)),
    )
