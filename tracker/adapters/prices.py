"""Price adapters: OpenRouter's model list and the LiteLLM community price map.

Both state USD per token; observations are USD per 1M tokens, computed with Decimal
from the figure's own text so 0.00000057 gives exactly 0.57 (cases/C07, C08).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from claims.readings.prices import DYNAMIC_PRICE, catalogue_context, litellm_tiers, usd_per_mtok
from claims.values.value import Value, date_value, quantity, with_extra
from tracker.adapters.base import ObservedValue, ParseResult, register
from tracker.errors import LayoutChanged
from tracker.net.jsonbody import load_json
from tracker.net.response import Fetched

log = logging.getLogger(__name__)


def variant_qualifier(params: Mapping[str, Any], key: str) -> dict[str, str]:
    """Watch param ``variants`` maps a source id to a subject variant (``Highspeed``),
    added as qualifier ``variant``; the id's alias points at the subject itself."""
    variants = params.get("variants") or {}
    name = variants.get(key) if isinstance(variants, Mapping) else None
    return {"variant": name} if isinstance(name, str) and name else {}


def _price(per_mtok: Decimal, per_token_text: str) -> Value:
    return with_extra(quantity(per_mtok, "usd_per_mtok", exact=True), per_token=per_token_text)


def listed_on(created: Any) -> Value | None:
    """``created`` (Unix seconds) -> ``release_date`` "on" that UTC day, the time the
    model was listed on the API (``extra``: the timestamp); None when not an integer."""
    if isinstance(created, bool) or not isinstance(created, int) or created <= 0:
        return None
    moment = dt.datetime.fromtimestamp(created, tz=dt.UTC)
    return with_extra(date_value(moment.date().isoformat(), "on"), created=moment.isoformat())


@register("openrouter_models", "GET /api/v1/models: prices per 1M tokens, context, HF id")
def parse_openrouter(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """``GET https://openrouter.ai/api/v1/models`` (``{"data": [...]}``; openrouter.ai/docs).

    Per item, ``subject_ref`` is ``("openrouter", id without ":suffix")`` with
    ``hugging_face_id`` as an alternative Hub ref. A ``:free`` / ``:exacto`` suffix is a
    distinct offering: qualifier ``offering`` (never merged with the base id; C07).
    ``pricing.prompt`` / ``completion`` (strings, USD per token) give
    ``price_input_usd_per_mtok`` / ``price_output_usd_per_mtok`` exactly; ``"-1"``
    (dynamic) and negative or unreadable prices give no observation; ``context_length``
    gives ``context_window``; ``created`` gives ``release_date`` (the day the base id
    was listed, :func:`listed_on`). Watch param ``variants`` adds qualifier ``variant``.
    Raises LayoutChanged when there is no ``data`` list.
    """
    doc = fetched.json()
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, list):
        raise LayoutChanged(f"{fetched.final_url}: expected {{'data': [...]}} of models")
    values: list[ObservedValue] = []
    warnings: list[str] = []
    for item in data:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise LayoutChanged(f"{fetched.final_url}: a model item has no id")
        base, _, offering = item["id"].partition(":")
        ref = ("openrouter", base)
        hf = item.get("hugging_face_id")
        alt = (("huggingface", hf),) if isinstance(hf, str) and hf else ()
        q = {"offering": offering} if offering else {}
        q.update(variant_qualifier(params, base))
        pricing = p if isinstance(p := item.get("pricing"), dict) else {}
        for field, attribute in (
            ("prompt", "price_input_usd_per_mtok"),
            ("completion", "price_output_usd_per_mtok"),
        ):
            raw = pricing.get(field)
            if raw is None or str(raw).strip() == DYNAMIC_PRICE:
                continue
            per_mtok, warning = usd_per_mtok(raw, f"openrouter {item['id']}: {field}")
            if per_mtok is None:
                warnings.append(warning or "")
                continue
            values.append(
                ObservedValue(ref, attribute, _price(per_mtok, str(raw)), q, alt_refs=alt)
            )
        ctx = item.get("context_length")
        if isinstance(ctx, int) and not isinstance(ctx, bool) and ctx > 0:
            v = quantity(Decimal(ctx), "tokens", exact=True)
            values.append(ObservedValue(ref, "context_window", v, q, alt_refs=alt))
        created = listed_on(item.get("created"))
        if created is not None and not offering:
            values.append(ObservedValue(ref, "release_date", created, q, alt_refs=alt))
    for w in warnings:
        log.warning("%s", w)
    return ParseResult(values=values, warnings=warnings)


LITELLM_MODES = frozenset({"chat", "completion", "responses"})


@register("litellm_prices", "LiteLLM model_prices_and_context_window.json: prices per 1M")
def parse_litellm(fetched: Fetched, params: Mapping[str, Any]) -> ParseResult:
    """LiteLLM's ``model_prices_and_context_window.json`` (BerriAI/litellm; entry format
    in fixtures/real/litellm_model_prices_moonshot_excerpt.json).

    Per text-model entry (``mode`` chat/completion/responses): ``subject_ref`` is
    ``("litellm", key)``, qualifier ``provider`` = ``litellm_provider``;
    ``input_cost_per_token`` / ``output_cost_per_token`` (USD per token, read exactly
    from the JSON text) -> USD per 1M, and each long-context tier
    (``input_cost_per_token_above_200k_tokens``) the same way with qualifier ``tier``
    (``above 200K tokens``); ``max_input_tokens`` (+ ``max_output_tokens``) ->
    ``context_window`` as :func:`claims.readings.prices.catalogue_context` reads it (C24).
    ``sample_spec`` (documentation) and ``alias_of`` entries are skipped. A figure above
    :data:`claims.readings.prices.MAX_PLAUSIBLE_USD_PER_MTOK` per 1M is a unit error: no observation, a
    warning instead (cases/C08). Watch param ``variants`` adds qualifier ``variant``
    (``{"moonshot/kimi-k3.1-pro-highspeed" = "Highspeed"}``). Raises ParseError for a
    body that is not a JSON object.
    """
    doc = load_json(fetched.body, fetched.final_url, parse_float=Decimal)
    if not isinstance(doc, dict):
        raise LayoutChanged(f"{fetched.final_url}: expected a JSON object of models")
    values: list[ObservedValue] = []
    warnings: list[str] = []
    for key, entry in doc.items():
        if key == "sample_spec" or not isinstance(entry, dict) or "alias_of" in entry:
            continue
        if entry.get("mode") not in LITELLM_MODES:
            continue
        ref = ("litellm", key)
        provider = entry.get("litellm_provider")
        q = {"provider": provider} if isinstance(provider, str) and provider else {}
        q.update(variant_qualifier(params, key))
        for field, attribute in (
            ("input_cost_per_token", "price_input_usd_per_mtok"),
            ("output_cost_per_token", "price_output_usd_per_mtok"),
        ):
            raw = entry.get(field)
            if raw is None:
                continue
            # JSON numbers only (read as exact Decimals): a string here is a layout change
            number = raw if isinstance(raw, (Decimal, int)) else None
            per_mtok, warning = usd_per_mtok(number, f"litellm {key}: {field}")
            if per_mtok is None:
                warnings.append(
                    warning
                    if warning and number is not None
                    else f"litellm {key}: unreadable {field} {raw!r}"
                )
                continue
            values.append(ObservedValue(ref, attribute, _price(per_mtok, str(raw)), q))
        ctx = catalogue_context(entry)
        if ctx is not None:
            values.append(ObservedValue(ref, "context_window", ctx, q))
        for tier in litellm_tiers(entry):
            attribute = (
                "price_input_usd_per_mtok" if tier.side == "input" else "price_output_usd_per_mtok"
            )
            v = with_extra(quantity(tier.usd_per_mtok, "usd_per_mtok", exact=True), tier=tier.label)
            values.append(ObservedValue(ref, attribute, v, {**q, "tier": tier.label}))
    for w in warnings:
        log.warning("%s", w)
    return ParseResult(values=values, warnings=warnings)
