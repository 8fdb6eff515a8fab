"""Incremental site builds: a rebuild renders only files whose input changed, and the
result equals a build from scratch byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from sqlmodel import Session, select

from claims.store.tables import Claim, Source, Subject, Verdict, Watch
from tracker.website import build as build_module
from tracker.website import build_site
from tracker.website import render as render_module
from tracker.website.exports import _dump, dump_with_encoded
from tracker.website.manifest import MANIFEST

BASE = "https://dash.example.org/"
ASSETS = {"assets/site.js", "assets/site.css"}


def build(engine, out: Path):  # type: ignore[no-untyped-def]
    return build_site(engine, out, now=NOW, base_url=BASE)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def set_claimant(engine, raw_text: str, claimant: str) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        for claim in s.exec(select(Claim).where(Claim.raw_text == raw_text)).all():
            claim.claimant = claimant
            s.add(claim)
        s.commit()


@pytest.fixture
def site(engine, tmp_path):
    populate(engine)
    out = tmp_path / "site"
    first = build(engine, out)
    return engine, out, first


def test_first_build_renders_every_file(site):
    _, out, first = site
    assert first.pages_rendered == len(first.rendered_paths) == 104
    assert set(first.rendered_paths) == set(tree(out)) - {MANIFEST}


def test_unchanged_rebuild_renders_nothing(site):
    engine, out, _ = site
    again = build(engine, out)
    assert again.rendered_paths == ()
    assert (again.pages_written, again.pages_unchanged) == (0, 105)


def test_one_claim_renders_only_what_shows_it(site, tmp_path):
    """The claimant shows on the subject page and in the claim exports; the claim is in no
    discrepancy, and the index, sources page and feeds do not show claimants."""
    engine, out, _ = site
    set_claimant(engine, "<img src=x onerror=alert(1)> AT&T R&D", "Acme Labs")
    again = build(engine, out)
    assert sorted(again.rendered_paths) == [
        "api/claims.csv",
        "api/claims.json",
        "api/subjects/orca-9b.json",
        "assets/search-index.js",  # claimants are searched
        "subjects/orca-9b/index.html",
    ]
    assert sorted(again.written_paths) == sorted([*again.rendered_paths, MANIFEST])
    assert "Acme Labs" in (out / "subjects" / "orca-9b" / "index.html").read_text()
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_claim_in_a_discrepancy_renders_that_page_too(site, tmp_path):
    engine, out, _ = site
    set_claimant(engine, "65,7%", "Moonshot AI (blog)")  # both Terminal-Bench claims
    again = build(engine, out)
    assert sorted(again.rendered_paths) == [
        "api/claims.csv",
        "api/claims.json",
        "api/subjects/kimi-k3.1-pro.json",
        "assets/search-index.js",
        "discrepancies.html",
        "subjects/kimi-k3.1-pro/index.html",
    ]
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_renamed_subject_renders_its_rows_and_feeds(site, tmp_path):
    engine, out, _ = site
    with Session(engine) as s:
        orca = s.exec(select(Subject).where(Subject.slug == "orca-9b")).one()
        orca.name = "Orca 9B"
        s.add(orca)
        s.commit()
    pages = {p: data for p, data in tree(out).items() if p.endswith(".html")}
    listing = {p for p, data in pages.items() if b"subjects/orca-9b/index.html" in data}
    # every subject page: one may name Orca by a claim relative to it (subjectrefs.py)
    subject_pages = {p for p in pages if p.startswith("subjects/")}
    again = build(engine, out)
    assert set(again.rendered_paths) == listing | subject_pages | {
        "api/claims.csv",
        "api/claims.json",
        "api/subjects.json",
        "api/subjects/orca-9b.json",
        "feeds/all.atom",
        "feeds/orca-9b.atom",
        "api/table.json",  # the comparison table as data, and the compare page's copy
        "api/table.csv",
        "assets/table-data.js",
        "assets/search-index.js",
        "charts.html",  # names Orca among the subjects its chart leaves out
    }
    assert "Orca 9B (no output price or compared speed)" in (out / "charts.html").read_text()
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_a_page_naming_another_subject_shows_its_new_name_after_a_rename(site, tmp_path):
    engine, out, _ = site
    with Session(engine) as s:
        kimi = s.exec(select(Subject).where(Subject.slug == "kimi-k3.1-pro")).one()
        source = s.exec(select(Source)).first()
        s.add(
            Claim(
                key="kimi-price-change-vs-orca",
                subject_id=kimi.id,
                attribute="price_change_pct",
                qualifiers_json=json.dumps({"relative_to": "orca-9b", "side": "output"}),
                value_json=json.dumps({"kind": "quantity", "value": "-20", "unit": "percent"}),
                raw_text="20% cheaper than Orca",
                source_id=source.id,
                claimant="A lab",
                created_at=NOW,
            )
        )
        s.commit()
    build(engine, out)
    with Session(engine) as s:
        orca = s.exec(select(Subject).where(Subject.slug == "orca-9b")).one()
        orca.name = "Orca Nine"
        s.add(orca)
        s.commit()
    build(engine, out)
    page = (out / "subjects/kimi-k3.1-pro/index.html").read_text()
    assert "Orca Nine</a>" in page
    # search shows the name too (a trial read "relative to: kimi-k3"), kept by the
    # incremental build after the rename
    index = (out / "assets/search-index.js").read_text()
    assert "relative to: Orca Nine, price side: output" in index
    assert "relative to: orca-9b" not in index
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_newer_watch_check_renders_the_pages_that_show_it(site, tmp_path):
    """'Data as of' (the latest successful watch check) shows on the index views, the
    compare page (its figures are the table's, even before subjects are chosen) and the
    watches page only, so a cycle re-renders those (and the subject pages and pre-built
    comparisons whose weights cells show that watch's check time), not the whole site."""
    engine, out, _ = site
    with Session(engine) as s:
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        hf.last_success = NOW
        s.add(hf)
        s.commit()
    again = build(engine, out)
    pages = {p for p in tree(out) if p.endswith(".html")}
    rendered = {p for p in again.rendered_paths if p.endswith(".html")}
    shows_it = {p for p in pages if p == "index.html" or p.startswith("index/")}
    shows_it |= {"watches.html", "compare.html"}
    assert shows_it <= rendered
    assert {"discrepancies.html", "sources.html", "changes.html"}.isdisjoint(rendered)
    # and the pre-built comparisons of those subjects (their weights cells too)
    assert {p for p in rendered - shows_it} <= {
        p for p in pages if p.startswith(("subjects/", "compare/"))
    }
    stamp = 'Data as of the latest successful watch check, <time datetime="2026-11-29T16:00:00Z">'
    assert all(stamp in (out / p).read_text() for p in shows_it)
    # every other page says "Data as of" with a link to the time, which assets/as-of.js
    # (re-written) gives its script: the page itself does not move with the check
    assert not any(stamp in (out / p).read_text() for p in pages - shows_it)
    link = 'Data as of <a href="{}watches.html#as-of" data-as-of>the latest successful watch check</a>.'
    for p in pages - shows_it:
        assert link.format("../" * p.count("/")) in (out / p).read_text(), p
    assert "assets/as-of.js" in again.rendered_paths
    assert (out / "assets" / "as-of.js").read_text() == (
        'window.TRACKER_AS_OF={"data_as_of":"2026-11-29T16:00:00Z","text":"2026-11-29 16:00 UTC"};\n'
    )
    assert not any(p.startswith("feeds/") for p in again.rendered_paths)
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_deleted_or_truncated_file_renders_again(site):
    engine, out, _ = site
    page = out / "subjects" / "orca-9b" / "index.html"
    feed = out / "feeds" / "orca-9b.atom"
    before = page.read_bytes(), feed.read_bytes()
    page.unlink()
    feed.write_bytes(before[1][:100])
    again = build(engine, out)
    assert sorted(again.rendered_paths) == ["feeds/orca-9b.atom", "subjects/orca-9b/index.html"]
    assert (page.read_bytes(), feed.read_bytes()) == before


def test_template_change_renders_every_page(site, tmp_path, monkeypatch):
    engine, out, _ = site
    templates = tmp_path / "templates"
    shutil.copytree(render_module.templates_dir(), templates)
    monkeypatch.setattr(render_module, "templates_dir", lambda: templates)
    monkeypatch.setattr(build_module, "templates_dir", lambda: templates)
    assert build(engine, out).rendered_paths == ()  # same sources, same keys
    base = templates / "base.html"
    base.write_text(base.read_text().replace("<footer>", "<footer>\n<!-- edited -->"))
    again = build(engine, out)
    every = set(tree(out)) - {MANIFEST}
    assert set(again.rendered_paths) == every - ASSETS  # assets are keyed by their bytes
    pages = {p for p in every if p.endswith(".html")}
    assert set(again.written_paths) == pages | {MANIFEST}
    assert all("<!-- edited -->" in (out / p).read_text() for p in pages)


def test_manifest_of_an_older_build_renders_everything(site):
    engine, out, _ = site
    files = sorted(set(tree(out)) - {MANIFEST})
    (out / MANIFEST).write_text(json.dumps([*files, "old.html"]))
    (out / "old.html").write_text("stale")
    again = build(engine, out)
    assert len(again.rendered_paths) == 104 and again.pages_removed == 1
    assert again.written_paths == (MANIFEST,)  # every page came out byte-identical


def test_dump_with_encoded_matches_dump():
    obj = {"schema": 1, "name": 'Orca <9B> & "Chat"', "z": [1.5, None, {"b": 2, "a": "é"}]}
    claims = [{"id": 2, "raw_text": "65,7%"}, {"id": 1, "value": {"unit": "%", "kind": "q"}}]
    encoded = {"claims": _dump(claims).rstrip("\n")}
    assert dump_with_encoded(obj, encoded) == _dump({**obj, "claims": claims})


def test_claims_that_swap_sources_render_the_sources_page(site, tmp_path):
    """sources.html is keyed by each subject's digest of the claims it lists with their
    source (not by encoding every claim): two claims with the same verdict that swap
    sources leave every count the same, yet each moves to the other's list there."""
    engine, out, _ = site
    with Session(engine) as s:
        verdicts = {v.claim_id: v.status for v in s.exec(select(Verdict)).all()}
        claims = s.exec(select(Claim).order_by(Claim.id)).all()
        a, b = next(
            (a, b)
            for a in claims
            for b in claims
            if a.source_id != b.source_id and verdicts.get(a.id) == verdicts.get(b.id)
        )
        a.source_id, b.source_id = b.source_id, a.source_id
        moved = {a.id: a.source_id, b.id: b.source_id}
        s.add_all([a, b])
        s.commit()
        keys = {i: s.get(Source, sid).key for i, sid in moved.items()}  # type: ignore[union-attr]
    again = build(engine, out)
    assert "sources.html" in again.rendered_paths
    page = (out / "sources.html").read_text()
    for claim_id, key in keys.items():
        section = page.split(f'<section id="claims-{key}">')[1].split("</section>")[0]
        assert f"#claim-{claim_id}" in section
    scratch = tmp_path / "scratch"
    build(engine, scratch)
    assert tree(out) == tree(scratch)


def test_a_views_digest_covers_every_field_through_its_rows(engine):
    """``SubjectDigests.of`` hashes a view as its claims' and row's digests and the
    fields the row lacks (``pages.VIEW_ONLY``): that covers the whole view only while
    the row is the view's same-named fields. A change to a row field changes both
    digests; to a view-only field, the view's alone."""
    from dataclasses import fields

    from tracker.website.collect import collect
    from tracker.website.pages import ROW_FIELDS, VIEW_ONLY, SubjectDigests
    from tracker.website.views import SubjectView

    populate(engine)
    build_module.clear_build_caches()
    subjects = collect(engine).subjects
    assert set(VIEW_ONLY) | ROW_FIELDS | {"groups", "facts", "card"} == {
        f.name for f in fields(SubjectView)
    }
    for sv in subjects:
        row = sv.row()
        assert all(getattr(row, name) is getattr(sv, name) for name in ROW_FIELDS)
    before = SubjectDigests.of(subjects)
    sv = subjects[0]
    sv.variants = [*sv.variants, "a new variant"]
    after = SubjectDigests.of(subjects)
    assert after.view[sv.slug] != before.view[sv.slug]
    assert after.row == before.row and after.claims == before.claims
    sv.aliases = [*sv.aliases, "A new alias"]
    again = SubjectDigests.of(subjects)
    assert again.row[sv.slug] != after.row[sv.slug]
    assert again.view[sv.slug] != after.view[sv.slug]
    others = [s.slug for s in subjects[1:]]
    assert [again.view[s] for s in others] == [before.view[s] for s in others]


def test_a_subjects_summary_is_made_of_its_row(engine):
    """``api/subjects.json`` is keyed by the subjects' row digests (``build.export_jobs``),
    so a summary must read nothing but row fields: with every other field of the view
    withheld, each summary is the same."""
    from dataclasses import replace

    from tracker.website.collect import collect
    from tracker.website.exports import subject_summary
    from tracker.website.pages import VIEW_ONLY
    from tracker.website.views import Withheld

    populate(engine)
    build_module.clear_build_caches()
    subjects = collect(engine).subjects
    assert any(sv.weights.promises or sv.weights.landed for sv in subjects)
    for sv in subjects:
        hidden = {name: Withheld(name) for name in (*VIEW_ONLY, "groups", "facts", "card")}
        assert subject_summary(replace(sv, **hidden)) == subject_summary(sv)
