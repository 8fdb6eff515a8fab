"""The main job end to end, offline: load data/, replay the recorded responses, verify
every claim, build the site, and summarize on one screen."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from claims.events import reader_kind
from claims.store import tables as models
from claims.store.curated import LoadReport
from claims.store.status import WeightsStatus, weights_status
from claims.values.timefmt import iso_z
from tracker import pipeline, settings
from tracker.cycle.replayorder import covered_watches, later_checks
from tracker.cycle.types import CycleSummary
from tracker.errors import ConfigError
from tracker.net.fetch import make_client
from tracker.net.har import HarReplayTransport
from tracker.snapshots.store import open_store
from tracker.website.eventtext import event_detail

DEMO_HAR = Path("data") / "recordings" / "demo.har"


@dataclass
class DemoReport:
    """What the demo did: load counts, cycle totals, verdict counts, site path.

    ``as_of`` is the time the demo ran at (the recording's latest response, aware UTC);
    ``events`` counts the events this run stored, by the kind people read
    (:func:`claims.events.reader_kind`: a discrepancy found already settled counts as
    ``discrepancy_found_settled``, not resolved; the cycle's and verification's alike),
    so a second run counts none.
    """

    loaded: LoadReport
    cycle: CycleSummary
    as_of: dt.datetime | None = None
    verdicts: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    open_discrepancies: list[dict[str, Any]] = field(default_factory=list)
    subjects: list[WeightsStatus] = field(default_factory=list)
    site_index: Path | None = None
    pages_written: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "loaded": self.loaded.__dict__,
            "cycle": {k: v for k, v in self.cycle.to_dict().items() if k != "results"},
            "as_of": iso_z(self.as_of) or None,
            "verdicts": dict(self.verdicts),
            "events": dict(sorted(self.events.items())),
            "open_discrepancies": self.open_discrepancies,
            "subjects": [s.to_dict() for s in self.subjects],
            "site_index": str(self.site_index) if self.site_index else None,
            "pages_written": self.pages_written,
        }


def recording_watches(engine: Engine, transport: HarReplayTransport) -> list[str]:
    """Names of the database's active watches whose URL the recording answers: the ones
    the demo replays (:func:`tracker.cycle.replayorder.covered_watches`). A watch of your
    own (``tracker track``, checked live or from your own HAR) is not among them, and the
    demo leaves it as it is."""
    W = models.Watch  # noqa: N806
    with Session(engine) as session:
        rows = session.exec(select(W.name, W.url, W.state).order_by(W.name)).all()
    return covered_watches(rows, transport.urls())


def refuse_live_database(
    engine: Engine, recorded_at: dt.datetime, replayed: Sequence[str] | None = None
) -> None:
    """Raise TrackerError when a watch the demo replays (``replayed``: its names; None:
    every watch) was checked successfully after ``recorded_at`` (its ``last_success``):
    replaying the older recording would set what it observed back (nothing stored may be
    lost). The message says which watches, when they were last checked, and what to do.
    Checks that observed nothing (failed, e.g. an offline `tracker check`, or skipped)
    are no reason: :func:`kept_failures` keeps their health through the replay. Watches
    the recording does not answer (your own, checked live or from your own HAR) are no
    reason either: the demo does not check them."""
    from claims.values.canonical import as_utc
    from claims.values.timefmt import utc_minute
    from tracker.errors import TrackerError

    W = models.Watch  # noqa: N806
    with Session(engine) as session:
        rows = session.exec(
            select(W.name, W.last_success).where(W.last_success.is_not(None))  # type: ignore[union-attr]
        ).all()
    later = later_checks(rows, recorded_at, replayed)  # the rule `check --replay` applies too
    if not later:
        return
    where = engine.url.database or engine.url.render_as_string(hide_password=True)
    names = ", ".join(n for _t, n in later[:3]) + (
        f" and {len(later) - 3} more" if len(later) > 3 else ""
    )
    raise TrackerError(
        f"{where} holds checks later than the recording ({utc_minute(later[-1][0])}, "
        f"recorded {utc_minute(as_utc(recorded_at))}) of {len(later)} of the recording's "
        f"watches ({names}): a live check or a replay of your own ran them since, and the "
        "demo would reset their watches' history; run it on its own database (`tracker demo "
        "--db data/demo.db`, which builds its site in data/site-demo/ and leaves site/ as it is) "
        "or start over with `make clean`"
    )


# The health a failed check leaves on a watch (tracker/cycle/observe.py's _FAILED).
_HEALTH = ("state", "consecutive_failures", "last_run", "last_error", "last_error_kind",
           "failing_since")  # fmt: skip


@contextmanager
def kept_failures(
    engine: Engine, recorded_at: dt.datetime, replayed: Sequence[str]
) -> Iterator[list[str]]:
    """Around the demo's replay: the watches of ``replayed`` whose last check ran after
    ``recorded_at`` and failed (nothing observed since the recording: an offline
    `tracker check`) keep that failure. Before the block their health reads as it was
    before those failures (so the replay's success is no ``watch_recovered``); after it
    (also when it raises), the failure's health is put back: it came after the
    recording's success. Yields their names."""
    from claims.values.canonical import as_utc

    W = models.Watch  # noqa: N806
    with Session(engine) as session:
        rows = session.exec(select(W).where(col(W.name).in_(list(replayed)))).all()
        failed = [
            w for w in rows
            if w.last_run is not None and as_utc(w.last_run) > as_utc(recorded_at)
            and (w.last_success is None or as_utc(w.last_success) <= as_utc(recorded_at))
        ]  # fmt: skip
        saved = {w.name: {k: getattr(w, k) for k in _HEALTH} for w in failed}
        for w in failed:
            w.state = "ok" if w.last_success else "new"
            w.consecutive_failures, w.failing_since = 0, None
            w.last_error = w.last_error_kind = None
            w.last_run = w.last_success
            session.add(w)
        session.commit()
    try:
        yield sorted(saved)
    finally:
        with Session(engine) as session:
            for w in session.exec(select(W).where(col(W.name).in_(list(saved)))).all():
                for key, value in saved[w.name].items():
                    setattr(w, key, value)
                session.add(w)
            session.commit()


def run_demo(
    engine: Engine,
    *,
    data_dir: Path = Path("data"),
    har: Path = DEMO_HAR,
    out_dir: Path = Path("site"),
    snapshot_dir: Path | None = None,
    now: dt.datetime | None = None,
) -> DemoReport:
    """Load, check (replaying ``har``), verify, build. Idempotent: a second run adds no
    claims, observations or events. Raises TrackerError / DataFileError on bad input,
    and TrackerError before writing anything when the database holds live checks
    (:func:`refuse_live_database`) or, without ``now``, the recording holds no response
    (ConfigError: no time its data is as of).

    The check and verification run at ``now``, by default the time of the recording's
    latest response: the replayed data is as of then, so events, verdicts and "Data as
    of" on the site share one timeline instead of events looking newer than their data.
    """
    transport = HarReplayTransport(har)
    now = now or transport.latest_recorded_at()
    if now is None:
        raise ConfigError(
            f"{har}: the recording holds no responses, so it has no time to replay as of"
        )
    replayed = recording_watches(engine, transport)
    refuse_live_database(engine, now, replayed)
    with Session(engine) as session:
        last_event = session.exec(select(func.max(models.Event.id))).one() or 0
    loaded = pipeline.load(engine, data_dir)
    replayed = recording_watches(engine, transport)  # of the data just loaded
    with make_client(transport=transport) as client, settings.replayed_secrets():
        url = engine.url.render_as_string(hide_password=False)
        with open_store(url, snapshot_dir) as store, kept_failures(engine, now, replayed):
            # only the watches the recording answers: yours are left as they are
            cycle = pipeline.check(engine, client, store, now=now, watch_names=replayed)
    pipeline.verify(engine, now=now)
    built = pipeline.build(engine, out_dir, now=now)
    report = DemoReport(
        loaded=loaded, cycle=cycle, as_of=now, site_index=(out_dir / "index.html").resolve()
    )
    report.pages_written = getattr(built, "pages_written", 0)
    with Session(engine) as session:
        new_events = select(models.Event).where(col(models.Event.id) > last_event)
        # by the kind people read (a discrepancy found settled is not "resolved")
        report.events.update(reader_kind(e.kind, event_detail(e)) for e in session.exec(new_events))
        for verdict in session.exec(select(models.Verdict)):
            report.verdicts[verdict.status] += 1
        for d in session.exec(select(models.Discrepancy).where(models.Discrepancy.state == "open")):
            subject = session.get(models.Subject, d.subject_id)
            report.open_discrepancies.append(
                {
                    "subject": subject.slug if subject else None,
                    "attribute": d.attribute,
                    "rule": d.rule,
                    "reason": d.reason,
                }
            )
        for subject in session.exec(select(models.Subject).order_by(models.Subject.slug)):
            report.subjects.append(weights_status(session, subject))
    return report
