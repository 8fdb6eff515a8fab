"""Jobs for `tracker schedule --jobs sched_jobs:slow_jobs` in subprocess tests.

The watch job "fetches" for a moment (no transaction open), then writes 100 observation
rows in one transaction; marker files in $SCHED_TEST_DIR say when it started and ended.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from sqlmodel import Session, select

from claims.store.tables import Observation, Subject
from claims.values.canonical import utcnow
from tracker.schedule.jobs import Jobs

ROWS = 100


def slow_jobs(engine) -> Jobs:
    marks = Path(os.environ["SCHED_TEST_DIR"])

    def run_watch(name: str) -> None:
        (marks / f"started-{name}").touch()
        time.sleep(float(os.environ.get("SCHED_TEST_FETCH_SECONDS", "1.5")))
        now = utcnow()
        with Session(engine) as s:
            subject = s.exec(select(Subject)).one()
            for i in range(ROWS):
                key = f"{name}-{i}"
                s.add(
                    Observation(
                        subject_id=subject.id,
                        attribute="total_params",
                        value_json="{}",
                        value_key=key,
                        first_seen=now,
                        last_seen=now,
                    )
                )
            s.commit()
        (marks / f"done-{name}").touch()

    def rebuild_site() -> None:
        with (marks / "rebuilds").open("a") as f:
            f.write("rebuild\n")

    return Jobs(run_watch=run_watch, rebuild_site=rebuild_site)
