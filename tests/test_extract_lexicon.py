"""Extraction's word lists as data files (claims.extract.lexicon): one negation list for
figures, dates and plans, per-language folders merged."""

from __future__ import annotations

import re

import pytest

from claims.extract.lexicon import LEXICON_DIR, alternation, patterns, words
from claims.extract.negation import negation


def test_every_language_has_the_same_lists():
    langs = sorted(p.name for p in LEXICON_DIR.iterdir() if p.is_dir())
    assert langs == ["en", "pt"]
    kinds = {lang: sorted(f.stem for f in (LEXICON_DIR / lang).glob("*.txt")) for lang in langs}
    assert (
        kinds["en"]
        == kinds["pt"]
        == [
            "absence",
            "attention_windows",
            "cached_price",
            "change",
            "comparison_openers",
            "date_windows",
            "gains",
            "licence_generic_words",
            "licence_under",
            "negation",
            "not_negating",
            "not_price_measures",
            "param_parts",
            "part_nouns",
            "previous",
            "quant_support",
            "refusals",
            "relations",
            "similes",
            "subjectless_openers",
            "time_phrases",
            "total_of",
            "training",
        ]
    )


def test_lists_merge_languages_longest_first():
    neg = words("negation")
    assert {"not", "never", "não", "nunca"} <= set(neg)
    assert [len(w) for w in neg] == sorted((len(w) for w in neg), reverse=True)
    assert re.fullmatch(alternation("not_negating"), "só")
    assert re.search(patterns("refusals"), "Moonshot declined to release it")
    with pytest.raises(FileNotFoundError, match="no lexicon/\\*/nope.txt"):
        words("nope")


@pytest.mark.parametrize(
    ("before", "found"),
    [
        ("It does not have", "not have"),
        ("O modelo não tem", "não tem"),
        ("It cannot exceed", "cannot exceed"),
        ("O modelo jamais teve", "jamais teve"),
        ("It has not only", None),
        ("O modelo não tem apenas", None),
    ],
)
def test_one_negation_list_for_figures(before, found):
    assert negation(before) == found


def test_a_language_can_be_asked_for_its_own_list_only():
    # English "no" is an absence word; in Portuguese "no" is "in the" ("no Hugging Face").
    assert "no" in words("absence") and "no" in words("absence", "en")
    assert "no" not in words("absence", "pt-BR")
    assert set(words("absence", "pt")) == {"não", "sem"}
    assert words("absence", "es") == words("absence")  # no folder: every language's
    assert re.fullmatch(alternation("absence", "pt"), "sem")
