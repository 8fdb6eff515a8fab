"""Adapters by kind: each turns one fetched response into observed values (pure).

Importing this package registers the built-in adapters; look one up with
:func:`tracker.adapters.base.get_adapter`.
"""

from __future__ import annotations

from tracker.adapters import (  # noqa: F401  (importing registers the adapters)
    html_page,
    hub_files,
    huggingface,
    leaderboards,
    prices,
)
from tracker.adapters.base import (
    Adapter,
    Fetched,
    ObservedValue,
    ParseResult,
    adapter_kinds,
    get_adapter,
    register,
)

__all__ = [
    "Adapter",
    "Fetched",
    "ObservedValue",
    "ParseResult",
    "adapter_kinds",
    "get_adapter",
    "register",
]
