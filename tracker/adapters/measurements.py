"""Measured speed and served precision per provider (OpenRouter endpoints), and what a
claimant's own page states (``claimant_page``).

Both call pure readers in claims/readings (endpoints, statements).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from claims.readings.boards import FormatChanged
from claims.readings.endpoints import STATISTIC, read_endpoints
from claims.readings.statements import StatementSpecError, find_statements
from claims.values.value import quantity, with_extra
from claims.verify.statements import STATED_BY
from tracker.adapters.base import ObservedValue, ParseResult, register
from tracker.adapters.html_page import page_text
from tracker.adapters.prices import listed_on, variant_qualifier
from tracker.errors import ConfigError, LayoutChanged
from tracker.net.response import Fetched

WINDOW = "last 30 min"


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
