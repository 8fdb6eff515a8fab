"""Extraction's word lists as data files (claims.extract.lexicon): one negation list for
figures, dates and plans, per-language folders merged."""

from __future__ import annotations

import re

import pytest

from claims.extract.lexicon import LEXICON_DIR, alternation, patterns, phrases, words
from claims.extract.negation import negation


def test_every_language_has_the_same_lists():
    langs = sorted(p.name for p in LEXICON_DIR.iterdir() if p.is_dir())
    assert langs == ["en", "pt"]
    kinds = {lang: sorted(f.stem for f in (LEXICON_DIR / lang).glob("*.txt")) for lang in langs}
    assert kinds["en"] == kinds["pt"]
    assert {"negation", "comparison_verbs", "release_cues", "stop_caps"} <= set(kinds["en"])


def _kinds() -> list[str]:
    return sorted({f.stem for f in LEXICON_DIR.rglob("*.txt")})


@pytest.mark.parametrize("kind", _kinds())
def test_every_list_loads_and_is_used_by_code(kind):
    # No orphan list: some module of claims/ loads it (words("kind"), alternation('kind'),
    # phrases, patterns) or opens "kind.txt".
    lines = words(kind)
    assert all(w == w.strip() and not w.startswith("#") for w in lines)
    for f in LEXICON_DIR.rglob(f"{kind}.txt"):  # each file says what it is for
        assert f.read_text(encoding="utf-8").startswith("# "), f
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in (LEXICON_DIR.parents[1]).rglob("*.py")
    )
    loaded = rf"""\b(?:words|alternation|phrases|patterns)\(\s*["']{kind}["']|\b{kind}\.txt\b"""
    assert re.search(loaded, source)


def test_a_list_empty_in_one_language_still_loads_the_other():
    # English says "behind", "ahead of" (comparison_markers); only Portuguese lists positions.
    assert "à frente" in words("comparison_positions")
    assert words("comparison_positions", "en") == ()


def test_a_language_neutral_list_is_read_from_the_lexicon_folder():
    assert "Verified" in words("benchmark_variants")
    assert re.fullmatch(alternation("hardware_units"), "GPUs")


def test_phrases_match_any_white_space_between_words():
    assert re.fullmatch(phrases("comparison_markers"), "ahead\n of")
    assert re.fullmatch(phrases("comparison_markers"), "frente  aos")
    assert not re.fullmatch(alternation("comparison_markers"), "ahead\n of")


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
