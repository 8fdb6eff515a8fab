"""How a watch's state reads in `tracker watches` and on the watches page."""

from __future__ import annotations

from tracker.website.eventtext import watch_state_text


def test_states_with_their_run_of_failures():
    assert watch_state_text("ok", 0) == "ok"
    assert watch_state_text("ok", 1) == "retrying (1 failure in a row)"
    assert watch_state_text("new", 2) == "retrying (2 failures in a row)"
    assert watch_state_text("failing", 4) == "failing (4 in a row)"
    # a retired watch runs no more: its last failures say nothing
    assert watch_state_text("retired", 2) == "retired"
