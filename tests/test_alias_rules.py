"""Aliases must name one model in text: `tracker track` never adds a bare number,
version, size or common word as an alias, and `load` refuses one in subjects.toml
(claims/subjects/aliases.py, rules in claims/subjects/alias_rules.toml)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.curated.loader import DataFileError, load_data
from claims.subjects.aliases import plain_alias_problem
from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def data_copy(where: Path) -> Path:
    data = where / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    return data


@pytest.mark.parametrize("alias", ["3", "1", "3.1", "v2", "12B", "8x7B", "Pro", "Max 2",
                                   "the new model", "Instruct-2507", "  "])  # fmt: skip
def test_plain_aliases(alias):
    assert plain_alias_problem(alias) is not None


@pytest.mark.parametrize("alias", ["Qwen 3", "Cirrus 12B", "K2", "K3.1 Pro", "Kimi-K2-Thinking",
                                   "Orca 9B", "Magistral"])  # fmt: skip
def test_distinctive_aliases(alias):
    assert plain_alias_problem(alias) is None


@pytest.mark.parametrize(
    ("name", "org", "aliases", "dropped"),
    [("Qwen 3", "Qwen", ["Qwen 3"], "'3'"),
     ("Mistral 3", "mistral", ["Mistral 3"], "'3'"),
     ("Zeta 1", "zeta", ["Zeta 1"], "'1'"),
     ("Acme Pro", "acme", ["Acme Pro"], "'Pro'"),
     ("Nimbus Labs Cirrus 12B", "nimbus", ["Nimbus Labs Cirrus 12B", "Cirrus 12B"], None)],
)  # fmt: skip
def test_track_adds_only_distinctive_aliases(tmp_path, name, org, aliases, dropped):
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", name, "--org", org, "--data", str(data), "--dry-run"])
    assert r.exit_code == 0, r.output
    shown = ", ".join(f'"{a}"' for a in aliases)
    assert f"+aliases = [{shown}]" in r.output
    if dropped:
        assert f"warning: alias not added: {dropped} is only" in r.output


def test_track_refuses_a_plain_alias_option(tmp_path):
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", "Qwen 3", "--org", "Qwen", "--alias", "3", "--data",
                            str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code != 0
    assert "--alias '3' is only a number, version or size" in r.output


def test_load_refuses_a_plain_alias_naming_file_and_line(tmp_path):
    data = data_copy(tmp_path)
    text = (data / "subjects.toml").read_text()
    text += '\n[[subject]]\nslug = "qwen-3"\nname = "Qwen 3"\naliases = ["Qwen 3", "3"]\n'
    (data / "subjects.toml").write_text(text)
    line = len(text.splitlines())  # the aliases line, the file's last
    with pytest.raises(DataFileError) as err:
        load_data(data)
    assert f"subjects.toml:{line}: subject[3].aliases: '3' is only a number" in str(err.value)
