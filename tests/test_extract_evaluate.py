"""Scoring of candidates against hand labels (claims.extract.evaluate), with made-up labels."""

from __future__ import annotations

from claims.extract.evaluate import matches, same_value, score_article, summarize

SPEC = {
    "subject": "m1",
    "lang": "en",
    "claims": [
        {"attribute": "total_params", "value": 7e10},
        {"attribute": "benchmark_score", "benchmark": ["MATH-500", "MATH"], "value": 97.3},
        {"attribute": "context_window", "value": [128000, 131072]},
    ],
    "optional": [{"attribute": "release_date", "value": "2025-01"}],
    "must_not": [{"attribute": "benchmark_score", "value": [60.0]}],
}


def _c(attr, value, subject="m1", how="clause", **q):
    return {"subject": subject, "attribute": attr, "qualifiers": q, "value": value, "how": how}


def test_value_rules():
    assert same_value(72.0, 70) is False
    assert same_value(70.6, 70.0) is True and same_value(71.5, 70.0) is False
    assert same_value(100.9, 100) is True
    assert same_value("2025-01-20", "2025-01") is True
    assert same_value("2025-02-20", "2025-01") is False
    assert same_value("Apache-2.0", "apache 2.0") is True


def test_benchmark_words_must_all_be_in_the_qualifiers():
    label = SPEC["claims"][1]
    assert matches(label, _c("benchmark_score", {"value": "97.3"}, benchmark="MATH"), "m1")
    assert not matches(label, _c("benchmark_score", {"value": "97.3"}, benchmark="GPQA"), "m1")
    assert not matches(
        label, _c("benchmark_score", {"value": "97.3"}, subject="m2", benchmark="MATH"), "m1"
    )


def test_article_score_and_tallies():
    cands = [
        _c("total_params", {"value": "70000000000"}),
        _c("benchmark_score", {"value": "60"}, how="default", benchmark="MATH"),
        _c("release_date", {"date": "2025-01-20"}, how="sentence"),
        _c("context_window", {"value": "131072"}, subject="m2"),
    ]
    s = score_article("a.txt", SPEC, cands)
    assert (s.expected, s.found, len(s.on_subject), s.matched) == (3, 1, 3, 2)
    assert [m["attribute"] for m in s.misses] == ["benchmark_score", "context_window"]
    assert [c["value"] for c in s.extras] == [{"value": "60"}]
    assert len(s.violations) == 1 and s.elsewhere == 1
    total = summarize([s], {"a.txt": SPEC})
    assert (total.total.recall(), total.total.precision()) == (1 / 3, 2 / 3)
    assert total.by_how["default"].violations == 1
    assert (total.by_how["clause"].expected, total.by_how["clause"].found) == (1, 1)
    assert total.by_how["default"].precision() == 0.0
    assert total.by_attribute["total_params"].recall() == 1.0
    assert total.by_attribute["context_window"].recall() == 0.0
