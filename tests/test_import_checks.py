"""`tracker claims import` and what a fresh-user trial got past it: a file-defined source
when no data folder was in sight, an edited figure with its old interval, a unit that is
not the attribute's; and the data files' short notation ("1.3T"), now accepted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store import tables as models
from claims.store.engine import make_engine
from tracker.cli.main import app

DATA = Path(__file__).resolve().parent.parent / "data"
runner = CliRunner()

EDITED = {  # a reviewer changed value.value from 48B, not low/high/text
    "subject": "kimi-k3.1-pro", "attribute": "total_params", "qualifiers": {},
    "value": {"kind": "quantity", "value": 50000000000, "unit": "params",
              "low": 47500000000, "high": 48500000000, "precision": "1"},
    "text": "48 billion", "start": 10, "end": 20,
}  # fmt: skip


def _import(tmp_path: Path, items: list, *args: str):  # type: ignore[no-untyped-def]
    cands = tmp_path / "c.json"
    cands.write_text(json.dumps(items), encoding="utf-8")
    return runner.invoke(app, ["claims", "import", str(cands), *args])


def _loaded_db(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the data folder loaded into a new database: (data folder, database)."""
    data, db = tmp_path / "data", tmp_path / "t.db"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("*.db*", "snapshots", "recordings"))
    result = runner.invoke(app, ["load", "--data", str(data), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return data, db


def _claims_of(db: Path, key: str) -> list[models.Claim]:
    with Session(make_engine(db)) as s:
        src = s.exec(select(models.Source).where(models.Source.key == key)).first()
        if src is None:
            return []
        return list(s.exec(select(models.Claim).where(models.Claim.source_id == src.id)))


def test_a_source_a_data_file_stored_is_refused_from_any_folder(tmp_path, monkeypatch):
    """Run away from data/ (no subjects file to find the claims folder by), the trial
    imported 13 claims into a file-defined source; the database knows their file."""
    data, db = _loaded_db(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    before = len(_claims_of(db, "report-k31-launch"))
    item = {**EDITED, "value": "1.3T"}
    r = _import(elsewhere, [item], "--source", "report-k31-launch", "--db", str(db))
    path = (data / "claims" / "report-k31-launch.toml").resolve()
    assert (r.exit_code, r.stderr) == (
        1,
        f"error: --source 'report-k31-launch' is defined by {path} (stored by `tracker "
        "load`): add these claims to that file and run `tracker load`, or import under "
        "another source key\n",
    )
    assert len(_claims_of(db, "report-k31-launch")) == before
    r = _import(elsewhere, [item], "--source", "blog-3", "--db", str(db))
    assert r.stdout == (
        "imported 1 claims (0 already present, 0 skipped without subject)\n"
        "they have no verdict yet: run `tracker verify` to give them verdicts\n"
    )


def test_an_edited_value_outside_its_own_interval_is_refused(tmp_path):
    _, db = _loaded_db(tmp_path)
    r = _import(tmp_path, [EDITED], "--source", "blog-3", "--db", str(db))
    assert (r.exit_code, r.stderr) == (
        1,
        "error: candidate #1: value.value 50000000000 is outside its own low 47500000000 "
        "and high 48500000000: edit low and high to fit it, or drop them (the figure is "
        'then exact), or write the figure as in a data file (e.g. "2.8T": its interval '
        'follows from its digits); check "text" too\n',
    )
    assert _claims_of(db, "blog-3") == []
    fixed = {**EDITED, "value": {k: v for k, v in EDITED["value"].items() if k not in ("low", "high")}}  # fmt: skip
    assert _import(tmp_path, [fixed], "--source", "blog-3", "--db", str(db)).exit_code == 0
    assert [c.value.interval() for c in _claims_of(db, "blog-3")] == [(50_000_000_000,) * 2]


def test_the_data_files_short_notation_is_read_as_there(tmp_path):
    """`"value": "1.3T"` was `value: expected a table/object`."""
    _, db = _loaded_db(tmp_path)
    items = [
        {**EDITED, "value": "1.3T"},
        {"subject": "kimi-k3", "attribute": "benchmark_score", "value": "71", "unit": "points",
         "qualifiers": {"benchmark": "X"}},
        {"subject": "kimi-k3", "attribute": "weights_release_date", "value": "by 2026-12"},
        {"subject": "kimi-k3", "attribute": "price_input_usd_per_mtok",
         "value": {"kind": "quantity", "value": 0.6}},  # no unit: the attribute's
    ]  # fmt: skip
    r = _import(tmp_path, items, "--source", "blog-3", "--db", str(db))
    assert r.stdout == (
        "imported 4 claims (0 already present, 0 skipped without subject)\n"
        "they have no verdict yet: run `tracker verify` to give them verdicts\n"
    )
    claims = _claims_of(db, "blog-3")
    assert [c.value.display() for c in claims] == [
        "1.3T params",
        "71 points",
        "by 2026-12",
        "$0.60 per 1M tokens",
    ]
    assert claims[0].value.interval() == (1_250_000_000_000, 1_350_000_000_000)  # as in a file


@pytest.mark.parametrize(
    ("item", "message"),
    [
        (
            {"value": "0.6", "unit": "parsecs"},
            "unit: price_input_usd_per_mtok is in usd_per_mtok, not 'parsecs': leave unit "
            'out (the figure is then in usd_per_mtok) or set it to "usd_per_mtok"; units '
            "are not converted",
        ),
        (
            {"value": {"kind": "quantity", "value": 0.6, "unit": "USD/1M tokens"}},
            "value.unit: price_input_usd_per_mtok is in usd_per_mtok, not 'USD/1M tokens': "
            "leave value.unit out (the figure is then in usd_per_mtok) or set it to "
            '"usd_per_mtok"; units are not converted',
        ),
        (
            {"value": "0,6"},
            "value: '0,6' is not a figure (no commas: write 1000000 or 1M, and a decimal "
            "point, e.g. 0.6)",
        ),
        (
            {"value": "$1.20"},
            "value: '$1.20' is not a figure (write the number without a currency sign: the "
            "attribute gives the unit, e.g. 1.20)",
        ),
        ({"value": "abc"}, "value: 'abc' is not a figure (e.g. 2.8T, ~3T, 65.7%, 1000-2000+)"),
        # bool("false") is True: it was stored as an exact figure
        ({"value": "0.6", "exact": "false"}, "exact: expected true or false, got 'false'"),
        (
            {"value": None},
            "value: expected an object (as extract --json writes it) or a figure written as "
            'in a data file, e.g. "1.3T"',
        ),
    ],
)
def test_a_bad_unit_or_figure_is_refused(tmp_path, item, message):
    base = {"subject": "kimi-k3", "attribute": "price_input_usd_per_mtok"}
    r = _import(tmp_path, [{**base, **item}], "--source", "s", "--db", str(tmp_path / "t.db"))
    assert (r.exit_code, r.stderr) == (1, f"error: candidate #1: {message}\n")
