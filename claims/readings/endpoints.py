"""OpenRouter's per-provider endpoints of one model -> measured speed and served precision
(pure reader).

Format: ``GET https://openrouter.ai/api/v1/models/{author}/{slug}/endpoints``
(openrouter.ai/docs, ListEndpointsResponse / PublicEndpoint; snake_case on the wire):
``{"data": {id, name, created, endpoints: [{name, provider_name, tag, quantization,
context_length, max_prompt_tokens, pricing{prompt, completion}, status,
uptime_last_30m, latency_last_30m{p50, p75, p90, p99}, throughput_last_30m{p50, ...}}]}}``.
Throughput is output tokens per second over the last 30 minutes, by percentile.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from claims.readings.boards import FormatChanged, number

# quantization label -> bits per weight (OpenRouter's documented values).
QUANT_BITS: dict[str, int] = {
    "int4": 4,
    "fp4": 4,
    "int8": 8,
    "fp8": 8,
    "fp6": 6,
    "fp16": 16,
    "bf16": 16,
    "fp32": 32,
}
# Percentile reported as the measurement (the median).
STATISTIC = "p50"


@dataclass(frozen=True)
class EndpointReading:
    """One provider endpoint: ``provider``, ``tag`` (the endpoint id), ``tps`` (p50 output
    tokens/s over the last 30 minutes, None when not reported), ``bits`` (from
    ``quantization``; None when ``unknown`` or absent)."""

    provider: str
    tag: str
    tps: Decimal | None
    bits: int | None
    quantization: str | None


def read_endpoints(doc: Any, where: str = "") -> tuple[str, Any, list[EndpointReading]]:
    """(model id, ``created`` as sent (Unix seconds), its endpoints). FormatChanged when ``data.endpoints`` is not a list or
    an endpoint has no ``provider_name`` (a renamed field)."""
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict) or not isinstance(data.get("endpoints"), list):
        raise FormatChanged(f"{where}: expected {{'data': {{'endpoints': [...]}}}}")
    model = str(data.get("id") or "")
    out: list[EndpointReading] = []
    for i, ep in enumerate(data["endpoints"]):
        if not isinstance(ep, dict) or not isinstance(ep.get("provider_name"), str):
            raise FormatChanged(f"{where}: endpoint {i} has no provider_name")
        tp = ep.get("throughput_last_30m")
        tps = number(tp.get(STATISTIC)) if isinstance(tp, dict) else None
        quant = ep.get("quantization")
        bits = QUANT_BITS.get(str(quant).lower()) if isinstance(quant, str) else None
        tag = str(ep.get("tag") or ep["provider_name"])
        out.append(EndpointReading(ep["provider_name"], tag, tps, bits, quant))
    return model, data.get("created"), out
