"""The search index the search page filters (tracker/website/search.py)."""

from __future__ import annotations

import json

from sitefixture import NOW, populate

from tracker.website import build_site


def _index(text: str) -> tuple[dict[str, str], list[list[str]]]:
    marks_line, entries_line = text.splitlines()
    marks = json.loads(marks_line.removeprefix("window.TRACKER_MARKS=").removesuffix(";"))
    entries = json.loads(entries_line.removeprefix("window.TRACKER_SEARCH=").removesuffix(";"))
    return marks, entries


def test_a_claim_entry_carries_its_verdict(engine, tmp_path):
    # a contradicted and a confirmed figure must not look the same in the results
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW, base_url="https://dash.example.org/")
    marks, entries = _index((tmp_path / "site" / "assets" / "search-index.js").read_text())
    assert marks == {"✓": "confirmed", "✗": "contradicted", "≠": "disputed", "!": "overdue",
                     "…": "pending", "?": "unverified", "·": ""}  # fmt: skip
    claims = [e for e in entries if e[0] == "c"]
    assert claims and all(len(e) == 6 and e[4] in marks for e in claims)
    said = sorted((e[1], marks[e[4]]) for e in claims if e[1].startswith("Kimi"))
    assert said == [
        ("Kimi K2 Thinking: Input price $0.60 per 1M tokens", ""),  # no verdict yet
        ("Kimi K3.1 Pro: Benchmark score 65.7%", "disputed"),
        ("Kimi K3.1 Pro: Benchmark score 65.7%", "disputed"),
        ("Kimi K3.1 Pro: Input price $0.45 per 1M tokens", "confirmed"),
        ("Kimi K3.1 Pro: Open-weights date before 2026-11-04", "overdue"),
        ("Kimi K3.1 Pro: Open-weights date on 2026-11-04", "overdue"),
    ]
    # subjects and sources keep their searched words in the fifth place
    subject = next(e for e in entries if e[0] == "s" and e[1] == "Kimi K3.1 Pro")
    assert subject[4].startswith("kimi-k3.1-pro")


def test_aliases_that_repeat_the_display_name_are_not_shown(engine, tmp_path):
    # a trial: "also called Halcyon Vireo 30B, Vireo 30B" on Halcyon Vireo 30B's page and
    # in search; the same for Kimi K3.1 Pro (data/subjects.toml lists the name as an alias)
    from sqlmodel import Session, select

    from claims.store.tables import Subject, SubjectAlias
    from claims.subjects.matching import same_name

    populate(engine)
    with Session(engine) as s:
        k31 = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        s.add_all(
            [SubjectAlias(subject_id=k31.id, alias=a) for a in ("Kimi K3.1 Pro", "kimi-k3.1 PRO")]
        )
        s.commit()
    site = tmp_path / "site"
    build_site(engine, site, now=NOW, base_url="https://dash.example.org/")
    page = (site / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert " · also called K3.1 Pro, Kimi 3.1 Pro · " in page
    _, entries = _index((site / "assets" / "search-index.js").read_text())
    subject = next(e for e in entries if e[0] == "s" and e[1] == "Kimi K3.1 Pro")
    assert subject[3] == "Moonshot AI · K3.1 Pro, Kimi 3.1 Pro"
    listed = (site / "search.html").read_text()
    assert "Moonshot AI · also K3.1 Pro, Kimi 3.1 Pro</small>" in listed
    # the API keeps every alias the data states
    api = json.loads((site / "api" / "subjects" / "kimi-k3.1-pro.json").read_text())
    assert "kimi-k3.1 PRO" in api["aliases"]
    assert same_name("Kimi K3.1 Pro", "kimi-k3.1 PRO") and not same_name(
        "K3.1 Pro", "Kimi K3.1 Pro"
    )
    assert not same_name("通义千问", "千问") and same_name("通义 千问", "通义千问")


def test_a_claim_entry_keeps_its_source_title_out_of_its_searched_words(engine, tmp_path):
    """A claim's searched items (name, detail, mark) carry no source title; the title
    is its sixth item, shown only, and the source's own entry is what a title finds.
    Every claim follows its subject's entry, whose words the script searches with it."""
    populate(engine)
    build_site(engine, tmp_path / "site", now=NOW, base_url="https://dash.example.org/")
    _, entries = _index((tmp_path / "site" / "assets" / "search-index.js").read_text())
    titles = {e[1] for e in entries if e[0] == "o"}
    claims = [e for e in entries if e[0] == "c"]
    assert titles and claims
    for claim in claims:
        assert claim[5] in titles, claim
        assert not any(t in claim[1] or t in claim[3] for t in titles), claim
    tb3 = next(e for e in claims if e[3].startswith("benchmark: Terminal-Bench, version: 3.0"))
    assert tb3[3:] == ["benchmark: Terminal-Bench, version: 3.0 · Moonshot AI", "≠", "Artigo A"]
    subject_of = None
    for e in entries:
        if e[0] == "s":
            subject_of = e[2]
        elif e[0] == "c":
            assert subject_of is not None and e[2].startswith(subject_of + "#"), e
