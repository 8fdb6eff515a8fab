"""Where a Hub ``config.json`` keeps the language model's own settings.

Multimodal wrappers nest the text model's config under ``text_config`` (e.g. Llama 4,
Gemma 3), ``language_config`` or ``llm_config`` (InternVL); ``vision_config`` is never
the language model's (cases/C03 A: its 1024 is not the context window).
"""

from __future__ import annotations

from typing import Any

TEXT_SCOPES: tuple[str, ...] = ("text_config", "language_config", "llm_config")


def config_scopes(config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``[("", config), ("text_config.", {...}), ...]``: the top level first, then each
    nested text config present (a dict), with the key-path prefix a reading names."""
    scopes: list[tuple[str, dict[str, Any]]] = [("", config)]
    for key in TEXT_SCOPES:
        sub = config.get(key)
        if isinstance(sub, dict):
            scopes.append((key + ".", sub))
    return scopes
