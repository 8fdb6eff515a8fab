"""Subject lookup from the command line: subjects found by slug in any case, unknown subjects answered with
the known ones, verify's counts in singular and plural, the subject page's wording, build's counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tracker.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)  # the demo reads data/ relative to the checkout
        result = runner.invoke(app, ["demo", "--db", str(tmp / "t.db"), "--out", str(tmp / "s")])
        assert result.exit_code == 0, result.output
    return tmp / "t.db"


@pytest.mark.parametrize("name", ["KIMI-K3.1-PRO", "Kimi-K3.1-Pro", "kimi k3.1 pro"])
def test_status_finds_a_slug_or_alias_in_any_case(demo_db, name):
    result = runner.invoke(app, ["status", name, "--db", str(demo_db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Kimi K3.1 Pro (kimi-k3.1-pro)"


def test_discrepancies_for_an_unknown_subject_lists_the_known_ones(demo_db):
    result = runner.invoke(app, ["discrepancies", "--subject", "nope", "--db", str(demo_db)])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: unknown subject 'nope'; known: kimi-k3.1-pro, kimi-k3, kimi-k2-thinking"
    )


def test_discrepancies_take_an_alias_or_any_case(demo_db):
    by_slug = runner.invoke(
        app, ["discrepancies", "--subject", "kimi-k3.1-pro", "--db", str(demo_db)]
    )
    for name in ("KIMI-K3.1-PRO", "Kimi K3.1 Pro"):
        result = runner.invoke(app, ["discrepancies", "--subject", name, "--db", str(demo_db)])
        assert result.exit_code == 0, result.output
        assert result.stdout == by_slug.stdout
    assert by_slug.stdout.startswith("#2 [open] kimi-k3.1-pro ")


def test_verify_counts_read_in_singular_and_plural(demo_db, monkeypatch):
    from types import SimpleNamespace

    import claims.store.verification

    report = SimpleNamespace(
        statuses={"confirmed": 1}, open_discrepancies=1,
        changed=[{"claim_id": 7, "from": "unverified", "to": "confirmed"}], opened=[3],
        resolved=[], found_settled=[], events_added=1, to_dict=dict,
    )  # fmt: skip
    monkeypatch.setattr(claims.store.verification, "verify_all", lambda session, now=None: report)
    result = runner.invoke(app, ["verify", "--db", str(demo_db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "verified 1 claim (1 confirmed); 1 open discrepancy; 1 verdict changed, "
        "1 discrepancy opened, 0 resolved, 1 event"
    )


def test_subject_page_says_first_verdict_and_one_time_format(demo_db):
    page = (demo_db.parent / "s" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    page = re.sub(r'<span class="nobr">([^<]*)</span>', r"\1", page)  # dates kept whole
    assert "nothing →" not in page
    assert "<br>first verdict: contradicted</li>" in page  # no "(Verdict changed)" after it
    assert "overdue by 25 days as of 2026-11-28 06:00 UTC: promised before 2026-11-04" in page
    shown = re.sub(r'(datetime|href|src)="[^"]*"', "", page)  # machine-readable times stay ISO
    assert not re.search(r"T\d\d:\d\d(:\d\d)?Z", shown)


def test_build_says_what_its_counts_mean(demo_db, tmp_path):
    args = ["build", "--db", str(demo_db), "--out", str(tmp_path / "site")]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.stdout.strip() == (
        f"site built in {tmp_path / 'site'}: 110 files, 110 rendered (0 up to date); "
        "110 written (new or changed), 0 left as they were"
    )
    assert again.stdout.strip() == (
        f"site built in {tmp_path / 'site'}: 110 files, 0 rendered (110 up to date); "
        "0 written (new or changed), 110 left as they were"
    )


def test_a_subject_is_found_by_its_name_or_alias_written_with_hyphens(tmp_path):
    """`tracker status nova-2` finds the subject whose alias is "Nova 2" (case, spaces
    and hyphens do not count), in every command that names a subject; a near miss gets a
    did-you-mean from the names and aliases too."""
    from tracker.curated.edit import apply, plan_track

    data, db = tmp_path / "data", str(tmp_path / "t.db")
    data.mkdir()
    apply(plan_track(data, "Auralis Nova 2", "Auralis", repo="auralis/Nova-2", aliases=["Nova 2"]))
    assert runner.invoke(app, ["load", "--data", str(data), "--db", db]).exit_code == 0
    for name in ("nova-2", "NOVA 2", "auralis nova-2", "Auralis-Nova-2"):
        result = runner.invoke(app, ["status", name, "--db", db])
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines()[0] == "Auralis Nova 2 (auralis-nova-2)"
    listed = runner.invoke(app, ["claims", "list", "nova-2", "--db", db])
    assert listed.exit_code == 0, listed.output
    missed = runner.invoke(app, ["status", "nova-3", "--db", db])
    assert missed.exit_code == 1
    assert "unknown subject 'nova-3' (did you mean 'auralis-nova-2'?)" in missed.stderr


def test_claims_list_and_status_answer_an_unknown_subject_alike(tmp_path):
    """`claims list NAME` words an unknown subject as `status` does (did you mean, the
    known slugs, the hint in --json); the start of one slug ('borealis', which its name
    and aliases begin too) is a near miss for both."""
    import json

    from tracker.curated.edit import apply, plan_track

    data, db = tmp_path / "data", str(tmp_path / "t.db")
    data.mkdir()
    apply(plan_track(data, "Borealis Tern 30B", "Borealis AI", hf_org="borealis-ai"))
    apply(plan_track(data, "Nimbus Cirrus 12B", "Nimbus Labs", hf_org="nimbus"))
    assert runner.invoke(app, ["load", "--data", str(data), "--db", db]).exit_code == 0
    for name, near in (("borealis", " (did you mean 'borealis-tern-30b'?)"), ("nosuch", "")):
        expected = f"unknown subject {name!r}{near}; known: borealis-tern-30b, nimbus-cirrus-12b"
        for command in (["status"], ["claims", "list"]):
            result = runner.invoke(app, [*command, name, "--db", db, "--json"])
            assert result.exit_code == 1
            error = json.loads(result.stdout)["error"]
            assert (error["message"], error["did_you_mean"]) == (
                expected, ["borealis-tern-30b"] if near else []
            )  # fmt: skip


def test_discrepancies_word_a_found_settled_one_as_the_site_does(demo_db):
    """`tracker discrepancies` listed the demo's found-settled discrepancy as
    `[resolved]` while the site and `tracker verify` say "already settled"; --json
    keeps the stored state and says `found_settled`."""
    plain = runner.invoke(app, ["discrepancies", "--db", str(demo_db)])
    assert plain.exit_code == 0, plain.output
    heads = [line.split("]")[0] + "]" for line in plain.stdout.splitlines() if line.startswith("#")]
    assert heads == ["#2 [open]", "#1 [already settled]", "#3 [note]"]
    rows = runner.invoke(app, ["discrepancies", "--db", str(demo_db), "--json"])
    said = {r["id"]: (r["state"], r["found_settled"]) for r in json.loads(rows.stdout)}
    assert said == {1: ("resolved", True), 2: ("open", False), 3: ("note", False)}
    review = runner.invoke(app, ["review", "1", "--dismiss", "x", "--db", str(demo_db)])
    assert review.exit_code == 1
    assert review.stderr.startswith("error: #1 is already settled (settled by observation #")


def test_verify_tells_first_verdicts_from_changed_ones():
    """A fresh database's `tracker verify` said "6 verdicts changed" where no verdict
    had changed: first verdicts (only some of which are events) are counted apart."""
    from tracker.cli.verify import verdict_events_text

    changed = [
        {"claim_id": 1, "from": None, "to": "overdue"},
        {"claim_id": 2, "from": None, "to": "contradicted"},
        {"claim_id": 3, "from": "confirmed", "to": "contradicted"},
    ]
    assert verdict_events_text(changed) == (
        "1 verdict changed, 2 first verdicts that are events (only disputed, contradicted "
        "or overdue ones are)"
    )
    assert verdict_events_text(changed[:1]) == (
        "0 verdicts changed, 1 first verdict that is an event (only disputed, contradicted "
        "or overdue ones are)"
    )
    assert verdict_events_text([]) == "0 verdicts changed"
