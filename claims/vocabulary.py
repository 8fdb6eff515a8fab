"""Controlled names from DESIGN.md: attributes (with units), verdict statuses, source kinds.

Every table, template and adapter uses these names; loaders reject anything else.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    "leaderboard_rank": (("quantity", "range"), "rank"),
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
    # claims.readings.licenses.license_text_sha256; a new hash is a licence change.
    "license_text_sha256": (("text",), None),
}

# Physical ranges (issue 20): what a value of an attribute can be at all, as data beside
# the vocabulary. (attribute, unit) -> (lowest, highest, whether lowest itself is allowed);
# unit "*" is any unit not listed for the attribute. A number outside (a negative count, a
# zero context window, 10^400 parameters, a score of 1000 %) is not a reading but an
# error: adapters' values outside are parse errors (claims.values.physical.range_problem),
# never recorded or alerted. Generous on purpose: they catch garbage, not surprises.
PHYSICAL_RANGES: dict[tuple[str, str], tuple[str, str, bool]] = {
    ("total_params", "*"): ("0", "1e15", False),
    ("active_params", "*"): ("0", "1e15", False),
    ("hub_params_raw", "*"): ("0", "1e15", False),
    ("context_window", "*"): ("0", "1e10", False),
    ("price_input_usd_per_mtok", "*"): ("0", "1e5", True),
    ("price_output_usd_per_mtok", "*"): ("0", "1e5", True),
    ("price_change_pct", "*"): ("-100", "1e6", True),
    ("output_tokens_per_second", "*"): ("0", "1e7", True),
    ("weights_precision_bits", "*"): ("1", "64", True),
    ("benchmark_score", "percent"): ("0", "100", True),
    ("benchmark_score", "*"): ("-1e6", "1e6", True),
    ("leaderboard_rank", "*"): ("1", "1e7", True),
    ("hardware_units", "*"): ("0", "1e9", False),
    ("speedup_factor", "*"): ("0", "1e6", False),
    ("price_factor", "*"): ("0", "1e6", False),
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
# What `tracker discrepancies` lists a row as (and `--state` selects): the stored states
# plus "note", a different-subjects note, stored "dismissed" though nobody dismissed it
# (claims.store.review.shown_state).
NOTE_STATE = "note"
LISTED_DISCREPANCY_STATES: tuple[str, ...] = (*DISCREPANCY_STATES, NOTE_STATE)

# Labels for people (site, CLI text, alerts); exports, JSON and data files keep the names.
# No units: every value displays its own ("$0.45 per 1M tokens", "4 bits").
# One entry per ATTRIBUTES key (tests/test_vocabulary.py checks both lists match).
ATTRIBUTE_LABELS: dict[str, str] = {
    "total_params": "Total parameters",
    "active_params": "Active parameters",
    "context_window": "Context window",
    "price_input_usd_per_mtok": "Input price",
    "price_output_usd_per_mtok": "Output price",
    "price_change_pct": "Price change",
    "release_date": "Release date",
    "weights_release_date": "Open-weights date",
    "weights_available": "Weights available",
    "license": "Licence",
    "output_tokens_per_second": "Output speed",
    "weights_precision_bits": "Weight precision",
    "benchmark_score": "Benchmark score",
    "leaderboard_rank": "Leaderboard rank",
    "hardware_units": "Hardware units",
    "speedup_factor": "Speed-up factor",
    "price_factor": "Price factor",
    "gated": "Gated access",
    "repo_created": "Repo created",
    "hub_params_raw": "Hub parameter count (raw, packed)",
    "license_text_sha256": "Licence text hash",
}

# What each discrepancy rule (claims.verify.compare.RULES, stored in Discrepancy.rule) means, as
# a sentence fragment that reads after "open:" or "sources disagree:".
RULE_LABELS: dict[str, str] = {
    "values_disagree": "the stated values cannot both hold",
    "dates_disagree": "the stated dates cannot both hold",
    "date_relation_mismatch": "the same date with relations that exclude each other, e.g. “before” vs “on”",
    "same_value_different_version": "the same score reported for two versions of a benchmark",
    "contradicted_by_observation": "an observed value contradicts the claim",
    "different_subject": "figures about two different subjects (a note, not a conflict)",
}


# Qualifier keys as people read them, before ": value" ("relative to: kimi-k3").
# One entry per QUALIFIERS name (tests/test_vocabulary.py checks both lists match).
QUALIFIER_LABELS: dict[str, str] = {
    "benchmark": "benchmark",
    "version": "version",
    "leaderboard": "leaderboard",
    "variant": "variant",
    "hardware": "hardware",
    "conditions": "conditions",
    "agent": "agent",
    "relative_to": "relative to",
    "repo": "repo",
    "provider": "provider",
    "offering": "offering",
    "date": "as of",
    "side": "price side",
}


def label_from(labels: Mapping[str, str], name: str, *, capital: bool = False) -> str:
    """``labels[name]``; a name missing from it reads with spaces (capitalised when
    ``capital``), so a new name never shows as a snake_case id."""
    if name in labels:
        return labels[name]
    words = name.replace("_", " ")
    return words.capitalize() if capital else words


def attribute_label(name: str) -> str:
    """``benchmark_score`` -> ``Benchmark score``; an unknown name reads with spaces."""
    return label_from(ATTRIBUTE_LABELS, name, capital=True)


# A value's unit words that its attribute's label already says ("Total parameters
# 2.8T params" read the unit twice: a fresh-user trial of search): dropped where a label
# and a value are joined (:func:`labelled_value`).
UNIT_WORDS_IN_LABEL: dict[str, tuple[str, str]] = {
    # unit word at the end of a value's text: the label word that says it
    "params": (" params", "parameter"),
}


def labelled_value(name: str, value_text: str) -> str:
    """An attribute's label and a value's display text as one phrase, the unit said
    once: ``total_params``, ``2.8T params`` -> ``Total parameters 2.8T``;
    ``context_window``, ``1M tokens`` -> ``Context window 1M tokens`` (the label does
    not say "tokens"); every other kind (dates, text, prices) joined by a space."""
    label = attribute_label(name)
    unit = ATTRIBUTES.get(name, ((), None))[1]
    suffix, word = UNIT_WORDS_IN_LABEL.get(unit or "", ("", ""))
    if suffix and word in label.lower() and value_text.endswith(suffix):
        value_text = value_text[: -len(suffix)]
    return f"{label} {value_text}"


def attribute_phrase(name: str) -> str:
    """The label inside a sentence: ``no observation of the benchmark score``."""
    label = attribute_label(name)
    return label[0].lower() + label[1:]


def rule_label(name: str) -> str:
    """``same_value_different_version`` -> a sentence fragment saying what it means."""
    return label_from(RULE_LABELS, name)


def qualifier_label(name: str) -> str:
    """``relative_to`` -> ``relative to``; an unknown key reads with spaces."""
    return label_from(QUALIFIER_LABELS, name)


def qualifiers_text(qualifiers: Mapping[str, object]) -> str:
    """``{"benchmark": "Terminal-Bench", "version": "4.0"}`` -> ``benchmark:
    Terminal-Bench, version: 4.0`` (keys labelled and sorted): how people read them on
    the site, in the CLI and in event titles."""
    return ", ".join(f"{qualifier_label(k)}: {qualifiers[k]}" for k in sorted(qualifiers))


# A watch's state once its data file no longer defines it: never checked or scheduled
# again, its history kept (claims.store.curated; the cycle and the scheduler skip it).
RETIRED_STATE = "retired"
# ``last_error_kind`` a skipped watch got before schema revision 0006, which moved a
# skip to its own column (``watch.skip_reason``: a failing watch's error occupied
# ``last_error``, so its skip was lost); claims.watchstate still reads such a row as a skip.
SKIPPED_KIND = "skipped"
# A model watch's check whose answer was "no such public repo" (404, or 401 RepoNotFound)
# before the repo was ever seen: a successful check of a model tracked before release
# (stored as the watch's last_error_kind beside last_success; no failure, no retry).
NOT_PUBLIC_KIND = "not_public"
# A model watch's check whose answer was "no such public repo" AFTER the repo was seen
# public: an answered check (the fact "gone", a ``repo_disappeared``), not a failure that
# retries (network errors and 5xx still are). Stored like NOT_PUBLIC_KIND.
GONE_KIND = "gone"


def gated_value(stored: str | None) -> bool | str | None:
    """The Hub's ``gated`` as its API gives it, from the text an observation stores
    (``"false"``, ``"auto"``, ``"manual"``): ``False``, ``"auto"``, ``"manual"``; None
    when no watch read it. The one form of machine output: ``tracker status --json`` and
    the site's JSON and CSV exports (CSV writes ``false``)."""
    if stored is None:
        return None
    return False if stored == "false" else stored
