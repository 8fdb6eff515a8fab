"""The site build cache (``tracker/website/segments.py``): a build in a new process takes
unchanged subjects' parts of the big exports from the previous output files, and its
output equals a build from scratch into an empty folder, byte for byte, whatever input
changed; a tampered output file or a damaged cache makes it encode them again."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sitefixture import NOW, populate
from sqlmodel import Session, select

from claims.store.tables import Claim, Discrepancy, Event, Observation, Source, Subject, Verdict
from claims.values.canonical import dumps
from claims.values.value import quantity
from tracker.website import build as build_module
from tracker.website import render as render_module
from tracker.website.build import build_site, clear_build_caches
from tracker.website.fragments import FRAGMENTS
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


def test_cold_rebuild_takes_unchanged_subjects_from_the_output(site, tmp_path):
    """After one claimant changes, every other subject's claim records, CSV rows and
    search entries come from the files (3 per subject), only the edited one's are made."""
    engine, out, cache = site
    subjects = len(list((out / "api" / "subjects").glob("*.json")))
    assert subjects == 3
    claimant(engine)
    report = cold_build(engine, out, cache)
    assert set(BIG) <= set(report.rendered_paths)
    assert FRAGMENTS.misses == 3  # the edited subject's three parts
    assert FRAGMENTS.hits == 3 * (subjects - 1)
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
    cold_build(engine, out, cache)
    assert FRAGMENTS.hits == 0  # the code fingerprint is in every key
    assert tree(out) == scratch_tree(engine, tmp_path)


def test_base_url_change(site, tmp_path):
    engine, out, cache = site
    claimant(engine)
    cold_build(engine, out, cache, base="https://other.example.net/")
    assert tree(out) == scratch_tree(engine, tmp_path, base="https://other.example.net/")


def test_tampered_output_file_is_not_spliced(site, tmp_path):
    """An edit of claims.json that keeps its size (so the manifest would not notice) is
    caught by the sha256: the file's parts are encoded again, the edit is gone."""
    engine, out, cache = site
    path = out / "api" / "claims.json"
    data = path.read_bytes()
    assert b'"claimant":"Acme"' in data
    path.write_bytes(data.replace(b'"claimant":"Acme"', b'"claimant":"EVIL"'))
    claimant(engine)
    cold_build(engine, out, cache)
    assert b"EVIL" not in path.read_bytes()
    assert tree(out) == scratch_tree(engine, tmp_path)


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # truncated
        lambda text: "not a cache",
        # offsets shifted but the JSON still valid: the checksum line catches it
        lambda text: text.replace('"keys":{', '"keys":{"x":[0,1],', 1).replace(",1", ",2", 5),
    ],
    ids=["truncated", "garbage", "edited"],
)
def test_damaged_cache_is_ignored(site, tmp_path, damage):
    engine, out, cache = site
    file = cache / CACHE_FILE
    file.write_text(damage(file.read_text()))
    claimant(engine)
    cold_build(engine, out, cache)
    assert FRAGMENTS.hits == 0
    assert tree(out) == scratch_tree(engine, tmp_path)
    # the build wrote a sound cache again: the next cold build uses it
    claim_note(engine)
    cold_build(engine, out, cache)
    assert FRAGMENTS.hits > 0


def test_cache_records_each_big_file(site):
    _, out, cache = site
    check, _, body = (cache / CACHE_FILE).read_text().partition("\n")
    files = json.loads(body)["files"]
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
