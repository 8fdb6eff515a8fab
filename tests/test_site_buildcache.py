"""The site build cache (``tracker/website/segments.py``, ``records.py``): a build in a
new process makes claim views only for subjects whose input changed (the others are
served by their build records) and takes unchanged subjects' parts of the big exports
from the previous output files, and its output equals a build from scratch into an
empty folder, byte for byte, whatever input changed; a tampered output file or a
damaged cache makes it encode them again."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from sqlmodel import Session, select

from claims.store.outbox import make_event
from claims.store.tables import (
    Claim,
    Discrepancy,
    Event,
    Observation,
    Source,
    Subject,
    SubjectAlias,
    Verdict,
)
from claims.values.canonical import dumps
from claims.values.value import date_value, quantity, text_value
from tracker.website import build as build_module
from tracker.website import render as render_module
from tracker.website.build import build_site, clear_build_caches
from tracker.website.fragments import FRAGMENTS
from tracker.website.records import RECORDS_FILE
from tracker.website.segments import CACHE_FILE
from tracker.website.writer import SiteError

BASE = "https://dash.example.org/"
BIG = ("api/claims.json", "api/claims.csv", "assets/search-index.js")


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def cold_build(engine, out: Path, cache: Path, base: str = BASE):  # type: ignore[no-untyped-def]
    """A build as a new process makes it: nothing kept in memory, the cache on disk."""
    clear_build_caches()
    return build_site(engine, out, now=NOW, base_url=base, cache_dir=cache)


def scratch_tree(engine, tmp_path: Path, base: str = BASE) -> dict[str, bytes]:
    clear_build_caches()
    scratch = tmp_path / "scratch"
    build_site(engine, scratch, now=NOW, base_url=base)
    return tree(scratch)


@pytest.fixture
def site(engine, tmp_path):
    populate(engine)
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    return engine, out, cache


def edit(engine, table, where, **values) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        row = s.exec(select(table).where(where)).first()
        for name, value in values.items():
            setattr(row, name, value)
        s.add(row)
        s.commit()


def claim_value(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.attribute == "context_window")).one()
        claim.value_json = dumps(quantity("256", "tokens", scale=1000).to_dict())
        s.add(claim)
        s.commit()


def claimant(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Claim, Claim.raw_text == "65,7%", claimant="Moonshot AI (blog)")


def verdict(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Verdict, Verdict.id == 1, status="contradicted", reason="edited")


def observation(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Observation, Observation.current == True, last_seen=NOW)  # noqa: E712


def event(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        subject = s.exec(select(Subject).where(Subject.slug == "orca-9b")).one()
        s.add(
            Event(
                key="cache-test",
                kind="subject_discovered",
                subject_id=subject.id,
                title="Orca seen again",
                created_at=NOW,
            )
        )
        s.commit()


def source_title(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Source, Source.id == 1, title="A retitled source </script>")


def note(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Discrepancy, Discrepancy.key == "d-note", note="a new note")


def claim_note(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Claim, Claim.raw_text == "65,7%", note="read from the chart")


def rename(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Subject, Subject.slug == "orca-9b", name="Orca 9B (renamed)")


def new_subject(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        subject = Subject(slug="new-model", name="New Model", organization="Lab")
        s.add(subject)
        s.flush()
        claim = Claim(
            key="new-1",
            subject_id=subject.id,  # type: ignore[arg-type]
            attribute="context_window",
            value_json=dumps(quantity("32", "tokens", scale=1000).to_dict()),
            raw_text="32K",
            source_id=1,
            claimant="Lab",
            created_at=NOW,
        )
        s.add(claim)
        s.commit()


def deleted_subject(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        subject = s.exec(select(Subject).where(Subject.slug == "new-model")).one()
        for claim in s.exec(select(Claim).where(Claim.subject_id == subject.id)).all():
            s.delete(claim)
        s.flush()
        s.delete(subject)
        s.commit()


EDITS: dict[str, Callable[..., None]] = {
    "claim value": claim_value,
    "claimant": claimant,
    "verdict": verdict,
    "observation": observation,
    "event": event,
    "source title": source_title,
    "discrepancy note": note,
    "claim note": claim_note,
    "subject rename": rename,
    "new subject": new_subject,
}


@pytest.mark.parametrize("name", list(EDITS))
def test_cold_rebuild_after_an_edit_equals_a_scratch_build(site, tmp_path, name):
    engine, out, cache = site
    EDITS[name](engine)
    cold_build(engine, out, cache)
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_a_second_build_with_no_change_rewrites_nothing_in_the_cache_folder(site):
    """Nothing changed, nothing written: records.pickle was written again on every
    build (a subject in a discrepancy has its record made again, equal to the loaded
    one). A file rewritten through a temporary file has a new inode, one written in
    place a new mtime: neither may change, and no file may come or go."""
    engine, out, cache = site

    def stats() -> dict[str, tuple[int, int, bytes]]:
        return {
            p.relative_to(cache).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
            for p in cache.rglob("*")
            if p.is_file()
        }

    with Session(engine) as s:
        assert s.exec(select(Discrepancy)).first() is not None  # the case that rewrote it
    before = stats()  # after the fixture's first build
    assert RECORDS_FILE in before
    cold_build(engine, out, cache)
    assert stats() == before


def test_cold_rebuild_takes_unchanged_subjects_from_the_output(site, tmp_path):
    """After one claimant changes, every other subject's claim records, CSV rows and
    search entries are copied from the files; only the edited subject's three fragments
    are made."""
    engine, out, cache = site
    subjects = len(list((out / "api" / "subjects").glob("*.json")))
    assert subjects == 3
    listed = json.loads((out / "api" / "claims.json").read_text())["claims"]
    others = [c for c in listed if c["subject"] != "kimi-k3.1-pro"]
    assert 0 < len(others) < len(listed)
    claimant(engine)
    report = cold_build(engine, out, cache)
    assert set(BIG) <= set(report.rendered_paths)
    assert FRAGMENTS.misses == 3  # the edited subject's three parts
    assert FRAGMENTS.hits == 0
    # one part per claim and claim file, one per subject in the search index
    assert report.parts_spliced == 2 * len(others) + subjects - 1
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_deleted_subject(site, tmp_path):
    engine, out, cache = site
    new_subject(engine)
    cold_build(engine, out, cache)
    deleted_subject(engine)
    cold_build(engine, out, cache)
    assert not (out / "subjects" / "new-model" / "index.html").exists()
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_template_change(site, tmp_path, monkeypatch):
    engine, out, cache = site
    templates = tmp_path / "templates"
    shutil.copytree(render_module.templates_dir(), templates)
    monkeypatch.setattr(render_module, "templates_dir", lambda: templates)
    monkeypatch.setattr(build_module, "templates_dir", lambda: templates)
    base = templates / "base.html"
    base.write_text(base.read_text().replace("<footer>", "<footer>\n<!-- edited -->"))
    claimant(engine)
    report = cold_build(engine, out, cache)
    # the code fingerprint is in every key: nothing taken or copied from the output
    assert FRAGMENTS.hits == 0 and report.parts_spliced == 0
    assert views_made() == 3  # and no record served (they carry the fingerprint)
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_base_url_change(site, tmp_path):
    engine, out, cache = site
    claimant(engine)
    cold_build(engine, out, cache, base="https://other.example.net/")
    assert tree(out) == scratch_tree(engine, tmp_path, base="https://other.example.net/")


@pytest.mark.parametrize("restore_mtime", [False, True], ids=["edited", "mtime-restored"])
def test_tampered_output_file_is_not_spliced(site, tmp_path, restore_mtime):
    """An edit of claims.json that keeps its size (so the manifest would not notice) is
    caught by the file's stat noted after the build wrote it, even with its mtime set
    back (``utime`` sets the ctime to now): its parts are encoded again, the edit is
    gone."""
    import os

    engine, out, cache = site
    path = out / "api" / "claims.json"
    data, before = path.read_bytes(), path.stat()
    assert b'"claimant":"Acme"' in data
    # the file system's clock moves in ticks of a few ms: start the edit in a later
    # one than the build's write (what the module docstring says the check relies on)
    probe = tmp_path / "probe"
    for _ in range(1_000_000):
        probe.write_bytes(b"x")
        if probe.stat().st_ctime_ns > before.st_ctime_ns:
            break
    with open(path, "r+b") as f:  # in place: same inode, same size
        f.write(data.replace(b'"claimant":"Acme"', b'"claimant":"EVIL"'))
    if restore_mtime:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert path.stat().st_mtime_ns == before.st_mtime_ns
    claimant(engine)
    cold_build(engine, out, cache)
    assert b"EVIL" not in path.read_bytes()
    assert tree(out) == scratch_tree(engine, tmp_path)


def _shifted(data: bytes) -> bytes:
    """The cache with every part's length one byte longer: still a sound pickle, the
    checksum line no longer its sha256."""
    check, _, body = data.partition(b"\n")
    files = pickle.loads(body)
    for f in files["files"].values():
        f["lengths"] = [n + 1 for n in f["lengths"]]
    return check + b"\n" + pickle.dumps(files)


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: b"not a cache",
        _shifted,  # offsets shifted but the pickle still sound: the checksum line catches it
    ],
    ids=["truncated", "garbage", "edited"],
)
def test_damaged_cache_is_ignored(site, tmp_path, damage):
    engine, out, cache = site
    file = cache / CACHE_FILE
    file.write_bytes(damage(file.read_bytes()))
    claimant(engine)
    report = cold_build(engine, out, cache)
    assert FRAGMENTS.hits == 0 and report.parts_spliced == 0
    assert tree(out) == scratch_tree(engine, tmp_path)
    # the build wrote a sound cache again: the next cold build uses it
    claim_note(engine)
    assert cold_build(engine, out, cache).parts_spliced > 0


def test_cache_records_each_big_file(site):
    _, out, cache = site
    check, _, body = (cache / CACHE_FILE).read_bytes().partition(b"\n")
    assert check.decode() == hashlib.sha256(body).hexdigest()
    files = pickle.loads(body)["files"]
    assert sorted(files) == sorted(BIG)
    assert all(files[p]["size"] == (out / p).stat().st_size for p in BIG)


def test_cache_inside_the_site_is_refused(engine, tmp_path):
    populate(engine)
    with pytest.raises(SiteError, match="inside the site folder"):
        build_site(engine, tmp_path / "site", now=NOW, cache_dir=tmp_path / "site" / "c")


def test_tracker_build_keeps_its_cache_beside_the_site(engine, tmp_path):
    """``tracker build`` without ``--cache-dir`` uses ``OUT.cache`` beside ``--out``; a
    ``--cache-dir`` inside the site is refused with one clear line."""
    from typer.testing import CliRunner

    from tracker.cli.main import app

    populate(engine)
    db = str(engine.url.database)
    runner = CliRunner()
    done = runner.invoke(app, ["build", "--db", db, "--out", str(tmp_path / "site")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "site.cache" / CACHE_FILE).is_file()
    assert not any(p.name == CACHE_FILE for p in (tmp_path / "site").rglob("*"))
    inside = str(tmp_path / "site" / "cache")
    refused = runner.invoke(
        app, ["build", "--db", db, "--out", str(tmp_path / "site"), "--cache-dir", inside]
    )
    assert refused.exit_code == 1
    assert "inside the site folder" in refused.output


def test_tracker_build_process_ends_after_its_output(engine, tmp_path):
    """The real entry point ends a successful build without the interpreter's teardown
    (``main``): its line is printed, its files and cache are complete, status 0; a failed
    build still exits 1 with its message."""
    import subprocess
    import sys

    populate(engine)
    entry = [sys.executable, "-c", "from tracker.cli.main import main; main()", "build"]
    args = ["--db", str(engine.url.database), "--out", str(tmp_path / "site"), "--base-url", BASE]
    done = subprocess.run([*entry, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"site built in {tmp_path / 'site'}: ")
    assert tree(tmp_path / "site") == scratch_tree(engine, tmp_path)
    assert (tmp_path / "site.cache" / CACHE_FILE).is_file()
    bad = [*args, "--cache-dir", str(tmp_path / "site" / "c")]
    failed = subprocess.run([*entry, *bad], capture_output=True, text=True, timeout=120)
    assert failed.returncode == 1
    assert "inside the site folder" in failed.stdout + failed.stderr


class ProcessEnded(Exception):
    """Raised by the stand-in for ``os._exit`` below, with the exit status."""


def test_tracker_build_leaves_the_collector_off_only_when_its_process_ends(
    engine, tmp_path, monkeypatch
):
    """Through ``main`` (the process ends after the build) ``build`` leaves the cyclic
    collector off and ends by ``os._exit(0)``; run in-process by typer's CliRunner (as
    tests do), the collector is left on."""
    import gc
    import os
    import sys

    from typer.testing import CliRunner

    from tracker.cli import main as cli_main

    populate(engine)
    db = str(engine.url.database)
    monkeypatch.setattr(cli_main, "_process_ends", False)
    monkeypatch.setattr(cli_main, "_skip_teardown", False)
    done = CliRunner().invoke(cli_main.app, ["build", "--db", db, "--out", str(tmp_path / "a")])
    assert done.exit_code == 0, done.output
    assert gc.isenabled()

    def ended(status: int) -> None:
        raise ProcessEnded(status)

    monkeypatch.setattr(os, "_exit", ended)
    monkeypatch.setattr(sys, "argv", ["tracker", "build", "--db", db, "--out", str(tmp_path / "b")])
    try:
        with pytest.raises(ProcessEnded) as ending:
            cli_main.main()
        assert ending.value.args == (0,)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert tree(tmp_path / "b") == tree(tmp_path / "a")


class _Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_collector_pause_freezes_what_a_build_keeps_and_frees_old_cycles(monkeypatch):
    import gc
    import weakref

    from tracker.website.build import collector_paused

    monkeypatch.setattr(build_module, "FULL_COLLECTION_EVERY", 2)
    monkeypatch.setattr(build_module, "_builds_since_full", 0)
    assert gc.isenabled()
    gc.collect()
    try:
        kept = _Cycle()
        gc.freeze()  # as a previous build left it: out of automatic collections
        old = _Cycle()
        gone = weakref.ref(old)
        del old
        gc.freeze()  # a cycle that became garbage after its build froze it
        with collector_paused():
            assert not gc.isenabled()
            made = _Cycle()  # kept by this build
        assert gc.isenabled()
        assert not any(o is made for o in gc.get_objects())  # frozen: no collection walks it
        assert gone() is not None  # a young collection does not reach old cycles
        with collector_paused():
            pass
        assert gone() is None  # the second build's full collection freed it
        assert kept.me is kept and made.me is made
    finally:
        gc.unfreeze()
        gc.enable()


def test_settle_freezes_what_collect_made_and_the_full_collection_still_frees_it(monkeypatch):
    import gc
    import weakref

    from tracker.website.build import collector_paused, settle

    monkeypatch.setattr(build_module, "FULL_COLLECTION_EVERY", 2)
    monkeypatch.setattr(build_module, "_builds_since_full", 0)
    gc.collect()
    try:
        settle()  # outside a build: nothing frozen
        loose = _Cycle()
        assert any(o is loose for o in gc.get_objects())
        with collector_paused():
            early = _Cycle()  # made while collecting the database
            gone = weakref.ref(early)
            settle()
            assert not any(o is early for o in gc.get_objects())  # out of the young collection
            del early  # a cycle that dies later in the build
        assert gone() is not None  # frozen: the young collection does not walk it
        with collector_paused():
            settle()  # the next build freezes it again
        assert gone() is None  # the full collection unfreezes first, then frees it
    finally:
        gc.unfreeze()
        gc.enable()


# --- Per-subject build records (records.py) -------------------------------------------
# The fixture's Kimi subjects have discrepancies, so their views are always made; these
# peers have none, so a cold build serves them from their records. They share a
# benchmark with Kimi K3.1 Pro (a chart on every page that reports it), state dates
# (the timeline) and licences; peer-a has a current observation its verdict cites.
PEERS = ("peer-a", "peer-b", "peer-c")


def claim_row(s, subject, attribute, value, raw, quals=None, source_id=1):  # type: ignore[no-untyped-def]
    c = Claim(
        key=f"{subject.slug}-{attribute}-{raw}",
        subject_id=subject.id,
        attribute=attribute,
        qualifiers_json=dumps(quals or {}),
        value_json=dumps(value.to_dict()),
        raw_text=raw,
        source_id=source_id,
        claimant="Peer Lab",
        created_at=NOW,
    )
    s.add(c)
    s.flush()
    return c


def add_peers(engine) -> None:  # type: ignore[no-untyped-def]
    tb4 = {"benchmark": "Terminal-Bench", "version": "4.0"}
    with Session(engine) as s:
        watch_obs = s.exec(select(Observation).where(Observation.current == True)).first()  # noqa: E712
        for n, slug in enumerate(PEERS):
            subject = Subject(slug=slug, name=f"Peer {slug[-1].upper()}", organization="Peer Lab")
            s.add(subject)
            s.flush()
            made = [
                claim_row(
                    s,
                    subject,
                    "benchmark_score",
                    quantity(f"{50 + n}", "percent"),
                    f"{50 + n}%",
                    tb4,
                ),
                claim_row(
                    s,
                    subject,
                    "context_window",
                    quantity(f"{32 * (n + 1)}", "tokens", scale=1000),
                    f"{32 * (n + 1)}K",
                ),
                claim_row(
                    s,
                    subject,
                    "release_date",
                    date_value(f"2026-10-0{n + 1}", "on"),
                    f"Oct {n + 1}",
                    source_id=2,
                ),
                claim_row(s, subject, "license", text_value("mit"), "MIT", source_id=2),
            ]
            for c in made:
                s.add(
                    Verdict(
                        claim_id=c.id,
                        status="unverified",
                        reason="nothing observed",
                        checked_at=NOW,
                    )
                )
            if slug == "peer-a" and watch_obs is not None:
                obs = Observation(
                    subject_id=subject.id,
                    attribute="context_window",
                    qualifiers_json="{}",
                    value_json=dumps(quantity("32", "tokens", scale=1000).to_dict()),
                    value_key="peer-a-ctx",
                    snapshot_id=watch_obs.snapshot_id,
                    watch_id=watch_obs.watch_id,
                    source_url="https://peer.example.org/a",
                    first_seen=NOW,
                    last_seen=NOW,
                )
                s.add(obs)
                s.flush()
                verdict = s.exec(select(Verdict).where(Verdict.claim_id == made[1].id)).one()
                verdict.status, verdict.evidence_json = "confirmed", dumps([obs.id])
                s.add(verdict)
            if slug == "peer-c":
                changed = make_event(
                    "verdict_changed",
                    "Peer C context window now unverified",
                    subject_id=subject.id,
                    detail={"claim": made[1].key},
                )
                changed.created_at = NOW
                s.add(changed)
        s.commit()


def peer_claim(engine, slug: str, attribute: str) -> int:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        subject = s.exec(select(Subject).where(Subject.slug == slug)).one()
        found = s.exec(
            select(Claim).where(Claim.subject_id == subject.id, Claim.attribute == attribute)
        ).one()
        return found.id  # type: ignore[return-value]


def peer_score(engine) -> None:  # type: ignore[no-untyped-def]
    """peer-b's Terminal-Bench 4.0 score: the chart every reporting subject shows."""
    cid = peer_claim(engine, "peer-b", "benchmark_score")
    edit(engine, Claim, Claim.id == cid, value_json=dumps(quantity("77", "percent").to_dict()))


def peer_value(engine) -> None:  # type: ignore[no-untyped-def]
    cid = peer_claim(engine, "peer-a", "context_window")
    value = dumps(quantity("256", "tokens", scale=1000).to_dict())
    edit(engine, Claim, Claim.id == cid, value_json=value)


def peer_claimant(engine) -> None:  # type: ignore[no-untyped-def]
    cid = peer_claim(engine, "peer-b", "context_window")
    edit(engine, Claim, Claim.id == cid, claimant="Another Lab")


def peer_verdict(engine) -> None:  # type: ignore[no-untyped-def]
    cid = peer_claim(engine, "peer-b", "license")
    edit(engine, Verdict, Verdict.claim_id == cid, status="confirmed", reason="the Hub says MIT")


def peer_discrepancy(engine) -> None:  # type: ignore[no-untyped-def]
    """A note on peer-a naming one of peer-c's claims (both sides on discrepancies.html)."""
    a = peer_claim(engine, "peer-a", "context_window")
    c = peer_claim(engine, "peer-c", "context_window")
    with Session(engine) as s:
        sid = s.exec(select(Subject.id).where(Subject.slug == "peer-a")).one()
        s.add(
            Discrepancy(
                key="d-peers",
                subject_id=sid,
                attribute="context_window",
                rule="different_subject",
                claim_ids_json=dumps([a, c]),
                state="dismissed",
                reason="not a conflict: different subjects (peer-a vs peer-c)",
                opened_at=NOW,
            )
        )
        s.commit()


def peer_anchor_gone(engine) -> None:  # type: ignore[no-untyped-def]
    """The claim a verdict_changed event links to is removed: the feed links the page."""
    cid = peer_claim(engine, "peer-c", "context_window")
    with Session(engine) as s:
        s.delete(s.exec(select(Verdict).where(Verdict.claim_id == cid)).one())
        s.flush()
        s.delete(s.get(Claim, cid))
        s.commit()


def peer_source(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Source, Source.id == 2, title="Retitled: the peers' source")


def peer_alias(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        sid = s.exec(select(Subject.id).where(Subject.slug == "peer-b")).one()
        s.add(SubjectAlias(subject_id=sid, alias="PB-1"))
        s.commit()


def peer_observation(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Observation, Observation.value_key == "peer-a-ctx", last_seen=NOW.replace(day=30))


def peer_rename(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Subject, Subject.slug == "peer-b", name="Peer B (renamed)")


def peer_removed(engine) -> None:  # type: ignore[no-untyped-def]
    with Session(engine) as s:
        subject = s.exec(select(Subject).where(Subject.slug == "peer-c")).one()
        for e in s.exec(select(Event).where(Event.subject_id == subject.id)).all():
            s.delete(e)
        for c in s.exec(select(Claim).where(Claim.subject_id == subject.id)).all():
            s.delete(s.exec(select(Verdict).where(Verdict.claim_id == c.id)).one())
            s.flush()
            s.delete(c)
        s.flush()
        s.delete(subject)
        s.commit()


def peer_organization(engine) -> None:  # type: ignore[no-untyped-def]
    edit(engine, Subject, Subject.slug == "peer-a", organization="Other Lab")


PEER_EDITS: dict[str, Callable[..., None]] = {
    "claimant": peer_claimant,
    "claim value": peer_value,
    "verdict": peer_verdict,
    "benchmark score (a shared chart)": peer_score,
    "discrepancy naming another subject's claim": peer_discrepancy,
    "event whose anchor disappears": peer_anchor_gone,
    "source title": peer_source,
    "alias": peer_alias,
    "observation a verdict cites": peer_observation,
    "subject rename": peer_rename,
    "organization": peer_organization,
    "new subject": new_subject,
    "removed subject": peer_removed,
}


@pytest.fixture
def wide_site(engine, tmp_path):
    populate(engine)
    add_peers(engine)
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    return engine, out, cache


def views_made() -> int:
    """How many subjects' claim views the last build made (``claimviews.ClaimMemo``)."""
    return build_module.MEMO.made


def test_an_unchanged_database_makes_no_claim_views_in_a_new_process(wide_site, tmp_path):
    engine, out, cache = wide_site
    assert (cache / RECORDS_FILE).is_file()
    report = cold_build(engine, out, cache)
    # the two Kimi subjects have discrepancies: their views are always made
    assert views_made() == 2
    assert report.pages_rendered == 0
    assert tree(out) == scratch_tree(engine, tmp_path)


# Edits that change other subjects' pages (the shared benchmark chart shows every
# reporting subject's name and score): their records cannot stand in, which the build
# finds once the page keys are made; it is made again with their views (logged).
# A new subject or a rename changes the names every subject page is keyed by (a claim
# relative to another subject shows its name: tracker/website/subjectrefs.py).
FALLS_BACK = {
    "benchmark score (a shared chart)",
    "subject rename",
    "removed subject",
    "new subject",
}


@pytest.mark.parametrize("name", list(PEER_EDITS))
def test_cold_rebuild_with_records_equals_a_scratch_build(wide_site, tmp_path, name, caplog):
    engine, out, cache = wide_site
    PEER_EDITS[name](engine)
    with caplog.at_level("INFO", logger="tracker.website.build"):
        cold_build(engine, out, cache)
    assert ("making their claim views" in caplog.text) == (name in FALLS_BACK)
    assert "making every subject's claim views" not in caplog.text
    assert tree(out) == scratch_tree(engine, tmp_path)
    # the records it left serve the next build: it makes views only for subjects with
    # discrepancies (the Kimi pair; peer-a and peer-c once a note names both), and its
    # keys are the same (nothing rendered)
    again = cold_build(engine, out, cache)
    assert views_made() == (4 if "discrepancy" in name else 2)
    assert again.pages_rendered == 0


def test_records_serve_the_peers_after_an_edit(wide_site, tmp_path):
    """Only the edited peer's views are made (with the Kimi pair, which has
    discrepancies); the others come from their records, and the output is a scratch
    build's."""
    engine, out, cache = wide_site
    peer_claimant(engine)
    report = cold_build(engine, out, cache)
    assert views_made() == 3
    assert "subjects/peer-b/index.html" in report.rendered_paths
    assert "subjects/peer-a/index.html" not in report.rendered_paths
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_a_missing_page_of_a_served_subject_is_made_from_its_views(wide_site, tmp_path):
    engine, out, cache = wide_site
    (out / "subjects" / "peer-a" / "index.html").unlink()
    peer_claimant(engine)
    cold_build(engine, out, cache)
    # the record could not stand in: the build was made again with peer-a's views too
    # (the Kimi pair, edited peer-b and peer-a: the views of the first attempt kept)
    assert len(build_module.MEMO.used) == 4
    assert tree(out) == scratch_tree(engine, tmp_path)


@pytest.mark.parametrize(
    "damage",
    [lambda b: b[: len(b) // 2], lambda b: b"garbage", lambda b: b[:70] + b"x" + b[71:]],
    ids=["truncated", "garbage", "edited"],
)
def test_damaged_records_are_ignored(wide_site, tmp_path, damage):
    engine, out, cache = wide_site
    file = cache / RECORDS_FILE
    file.write_bytes(damage(file.read_bytes()))
    peer_claimant(engine)
    cold_build(engine, out, cache)
    assert views_made() == len(PEERS) + 3  # the Kimi pair, Orca and the peers
    assert tree(out) == scratch_tree(engine, tmp_path)
    peer_alias(engine)  # a sound file was written again: the next build uses it
    cold_build(engine, out, cache)
    assert views_made() == 3  # the Kimi pair and peer-b (its page shows its aliases)
    assert tree(out) == scratch_tree(engine, tmp_path)


def small_population(engine, subjects: int = 6, claims: int = 5, scores: bool = True) -> None:  # type: ignore[no-untyped-def]
    """``subjects`` subjects × ``claims`` claims (with verdicts), no discrepancies: the
    bench's shape (bench/site_bench.py), small; benchmark scores (shared charts), or
    context windows when not ``scores``."""
    with Session(engine) as s:
        source = Source(key="src", title="Source", language="en")
        s.add(source)
        s.flush()
        for n in range(subjects):
            subject = Subject(slug=f"model-{n}", name=f"Model {n}", organization="Lab")
            s.add(subject)
            s.flush()
            for k in range(claims):
                c = claim_row(
                    s,
                    subject,
                    "benchmark_score" if scores else "context_window",
                    quantity(f"{n + k}", "percent" if scores else "tokens"),
                    f"{k}",
                    {"benchmark": f"Bench {k}"} if scores else {"variant": f"v{k}"},
                    source_id=source.id,  # type: ignore[arg-type]
                )
                s.add(Verdict(claim_id=c.id, status="unverified", reason="-", checked_at=NOW))
        s.commit()


def test_a_cold_one_claim_rebuild_makes_claim_views_for_exactly_one_subject(engine, tmp_path):
    small_population(engine)
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    assert views_made() == 6
    with Session(engine) as s:
        claim = s.exec(select(Claim).where(Claim.key == "model-3-benchmark_score-2")).one()
        claim.claimant = "Another lab"
        s.add(claim)
        s.commit()
    report = cold_build(engine, out, cache)
    assert views_made() == 1
    assert "subjects/model-3/index.html" in report.rendered_paths
    assert not any(p.startswith("subjects/model-2/") for p in report.rendered_paths)
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_a_verdict_checked_again_with_the_same_outcome_makes_no_claim_views(engine, tmp_path):
    """Each verification run writes ``checked_at``; the subject's change token (the
    database's triggers, claims/store/changetokens.py) ignores it."""
    small_population(engine)
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE verdict SET checked_at = '2026-12-24 00:00:00.000000'")
    report = cold_build(engine, out, cache)
    assert views_made() == 0 and list(report.rendered_paths) == []


def test_without_the_token_triggers_the_rows_aggregate_still_finds_the_edit(engine, tmp_path):
    """A database whose change-token triggers are missing (a revision rebuilt the table
    on SQLite): the build digests the rows instead (claims/store/sitedigest.py)."""
    small_population(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER claimstoken_claim_update")
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    with engine.begin() as conn:  # the token of model-2 stays as it was
        conn.exec_driver_sql("UPDATE claim SET note = 'edited' WHERE key LIKE 'model-2-%'")
    cold_build(engine, out, cache)
    assert views_made() == 1
    assert tree(out) == scratch_tree(engine, tmp_path)


@pytest.mark.postgres
def test_records_on_postgresql(pg_server, tmp_path):
    """The per-subject digest's PostgreSQL query (``sitedigest.py``): a record serves an
    unchanged subject there too, and an edit of one gives a scratch build's bytes."""
    from claims.store.engine import make_engine

    pg = make_engine(pg_server)
    try:
        small_population(pg)
        out, cache = tmp_path / "site", tmp_path / "site.cache"
        cold_build(pg, out, cache)
        with Session(pg) as s:
            claim = s.exec(select(Claim).where(Claim.key == "model-1-benchmark_score-0")).one()
            claim.note = "edited on PostgreSQL"
            s.add(claim)
            s.commit()
        cold_build(pg, out, cache)
        assert views_made() == 1
        assert tree(out) == scratch_tree(pg, tmp_path)
    finally:
        pg.dispose()


def test_a_claim_moved_to_another_source_is_read_again_the_rest_from_records(wide_site, tmp_path):
    """A build record keeps its subject's cited sources while its change token is the
    one it was made with (``SubjectRecord.inputs``): moving a claim to another source
    renews the token, so that subject's sources are read again and its views made;
    ``sources.html`` (its counts and lists) and the subject's files render; the output
    is a scratch build's, and the record made keeps the new sources."""
    engine, out, cache = wide_site
    cid = peer_claim(engine, "peer-b", "license")
    edit(engine, Claim, Claim.id == cid, source_id=1)
    report = cold_build(engine, out, cache)
    assert views_made() == 3  # the Kimi pair (discrepancies) and peer-b
    assert {"sources.html", "subjects/peer-b/index.html"} <= set(report.rendered_paths)
    assert "subjects/peer-a/index.html" not in report.rendered_paths
    assert tree(out) == scratch_tree(engine, tmp_path)
    again = cold_build(engine, out, cache)
    assert views_made() == 2 and again.pages_rendered == 0


def test_the_sources_page_lists_served_subjects_claims_when_it_renders(wide_site, tmp_path):
    """``sources.html`` lists every subject's claims, those of subjects served by their
    records too (made only when the page renders: ``views.SourceListing``)."""
    engine, out, cache = wide_site
    peer_verdict(engine)  # a status on sources.html; the other peers stay served
    report = cold_build(engine, out, cache)
    assert "sources.html" in report.rendered_paths
    assert views_made() == 3  # the Kimi pair (discrepancies) and the edited peer
    page = (out / "sources.html").read_text()
    assert "subjects/peer-a/" in page and "subjects/peer-c/" in page
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_records_of_another_format_are_not_used(wide_site, tmp_path):
    """A sound records file written by code of another records format (its checksum
    right) is not used: every subject's views are made."""
    engine, out, cache = wide_site
    file = cache / RECORDS_FILE
    data = pickle.loads(file.read_bytes().partition(b"\n")[2])
    data["format"] -= 1
    body = pickle.dumps(data)
    file.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    peer_claimant(engine)
    cold_build(engine, out, cache)
    assert views_made() == len(PEERS) + 3
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_a_records_rows_and_anchors_load_only_when_asked(wide_site):
    """A loaded record reads its ``sources.html`` rows and claim anchors from their own
    pickle on first use; they are the subject's claims and its page's anchors, and
    what was loaded is not written back with the record."""
    from tracker.website.pagehash import code_fingerprint
    from tracker.website.records import RecordStore

    _, out, cache = wide_site
    store = RecordStore.load(cache, code_fingerprint(render_module.templates_dir()))
    rec = store.kept["peer-a"]
    size = len(pickle.dumps(rec))
    assert "_loaded" not in vars(rec)
    page = (out / "subjects" / "peer-a" / "index.html").read_text()
    assert rec.anchors and all(f'id="{a}"' in page for a in rec.anchors)
    assert len(rec.listed) == len(rec.anchors)  # one row, one anchor per claim
    assert {f'href="#{a}"' in page for a in rec.anchors} == {True}
    assert [(row[0], row[5]) for row in rec.listed] == list(
        zip(rec.source_ids, rec.statuses, strict=True)
    )
    assert len(pickle.dumps(rec)) == size
    assert pickle.loads(pickle.dumps(rec)) == rec


@pytest.mark.parametrize("name", ["peer claimant", *PEER_EDITS])
def test_served_subjects_digests_are_those_of_their_views(wide_site, name):
    """The row and view digests a served subject's record holds (``pages.SubjectDigests``
    takes them in place of encoding its row and view) are the digests its view gives
    now, after any edit: a record made for other input is not served, and one whose
    view shows other subjects' data (a benchmark chart) holds no view digest."""
    from tracker.website.claimviews import ClaimMemo
    from tracker.website.collect import collect
    from tracker.website.pagehash import code_fingerprint
    from tracker.website.pages import SubjectDigests
    from tracker.website.records import RecordStore

    engine, out, cache = wide_site
    cold_build(engine, out, cache)  # the records now hold the digests
    (peer_claimant if name == "peer claimant" else PEER_EDITS[name])(engine)
    fingerprint = code_fingerprint(render_module.templates_dir())
    store = RecordStore.load(cache, fingerprint)
    ctx = collect(engine, ClaimMemo(fingerprint), store)
    kept = store.kept_digests(ctx.subjects)
    assert kept and all(row is not None for row, _ in kept.values())
    fresh = SubjectDigests.of(ctx.subjects, ctx.claim_digests)
    for slug, (row, view) in kept.items():
        assert row == fresh.row[slug]
        assert view in (None, fresh.view[slug])


def test_a_served_subject_without_events_or_shared_charts_keeps_its_view_digest(engine, tmp_path):
    """Subjects with neither subscriber events nor benchmark charts (the bench's shape)
    are served with their records' view digests too, and a cold one-claim rebuild
    still equals a scratch build."""
    from tracker.website.claimviews import ClaimMemo
    from tracker.website.collect import collect
    from tracker.website.pagehash import code_fingerprint
    from tracker.website.pages import SubjectDigests
    from tracker.website.records import RecordStore

    small_population(engine, scores=False)
    out, cache = tmp_path / "site", tmp_path / "site.cache"
    cold_build(engine, out, cache)
    edit(engine, Claim, Claim.key == "model-3-context_window-2", claimant="Another lab")
    fingerprint = code_fingerprint(render_module.templates_dir())
    store = RecordStore.load(cache, fingerprint)
    ctx = collect(engine, ClaimMemo(fingerprint), store)
    kept = store.kept_digests(ctx.subjects)
    assert sorted(kept) == [f"model-{n}" for n in range(6) if n != 3]
    fresh = SubjectDigests.of(ctx.subjects, ctx.claim_digests)
    assert kept == {slug: (fresh.row[slug], fresh.view[slug]) for slug in kept}
    report = cold_build(engine, out, cache)
    assert views_made() == 1
    assert "subjects/model-3/index.html" in report.rendered_paths
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_a_subject_served_after_its_discrepancy_is_deleted_shows_none(wide_site, tmp_path):
    """A discrepancy is no part of a subject's input key, and a record made while its
    subject had one holds no digests (its row counted the open ones): once the
    discrepancy row is gone, the subject's page and row are made anew and the output
    is a scratch build's."""
    from claims.store.tables import Discrepancy

    engine, out, cache = wide_site
    peer_discrepancy(engine)
    edit(engine, Discrepancy, Discrepancy.key == "d-peers", state="open")
    cold_build(engine, out, cache)
    cold_build(engine, out, cache)  # peer-a's record is made again while it has one
    with Session(engine) as s:
        s.delete(s.exec(select(Discrepancy).where(Discrepancy.key == "d-peers")).one())
        s.commit()
    report = cold_build(engine, out, cache)
    assert "subjects/peer-a/index.html" in report.rendered_paths
    assert tree(out) == scratch_tree(engine, tmp_path)
