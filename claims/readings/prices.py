"""Prices: OpenRouter strings, LiteLLM floats and vendor page text -> USD per 1M tokens.

Decimal only, never float arithmetic (cases/C07, C08). Input and output prices are
separate attributes; ``-1`` is a dynamic price (no number); a ``:free`` id is its own
offering; a per-token field holding an implausible figure is a unit error, rejected.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from claims.values.numbers import bounded_decimal
from claims.values.value import Value, normalize_decimal

MTOK = Decimal(1_000_000)
# Above this many USD per 1M tokens a "per token" figure is read as a unit error (a
# per-1K or per-1M figure in a per-token field), not a price: the dearest text models
# list about 600 USD per 1M output tokens; C08 B gives 45,000. The one cap of the project.
MAX_PLAUSIBLE_USD_PER_MTOK = Decimal(1000)
DYNAMIC = "dynamic"
# OpenRouter's sentinel for "price decided per request" (router/auto): no number.
DYNAMIC_PRICE = "-1"
INPUT_ATTR = "price_input_usd_per_mtok"
OUTPUT_ATTR = "price_output_usd_per_mtok"


@dataclass(frozen=True)
class OfferingPrice:
    """Input/output price of one offering in USD per 1M tokens.

    ``offering`` is the full id (``acme/orca-9b:free`` is distinct from ``acme/orca-9b``);
    ``base_id`` drops the ``:suffix``. ``None`` prices are unknown or ``dynamic``.
    """

    offering: str
    base_id: str
    input: Decimal | None
    output: Decimal | None
    dynamic: bool = False
    warnings: tuple[str, ...] = field(default_factory=tuple)


def _dec(raw: Any) -> Decimal | None:
    if raw is None or isinstance(raw, bool):
        return None
    if isinstance(raw, float):
        raw = repr(raw)  # shortest round-trip text: 5.7e-07, never 5.69999...e-07
    return bounded_decimal(raw)  # "1e999999999" would overflow the per-1M product


def per_token_to_per_mtok(raw: Any) -> Decimal | None:
    """USD per token (OpenRouter string ``"0.00000057"`` or LiteLLM float ``5.7e-07``) ->
    USD per 1M tokens, exactly (``Decimal("0.57")``); ``None`` when not a finite number."""
    d = _scaled(raw)
    return None if d is None else normalize_decimal(d)


def _scaled(raw: Any) -> Decimal | None:
    """USD per token -> USD per 1M as the figure's own digits give it (``0.57000000``):
    observations keep that form, so a stored value reads the same on every cycle."""
    d = _dec(raw)
    return None if d is None else d * MTOK


def usd_per_mtok(raw: Any, label: str) -> tuple[Decimal | None, str | None]:
    """One per-token price field -> (USD per 1M tokens, None), or (None, warning).

    The one conversion and plausibility check every price reader and adapter uses:
    unreadable or negative figures, and figures above :data:`MAX_PLAUSIBLE_USD_PER_MTOK`
    (a unit error, cases/C08), give no price and a warning starting with ``label``
    (e.g. ``"litellm acme/orca-9b: input_cost_per_token"``)."""
    value = _scaled(raw)
    if value is None or value < 0:
        return None, f"{label}: unreadable price {raw!r}"
    if value > MAX_PLAUSIBLE_USD_PER_MTOK:
        return None, (
            f"{label} {raw} is {value:f} USD per 1M tokens, implausible; rejected as a unit error"
        )
    return value, None


def _check(raw: Any, label: str, warnings: list[str]) -> Decimal | None:
    value, warning = usd_per_mtok(raw, label)
    if warning:
        warnings.append(warning)
    return None if value is None else normalize_decimal(value)


def openrouter_price(item: dict[str, Any]) -> OfferingPrice:
    """One item of OpenRouter ``GET /api/v1/models`` ``data[]`` (``pricing.prompt`` /
    ``pricing.completion``: USD per token as strings) -> USD per 1M (C07).

    ``"-1"`` on both sides means a dynamic price (the router picks the model): no number.
    ``"0"`` is a real price of zero (``:free`` offerings)."""
    offering = str(item.get("id", ""))
    pricing = item.get("pricing") or {}
    warnings: list[str] = []
    raw_in, raw_out = pricing.get("prompt"), pricing.get("completion")
    if str(raw_in).strip() == DYNAMIC_PRICE or str(raw_out).strip() == DYNAMIC_PRICE:
        return OfferingPrice(offering, offering.split(":")[0], None, None, True, ())
    inp = _check(raw_in, f"openrouter {offering}: prompt", warnings)
    out = _check(raw_out, f"openrouter {offering}: completion", warnings)
    return OfferingPrice(offering, offering.split(":")[0], inp, out, False, tuple(warnings))


def litellm_price(key: str, entry: dict[str, Any]) -> OfferingPrice | None:
    """One entry of LiteLLM ``model_prices_and_context_window.json``
    (``input_cost_per_token`` / ``output_cost_per_token``: floats, USD per token) -> USD per
    1M (C08 B: 0.045/token is 45,000 per 1M, rejected with a warning, not stored).

    ``sample_spec`` (documentation) and ``alias_of`` entries (no price) give ``None``."""
    if key == "sample_spec" or "alias_of" in entry:
        return None
    warnings: list[str] = []
    inp = _check(
        entry.get("input_cost_per_token"), f"litellm {key}: input_cost_per_token", warnings
    )
    out = _check(
        entry.get("output_cost_per_token"), f"litellm {key}: output_cost_per_token", warnings
    )
    return OfferingPrice(key, key.split(":")[0], inp, out, False, tuple(warnings))


_UNIT_WORDS = {
    "1m": MTOK,
    "million": MTOK,
    "milhão": MTOK,
    "milhao": MTOK,
    "mtok": MTOK,
    "1k": Decimal(1000),
    "thousand": Decimal(1000),
    "mil": Decimal(1000),
    "token": Decimal(1),
}
_PRICE_RE = re.compile(
    r"(?:US)?\$\s*(?P<num>\d+(?:[.,]\d+)*)\s*(?:/|per|por)\s*(?P<unit>1M|1K|million|milhão|"
    r"milhao|thousand|mil|token)\b[^$]*?\b(?P<side>input|output|entrada|saída|saida)",
    re.IGNORECASE,
)


def _delocalize(num: str) -> str:
    if "," in num and "." not in num:
        return num.replace(",", ".")
    return num.replace(",", "")


def parse_price_text(text: str) -> dict[str, Decimal]:
    """Vendor pricing page text -> {"input": ..., "output": ...} in USD per 1M tokens.

    Reads "$0.45 per 1M input tokens", "$0.57 / 1M input tokens" and Portuguese
    "US$ 0,0032 por mil tokens de entrada" (per thousand x 1,000; decimal comma), C07/C08.
    """
    out: dict[str, Decimal] = {}
    for m in _PRICE_RE.finditer(text):
        per = _UNIT_WORDS[m.group("unit").lower()]
        side = m.group("side").lower()
        key = "input" if side in ("input", "entrada") else "output"
        price = Decimal(_delocalize(m.group("num"))) * (MTOK / per)
        out.setdefault(key, normalize_decimal(price))
    return out


def price_value(usd_per_mtok: Decimal) -> Value:
    """An observed price as an exact quantity in ``usd_per_mtok``."""
    return Value(
        kind="quantity",
        value=usd_per_mtok,
        unit="usd_per_mtok",
        low=usd_per_mtok,
        high=usd_per_mtok,
    )


@dataclass(frozen=True)
class PricePoint:
    """One price in force from ``effective_from`` until ``effective_to`` (None: still)."""

    value: Decimal
    effective_from: dt.datetime
    effective_to: dt.datetime | None


def price_history(readings: Iterable[tuple[Decimal, dt.datetime, dt.datetime]]) -> list[PricePoint]:
    """(price, first_seen, last_seen) of one offering and attribute -> history, oldest first.

    A change of price is a new point, never an overwrite: the previous point ends when
    the next one was first seen. A price that returns to an older value is a new point."""
    rows = sorted(readings, key=lambda r: r[1])
    points: list[PricePoint] = []
    for i, (value, first, _last) in enumerate(rows):
        if points and points[-1].value == value:
            continue
        nxt = next((r[1] for r in rows[i + 1 :] if r[0] != value), None)
        points.append(PricePoint(value, first, nxt))
    return points


def price_change_pct(old: Decimal, new: Decimal) -> Decimal:
    """Percent change from ``old`` to ``new`` (negative for a cut), to 0.1 %."""
    if old == 0:
        raise ZeroDivisionError("price change from a zero price has no percentage")
    return ((new - old) / old * 100).quantize(Decimal("0.1"))


# LiteLLM's long-context tier fields: ``input_cost_per_token_above_200k_tokens`` (BerriAI/
# litellm model_prices_and_context_window.json; the threshold is in thousands of tokens).
TIER_FIELD = re.compile(r"^(input|output)_cost_per_token_above_(\d+)k_tokens$")


@dataclass(frozen=True)
class PriceTier:
    """A higher rate above a prompt-length threshold: ``side`` input/output, ``above``
    the threshold in tokens, ``usd_per_mtok`` the rate. The threshold is a billing
    boundary, never a context window (cases/C24)."""

    side: str
    above: int
    usd_per_mtok: Decimal

    @property
    def label(self) -> str:
        """``above 200K tokens`` (the ``tier`` qualifier)."""
        return f"above {self.above // 1000}K tokens"


def litellm_tiers(entry: dict[str, Any]) -> list[PriceTier]:
    """Every long-context tier of a LiteLLM entry, sorted by side and threshold; a
    field holding no number is skipped."""
    out = []
    for key, raw in entry.items():
        m = TIER_FIELD.match(str(key))
        per_mtok = per_token_to_per_mtok(raw) if m else None
        if m and per_mtok is not None and per_mtok >= 0:
            out.append(PriceTier(m.group(1), int(m.group(2)) * 1000, per_mtok))
    return sorted(out, key=lambda t: (t.side, t.above))


def catalogue_context(entry: dict[str, Any]) -> Value | None:
    """``context_window`` from a price catalogue entry (cases/C24): ``max_input_tokens`` is
    an input limit, and the window holds input and output, so the window lies between
    ``max_input_tokens`` and ``max_input_tokens + max_output_tokens`` (GPT-5: 272,000 +
    128,000 = 400,000; Moonshot lists input = output = the window). The value is the input
    limit with that interval and both figures in ``extra``. The legacy ``max_tokens``
    alone gives None: it has meant the output limit in some entries and the window in
    others."""
    max_in, max_out = entry.get("max_input_tokens"), entry.get("max_output_tokens")
    if isinstance(max_in, bool) or not isinstance(max_in, int) or max_in <= 0:
        return None
    high = max_in
    if isinstance(max_out, int) and not isinstance(max_out, bool) and max_out > 0:
        high = max_in + max_out
    n = Decimal(max_in)
    note = f"the catalogue's input limit {max_in:,}" + (
        f" + output limit {max_out:,} = {high:,}: a context window holds both"
        if high > max_in
        else ""
    )
    return Value(
        kind="quantity",
        value=n,
        unit="tokens",
        low=n,
        high=Decimal(high),
        extra={"max_input_tokens": max_in, "max_output_tokens": max_out, "context_note": note},
    )
