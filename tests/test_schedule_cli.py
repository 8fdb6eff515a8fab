"""`tracker schedule` as a process (SIGTERM/SIGINT, refusal) and `tracker watches`."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import select as io_select
import signal
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from fakeclock import FakeClock
from sqlmodel import Session, select
from typer.testing import CliRunner

from claims.store.engine import make_engine
from claims.store.tables import (
    Observation,
    SchedulerLock,
    ScheduleState,
    Subject,
    SubjectAlias,
    Watch,
)
from tracker.cli.main import app
from tracker.schedule.daemon import Scheduler, ScheduleSettings, SteppedScheduler
from tracker.schedule.locks import Lease

TESTS = Path(__file__).resolve().parent


def tracker_cmd(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "tracker"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-c", "from tracker.cli.main import main; main()", *args]


def seeded_db(path: Path) -> Path:
    engine = make_engine(path)
    with Session(engine) as s:
        subject = Subject(slug="acme-orca-9b", name="Orca 9B")
        s.add(subject)
        s.flush()
        s.add(SubjectAlias(subject_id=subject.id, namespace="name", alias="Orca 9B"))
        s.add(
            Watch(
                name="slow",
                adapter="html_page",
                url="https://example.test/slow",
                params_json=json.dumps(
                    {"selector": "p", "subject": "Orca 9B", "attribute": "context_window"}
                ),
            )
        )
        s.commit()
    engine.dispose()
    return path


@dataclass
class Scheduled:
    """A `tracker schedule` child and the two pipes of its watch job (tests/sched_jobs.py):
    it writes ``started-NAME`` on ``started`` when a fetch begins, and its page answers
    once ``release`` is closed (readiness signals, no polling)."""

    proc: subprocess.Popen[str]
    started: int  # read end
    release: int  # write end

    def wait_started(self, name: str, seconds: float = 60) -> None:
        """Block until the child's fetch of watch ``name`` has begun; fail at once when the
        child exits first (its end of the pipe closes), or after ``seconds``."""
        ready, _, _ = io_select.select([self.started], [], [], seconds)
        if not ready:
            raise AssertionError(f"started-{name} never came")
        line = os.read(self.started, 256)
        if not line:  # end of file: the child is gone
            self.proc.wait(30)
            raise AssertionError(f"exited early: {self.proc.returncode} {self.proc.stderr.read()}")
        assert line.decode().split() == [f"started-{name}"]

    def release_page(self) -> None:
        """Let the page answer (closing the pipe wakes every waiting fetch)."""
        os.close(self.release)
        self.release = -1

    def close(self) -> None:
        os.close(self.started)
        if self.release >= 0:
            os.close(self.release)


def start_schedule(db: Path, marks: Path, *extra: str) -> Scheduled:
    started_r, started_w = os.pipe()
    release_r, release_w = os.pipe()
    env = dict(
        os.environ,
        SCHED_TEST_DIR=str(marks),
        SCHED_STARTED_FD=str(started_w),
        SCHED_RELEASE_FD=str(release_r),
        PYTHONPATH=str(TESTS),
    )
    proc = subprocess.Popen(
        tracker_cmd("schedule", "--db", str(db), "--jobs", "sched_jobs:slow_jobs", *extra),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=(started_w, release_r),
    )
    os.close(started_w)  # the child's ends: its exit then reads as end of file here
    os.close(release_r)
    return Scheduled(proc, started_r, release_w)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_finishes_the_running_job_commits_and_exits_0(tmp_path, sig):
    db = seeded_db(tmp_path / "s.db")
    marks = tmp_path / "marks"
    marks.mkdir()
    child = start_schedule(db, marks, "--jitter", "0", "--heartbeat", "0.2")
    proc = child.proc
    child.wait_started("slow")
    proc.send_signal(sig)  # while the job is "fetching"
    child.release_page()  # now the page answers
    out, err = proc.communicate(timeout=60)
    child.close()
    assert proc.returncode == 0, err
    assert (marks / "done-slow").exists()
    assert f"{sig.name} received: finishing running jobs, then stopping" in err
    assert "scheduler stopped" in err
    # APScheduler's own INFO lines repeated ours ("Adding job tentatively" per watch)
    assert " INFO apscheduler" not in err
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        con.close()
    engine = make_engine(db)
    with Session(engine) as s:
        (obs,) = s.exec(select(Observation)).all()  # the cycle committed its run
        assert (obs.attribute, str(obs.value.value)) == ("context_window", "128000")
        assert s.exec(select(Watch)).one().state == "ok"
        assert s.exec(select(SchedulerLock)).all() == []  # lease released
        state = s.get(ScheduleState, "watch:slow")
        assert state.last_outcome == "ok"
        assert state.next_run_at - state.last_started_at > dt.timedelta(minutes=59)


def test_second_schedule_process_logs_who_runs_and_exits_1(tmp_path):
    db = seeded_db(tmp_path / "s.db")
    engine = make_engine(db)
    holder = Lease(engine, pid=4242, host="web-1")
    holder.acquire()
    since = holder.holder().acquired_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    marks = tmp_path / "marks"
    marks.mkdir()
    child = start_schedule(db, marks)
    proc = child.proc
    out, err = proc.communicate(timeout=60)
    child.close()
    assert proc.returncode == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].endswith(
        f"WARNING tracker.schedule.daemon: a scheduler is already running against {db} "
        f"(pid 4242 on host web-1 since {since}); not starting another"
    )
    assert not (marks / "started-slow").exists()


def test_watches_json_shows_schedule_runs_state_and_errors(tmp_path, monkeypatch):
    db = seeded_db(tmp_path / "w.db")
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(
            Watch(
                name="prices",
                adapter="openrouter_models",
                url="https://example.test/prices",
                params_json='{"cron": "30 */6 * * *"}',
                state="failing",
                consecutive_failures=3,
                last_error="HTTP 503",
            )
        )
        s.commit()
    clock = FakeClock()
    clock.patch_apscheduler(monkeypatch)
    sched = Scheduler(
        engine,
        lambda name: None,
        settings=ScheduleSettings(jitter_seconds=0, executor="debug"),
        clock=clock,
        scheduler_class=SteppedScheduler,
    )
    sched.start()
    sched.run_pending()
    monkeypatch.setattr("tracker.cli.schedule.utcnow", clock)  # the scheduler's clock
    result = CliRunner().invoke(app, ["watches", "--db", str(db), "--json"])
    sched.shutdown()
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert listing["scheduler"]["since"] == "2026-03-02T12:00:00Z"
    assert listing["scheduler"]["live"] is True
    assert listing["scheduler"]["running"] is True
    assert listing["scheduler"]["state"].startswith("running, pid ")
    assert listing["scheduler"]["pid"] == os.getpid()
    assert listing["watches"] == [
        {
            "name": "prices",
            "adapter": "openrouter_models",
            "url": "https://example.test/prices",
            "schedule": "cron 30 */6 * * * UTC",
            "state": "failing",
            "consecutive_failures": 3,
            "last_run": None,
            "last_success": None,
            "next_run": "2026-03-02T12:30:00Z",
            "next_run_kind": "scheduled",
            "missed": None,
            "last_error": "HTTP 503",
            "skipped": None,
        },
        {
            "name": "slow",
            "adapter": "html_page",
            "url": "https://example.test/slow",
            "schedule": "every 1 h",
            "state": "new",
            "consecutive_failures": 0,
            "last_run": "2026-03-02T12:00:00Z",
            "last_success": None,
            "next_run": "2026-03-02T13:00:00Z",
            "next_run_kind": "scheduled",
            "missed": None,
            "last_error": None,
            "skipped": None,
        },
    ]


def test_watches_without_a_scheduler_show_when_each_watch_is_due(tmp_path, monkeypatch):
    """No scheduler running: next run is when the watch is due by its schedule and last
    check (the rule a starting scheduler uses), labelled "due", as ISO 8601 UTC in JSON."""
    now = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    db = tmp_path / "due.db"
    engine = make_engine(db)
    with Session(engine) as s:
        s.add_all(
            [
                # checked 20 min ago, hourly: due in 40 min
                Watch(name="a-hourly", adapter="html_page", url="https://example.test/a",
                      last_run=now - dt.timedelta(minutes=20)),
                # checked 3 h ago, hourly: overdue since 2 h
                Watch(name="b-late", adapter="html_page", url="https://example.test/b",
                      last_run=now - dt.timedelta(hours=3)),
                # cron at :30 past every 6th hour, checked at 06:30: next 12:30
                Watch(name="c-cron", adapter="html_page", url="https://example.test/c",
                      params_json='{"cron": "30 */6 * * *"}',
                      last_run=dt.datetime(2026, 3, 2, 6, 30, tzinfo=dt.UTC)),
                # never checked: due at once
                Watch(name="d-new", adapter="html_page", url="https://example.test/d"),
                # a stopped scheduler saved 12:10; a restart would resume from it
                Watch(name="e-saved", adapter="html_page", url="https://example.test/e",
                      last_run=now - dt.timedelta(minutes=50)),
            ]
        )  # fmt: skip
        s.add(ScheduleState(job_id="watch:e-saved", next_run_at=now + dt.timedelta(minutes=10)))
        s.commit()
    from tracker.schedule.watchlist import list_watches, next_run_text

    listing = list_watches(engine, now=now)
    assert listing["scheduler"] is None
    got = {w["name"]: (w["next_run"], w["next_run_kind"]) for w in listing["watches"]}
    assert got == {
        "a-hourly": ("2026-03-02T12:40:00Z", "due"),
        "b-late": ("2026-03-02T10:00:00Z", "due"),
        "c-cron": ("2026-03-02T12:30:00Z", "due"),
        "d-new": ("2026-03-02T12:00:00Z", "due"),
        "e-saved": ("2026-03-02T12:10:00Z", "due"),
    }
    texts = [next_run_text(w, now) for w in listing["watches"]]
    assert texts == [
        "due 2026-03-02T12:40:00Z",
        "due now (since 2026-03-02T10:00:00Z)",
        "due 2026-03-02T12:30:00Z",
        "due now (since 2026-03-02T12:00:00Z)",
        "due 2026-03-02T12:10:00Z",
    ]
    # The command uses the same clock-free rule; with its clock fixed it prints the same.
    monkeypatch.setattr("tracker.cli.schedule.utcnow", lambda: now)
    result = CliRunner().invoke(app, ["watches", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "scheduler: not running" in result.output
    for text in texts:  # the table shows times as 2026-03-02 12:40 UTC (to the minute)
        assert re.sub(r"T(\d\d:\d\d):00Z", r" \1 UTC", text) in result.output
    assert "T12:40" not in result.output
    result = CliRunner().invoke(app, ["watches", "--db", str(db), "--json"])
    assert json.loads(result.stdout)["watches"][0]["next_run"] == "2026-03-02T12:40:00Z"


def test_watches_piped_keeps_a_long_error_whole_on_its_row(tmp_path):
    db = seeded_db(tmp_path / "long.db")
    error = (
        "https://example.test/api/models?author=someone&sort=createdAt&direction=-1"
        "&limit=100: network error ([Errno -2] Name or service not known)"
    )
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(
            Watch(
                name="listing",
                adapter="huggingface_org",
                url="https://example.test/api/models",
                state="failing",
                last_error=error,
            )
        )
        s.commit()
    engine.dispose()
    result = CliRunner().invoke(app, ["watches", "--db", str(db)])  # stdout is not a tty
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "│ listing " in line)
    assert row.endswith(f"│ {error} │")


def test_watches_shows_a_run_of_failures_beside_the_state(tmp_path):
    """A watch turns failing only after 3 failures in a row; before that a trial read
    'ok' next to a network error as a contradiction: it is 'retrying' (a 'new' watch
    that never succeeded too)."""
    db = seeded_db(tmp_path / "runs.db")
    engine = make_engine(db)
    with Session(engine) as s:
        for name, state, n in (("a-flaky", "ok", 2), ("b-down", "failing", 4), ("c-new", "new", 1)):
            s.add(Watch(name=name, adapter="huggingface_org", url="https://example.test/x",
                        state=state, consecutive_failures=n, last_error="network error"))  # fmt: skip
        s.commit()
    engine.dispose()
    result = CliRunner().invoke(app, ["watches", "--db", str(db)])
    assert result.exit_code == 0, result.output
    rows = {ln.split("│")[1].strip(): ln for ln in result.stdout.splitlines() if "│ " in ln}
    assert "│ retrying (2 failures in a row) │" in rows["a-flaky"]
    assert "│ retrying (1 failure in a row)  │" in rows["c-new"]
    assert "│ failing (4 in a row) " in rows["b-down"]


def test_schedule_options_reach_a_jobs_factory_that_takes_them(tmp_path):
    """--out and --snapshots go to the factory (default_jobs builds the site there; it
    always rebuilt ./site whatever --db said); a factory taking only the engine still works."""
    from tracker.schedule.jobs import Jobs, load_jobs

    got: dict[str, object] = {}

    def factory(engine, *, site_dir, snapshot_dir):  # type: ignore[no-untyped-def]
        got.update(engine=engine, site_dir=site_dir, snapshot_dir=snapshot_dir)
        return Jobs(run_watch=lambda name: None)

    import types

    module = types.ModuleType("rt_test_jobs")
    module.factory = factory  # type: ignore[attr-defined]
    module.plain = lambda engine: Jobs(run_watch=lambda name: None)  # type: ignore[attr-defined]
    sys.modules["rt_test_jobs"] = module
    try:
        load_jobs("rt_test_jobs:factory", "ENGINE", site_dir=tmp_path / "s", snapshot_dir="snaps")
        assert got == {"engine": "ENGINE", "site_dir": tmp_path / "s", "snapshot_dir": "snaps"}
        assert isinstance(load_jobs("rt_test_jobs:plain", "ENGINE", site_dir="x"), Jobs)
    finally:
        del sys.modules["rt_test_jobs"]
    help_text = CliRunner().invoke(app, ["schedule", "--help"], env={"COLUMNS": "200"}).output
    assert "--out" in help_text and "Folder the site is rebuilt into." in help_text


@pytest.mark.parametrize("scheduler_live", [False, True], ids=["no-scheduler", "live-scheduler"])
def test_watches_gives_a_retired_watch_no_next_run(tmp_path, monkeypatch, scheduler_live):
    """A retired watch is never run again: no "due now" (its last check is old) and no
    time a scheduler saved before it was retired; --json has no next run either."""
    now = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    db = tmp_path / "retired.db"
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(Watch(name="gone", adapter="html_page", url="https://example.test/gone",
                    state="retired", last_run=now - dt.timedelta(hours=3)))  # fmt: skip
        s.add(ScheduleState(job_id="watch:gone", next_run_at=now + dt.timedelta(minutes=10)))
        s.commit()
    if scheduler_live:
        Lease(engine, clock=lambda: now).acquire()
    monkeypatch.setattr("tracker.cli.schedule.utcnow", lambda: now)
    result = CliRunner().invoke(app, ["watches", "--db", str(db), "--json"])
    row = json.loads(result.stdout)["watches"][0]
    assert (row["state"], row["next_run"], row["next_run_kind"]) == ("retired", None, None)
    result = CliRunner().invoke(app, ["watches", "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if "gone" in ln)
    cells = [c.strip() for c in line.strip("│ ").split("│")]
    assert cells[4:6] == ["never (retired)", "retired"]
    assert "due" not in line and "scheduled" not in line


def test_watches_json_says_not_running_as_the_text_does(tmp_path):
    """No lease holder: the text's "scheduler: not running" is ``{"running": false,
    "state": "not running", ...}`` in --json (never null), every holder field null."""
    db = tmp_path / "w.db"
    engine = make_engine(db)
    with Session(engine) as s:
        s.add(Watch(name="a", adapter="html_page", url="https://example.test/a"))
        s.commit()
    text = CliRunner().invoke(app, ["watches", "--db", str(db)])
    assert text.output.splitlines()[0] == "scheduler: not running"
    listing = json.loads(CliRunner().invoke(app, ["watches", "--db", str(db), "--json"]).stdout)
    assert listing["scheduler"] == {
        "running": False, "state": "not running", "pid": None, "host": None, "since": None,
        "heartbeat": None, "expires": None, "live": None, "exited": None, "same_machine": None,
    }  # fmt: skip


def test_the_scheduler_says_at_start_where_its_subscriptions_come_from(tmp_path, monkeypatch):
    """The scheduler logged nothing about alerts, and read only data/subscriptions.toml
    (fresh-user trial): `schedule --data DIR` reads DIR's, and says so at start."""
    from tracker.cli.schedule import alerts_source

    monkeypatch.delenv("TRACKER_APPRISE_URLS", raising=False)
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "my-models"
    mine.mkdir()
    (mine / "subscriptions.toml").write_text(
        '[[subscription]]\nname = "me"\nurl = "json://127.0.0.1:9/"\n', encoding="utf-8"
    )
    assert alerts_source(mine) == f"1 subscription from {mine / 'subscriptions.toml'}"
    assert alerts_source(None) == (
        "no subscriptions (no data/subscriptions.toml, TRACKER_APPRISE_URLS unset); "
        "alerts wait in the outbox (give --data DIR)"
    )


def test_watches_on_an_empty_database_says_none_yet_and_the_next_step(tmp_path):
    """It printed an empty table frame (fresh-user trial)."""
    db = tmp_path / "empty.db"
    make_engine(db).dispose()
    result = CliRunner().invoke(app, ["watches", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == [
        f"no watches yet: add one with `tracker track NAME --org ORG --db {db}` or load "
        f"data/watches.toml with `tracker load --db {db}` (or `tracker demo`)"
    ]
