"""Price tier conditions in one canonical form: a tiered table's row label and a condition
read from prose name the same tier, so their prices compare (and one tier never confirms
another). Labels are made up."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers_verify import cv

from claims.extract.extractor import extract
from claims.subjects.references import SubjectRef
from claims.values.tiers import canonical_condition
from claims.values.value import quantity
from claims.verify.compare import compare_claims, qualifiers_compatible


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("> 128,000 tokens", "> 128K tokens"),
        (">128K tokens", "> 128K tokens"),
        ("> 128k", "> 128K tokens"),
        ("> 128 thousand tokens", "> 128K tokens"),
        ("≥ 1,000,000 tokens", ">= 1M tokens"),
        (">= 200K context", ">= 200K tokens"),
        ("≤ 32,768 input tokens", "<= 32.768K tokens"),
        ("> 1.5M tokens", "> 1.5M tokens"),
        ("for  batch requests", "for batch requests"),
    ],
)
def test_a_condition_in_canonical_form(written, canonical):
    assert canonical_condition(written) == canonical


def test_a_tables_tier_and_the_same_tier_in_prose_compare():
    table = {"conditions": "> 128,000 tokens"}
    prose = {"conditions": "> 128K tokens"}
    assert qualifiers_compatible("price_input_usd_per_mtok", table, prose) == (True, "")
    a = cv(1, "price_input_usd_per_mtok", quantity("6", "usd_per_mtok"), q=table, source=1)
    b = cv(2, "price_input_usd_per_mtok", quantity("9", "usd_per_mtok"), q=prose, source=2)
    assert compare_claims(a, b).rule == "values_disagree"
    other = {"conditions": "> 200K tokens"}
    assert qualifiers_compatible("price_input_usd_per_mtok", table, other)[0] is False


def test_prose_and_a_tiered_table_give_the_same_condition():
    ref = SubjectRef("nova-2", ("Nova 2",), (), "Vega Systems")
    day = dt.date(2026, 11, 30)
    table = (
        "Nova 2 bills by prompt length.\n\n"
        "Request Size | Input Price (per 1M tokens) |\n---|---|\n"
        "≤ 128,000 tokens | $2.00 |\n> 128,000 tokens | $4.00 |\n"
    )
    prose = "Nova 2 costs $2 per million input tokens, or $4 for prompts over 128K tokens."
    conds = [
        [c.qualifiers.get("conditions") for c in extract(t, [ref], lang="en", published=day)]
        for t in (table, prose)
    ]
    assert conds == [[None, "> 128K tokens"], [None, "> 128K tokens"]]
