"""The subject card's lines (tracker/website/summary.py CardLine): "sources disagree"
follows the discrepancy rule (claims.verify.compare.values_conflict), so figures that
can all hold read as agreeing, showing the most precise of them."""

from __future__ import annotations

from claims.values.value import Value, date_value, quantity
from tracker.website.summary import card_lines, make_fact
from tracker.website.views import ClaimView, SourceInfo, VerdictView


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
