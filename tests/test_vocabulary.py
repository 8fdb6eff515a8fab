"""Labels for people: one per attribute and per discrepancy rule, kept in claims/vocabulary.py."""

from __future__ import annotations

from claims.compare import RULES
from claims.vocabulary import (
    ATTRIBUTE_LABELS,
    ATTRIBUTES,
    RULE_LABELS,
    attribute_label,
    attribute_phrase,
    rule_label,
)


def test_every_attribute_and_rule_has_exactly_one_label():
    assert set(ATTRIBUTE_LABELS) == set(ATTRIBUTES)
    assert set(RULE_LABELS) == set(RULES)
    assert all("_" not in label for label in [*ATTRIBUTE_LABELS.values(), *RULE_LABELS.values()])


def test_labels_read_as_words():
    assert attribute_label("benchmark_score") == "Benchmark score"
    assert attribute_phrase("weights_release_date") == "open-weights date"
    assert rule_label("same_value_different_version") == (
        "the same score reported for two versions of a benchmark"
    )
    assert attribute_label("new_thing") == "New thing"  # unknown names still read
    assert rule_label("new_rule") == "new rule"
