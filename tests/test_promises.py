"""Weights promises (claims/verify/promises.py): pending, overdue as of the last check, met, met late."""

from __future__ import annotations

import datetime as dt

from helpers_verify import ov, ts

from claims.values.value import boolean_value, date_value, text_value
from claims.verify.promises import deadline_of, evaluate_promise

ON = date_value("2026-11-04", "on")
BEFORE = date_value("2026-11-04", "before")
LAST_CHECK = ts("2026-11-28T06:00Z")
NOW = ts("2026-11-29T12:00Z")


def test_deadlines():
    assert deadline_of(ON) == dt.date(2026, 11, 4)
    assert deadline_of(BEFORE) == dt.date(2026, 11, 3)
    assert deadline_of(date_value("2026-11-04", "by")) == dt.date(2026, 11, 4)
    assert deadline_of(date_value("2026-11", "on", precision="month")) == dt.date(2026, 11, 30)


def test_overdue_as_of_last_check_before_is_one_day_more():
    on = evaluate_promise(ON, [], LAST_CHECK, NOW)
    before = evaluate_promise(BEFORE, [], LAST_CHECK, NOW)
    assert (on.status, on.days, on.verdict, on.as_of) == ("overdue", 24, "overdue", LAST_CHECK)
    assert (before.status, before.days) == ("overdue", 25)
    assert on.reason == (
        "overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline "
        "2026-11-04), no weights seen on the hub"
    )


def test_pending_before_the_deadline():
    out = evaluate_promise(ON, [], ts("2026-11-01T06:00Z"), ts("2026-11-02T00:00Z"))
    assert (out.status, out.verdict) == ("pending", "pending")
    assert out.reason == (
        "promised on 2026-11-04 (deadline 2026-11-04); not due yet, no weights seen "
        "(last successful Hub check 2026-11-01 06:00 UTC)"
    )
    # no successful check: said so (a failed one may exist), never "not checked"
    never = evaluate_promise(ON, [], None, ts("2026-11-02T00:00Z"))
    assert never.reason.endswith("not due yet, no weights seen (no successful Hub check yet)")


def test_deadline_passed_without_a_check_since_is_unknown():
    out = evaluate_promise(ON, [], ts("2026-11-03T06:00Z"), NOW)
    assert (out.status, out.verdict) == ("unknown", "unverified")
    assert out.reason == (
        "deadline 2026-11-04 has passed but the hub has not been checked since "
        "(last checked 2026-11-03 06:00 UTC)"
    )


def test_met_and_met_late_settled_by_first_seen_not_created_at():
    created_at = ov(8, "release_date", date_value("2026-11-01", "on"), first="2026-11-28T06:00Z")
    landed = ov(
        9,
        "weights_available",
        boolean_value(True),
        first="2026-11-06T10:00Z",
        last="2026-11-28T06:00Z",
        q={"repo": "moonshotai/Kimi-K3.1-Pro"},
    )
    late = evaluate_promise(ON, [created_at, landed], LAST_CHECK, NOW)
    assert (late.status, late.days, late.verdict, late.evidence) == (
        "met_late",
        2,
        "contradicted",
        (9,),
    )
    assert late.reason == (
        "late by 2 days: weights first seen 2026-11-06 10:00 UTC (observation #9); promised on "
        "2026-11-04 (deadline 2026-11-04)"
    )
    assert evaluate_promise(BEFORE, [landed], LAST_CHECK, NOW).days == 3
    early = ov(10, "weights_available", boolean_value(True), first="2026-11-03T23:00Z")
    met = evaluate_promise(BEFORE, [landed, early], LAST_CHECK, NOW)
    assert (met.status, met.verdict, met.evidence) == ("met", "confirmed", (10,))
    assert met.reason == (
        "met: weights first seen 2026-11-03 23:00 UTC (observation #10); promised before 2026-11-04"
    )


def test_only_true_weights_available_counts():
    gone = ov(11, "weights_available", boolean_value(False), first="2026-11-02T00:00Z")
    lic = ov(12, "license", text_value("modified-mit"), first="2026-11-02T00:00Z")
    assert evaluate_promise(ON, [gone, lic], LAST_CHECK, NOW).status == "overdue"


def test_repo_already_listed_at_the_first_check_cannot_be_late():
    from claims.verify.facts import ObsView

    k2 = ObsView(
        id=13,
        subject_id=3,
        attribute="weights_available",
        value=boolean_value(True),
        first_seen=LAST_CHECK,
        last_seen=LAST_CHECK,
        watch_id=1,
    )
    old_promise = date_value("2025-11-06", "on")
    out = evaluate_promise(old_promise, [k2], LAST_CHECK, NOW, {13})
    assert (out.status, out.verdict, out.evidence) == ("unknown", "unverified", (13,))
    assert out.reason == (
        "weights already listed at the first hub check 2026-11-28 06:00 UTC (observation #13); "
        "whether they landed by 2025-11-06 cannot be told from it"
    )
    # seen by a later check of the same watch: a real landing time
    later = evaluate_promise(old_promise, [k2], LAST_CHECK, NOW, ())
    assert (later.status, later.days) == ("met_late", 387)


def test_one_landing_window_for_status_and_verdicts():
    """landed_at_first_look: the cycle's landing event after an empty listing (its
    ``previous_check``) makes a sighting that is its watch's first observation a real
    landing, not a first look; without an event the first observation is a first look."""
    from claims.verify.promises import landed_at_first_look

    seen = ts("2026-12-01T12:00Z")
    told = ("weights_landed", {"previous_check": "2026-11-28T12:00:00+00:00"})
    assert landed_at_first_look(seen, seen, told) == (False, ts("2026-11-28T12:00Z"))
    assert landed_at_first_look(seen, seen, None) == (True, None)
    assert landed_at_first_look(seen, ts("2026-11-20T12:00Z"), None) == (False, None)
    assert landed_at_first_look(seen, ts("2026-11-20T12:00Z"), ("subject_discovered", {}))[0]
