"""Measured speed and served precision per provider (OpenRouter endpoints), Artificial
Analysis' per-provider speed, price and context window (``aa_providers``), and what a
claimant's own page states (``claimant_page``).

Each calls a pure reader in claims/readings (endpoints, aa_providers, statements).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from claims.readings.aa_providers import ProviderReading, read_aa_model
from claims.readings.boards import FormatChanged
from claims.readings.endpoints import STATISTIC, read_endpoints
from claims.readings.prices import INPUT_ATTR, MAX_PLAUSIBLE_USD_PER_MTOK, OUTPUT_ATTR
from claims.readings.statements import StatementSpecError, find_statements
from claims.values.value import quantity, with_extra
from claims.verify.statements import STATED_BY
from tracker.adapters.base import ObservedValue, ParseResult, register
from tracker.adapters.html_page import page_text
from tracker.adapters.prices import listed_on, variant_qualifier
from tracker.errors import ConfigError, LayoutChanged
from tracker.net.response import Fetched

WINDOW = "last 30 min"
AA = "Artificial Analysis"


@register(
    "endpoint_speeds", "GET /api/v1/models/{id}/endpoints: tokens/s and precision per provider"
)
def parse_endpoint_speeds(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """One model's endpoints (:func:`claims.readings.endpoints.read_endpoints`) ->
    per provider ``output_tokens_per_second`` (p50 of the last 30 minutes, exact) and
    ``weights_precision_bits`` (from ``quantization``), qualifiers ``provider``,
    ``endpoint`` (tag), ``statistic``, ``window``, ``measured_by`` = OpenRouter; watch
    param ``variants`` adds ``variant`` by model id as for ``openrouter_models``;
    ``data.created`` gives ``release_date`` (the listing day, as ``openrouter_models``).
    ``subject_ref`` is ``("openrouter", model id)``. An endpoint without throughput
    gives no speed. LayoutChanged for another shape.
    """
    try:
        model, created, endpoints = read_endpoints(fetched.json(), fetched.final_url)
    except FormatChanged as exc:
        raise LayoutChanged(str(exc)) from exc
    base = model.partition(":")[0]
    ref = ("openrouter", base)
    values: list[ObservedValue] = []
    listed = listed_on(created)
    if listed is not None:
        values.append(ObservedValue(ref, "release_date", listed, variant_qualifier(params, model)))
    for ep in endpoints:
        q = {"provider": ep.provider, "endpoint": ep.tag, "measured_by": "OpenRouter"}
        q.update(variant_qualifier(params, model))
        if ep.tps is not None and ep.tps > 0:
            v = quantity(ep.tps, "tokens_per_second", exact=True)
            tq = {**q, "statistic": STATISTIC, "window": WINDOW}
            values.append(ObservedValue(ref, "output_tokens_per_second", v, tq))
        if ep.bits is not None:
            v = with_extra(quantity(Decimal(ep.bits), "bits", exact=True), label=ep.quantization)
            values.append(ObservedValue(ref, "weights_precision_bits", v, q))
    return ParseResult(values=values)


@register(
    "aa_providers",
    "Artificial Analysis GET /api/v2/language/models/{slug}: per-provider tokens/s, prices, context",
)
def parse_aa_providers(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """One model's detail (:func:`claims.readings.aa_providers.read_aa_model`; the
    ``providers`` list is Commercial tier only) -> per provider, ``subject_ref``
    ``("artificial_analysis", slug)``:

    - ``output_tokens_per_second`` for each published statistic (``p5``, ``p25``,
      ``median``, ``p75``, ``p95``; exact), qualifiers ``provider``, ``statistic``,
      ``prompt_length`` (AA's prompt option: the response's, else the URL's
      ``prompt_type``, else ``medium``), ``parallel_queries`` when stated,
      ``measured_by`` = Artificial Analysis; the median carries the p5 and p95 in
      ``extra`` (the spread a reason shows);
    - ``price_input_usd_per_mtok`` / ``price_output_usd_per_mtok`` (USD per 1M, exact;
      above :data:`~claims.readings.prices.MAX_PLAUSIBLE_USD_PER_MTOK` a warning
      instead) and ``context_window`` (tokens), qualifier ``provider``.

    Watch param ``variants`` adds ``variant`` by slug, as for ``endpoint_speeds``. Nulls
    give nothing. LayoutChanged naming the field for a renamed field, a missing
    ``providers`` list (the message names the key's tier) or another model's answer.
    """
    query = dict(parse_qsl(urlsplit(fetched.url).query))
    slug = urlsplit(fetched.url).path.rstrip("/").rsplit("/", 1)[-1]
    try:
        model = read_aa_model(fetched.json(), fetched.final_url, slug, query.get("prompt_type"))
    except FormatChanged as exc:
        tier = fetched.headers.get("x-aa-tier")
        raise LayoutChanged(f"{exc}" + (f" (X-AA-Tier: {tier})" if tier else "")) from exc
    ref = ("artificial_analysis", model.slug)
    conditions = {"prompt_length": model.prompt, "measured_by": AA}
    if model.parallel is not None:
        conditions["parallel_queries"] = model.parallel
    values: list[ObservedValue] = []
    warnings: list[str] = []
    for p in model.providers:
        q = {"provider": p.name, **variant_qualifier(params, model.slug)}
        values.extend(_aa_speeds(ref, p, {**q, **conditions}))
        for attr, price in ((INPUT_ATTR, p.price_input), (OUTPUT_ATTR, p.price_output)):
            if price is None or price < 0:
                continue
            if price > MAX_PLAUSIBLE_USD_PER_MTOK:
                warnings.append(
                    f"{fetched.final_url}: {p.name} {attr} {price} implausible; rejected"
                )
                continue
            values.append(ObservedValue(ref, attr, quantity(price, "usd_per_mtok", exact=True), q))
        if p.context_tokens is not None and p.context_tokens > 0:
            ctx = quantity(p.context_tokens, "tokens", exact=True)
            values.append(ObservedValue(ref, "context_window", ctx, q))
    if not model.providers:
        warnings.append(f"{fetched.final_url}: no provider serves {model.slug}")
    return ParseResult(values=values, warnings=warnings)


def _aa_speeds(
    ref: tuple[str, str], p: ProviderReading, q: Mapping[str, str]
) -> list[ObservedValue]:
    spread = {k: str(p.speeds[k]) for k in ("p5", "p95") if k in p.speeds}
    out = []
    for stat, tps in p.speeds.items():
        v = quantity(tps, "tokens_per_second", exact=True)
        if stat == "median" and spread:
            v = with_extra(v, **spread)
        out.append(ObservedValue(ref, "output_tokens_per_second", v, {**q, "statistic": stat}))
    return out


@register("claimant_page", "A claimant's own page: which figures it states, quoted")
def parse_claimant_page(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """A claimant's own page (a vendor post) -> the figures it states
    (:func:`claims.readings.statements.find_statements`), each an observation of
    ``subject`` (param: a subject name or slug) qualified ``stated_by`` = param
    ``claimant``, the quote and its character span in the page text in ``extra``. Param
    ``statements``: list of ``{attribute, pattern, notation, unit, qualifiers}``;
    ``selector`` (optional) limits the text to the article. The verification reads them
    as the claimant's word (:mod:`claims.verify.statements`), never as a measurement.
    ConfigError for a missing param or a bad statement; LayoutChanged when the page is
    not the content.
    """
    claimant, subject = params.get("claimant"), params.get("subject")
    specs = params.get("statements")
    if not claimant or not subject or not isinstance(specs, list) or not specs:
        raise ConfigError(
            "claimant_page: params 'claimant', 'subject' and 'statements' are required"
        )
    try:
        text = page_text(fetched.body, params.get("selector"))
    except LayoutChanged as exc:
        raise LayoutChanged(f"{fetched.final_url}: {exc}") from exc
    try:
        found = find_statements(text, specs)
    except StatementSpecError as exc:
        raise ConfigError(f"claimant_page: {exc}") from exc
    values = [
        ObservedValue(
            ("name", str(subject)), f.attribute, f.value, {**f.qualifiers, STATED_BY: str(claimant)}
        )
        for f in found
    ]
    warnings = [] if values else [f"{fetched.final_url}: none of the statements found"]
    return ParseResult(values=values, warnings=warnings)
