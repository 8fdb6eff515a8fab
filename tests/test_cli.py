"""The CLI as a user runs it: demo end to end, status, check/parse/record on recordings."""

from __future__ import annotations

import json
from pathlib import Path

from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store import tables as models
from claims.store.engine import make_engine
from tracker.cli.main import app
from tracker.cli.watch import run_cycle
from tracker.cycle.offline import record_check
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import SnapshotStore

ROOT = Path(__file__).resolve().parent.parent
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def _demo(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    code, out = _run("demo", "--db", str(db), "--out", str(tmp_path / "site"))
    assert code == 0, out
    return db


def test_demo_end_to_end_and_status(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the demo reads data/ relative to the checkout
    db = _demo(tmp_path)
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    assert (site / "discrepancies.html").is_file()
    for slug in ("kimi-k3.1-pro", "kimi-k3", "kimi-k2-thinking"):
        assert (site / "subjects" / slug / "index.html").is_file()
    disc = (site / "discrepancies.html").read_text()
    assert "Terminal-Bench" in disc and "3.0" in disc and "4.0" in disc
    # Reasons name sources briefly (publisher, else key); full titles stay in the Source
    # column, not in the sentence.
    reason = disc[disc.index('<section id="d1"') :].split("<table")[0]
    assert "by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via " in reason
    assert "via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is" in reason
    assert "pricing and open-weights date" not in reason
    assert "Kimi K3.1 Pro launch: architecture, pricing and open-weights date" in disc
    # "Data as of" is the recorded Hub check, not when the demo ran (events, claims).
    assert (
        'Data as of the latest successful watch check, <time datetime="2026-11-28T06:00:00Z">'
        in (site / "index.html").read_text()
    )

    code, out = _run("status", "kimi-k3.1-pro", "--db", str(db), "--json")
    assert code == 0
    st = json.loads(out)
    assert st["weights"] == "not landed" and st["landed"] is False
    assert sorted((p["relation"], p["date"]) for p in st["promises"]) == [
        ("before", "2026-11-04"),
        ("on", "2026-11-04"),
        ("on", "2026-11-04"),
    ]
    assert st["overdue_days"] == 24
    assert st["as_of"] == "2026-11-28T06:00:00Z"
    assert st["license"] is None

    code, out = _run("status", "kimi-k2-thinking", "--db", str(db), "--json")
    st = json.loads(out)
    assert code == 0 and st["landed"] is True
    assert st["repo"] == "moonshotai/Kimi-K2-Thinking"
    assert st["license"] == "modified-mit"

    # A second demo run stores nothing new.
    with Session(make_engine(db)) as s:
        counts = [
            len(s.exec(select(t)).all()) for t in (models.Claim, models.Observation, models.Event)
        ]
    _demo(tmp_path)
    with Session(make_engine(db)) as s:
        assert [
            len(s.exec(select(t)).all()) for t in (models.Claim, models.Observation, models.Event)
        ] == counts


def test_unknown_subject_is_one_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert _run("load", "--db", str(tmp_path / "x.db"))[0] == 0
    code, out = _run("status", "gpt-9", "--db", str(tmp_path / "x.db"))
    assert code == 1
    assert out.strip().startswith("error: unknown subject 'gpt-9'")
    assert "Traceback" not in out


def _har_without_openrouter(tmp_path: Path) -> Path:
    """The demo recording minus OpenRouter's model list: that watch is not answered."""
    har = json.loads(DEMO_HAR.read_text())
    har["log"]["entries"] = [
        e
        for e in har["log"]["entries"]
        if e["request"]["url"] != "https://openrouter.ai/api/v1/models"
    ]
    partial = tmp_path / "partial.har"
    partial.write_text(json.dumps(har))
    return partial


def test_check_replay_leaves_a_watch_it_does_not_answer_unchecked(tmp_path, monkeypatch):
    """It used to fail that watch with `not_recorded` (a fresh-user trial): the
    recording says nothing about it, so it is named once and left as stored."""
    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "t.db")
    assert _run("load", "--db", db)[0] == 0
    partial = _har_without_openrouter(tmp_path)
    code, out = _run(
        "check",
        "--replay",
        str(partial),
        "--db",
        db,
        "--json",
        "--snapshots",
        str(tmp_path / "snap"),
    )
    assert code == 0, out
    summary = json.loads(out)
    assert summary["not_in_recording"] == ["openrouter-models"]
    assert "openrouter-models" not in [r["name"] for r in summary["results"]]
    assert summary["failing"] == 0 and summary["checked"] == 15
    # Naming it is refused: the recording cannot check it; nothing is stored.
    code, out = _run(
        "check", "--replay", str(partial), "--db", db, "-w", "openrouter-models",
        "--snapshots", str(tmp_path / "snap"),
    )  # fmt: skip
    assert code == 1, out
    assert "no recorded answer for watch openrouter-models (https://openrouter.ai/" in out


def test_check_with_missing_har_file(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert _run("load", "--db", str(tmp_path / "t.db"))[0] == 0
    code, out = _run(
        "check", "--replay", str(tmp_path / "nope.har"), "--db", str(tmp_path / "t.db")
    )
    assert code == 1 and "no such HAR file" in out


def test_reading_commands_never_create_a_database(tmp_path):
    missing = tmp_path / "nodir" / "x.db"
    for args in (
        ["status", "kimi-k3.1-pro"],
        ["verify"],
        ["discrepancies"],
        ["build", "--out", str(tmp_path / "s")],
    ):
        code, out = _run(*args, "--db", str(missing))
        assert code == 1, args
        assert out.strip() == (  # --db was given: no "or pass --db" hint
            f"error: database {missing} does not exist; run `tracker demo` or `tracker load` first"
        )
    assert not missing.parent.exists()


def test_writing_commands_never_create_a_mistyped_databases_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    missing = tmp_path / "nodir" / "x.db"
    said = (
        f"folder {missing.parent} does not exist (database {missing}); check --db or "
        "$TRACKER_DATABASE_URL, or create the folder first"
    )
    for args in (["load", "--data", str(ROOT / "data")], ["demo", "--out", str(tmp_path / "s")]):
        code, out = _run(*args, "--db", str(missing))
        assert (code, out.strip()) == (1, f"error: {said}"), args
    r = runner.invoke(app, ["load", "--data", str(ROOT / "data"), "--db", str(missing), "--json"])
    assert r.exit_code == 1
    assert json.loads(r.stdout) == {
        "error": {"kind": "database", "message": said, "did_you_mean": []}
    }
    assert not missing.parent.exists()


def test_the_default_databases_folder_is_made_on_a_fresh_checkout(tmp_path, monkeypatch):
    monkeypatch.delenv("TRACKER_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)  # no data/ folder here yet
    code, out = _run("load", "--data", str(ROOT / "data"))
    assert code == 0, out
    assert (tmp_path / "data" / "tracker.db").is_file()


def test_a_folder_given_as_the_database_is_named_as_one(tmp_path):
    for args in (["status", "kimi-k3"], ["load", "--data", str(ROOT / "data")]):
        code, out = _run(*args, "--db", str(tmp_path))
        assert (code, out.strip()) == (
            1,
            f"error: database {tmp_path} is a folder, not a database file; give --db a file "
            f"path (e.g. {tmp_path / 'tracker.db'})",
        ), args


def test_database_urls_other_than_sqlite_or_postgresql_are_one_line_errors(tmp_path):
    for url in ("mysql://u@h/db", "foo://bar"):
        for args in (["status", "kimi-k3"], ["watches"], ["check"]):
            code, out = _run(*args, "--db", url)
            assert (code, out.strip()) == (
                1,
                f"error: unsupported database {url}: use a file path, sqlite:///PATH or "
                "postgresql+psycopg://USER@HOST/DB",
            ), args


def test_driver_qualified_sqlite_urls_never_create_a_database(tmp_path):
    missing = tmp_path / "nope.db"
    for args in (["status", "kimi-k3"], ["check"]):
        code, out = _run(*args, "--db", f"sqlite+pysqlite:///{missing}")
        assert (code, out.strip()) == (
            1,
            f"error: database {missing} does not exist; run `tracker demo` or `tracker load` first",
        ), args
    assert not missing.exists()


def test_load_from_a_missing_or_empty_data_folder_fails_and_creates_nothing(tmp_path):
    (tmp_path / "empty").mkdir()
    for folder, why in (("absent", "no such data folder"), ("empty", "data: no subjects.toml")):
        code, out = _run("load", "--data", str(tmp_path / folder), "--db", str(tmp_path / "n.db"))
        assert code == 1 and out.startswith(f"error: {tmp_path / folder}: {why}"), out
    assert not (tmp_path / "n.db").exists()


def test_load_warns_when_watches_toml_is_missing(tmp_path):
    """A deleted or misnamed watches.toml used to "load 0 watches" with no word of it."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "subjects.toml").write_text('[[subject]]\nslug = "x"\nname = "X"\n')
    code, out = _run("load", "--data", str(data), "--db", str(tmp_path / "n.db"))
    assert code == 0
    assert f"warning: {data / 'watches.toml'} not found: none loaded from it" in out
    assert ", 0 watches;" in out


def test_bad_data_creates_no_database(tmp_path):
    bad = tmp_path / "data"
    (bad / "claims").mkdir(parents=True)
    (bad / "subjects.toml").write_text('[[subject]]\nslug = "x"\nname = "X\n')
    code, out = _run("load", "--data", str(bad), "--db", str(tmp_path / "new.db"))
    assert code == 1 and out.startswith(f"error: {bad / 'subjects.toml'}:3: toml: ")
    assert not (tmp_path / "new.db").exists()


def test_parse_reruns_adapter_on_recording():
    code, out = _run(
        "parse",
        "huggingface_org",
        "--har",
        str(DEMO_HAR),
        "--json",
        "--url",
        "https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100",
    )
    assert code == 0, out
    pages = json.loads(out)
    repos = [v["qualifiers"]["repo"] for v in pages[0]["values"]]
    assert "moonshotai/Kimi-K2-Thinking" in repos
    assert not any("K3.1" in r for r in repos)
    assert pages[0]["fetched_at"] == "2026-11-28T06:00:00Z"


def test_record_then_replay_gives_the_same_observations(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    # The "live" server is the demo recording; the recorder wraps it as it would the network.
    db1, db2 = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert _run("load", "--db", db1)[0] == 0 and _run("load", "--db", db2)[0] == 0
    _, out = record_check(
        make_engine(db1),
        tmp_path / "rec.har",
        snapshot_store=SnapshotStore(tmp_path / "s1"),
        inner=HarReplayTransport(DEMO_HAR),
    )
    run_cycle(db2, out, None, tmp_path / "s2", show_progress=False)

    def observed(db: str) -> list[tuple]:
        with Session(make_engine(db)) as s:
            return sorted(
                (o.attribute, o.qualifiers_json, o.value_key)
                for o in s.exec(select(models.Observation))
            )

    first = observed(db1)
    assert len(first) >= 8
    assert first == observed(db2)


def test_parse_without_url_uses_the_adapters_watches(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out = _run("parse", "huggingface_model", "--har", str(DEMO_HAR), "--json")
    assert code == 0, out
    pages = json.loads(out)
    assert [p["url"] for p in pages] == [
        "https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking"
    ]
    values = {v["attribute"]: v["value"]["value"] for v in pages[0]["values"]}
    # The watch's params (its repo files) come along: the packed INT4 count is corrected.
    assert values["total_params"] == 1026880447728
    assert values["license"] == "modified-mit"


def _data_copy(tmp_path: Path) -> Path:
    import shutil

    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    return data


def test_a_corrected_claim_is_replaced_and_its_discrepancy_resolved(tmp_path, monkeypatch):
    """A trial corrected a claim's value in its file: `load` stored the new claim and
    kept the wrong one, verified, with its false discrepancy open. The folder's files
    stored that claim (its origin), so `load` now removes it with its verdict; verify
    then resolves the discrepancy it was in."""
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    assert _run("verify", "--db", db)[0] == 0
    engine = make_engine(db)
    with Session(engine) as s:
        before = {d.key for d in s.exec(select(models.Discrepancy)) if d.state == "open"}
    path = data / "claims" / "report-k31-launch.toml"
    text = path.read_text()
    assert text.count('value = "2.8T"') == 1
    path.write_text(text.replace('value = "2.8T"', 'value = "3.8T"'))
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0
    assert "claims: 0 new, 39 unchanged, 1 changed" in out
    assert "warning" not in out
    changed = next(ln for ln in out.splitlines() if "changed claim #" in ln)
    assert changed.endswith(
        "(report-k31-launch): kimi-k3.1-pro Total parameters 2.8T → 3.8T params"
    )
    assert "run `tracker verify` to update verdicts and discrepancies" in out
    old_id = int(changed.split("#")[1].split()[0])
    assert _run("verify", "--db", db)[0] == 0
    with Session(engine) as s:
        assert s.get(models.Claim, old_id) is None
        assert old_id not in {v.claim_id for v in s.exec(select(models.Verdict))}
        opened = {d.key for d in s.exec(select(models.Discrepancy)) if d.state == "open"}
    path.write_text(text)  # the edit undone: the 3.8T claim goes, 2.8T comes back
    code, out = _run("load", "--data", str(data), "--db", db)
    assert "claims: 0 new, 39 unchanged, 1 changed" in out
    gone = next(ln for ln in out.splitlines() if "changed claim #" in ln)
    assert gone.endswith("Total parameters 3.8T → 2.8T params")
    gone_id = int(gone.split("#")[1].split()[0])
    assert _run("verify", "--db", db)[0] == 0
    with Session(engine) as s:
        assert len(s.exec(select(models.Claim)).all()) == 40
        now_open = {d.key for d in s.exec(select(models.Discrepancy)) if d.state == "open"}
        (settled,) = [d for d in s.exec(select(models.Discrepancy)) if d.key in opened - before]
    assert settled.state == "resolved"
    assert settled.reason.endswith(
        f"; no longer found (claim #{gone_id} corrected or removed in its data file)"
    )
    assert _run("build", "--db", db, "--out", str(tmp_path / "site"))[0] == 0
    page = (tmp_path / "site" / "discrepancies.html").read_text()
    assert f"claim #{gone_id}: no longer stored (corrected or removed in its data file)" in page
    assert len(opened - before) == 1  # 3.8T against the other sources' 2.8T
    assert now_open == before  # corrected back: that discrepancy is resolved
    assert _run("load", "--data", str(data), "--db", db)[1].count("removed") == 0


def test_a_deleted_claims_file_takes_its_claims_and_another_folder_takes_none(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    engine = make_engine(db)
    with Session(engine) as s:
        src = s.exec(select(models.Source).where(models.Source.key == "report-k31-launch")).one()
        theirs = len(s.exec(select(models.Claim).where(models.Claim.source_id == src.id)).all())
    assert theirs > 0
    other = tmp_path / "other"
    (other / "claims").mkdir(parents=True)
    (other / "subjects.toml").write_text((data / "subjects.toml").read_text())
    code, out = _run("load", "--data", str(other), "--db", db)
    assert code == 0 and "removed" not in out  # not this folder's claims: left alone
    (data / "claims" / "report-k31-launch.toml").unlink()
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0, out
    assert f"claims: 0 new, {40 - theirs} unchanged, {theirs} removed" in out
    assert out.count("removed claim #") == theirs


def test_claims_stored_before_origins_are_listed_and_removed_only_with_prune(tmp_path, monkeypatch):
    """A database from before claims recorded their file: a corrected claim cannot be
    told from an imported one, so it is listed (still verified) until `--prune`."""
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    engine = make_engine(db)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE claim SET origin = NULL")
    path = data / "claims" / "report-k31-launch.toml"
    path.write_text(path.read_text().replace('value = "2.8T"', 'value = "3.8T"'))
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0
    assert "claims: 1 new, 39 unchanged" in out and "removed" not in out
    assert "warning: 1 stored claim of these sources not in the data files" in out
    stale = next(ln for ln in out.splitlines() if "stale claim #" in ln)
    assert stale.endswith("(report-k31-launch): kimi-k3.1-pro Total parameters 2.8T params")
    with Session(engine) as s:  # the stated claims were stamped with their file meanwhile
        origins = {c.origin for c in s.exec(select(models.Claim))}
    assert (
        None in origins
        and (data / "claims" / "report-k31-launch.toml").resolve().as_uri() in origins
    )
    code, out = _run("load", "--data", str(data), "--db", db, "--prune")
    assert "claims: 0 new, 40 unchanged, 1 removed" in out
    assert "removed claim #" in out and "warning" not in out


def test_a_failed_watch_is_reported_once_by_check(tmp_path, monkeypatch):
    """In a real process (no pytest log capture), logging's last-resort handler printed
    the cycle's warning on stderr beside the command's own `failed` line."""
    import subprocess
    import sys

    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "t.db")
    assert _run("load", "--db", db)[0] == 0
    har = json.loads(DEMO_HAR.read_text())
    for e in har["log"]["entries"]:  # answered, with an error
        if e["request"]["url"] == "https://openrouter.ai/api/v1/models":
            e["response"]["status"] = 404
    broken = tmp_path / "broken.har"
    broken.write_text(json.dumps(har))
    r = subprocess.run(
        [sys.executable, "-c", "from tracker.cli.main import main; main()", "check", "--replay",
         str(broken), "--db", db, "--snapshots", str(tmp_path / "snap")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 3, r.stderr  # one watch failed
    both = r.stdout + r.stderr
    assert both.count("openrouter-models") == 1
    assert "  failed  openrouter-models: " in r.stdout


def test_a_watch_removed_from_watches_toml_is_listed_then_retired_with_prune(tmp_path):
    """It kept running forever, and no command removed it (fresh-user trial)."""
    import shutil

    from sqlmodel import Session, select

    from claims.store.engine import make_engine
    from claims.store.tables import Watch

    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.db*", "snapshots"))
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    text = (data / "watches.toml").read_text()
    start = text.index('[[watch]]\nname = "litellm-prices"')
    end = text.index("[[watch]]", start + 1)
    (data / "watches.toml").write_text(text[:start] + text[end:])  # one watch deleted
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0
    assert (
        "warning: 1 stored watch no longer in watches.toml and still checked: litellm-prices; "
        "`tracker load --prune` retires them (their history is kept)"
    ) in " ".join(out.split())
    code, out = _run("load", "--data", str(data), "--db", db, "--prune")
    assert code == 0 and "retired 1 watch: litellm-prices" in out
    snaps = str(tmp_path / "s")
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db, "--snapshots", snaps)
    assert code == 0 and "checked 15 watches" in out and "litellm-prices" not in out
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db, "-w", "litellm-prices")
    assert (code, " ".join(out.split())) == (
        1,
        "error: watch litellm-prices is retired (watches.toml no longer defines it); define "
        "it again and run `tracker load` to check it",
    )
    (data / "watches.toml").write_text(text)  # defined again: checked again
    assert _run("load", "--data", str(data), "--db", db, "--prune")[0] == 0
    with Session(make_engine(db)) as s:
        w = s.exec(select(Watch).where(Watch.name == "litellm-prices")).one()
        assert (w.state, w.consecutive_failures) == ("new", 0)
    (data / "watches.toml").unlink()  # a missing file is a mistake, not "retire them all"
    code, out = _run("load", "--data", str(data), "--db", db, "--prune")
    assert code == 0 and "retired" not in out and "not found: none loaded from it" in out


def test_an_edited_raw_text_or_note_updates_the_stored_claim(tmp_path, monkeypatch):
    """`raw`, `locator`, `stated_date` and `note` are not part of a claim's content key:
    editing them used to be ignored (the claim was "unchanged"); now they follow the file."""
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    path = data / "claims" / "report-k31-launch.toml"
    text = path.read_text()
    assert text.count('raw = "2,8 trilhões (2.8T)"') == 1
    path.write_text(text.replace('raw = "2,8 trilhões (2.8T)"', 'raw = "2,8 tri"'))
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0 and "claims: 0 new, 39 unchanged, 1 updated" in out
    with Session(make_engine(db)) as s:
        raws = {c.raw_text for c in s.exec(select(models.Claim))}
    assert "2,8 tri" in raws and "2,8 trilhões (2.8T)" not in raws
    assert "updated" not in _run("load", "--data", str(data), "--db", db)[1]


def test_a_variants_promise_is_labelled_and_an_unwatched_subject_says_so(tmp_path, monkeypatch):
    """A trial: "Nimbus 4 Mini's weights by the end of December" showed as the whole
    model's promise; and `status` of a subject no watch covers said "no Hub check has run
    yet: run tracker check" after a check had run."""
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    with (data / "claims" / "report-k31-launch.toml").open("a") as fh:
        fh.write(
            '\n[[claim]]\nsubject = "kimi-k3.1-pro"\nattribute = "weights_release_date"\n'
            'value = "by 2026-12-31"\nqualifiers = { variant = "Highspeed" }\n'
            'claimant = "Moonshot AI"\n'
        )
    with (data / "subjects.toml").open("a") as fh:
        fh.write('\n[[subject]]\nslug = "nimbus-4"\nname = "Nimbus 4"\nhub_org = "nimbuslabs"\n')
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    code, out = _run("status", "kimi-k3.1-pro", "--db", db)
    assert code == 0
    assert "  promised: by 2026-12-31 [variant: Highspeed] — “Kimi K3.1 Pro launch" in out
    status = json.loads(_run("status", "kimi-k3.1-pro", "--db", db, "--json")[1])
    assert [p["qualifiers"] for p in status["promises"]].count({"variant": "Highspeed"}) == 1
    assert status["watched"] is True
    code, out = _run("status", "nimbus-4", "--db", db)
    assert "  weights: unknown (nothing checks)" in out  # not "not landed": nobody looks
    assert json.loads(_run("status", "nimbus-4", "--db", db, "--json")[1])["weights"] == "unknown"
    assert "no watch looks at its Hub org (nimbuslabs) or repos" in out
    assert "run `tracker check`" not in out
    assert _run("build", "--db", db, "--out", str(tmp_path / "site"))[0] == 0
    page = (tmp_path / "site" / "subjects" / "kimi-k3.1-pro" / "index.html").read_text()
    assert '<span class="nowrap">by 2026-12-31 [variant: Highspeed]</span>' in page
    nimbus = (tmp_path / "site" / "subjects" / "nimbus-4" / "index.html").read_text()
    assert "no watch looks at its Hub org or repos" in nimbus
    index = (tmp_path / "site" / "index.html").read_text()
    assert "no watch looks" in index


def test_load_names_a_changed_value_and_an_updated_raw_claim(tmp_path, monkeypatch):
    """A trial: a changed `value` read "1 new" plus "removed claim #2 ... 32B params"
    (the new value unsaid), and a changed `raw` only "1 updated" (which claim?)."""
    monkeypatch.chdir(tmp_path)
    data = _data_copy(tmp_path)
    db = str(tmp_path / "t.db")
    assert _run("load", "--data", str(data), "--db", db)[0] == 0
    with Session(make_engine(db)) as s:
        (old,) = [c for c in s.exec(select(models.Claim)) if c.raw_text == "32B"]
    path = data / "claims" / "kimi-k2-thinking-card.toml"
    text = path.read_text()
    path.write_text(text.replace('value = "32B"\nraw = "32B"', 'value = "33B"\nraw = "32B"'))
    code, out = _run("load", "--data", str(data), "--db", db)
    assert code == 0
    assert out.splitlines()[:2] == [
        "loaded 3 subjects, 4 sources, 16 watches; claims: 0 new, 39 unchanged, 1 changed",
        f"  changed claim #{old.id} → #41 (kimi-k2-thinking-card): kimi-k2-thinking "
        "Active parameters 32B → 33B params",
    ]
    report = json.loads(_run("load", "--data", str(data), "--db", db, "--json")[1])
    assert report["claims_changed"] == []  # a second load changes nothing
    path.write_text(text.replace('value = "32B"\nraw = "32B"', 'value = "32B"\nraw = "32 B"'))
    code, out = _run("load", "--data", str(data), "--db", db, "--json")
    report = json.loads(out)
    assert (report["claims_added"], report["claims_removed"]) == (1, 1)
    assert report["claims_changed"] == [
        {
            "old_id": 41,
            "new_id": 42,
            "source": "kimi-k2-thinking-card",
            "subject": "kimi-k2-thinking",
            "attribute": "active_params",
            "qualifiers": {},
            "old_value": "33B params",
            "new_value": "32B params",
        }
    ]
    path.write_text(text.replace('raw = "32B"', 'raw = "32 billion"'))
    code, out = _run("load", "--data", str(data), "--db", db)
    assert out.splitlines()[:2] == [
        "loaded 3 subjects, 4 sources, 16 watches; claims: 0 new, 39 unchanged, 1 updated",
        "  updated claim #42 (kimi-k2-thinking-card): kimi-k2-thinking Active parameters "
        "32B params: raw changed",
    ]
    path.write_text(text)
    report = json.loads(_run("load", "--data", str(data), "--db", db, "--json")[1])
    assert (report["claims_updated"], report["claims_edited"]) == (
        1,
        [
            {
                "id": 42,
                "source": "kimi-k2-thinking-card",
                "subject": "kimi-k2-thinking",
                "attribute": "active_params",
                "qualifiers": {},
                "value": "32B params",
                "fields": ["raw"],
            }
        ],
    )


def test_check_that_stored_events_names_alerts_send_with_the_same_db(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no data/subscriptions.toml here
    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    db = str(tmp_path / "my db.db")
    assert _run("load", "--data", str(ROOT / "data"), "--db", db)[0] == 0
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db)
    assert code == 0, out
    assert out.splitlines()[-1] == (
        f"next: `tracker alerts send --db '{db}'` delivers them (add --data DIR: the folder "
        "whose subscriptions.toml says where they go)"
    )
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db)  # nothing new
    assert code == 0 and ", 0 events" in out and "next:" not in out
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "subscriptions.toml").write_text("")
    db2 = str(tmp_path / "t2.db")
    assert _run("load", "--data", str(ROOT / "data"), "--db", db2)[0] == 0
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db2)
    assert out.splitlines()[-1] == f"next: `tracker alerts send --db {db2}` delivers them"
    db3 = str(tmp_path / "t3.db")
    assert _run("load", "--data", str(ROOT / "data"), "--db", db3)[0] == 0
    code, out = _run("check", "--replay", str(DEMO_HAR), "--db", db3, "--json")
    assert code == 0 and json.loads(out)["events"] > 0 and "alerts send" not in out
