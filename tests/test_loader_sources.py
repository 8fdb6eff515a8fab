"""A re-keyed or deleted claims file takes its old source with its claims: a trial's
renamed key left the old source, with 0 claims, on the sources page beside the new."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store import tables as models
from claims.store.engine import make_engine
from tracker.cli.main import app

DATA = Path(__file__).resolve().parent.parent / "data"
OLD, NEW = "report-k31-launch", "report-k31"
runner = CliRunner()


def _copy(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("*.db*", "snapshots", "recordings"))
    return data


def _load(data: Path, db: Path) -> list[str]:
    result = runner.invoke(app, ["load", "--data", str(data), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def _source_keys(db: Path) -> list[str]:
    with Session(make_engine(db)) as s:
        return sorted(src.key for src in s.exec(select(models.Source)))


def test_a_renamed_source_key_removes_the_old_source(tmp_path):
    data, db = _copy(tmp_path), tmp_path / "t.db"
    _load(data, db)
    path = data / "claims" / f"{OLD}.toml"
    path.write_text(path.read_text().replace(f'key = "{OLD}"', f'key = "{NEW}"'))
    lines = _load(data, db)
    assert [ln for ln in lines if "removed source" in ln] == [f"  removed source {OLD}"]
    assert OLD not in _source_keys(db) and NEW in _source_keys(db)
    assert not any("removed source" in ln for ln in _load(data, db))  # once
    path.unlink()  # a deleted file: its source goes with its claims
    lines = _load(data, db)
    assert [ln for ln in lines if "removed source" in ln] == [f"  removed source {NEW}"]
    assert _source_keys(db) == [
        "kimi-k2-thinking-card",
        "maquinaweb-k31-cerebras",
        "opinion-k31-vs-fable",
    ]


def test_a_source_with_a_claim_left_is_kept(tmp_path):
    """An imported claim (origin "import") still refers to the old source: the source stays
    (only a claim refers to a source, claims.store.tables), and so does that claim."""
    data, db = _copy(tmp_path), tmp_path / "t.db"
    _load(data, db)
    engine = make_engine(db)
    with Session(engine) as s:
        kept = s.exec(select(models.Claim).where(models.Claim.attribute == "total_params")).first()
        assert kept is not None
        src = s.exec(select(models.Source).where(models.Source.key == OLD)).one()
        kept.source_id, kept.origin = src.id, "import"  # type: ignore[assignment]
        kept.key = "imported"
        s.add(kept)
        s.commit()
    path = data / "claims" / f"{OLD}.toml"
    path.write_text(path.read_text().replace(f'key = "{OLD}"', f'key = "{NEW}"'))
    lines = _load(data, db)
    assert not any("removed source" in ln for ln in lines)
    assert OLD in _source_keys(db)
    with Session(engine) as s:
        assert s.exec(select(models.Claim).where(models.Claim.key == "imported")).one()
