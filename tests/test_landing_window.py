"""The landing window when an org listing and a model watch of the same subject run in
one cycle (issue 16): the bounds come from the subject's Hub watches together (the
latest successful check of ANY of them that did not see the repo), whichever watch
reports the repo first."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlmodel import Session, select

from claims.store.engine import make_engine
from claims.store.status import weights_status
from claims.store.tables import Event, Subject
from tracker.cli.watch import run_cycle
from tracker.curated.load import load_curated
from tracker.net.har import har_entry, write_har

HUB = "https://huggingface.co"
ORG_URL = f"{HUB}/api/models?author=acme&sort=createdAt&direction=-1&limit=100"
MODEL_URL = f"{HUB}/api/models/acme/Orca-9B"
EVENING = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
MORNING = dt.datetime(2026, 12, 2, 6, 0, tzinfo=dt.UTC)
JSON = [("Content-Type", "application/json")]
ORCA = {"id": "acme/Orca-9B", "private": False, "createdAt": "2026-12-02T05:10:00.000Z"}
SUBJECTS = """[[subject]]
slug = "acme-orca-9b"
name = "Acme Orca 9B"
organization = "Acme"
hub_org = "acme"
aliases = ["Acme Orca 9B", "Orca 9B"]
[subject.ids]
huggingface = ["acme/Orca-9B"]
"""
WATCH = """[[watch]]
name = "{name}"
adapter = "{adapter}"
url = "{url}"
interval_minutes = 60
[watch.params]
robots = false
{param}
"""


def entry(url: str, body, at: dt.datetime, status: int = 200) -> dict:
    return har_entry("GET", url, status, JSON, json.dumps(body).encode(), at)


def data(folder: Path, org_name: str, model_name: str) -> Path:
    out = folder / "data"
    out.mkdir()
    (out / "subjects.toml").write_text(SUBJECTS, encoding="utf-8")
    watches = WATCH.format(
        name=org_name, adapter="huggingface_org", url=ORG_URL, param='org = "acme"'
    ) + WATCH.format(
        name=model_name, adapter="huggingface_model", url=MODEL_URL, param='repo = "acme/Orca-9B"'
    )  # fmt: skip
    (out / "watches.toml").write_text(watches, encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("org_name", "model_name"),
    [("hf-org-acme", "hf-model-acme-orca-9b"),  # the model watch records first (track's names)
     ("a-org-acme", "z-model-acme-orca-9b")],  # the org listing records first
)  # fmt: skip
def test_the_window_starts_at_the_last_check_of_any_watch_of_the_subject(
    tmp_path, org_name, model_name
):
    db = str(tmp_path / "t.db")
    engine = make_engine(db)
    load_curated(engine, data(tmp_path, org_name, model_name))
    evening = write_har(tmp_path / "1.har", [
        entry(ORG_URL, [], EVENING),  # the listing: empty, a successful check
        *[entry(MODEL_URL, {"error": "down"}, EVENING, 503)] * 3,  # the model watch: failed
    ])  # fmt: skip
    morning = write_har(tmp_path / "2.har", [
        entry(ORG_URL, [ORCA], MORNING),
        entry(MODEL_URL, {**ORCA, "cardData": {"license": "apache-2.0"}}, MORNING),
    ])  # fmt: skip
    for har in (evening, morning):
        run_cycle(db, har, None, tmp_path / "snapshots", show_progress=False)
    with Session(engine) as s:
        landed = [json.loads(e.detail_json) for e in s.exec(select(Event)) if e.kind in
                  ("weights_landed", "subject_discovered")]  # fmt: skip
        status = weights_status(s, s.exec(select(Subject)).one())
    assert len(landed) == 1
    assert landed[0]["previous_check"] == "2026-12-01T18:00:00+00:00"
    assert "at_first_check" not in landed[0]
    assert status.landed_after == EVENING
    assert status.landed_at == MORNING
