"""Atom feeds: cases/C18 exactly, and the site's event feeds parsed back."""

from __future__ import annotations

import datetime as dt

import feedparser
from lxml import etree
from sitefixture import NOW, populate
from sqlmodel import Session

from claims.store.tables import Subject
from tracker.website import build_site
from tracker.website.feeds import FeedEntry, render_atom, site_feed_specs, tag_uri

ATOM = "{http://www.w3.org/2005/Atom}"
FEED_URL = "https://dash.example.org/feed.atom"
C18_ROWS = [
    {
        "id": 42,
        "model": "acme/Orca-9B",
        "title": "Preço de entrada caiu: US$ 0,57 → US$ 0,45 <Orca 9B> & mais",
        "created_at": "2026-11-29 14:05:00",
        "body_html": '<p>Fonte: <a href="https://example.com/precos?a=1&b=2">página</a></p>',
    },
    {
        "id": 43,
        "model": "acme/Orca-70B",
        "title": "Nova licença: orca-community-license",
        "created_at": "2026-11-29 15:10:30",
        "body_html": "<p>Licença alterada.</p>",
    },
]


def c18_feed() -> bytes:
    entries = [
        FeedEntry(
            id=tag_uri(FEED_URL, f"alert/{row['id']}"),
            title=row["title"],
            # Read back from the database without a zone: naive, meaning UTC.
            updated=dt.datetime.fromisoformat(row["created_at"]),
            content_html=row["body_html"],
        )
        for row in C18_ROWS
    ]
    return render_atom(FEED_URL, "Orca alerts", entries)


def test_c18_atom_from_scraped_alert_rows():
    data = c18_feed()
    assert data.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    root = etree.fromstring(data)
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated", "author"):
        assert len(root.findall(f"{ATOM}{name}")) == 1, name
    assert root.findtext(f"{ATOM}updated") == "2026-11-29T15:10:30+00:00"
    [self_link] = [link for link in root.findall(f"{ATOM}link") if link.get("rel") == "self"]
    assert self_link.get("href") == FEED_URL
    entries = root.findall(f"{ATOM}entry")
    for e in entries:
        for name in ("id", "title", "updated"):
            assert len(e.findall(f"{ATOM}{name}")) == 1
    e42, e43 = entries
    assert e42.findtext(f"{ATOM}id") == "tag:dash.example.org,2026:alert/42"
    assert e43.findtext(f"{ATOM}id") == "tag:dash.example.org,2026:alert/43"
    assert e42.findtext(f"{ATOM}updated") == "2026-11-29T14:05:00+00:00"
    assert e43.findtext(f"{ATOM}updated") == "2026-11-29T15:10:30+00:00"
    assert e42.findtext(f"{ATOM}title") == C18_ROWS[0]["title"]
    assert b"&lt;Orca 9B&gt; &amp; mais" in data
    assert "Preço de entrada caiu: US$ 0,57 → US$ 0,45".encode() in data  # raw UTF-8
    content = e42.find(f"{ATOM}content")
    assert content.get("type") == "html"
    assert content.text == C18_ROWS[0]["body_html"]
    assert len(content) == 0  # no <p> element: the HTML is text
    assert b"precos?a=1&amp;b=2" in data  # the stored & escaped once, for XML
    assert b"<p>" not in data
    # Every date in the document carries an offset.
    for node in root.iter(f"{ATOM}updated", f"{ATOM}published"):
        assert node.text.endswith("+00:00"), node.text
    # A rebuild with no new alerts gives identical bytes.
    assert c18_feed() == data


def test_c18_parsed_with_feedparser():
    parsed = feedparser.parse(c18_feed())
    assert parsed.bozo == 0
    assert parsed.feed.title == "Orca alerts"
    first = parsed.entries[0]
    assert first.id == "tag:dash.example.org,2026:alert/42"
    assert first.title == C18_ROWS[0]["title"]
    assert first.updated_parsed[:6] == (2026, 11, 29, 14, 5, 0)
    # feedparser re-serializes (sanitizes) HTML: the same markup, & written as &amp;.
    assert first.content[0].value == C18_ROWS[0]["body_html"].replace("&b", "&amp;b")


def test_site_feeds_from_events(engine, tmp_path):
    populate(engine)
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    first = {p.name: p.read_bytes() for p in (out / "feeds").iterdir()}
    assert sorted(first) == [
        "all.atom",
        "kimi-k2-thinking.atom",
        "kimi-k3.1-pro.atom",
        "orca-9b.atom",
    ]
    parsed = feedparser.parse(first["all.atom"])
    assert parsed.bozo == 0
    # Subscriber events only, newest first; the operator's watch_failing is not here.
    assert [e.title for e in parsed.entries] == [
        'Orca licence <b>changed</b> & "more"',
        "Kimi K3.1 Pro input price: $0.60 → $0.45",
        "Kimi K2 Thinking weights landed",
    ]
    price = parsed.entries[1]
    assert price.id.startswith("tag:dash.example.org,2026:event/")
    assert price.link == (
        "https://dash.example.org/subjects/kimi-k3.1-pro/#observed-price_input_usd_per_mtok"
    )
    assert price.updated == "2026-11-10T12:05:00+00:00"
    assert "$0.60 per 1M tokens → $0.45 per 1M tokens" in price.content[0].value
    assert parsed.feed.updated == "2026-11-15T08:00:00+00:00"
    k2 = feedparser.parse(first["kimi-k2-thinking.atom"])
    assert [e.title for e in k2.entries] == ["Kimi K2 Thinking weights landed"]
    build_site(engine, out, now=NOW + dt.timedelta(days=3), base_url="https://dash.example.org/")
    assert {p.name: p.read_bytes() for p in (out / "feeds").iterdir()} == first


def test_a_subject_feed_without_events_is_updated_at_the_newest_event(engine, tmp_path):
    """It said 2026-01-01T00:00:00, a constant (fresh-user trial); RFC 4287 §4.2.15: the
    latest significant change, here the newest subscriber event of the site."""
    populate(engine)
    with Session(engine) as s:
        s.add(Subject(slug="quiet-1", name="Quiet 1"))
        s.commit()
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    quiet = feedparser.parse((out / "feeds" / "quiet-1.atom").read_bytes())
    assert quiet.bozo == 0 and quiet.entries == []
    assert quiet.feed.updated == "2026-11-15T08:00:00+00:00"  # the licence change
    everything = feedparser.parse((out / "feeds" / "all.atom").read_bytes())
    assert quiet.feed.updated == everything.feed.updated == everything.entries[0].updated
    assert b"2026-01-01" not in (out / "feeds" / "quiet-1.atom").read_bytes()


def test_feeds_without_any_event_keep_a_constant_for_identical_rebuilds():
    [spec] = site_feed_specs([], [], "https://dash.example.org/").values()
    assert spec.empty_updated is None
    assert b"<updated>2026-01-01T00:00:00+00:00</updated>" in spec.render()


def _anchor_exists(site, link: str, base: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``link`` (absolute, under ``base``) names a built file and, when it has a
    fragment, an element with that id in it."""
    assert link.startswith(base), link
    path, _, fragment = link[len(base) :].partition("#")
    target = site / (path + "index.html" if path.endswith("/") or not path else path)
    if not target.is_file():
        return False
    return not fragment or f'id="{fragment}"' in target.read_text()


def _follow_every_link(engine, site, base: str) -> int:  # type: ignore[no-untyped-def]
    """Follow every feed entry's link and every alert's link; returns how many."""
    from sqlmodel import select

    from claims.store.tables import Event
    from tracker.alerts.send import compose

    links = []
    for feed in sorted((site / "feeds").glob("*.atom")):
        links += [e.link for e in feedparser.parse(feed.read_bytes()).entries]
    with Session(engine) as s:
        subjects = {x.id: x for x in s.exec(select(Subject)).all()}
        for ev in s.exec(select(Event)).all():
            msg = compose(ev, subjects.get(ev.subject_id), base)
            if msg.link.startswith(base):
                links.append(msg.link)
    missing = [link for link in links if not _anchor_exists(site, link, base)]
    assert missing == []
    assert any("#" in link for link in links)
    return len(links)


def test_every_feed_entry_and_alert_links_an_existing_anchor(engine, tmp_path):
    """Feed entries and alerts link to what they are about (a claim, a discrepancy, the
    weights line, an observed row): each link's file and anchor exist in the build."""
    base = "https://dash.example.org/"
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW, base_url=base)
    assert _follow_every_link(engine, tmp_path / "site", base) == 10  # feed entries and alerts


def test_demo_feed_and_alert_links_reach_their_anchors(tmp_path):
    """The same on the demo: verdict changes link to their claim's row, discrepancies to
    theirs on discrepancies.html."""
    from pathlib import Path

    from claims.store.engine import make_engine
    from tracker.demo import run_demo

    repo = Path(__file__).resolve().parent.parent
    engine = make_engine(tmp_path / "t.db")
    run_demo(
        engine,
        data_dir=repo / "data",
        har=repo / "data" / "recordings" / "demo.har",
        out_dir=tmp_path / "site",
        snapshot_dir=tmp_path / "snapshots",
    )
    base = "http://localhost:8000/"
    assert _follow_every_link(engine, tmp_path / "site", base) >= 8
    feed = feedparser.parse((tmp_path / "site" / "feeds" / "all.atom").read_bytes())
    assert {e.link.split("#")[1][:2] for e in feed.entries if "#" in e.link} >= {"c-", "d-"}
