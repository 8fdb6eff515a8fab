"""Hub namespaces and repo ids: `tracker track` keeps the organisation's display name
(--org) apart from its Hub namespace, and `load` refuses names the Hub would not accept
(claims/curated/hubids.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims.curated.hubids import namespace_problem, repo_id_problem
from claims.curated.loader import DataFileError, load_data
from tracker.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def data_copy(where: Path) -> Path:
    data = where / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    return data


@pytest.mark.parametrize(
    ("name", "ok"),
    [("nimbuslabs", True), ("mistralai", True), ("Qwen", True), ("deepseek-ai", True),
     ("Nimbus Labs", False), ("Mistral AI", False), ("-lead", False), ("trail.", False),
     ("a--b", False), ("a..b", False), ("x" * 97, False), ("", False), ("ünï", False)],
)  # fmt: skip
def test_namespace_rules(name, ok):
    assert (namespace_problem(name) is None) is ok


def test_repo_id_rules():
    assert repo_id_problem("nimbuslabs/Cirrus-12B") is None
    assert repo_id_problem("moonshotai/Kimi-K2.5") is None
    assert "NAMESPACE/NAME" in str(repo_id_problem("Cirrus-12B"))
    assert "NAMESPACE/NAME" in str(repo_id_problem("a/b/c"))
    assert "' '" in str(repo_id_problem("Nimbus Labs/Cirrus 12B"))


def test_track_takes_the_hub_org_from_repo_not_the_display_name(tmp_path):
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", "Cirrus 12B", "--org", "Nimbus Labs", "--repo",
                            "nimbuslabs/Cirrus-12B", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert '+organization = "Nimbus Labs"' in r.output
    assert '+hub_org = "nimbuslabs"' in r.output
    assert "author=nimbuslabs" in r.output
    assert "Nimbus%20Labs" not in r.output and "author=Nimbus" not in r.output


def test_track_refuses_an_org_watch_for_a_display_name(tmp_path):
    data = data_copy(tmp_path)
    before = (data / "watches.toml").read_text()
    for extra in (["--dry-run"], []):
        r = runner.invoke(app, ["track", "Devstral 3", "--org", "Mistral AI", "--data",
                                str(data), *extra])  # fmt: skip
        assert r.exit_code != 0
        assert "--org 'Mistral AI' has a character the Hub does not allow" in r.output
        assert "--hf-org mistralai" in r.output
    assert (data / "watches.toml").read_text() == before
    r = runner.invoke(app, ["track", "Devstral 3", "--org", "Mistral AI", "--hf-org",
                            "mistralai", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert '+hub_org = "mistralai"' in r.output and "author=mistralai" in r.output


def test_track_of_a_tracked_model_says_so_before_judging_the_org(tmp_path):
    """'Moonshot AI' is no Hub name, but Kimi K3 is tracked already: that is the answer
    (with how to see and untrack it), the org would only matter to a new subject."""
    data = data_copy(tmp_path)
    before = (data / "subjects.toml").read_text()
    for extra in (["--dry-run"], []):
        r = runner.invoke(app, ["track", "Kimi K3", "--org", "Moonshot AI", "--data",
                                str(data), *extra])  # fmt: skip
        assert r.exit_code == 1
        assert r.output == (
            f"error: {data}/subjects.toml: subject 'kimi-k3' is already tracked: see it with "
            "`tracker status kimi-k3`; stop checking it with `tracker untrack kimi-k3`\n"
        )
    assert (data / "subjects.toml").read_text() == before


def test_track_refuses_a_bad_hf_org_and_repo_naming_the_option(tmp_path):
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", "Kimi K4", "--org", "Moonshot AI", "--hf-org",
                            "Moonshot AI", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code != 0 and "--hf-org 'Moonshot AI'" in r.output
    assert "--hf-org moonshotai" in r.output
    r = runner.invoke(app, ["track", "Kimi K4", "--org", "Moonshot AI", "--repo",
                            "moonshotai/Kimi K4", "--data", str(data), "--dry-run"])  # fmt: skip
    assert r.exit_code != 0 and "--repo 'moonshotai/Kimi K4'" in r.output


def test_track_warns_when_hf_org_and_repo_disagree(tmp_path):
    data = data_copy(tmp_path)
    r = runner.invoke(app, ["track", "Kimi K4", "--org", "Moonshot AI", "--hf-org",
                            "moonshot", "--repo", "moonshotai/Kimi-K4", "--data", str(data),
                            "--dry-run"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "warning: --hf-org moonshot differs from the org of --repo moonshotai/Kimi-K4" in (
        r.output
    )


@pytest.mark.parametrize(
    ("field", "line", "expected"),
    [('hub_org = "Nimbus Labs"', 'hub_org = "Nimbus Labs"', "hub_org"),
     ('[subject.ids]\nhuggingface = ["nimbus labs/Cirrus"]', "[[subject]]", "ids")],
)  # fmt: skip
def test_load_rejects_invalid_hub_names_naming_file_line_field(tmp_path, field, line, expected):
    data = data_copy(tmp_path)
    text = (data / "subjects.toml").read_text()
    text += f'\n[[subject]]\nslug = "cirrus-12b"\nname = "Cirrus 12B"\n{field}\n'
    (data / "subjects.toml").write_text(text)
    lines = text.splitlines()
    entry_line = len(lines) - lines[::-1].index(line)  # 1-based: the field's own line
    with pytest.raises(DataFileError) as err:
        load_data(data)
    message = str(err.value)
    assert f"subjects.toml:{entry_line}" in message
    assert expected in message
    assert "Nimbus Labs" in message or "nimbus labs" in message


def test_load_rejects_an_org_watch_on_a_display_name(tmp_path):
    from tracker.curated.load import validate_curated

    data = data_copy(tmp_path)
    text = (data / "watches.toml").read_text()
    text += (
        '\n[[watch]]\nname = "hf-org-nimbus-labs"\nadapter = "huggingface_org"\n'
        'url = "https://huggingface.co/api/models?author=Nimbus%20Labs"\n'
        '[watch.params]\norg = "Nimbus Labs"\n'
    )
    (data / "watches.toml").write_text(text)
    with pytest.raises(DataFileError) as err:
        validate_curated(data)
    assert "watches.toml:" in str(err.value)
    assert "org: 'Nimbus Labs' has a character the Hub does not allow" in str(err.value)
