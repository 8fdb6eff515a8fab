"""Claim views kept between builds of one process (tracker/website/claimviews.py): a
rebuild reuses only subjects whose inputs did not change, and what it writes equals a
build in a fresh process (caches cleared) byte for byte."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from sqlmodel import Session, select

from claims.store.tables import Claim, Observation, Source, Subject
from claims.values.canonical import dumps
from claims.values.value import quantity
from tracker.website import build as build_module
from tracker.website.build import build_site, clear_build_caches

BASE = "https://dash.example.org/"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def cold_build(engine, out: Path) -> None:  # type: ignore[no-untyped-def]
    clear_build_caches()
    build_site(engine, out, now=NOW, base_url=BASE)


@pytest.fixture
def warm(engine, tmp_path):
    """A populated database and a site built twice in this process (the memo filled)."""
    ids = populate(engine)
    clear_build_caches()
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url=BASE)
    build_site(engine, out, now=NOW, base_url=BASE)
    return engine, out, ids


def rebuild_matches_cold(engine, out: Path, tmp_path: Path) -> int:  # type: ignore[no-untyped-def]
    """Rebuild warm; assert it equals a cold build; return subjects whose views were made."""
    build_site(engine, out, now=NOW, base_url=BASE)
    made = build_module.MEMO.made
    scratch = tmp_path / "scratch"
    cold_build(engine, scratch)
    assert tree(out) == tree(scratch)
    return made


def test_unchanged_rebuild_makes_no_claim_views(warm):
    engine, out, _ = warm
    build_site(engine, out, now=NOW, base_url=BASE)
    assert build_module.MEMO.made == 0


def test_one_changed_claim_makes_one_subjects_views(warm, tmp_path):
    engine, out, _ = warm
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.raw_text == "US$ 0,60")).one()
        claim.claimant = "Acme Labs"
        s.add(claim)
        s.commit()
    assert rebuild_matches_cold(engine, out, tmp_path) == 1
    assert "Acme Labs" in (out / "api" / "claims.csv").read_text()


def test_renamed_source_remakes_every_subject_citing_it(warm, tmp_path):
    engine, out, _ = warm
    with Session(engine) as s:
        source = s.exec(select(Source).order_by(Source.id)).first()
        source.title = "A renamed source"  # type: ignore[union-attr]
        s.add(source)
        s.commit()
        citing = {
            c.subject_id
            for c in s.exec(select(Claim).where(Claim.source_id == source.id)).all()  # type: ignore[union-attr]
        }
    assert rebuild_matches_cold(engine, out, tmp_path) == len(citing) > 0
    assert "A renamed source" in (out / "api" / "claims.json").read_text()


def test_newer_sighting_of_cited_evidence_remakes_the_claims_citing_it(warm, tmp_path):
    """A verdict's evidence line shows when its observation was last seen: the claim row
    is unchanged, but its view is not."""
    engine, out, _ = warm
    with Session(engine) as s:
        obs = s.exec(select(Observation).where(Observation.current)).all()
        cited = [o for o in obs if o.attribute == "price_input_usd_per_mtok"][0]
        cited.last_seen = dt.datetime(2026, 11, 28, 8, tzinfo=dt.UTC)
        s.add(cited)
        s.commit()
    assert rebuild_matches_cold(engine, out, tmp_path) == 1


def test_new_headline_benchmark_redoes_the_table_cells_of_untouched_subjects(warm, tmp_path):
    """Table cells are kept with a subject's card for the headline benchmarks they were
    made for (collect.card_derived): a benchmark that two other subjects now report
    becomes the first score column, and Kimi K3.1's unchanged Terminal-Bench scores
    move one column right."""
    engine, out, _ = warm
    with Session(engine) as s:
        source = s.exec(select(Source).order_by(Source.id)).first()
        for slug in ("kimi-k2-thinking", "orca-9b"):
            subject = s.exec(select(Subject).where(Subject.slug == slug)).one()
            s.add(
                Claim(
                    key=f"aaa-{slug}",
                    subject_id=subject.id,
                    attribute="benchmark_score",
                    qualifiers_json=dumps({"benchmark": "AAA Bench"}),
                    value_json=dumps(quantity("50", "percent").to_dict()),
                    raw_text="50%",
                    source_id=source.id,  # type: ignore[union-attr]
                    claimant="Someone",
                    created_at=NOW,
                )
            )
        s.commit()
    assert rebuild_matches_cold(engine, out, tmp_path) == 2
    table = json.loads((out / "api" / "table.json").read_text())
    assert [c["label"] for c in table["columns"] if c["key"].startswith("score-")][0] == "AAA Bench"


def test_inputs_digest_reads_a_verdict_time_the_same_from_either_database():
    from claims.store.siteread import CLAIM_COLUMNS
    from tracker.website.claimviews import MemoKey, inputs_digest

    def key(as_of: object, claimant: str = "Lab") -> MemoKey:
        row = [None] * len(CLAIM_COLUMNS)
        row[0], row[7] = 1, claimant
        row[CLAIM_COLUMNS.index("verdict.as_of")] = as_of
        return MemoKey((("slug", "Name"), (tuple(row),), (), ()))

    sqlite_text = key("2026-11-28 06:00:00.000000")  # SQLite's DATETIME text
    aware = key(dt.datetime(2026, 11, 28, 7, tzinfo=dt.timezone(dt.timedelta(hours=1))))
    naive = key(dt.datetime(2026, 11, 28, 6))  # stored UTC, read back without a zone
    assert inputs_digest(aware) == inputs_digest(naive) == inputs_digest(sqlite_text)
    assert inputs_digest(key(None)) != inputs_digest(sqlite_text)
    assert inputs_digest(key(None, "Another lab")) != inputs_digest(key(None))
