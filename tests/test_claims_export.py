"""`tracker claims list`, `claims export` (imported claims -> a data file that `tracker
load` reads back to the same claims) and `claims import --json`; the inverse of the
data-file value notation it relies on (claims.values.stated.stated_notation)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import Claim
from claims.values.stated import parse_stated, stated_notation
from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
# Written for this test (no third-party text): figures of several value kinds.
ARTICLE = (
    "Moonshot AI said Kimi K3.1 Pro has 2.8 trillion parameters, with 104 billion active, "
    "and a context window of 1 million tokens. Cerebras serves Kimi K3.1 Pro at about 1,000 "
    "to 2,000+ tokens per second. Input costs $2.00 per million tokens. On Terminal-Bench "
    "3.0 it scores 65.7%.\n"
)


def invoke(*args: str):
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return r


def stored_claims(db: str) -> list[tuple]:
    with Session(make_engine(db)) as s:
        rows = s.exec(select(Claim).where(Claim.origin != None).order_by(Claim.id)).all()  # noqa: E711
        return [
            (c.id, c.key, c.value.key(), c.qualifiers_json, c.claimant, c.locator, c.raw_text)
            for c in rows
            if c.source_id == max(r.source_id for r in rows)
        ]


@pytest.fixture
def imported(tmp_path):
    """A data folder (the demo's subjects and claims), loaded, plus 6 claims extracted
    from an article and imported under source ``wire-k31``."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data" / "claims", data / "claims")
    shutil.copy(ROOT / "data" / "subjects.toml", data / "subjects.toml")
    db = str(tmp_path / "t.db")
    invoke("load", "--data", str(data), "--db", db)
    article = tmp_path / "a.txt"
    article.write_text(ARTICLE, encoding="utf-8")
    subjects = str(data / "subjects.toml")
    cands = invoke("claims", "extract", str(article), "--lang", "en", "--json",
                   "--published", "2026-11-20", "--subjects", subjects).stdout  # fmt: skip
    (tmp_path / "c.json").write_text(cands, encoding="utf-8")
    r = invoke("claims", "import", str(tmp_path / "c.json"), "--source", "wire-k31", "--db", db,
               "--title", "Wire: Kimi K3.1 Pro figures", "--published", "2026-11-20",
               "--subjects", subjects, "--json")  # fmt: skip
    assert json.loads(r.stdout) == {
        "source": "wire-k31", "stored": 6, "present": 0, "skipped": 0, "not_applied": [],
    }  # fmt: skip
    return data, db


def test_export_then_load_gives_back_every_imported_claim(imported):
    data, db = imported
    before = stored_claims(db)
    assert len(before) == 6
    text = invoke("claims", "export", "--source", "wire-k31", "--db", db).stdout
    assert '[source]\nkey = "wire-k31"\ntitle = "Wire: Kimi K3.1 Pro figures"\n' in text
    assert 'value = "~1000-2000+"' in text and 'value = "2.8T"' in text
    assert 'qualifiers = {benchmark = "Terminal-Bench", version = "3.0"}' in text
    (data / "claims" / "wire-k31.toml").write_text(text, encoding="utf-8")
    r = invoke("load", "--data", str(data), "--db", db, "--json")
    report = json.loads(r.stdout)
    assert (report["claims_added"], report["claims_removed"], report["claims_stale"]) == (0, 0, [])
    # the same rows: ids, content keys, values, qualifiers, claimant, locator, raw
    assert stored_claims(db) == before
    with Session(make_engine(db)) as s:
        origins = {
            c.origin for c in s.exec(select(Claim).where(Claim.id.in_([b[0] for b in before])))
        }  # type: ignore[attr-defined]
    assert origins == {(data / "claims" / "wire-k31.toml").resolve().as_uri()}


def test_a_fresh_database_loads_the_exported_file_to_the_same_claims(imported, tmp_path):
    data, db = imported
    text = invoke("claims", "export", "--source", "wire-k31", "--db", db).stdout
    (data / "claims" / "wire-k31.toml").write_text(text, encoding="utf-8")
    fresh = str(tmp_path / "fresh.db")
    invoke("load", "--data", str(data), "--db", fresh)
    assert [b[1:] for b in stored_claims(fresh)] == [b[1:] for b in stored_claims(db)]


VERDICT = (
    "disputed",
    "no observation; sources disagree: the same score reported for two versions of a "
    "benchmark: 65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for "
    "Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…” "
    "and “Wire: Kimi K3.1 Pro figures”: one of the versions is wrong",
    None,
)


def test_claims_list_filters_and_json(imported):
    _data, db = imported
    invoke("verify", "--db", db)
    r = invoke("claims", "list", "Kimi K3.1 Pro", "--attribute", "benchmark_score",
               "--db", db, "--json")  # fmt: skip
    rows = [x for x in json.loads(r.stdout) if x["source_key"] == "wire-k31"]
    assert [(x["subject"], x["value"], x["qualifiers"], x["claimant"], x["locator"])
            for x in rows] == [
        ("kimi-k3.1-pro", "65.7%", {"benchmark": "Terminal-Bench", "version": "3.0"},
         None, "chars 271-276"),
    ]  # fmt: skip
    assert ARTICLE[271:276] == "65.7%"
    assert (rows[0]["verdict"], rows[0]["reason"], rows[0]["as_of"]) == VERDICT
    disputed = json.loads(invoke("claims", "list", "--verdict", "disputed", "--db", db,
                                 "--json").stdout)  # fmt: skip
    assert sorted({(x["attribute"], x["source_key"]) for x in disputed}) == [
        ("benchmark_score", "maquinaweb-k31-cerebras"),
        ("benchmark_score", "report-k31-launch"),
        ("benchmark_score", "wire-k31"),
    ]


def test_unknown_names_get_a_did_you_mean(imported):
    _data, db = imported
    r = runner.invoke(app, ["claims", "list", "kimi-k31-pro", "--db", db])
    assert (r.exit_code, r.output) == (
        1, "error: unknown subject 'kimi-k31-pro' (did you mean 'kimi-k3.1-pro'?); known: "
        "kimi-k3.1-pro, kimi-k3, kimi-k2-thinking\n"
    )  # fmt: skip
    r = runner.invoke(app, ["claims", "export", "--source", "wire-k3", "--db", db])
    assert (r.exit_code, r.output) == (
        1,
        "error: unknown source 'wire-k3' (did you mean 'wire-k31'?)\n",
    )
    r = runner.invoke(app, ["status", "kimi-k31-pro", "--db", db])
    assert r.output.startswith(
        "error: unknown subject 'kimi-k31-pro' (did you mean 'kimi-k3.1-pro'?)"
    )
    r = runner.invoke(app, ["discrepancies", "--subject", "kimi-k31-pro", "--db", db])
    assert "(did you mean 'kimi-k3.1-pro'?)" in r.output


def test_claims_list_options_take_only_their_values(imported):
    """A value outside --verdict's or --attribute's list is a usage error (exit 2) that
    names the allowed values, which --help lists too."""
    _data, db = imported
    r = runner.invoke(
        app, ["claims", "list", "--verdict", "confirmd", "--db", db], prog_name="tracker"
    )
    assert r.exit_code == 2
    assert r.output == (
        "error: invalid value for '--verdict': 'confirmd' is not one of confirmed, "
        "contradicted, pending, overdue, unverified, disputed, no verdict yet (did you mean "
        "'confirmed'?); see `tracker claims list --help`\n"
    )
    r = runner.invoke(
        app, ["claims", "list", "--attribute", "benchmark", "--db", db], prog_name="tracker"
    )
    assert r.exit_code == 2
    assert r.output.startswith(
        "error: invalid value for '--attribute': 'benchmark' is not one of total_params, "
    )
    assert r.output.endswith(
        "license_text_sha256 (did you mean 'benchmark_score'?); see `tracker claims list --help`\n"
    )
    helptext = " ".join(invoke("claims", "list", "--help").output.replace("│", " ").split())
    assert 'disputed or "no verdict yet" (claims `tracker verify` has not judged)' in helptext
    assert "leaderboard_rank, hardware_units," in helptext


def test_claims_list_shows_qualifiers_and_no_verdict_yet(imported, monkeypatch):
    """Two 65.7% benchmark claims with opposite verdicts say which version each is about;
    a claim `verify` has not judged reads "no verdict yet", as --verdict calls it."""
    _data, db = imported
    monkeypatch.setenv("COLUMNS", "400")  # wide enough for each row's first line to hold its cells
    fresh = invoke("claims", "list", "--verdict", "no verdict yet", "--db", db).output
    row = next(line for line in fresh.splitlines() if "65.7%" in line and "Wire" in line)
    cells = [c.strip() for c in row.split("│")]
    assert cells[3] == "Benchmark score · Terminal-Bench 3.0"
    assert cells[7:9] == ["no verdict yet", "run `tracker verify` to give it one"]
    same = invoke("claims", "list", "--verdict", "no-verdict-yet", "--db", db).output
    assert same == fresh
    invoke("verify", "--db", db)
    judged = invoke("claims", "list", "kimi-k3.1-pro", "--attribute", "benchmark_score",
                    "--db", db).output  # fmt: skip
    rows = {
        c[1]: c
        for line in judged.splitlines()
        if (c := [x.strip() for x in line.split("│")])[1:2] and c[1].isdigit()
    }
    assert rows["15"][3] == "Benchmark score · Terminal-Bench 4.0"
    assert rows["37"][3] == "Benchmark score · Terminal-Bench 3.0"
    assert "no verdict yet" not in judged


NOTATIONS = [
    ("2.8T", "total_params", None), ("~3T", "total_params", None),
    (">=1000", "output_tokens_per_second", None), ("65.7%", "benchmark_score", None),
    ("1000-2000+", "output_tokens_per_second", None), ("by 2026-11", "weights_release_date", None),
    ("apache-2.0", "license", None), ("0.80", "price_input_usd_per_mtok", None),
    ("~-25", "price_change_pct", None), ("71.4", "benchmark_score", "points"),
    ("1.05M", "context_window", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "attribute", "unit"), NOTATIONS)
def test_stated_notation_writes_what_parse_stated_reads_back(text, attribute, unit):
    v = parse_stated(text, attribute, unit=unit)
    written, got_unit, exact = stated_notation(v, attribute)
    assert parse_stated(written, attribute, unit=got_unit, exact=exact).key() == v.key()
    assert got_unit == unit


@given(
    st.decimals(min_value=1, max_value=999, places=2, allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "K", "M", "B", "T"]),
    st.booleans(),
    st.booleans(),
)
def test_stated_notation_round_trips_any_quantity(number, suffix, approx, exact):
    text = ("~" if approx else "") + f"{number}{suffix}"
    attribute = "total_params" if suffix in ("B", "T") else "context_window"
    v = parse_stated(text, attribute, exact=exact)
    written, unit, is_exact = stated_notation(v, attribute)
    assert parse_stated(written, attribute, unit=unit, exact=is_exact).key() == v.key()
