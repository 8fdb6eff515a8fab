"""Decoding a page: BOM, then the HTTP charset, then the declared one, then UTF-8; and
identical raw bytes are never a change whatever the decoding (cases/C28, issue 20)."""

from __future__ import annotations

import codecs
import datetime as dt

import httpx
from cycle_setup import add_named_subject, add_watch
from sqlmodel import Session, select

from claims.store.tables import Event, Observation
from tracker.adapters.html_page import parse_html
from tracker.cycle.run import run_check
from tracker.net.fetch import make_client
from tracker.net.response import Fetched
from tracker.snapshots.store import SnapshotStore

NOW = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
URL = "https://tender.example/notice"
PARAMS = {"selector": "td", "subject": "Orion", "attribute": "license"}
# UTF-8 bytes whose page declares another charset: E5 85 A5 E6 9C AD
BODY = '<html><head><meta charset="windows-1252"></head><td>入札</td></html>'.encode()


def _read(body: bytes, content_type: str | None) -> str:
    headers = {"content-type": content_type} if content_type else {}
    f = Fetched.from_body(URL, body, NOW, headers=headers)
    return str(parse_html(f, PARAMS).values[0].value.value)


def test_the_http_charset_wins_over_the_meta_tag():
    assert _read(BODY, "text/html; charset=utf-8") == "入札"
    assert _read(BODY, 'text/html; charset="UTF-8"') == "入札"


def test_the_declared_charset_is_used_when_http_names_none():
    sjis = '<meta charset="shift_jis"><td>入札</td>'.encode("shift_jis")
    assert _read(sjis, "text/html") == "入札"


def test_a_bom_wins_over_everything():
    body = codecs.BOM_UTF8 + BODY
    assert _read(body, "text/html; charset=iso-8859-1") == "入札"


def test_identical_bytes_decoded_differently_are_no_change(engine, tmp_path):
    """t1 with the HTTP charset; t2 the same bytes without it (the meta tag then says
    windows-1252: "å…¥æœ\xad"). No license_changed, the value stays "入札"."""
    with Session(engine) as s:
        add_named_subject(s, "orion", "Orion")
        s.commit()
    add_watch(engine, "tender", "html_page", URL, **PARAMS)
    store = SnapshotStore(tmp_path)
    answers = iter(["text/html; charset=utf-8", "text/html"])

    def handler(request):
        return httpx.Response(200, headers={"content-type": next(answers)}, content=BODY)

    client = make_client(transport=httpx.MockTransport(handler))
    run_check(engine, client, snapshot_store=store, now=NOW)
    later = NOW + dt.timedelta(hours=1)
    summary = run_check(engine, client, snapshot_store=store, now=later)
    assert (summary.changed, summary.events) == (0, 0)
    assert summary.results[0].warnings == [
        "tender: license read differently from identical bytes or as a mis-decoding of its "
        "value (a decoding difference, not a change; kept)"
    ]
    with Session(engine) as s:
        obs = s.exec(select(Observation)).all()
        events = s.exec(select(Event)).all()
    assert [(o.value.value, o.current, o.last_seen) for o in obs] == [("入札", True, later)]
    assert [e.kind for e in events] == []


def test_a_misdecoded_text_from_new_bytes_is_no_change(engine, tmp_path):
    """The guard of cases/C28: a new text that is the old one read as windows-1252 is a
    decoding error even when the bytes differ (another page template, same text)."""
    with Session(engine) as s:
        add_named_subject(s, "orion", "Orion")
        s.commit()
    add_watch(engine, "tender", "html_page", URL, **PARAMS)
    store = SnapshotStore(tmp_path)
    good = "<td>入札</td>".encode()
    mojibake = "<p></p><td>入札</td>".encode().decode("cp1252").encode("utf-8")
    bodies = iter([good, mojibake])

    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/html"}, content=next(bodies))

    client = make_client(transport=httpx.MockTransport(handler))
    run_check(engine, client, snapshot_store=store, now=NOW)
    summary = run_check(engine, client, snapshot_store=store, now=NOW + dt.timedelta(hours=1))
    assert (summary.changed, summary.events) == (0, 0)
    with Session(engine) as s:
        values = [o.value.value for o in s.exec(select(Observation)).all()]
    assert values == ["入札"]
