"""Adapters by kind: each turns one fetched response into observed values (pure).

Look one up with :func:`tracker.adapters.base.get_adapter`, which imports a built-in
adapter's module on first use (``base.BUILTIN``); :func:`adapter_kinds` imports them all.
"""

from __future__ import annotations

from tracker.adapters.base import (
    Adapter,
    ObservedValue,
    ParseResult,
    adapter_kinds,
    get_adapter,
    register,
)
from tracker.net.response import Fetched

__all__ = [
    "Adapter",
    "Fetched",
    "ObservedValue",
    "ParseResult",
    "adapter_kinds",
    "get_adapter",
    "register",
]
