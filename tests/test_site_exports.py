"""The site's JSON and CSV exports give the Hub's ``gated`` in its own form (false,
"auto", "manual", null), the form ``tracker status --json`` gives, from one function
(claims.vocabulary.gated_value); the compare page's script words it as the pages do."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from sitefixture import NOW, populate, t
from sqlmodel import Session, select

from claims.store.status import weights_status
from claims.store.tables import Observation, Subject, Watch
from claims.values.canonical import dumps
from claims.values.value import text_value
from tracker.website import build_site
from tracker.website.observed import GATED_WORDS

SITE_JS = Path(__file__).resolve().parents[1] / "templates" / "assets" / "site.js"


def _gate(engine, slug: str, repo: str, stored: str) -> None:
    with Session(engine) as s:
        subject = s.exec(select(Subject).where(Subject.slug == slug)).one()
        hf = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        value = text_value(stored)
        s.add(
            Observation(
                subject_id=subject.id, watch_id=hf.id, attribute="gated",
                qualifiers_json=dumps({"repo": repo}), value_json=dumps(value.to_dict()),
                value_key=value.key(), source_url=f"https://huggingface.co/api/models/{repo}",
                first_seen=t(21), last_seen=t(21),
            )
        )  # fmt: skip
        s.commit()


@pytest.fixture
def site(engine, tmp_path):
    populate(engine)
    _gate(engine, "kimi-k2-thinking", "moonshotai/Kimi-K2-Thinking", "false")
    _gate(engine, "kimi-k3.1-pro", "moonshotai/Kimi-K3.1-Pro", "manual")
    out = tmp_path / "site"
    build_site(engine, out, now=NOW, base_url="https://dash.example.org/")
    return engine, out


EXPECTED = {"kimi-k2-thinking": False, "kimi-k3.1-pro": "manual", "orca-9b": None}


def test_subject_exports_give_gated_as_status_json_does(site):
    engine, out = site
    with Session(engine) as s:
        for slug, hub in EXPECTED.items():
            subject = s.exec(select(Subject).where(Subject.slug == slug)).one()
            exported = json.loads((out / "api" / "subjects" / f"{slug}.json").read_text())
            assert exported["gated"] == hub
            assert weights_status(s, subject).to_dict()["gated"] == hub  # status --json


def test_table_json_and_csv_give_gated_in_the_hubs_form(site):
    _, out = site
    table = json.loads((out / "api" / "table.json").read_text())
    assert {r["slug"]: r["gated"] for r in table["subjects"]} == EXPECTED
    text = (out / "api" / "table.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    assert {r["slug"]: r["gated"] for r in rows} == {
        "kimi-k2-thinking": "false",
        "kimi-k3.1-pro": "manual",
        "orca-9b": "",
    }


def test_the_pages_still_say_it_in_words(site):
    _, out = site
    page = (out / "subjects" / "kimi-k2-thinking" / "index.html").read_text()
    assert "not gated" in page


def test_the_compare_script_words_gated_as_the_pages_do():
    script = SITE_JS.read_text(encoding="utf-8")
    block = re.search(r"var GATED_WORDS = \{(.*?)\};", script, re.S)
    assert block is not None
    words = dict(re.findall(r'"(\w+)": "([^"]*)"', block.group(1)))
    assert words == {k: v for k, v in GATED_WORDS.items() if k != "true"}


def test_site_api_doc_states_the_form_the_exports_give(site):
    doc = (SITE_JS.parents[2] / "docs" / "site-api.md").read_text(encoding="utf-8")
    (row,) = [line for line in doc.splitlines() if line.startswith("| `gated` |")]
    documented = {"false": False, '"auto"': "auto", '"manual"': "manual"}
    assert all(f"`{form}`" in row for form in documented) and "null" in row
    _, out = site
    table = json.loads((out / "api" / "table.json").read_text())
    exported = {r["gated"] for r in table["subjects"]}
    assert exported <= {*documented.values(), None} and len(exported) == 3


@pytest.mark.parametrize("count", [0, 1, 3])
def test_claims_export_is_the_canonical_json_of_its_records(count):
    from tracker.website.exports import SCHEMA_VERSION, claims_export

    records = {
        i: json.dumps({"id": i, "x": "é"}, separators=(",", ":"), ensure_ascii=False)
        for i in range(1, count + 1)
    }
    text = claims_export(records)
    assert text.endswith("}\n") and text.count("\n") == 1
    assert text[:-1] == json.dumps(
        {"claims": [json.loads(r) for r in records.values()], "schema": SCHEMA_VERSION},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def test_claim_records_are_canonical_json(site):
    """Each claim's record is written as its head, its source's text (encoded once per
    source) and its tail (exports.claim_record_text): the file is still the canonical
    encoding (sorted keys, compact), in api/claims.json and each subject's export."""
    _, out = site
    canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = (out / "api" / "claims.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == canonical.encode(data) + "\n"
    assert len(data["claims"]) == 8
    assert {c["verdict"] is None for c in data["claims"]} == {True, False}
    subject = (out / "api" / "subjects" / "kimi-k3.1-pro.json").read_text(encoding="utf-8")
    assert subject == canonical.encode(json.loads(subject)) + "\n"


def test_site_api_doc_lists_every_field_of_a_discrepancy(site):
    """docs/site-api.md's DISCREPANCY names each field api/discrepancies.json gives
    (``found_settled`` was given on the page, "found settled (never open)", not here)."""
    doc = (SITE_JS.parents[2] / "docs" / "site-api.md").read_text(encoding="utf-8")
    part = doc[doc.index("`DISCREPANCY` (sorted by id):") : doc.index("## `api/table.json`")]
    documented = set(re.findall(r"(?:^|[\s(,])`([a-z_]+)` \(|(?:^|[\s,])`([a-z_]+)`[,.]", part))
    names = {a or b for a, b in documented}
    _, out = site
    rows = json.loads((out / "api" / "discrepancies.json").read_text())["discrepancies"]
    assert rows
    assert set(rows[0]) <= names, set(rows[0]) - names
    assert {"found_settled", "opened_at", "closed_at", "claim_ids"} <= set(rows[0])
