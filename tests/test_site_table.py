"""The comparison table's CSV fields (tracker/website/table.py)."""

from __future__ import annotations

from tracker.website.table import cell_note


def _cell(**over: object) -> dict[str, object]:
    cell = {
        "text": "$0.60", "status": None, "observed": True, "note": "",
        "observed_text": "", "contradicted": 0, "aside": "",
    }  # fmt: skip
    return {**cell, **over}


def test_an_observed_figure_without_a_note_has_no_dangling_label():
    # a fresh-user trial: api/table.csv's price-in_note read "observed: " and nothing after
    assert cell_note(_cell()) == ""
    assert cell_note(_cell(contradicted=1)) == "1 source contradicted"


def test_an_observed_figure_keeps_where_it_was_read():
    assert cell_note(_cell(note="Moonshot AI, p50")) == "observed: Moonshot AI, p50"
    stated = _cell(observed=False, status="confirmed", note="list price", observed_text="$0.55")
    assert cell_note(stated) == "list price; observed $0.55"
