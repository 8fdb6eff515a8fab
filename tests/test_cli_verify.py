"""tracker verify / discrepancies / review (tracker/cli/verify.py) on a demo-like database."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import typer
from helpers_verify import build_demo_db
from typer.testing import CliRunner

from tracker.cli import verify as cli_verify


@pytest.fixture
def cli(engine):
    build_demo_db(engine)
    app = typer.Typer()
    cli_verify.register(app)
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, [*args, "--db", str(engine.url.database)])

    return run


def test_verify_text_then_json_rerun(cli):
    r = cli("verify", "--now", "2026-11-29T12:00Z")
    assert r.exit_code == 0, r.output
    assert r.output.strip() == (
        "verified 12 claims (1 confirmed, 1 contradicted, 2 disputed, 3 overdue, 1 pending, "
        "4 unverified); 3 open discrepancies; 0 verdicts changed, 6 first verdicts that are "
        "events (only disputed, contradicted or overdue ones are), 3 discrepancies opened, "
        "0 resolved, 9 events"
    )
    r = cli("verify", "--json", "--now", "2026-11-29T12:00Z")
    data = json.loads(r.output)
    assert (data["changed"], data["events_added"], data["open_discrepancies"]) == ([], 0, 3)


def test_discrepancies_and_review(cli):
    cli("verify", "--now", "2026-11-29T12:00Z")
    r = cli("discrepancies", "--subject", "kimi-k3.1-pro")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == (
        "#1 [open] kimi-k3.1-pro Benchmark score: the same score reported for two versions of a benchmark"
    )
    assert (
        "    claim #4 kimi-k3.1-pro: 65.7% [benchmark: Terminal-Bench, version: 4.0] — "
        "Moonshot AI via “Article A”" in lines
    )
    data = json.loads(cli("discrepancies", "--json", "--state", "open").output)
    assert [d["rule"] for d in data] == [
        "same_value_different_version",
        "date_relation_mismatch",
        "contradicted_by_observation",
    ]
    r = cli("review", "1", "--dismiss", "version 4.0 confirmed by the vendor post")
    assert r.output.strip() == (
        "dismissed discrepancy #1 (the same score reported for two versions of a benchmark): "
        "version 4.0 confirmed by the vendor post"
    )
    cli("verify", "--now", "2026-11-29T13:00Z")
    data = json.loads(cli("discrepancies", "--json", "--subject", "kimi-k3.1-pro").output)
    assert [(d["id"], d["state"]) for d in data] == [
        (2, "open"),
        (1, "dismissed"),
        (3, "note"),
    ]


def test_a_note_says_not_a_conflict_once(cli):
    """A trial: a note said "not a conflict" in its title, its reason and its automatic
    note ("not comparable"); `--json` said state dismissed though it is listed as a note."""
    cli("verify", "--now", "2026-11-29T12:00Z")
    r = cli("discrepancies", "--state", "note")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:2] == [
        "#3 [note] kimi-k3 and kimi-k3.1-pro Total parameters: figures about two different subjects "
        "(a note, not a conflict)",
        "    different subjects (kimi-k3.1-pro vs kimi-k3): never compared; the intervals "
        "overlap anyway (2.8T params (2.75T–2.85T params) vs about 3T params (2T–4T params))",
    ]
    assert r.output.count("not a conflict") == 1 and "not comparable" not in r.output
    data = json.loads(cli("discrepancies", "--state", "note", "--json").output)
    assert [(d["id"], d["state"], d["subjects"]) for d in data] == [
        (3, "note", ["kimi-k3", "kimi-k3.1-pro"])
    ]


def test_errors_are_one_line_and_exit_1(cli):
    r = cli("review", "99", "--dismiss", "x")
    assert (r.exit_code, r.output.strip()) == (
        1,
        "error: no discrepancy with id 99: there are none yet (`tracker verify` finds them)",
    )
    r = cli("discrepancies", "--subject", "nope")
    assert (r.exit_code, r.output.strip()) == (
        1,
        "error: unknown subject 'nope'; known: kimi-k3.1-pro, kimi-k3, kimi-k2-thinking",
    )


def test_a_bad_now_is_a_usage_error_naming_the_option(engine):
    from tracker.cli.main import app

    build_demo_db(engine)
    r = CliRunner().invoke(
        app, ["verify", "--now", "yesterday", "--db", str(engine.url.database)], prog_name="tracker"
    )
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (
        "error: invalid value for '--now': 'yesterday' is not an ISO date-time "
        "(e.g. 2026-11-29T12:00Z); see `tracker verify --help`\n"
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("abc", "'abc' is not a discrepancy id (a number such as 3, from `tracker discrepancies`)"),
        ("1.5", "'1.5' is not a discrepancy id (a number such as 3, from `tracker discrepancies`)"),
    ],
)
def test_review_with_a_bad_id_is_one_line_and_exit_2(engine, given, said):
    from tracker.cli.main import app

    build_demo_db(engine)
    r = CliRunner().invoke(
        app,
        ["review", given, "--dismiss", "x", "--db", str(engine.url.database)],
        prog_name="tracker",
    )
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (f"error: invalid value for 'ID': {said}; see `tracker review --help`\n")


def test_review_takes_an_id_as_discrepancies_prints_it(cli):
    cli("verify", "--now", "2026-11-29T12:00Z")
    r = cli("review", "#1", "--dismiss", "checked")
    assert (r.exit_code, r.output) == (
        0,
        "dismissed discrepancy #1 (the same score reported for two versions of a benchmark): "
        "checked\n",
    )


def test_review_json_gives_the_dismissed_row(cli):
    cli("verify", "--now", "2026-11-29T12:00Z")
    r = cli("review", "2", "--dismiss", "dates checked", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {
        "id": 2,
        "rule": "date_relation_mismatch",
        "state": "dismissed",
        "note": "dates checked",
    }


def test_discrepancy_lines_wrap_between_words_on_a_terminal(monkeypatch, capsys):
    """Lines of 200+ characters were cut by the terminal wherever its edge fell."""
    import os
    import shutil
    import sys

    from tracker.cli.common import echo_wrapped as _echo_wrapped

    line = "    claim #15 kimi-k3.1-pro: 65.7% [benchmark: Terminal-Bench, version: 4.0] — " + (
        "Moonshot AI via Máquina Web"
    )
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((60, 24)))
    _echo_wrapped(line)
    assert capsys.readouterr().out.splitlines() == [  # no word (nor "Terminal-Bench") cut
        "    claim #15 kimi-k3.1-pro: 65.7% [benchmark:",
        "      Terminal-Bench, version: 4.0] — Moonshot AI via",
        "      Máquina Web",
    ]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    _echo_wrapped(line)
    assert capsys.readouterr().out == line + "\n"  # piped: one line per item


def test_review_refuses_a_resolved_discrepancy(demo_build, tmp_path):
    """The demo's #1 was settled by an observation (found so: never open, "already
    settled" as the site says): dismissing it is refused in one line (as for a note), and
    it stays resolved."""
    import shutil

    from sqlmodel import Session

    from claims.store.engine import make_engine
    from claims.store.tables import Discrepancy
    from tracker.cli.main import app

    db = tmp_path / "t.db"
    for part in ("t.db", "t.db-wal"):  # the shared demo's rows may still be in its WAL
        if (demo_build / part).exists():
            shutil.copy(demo_build / part, tmp_path / part)
    r = CliRunner().invoke(app, ["review", "1", "--dismiss", "fine", "--db", str(db)])
    assert (r.exit_code, r.output) == (
        1,
        "error: #1 is already settled (settled by observation #82: claim #15 contradicted (65.7% is "
        "observed for Terminal-Bench 3.0 (observation #82), not for version 4.0), claim #37 "
        "confirmed): nothing to dismiss\n",
    )
    with Session(make_engine(db)) as s:
        row = s.get(Discrepancy, 1)
    assert (row.state, row.note) == ("resolved", None)


def test_review_of_an_unknown_id_names_the_ids_there_are(cli):
    """`tracker review 999` said only "no discrepancy with id 999" (a fresh-user trial):
    it names the ids (the nearest when there are many) and how to list them."""
    assert cli("verify", "--now", "2026-11-29T12:00Z").exit_code == 0
    r = cli("review", "999", "--dismiss", "x")
    assert (r.exit_code, r.output.strip()) == (
        1,
        "error: no discrepancy with id 999 (there are #1, #2, #3, #4; `tracker discrepancies` "
        "lists them with their sides)",
    )


def test_an_unknown_id_among_many_names_the_nearest(engine):
    from sqlmodel import Session

    from claims.store.review import unknown_id_text
    from claims.store.tables import Discrepancy, Subject

    with Session(engine) as s:
        subject = Subject(slug="x", name="X")
        s.add(subject)
        s.flush()
        for i in range(1, 21):
            s.add(Discrepancy(id=i, key=f"k{i}", subject_id=subject.id, attribute="total_params",
                              rule="r", state="open", reason="r", opened_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC)))  # fmt: skip
        s.commit()
        assert unknown_id_text(s, 25, shown=3) == (
            "no discrepancy with id 25 (the nearest of 20: #18, #19, #20; `tracker "
            "discrepancies` lists them with their sides)"
        )
        assert unknown_id_text(s, 0, shown=2).startswith(
            "no discrepancy with id 0 (the nearest of 20: #1, #2;"
        )
