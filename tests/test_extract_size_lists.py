"""Sibling sizes listed together, in sentences written for these tests: in an article on a
model named by family and size ("Orca 4 7B"), the other sizes of a list ("2B e 30B") are
siblings, never the subject's parameter count; the subject's own size in the list is its,
and so is a claim about the list jointly. Each asserts the exact candidates."""

from __future__ import annotations

import datetime as dt

import pytest

from claims.extract.extractor import extract
from claims.extract.size_lists import find_listed_sizes, find_own_listed_sizes, size_value
from claims.subjects.references import SubjectRef

DAY = dt.date(2026, 11, 29)
ORCA = SubjectRef("orca-4-7b", ("Orca 4 7B",), (), "Deepwater Labs")


def rows(text: str, lang: str = "auto"):
    return [
        (c.subject, c.attribute, c.value.display())
        for c in extract(text, [ORCA], lang=lang, published=DAY, default_subject="orca-4-7b")
        if c.subject
    ]


@pytest.mark.parametrize(
    ("size", "value"),
    [("11B", 11e9), ("1.5T", 1.5e12), ("90 bilhões", 90e9), ("3 billion", 3e9), ("orca", None)],
)
def test_size_value_reads_letter_and_scale_word(size, value):
    assert size_value(size) == value


def test_other_sizes_of_a_list_are_siblings_and_the_own_size_a_mention():
    text = "A família Orca 4 inclui modelos (2B e 30B) e modelos leves (1B, 7B e 13B)."
    assert [n.name for n in find_listed_sizes(text, {"orca", "4", "7b"})] == [
        "2B",
        "30B",
        "1B",
        "13B",
    ]
    own = find_own_listed_sizes(text, {"orca", "4", "7b"})
    assert [text[a:b] for a, b in own] == ["7B"]


def test_no_list_without_a_size_in_the_subject_name_nor_across_a_slash():
    assert find_listed_sizes("modelos 2B e 30B", {"orca", "4"}) == []
    assert find_listed_sizes("Orca 4 (17B/109B) chega hoje.", {"orca", "7b"}) == []


def test_a_family_launch_listing_sizes_gives_the_subject_only_its_own_size():
    text = (
        "Hoje a Deepwater Labs lança o Orca 4, que inclui modelos grandes (30B e 70B) "
        "e modelos leves (1B e 7B)."
    )
    assert rows(text, "pt") == [
        ("orca-4-7b", "release_date", "on 2026-11-29"),
        ("orca-4-7b", "total_params", "7B params"),
    ]


def test_a_claim_about_the_listed_sizes_jointly_reaches_the_subject():
    text = "Os modelos Orca 4 1B e 7B suportam uma janela de contexto de 64K tokens."
    assert rows(text, "pt") == [
        ("orca-4-7b", "total_params", "7B params"),
        ("orca-4-7b", "context_window", "64K tokens"),
    ]


def test_spelled_sizes_before_a_parameter_noun_are_siblings_too():
    text = "The Orca 4 line ships with 7 billion and 70 billion parameters."
    assert ("orca-4-7b", "total_params", "70B") not in rows(text, "en")


ORCA_90 = SubjectRef("orca-4-90b", ("Orca 4 90B",), (), "Deepwater Labs")


@pytest.mark.parametrize(
    ("text", "lang", "found"),
    [
        (
            "A Deepwater Labs lançou a família Orca 4. Os modelos variam de 1,5 bilhão a 90 "
            "bilhões de parâmetros.",
            "pt-BR",
            [("orca-4-90b", "total_params", "90B params")],
        ),
        (
            "Deepwater Labs released the Orca 4 family. The models range from 1.5 billion to "
            "90 billion parameters.",
            "en",
            [("orca-4-90b", "total_params", "90B params")],
        ),
        (  # neither end is the subject's size: a line-up says nothing of the subject
            "A Deepwater Labs lançou a família Orca 4. Os modelos variam de 1,5 bilhão a 70 "
            "bilhões de parâmetros.",
            "pt-BR",
            [],
        ),
    ],
)
def test_a_line_up_end_that_is_the_subjects_name_size_is_its_count(text, lang, found):
    got = [
        (c.subject, c.attribute, c.value.display())
        for c in extract(text, [ORCA_90], lang=lang, published=DAY, default_subject="orca-4-90b")
    ]
    assert got == found
