"""The stages of the main job, named once: load, check, verify, build, send alerts.

``tracker demo``, the scheduler's jobs and the CLI commands call these, so a stage runs
the same way wherever it is started. Verification is a stage of its own: the scheduler
runs it before each site rebuild, never hidden inside the build. Each function is a
thin call into its stage's package; heavy imports happen on first use, so a process
that only checks watches never loads the site's or the ORM's modules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from claims.store.rawdb import RawDB
    from tracker.curated.load import LoadReport
    from tracker.cycle.types import CycleSummary
    from tracker.snapshots.store import BodyStore


def load(engine: Engine, data_dir: Path) -> LoadReport:
    """Validate ``data_dir`` (subjects, watches, claims) and store it in one transaction;
    see :func:`tracker.curated.load.load_curated` (raises DataFileError listing every problem)."""
    from tracker.curated.load import load_curated

    return load_curated(engine, data_dir)


def check(
    engine: Engine,
    client: Any,
    store: BodyStore,
    *,
    watch_names: Iterable[str] | None = None,
    robots: Any = None,
    now: dt.datetime | None = None,
    fence: Any = None,
) -> CycleSummary:
    """One cycle over the watches (all, or ``watch_names``) through ``client``'s transport:
    fetch, store snapshots, record observations and events (:func:`tracker.cycle.run.run_check`;
    ``fence``: a scheduler's lease check before each commit)."""
    from tracker.cycle.run import run_check

    kwargs: dict[str, Any] = {"snapshot_store": store, "now": now, "fence": fence}
    if watch_names is not None:
        kwargs["watch_names"] = list(watch_names)
    if robots is not None:
        kwargs["robots"] = robots
    return run_check(engine, client, **kwargs)


def verify(engine: Engine, *, now: dt.datetime | None = None) -> Any:
    """Verdicts for every claim, discrepancies and their events, as of ``now`` (default:
    the newest evidence, the latest successful check of any watch, else the clock);
    idempotent (:func:`claims.store.verification.verify_all`)."""
    from sqlmodel import Session

    from claims.store.verification import verify_all

    with Session(engine) as session:
        return verify_all(session, now=now)


def build(
    engine: Engine | RawDB,
    out_dir: Path,
    *,
    now: dt.datetime | None = None,
    base_url: str | None = None,
    cache_dir: Path | None = None,
) -> Any:
    """Render the static site into ``out_dir`` incrementally (:func:`tracker.website.build_site`;
    ``engine``: a SQLAlchemy engine or a RawDB; ``cache_dir``: its build cache, None for none)."""
    from tracker.website import build_site

    return build_site(engine, out_dir, now=now, base_url=base_url, cache_dir=cache_dir)


def send_alerts(engine: Engine, subscriptions: list[Any], *, base_url: str | None = None) -> Any:
    """Drain the event outbox to ``subscriptions`` (:func:`tracker.alerts.send.drain`)."""
    from tracker.alerts.send import drain

    return drain(engine, subscriptions, base_url=base_url)
