"""A model tracked before its release for the model-watch tests: "Cirrus 12B" of Nimbus
Labs (``nimbuslabs/Cirrus-12B``), tracked with ``tracker track``'s plan into a fresh
database, and Hub responses as HAR entries (tests/test_model_watch_*.py)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from claims.store.engine import make_engine
from tracker.curated.edit import apply, plan_track
from tracker.curated.load import load_curated
from tracker.net.har import har_entry

HUB = "https://huggingface.co"
REPO = "nimbuslabs/Cirrus-12B"
MODEL_URL = f"{HUB}/api/models/{REPO}"
ORG_URL = f"{HUB}/api/models?author=nimbuslabs&sort=createdAt&direction=-1&limit=100"
JSON = [("Content-Type", "application/json")]
CIRRUS = {"id": REPO, "private": False, "gated": False,
          "createdAt": "2026-12-02T05:00:00.000Z", "cardData": {"license": "apache-2.0"}}  # fmt: skip
# The files `tracker track` has the model watch read.
FILES = ("config.json", "model.safetensors.index.json", "LICENSE")


def at(day: int, hour: int) -> dt.datetime:
    """``hour``:00 UTC on ``day`` December 2026."""
    return dt.datetime(2026, 12, day, hour, 0, tzinfo=dt.UTC)


def entry(url: str, status: int, body, when: dt.datetime, headers=JSON) -> dict:
    """A HAR entry answering GET ``url`` with ``body`` as JSON."""
    return har_entry("GET", url, status, list(headers), json.dumps(body).encode(), when)


def tracked(tmp_path: Path) -> str:
    """A database (path) holding Cirrus 12B tracked as ``tracker track`` writes it."""
    db = str(tmp_path / "t.db")
    data = tmp_path / "data"
    data.mkdir()
    apply(plan_track(data, "Cirrus 12B", "Nimbus Labs", repo=REPO))
    load_curated(make_engine(db), data)
    return db
