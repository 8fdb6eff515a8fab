"""The subject card's lines (tracker/website/summary.py CardLine): "sources disagree"
follows the discrepancy rule (claims.verify.compare.values_conflict), so figures that
can all hold read as agreeing, showing the most precise of them."""

from __future__ import annotations

import datetime as dt

from claims.values.value import Value, date_value, quantity
from tracker.website.cardhtml import observed_cell, stated_cell
from tracker.website.summary import SPEED, card_lines, make_fact, table_cells
from tracker.website.views import Cell, ClaimView, ObservationView, SourceInfo, VerdictView


def _claim(n: int, attribute: str, value: Value, shown: str) -> ClaimView:
    source = SourceInfo(n, f"s{n}", f"Source {n}", None, None, None, None, "article")
    verdict = (
        VerdictView("pending", "not yet due", None, [], []) if attribute.endswith("date") else None
    )
    return ClaimView(
        n, 1, "fict", "Fict 1", attribute, "", {}, shown, value.to_dict(),
        None, None, None, None, source, verdict, f"c{n}",
    )  # fmt: skip


def _line(*claims: ClaimView):
    (line,) = card_lines([make_fact([c]) for c in claims], [])
    return line


def test_compatible_open_weights_dates_agree_and_show_the_most_precise():
    line = _line(
        _claim(1, "weights_release_date", date_value("2027-01", "by", precision="month"), "by 2027-01"),
        _claim(2, "weights_release_date", date_value("2027-01-15"), "on 2027-01-15"),
        _claim(3, "weights_release_date", date_value("2027-01", precision="month"), "on 2027-01"),
    )  # fmt: skip
    assert line.agreed
    assert (line.text, line.sources, line.status) == ("on 2027-01-15", 3, "pending")


def test_dates_that_cannot_both_hold_still_disagree():
    line = _line(
        _claim(1, "weights_release_date", date_value("2027-01", "by", precision="month"), "by 2027-01"),
        _claim(2, "weights_release_date", date_value("2027-02-03"), "on 2027-02-03"),
    )  # fmt: skip
    assert not line.agreed
    assert line.text == "by 2027-01 vs on 2027-02-03"


def test_overlapping_figures_agree_on_the_narrower_and_sort_by_it():
    line = _line(
        _claim(1, "total_params", quantity("3", "params", scale=10**12, approx=True), "about 3T"),
        _claim(2, "total_params", quantity("2.8", "params", scale=10**12), "2.8T params"),
    )
    assert line.agreed
    assert (line.text, line.number) == ("2.8T params", 2.8e12)


# The best-supported value (summary.best_supported): observed, else confirmed, else
# agreed, else the live claims' spread; a contradicted claim only noted beside it.
AT = dt.datetime(2026, 11, 29, 14, 5, tzinfo=dt.UTC)


def _observed(n: int, attribute: str, value: Value, shown: str) -> ObservationView:
    return ObservationView(
        n, attribute, "", {}, shown, value.to_dict(), AT, AT, "w", None, None, attribute
    )


def _judged(claim: ClaimView, status: str, *evidence: int) -> ClaimView:
    return claim._replace(verdict=VerdictView(status, "by the evidence", AT, [], list(evidence)))


def _cells(claims: list[ClaimView], observations: list[ObservationView]) -> dict[str, Cell]:
    return table_cells(card_lines([make_fact([c]) for c in claims], observations), [])


def test_a_contradicted_press_price_shows_with_its_verdict_and_the_observed_one_beside():
    usd = "usd_per_mtok"
    price = _claim(1, "price_input_usd_per_mtok", quantity("1.00", usd), "$1.00 per 1M tokens")
    seen = _observed(10, "price_input_usd_per_mtok", quantity("3.00", usd), "$3.00 per 1M tokens")
    cell = _cells([_judged(price, "contradicted", 10)], [seen])["price-in"]
    # the press figure with its ✗, the observed one beside it and its number the sort key
    assert cell == Cell("$1.00", "contradicted", 3.0, "c1", False, "", False, 0, "$3.00")


def test_total_params_show_the_observation_the_confirmed_claim_matches():
    t = 10**12
    wrong = _claim(1, "total_params", quantity("1.2", "params", scale=t), "1.2T params")
    about = _claim(2, "total_params", quantity("3", "params", scale=t, approx=True), "about 3T")
    seen = _observed(11, "total_params", quantity("2.8", "params", scale=t), "2.8T params")
    claims = [_judged(wrong, "contradicted", 11), _judged(about, "confirmed", 11)]
    cell = _cells(claims, [seen])["total-params"]
    # the text is what is stated (and holds), the observation beside it; the table
    # sorts by the best-supported figure, the observation
    assert (cell.text, cell.number, cell.status, cell.disputed, cell.contradicted) == (
        "about 3T",
        2.8e12,
        "confirmed",
        False,
        1,
    )
    assert (cell.observed, cell.observed_text) == (False, "2.8T")
    # the card: Stated says what was stated, Observed what was read, with ✓ and ✗
    (line,) = card_lines([make_fact([c]) for c in claims], [seen])
    stated, verdict = stated_cell(line)
    assert stated.startswith("<strong>about 3T</strong> · ")
    assert "confirmed" in verdict
    observed = observed_cell(line)
    assert observed.startswith(
        '2.8T <span class="mark mark-confirmed" title="matches what is stated">✓</span> · '
        '<small class="contradicted"><span class="mark mark-contradicted" aria-hidden="true">'
        "✗</span> contradicts 1 source</small>"
    )
    # unobserved: the confirmed claim supplies the figure, never the contradicted one
    # (linked to the confirmed claim's fact)
    assert _cells(claims, [])["total-params"][:4] == ("about 3T", "confirmed", 3e12, "c2")


def test_live_claims_disagree_without_the_contradicted_one_and_alone_give_no_number():
    t = 10**12
    a = _claim(1, "total_params", quantity("1.2", "params", scale=t), "1.2T params")
    b = _claim(2, "total_params", quantity("2", "params", scale=t), "2T params")
    c = _claim(3, "total_params", quantity("5", "params", scale=t), "5T params")
    claims = [_judged(a, "contradicted"), b, c]
    best = card_lines([make_fact([x]) for x in claims], [])[0].best
    assert (best.text, best.number, best.basis, best.contradicted) == (
        "2T params vs 5T params",
        None,
        "disagree",
        ("1.2T params",),
    )
    alone = _cells([_judged(a, "contradicted")], [])["total-params"]
    # only a contradicted claim: its figure with its verdict, no number, linked to it
    assert (alone.text, alone.number, alone.status) == ("1.2T", None, "contradicted")
    assert (alone.contradicted, alone.anchor) == (0, "c1")
    (line,) = card_lines([make_fact([_judged(a, "contradicted")])], [])
    assert stated_cell(line)[0] == (
        '<span aria-hidden="true">—</span><span class="visually-hidden">no figure</span> · '
        '<small class="contradicted">1 source said 1.2T '
        '<span class="mark mark-contradicted" title="contradicted">✗</span></small>'
    )


def _speed(n: int, tps: str, **where: str) -> ObservationView:
    value = quantity(tps, "tokens_per_second")
    return ObservationView(
        n, SPEED, "", where, f"{tps} tokens/s", value.to_dict(), AT, AT, "w", None, None, SPEED
    )


def test_speed_cell_takes_the_labs_own_median_else_a_median_across_providers():
    own = _speed(1, "41.6", provider="Fict Labs", statistic="p50")
    fast = _speed(2, "1384", provider="Cerebras", statistic="p50")
    across = _speed(3, "60", statistic="median")
    cell = table_cells(card_lines([], [fast, across, own], "Fict Labs"), [], "Fict Labs")["speed"]
    assert (cell.text, cell.number, cell.provider, cell.statistic) == (
        "41.6",
        41.6,
        "Fict Labs",
        "p50",
    )
    cell = table_cells(card_lines([], [fast, across], "Fict Labs"), [], "Fict Labs")["speed"]
    assert (cell.text, cell.number, cell.provider, cell.statistic) == ("60", 60.0, "", "median")
    # another provider's hardware only: no figure to sort, named beside with its provider
    cell = table_cells(card_lines([], [fast], "Fict Labs"), [], "Fict Labs")["speed"]
    assert (cell.text, cell.number, cell.aside) == ("—", None, "1384 observed (Cerebras, p50)")
