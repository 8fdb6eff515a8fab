"""What the scheduler runs: the :class:`Jobs` bundle, and its default wiring to the
pipeline (tracker.cycle.run, claims.store.verification, tracker.website, tracker.alerts.send)."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from tracker.errors import ConfigError


@dataclass(frozen=True)
class Jobs:
    """The callables a scheduler runs; ``run_watch(name)`` must commit its own work."""

    run_watch: Callable[[str], Any]
    rebuild_site: Callable[[], Any] | None = None
    drain_outbox: Callable[[], Any] | None = None


def default_jobs(
    engine: Engine,
    *,
    snapshot_dir: Path | str | None = None,
    site_dir: Path | str = Path("site"),
    data_dir: Path | None = None,
) -> Jobs:
    """Jobs wired to the real pipeline.

    Each job calls a stage of :mod:`tracker.pipeline`. ``run_watch(name)`` checks that watch with the
    bundle's one live client (robots.txt obeyed; per-host caps shared by all jobs), its
    commits fenced by the scheduler's lease (:func:`tracker.schedule.locks.current_fence`); ``drain_outbox`` sends pending alerts through
    ``pipeline.send_alerts`` to the subscriptions of ``data_dir`` (``--data``; default
    ``data/``) and ``TRACKER_APPRISE_URLS``, read at each drain; ``rebuild_site`` runs the verify stage, then rebuilds the
    static site into ``site_dir``.
    """
    from tracker import pipeline
    from tracker.alerts.subscriptions import load_subscriptions
    from tracker.net.fetch import make_client
    from tracker.net.robots import RobotsPolicy
    from tracker.schedule.locks import current_fence
    from tracker.snapshots.store import open_store

    # bodies follow the database (PostgreSQL: its table, shared by every host)
    # (SQLite: the folder given, else snapshots/ beside the database file)
    url = engine.url.render_as_string(hide_password=False)
    store = open_store(url, None if snapshot_dir is None else Path(snapshot_dir))
    # One client for every watch job: its HostThrottle's per-host caps and spacing then
    # hold across jobs the scheduler runs at the same time (the client and httpx transport are thread-safe).
    client = make_client()

    def run_watch(name: str) -> Any:
        robots = RobotsPolicy.for_client(client)  # robots.txt cached for this run only
        return pipeline.check(
            engine, client, store, watch_names=[name], robots=robots, fence=current_fence()
        )

    def rebuild_site() -> Any:
        pipeline.verify(engine)  # a stage of its own, run before every rebuild
        return pipeline.build(engine, Path(site_dir))

    def drain_outbox() -> Any:
        return pipeline.send_alerts(engine, load_subscriptions(data_dir=data_dir))

    return Jobs(run_watch=run_watch, rebuild_site=rebuild_site, drain_outbox=drain_outbox)


def load_jobs(spec: str, engine: Engine, **options: Any) -> Jobs:
    """``module:factory`` -> ``factory(engine, **options)`` returning :class:`Jobs`
    (ConfigError otherwise). Only the ``options`` the factory's signature names are
    passed (e.g. ``site_dir``, ``snapshot_dir`` of :func:`default_jobs`), so a factory
    taking just the engine still works."""
    module_name, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr or "jobs")
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"--jobs {spec!r}: {exc}") from None
    params = inspect.signature(factory).parameters
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    jobs = factory(engine, **{k: v for k, v in options.items() if takes_all or k in params})
    if not isinstance(jobs, Jobs):
        raise ConfigError(
            f"--jobs {spec!r} returned {type(jobs).__name__}, not tracker.schedule.daemon.Jobs"
        )
    return jobs
