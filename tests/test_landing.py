"""Weights landing end to end through replayed recordings (issue 16): a new org's listing
empty, then with a repo of no subject, then with the subject's repo -> exactly one
``weights_landed`` carrying the repo, the licence and gating read in the same cycle (the
repo is followed at once) and its lateness; on SQLite and PostgreSQL alike. Also the
cases of a licence metadata migration (C22) and a renamed repo (C34) through the cycle.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.status import weights_status
from claims.store.tables import Event, Subject, SubjectAlias, Watch
from tracker.cli.main import app
from tracker.cli.watch import run_cycle
from tracker.curated.edit import apply, plan_track
from tracker.curated.load import load_curated
from tracker.net.har import har_entry, write_har

HUB = "https://huggingface.co"
ORG_URL = f"{HUB}/api/models?author=acme&sort=createdAt&direction=-1&limit=100"
MODEL_URL = f"{HUB}/api/models/acme/Orca-9B"
FILES = ("config.json", "model.safetensors.index.json", "LICENSE")
T1 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
T2 = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)
T3 = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)
TINY = {"id": "acme/Tiny-1B", "private": False, "createdAt": "2026-11-30T17:00:00.000Z"}
ORCA = {"id": "acme/Orca-9B", "private": False, "createdAt": "2026-12-01T05:10:00.000Z"}
JSON = [("Content-Type", "application/json")]
GATED = [("X-Error-Code", "GatedRepo"), *JSON]
PROMISE = """[source]
key = "acme-launch"
title = "Acme announces Orca 9B"
kind = "vendor"
published = "2026-10-01"

[[claim]]
subject = "acme-orca-9b"
attribute = "weights_release_date"
value = "by 2026-11-04"
raw = "open weights by November 4"
claimant = "Acme"
"""


def model_info(repo: str = "acme/Orca-9B", **card) -> dict:
    return {
        "id": repo,
        "private": False,
        "gated": "manual",
        "createdAt": ORCA["createdAt"],
        "cardData": card or {"license": "apache-2.0"},
        "tags": ["license:apache-2.0"],
    }


def entry(url: str, body, at: dt.datetime, status: int = 200, headers=JSON) -> dict:
    return har_entry("GET", url, status, list(headers), json.dumps(body).encode(), at)


def landing_recordings(folder: Path) -> list[Path]:
    """Three recordings of the new org acme: empty, a repo of no subject, Orca-9B (with
    its model info and its gated files, as the cycle fetches them when following it)."""
    files = [
        entry(f"{HUB}/acme/Orca-9B/resolve/main/{name}", {"error": "gated"}, T3, 403, GATED)
        for name in FILES
    ]
    days = [
        [entry(ORG_URL, [], T1)],
        [entry(ORG_URL, [TINY], T2)],
        [entry(ORG_URL, [ORCA, TINY], T3), entry(MODEL_URL, model_info(), T3), *files],
    ]
    return [write_har(folder / f"acme-{i}.har", got) for i, got in enumerate(days, 1)]


def tracked_data(folder: Path) -> Path:
    """A data folder tracking only Acme Orca 9B (org acme, no repo known) with one
    promise, written by `tracker track`'s library."""
    data = folder / "data"
    (data / "claims").mkdir(parents=True)
    (data / "claims" / "acme-launch.toml").write_text(PROMISE, encoding="utf-8")
    apply(plan_track(data, "Acme Orca 9B", "acme"))
    return data


def replay_landing(db: str, tmp_path: Path) -> list[tuple[str, str, dict]]:
    engine = make_engine(db)
    try:
        load_curated(engine, tracked_data(tmp_path))
        for har in landing_recordings(tmp_path):
            run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
        with Session(engine) as s:
            events = s.exec(select(Event).order_by(Event.id)).all()
            return [(e.kind, e.title, json.loads(e.detail_json)) for e in events]
    finally:
        engine.dispose()


LANDED = (
    "weights_landed",
    "Acme Orca 9B: weights available on Hugging Face (acme/Orca-9B); licence apache-2.0, "
    "gated (manual); 27 days after the promised 2026-11-04",
    {
        "repo": "acme/Orca-9B",
        "first_seen": "2026-12-01T06:00:00+00:00",
        "created_at": "2026-12-01T05:10:00.000Z",
        "url": "https://huggingface.co/acme/Orca-9B",
        "previous_check": "2026-11-30T18:00:00+00:00",
        "license": "apache-2.0",
        "gated": "manual",
        "lateness": [
            {
                "promise": "by 2026-11-04",
                "deadline": "2026-11-04",
                "days_late": 27,
                "text": "27 days after the promised 2026-11-04",
            }
        ],
        "summary": "acme/Orca-9B: first seen 2026-12-01 06:00 UTC (the check before "
        "2026-11-30 18:00 UTC); licence apache-2.0, gated (manual); 27 days after the "
        "promised 2026-11-04",
    },
)


def test_a_repo_appearing_in_a_new_orgs_listing_lands_once_with_licence_and_gating(tmp_path):
    db = str(tmp_path / "t.db")
    assert replay_landing(db, tmp_path) == [LANDED]
    engine = make_engine(db)
    with Session(engine) as s:
        followed = s.exec(select(Watch).where(Watch.name == "hf-model-acme-orca-9b")).one()
        subject = s.exec(select(Subject).where(Subject.slug == "acme-orca-9b")).one()
        st = weights_status(s, subject)
    # the model watch is kept from then on, made by the cycle that followed the repo
    assert (followed.state, followed.last_success, followed.params["followed_from"]) == (
        "ok",
        T3,
        "hf-org-acme",
    )
    assert followed.params["files"] == list(FILES)
    d = st.to_dict()
    assert {
        k: d[k]
        for k in (
            "weights",
            "repo",
            "landed_at",
            "landed_after",
            "license",
            "license_spdx",
            "license_link",
            "gated",
            "gated_read_at",
            "landed_late_days",
        )
    } == {  # fmt: skip
        "weights": "landed",
        "repo": "acme/Orca-9B",
        "landed_at": "2026-12-01T06:00:00Z",
        "landed_after": "2026-11-30T18:00:00Z",
        "license": "apache-2.0",
        "license_spdx": "Apache-2.0",
        "license_link": "https://spdx.org/licenses/Apache-2.0.html",
        "gated": "manual",
        "gated_read_at": "2026-12-01T06:00:00Z",
        "landed_late_days": 27,
    }
    text = CliRunner().invoke(app, ["status", "acme-orca-9b", "--db", db])
    assert text.output.splitlines()[1:] == [
        "  weights: landed — acme/Orca-9B, landed between 2026-11-30 18:00 UTC and 2026-12-01 "
        "06:00 UTC (first seen), 27 days after the latest promised date",
        "  promised: by 2026-11-04 — “Acme announces Orca 9B” (claimant: Acme)",
        "  licence: apache-2.0 (SPDX Apache-2.0, https://spdx.org/licenses/Apache-2.0.html) — "
        "read 2026-12-01 06:00 UTC",
        "  access: gated (manual) — read 2026-12-01 06:00 UTC",
    ]
    watches = CliRunner().invoke(app, ["watches", "--db", db, "--json"])
    assert watches.exit_code == 0, watches.output
    names = [w["name"] for w in json.loads(watches.output)["watches"]]
    assert names == ["hf-model-acme-orca-9b", "hf-org-acme"]


@pytest.mark.postgres
def test_the_same_recordings_on_postgresql_give_the_same_events(pg_server, tmp_path):
    assert replay_landing(pg_server, tmp_path) == [LANDED]


def test_a_failing_replayed_watch_is_stamped_with_the_recorded_time(tmp_path):
    """One clock per cycle: the org answers 500 in the recording (made at T1)."""
    db = str(tmp_path / "t.db")
    load_curated(make_engine(db), tracked_data(tmp_path))
    har = write_har(
        tmp_path / "down.har",
        [entry(ORG_URL, {"error": "down"}, T1, 500)] * 3,  # the fetch's retries
    )
    summary = run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
    assert [(r.name, r.outcome) for r in summary.results] == [("hf-org-acme", "failed")]
    with Session(make_engine(db)) as s:
        w = s.exec(select(Watch).where(Watch.name == "hf-org-acme")).one()
    assert (w.last_run, w.failing_since, w.last_success) == (T1, T1, None)


def _model_watch_data(tmp_path: Path) -> str:
    db = str(tmp_path / "t.db")
    data = tmp_path / "data"
    data.mkdir()
    apply(plan_track(data, "Acme Orca 9B", "acme", repo="acme/Orca-9B"))
    load_curated(make_engine(db), data)
    return db


def _events(db: str) -> list[tuple[str, str]]:
    with Session(make_engine(db)) as s:
        return [(e.kind, e.title) for e in s.exec(select(Event).order_by(Event.id)).all()]


def test_a_card_moving_from_other_plus_name_to_the_hub_id_is_no_licence_change(tmp_path):
    """cases/C22: `other` + `license_name: gemma-terms-of-use`, then `gemma`."""
    db = _model_watch_data(tmp_path)
    t1 = model_info(
        license="other",
        license_name="gemma-terms-of-use",
        license_link="https://ai.google.dev/gemma/terms",
    )
    t2 = model_info(license="gemma")
    for at, info in ((T1, t1), (T3, t2)):
        files = [entry(f"{HUB}/acme/Orca-9B/resolve/main/{n}", {}, at, 404) for n in FILES]
        listing = entry(ORG_URL, [ORCA], at)
        har = write_har(tmp_path / f"{at:%H}.har", [listing, entry(MODEL_URL, info, at), *files])
        run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
    assert [kind for kind, _title in _events(db)] == ["subject_discovered"]
    with Session(make_engine(db)) as s:
        subject = s.exec(select(Subject).where(Subject.slug == "acme-orca-9b")).one()
        assert weights_status(s, subject).license == "gemma"


def test_a_renamed_repo_is_one_entity_with_one_rename_event(tmp_path):
    """cases/C34: acme/Orca-9B answers a relative redirect to acme-labs/Orca-9B (same sha,
    same createdAt) and leaves acme's listing: one rename, the new id an alias, no
    "removed" and no new release."""
    db = _model_watch_data(tmp_path)
    new_url = f"{HUB}/api/models/acme-labs/Orca-9B"
    day1 = [entry(ORG_URL, [ORCA, TINY], T1), entry(MODEL_URL, model_info(), T1)]
    moved = [("Location", "/api/models/acme-labs/Orca-9B")]
    day2 = [
        entry(ORG_URL, [TINY], T3),
        entry(MODEL_URL, {}, T3, 301, moved),
        entry(new_url, model_info("acme-labs/Orca-9B"), T3),
    ]
    for i, entries in enumerate((day1, day2)):
        files = [
            entry(f"{HUB}/{repo}/resolve/main/{n}", {}, T1 if i == 0 else T3, 404)
            for repo in ("acme/Orca-9B", "acme-labs/Orca-9B")
            for n in FILES
        ]
        har = write_har(tmp_path / f"day{i}.har", [*entries, *files])
        run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
    assert _events(db) == [
        (
            "subject_discovered",
            "Acme Orca 9B: weights already on Hugging Face at the first check (acme/Orca-9B)",
        ),
        (
            "repo_renamed",
            "Acme Orca 9B: weights repo acme/Orca-9B is now acme-labs/Orca-9B (renamed or "
            "transferred)",
        ),
    ]
    with Session(make_engine(db)) as s:
        aliases = s.exec(select(SubjectAlias.alias).where(SubjectAlias.namespace == "huggingface"))
        assert sorted(aliases.all()) == ["acme-labs/Orca-9B", "acme/Orca-9B"]


def test_track_writes_a_followed_model_watch_into_the_data_files(tmp_path):
    """The model watch the cycle made is the database's; `tracker track` on the tracked
    model writes it into watches.toml, so git keeps it."""
    db = str(tmp_path / "t.db")
    replay_landing(db, tmp_path)
    data = tmp_path / "data"
    load = CliRunner().invoke(app, ["load", "--data", str(data), "--db", db, "--json"])
    assert json.loads(load.stdout)["watches_stale"] == []  # followed: not "missing"
    r = CliRunner().invoke(app, ["track", "Acme Orca 9B", "--org", "acme",
                                 "--data", str(data), "--db", db])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "  added watch hf-model-acme-orca-9b (huggingface_model, followed by the cycle)" in (
        r.output.splitlines()
    )
    text = (data / "watches.toml").read_text(encoding="utf-8")
    assert text.endswith(
        '[[watch]]\nname = "hf-model-acme-orca-9b"\nadapter = "huggingface_model"\n'
        'url = "https://huggingface.co/api/models/acme/Orca-9B"\ninterval_minutes = 360\n\n'
        '[watch.params]\nfiles = ["config.json", "model.safetensors.index.json", "LICENSE"]\n'
        'repo = "acme/Orca-9B"\nrobots = false\n'
    )
    with Session(make_engine(db)) as s:
        w = s.exec(select(Watch).where(Watch.name == "hf-model-acme-orca-9b")).one()
    assert (w.state, "followed_from" in w.params) == ("ok", False)
    again = CliRunner().invoke(app, ["track", "Acme Orca 9B", "--org", "acme",
                                     "--data", str(data), "--db", db])  # fmt: skip
    assert again.exit_code == 1
    assert again.output == (
        f"error: {data}/subjects.toml: subject 'acme-orca-9b' is already tracked: see it "
        "with `tracker status acme-orca-9b`; stop checking it with `tracker untrack "
        "acme-orca-9b`\n"
    )


def test_the_site_shows_licence_and_access(tmp_path):
    from tracker.website import build_site

    db = str(tmp_path / "t.db")
    replay_landing(db, tmp_path)
    out = tmp_path / "site"
    build_site(make_engine(db), out, now=T3)
    index = (out / "index.html").read_text(encoding="utf-8")
    row = index[index.index('href="subjects/acme-orca-9b/index.html"') :].split("</tr>")[0]
    assert (
        '<td><a href="https://spdx.org/licenses/Apache-2.0.html">'
        '<code class="nowrap">apache-2.0</code></a><br><strong>gated (manual)</strong></td>'
    ) in row
    page = (out / "subjects" / "acme-orca-9b" / "index.html").read_text(encoding="utf-8")
    licence = page[page.index('<p class="weights" id="licence">') :].split("</p>")[0]
    assert licence == (
        '<p class="weights" id="licence"><span class="label">Licence</span> '
        '<a href="https://spdx.org/licenses/Apache-2.0.html"><code '
        'class="nowrap">apache-2.0</code></a> <small>read <time datetime="2026-12-01T06:00:00Z">'
        "2026-12-01 06:00 UTC</time></small>"
    )
    # the gating on a line of its own, labelled as Weights and Licence are
    access = page[page.index('<p class="weights" id="access">') :].split("</p>")[0]
    assert access == (
        '<p class="weights" id="access"><span class="label">Access</span> '
        "<strong>gated (manual)</strong> <small>read "
        '<time datetime="2026-12-01T06:00:00Z">2026-12-01 06:00 UTC</time></small>'
    )


def test_a_landing_after_empty_listings_is_late_for_the_verdict_as_for_status(tmp_path):
    """An org listing empty at every earlier check stores no observation, so the repo's
    first sighting is the watch's first observation; the cycle's landing event still
    knows the empty check before it: the promise's verdict uses that same window as
    `tracker status` (late by 27 days), not "already listed at the first hub check"."""
    from claims.store.tables import Claim, Verdict
    from tracker import pipeline

    db = str(tmp_path / "t.db")
    engine = make_engine(db)
    try:
        load_curated(engine, tracked_data(tmp_path))
        empty = [[entry(ORG_URL, [], T1)], [entry(ORG_URL, [], T2)]]
        hars = [write_har(tmp_path / f"e{i}.har", got) for i, got in enumerate(empty)]
        for har in [*hars, landing_recordings(tmp_path)[2]]:
            run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
        pipeline.verify(engine, now=T3)
        with Session(engine) as s:
            claim = s.exec(select(Claim).where(Claim.attribute == "weights_release_date")).one()
            verdict = s.exec(select(Verdict).where(Verdict.claim_id == claim.id)).one()
            subject = s.exec(select(Subject).where(Subject.slug == "acme-orca-9b")).one()
            st = weights_status(s, subject)
    finally:
        engine.dispose()
    assert (st.at_first_check, st.landed_late_days) == (False, 27)
    assert verdict.status == "contradicted"
    assert verdict.reason.startswith("late by 27 days: weights first seen 2026-12-01 06:00 UTC")


WRONG_LICENCE = """[source]
key = "acme-blog"
title = "Acme blog"
kind = "vendor"
published = "2026-10-02"

[[claim]]
subject = "acme-orca-9b"
attribute = "license"
value = "mit"
raw = "released under MIT"
claimant = "Acme"
"""


def test_a_contradicted_licence_claim_is_noted_in_the_index_and_table_like_any_cell(tmp_path):
    """The repo reads apache-2.0 while a source said MIT: the index's licence cell notes
    "✗ 1 source contradicted" as the figure cells do, and api/table.json carries the count
    the compare page shows."""
    from tracker import pipeline
    from tracker.website import build_site

    db = str(tmp_path / "t.db")
    engine = make_engine(db)
    data = tracked_data(tmp_path)
    (data / "claims" / "acme-blog.toml").write_text(WRONG_LICENCE, encoding="utf-8")
    load_curated(engine, data)
    for har in landing_recordings(tmp_path):
        run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
    pipeline.verify(engine, now=T3)
    out = tmp_path / "site"
    build_site(engine, out, now=T3)
    engine.dispose()
    index = (out / "index.html").read_text(encoding="utf-8")
    row = index[index.index('href="subjects/acme-orca-9b/index.html"') :].split("</tr>")[0]
    assert (
        '<code class="nowrap">apache-2.0</code></a><br><strong>gated (manual)</strong>'
        '<br><small class="cell-note contradicted" title="a figure the evidence contradicts; '
        'not the one shown"><span aria-hidden="true">✗</span> 1 source contradicted</small></td>'
    ) in row
    table = json.loads((out / "api" / "table.json").read_text(encoding="utf-8"))
    orca = next(s for s in table["subjects"] if s["slug"] == "acme-orca-9b")
    assert (orca["license"], orca["license_contradicted"]) == ("apache-2.0", 1)


def test_replayed_verifications_are_judged_and_stamped_as_of_their_evidence(tmp_path):
    """Recordings of 11-20 and 11-28 (empty listing) and 12-01 (the repo), each followed
    by `verify` without --now: judged as of the newest check, the promise "before
    2026-11-25" is pending on 11-20 data (not "deadline passed"), overdue as of 11-28,
    then late; each verdict event carries its data's time, so "overdue" sorts before
    the landing."""
    from claims.store.tables import Claim, Verdict
    from tracker import pipeline

    db = str(tmp_path / "t.db")
    engine = make_engine(db)
    data = tracked_data(tmp_path)
    promise = PROMISE.replace('"by 2026-11-04"', '"before 2026-11-25"')
    (data / "claims" / "acme-launch.toml").write_text(promise, encoding="utf-8")
    load_curated(engine, data)
    nov20 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)
    nov28 = dt.datetime(2026, 11, 28, 12, 0, tzinfo=dt.UTC)
    empty = [[entry(ORG_URL, [], nov20)], [entry(ORG_URL, [], nov28)]]
    hars = [write_har(tmp_path / f"e{i}.har", got) for i, got in enumerate(empty)]
    statuses = []
    for har in [*hars, landing_recordings(tmp_path)[2]]:
        run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
        pipeline.verify(engine)
        with Session(engine) as s:
            claim = s.exec(select(Claim).where(Claim.attribute == "weights_release_date")).one()
            statuses.append(
                s.exec(select(Verdict).where(Verdict.claim_id == claim.id)).one().status
            )
    with Session(engine) as s:
        events = [(e.kind, e.created_at) for e in s.exec(select(Event).order_by(Event.id))]
    engine.dispose()
    assert statuses == ["pending", "overdue", "contradicted"]
    stamped = [(k, t.replace(tzinfo=dt.UTC)) for k, t in events if k != "subject_discovered"]
    assert stamped == [
        ("verdict_changed", nov28),
        ("weights_landed", T3),
        ("verdict_changed", T3),
        ("discrepancy_opened", T3),
    ]


def test_a_replay_without_the_followed_repos_page_keeps_its_watch_unchecked(tmp_path):
    """A recording of the org listing alone: the repo it shows is recorded, its model
    watch is made and left unchecked (no failure, no retry), not failed as unrecorded."""
    db = str(tmp_path / "t.db")
    engine = make_engine(db)
    try:
        load_curated(engine, tracked_data(tmp_path))
        har = write_har(tmp_path / "org-only.har", [entry(ORG_URL, [ORCA, TINY], T3)])
        summary = run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
        with Session(engine) as s:
            kinds = [e.kind for e in s.exec(select(Event)).all()]
            followed = s.exec(select(Watch).where(Watch.url == MODEL_URL)).one()
        assert summary.failing == 0
        assert kinds == ["subject_discovered"]
        # a watch never checked: state "new", no run, no failure
        assert (followed.state, followed.last_run, followed.consecutive_failures) == (
            "new",
            None,
            0,
        )
    finally:
        engine.dispose()
