"""Controlled names from DESIGN.md: attributes (with units), verdict statuses, source kinds.

Every table, template and adapter uses these names; loaders reject anything else.
"""

from __future__ import annotations

# attribute -> (value kinds allowed, unit for quantities or None)
ATTRIBUTES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "total_params": (("quantity", "range"), "params"),
    "active_params": (("quantity", "range"), "params"),
    "context_window": (("quantity",), "tokens"),
    "price_input_usd_per_mtok": (("quantity",), "usd_per_mtok"),
    "price_output_usd_per_mtok": (("quantity",), "usd_per_mtok"),
    "price_change_pct": (("quantity", "range"), "percent"),
    "release_date": (("date",), None),
    "weights_release_date": (("date",), None),
    "weights_available": (("boolean",), None),
    "license": (("text",), None),
    "output_tokens_per_second": (("quantity", "range"), "tokens_per_second"),
    "weights_precision_bits": (("quantity",), "bits"),
    "benchmark_score": (("quantity", "range"), None),
    "leaderboard_rank": (("quantity",), "rank"),
    "hardware_units": (("quantity",), None),
    # Ratios between variants ("2 a 3 vezes mais rápida"); qualifier `relative_to`.
    "speedup_factor": (("quantity", "range"), "times"),
    "price_factor": (("quantity", "range"), "times"),
    # Observed on a hub by tracker adapters (qualifier `repo`), rarely claimed:
    "gated": (("text",), None),  # the Hub's `gated`: "false", "auto" or "manual"
    "repo_created": (("date",), None),  # the Hub's `createdAt` (not the publication date)
    # safetensors element count as the Hub reports it, NOT quantization-aware (packed
    # INT4 in I32 counts 1/8); extra holds per-dtype counts. Never compared to claims.
    "hub_params_raw": (("quantity",), "params"),
    # sha256 (hex) of a repo's LICENSE file text, normalized by
    # claims.licenses.license_text_sha256; a new hash is a licence change.
    "license_text_sha256": (("text",), None),
}

# Qualifiers that make two figures of one attribute comparable.
QUALIFIERS: tuple[str, ...] = (
    "benchmark",
    "version",
    "leaderboard",
    "variant",
    "hardware",
    "conditions",
    "agent",
    "relative_to",
    "repo",
    "provider",
    "offering",
    "date",  # the day a rank or score was read off its board
    "side",  # which price a price_change_pct is about (input / output)
)

VERDICT_STATUSES: dict[str, str] = {
    "confirmed": "a primary-source observation agrees within the claim's stated precision",
    "contradicted": "a primary-source observation disagrees; the reason says by how much",
    "pending": "a promise whose date has not passed, with no evidence yet",
    "overdue": "a promise whose date has passed with no evidence",
    "unverified": "nothing observed can confirm or refute it",
    "disputed": "no observation, but sources disagree with each other",
}

SOURCE_KINDS: tuple[str, ...] = ("vendor", "press", "third_party", "hub", "pricing", "leaderboard")

DISCREPANCY_STATES: tuple[str, ...] = ("open", "resolved", "dismissed")
