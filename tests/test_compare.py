"""Claims against claims (claims/verify/compare.py): comparability and conflict rules."""

from __future__ import annotations

from helpers_verify import cv

from claims.values.value import date_value, quantity, value_range
from claims.verify.compare import (
    compare_claims,
    date_window,
    find_conflicts,
    find_cross_subject_notes,
    group_facts,
    qualifiers_compatible,
    same_fact,
    values_conflict,
)

TB = {"benchmark": "Terminal-Bench"}


def p657():
    return quantity("65.7", "percent")


def test_same_score_two_benchmark_versions_is_a_discrepancy():
    a = cv(1, "benchmark_score", p657(), q={**TB, "version": "4.0"}, source=1)
    b = cv(2, "benchmark_score", p657(), q={**TB, "version": "3.0"}, source=2)
    check = compare_claims(a, b)
    assert check.rule == "same_value_different_version"
    assert check.reason == (
        "65.7% reported for Terminal-Bench 4.0 by Moonshot AI via source 1 and for "
        "Terminal-Bench 3.0 by Moonshot AI via source 2: one of the versions is wrong"
    )


def test_different_scores_under_different_versions_are_not_comparable():
    a = cv(1, "benchmark_score", p657(), q={**TB, "version": "4.0"})
    b = cv(2, "benchmark_score", quantity("50.1", "percent"), q={**TB, "version": "3.0"})
    check = compare_claims(a, b)
    assert (check.comparable, check.rule) == (False, None)
    assert check.reason == "different benchmark versions (4.0 vs 3.0)"


def test_agent_benchmark_needs_same_agent():
    a = cv(1, "benchmark_score", p657(), q={**TB, "version": "2.0", "agent": "Terminus 2"})
    b = cv(
        2,
        "benchmark_score",
        quantity("40", "percent"),
        q={**TB, "version": "2.0", "agent": "Codex CLI"},
    )
    assert compare_claims(a, b).reason == "different agent (Terminus 2 vs Codex CLI)"
    c = cv(
        3,
        "benchmark_score",
        quantity("40", "percent"),
        q={**TB, "version": "2.0", "agent": "Terminus 2"},
    )
    assert compare_claims(a, c).rule == "values_disagree"


def test_rank_only_on_same_board_and_date():
    board = {"leaderboard": "AA Intelligence Index"}
    r4 = cv(1, "leaderboard_rank", quantity("4", "rank", exact=True), q=board, stated="2026-10-26")
    r3 = cv(2, "leaderboard_rank", quantity("3", "rank", exact=True), q=board, stated="2026-11-20")
    assert compare_claims(r4, r3).reason == "different date (2026-10-26 vs 2026-11-20)"
    r3same = cv(
        3, "leaderboard_rank", quantity("3", "rank", exact=True), q=board, stated="2026-10-26"
    )
    assert compare_claims(r4, r3same).rule == "values_disagree"
    undated = cv(4, "leaderboard_rank", quantity("3", "rank", exact=True), q=board)
    assert compare_claims(r4, undated).reason == "date not stated on both sides"
    other = cv(
        5,
        "leaderboard_rank",
        quantity("3", "rank", exact=True),
        q={"leaderboard": "Code Arena WebDev"},
        stated="2026-10-26",
    )
    assert (
        compare_claims(r4, other).reason
        == "different leaderboard (AA Intelligence Index vs Code Arena WebDev)"
    )


def test_before_and_on_the_same_date_are_different_promises():
    on = cv(1, "weights_release_date", date_value("2026-11-04", "on"), source=2)
    before = cv(2, "weights_release_date", date_value("2026-11-04", "before"), source=1)
    check = compare_claims(before, on)
    assert check.rule == "date_relation_mismatch"
    assert check.reason == (
        "“before 2026-11-04” vs “on 2026-11-04”: different promises (last day 2026-11-03 vs "
        "2026-11-04) (Moonshot AI via source 1 vs Moonshot AI via source 2)"
    )
    by = cv(3, "weights_release_date", date_value("2026-11-04", "by"))
    assert compare_claims(by, on).rule is None
    later = cv(4, "weights_release_date", date_value("2026-11-10", "on"))
    assert compare_claims(on, later).rule == "dates_disagree"


def test_date_windows():
    import datetime as d

    assert date_window(date_value("2026-11-04", "before")) == (None, d.date(2026, 11, 3))
    assert date_window(date_value("2026-11", "on", precision="month")) == (
        d.date(2026, 11, 1),
        d.date(2026, 11, 30),
    )
    assert date_window(date_value("2026-11-04", "after")) == (d.date(2026, 11, 5), None)


def test_precision_decides_numeric_conflicts():
    m = cv(1, "total_params", quantity("2.8", "params", scale=10**12))
    about3 = cv(2, "total_params", quantity("3", "params", scale=10**12, approx=True), claimant="X")
    assert compare_claims(m, about3).rule is None
    one = cv(3, "total_params", quantity("1", "params", scale=10**12))
    check = compare_claims(m, one)
    assert check.rule == "values_disagree"
    assert check.reason.startswith(
        "2.8T params (2.75T–2.85T params) vs 1T params (500B–1.5T params): intervals do not "
        "overlap (the figures differ by 1.8T params; the intervals' nearest ends are 1.25T "
        "params apart)"
    )


def test_open_top_range_is_a_lower_bound_at_the_top():
    rng = cv(
        1,
        "output_tokens_per_second",
        value_range(1000, 2000, "tokens_per_second", open_high=True),
        claimant="Cerebras",
        q={"variant": "Highspeed"},
    )
    big = cv(
        2,
        "output_tokens_per_second",
        quantity("5000", "tokens_per_second"),
        q={"variant": "Highspeed"},
    )
    assert compare_claims(rng, big).rule is None
    small = cv(
        3,
        "output_tokens_per_second",
        quantity("500", "tokens_per_second"),
        q={"variant": "Highspeed"},
    )
    assert compare_claims(rng, small).rule == "values_disagree"
    std = cv(
        4,
        "output_tokens_per_second",
        quantity("500", "tokens_per_second"),
        q={"variant": "Standard"},
    )
    assert compare_claims(rng, std).reason == "different variant (Highspeed vs Standard)"


def test_cerebras_about_3t_for_k3_is_never_compared_with_k31_pro():
    moonshot = cv(1, "total_params", quantity("2.8", "params", scale=10**12), subject=1, source=7)
    cerebras = cv(
        2,
        "total_params",
        quantity("3", "params", scale=10**12, approx=True),
        subject=2,
        source=7,
        claimant="Cerebras",
    )
    check = compare_claims(cerebras, moonshot)
    assert (check.comparable, check.rule) == (False, None)
    assert check.reason == (
        "different subjects (kimi-k3 vs kimi-k3.1-pro): never compared; the intervals overlap "
        "anyway (about 3T params (2T–4T params) vs 2.8T params (2.75T–2.85T params))"
    )
    assert find_conflicts([moonshot, cerebras]) == []
    (note,) = find_cross_subject_notes([moonshot, cerebras])
    assert (note.rule, note.state, note.claim_ids) == ("different_subject", "dismissed", (1, 2))
    assert note.reason.startswith("not a conflict: different subjects (kimi-k3.1-pro vs kimi-k3)")


def test_sources_repeating_one_side_join_one_discrepancy_with_a_stable_key():
    on1 = cv(1, "weights_release_date", date_value("2026-11-04", "on"), source=2)
    before = cv(2, "weights_release_date", date_value("2026-11-04", "before"), source=1)
    (f,) = find_conflicts([on1, before])
    on2 = cv(3, "weights_release_date", date_value("2026-11-04", "on"), source=3)
    (g,) = find_conflicts([on1, before, on2])
    assert g.claim_ids == (1, 2, 3)
    assert g.key == f.key and g.rule == "date_relation_mismatch"


def test_qualifier_missing_on_one_side_is_unknown_not_different():
    assert qualifiers_compatible("total_params", {"variant": "Standard"}, {}) == (True, "")
    assert qualifiers_compatible("benchmark_score", {"benchmark": "X"}, {}) == (
        False,
        "benchmark not stated on both sides",
    )


def test_a_price_tier_is_compared_only_with_the_same_tier():
    over = {"conditions": "> 200K tokens"}
    base = cv(1, "price_input_usd_per_mtok", quantity("3", "usd_per_mtok"), source=1)
    tier = cv(2, "price_input_usd_per_mtok", quantity("6", "usd_per_mtok"), q=over, source=2)
    check = compare_claims(base, tier)
    assert (check.comparable, check.rule) == (False, None)
    assert check.reason == "different conditions (base tier vs > 200K tokens)"
    assert find_conflicts([base, tier]) == []
    other = cv(3, "price_input_usd_per_mtok", quantity("9", "usd_per_mtok"), q=over, source=3)
    assert compare_claims(tier, other).rule == "values_disagree"
    # Elsewhere a condition missing on one side stays unknown, not different.
    assert qualifiers_compatible("output_tokens_per_second", over, {}) == (True, "")


def test_one_claimant_ranking_two_models_needs_no_note():
    board = {"leaderboard": "Code Arena WebDev"}
    r8 = cv(1, "leaderboard_rank", quantity("8", "rank"), q=board, claimant="Code Arena", source=3)
    r17 = cv(
        2,
        "leaderboard_rank",
        quantity("17", "rank"),
        subject=2,
        q=board,
        claimant="Code Arena",
        source=3,
    )
    assert find_cross_subject_notes([r8, r17]) == []
    assert find_conflicts([r8, r17]) == []


def test_a_side_of_several_claims_names_every_source():
    """Two articles say 'on 2026-11-04', one 'before': the reason named only the first
    of the two, so a three-source discrepancy read as two sources."""
    before = cv(1, "weights_release_date", date_value("2026-11-04", "before"), source=1)
    on_b = cv(2, "weights_release_date", date_value("2026-11-04", "on"), source=2)
    on_c = cv(3, "weights_release_date", date_value("2026-11-04", "on"), source=3)
    [finding] = find_conflicts([before, on_b, on_c])
    assert finding.claim_ids == (1, 2, 3)
    assert finding.reason.endswith(
        "(Moonshot AI via source 1 vs Moonshot AI via source 2 and source 3)"
    )
    other = cv(4, "weights_release_date", date_value("2026-11-04", "on"), source=4,
               claimant="A reporter")  # fmt: skip
    [mixed] = find_conflicts([before, on_b, other])
    assert mixed.reason.endswith(
        "(Moonshot AI via source 1 vs Moonshot AI via source 2 and A reporter via source 4)"
    )


def test_whole_numbers_read_without_their_half_unit_interval():
    """A trial: two exact context windows read "512K tokens (≈512.00K (511,999.5)
    tokens–≈512.00K (512,000.5) tokens) vs … (apart by ≈256.00K (255,999.0) tokens)"."""
    from decimal import Decimal

    from claims.values.value import quantity

    a, b = quantity(Decimal(512000), "tokens"), quantity(Decimal(256000), "tokens")
    assert values_conflict("context_window", a, b) == (
        "values_disagree",
        "512K tokens vs 256K tokens: different whole numbers (apart by 256K tokens)",
    )
    rounded = quantity("2.8", "params", scale=10**12), quantity("1", "params", scale=10**12)
    assert values_conflict("total_params", *rounded)[1] == (
        "2.8T params (2.75T–2.85T params) vs 1T params (500B–1.5T params): intervals do "
        "not overlap (the figures differ by 1.8T params; the intervals' nearest ends are "
        "1.25T params apart)"
    )


def test_two_speeds_are_apart_by_their_difference_not_their_intervals_gap():
    """210 vs 250 tokens/s differ by 40; only the intervals' nearest ends (210.5 and
    249.5) are 39 apart, and the reason says which is which."""
    a, b = quantity("210", "tokens/s"), quantity("250", "tokens/s")
    reason = values_conflict("output_speed_tps", a, b)[1]
    assert (
        "the figures differ by 40 tokens/s; the intervals' nearest ends are 39 "
        "tokens/s apart" in reason
    )


def test_a_span_note_only_where_the_interval_says_more_than_the_figure():
    """A trial read "256K (262,144) tokens (256K–256K (262,144) tokens)" in a verdict."""
    from decimal import Decimal

    from claims.verify.compare import span_note

    assert span_note(quantity(Decimal(262144), "tokens", exact=True)) == ""
    assert span_note(quantity(Decimal(512000), "tokens")) == ""
    assert span_note(quantity("10", "usd_per_mtok")) == " ($9.50–$10.50 per 1M tokens)"
    assert span_note(quantity("2.8", "params", scale=10**12)) == " (2.75T–2.85T params)"


# -- one fact, many sources (same_fact / group_facts) ------------------------------


def test_same_figure_at_two_precisions_is_one_fact():
    ten = quantity("10", "usd_per_mtok")
    ten_cents = quantity("10.00", "usd_per_mtok")
    assert same_fact("price_output_usd_per_mtok", {}, ten, {}, ten_cents)
    assert same_fact("price_output_usd_per_mtok", {}, ten_cents, {}, ten)


def test_overlapping_but_different_figures_are_two_facts():
    exact = quantity("2.8", "params", scale=10**12)
    about = quantity("3", "params", scale=10**12, approx=True)
    assert not same_fact("total_params", {}, exact, {}, about)
    assert not same_fact("total_params", {}, about, {}, exact)


def test_qualifiers_and_date_relations_split_facts():
    tb4 = {**TB, "version": "4.0"}
    tb4_spaced = {"benchmark": " terminal-bench ", "version": "4.0"}
    assert same_fact("benchmark_score", tb4, p657(), tb4_spaced, p657())
    assert not same_fact("benchmark_score", tb4, p657(), {**TB, "version": "3.0"}, p657())
    on, before = date_value("2026-11-04"), date_value("2026-11-04", "before")
    assert same_fact("weights_release_date", {}, on, {}, date_value("2026-11-04"))
    assert not same_fact("weights_release_date", {}, on, {}, before)
    # a missing offering is the standard one; Highspeed is another offering
    two = quantity("2", "usd_per_mtok")
    assert same_fact("price_input_usd_per_mtok", {}, two, {"variant": "Standard"}, two)
    assert not same_fact("price_input_usd_per_mtok", {}, two, {"variant": "Highspeed"}, two)


def test_group_facts_keeps_first_seen_order_and_every_member():
    items = [
        ("a", {}, quantity("10", "usd_per_mtok")),
        ("b", {}, quantity("12", "usd_per_mtok")),
        ("c", {}, quantity("10.00", "usd_per_mtok")),
        ("d", {"variant": "Highspeed"}, quantity("10", "usd_per_mtok")),
    ]
    groups = group_facts("price_output_usd_per_mtok", items, lambda i: (i[1], i[2]))
    assert [[i[0] for i in g] for g in groups] == [["a", "c"], ["b"], ["d"]]


def _ctx(text: str):
    from claims.values.stated import parse_stated

    return parse_stated(text, "context_window")


def test_one_figure_in_two_notations_is_one_side_of_one_discrepancy():
    # "256K" and "256,000" state one fact: against "1M" they are one discrepancy
    # listing the three claims, not one per notation (issue 17 item 6)
    a = cv(1, "context_window", _ctx("256K"), source=1, claimant="Press A")
    b = cv(2, "context_window", _ctx("256000"), source=2, claimant="Press B")
    c = cv(3, "context_window", _ctx("1M"), source=3, claimant="Vendor")
    found = find_conflicts([a, b, c])
    assert [(f.rule, f.claim_ids) for f in found] == [("values_disagree", (1, 2, 3))]
    assert "(Press A via source 1 and Press B via source 2 vs Vendor via source 3)" in (
        found[0].reason
    )
    # the key is the first claims' sides: the same as without the second source
    assert found[0].key == find_conflicts([a, c])[0].key


def test_grouping_notations_never_hides_a_conflict_between_two_figures():
    # 256K may be read 262,144 or 256,000, but those two differ: that conflict stays
    a = cv(1, "context_window", _ctx("256K"), source=1)
    b = cv(2, "context_window", _ctx("262144"), source=2)
    c = cv(3, "context_window", _ctx("256000"), source=3)
    found = find_conflicts([a, b, c])
    assert [(f.rule, f.claim_ids) for f in found] == [("values_disagree", (1, 2, 3))]
    assert found[0].reason.startswith(
        "256K (262,144) tokens vs 256K tokens: different whole numbers (apart by 6K (6,144) "
    )


def test_two_percentages_differ_by_percentage_points_not_percent():
    """78.4% vs 81.2% differ by 2.8 percentage points (2.8% would be 2.8% of 78.4);
    the intervals' nearest ends (78.45 and 81.15) are 2.7 points apart."""
    reason = values_conflict(
        "benchmark_score", quantity("78.4", "percent"), quantity("81.2", "percent")
    )[1]
    assert reason == (
        "78.4% (78.35–78.45%) vs 81.2% (81.15–81.25%): intervals do not overlap (the "
        "figures differ by 2.8 points; the intervals' nearest ends are 2.7 points apart)"
    )
    one = values_conflict(
        "benchmark_score", quantity("70.0", "percent"), quantity("71.0", "percent")
    )
    assert "differ by 1 point;" in one[1]
