"""Labels for people: one per attribute and per discrepancy rule, kept in claims/vocabulary.py."""

from __future__ import annotations

from claims.events import EVENT_KINDS, EVENT_LABELS, event_label
from claims.readings.hub_params import METHOD_PHRASES, method_phrase
from claims.verify.compare import RULES
from claims.vocabulary import (
    ATTRIBUTE_LABELS,
    ATTRIBUTES,
    QUALIFIER_LABELS,
    QUALIFIERS,
    RULE_LABELS,
    attribute_label,
    attribute_phrase,
    qualifier_label,
    rule_label,
)


def test_every_attribute_and_rule_has_exactly_one_label():
    assert set(ATTRIBUTE_LABELS) == set(ATTRIBUTES)
    assert set(RULE_LABELS) == set(RULES)
    assert all("_" not in label for label in [*ATTRIBUTE_LABELS.values(), *RULE_LABELS.values()])


def test_every_event_kind_qualifier_and_count_method_has_one_label():
    assert set(EVENT_LABELS) == set(EVENT_KINDS)
    assert set(QUALIFIER_LABELS) == set(QUALIFIERS)
    assert set(METHOD_PHRASES) == {
        "declared_total",
        "derived_packed",
        "element_count",
        "lower_bound",
    }
    labels = [*EVENT_LABELS.values(), *QUALIFIER_LABELS.values(), *METHOD_PHRASES.values()]
    assert all("_" not in label for label in labels)


def test_labels_read_as_words():
    assert attribute_label("benchmark_score") == "Benchmark score"
    assert attribute_phrase("weights_release_date") == "open-weights date"
    assert rule_label("same_value_different_version") == (
        "the same score reported for two versions of a benchmark"
    )
    assert attribute_label("new_thing") == "New thing"  # unknown names still read
    assert rule_label("new_rule") == "new rule"
    assert event_label("verdict_changed") == "Verdict changed"
    assert event_label("new_kind") == "New kind"
    assert qualifier_label("relative_to") == "relative to"
    assert qualifier_label("new_key") == "new key"
    assert (
        method_phrase("derived_packed") == "the Hub count is derived from packed quantized weights"
    )
