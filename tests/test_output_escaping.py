"""Output escaped for where it goes (issue 20, item 3): one payload of every hostile kind
(tests/data/hostile/payloads.json: XSS, control and escape sequences, bidi and
zero-width characters, formula starts, chat mentions and links, rich markup) is planted in
each text field a scraped page or an import can fill, then every output is checked:
the site's HTML, the Atom feeds, api/claims.csv, `tracker status`, `discrepancies` and
`watches`, and the chat alerts."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from lxml import etree
from sitefixture import NOW, populate
from sqlalchemy import text
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.tables import Event, Subject
from claims.values.value import text_value
from tracker.alerts.send import compose, compose_digest
from tracker.cli.main import app
from tracker.website import build_site

CORPUS = Path(__file__).resolve().parent / "data" / "hostile" / "payloads.json"
PAYLOADS = json.loads(CORPUS.read_text(encoding="utf-8"))["payloads"]
EVIL = " ".join(p["text"] for p in PAYLOADS if p["kind"] != "size")
# Characters that must never reach a terminal or an XML file as they are.
RAW_CONTROLS = ["\x00", "\x1b", "\x07", "\x9b", "\x0b", "\x0c", "\x08", "\u202e", "\u2067"]
FIELDS = {
    "subject.name": "UPDATE subject SET name = :p WHERE slug = 'kimi-k2-thinking'",
    "subject.organization": "UPDATE subject SET organization = :p WHERE slug = 'orca-9b'",
    "source.title": "UPDATE source SET title = :p WHERE key = 'press-a'",
    "source.publisher": "UPDATE source SET publisher = :p WHERE key = 'press-b'",
    "claim.claimant": "UPDATE claim SET claimant = :p",
    "claim.raw_text": "UPDATE claim SET raw_text = :p WHERE attribute = 'license'",
    "verdict.reason": "UPDATE verdict SET reason = :p",
    "discrepancy.reason": "UPDATE discrepancy SET reason = :p",
    "watch.last_error": "UPDATE watch SET last_error = :p",
    "event.title": "UPDATE event SET title = :p",
}


def _payload(field: str) -> str:
    return f"<<{field}>> {EVIL}"


@pytest.fixture
def planted(engine, tmp_path):
    populate(engine)
    with engine.begin() as conn:
        for field, sql in FIELDS.items():
            conn.execute(text(sql), {"p": _payload(field)})
        licence = json.dumps(text_value(_payload("observation.license")).to_dict())
        conn.execute(
            text("UPDATE observation SET value_json = :v WHERE attribute = 'license'"),
            {"v": licence},
        )
    return engine


def test_the_corpus_covers_every_kind():
    kinds = {p["kind"] for p in PAYLOADS}
    assert kinds >= {"xss", "control", "bidi", "zero-width", "formula", "mention", "markup"}


def test_the_site_feeds_and_csv_are_safe(planted, tmp_path):
    """A NUL or control character in a scraped licence or claimant made `tracker build`
    crash (lxml ValueError); formula cells went into claims.csv verbatim."""
    out = tmp_path / "site"
    build_site(planted, out, now=NOW, base_url="https://dash.example.org/")
    pages = sorted(out.rglob("*.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for raw in ("<script>document.title", "<img src=x onerror", "<svg/onload"):
            assert raw not in html, page
    feeds = sorted(out.rglob("*.xml")) + sorted(out.rglob("*.atom"))
    assert feeds
    for feed in feeds:
        body = feed.read_bytes()
        etree.fromstring(body)  # well-formed XML
        assert b"\x00" not in body and b"\x1b" not in body, feed
    assert any(b"&lt;&lt;event.title&gt;&gt;" in f.read_bytes() for f in feeds)
    rows = list(csv.reader(io.StringIO((out / "api" / "claims.csv").read_text())))
    assert any("<<claim.claimant>>" in cell for row in rows for cell in row)
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def test_terminal_output_shows_escapes_and_no_markup(planted, tmp_path):
    """ "[/]" in a name crashed `tracker status` (rich markup); ESC/OSC/BEL sequences
    from scraped text reached the terminal through `tracker discrepancies`."""
    db = str(planted.url.database)
    outputs = {
        "status": _run(["status", "kimi-k2-thinking", "--db", db]),
        "discrepancies": _run(["discrepancies", "--db", db]),
        "watches": _run(["watches", "--db", db]),
    }
    marks = {
        "status": ["<<subject.name>>", "<<observation.license>>"],
        "discrepancies": ["<<discrepancy.reason>>"],
        "watches": ["<<watch.last_error>>"],
    }
    for command, output in outputs.items():
        for mark in marks[command]:
            assert mark in output, command
        for raw in RAW_CONTROLS:
            assert raw not in output, (command, repr(raw))
        assert "\\x1b[31mred" in output or "\\x1b[31mred" in output.replace("\n", "")
    assert "[/] [bold red]x[/bold red]" in outputs["status"]


def test_chat_alerts_neutralize_mentions_and_links(planted):
    with Session(planted) as s:
        events = s.exec(select(Event)).all()
        subjects = {x.id: x for x in s.exec(select(Subject)).all()}
    assert events
    for ev in events:
        msg = compose(ev, subjects.get(ev.subject_id), "https://dash.example.org/")
        for part in (msg.title, msg.text):
            assert "@everyone" not in part and "@here" not in part
            assert "<@U024BE7LH>" not in part and "<!channel>" not in part
            assert "](https://evil.example/payload)" not in part
            assert not any(raw in part for raw in RAW_CONTROLS)
        assert "<<event.title>>" in msg.title
        assert "`https://evil.example/payload`" in msg.title
    digest = compose_digest(events, "https://dash.example.org/")  # several to one target
    assert "@everyone" not in digest.text and "<@U024BE7LH>" not in digest.text
    assert "](https://evil.example/payload)" not in digest.text
    assert not any(raw in digest.text for raw in RAW_CONTROLS)
