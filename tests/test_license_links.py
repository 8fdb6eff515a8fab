"""The licence link points at the licence itself: the repo's licence file when the Hub's
file listing shows one (LICENSE, LICENSE.md, ...) or a watch fetched it, else the SPDX
page of a known id, else it says there is no licence file. Recorded Hub listings (the
real google-bert payload, its siblings edited per case) through a real cycle."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.readings.licenses import license_file
from claims.store.engine import make_engine
from claims.store.status import weights_status
from claims.store.tables import Subject
from tracker.cli.main import app
from tracker.cli.watch import run_cycle
from tracker.curated.edit import apply, plan_track
from tracker.curated.load import load_curated
from tracker.net.har import har_entry, write_har

HUB = "https://huggingface.co"
REPO = "acme/Orca-9B"
ORG_URL = f"{HUB}/api/models?author=acme&sort=createdAt&direction=-1&limit=100"
MODEL_URL = f"{HUB}/api/models/{REPO}"
FILES = ("config.json", "model.safetensors.index.json", "LICENSE")
RECORDED = Path(__file__).parent / "data" / "hf_model_info_google-bert_bert-base-uncased.json"
T1 = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)
T2 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
JSON = [("Content-Type", "application/json")]


def _info(files: list[str] | None, card: dict | None = None) -> dict:
    """The recorded model-info payload as acme/Orca-9B's, its file listing ``files``
    (None: a payload without ``siblings``), its card ``card`` when given."""
    info = copy.deepcopy(json.loads(RECORDED.read_text(encoding="utf-8")))
    info["id"] = REPO
    if files is None:
        del info["siblings"]
    else:
        info["siblings"] = [{"rfilename": n} for n in files]
    if card is not None:
        info["cardData"] = card
        info["tags"] = [t for t in info["tags"] if not t.startswith("license:")]
    return info


def _cycle(tmp_path: Path, db: str, at: dt.datetime, info: dict, licence: bytes | None = None):
    def body(name: str) -> tuple[int, bytes]:
        return (200, licence) if name == "LICENSE" and licence else (404, b"{}")

    files = [har_entry("GET", f"{HUB}/{REPO}/resolve/main/{n}", body(n)[0], JSON, body(n)[1], at)
             for n in FILES]  # fmt: skip
    listing = {"id": REPO, "private": False, "createdAt": "2026-11-30T05:10:00.000Z"}
    har = write_har(tmp_path / f"{at:%H}.har", [
        har_entry("GET", ORG_URL, 200, JSON, json.dumps([listing]).encode(), at),
        har_entry("GET", MODEL_URL, 200, JSON, json.dumps(info).encode(), at),
        *files,
    ])  # fmt: skip
    run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)


def _db(tmp_path: Path) -> str:
    db = str(tmp_path / "t.db")
    data = tmp_path / "data"
    data.mkdir()
    apply(plan_track(data, "Acme Orca 9B", "acme", repo=REPO))
    load_curated(make_engine(db), data)
    return db


def _link(db: str) -> tuple[str | None, str | None, str | None]:
    with Session(make_engine(db)) as s:
        subject = s.exec(select(Subject).where(Subject.slug == "acme-orca-9b")).one()
        st = weights_status(s, subject)
    return st.license_link, st.license_link_kind, st.license_note


BLOB = f"{HUB}/{REPO}/blob/main"
SIBLINGS = [s["rfilename"] for s in json.loads(RECORDED.read_text())["siblings"]]
WITHOUT = [n for n in SIBLINGS if n != "LICENSE"]
OTHER = {"license": "other", "license_name": "acme-research-license"}


@pytest.mark.parametrize(
    ("info", "link"),
    [
        # the recorded listing shows LICENSE (licence apache-2.0): the file wins over SPDX
        (_info(SIBLINGS), (f"{BLOB}/LICENSE", "file", None)),
        (_info([*WITHOUT, "LICENSE.md"]), (f"{BLOB}/LICENSE.md", "file", None)),
        (_info([*WITHOUT, "license.txt"], OTHER), (f"{BLOB}/license.txt", "file", None)),
        # no licence file listed: the SPDX page of a known id
        (_info(WITHOUT), ("https://spdx.org/licenses/Apache-2.0.html", "spdx", None)),
        # no licence file listed, no SPDX id: no link, and it says so
        (_info(WITHOUT, OTHER), (None, "none", "no licence file in the repo")),
        # no listing in the payload: nothing is claimed about the files
        (_info(None, OTHER),
         (None, "none", "no licence file seen (the repo's file list was not read)")),
    ],
)  # fmt: skip
def test_the_link_goes_to_the_licence_itself(tmp_path, info, link):
    db = _db(tmp_path)
    _cycle(tmp_path, db, T1, info)
    assert _link(db) == link


def test_a_licence_file_the_watch_fetched_is_the_link_without_a_listing(tmp_path):
    db = _db(tmp_path)
    _cycle(tmp_path, db, T1, _info(None, OTHER), licence=b"Acme Research License\n...")
    assert _link(db) == (f"{BLOB}/LICENSE", "file", None)


def test_a_licence_file_added_later_under_the_same_licence_becomes_the_link(tmp_path):
    db = _db(tmp_path)
    _cycle(tmp_path, db, T1, _info(WITHOUT, OTHER))
    assert _link(db)[0] is None
    _cycle(tmp_path, db, T2, _info([*WITHOUT, "LICENSE"], OTHER))  # same licence id
    assert _link(db) == (f"{BLOB}/LICENSE", "file", None)


def test_status_and_the_subject_page_show_it(tmp_path):
    db = _db(tmp_path)
    _cycle(tmp_path, db, T1, _info(WITHOUT, OTHER))
    runner = CliRunner()
    text = runner.invoke(app, ["status", "acme-orca-9b", "--db", db]).stdout
    assert "  licence: acme-research-license (no licence file in the repo) — read " in text
    got = json.loads(runner.invoke(app, ["status", "acme-orca-9b", "--db", db, "--json"]).stdout)
    assert (got["license_link"], got["license_link_kind"], got["license_note"]) == (
        None, "none", "no licence file in the repo",
    )  # fmt: skip
    out = tmp_path / "site"
    assert runner.invoke(app, ["build", "--db", db, "--out", str(out)]).exit_code == 0
    page = (out / "subjects" / "acme-orca-9b" / "index.html").read_text()
    assert "<small>(no licence file in the repo)</small>" in page


def test_the_listing_reader():
    assert license_file(SIBLINGS) == "LICENSE"  # the recorded listing
    assert license_file(["README.md", "LICENCE"]) == "LICENCE"
    assert license_file(["license", "LICENSE.txt"]) == "LICENSE.txt"
    assert license_file(["docs/LICENSE", "README.md", "licenses.json"]) is None
