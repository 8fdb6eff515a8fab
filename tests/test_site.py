"""The static site: golden output from a fixed database, escaping (C19), safe incremental writes."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from sitefixture import C19_EXCERPT, C19_NAME, NOW, SHA_PRICE_2, populate, t
from sqlmodel import Session, select

from claims.store.tables import Claim, Watch
from claims.vocabulary import rule_label
from tracker.website import SiteError, build_site
from tracker.website.render import make_environment
from tracker.website.writer import Writer, safe_join

GOLDEN = Path(__file__).parent / "golden" / "fixture-build"
GOLDEN_FILES = (
    "index.html",
    "subjects/kimi-k3.1-pro/index.html",
    "discrepancies.html",
    "api/subjects.json",
    "api/claims.csv",
    "feeds/all.atom",
)


@pytest.fixture
def built(engine, tmp_path):
    populate(engine)
    out = tmp_path / "site"
    report = build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    return engine, out, report


def test_golden_files(built):
    """Byte-for-byte against stored output; UPDATE_GOLDEN=1 rewrites the stored files."""
    _, out, _ = built
    for rel in GOLDEN_FILES:
        got = (out / rel).read_bytes()
        if os.environ.get("UPDATE_GOLDEN"):
            (GOLDEN / rel).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / rel).write_bytes(got)
        assert got == (GOLDEN / rel).read_bytes(), rel


def test_index_weights_status(built):
    _, out, report = built
    assert report.pages_written == 105 and report.pages_unchanged == 0
    html = (out / "index.html").read_text()
    k31 = html[html.index('href="subjects/kimi-k3.1-pro/index.html"') :].split("</tr>")[0]
    assert '<span class="state-bad"><span aria-hidden="true">□</span> not landed</span>' in k31
    assert '<small class="state-bad">overdue by 16 days</small>' in k31
    assert (
        '<td class="num" data-sort="2">'
        '<a href="subjects/kimi-k3.1-pro/index.html#discrepancies">2</a>'
    ) in k31
    # a figure cell links to the fact behind it and marks its verdict
    price = k31[k31.index('<td class="num" data-sort="0.45">') :].split("</td>")[0]
    assert re.fullmatch(
        r'<td class="num" data-sort="0.45"><a href="subjects/kimi-k3.1-pro/'
        r'index.html#c-[0-9a-f]{12}">\$0.45</a> <span class="mark mark-confirmed" '
        r'title="confirmed">✓</span>',
        price,
    ), price
    k2 = html[html.index('href="subjects/kimi-k2-thinking/index.html"') :].split("</tr>")[0]
    assert '<span class="state-ok"><span aria-hidden="true">✓</span> landed</span>' in k2
    assert 'href="https://huggingface.co/moonshotai/Kimi-K2-Thinking"' in k2
    assert '<code class="nowrap">modified-mit</code>' in k2  # never "modified-" / "mit"
    # Views sorted without JavaScript: most overdue first.
    overdue = (out / "index" / "overdue-all.html").read_text()
    order = re.findall(r'href="\.\./subjects/([^/]+)/index.html">', overdue)
    assert order == ["kimi-k3.1-pro", "kimi-k2-thinking", "orca-9b"]
    landed = (out / "index" / "name-landed.html").read_text()
    assert re.findall(r'href="\.\./subjects/([^/]+)/index.html">', landed) == ["kimi-k2-thinking"]


def test_index_sorts_by_price_and_filters_without_javascript(built):
    """Every sort by every filter is a page: cheapest input first, subjects without a
    figure last; the heading links to the sorted view keep the filter."""
    _, out, _ = built
    cheap = (out / "index" / "price-in-all.html").read_text()
    order = re.findall(r'href="\.\./subjects/([^/]+)/index.html">', cheap)
    assert order == ["kimi-k3.1-pro", "kimi-k2-thinking", "orca-9b"]
    assert '<th scope="col" aria-sort="ascending" data-key="price-in">Input $/M' in cheap
    landed = (out / "index" / "price-out-landed.html").read_text()
    assert re.findall(r'href="\.\./subjects/([^/]+)/index.html">', landed) == ["kimi-k2-thinking"]
    assert '<a href="../index/price-in-landed.html">Input $/M</a>' in landed
    # the caption names the column by its own label and the order; the arrow matches it
    assert "sorted by Output $/M (ascending)</span>, showing weights landed" in landed
    assert (
        '<th scope="col" aria-sort="ascending" data-key="price-out">Output $/M '
        '<span class="sort-arrow" aria-hidden="true">▴</span></th>'
    ) in landed
    speed = (out / "index" / "speed-all.html").read_text()
    assert "sorted by Output tok/s (descending)" in speed
    assert (
        '<th scope="col" aria-sort="descending" data-key="speed">Output tok/s '
        '<span class="sort-arrow" aria-hidden="true">▾</span></th>'
    ) in speed


def test_subject_page_claims_evidence_and_chart(built):
    _, out, _ = built
    html = (out / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert '<q lang="pt-BR">65,7%</q>' in html
    assert "benchmark: Terminal-Bench, version: 3.0" in html
    assert "benchmark: Terminal-Bench, version: 4.0" in html
    # Confirmed price: evidence names the observation, its snapshot and fetch time.
    # Confirmed price: the fact's verdict and reason, evidence names the observation,
    # its snapshot and fetch time.
    fact = html[html.index('<strong class="value">$0.45') :].split("</div>")[0]
    assert (
        '<span class="verdict verdict-confirmed"><span aria-hidden="true">✓</span> confirmed'
        in fact
    )
    assert '<p class="reason">OpenRouter lists $0.45' in fact
    assert f'<code title="{SHA_PRICE_2}">{SHA_PRICE_2[:12]}</code>' in fact
    assert 'fetched <time datetime="2026-11-10T12:00:00Z">' in fact
    # The price chart: an SVG file beside the page, its change as the text alternative
    # and its data as a table.
    assert (
        '<img src="../../subjects/kimi-k3.1-pro/price-0.svg" '
        'alt="Price history: input $0.60 → $0.45 on 2026-11-10."'
    ) in html
    assert (
        '<td>Input</td><td>$0.45</td><td><span class="nobr">2026-11-10</span> 12:00</td>'
        '<td><span class="nobr">2026-11-20</span> 12:00</td>'
    ) in html
    assert "Input price: $0.60 per 1M tokens → $0.45 per 1M tokens" in html  # a label
    # claims of one attribute are grouped by fact, folded under the attribute: its
    # summary shows each fact's benchmark and version, value and verdict mark
    attr = html[html.index('<details class="attr" id="attr-benchmark_score">') :]
    summary = re.sub(r"<[^>]+>", "", attr[: attr.index("</summary>")])
    assert (
        summary.split()
        == (
            "Benchmark score Terminal-Bench 3.0: 65.7% ≠ · Terminal-Bench 4.0: 65.7% ≠ 2 claims"
        ).split()
    )
    assert "same_value_different_version</span>" not in html  # the rule reads as words
    assert f">{rule_label('same_value_different_version')}</span>:" in html


def test_discrepancies_page_both_sides(built):
    _, out, _ = built
    html = (out / "discrepancies.html").read_text()
    # the different-subject note is no discrepancy: not counted, listed after them all
    assert (
        "<p>2 open, 1 resolved (settled by an observation, or the claims corrected or no longer in conflict), 0 dismissed by a reviewer.</p>"
        in html
    )
    open_part = html[html.index('<h2 id="open">') : html.index('<h2 id="resolved">')]
    assert re.findall(r'<section id="(d\d+)"', open_part) == ["d1", "d2"]
    assert '<h2 id="dismissed">' not in html
    notes = html[html.index('<h2 id="notes">Notes, not conflicts</h2>') : html.index("</main>")]
    assert '<section id="d4"' not in html
    assert re.sub(r"<[^>]+>", "", notes[notes.index('<li id="d4">') :].split("</li>")[0]) == (
        "Kimi K2 Thinking and Kimi K3.1 Pro — Input price: $0.45 per 1M tokens for Kimi K3.1 "
        "Pro (Moonshot AI) and $0.60 per 1M "
        "tokens for Kimi K2 Thinking (Moonshot AI), both in Artigo A (Jornal A)."
    )
    section = html[html.index('<section id="d1"') : html.index("</section>")]
    assert "65.7% reported for Terminal-Bench 3.0 and for 4.0" in section
    assert section.count('<tr><td data-label="Value">') == 2
    assert "version: 3.0" in section and "version: 4.0" in section
    assert "Artigo A" in section and "Artigo B" in section


def test_data_as_of_is_the_latest_watch_check_not_a_later_event(built):
    _, out, _ = built
    html = (out / "index.html").read_text()
    # the last successful check is 2026-11-20 12:00; a watch_failing event came on the 22nd
    assert (
        'Data as of the latest successful watch check, <time datetime="2026-11-20T12:00:00Z">'
        in html
    )


def test_operator_pages(built):
    _, out, _ = built
    watches = (out / "watches.html").read_text()
    assert (
        '<span class="state state-failing">failing</span> <small class="run">(3 in a row)</small>'
        in watches
    )
    assert "<code>bad_status</code> HTTP 503 &lt;html&gt;" in watches
    changes = (out / "changes.html").read_text()
    assert changes.index("openrouter failing") < changes.index("Orca licence")


def test_exports(built):
    _, out, _ = built
    subjects = json.loads((out / "api" / "subjects.json").read_text())
    k31 = next(s for s in subjects["subjects"] if s["slug"] == "kimi-k3.1-pro")
    assert k31["weights"] == {
        "landed": False,
        "repo": None,
        "landed_at": None,
        "landed_at_meaning": None,
        "repo_created": None,
        "promises": [
            {
                "date": "2026-11-04",
                "relation": "before",
                "source": "Revista B",  # the source's short name, as sentences use
                "claimant": "Moonshot AI",
                "qualifiers": {},  # {"variant": "Mini"}: a promise about one variant
            },
            {
                "date": "2026-11-04",
                "relation": "on",
                "source": "Jornal A",
                "claimant": "Moonshot AI",
                "qualifiers": {},
            },
        ],
        "overdue_days": 16,
        "as_of": "2026-11-20T12:00:00Z",
        "withdrawn": None,
    }
    card = json.loads((out / "api" / "subjects" / "kimi-k3.1-pro.json").read_text())["summary"]
    dates = next(ln for ln in card if ln["attribute"] == "weights_release_date")
    assert (dates["stated"], dates["agreed"], dates["status"], dates["sources"]) == (
        "on 2026-11-04 vs before 2026-11-04",
        False,
        "overdue",
        2,
    )
    price = next(ln for ln in card if ln["attribute"] == "price_input_usd_per_mtok")
    assert (price["observed"], price["checked_at"]) == (
        "$0.45 per 1M tokens",
        "2026-11-20T12:00:00Z",
    )
    one = json.loads((out / "api" / "subjects" / "orca-9b.json").read_text())
    assert one["name"] == C19_NAME
    assert one["claims"][0]["raw_text"] == C19_EXCERPT
    csv_lines = (out / "api" / "claims.csv").read_bytes().split(b"\r\n")
    assert csv_lines[0] == (
        b"id,subject,attribute,qualifiers,value,raw_text,source_key,source_url,"
        b"source_language,claimant,stated_date,verdict,verdict_reason,published,"
        b"published_precision,stated_by_claimant"
    )
    assert (
        b"6,orca-9b,context_window,{},128K tokens,<img src=x onerror=alert(1)> AT&T R&D"
        in csv_lines[6]
    )


def test_c19_scraped_text_escaped_exactly_once(built):
    """cases/C19: the case's template fragment through the site's Environment, and the page."""
    env = make_environment()
    fragment = env.from_string(
        '<meta property="og:title" content="{{ model_name }}">\n'
        '<h2 title="{{ model_name }}">{{ model_name }}</h2><p>{{ excerpt }}</p>'
    ).render(model_name=C19_NAME, excerpt=C19_EXCERPT)
    assert fragment == (
        '<meta property="og:title" content="Orca-9B &lt;Instruct&gt; &amp; &#34;Chat&#34;">\n'
        '<h2 title="Orca-9B &lt;Instruct&gt; &amp; &#34;Chat&#34;">Orca-9B &lt;Instruct&gt; &amp; '
        "&#34;Chat&#34;</h2><p>&lt;img src=x onerror=alert(1)&gt; AT&amp;T R&amp;D</p>"
    )
    _, out, _ = built
    page = (out / "subjects" / "orca-9b" / "index.html").read_text()
    assert (
        '<meta property="og:title" content="Orca-9B &lt;Instruct&gt; &amp; &#34;Chat&#34;">' in page
    )
    assert (
        '<h1 title="Orca-9B &lt;Instruct&gt; &amp; &#34;Chat&#34;">'
        "Orca-9B &lt;Instruct&gt; &amp; &#34;Chat&#34;</h1>"
    ) in page
    assert '<q lang="en">&lt;img src=x onerror=alert(1)&gt; AT&amp;T R&amp;D</q>' in page
    for path in out.rglob("*.html"):
        text = path.read_text()
        for double in ("&amp;amp;", "&amp;lt;", "&amp;#34;", "&amp;quot;", "<img src=x"):
            assert double not in text, (path, double)
        # the only images are the build's own charts
        assert set(re.findall(r'<img src="([^"]+)"', text)) <= {
            "../../subjects/kimi-k3.1-pro/price-0.svg",
            "../../subjects/kimi-k3.1-pro/timeline.svg",
            "../../subjects/kimi-k2-thinking/timeline.svg",
        }, path
        assert "<script>document" not in text, path


def test_rebuild_rewrites_only_changed_files(built):
    engine, out, _ = built
    again = build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    assert (again.pages_written, again.pages_unchanged) == (0, 105)
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.raw_text == "US$ 0,45")).one()
        claim.claimant = "Moonshot AI (pricing page)"
        s.add(claim)
        s.commit()
    third = build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    # The manifest records each file's key, so it changes with the files.
    assert sorted(third.written_paths) == [
        ".site-manifest.json",
        "api/claims.csv",
        "api/claims.json",
        "api/subjects/kimi-k3.1-pro.json",
        "assets/search-index.js",  # claims are searchable: their claimants too
        "discrepancies.html",
        "subjects/kimi-k3.1-pro/index.html",
    ]
    assert third.pages_unchanged == 98
    assert sorted(third.rendered_paths) == sorted(third.written_paths)[1:]


def test_stale_files_removed(built):
    engine, out, _ = built
    from claims.store.tables import Subject

    with Session(engine) as s:
        orca = s.exec(select(Subject).where(Subject.slug == "orca-9b")).one()
        orca.slug = "orca-9b-instruct"
        s.add(orca)
        s.commit()
    report = build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    assert report.pages_removed == 4  # page, JSON, feed and compare page under the old slug
    assert not (out / "subjects" / "orca-9b" / "index.html").exists()
    assert (out / "subjects" / "orca-9b-instruct" / "index.html").is_file()


def test_writer_refuses_twice_and_outside(tmp_path):
    w = Writer(tmp_path)
    assert w.write("a/b.html", "x") is True
    with pytest.raises(SiteError, match="twice"):
        w.write("a/b.html", "y")
    for bad in ("../evil.html", "/etc/passwd", "a/../../x", "a\\b", "", "a//b"):
        with pytest.raises(SiteError):
            w.write(bad, "x")
    (tmp_path / "link").symlink_to(tmp_path.parent)
    with pytest.raises(SiteError, match="leaves the output folder"):
        safe_join(tmp_path, "link/escaped.html")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b.html", "link"]


def test_bad_slug_is_refused(engine, tmp_path):
    from claims.store.tables import Subject

    with Session(engine) as s:
        s.add(Subject(slug="../evil", name="x"))
        s.commit()
    with pytest.raises(SiteError, match="cannot be a page path"):
        build_site(engine, tmp_path / "site")
    assert not (tmp_path / "evil").exists()


def test_scraped_urls_only_link_when_http(engine, tmp_path):
    from claims.store.tables import Source

    populate(engine)
    with Session(engine) as s:
        src = s.exec(select(Source).where(Source.key == "scraped")).one()
        src.url = " JavaScript:alert(1)"
        s.add(src)
        s.commit()
    out = tmp_path / "site"
    build_site(engine, out, now=NOW)
    for path in out.rglob("*.html"):
        assert "javascript:" not in path.read_text().lower(), path
    sources = (out / "sources.html").read_text()
    assert (
        '<th scope="row">Acme &lt;Orca&gt; page <small class="muted">(not a web link)</small></th>'
        in sources
    )
    assert '<td data-label="Other verdicts">disputed: 1, overdue: 1</td>' in sources
    assert '<td data-label="Other verdicts">unverified: 2</td>' in sources


def test_watches_page_shows_runs_of_failures_and_the_latest_attempt(built):
    """A watch with failures below the failing threshold read 'ok' beside 'Failing
    since'; the footer named only the latest successful check although later ones ran."""
    engine, out, _ = built
    with Session(engine) as s:
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        hf.consecutive_failures, hf.failing_since, hf.last_run = 2, t(23, 5), t(23, 6)
        hf.last_error = "network error"
        s.add(hf)
        s.commit()
    build_site(engine, out, now=NOW)
    html = (out / "watches.html").read_text()
    row = html[html.index('<tr id="watch-hf-moonshotai">') :].split("</tr>")[0]
    # below the threshold: a warning, never the green "ok"
    assert (
        '<span class="state state-retrying">retrying</span> '
        '<small class="run">(2 failures in a row)</small>'
    ) in row
    css = (out / "assets" / "site.css").read_text()
    assert ".state.state-retrying { color: var(--warn);" in css
    assert '<td data-label="Last check"><time class="lines" datetime="2026-11-23T06:00:00Z">' in row
    assert (
        '<td data-label="Failures since"><time class="lines" datetime="2026-11-23T05:00:00Z">'
        in row
    )
    other = html[html.index('<tr id="watch-openrouter">') :].split("</tr>")[0]
    assert 'failing</span> <small class="run">(3 in a row)</small>' in other
    footer = html[html.index("<footer>") :]
    assert (
        'Data as of the latest successful watch check, <time datetime="2026-11-20T12:00:00Z">'
        "2026-11-20 12:00 UTC</time>.</span>\nLatest check attempt: "
        '<time datetime="2026-11-23T06:00:00Z">2026-11-23 06:00 UTC</time> (unsuccessful).'
    ) in footer


def test_watches_page_shows_no_local_path_and_breaks_urls_at_slashes(built):
    """A replay's error read "… is not recorded in ../new.har" on the watches page (a
    path on the user's machine, on a site that may be published): only the file name is
    shown. Its URLs, and the watch's, may break at "/" and "." (``<wbr>``), not mid-word."""
    from tracker.website.marks import public_error

    engine, out, _ = built
    with Session(engine) as s:
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        hf.consecutive_failures, hf.last_run = 1, t(23, 6)
        hf.last_error = f"GET {hf.url} is not recorded in ../trial/new.har"
        hf.last_error_kind = "not_recorded"
        s.add(hf)
        s.commit()
    build_site(engine, out, now=NOW)
    html = (out / "watches.html").read_text()
    row = html[html.index('<tr id="watch-hf-moonshotai">') :].split("</tr>")[0]
    assert "trial/" not in row and "../" not in row
    assert row.endswith(" is not recorded in new.har</td>\n")
    assert "https://huggingface<wbr>.co/<wbr>api/<wbr>models" in row
    assert "<code>not_recorded</code> GET https://huggingface<wbr>.co/" in row
    # absolute, home, Windows and quoted paths too; URLs and "tok/s" are left alone
    assert public_error("No such file: '/home/u/x/new.har'") == "No such file: 'new.har'"
    assert public_error("in ~/rt/t.db. C:\\Users\\me\\a.har") == "in t.db. a.har"
    assert (
        public_error("GET https://x.org/a/b.json for tok/s")
        == "GET https://x.org/a/b.json for tok/s"
    )


def test_index_and_compare_say_when_promises_disagree(built):
    """With no successful Hub check the index and compare showed Kimi K3.1 Pro's weights
    as "promised on 2026-11-04": one source's words, while another says "before": they
    now say the sources disagree, with each promise on hover (the card lists them)."""
    from claims.store.status import Promise
    from tracker.website.summary import promise_brief

    engine, out, _ = built
    with Session(engine) as s:
        for w in s.exec(select(Watch)).all():
            w.last_success = None
            s.add(w)
        s.commit()
    build_site(engine, out, now=NOW)
    index = (out / "index.html").read_text()
    row = index[index.index('href="subjects/kimi-k3.1-pro/index.html"') :].split("</tr>")[0]
    assert 'no successful Hub check yet; <span class="promise-disputed" title="' in row
    assert '>promised <span class="nobr">2026-11-04</span> (sources disagree)</span>' in row
    assert "promised on 2026-11-04" not in row and "promised before" not in row
    table = json.loads((out / "api" / "table.json").read_text())
    k31 = next(r for r in table["subjects"] if r["slug"] == "kimi-k3.1-pro")["weights"]
    assert k31["text"] == (
        "unknown — no successful Hub check yet; promised 2026-11-04 (sources disagree)"
    )
    assert k31["promise_detail"] == (
        "before 2026-11-04 (Revista B; Moonshot AI); on 2026-11-04 (Jornal A; Moonshot AI)"
    )
    # one promise, or several saying the same: as before
    one = Promise(date="2026-11-04", relation="on", source="A", claimant=None, claim_id=1)
    two = Promise(date="2026-11-04", relation="on", source="B", claimant=None, claim_id=2)
    assert promise_brief([one, two]) == ("promised on 2026-11-04", "")
    later = Promise(date="2026-12", relation="by", source="B", claimant="Lab", claim_id=3)
    assert promise_brief([one, later]) == (
        "promised 2026-12 (sources disagree)",
        "on 2026-11-04 (A); by 2026-12 (B; Lab)",
    )


def test_discrepancy_ids_shown_for_tracker_review(built):
    """``tracker review ID`` needs the id: each discrepancy shows it, linked to its anchor,
    on the Discrepancies page and on its subject's page."""
    _, out, _ = built
    html = (out / "discrepancies.html").read_text()
    for i in (1, 2, 3):
        assert (
            f'<a class="disc-id" href="#d{i}" title="its id: tracker review {i}">#{i}</a>' in html
        )
    page = (out / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert (
        '<li id="disc-2"><a class="disc-id" href="#disc-2" title="its id: tracker review 2">#2</a> '
        '<span class="state state-open">open</span>'
    ) in page
