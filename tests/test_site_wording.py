"""How observations, negative ranges, exports,
notes and source names read on the pages a first-time user opens."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from typer.testing import CliRunner

from tracker.cli.main import app
from tracker.website import build_site

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture
def demo_site(demo_build: Path) -> Path:
    """The shared demo build's site folder (``t.db`` beside it)."""
    return demo_build / "s"


def _text(html: str) -> str:
    """Visible text of a page fragment: tags dropped, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_observation_seen_once_reads_seen_x_not_x_to_x(demo_site):
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    text = _text(page)
    assert "seen 2026-11-28 06:00 UTC to 2026-11-28 06:00 UTC" not in text
    assert "seen 2026-11-28 06:00 UTC; snapshot" in text


def test_observation_seen_over_a_period_keeps_its_range(engine, tmp_path):
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW)
    text = _text((tmp_path / "site" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text())
    assert "seen 2026-11-10 12:00 UTC to 2026-11-20 12:00 UTC" in text


def test_negative_percentages_use_a_minus_sign_and_a_readable_range(demo_site):
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert (
        "(observation #19): \u221233.3%, claim about \u221233% (\u221236.3% to \u221229.7%)" in page
    )
    assert not re.search(r"[-–]-\d", page)  # no "–-29.7" or "--" before a number


def _csv_rows(site: Path) -> list[dict[str, str]]:
    import csv
    import io

    text = (site / "api" / "claims.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_claims_csv_gives_the_sources_publication_date_and_precision(demo_site):
    """stated_date was empty on every row and nothing said when the source was published."""
    rows = _csv_rows(demo_site)
    card = next(r for r in rows if r["source_key"] == "kimi-k2-thinking-card")
    assert (card["published"], card["published_precision"]) == ("2025-11-06", "day")
    launch = next(r for r in rows if r["source_key"] == "report-k31-launch")
    assert (launch["published"], launch["published_precision"]) == ("2026-10-27", "estimated")
    # the curated data gives no claim a date of its own: stated_date stays empty
    assert {r["stated_date"] for r in rows} == {""}
    assert all(r["published"] for r in rows)


def test_demo_discrepancies_page_counts_no_note(demo_site):
    """The demo's different-subject note was counted "1 dismissed" among discrepancies."""
    html = (demo_site / "discrepancies.html").read_text()
    assert (
        "<p>1 open, 1 already settled (by an observation, never open), 0 resolved (settled by an observation, or the claims corrected or no longer in conflict), 0 dismissed by a reviewer.</p>"
        in html
    )
    real = html[: html.index('<h2 id="notes">')]
    assert "Total parameters" not in _text(real)
    note = _text(html[html.index('<h2 id="notes">') : html.index("</main>")])
    assert "2.8T params for Kimi K3.1 Pro (Moonshot AI) and about 3T params for Kimi K3 " in note
    k3 = _text((demo_site / "subjects" / "kimi-k3" / "index.html").read_text())
    assert "Discrepancies None. Not a conflict: a source gives total parameters figures" in k3
    assert "Dismissed (" not in k3


def test_demo_discrepancy_sides_say_which_claim_the_observation_settled(demo_site):
    """A settled discrepancy's reason names "claim #15 contradicted, claim #37 confirmed";
    its sides listed no claim numbers nor verdicts, so a reader could not tell which
    side held. Each side now shows its verdict and claim number."""
    html = (demo_site / "discrepancies.html").read_text()
    resolved = _text(html[html.index('<h2 id="settled">') : html.index('<h2 id="notes">')])
    assert "claim #15 contradicted" in resolved
    assert re.search(r"version: 4\.0[^✓✗]*Moonshot AI ?✗ contradicted claim #15 ", resolved)
    assert re.search(r"version: 3\.0[^✓✗]*Moonshot AI ?✓ confirmed claim #37 ", resolved)


def test_a_reviewers_dismissal_is_still_counted_apart_from_notes(engine, tmp_path):
    from sqlmodel import Session, select

    from claims.store.tables import Discrepancy

    populate(engine)
    with Session(engine) as s:
        tb = s.exec(select(Discrepancy).where(Discrepancy.key == "d-tb")).one()
        tb.state, tb.note = "dismissed", "the lab's post says 4.0"
        s.add(tb)
        s.commit()
    build_site(engine, tmp_path / "site", now=NOW)
    html = (tmp_path / "site" / "discrepancies.html").read_text()
    assert (
        "<p>1 open, 1 resolved (settled by an observation, or the claims corrected or no longer in conflict), 1 dismissed by a reviewer.</p>"
        in html
    )
    dismissed = html[html.index('<h2 id="dismissed">') : html.index('<h2 id="notes">')]
    assert re.findall(r'<section id="(d\d+)"', dismissed) == ["d1"]
    assert "Dismissed: the lab&#39;s post says 4.0" in dismissed
    page = _text((tmp_path / "site" / "subjects" / "kimi-k2-thinking" / "index.html").read_text())
    assert "Not a conflict: a source gives input price figures for this subject" in page


def test_two_title_named_sources_read_apart_everywhere(demo_site):
    """“Kimi 3.1 Pro: 2.8T open…” and “Kimi K3.1 Pro launch…” read alike (fresh-user
    trial); each source now has one distinct name on the site, in events and the CLI."""
    import html as html_lib
    import json

    one = "“Kimi 3.1 Pro: 2.8T open weights against Fable 5.1”"
    two = "“Kimi K3.1 Pro launch: architecture, pricing…”"
    disc = html_lib.unescape((demo_site / "discrepancies.html").read_text())
    assert f"Moonshot AI via {one} and {two})" in disc
    changes = html_lib.unescape((demo_site / "changes.html").read_text())
    assert "version: 4.0] (Moonshot AI via Máquina Web) is contradicted" in changes
    # the summary card's weights line names each promise's source (in its "who promised
    # what" list when two sources promise the same date)
    card = html_lib.unescape((demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text())
    assert f"on 2026-11-04</span>: Moonshot AI via {one} <small>" in card
    assert f"on 2026-11-04</span>: Moonshot AI via {two} <small>" in card
    result = runner.invoke(app, ["discrepancies", "--json", "--db", str(demo_site.parent / "t.db")])
    assert result.exit_code == 0, result.output
    names = {
        side["source_name"]
        for row in json.loads(result.output)
        for side in row["sides"]
        if side["side"] == "claim"
    }
    assert names == {"Máquina Web", one, two}


def test_dates_and_short_prices_are_kept_whole_and_escaped():
    """A phone broke "2026-11-04" after a hyphen: dates and "$2.00 / 1M" figures in text
    get a nowrap span; the rest is escaped; Markup and tokens holding a date are kept."""
    from markupsafe import Markup

    from tracker.website.marks import nobreak

    assert nobreak("promised before 2026-11-04 <b>, by 2026-11") == (
        'promised before <span class="nobr">2026-11-04</span> &lt;b&gt;, by '
        '<span class="nobr">2026-11</span>'
    )
    assert nobreak("$2.00 / 1M, $2.00 per 1M tokens") == (
        '<span class="nobr">$2.00 / 1M</span>, $2.00 per 1M tokens'
    )
    # part of a longer token (a time stamp, a file name, a version): left as it is
    assert nobreak("2026-11-28T06:00:00Z v2026-11-04 2026-11-04-x") == (
        "2026-11-28T06:00:00Z v2026-11-04 2026-11-04-x"
    )
    held = Markup('<a href="/2026-11-04/">x</a>')
    assert nobreak(held) is held
    assert nobreak(42) == "42"


def test_demo_card_lines_no_claim_states_count_no_sources(demo_site):
    """Kimi K3's card read "no claim · observed only · 0 sources" for its observed prices:
    the watch is a source too, so "0 sources" contradicted the line; it shows a dash."""
    html = (demo_site / "subjects" / "kimi-k3" / "index.html").read_text()
    card = _text(html[html.index('<table class="glance">') : html.index("</table>")])
    assert "0 sources" not in card
    assert "Input price no claim observed only — $3.00" in card


def test_demo_subject_page_lists_open_discrepancies_before_resolved(demo_site):
    """Kimi K3.1 Pro's page listed the resolved Terminal-Bench discrepancy (#1) above the
    open weights-date one (#2): by id, so history came first."""
    html = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    section = html[html.index('<h2 id="discrepancies">') : html.index('<h2 id="history">')]
    states = re.findall(
        r'<li id="disc-\d+"><a class="disc-id"[^>]*>#\d+</a> <span class="state state-(\w+)">',
        section,
    )
    assert states == ["open", "resolved"]


def test_demo_discrepancy_found_settled_is_named_already_settled(demo_site):
    """The Terminal-Bench discrepancy an observation settled before it could open was
    listed under "Resolved" on discrepancies.html ("1 open, 1 resolved") and as "#1
    resolved" on Kimi K3.1 Pro's page, while feeds, alerts and changes.html say
    "Disagreement already settled": it now has its own group, count and state label."""
    import json

    html = (demo_site / "discrepancies.html").read_text()
    assert "<p>1 open, 1 already settled (by an observation, never open), 0 resolved " in html
    assert '<h2 id="resolved">' not in html
    settled = html[
        html.index('<h2 id="settled">Already settled</h2>') : html.index('<h2 id="notes">')
    ]
    assert re.findall(r'<section id="(d\d+)"', settled) == ["d1"]
    assert '<span class="state state-resolved">already settled</span>: ' in settled
    assert ">resolved</span>" not in html
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    section = _text(page[page.index('<h2 id="discrepancies">') : page.index('<h2 id="history">')])
    assert "#1 already settled Benchmark score" in section
    assert "resolved" not in section
    # the api keeps the stored state, with found_settled saying why the page words it so
    rows = json.loads((demo_site / "api" / "discrepancies.json").read_text())["discrepancies"]
    assert {(r["id"], r["state"], r["found_settled"]) for r in rows if r["id"] == 1} == {
        (1, "resolved", True)
    }


def test_not_landed_weights_use_no_verdict_mark(demo_build):
    """✗ is "contradicted" in the index legend: weights not on the Hub are a state, shown
    with their own mark (□), listed in the legend, and red only when overdue."""
    html = (demo_build / "s" / "index.html").read_text()
    k3 = html[html.index('href="subjects/kimi-k3/index.html"') :].split("</tr>")[0]
    assert (
        '<span class="state-none"><span class="mark-not-landed" aria-hidden="true">□</span> not landed</span>'
        in k3
    )
    assert "✗</span> not landed" not in html
    legend = html[html.index('<div class="legend" id="legend-weights">') :].split("</div>")[0]
    assert "□</span> not landed: no weights on the Hub at the last check" in legend
    assert "✗" not in legend


def test_sources_page_says_no_verdict_yet_as_the_rest_of_the_site(engine, tmp_path):
    # a trial: sources.html counted "none: 3" where every other page says "no verdict yet"
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW)
    page = (tmp_path / "site" / "sources.html").read_text()
    cells = re.findall(r'<td data-label="Other verdicts">([^<]*)</td>', page)
    assert "disputed: 1, no verdict yet: 1, overdue: 1" in cells
    assert not any("none" in c for c in cells)
    assert all(re.fullmatch(r"—|([a-z ]+: \d+)(, [a-z ]+: \d+)*", c) for c in cells), cells


def test_demo_first_verdict_is_not_worded_as_a_change(demo_site):
    """Kimi K3.1 Pro's timeline read "first verdict: overdue (Verdict changed)": a first
    verdict is not a change. The timeline says "first verdict: overdue" alone and
    changes.html's Kind column says "First verdict"."""
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    timeline = _text(page[page.index('<h2 id="timeline">') :])
    assert "Verdict changed" not in timeline
    assert timeline.count("first verdict: overdue ") == 3
    assert "first verdict: contradicted " in timeline
    assert "(First verdict)" not in timeline
    changes = (demo_site / "changes.html").read_text()
    assert changes.count('<span title="verdict_changed">First verdict</span>') == 4
    assert "Verdict changed" not in changes


def test_demo_card_speeds_keep_their_unit(demo_site):
    """The summary card read "Output speed … 44.8" and a fact line "Output speed 180":
    no heading names a speed's unit there, so it keeps one, as the index heading words
    it ("Output tok/s")."""
    k31 = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    card = _text(k31[k31.index('<table class="glance">') : k31.index("</table>")])
    assert "Output speed no claim observed only — 44.8 tok/s (Moonshot AI, p50)" in card
    k3 = (demo_site / "subjects" / "kimi-k3" / "index.html").read_text()
    card = _text(k3[k3.index('<table class="glance">') : k3.index("</table>")])
    assert "Output speed (hardware: Cerebras WSE-3T) 1,000–2,000+ tok/s ✓ confirmed" in card
    assert "1,412 / 1,384 tok/s ✓" in card
    facts = _text(k3[k3.index('<h2 id="claims">') :])
    assert "Output speed 1,000–2,000+ tok/s ✓" in facts
    from tracker.website.summary import card_text

    assert card_text("180 tokens/s") == "180 tok/s"
    assert card_text("$2.00 per 1M tokens") == "$2.00"  # a price's $ says its unit


def test_the_cards_contradiction_mark_is_about_the_statement_not_a_qualifier(demo_site):
    """ "65.7% ✗ (version: 3.0)" read as "the version is wrong" (a fresh-user trial):
    the Observed cell says in words what the ✗ is about, after the value's note."""
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    row = page[page.index(">Terminal-Bench 4.0</a></th>") :].split("</tr>")[0]
    observed = _text(row.split("<td>")[-1])
    assert observed.startswith("65.7% (version: 3.0) · ✗ contradicts 1 source 2026-11-28 06:00 UTC")
    assert not re.search(r"✗</span>\s*<small>\(", page)  # no bare ✗ before a qualifier note


def _visible(html: str) -> str:
    """What a sighted reader sees: no screen-reader-only text, no tags."""
    return _text(re.sub(r'<span class="visually-hidden">[^<]*</span>', "", html))


@pytest.mark.parametrize(
    "page", ["subjects/kimi-k3.1-pro/index.html", "discrepancies.html", "sources.html"]
)
def test_a_source_without_a_url_is_named_once_per_page_and_marked_where_cited(demo_site, page):
    """ "(no URL on record)" followed every claim of the demo's three unlinked sources
    (28 times on one page): each page names them once, by title, and marks each
    citation with a ° (screen readers still hear "no URL on record" there)."""
    html = (demo_site / page).read_text()
    seen = _visible(html)
    assert seen.lower().count("no url on record") == 1
    note = unescape(_text(html.split('<p class="no-url-note">')[1].split("</p>")[0]))
    assert note == (
        "° No URL on record for 3 sources (cited by title only): Kimi 3.1 Pro: 2.8T open "
        "weights against Fable 5.1; Kimi K3.1 Pro launch: architecture, pricing and "
        "open-weights date; Kimi K3.1 Pro: 104B active, a 33% cheaper API and Cerebras' "
        "2,000 tokens/s."
    )
    cited = html.count('<sup class="no-url" title="no URL on record" aria-hidden="true">°</sup>')
    assert cited >= 3
    assert html.count('<span class="visually-hidden"> (no URL on record)</span>') == cited


def test_a_subject_a_claim_is_relative_to_is_shown_by_its_name_linked(demo_site):
    """The card read "Price change (vs kimi-k3)" (a slug; fresh-user trial): the card,
    the fact's qualifiers and sources.html name Kimi K3, linked to its page."""
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    link = '<a href="../../subjects/kimi-k3/index.html">Kimi K3</a>'
    assert f'<th scope="row"><a href="#c-be310c6a13b8">Price change</a> (vs {link})</th>' in page
    assert f'<span class="quals">relative to: {link}</span>' in page
    assert "vs kimi-k3" not in page and "relative to: kimi-k3" not in page
    # a variant is no subject: as written
    assert ">Price factor (Highspeed vs Standard)</a></th>" in page
    sources = (demo_site / "sources.html").read_text()
    assert 'about −33% (relative to: <a href="subjects/kimi-k3/index.html">Kimi K3</a>)' in sources


def test_the_watches_page_has_a_next_check_column(demo_site):
    """watches.html had no next run column (a fresh-user trial): each watch's Next
    check is the run a scheduler saved, else, as for the demo built offline, its
    schedule, with one line saying no scheduler has saved a run."""
    page = (demo_site / "watches.html").read_text()
    assert '<th scope="col" class="time">Next check</th>' in page
    assert _text(page).count("No scheduler has saved a next run (tracker schedule runs") == 1
    row = page[page.index('<tr id="watch-hf-model-kimi-k2-thinking">') :].split("</tr>")[0]
    assert (
        '<td data-label="Next check" class="next"><span class="schedule">every 6 h</span></td>'
        in row
    )
    assert page.count('data-label="Next check"') == page.count('<tr id="watch-')


def test_who_promised_the_weights_is_in_the_page_text_not_only_a_hover_title(demo_site):
    """The promise line said "(2 sources)" and named them only in a title attribute
    (a fresh-user trial): it is the summary of a closed <details> (no taller page) that
    lists each promise, by whom, in which source, linked to its claim."""
    page = (demo_site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    block = page.split('<details class="promises" id="promises">')[1].split("</details>")[0]
    assert unescape(_text(block)).strip() == (
        "promised before 2026-11-04 (Máquina Web; Moonshot AI), on 2026-11-04 (2 sources) "
        "— who promised what "
        "before 2026-11-04: Moonshot AI via Máquina Web (claim #17) "
        "on 2026-11-04: Moonshot AI via “Kimi 3.1 Pro: 2.8T open weights against Fable 5.1” "
        "(claim #33) "
        "on 2026-11-04: Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…” "
        "(claim #40)"
    )
    for claim in (17, 33, 40):
        assert f'<a href="#claim-{claim}">claim #{claim}</a>' in block
        assert f'<li id="claim-{claim}">' in page  # the link has its target
    assert 'title="“Kimi 3.1 Pro' not in page  # no longer only on hover
    landed = (demo_site / "subjects" / "kimi-k2-thinking" / "index.html").read_text()
    assert 'class="promises"' not in landed
