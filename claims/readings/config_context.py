"""Context window of a checkpoint: ``config.json`` -> ContextReading (cases/C03).

Reads the language model's own length, never a vision tower's. A YaRN rope scaling
block (``factor`` x ``original_max_position_embeddings``) is read as the extended
window the config enables, kept beside the native one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from claims.readings.config_scopes import config_scopes
from claims.values.value import Value

# Length keys, in preference order, of one config scope.
LENGTH_KEYS: tuple[str, ...] = ("max_position_embeddings", "n_positions", "max_sequence_length")
# Rope scaling types that extend the usable window by factor x original length.
EXTENDING_ROPE_TYPES: tuple[str, ...] = ("yarn", "longrope", "dynamic")


@dataclass(frozen=True)
class ContextReading:
    """``tokens`` is None when unknown, with ``reason``; ``provenance`` is the key path read.

    ``native`` is the plain ``max_position_embeddings`` when a rope-scaling block
    extended it (then ``tokens`` is the extended window)."""

    tokens: int | None
    provenance: str | None
    reason: str | None = None
    native: int | None = None


def _int(x: Any) -> int | None:
    if isinstance(x, bool) or not isinstance(x, int) or x <= 0:
        return None
    return x


def _rope_extended(scope: dict[str, Any]) -> tuple[int, str] | None:
    rope = scope.get("rope_scaling")
    if not isinstance(rope, dict):
        return None
    kind = str(rope.get("rope_type") or rope.get("type") or "").lower()
    factor = rope.get("factor")
    original = _int(rope.get("original_max_position_embeddings"))
    if kind not in EXTENDING_ROPE_TYPES or original is None:
        return None
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or factor <= 1:
        return None
    return int(original * factor), f"rope_scaling({kind}).factor x original_max_position_embeddings"


def context_window(config: dict[str, Any] | None) -> ContextReading:
    """Context window in tokens from a Hugging Face ``config.json`` (cases/C03).

    Order: the top level's ``max_position_embeddings`` (or ``n_positions`` /
    ``max_sequence_length``) wins when it is a positive integer (C03 B: 131072); else the
    same keys in ``text_config`` / ``language_config`` / ``llm_config`` (C03 A: 262144 from
    ``text_config.max_position_embeddings``, never ``vision_config``'s 1024); else
    ``model_max_length`` (C03 C: 1048576). Nothing found -> ``tokens=None`` with a reason,
    never a default number.

    YaRN decision: when the chosen scope has ``rope_scaling`` of type yarn/longrope/dynamic
    with ``factor`` and ``original_max_position_embeddings``, the window is
    max(max_position_embeddings, factor x original); DeepSeek-V3 (40 x 4096 = 163840)
    agrees with its own ``max_position_embeddings``; a config that only enables YaRN in
    ``rope_scaling`` gets the extended length, with ``native`` kept.
    """
    if not config:
        return ContextReading(None, None, "no config.json")
    scopes = config_scopes(config)
    for prefix, scope in scopes:
        for key in LENGTH_KEYS:
            n = _int(scope.get(key))
            if n is None:
                continue
            ext = _rope_extended(scope)
            if ext is not None and ext[0] > n:
                return ContextReading(ext[0], prefix + ext[1], native=n)
            return ContextReading(n, prefix + key)
    for prefix, scope in scopes:
        n = _int(scope.get("model_max_length"))
        if n is not None:
            return ContextReading(n, prefix + "model_max_length")
    for prefix, scope in scopes:
        ext = _rope_extended(scope)
        if ext is not None:
            return ContextReading(ext[0], prefix + ext[1])
    keys = ", ".join(LENGTH_KEYS + ("model_max_length",))
    return ContextReading(None, None, f"none of {keys} found at the top level or in text_config")


def context_value(reading: ContextReading) -> Value | None:
    """The observed ``context_window`` value (exact tokens, ``extra`` = provenance and the
    native length when rope scaling extended it); None when the window is unknown."""
    if reading.tokens is None:
        return None
    n = Decimal(reading.tokens)
    extra: dict[str, Any] = {"provenance": reading.provenance}
    if reading.native is not None:
        extra["native"] = reading.native
    return Value(kind="quantity", value=n, unit="tokens", low=n, high=n, extra=extra)
