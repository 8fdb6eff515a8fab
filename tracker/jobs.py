"""What the scheduler runs: the :class:`Jobs` bundle, and its default wiring to the
pipeline (tracker.cycle, tracker.site, tracker.notify), imported lazily."""

from __future__ import annotations

import importlib
import importlib.util
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


def default_jobs(engine: Engine, *, snapshot_dir: Path | str = Path("data") / "snapshots") -> Jobs:
    """Jobs wired to the real pipeline, imported lazily so this module works without it.

    ``run_watch(name)`` calls ``tracker.cycle.run_check(engine, client, snapshot_store=...,
    watch_names=[name])`` with a client from ``tracker.fetch.make_client()``; the site and
    outbox jobs are used when ``tracker.site.build_site`` / ``tracker.notify.drain_outbox``
    exist. Raises ConfigError at once when ``tracker.cycle`` is missing.
    """

    if importlib.util.find_spec("tracker.cycle") is None:
        raise ConfigError(
            "this build has no watch cycle (tracker.cycle); pass --jobs MODULE:FACTORY"
        )

    def run_watch(name: str) -> Any:
        try:
            from tracker.cycle import run_check  # type: ignore[import-not-found]
            from tracker.fetch import make_client  # type: ignore[import-not-found]
        except ImportError as exc:
            raise ConfigError(f"watch runs need tracker.cycle and tracker.fetch: {exc}") from None
        store = _snapshot_store(snapshot_dir)
        client = make_client()
        try:
            return run_check(engine, client, snapshot_store=store, watch_names=[name])
        finally:
            close = getattr(client, "close", None)
            if callable(close):
                close()

    rebuild = _optional("tracker.site", "build_site")
    drain = _optional("tracker.notify", "drain_outbox")
    return Jobs(
        run_watch=run_watch,
        rebuild_site=(lambda: rebuild(engine)) if rebuild else None,
        drain_outbox=(lambda: drain(engine)) if drain else None,
    )


def _snapshot_store(snapshot_dir: Path | str) -> Any:
    store_cls = _optional("tracker.snapshots", "SnapshotStore")
    return store_cls(Path(snapshot_dir)) if store_cls else Path(snapshot_dir)


def _optional(module: str, attr: str) -> Any:
    if importlib.util.find_spec(module) is None:
        return None
    return getattr(importlib.import_module(module), attr, None)


def load_jobs(spec: str, engine: Engine) -> Jobs:
    """``module:factory`` -> ``factory(engine)`` returning :class:`Jobs` (ConfigError otherwise)."""
    module_name, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr or "jobs")
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"--jobs {spec!r}: {exc}") from None
    jobs = factory(engine)
    if not isinstance(jobs, Jobs):
        raise ConfigError(
            f"--jobs {spec!r} returned {type(jobs).__name__}, not tracker.schedule.Jobs"
        )
    return jobs
