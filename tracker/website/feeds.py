"""Atom feeds (RFC 4287) of subscriber events, written with feedgen.

Why feedgen: it is the maintained Atom/RSS writer for Python, builds the XML with
lxml (so text is escaped by the serializer, not by hand) and lets us set every date
and id ourselves, which byte-identical rebuilds need (cases/C18).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from markupsafe import escape

from claims.values.canonical import as_utc
from claims.values.safetext import xml_text

if TYPE_CHECKING:
    from tracker.website.views import EventView

TAG_YEAR = 2026  # the tag URI's authority date (RFC 4151); never changes once published
# ``updated`` of a feed with no entries when the database holds no subscriber event at all
# (a constant, not the build time: an unchanged database must rebuild identical bytes)
FEED_EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
FEED_LIMIT = 100
AUTHOR = "release-tracker"


@dataclass(frozen=True)
class FeedEntry:
    """One Atom entry: ``id`` is an absolute IRI, ``updated`` any datetime (naive = UTC),
    ``content_html`` an HTML fragment carried as ``type="html"`` text."""

    id: str
    title: str
    updated: dt.datetime
    content_html: str
    link: str | None = None


def tag_uri(base_url: str, specific: str) -> str:
    """``tag:<host>,2026:<specific>`` (RFC 4151), e.g. ``tag:dash.example.org,2026:alert/42``."""
    host = urlsplit(base_url).hostname or "localhost"
    return f"tag:{host},{TAG_YEAR}:{specific}"


def render_atom(
    feed_url: str,
    title: str,
    entries: Sequence[FeedEntry],
    *,
    site_url: str | None = None,
    feed_id: str | None = None,
    empty_updated: dt.datetime | None = None,
) -> bytes:
    """Serialize a feed: UTF-8 Atom bytes, entries in the order given.

    The feed has one id (``feed_id`` or ``feed_url``), title, author, ``link rel="self"``
    to ``feed_url`` and ``updated`` = the newest entry's; with no entries,
    ``empty_updated`` (else :data:`FEED_EPOCH`), so equal input gives equal bytes. Every
    date carries a ``+00:00`` offset. Every text is made XML-safe first
    (:func:`claims.values.safetext.xml_text`: a NUL or control character in a scraped
    licence or claimant stopped the whole build; issue 20).
    """
    # feedgen (and lxml, dateutil under it) loads only when a feed is rendered: a rebuild
    # whose events did not change renders none (a new `tracker build`'s start-up, issue 17)
    from feedgen.feed import FeedGenerator

    fg = FeedGenerator()
    fg.id(xml_text(feed_id or feed_url))
    fg.title(xml_text(title))
    fg.author({"name": AUTHOR})
    fg.link(href=feed_url, rel="self", type="application/atom+xml")
    if site_url:
        fg.link(href=site_url, rel="alternate", type="text/html")
    fg.generator(AUTHOR)
    newest = max((as_utc(e.updated) for e in entries), default=empty_updated or FEED_EPOCH)
    fg.updated(newest)
    for e in entries:
        fe = fg.add_entry(order="append")
        fe.id(xml_text(e.id))
        fe.title(xml_text(e.title))
        fe.updated(as_utc(e.updated))
        fe.content(xml_text(e.content_html), type="html")
        if e.link:
            fe.link(href=xml_text(e.link), rel="alternate", type="text/html")
    return fg.atom_str(pretty=True)


def event_entry(ev: EventView, base_url: str) -> FeedEntry:
    """An event as an entry: what changed, from what to what, linking the anchor of what
    it is about (``ev.target``, :func:`tracker.website.anchors.event_target`: the claim,
    the discrepancy, the weights line or the observed row), else its subject page."""
    if ev.target:
        link = f"{base_url}{ev.target}"
    else:
        page = f"subjects/{ev.subject_slug}/" if ev.subject_slug else "changes.html"
        link = f"{base_url}{page}"
    about = escape(ev.subject_name or "release-tracker")
    body = f'<p>{escape(ev.change_why or ev.change)}</p><p><a href="{escape(link)}">{about}</a></p>'
    return FeedEntry(
        id=tag_uri(base_url, f"event/{ev.key}"),
        title=ev.title,
        updated=ev.created_at,
        content_html=body,
        link=link,
    )


class Named(Protocol):
    """A subject as feeds need it (``Subject`` rows and site views both fit)."""

    slug: str
    name: str


@dataclass(frozen=True)
class FeedSpec:
    """One feed's input: the arguments of :func:`render_atom` (plain data, so a site
    build can hash it and skip an unchanged feed)."""

    feed_url: str
    title: str
    entries: tuple[FeedEntry, ...]
    site_url: str | None = None
    empty_updated: dt.datetime | None = None  # ``updated`` when there are no entries

    def render(self) -> bytes:
        """The feed's Atom bytes."""
        return render_atom(
            self.feed_url,
            self.title,
            self.entries,
            site_url=self.site_url,
            empty_updated=self.empty_updated,
        )


def site_feed_specs(
    events: Iterable[EventView], subjects: Iterable[Named], base_url: str
) -> dict[str, FeedSpec]:
    """``feeds/all.atom`` and ``feeds/<slug>.atom`` from subscriber events (newest first,
    at most :data:`FEED_LIMIT` each); ``base_url`` ends with ``/``.

    A feed with no entries (a subject nothing has happened to yet) is ``updated`` at the
    newest subscriber event of the whole site: RFC 4287 §4.2.15 asks for the latest
    significant change, and the feeds last changed then (:data:`FEED_EPOCH` only when
    there is no event at all)."""
    public = [ev for ev in events if ev.audience == "subscriber"]
    public.sort(key=lambda ev: (ev.created_at, ev.id or 0), reverse=True)
    latest = as_utc(public[0].created_at) if public else None
    out = {
        "feeds/all.atom": FeedSpec(
            f"{base_url}feeds/all.atom",
            "release-tracker: all changes",
            tuple(event_entry(ev, base_url) for ev in public[:FEED_LIMIT]),
            site_url=base_url,
            empty_updated=latest,
        )
    }
    by_slug: dict[str | None, list[EventView]] = defaultdict(list)
    for ev in public:  # grouped once: a scan per subject is quadratic
        by_slug[ev.subject_slug].append(ev)
    for s in subjects:
        own = by_slug[s.slug][:FEED_LIMIT]
        out[f"feeds/{s.slug}.atom"] = FeedSpec(
            f"{base_url}feeds/{s.slug}.atom",
            f"release-tracker: {s.name}",
            tuple(event_entry(ev, base_url) for ev in own),
            site_url=f"{base_url}subjects/{s.slug}/",
            # only an empty feed's spec holds it: another subject's event must not
            # change the build key of a feed that has entries of its own
            empty_updated=None if own else latest,
        )
    return out


def site_feeds(
    events: Iterable[EventView], subjects: Iterable[Named], base_url: str
) -> dict[str, bytes]:
    """:func:`site_feed_specs`, rendered: path -> Atom bytes."""
    return {
        path: spec.render() for path, spec in site_feed_specs(events, subjects, base_url).items()
    }
