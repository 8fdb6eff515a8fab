"""Scheduler daemon: Watch rows -> APScheduler 3.x jobs, at most one scheduler per database.

Input: an engine and injected job callables (per-watch run, site rebuild, outbox drain);
output: jobs run on time (cron in UTC or a watch's time zone), schedule state persisted in
``schedulestate``, one ``runs_missed`` operator event per catch-up run that replaced
several, each run started only after a fencing check of the lease.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_JOB_MISSED,
    EVENT_JOB_SUBMITTED,
    JobEvent,
)
from apscheduler.executors.debug import DebugExecutor
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, delete, select

from claims.store.outbox import add_event, make_event
from claims.store.tables import ScheduleState, Watch
from claims.values.canonical import as_utc, utcnow
from claims.values.timefmt import iso_z
from claims.vocabulary import RETIRED_STATE
from tracker.errors import ConfigError
from tracker.schedule.jobs import Jobs  # noqa: F401  (re-exported: Scheduler users build Jobs)
from tracker.schedule.locks import Lease, LockLost, SchedulerBusy, fenced_by
from tracker.schedule.settings import ScheduleSettings
from tracker.schedule.triggers import (
    SteppedScheduler,
    is_fire_time,
    latest_check,
    misfire_grace_seconds,
    missed_runs,
    next_due,
    retry_at,
    watch_trigger,
)

log = logging.getLogger("tracker.schedule.daemon")

UTC = dt.UTC
WATCH_PREFIX = "watch:"
AFTER_CYCLE = "after_cycle"


class MergedRequests(logging.Filter):
    """Drops APScheduler's ``Execution of job "after_cycle ..." skipped: maximum number of
    running instances reached`` warnings, counting them (``count``): a rebuild requested
    while one runs is not lost (:meth:`Scheduler._on_max_instances` asks again), so each
    such line was noise, nine in 40 s after a demo. Other jobs' lines pass."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        """False (dropped, counted) for an after-cycle "maximum number of running
        instances" line; True for every other record."""
        text = record.getMessage()
        if f'job "{AFTER_CYCLE} ' in text and "maximum number of running instances" in text:
            self.count += 1
            return False
        return True


class Scheduler:
    """One scheduler per database: a lease (tracker.schedule.locks), one APScheduler job per Watch row,
    and an ``after_cycle`` job (drain outbox, then rebuild site) after each watch run.

    Each job is ``coalesce=True``, ``max_instances=1``, with a misfire grace of one period;
    ``next_run_at`` is persisted in ``schedulestate`` on every submission and at shutdown,
    and restored at start, so a restart resumes the schedule and turns a downtime into one
    catch-up run. ``start()`` raises :class:`SchedulerBusy` when another live scheduler holds
    the lease (cases/C14); ``try_start()`` logs that and returns False.

    Every job starts with a fencing check (:meth:`Lease.claim_run`): a scheduler whose
    lease was taken over while it was paused runs nothing, stops submitting, and
    :meth:`run_until` raises LockLost. A watch run that stands for several scheduled
    times (downtime, overrun) records one ``runs_missed`` operator event; a failed watch
    is tried again after :func:`tracker.schedule.triggers.retry_delay` (5 min, doubling,
    capped at its period), not after its whole period.
    """

    def __init__(
        self,
        engine: Engine,
        run_watch: Callable[[str], Any],
        rebuild_site: Callable[[], Any] | None = None,
        drain_outbox: Callable[[], Any] | None = None,
        *,
        settings: ScheduleSettings | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
        scheduler_class: type[BaseScheduler] = BackgroundScheduler,
        lease: Lease | None = None,
    ) -> None:
        self.engine = engine
        self.run_watch = run_watch
        self.rebuild_site = rebuild_site
        self.drain_outbox = drain_outbox
        self.settings = settings or ScheduleSettings()
        self.clock = clock
        self.scheduler_class = scheduler_class
        self.lease = lease or Lease(engine, ttl_seconds=self.settings.lock_ttl_seconds, clock=clock)
        self.aps: BaseScheduler | None = None
        self._stopping = threading.Event()
        self._dirty = threading.Event()
        self._pending = 0  # submitted, not yet finished (APScheduler events)
        self._running = 0  # inside a job body (see _slot)
        self._idle = threading.Condition()
        self._watch_keys: dict[str, tuple[Any, ...]] = {}
        self._triggers: dict[str, Any] = {}
        self._lost = threading.Event()  # the fencing check failed: lease taken over
        self._overrun: set[str] = set()  # jobs whose fire time was skipped while running
        self._retries: dict[str, dt.datetime] = {}  # job id -> backoff retry of a failed run
        self._started_at: dt.datetime | None = None
        self._downtime_told = False  # the one log line for the catch-ups after a downtime
        self._merged = MergedRequests()  # APScheduler's after_cycle "skipped" lines, counted

    # -- lifecycle ---------------------------------------------------------------

    def start(self) -> None:
        """Take the lease, build the jobs from Watch rows and persisted state, start.

        Raises SchedulerBusy (another live scheduler) or ConfigError (a bad watch schedule).
        """
        self.lease.acquire()
        self._stopping.clear()  # a stopped Scheduler may be started again
        self._lost.clear()
        self._watch_keys = {}
        try:
            executor = (
                DebugExecutor()
                if self.settings.executor == "debug"
                else ThreadPoolExecutor(self.settings.max_workers)
            )
            aps = self.scheduler_class(
                timezone=UTC,
                executors={"default": executor},
                job_defaults={"coalesce": True, "max_instances": 1},
            )
            aps.add_listener(self._on_submitted, EVENT_JOB_SUBMITTED)
            aps.add_listener(self._on_max_instances, EVENT_JOB_MAX_INSTANCES)
            aps.add_listener(self._on_done, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR | EVENT_JOB_MISSED)
            self.aps = aps
            self._started_at = self.clock()
            self._downtime_told = False
            self._merged = MergedRequests()
            logging.getLogger("apscheduler.scheduler").addFilter(self._merged)
            self._add_after_cycle_job()
            self.sync_watches()
            self._drop_stale_states()
            aps.start()
        except BaseException:
            self.aps = None
            self.lease.release()
            raise
        log.info("scheduler started with %d watch job(s)", len(self._watch_keys))

    def try_start(self) -> bool:
        """start(), but a busy lease is logged (C14 wording) and returns False, not raised."""
        try:
            self.start()
        except SchedulerBusy as exc:
            log.warning("%s", exc)
            return False
        return True

    @property
    def lease_lost(self) -> bool:
        """True once a job's fencing check found the lease taken over: this scheduler
        starts nothing more, and :meth:`run_until` raises LockLost at its next beat."""
        return self._lost.is_set()

    def run_until(self, stop: threading.Event) -> None:
        """Block until ``stop`` is set, renewing the lease and re-reading watches every
        ``heartbeat_seconds``; then shut down. Raises LockLost if the lease was taken over."""
        while not stop.wait(self.settings.heartbeat_seconds):
            try:
                if self._lost.is_set():
                    raise LockLost("the scheduler lease was taken over; stopping")
                self.lease.renew()
                self.sync_watches(strict=False)
            except LockLost:
                self.shutdown(release=False)
                raise
            except SQLAlchemyError as exc:
                # e.g. the disk was busy past busy_timeout: retry at the next heartbeat;
                # if our lease expires meanwhile, renew() raises LockLost and we stop.
                log.warning("heartbeat failed, retrying: %s", exc)
        self.shutdown()

    def shutdown(self, *, release: bool = True) -> None:
        """Stop submitting, let running jobs finish (each commits its own work), persist the
        next run times, stop APScheduler, release the lease. Idempotent."""
        aps = self.aps
        if aps is None:
            return
        self._stopping.set()
        aps.pause()
        # Running jobs may call into APScheduler (the after-cycle request); wait for them
        # before aps.shutdown(), which holds the job store lock while it waits for them.
        with self._idle:
            idle = self._idle.wait_for(
                lambda: self._running <= 0, self.settings.shutdown_timeout_seconds
            )
        if not idle:
            log.warning(
                "jobs still running after %ss; stopping anyway",
                self.settings.shutdown_timeout_seconds,
            )
        self._persist_next_runs(aps.get_jobs())
        aps.shutdown(wait=idle)
        self.aps = None
        logging.getLogger("apscheduler.scheduler").removeFilter(self._merged)
        if self._merged.count:
            log.info(
                "%d site-rebuild request(s) arrived while a rebuild ran; each was merged "
                "into the next rebuild",
                self._merged.count,
            )
        if release and self.lease.held:
            self.lease.release()
        log.info("scheduler stopped")

    # -- stepping (SteppedScheduler) ---------------------------------------------

    def run_pending(self, timeout: float = 60.0) -> None:
        """SteppedScheduler only: run every job due at ``clock()`` and whatever those runs
        request (the after-cycle job), waiting for each round to finish."""
        aps = self.aps
        if not isinstance(aps, SteppedScheduler):
            raise TypeError("run_pending() needs scheduler_class=SteppedScheduler")
        for _round in range(10):
            aps.step()
            if not self.wait_idle(timeout):
                raise TimeoutError("scheduled jobs did not finish")
            now = self.clock()
            if not any(j.next_run_time and j.next_run_time <= now for j in aps.get_jobs()):
                return

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every submitted job has finished; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending <= 0, timeout)

    # -- jobs --------------------------------------------------------------------

    def sync_watches(self, *, strict: bool = True) -> None:
        """Make the APScheduler jobs match the Watch rows: add new watches, reschedule
        changed ones, remove deleted ones. A known watch resumes from its persisted
        ``next_run_at`` (at most one period ahead) while that is a fire time of its
        current schedule (an edited one wins: cases/C30); one without a saved schedule runs
        when its last check (e.g. by ``tracker check``) is one interval old, or at the
        next cron time after it, at once if never checked
        (:func:`tracker.schedule.triggers.next_due`, the rule ``tracker watches`` shows).

        A bad schedule (e.g. cron) raises ConfigError when ``strict`` (at start); while
        running it is logged and that watch keeps its previous job, if any."""
        aps = self.aps
        assert aps is not None
        with Session(self.engine) as session:
            live = select(Watch).where(Watch.state != RETIRED_STATE).order_by(Watch.name)
            watches = list(session.exec(live))
            states = {s.job_id: s for s in session.exec(select(ScheduleState))}
        now = self.clock()
        seen: set[str] = set()
        for watch in watches:
            job_id = WATCH_PREFIX + watch.name
            seen.add(job_id)
            params = watch.params
            key = (
                watch.interval_minutes,
                params.get("cron"),
                params.get("timezone"),
                self.settings.jitter_seconds,
            )
            if self._watch_keys.get(job_id) == key:
                continue
            try:
                trigger = watch_trigger(
                    watch, jitter_seconds=self.settings.jitter_seconds, start=now
                )
            except ConfigError as exc:
                if strict:
                    raise
                log.error("%s; keeping its previous schedule", exc)
                continue
            state = states.get(job_id)
            persisted = state.next_run_at if state is not None else None
            tolerance = dt.timedelta(seconds=self.settings.jitter_seconds + 1)
            if persisted is not None and not is_fire_time(trigger, persisted, tolerance):
                persisted = None  # saved by an earlier schedule: the config's wins (C30)
            first = next_due(
                watch,
                now=now,
                last_check=latest_check(watch, state),
                persisted=persisted,
                trigger=trigger,
                tolerance=tolerance,
            )
            if persisted is None:
                first = max(first, now)  # overdue: run at once, not at a past time
            aps.add_job(
                self._watch_job,
                trigger=trigger,
                args=[watch.name],
                id=job_id,
                name=job_id,
                next_run_time=first,
                misfire_grace_time=misfire_grace_seconds(trigger, now),
                replace_existing=True,
            )
            self._watch_keys[job_id] = key
            self._triggers[job_id] = trigger
            self._save_state(job_id, next_run_at=first)
        for job_id in set(self._watch_keys) - seen:
            aps.remove_job(job_id)
            del self._watch_keys[job_id]
            self._triggers.pop(job_id, None)
            log.info("watch job %s removed (its watch is gone)", job_id)

    def _drop_stale_states(self) -> None:
        """At start: forget the saved schedule of every watch job no live watch has (a
        watch removed or retired while no scheduler ran), so it is never resumed (C30)."""
        with _STATE_LOCK, Session(self.engine) as session:
            stale = select(ScheduleState.job_id).where(
                col(ScheduleState.job_id).startswith(WATCH_PREFIX),
                col(ScheduleState.job_id).not_in(list(self._watch_keys)),
            )
            gone = list(session.exec(stale))
            if gone:
                session.exec(delete(ScheduleState).where(col(ScheduleState.job_id).in_(gone)))
                session.commit()
                log.info("dropped the saved schedule of %d removed watch(es)", len(gone))

    def _add_after_cycle_job(self) -> None:
        assert self.aps is not None
        now = self.clock()
        trigger = IntervalTrigger(
            minutes=self.settings.site_interval_minutes, start_date=now, timezone=UTC
        )
        period = dt.timedelta(minutes=self.settings.site_interval_minutes)
        with Session(self.engine) as session:
            state = session.get(ScheduleState, AFTER_CYCLE)
            first = (
                min(state.next_run_at, now + period)
                if state and state.next_run_at
                else now + period
            )
        self.aps.add_job(
            self._after_cycle_job,
            trigger=trigger,
            id=AFTER_CYCLE,
            name=AFTER_CYCLE,
            next_run_time=first,
            misfire_grace_time=misfire_grace_seconds(trigger, now),
            replace_existing=True,
        )
        self._save_state(AFTER_CYCLE, next_run_at=first)

    @contextmanager
    def _slot(self) -> Iterator[bool]:
        """Count a running job; yields False once shutdown began (then do nothing). shutdown()
        sets ``_stopping`` before waiting for the count, so no job touches APScheduler while
        ``aps.shutdown()`` holds its job store lock."""
        with self._idle:
            self._running += 1
        try:
            yield not self._stopping.is_set()
        finally:
            with self._idle:
                self._running -= 1
                self._idle.notify_all()

    def _watch_job(self, name: str) -> None:
        job_id = WATCH_PREFIX + name
        with self._slot() as go:
            if not go:
                log.info("not starting %s: shutting down", job_id)
                return
            previous = self._last_start(job_id, name)
            if not self._fenced(job_id):
                return
            self._record_missed(name, previous)
            try:
                with self._recorded(job_id, claimed=True), fenced_by(self.lease):
                    self.run_watch(name)
            except LockLost:  # the lease went during the run: its writes were rolled back
                self._lost.set()
                self._stopping.set()
                log.error("the scheduler lease was taken over during %s; stopping", job_id)
            finally:
                self._after_watch_run(job_id, name)
                self._request_after_cycle()

    def _fenced(self, job_id: str) -> bool:
        """The fencing check (:meth:`Lease.claim_run`); on failure stop submitting."""
        if self.lease.claim_run(job_id):
            return True
        self._lost.set()
        self._stopping.set()
        log.error("the scheduler lease was taken over; not starting %s and stopping", job_id)
        return False

    def _last_start(self, job_id: str, name: str) -> dt.datetime | None:
        with Session(self.engine) as session:
            watch = session.exec(select(Watch).where(Watch.name == name)).first()
            state = session.get(ScheduleState, job_id)
        return latest_check(watch, state) if watch is not None else None

    def _record_missed(self, name: str, previous: dt.datetime | None) -> None:
        """One ``runs_missed`` operator event when this run stands for two or more
        scheduled times since the previous run (:func:`missed_runs`)."""
        job_id = WATCH_PREFIX + name
        trigger = self._triggers.get(job_id)
        if trigger is None or previous is None:
            return
        now = self.clock()
        missed = missed_runs(trigger, as_utc(previous), now)
        if missed < 2:
            return
        with Session(self.engine) as session:
            watch = session.exec(select(Watch).where(Watch.name == name)).first()
            event = make_event(
                "runs_missed",
                f"{name}: {missed} runs missed, caught up once at {iso_z(now)}",
                watch_id=watch.id if watch is not None else None,
                detail={
                    "watch": name,
                    "missed": missed,
                    "since": iso_z(previous),
                    "caught_up_at": iso_z(now),
                },
                at=now,
            )
            add_event(session, event)
            session.commit()
        if self._started_at is not None and as_utc(previous) < self._started_at:
            # a downtime: every overdue watch catches up at start; one line says so
            log.debug("%s: %d runs missed, caught up once at %s", name, missed, iso_z(now))
            if not self._downtime_told:
                self._downtime_told = True
                log.warning(
                    "watches missed runs while no scheduler was running; each catches up "
                    "once now (`tracker watches` says how many runs each missed)"
                )
            return
        log.warning("%s: %d runs missed, caught up once at %s", name, missed, iso_z(now))

    def _after_watch_run(self, job_id: str, name: str) -> None:
        """After a run: a failed watch is tried again after its backoff (when that is
        earlier than its next scheduled time); a run that outlasted fire times (skipped by
        ``max_instances``) is caught up at once, and that run counts what it replaced."""
        aps = self.aps
        if aps is None or self._stopping.is_set() or aps.get_job(job_id) is None:
            return
        now = self.clock()
        if job_id in self._overrun:
            self._overrun.discard(job_id)
            aps.modify_job(job_id, next_run_time=now)
            self._save_state(job_id, next_run_at=now)
            return
        with Session(self.engine) as session:
            watch = session.exec(select(Watch).where(Watch.name == name)).first()
        trigger = self._triggers.get(job_id)
        if watch is None or trigger is None:
            return
        retry = retry_at(watch, trigger, now)
        if retry is None:
            return
        log.info(
            "%s failed %d time(s) in a row; retry at %s",
            name,
            watch.consecutive_failures,
            iso_z(retry),
        )
        self._retries[job_id] = retry
        self._apply_retry(job_id)

    def _apply_retry(self, job_id: str) -> None:
        """Move a job's next run to its pending retry time when that is earlier. Called by
        the job (a thread pool's job waits here for APScheduler's own update of the next
        run time, which holds the job store lock) and again from the submission event,
        which APScheduler sends after that update (the debug executor runs the job inside
        the submission, so the job's own move would be overwritten)."""
        aps = self.aps
        retry = self._retries.get(job_id)
        if aps is None or retry is None:
            return
        job = aps.get_job(job_id)
        if retry <= self.clock() or job is None:
            self._retries.pop(job_id, None)  # stale: that retry is the run now starting
            return
        if job.next_run_time is None or retry < job.next_run_time:
            aps.modify_job(job_id, next_run_time=retry)
            self._save_state(job_id, next_run_at=retry)

    def _after_cycle_job(self) -> None:
        if self.drain_outbox is None and self.rebuild_site is None:
            return
        with self._slot() as go:
            if not go or not self._fenced(AFTER_CYCLE):
                return
            with self._recorded(AFTER_CYCLE, claimed=True):
                # max_instances=1 skips a request that arrives while this runs, so loop
                # while watch runs keep finishing: no change is left out of the site.
                for _round in range(3):
                    self._dirty.clear()
                    if self.drain_outbox is not None:
                        self.drain_outbox()
                    if self.rebuild_site is not None:
                        self.rebuild_site()
                    if not self._dirty.is_set() or self._stopping.is_set():
                        break

    def _request_after_cycle(self, extra_seconds: float = 0.0) -> None:
        self._dirty.set()
        aps = self.aps
        if aps is None or self._stopping.is_set():
            return
        when = self.clock() + dt.timedelta(seconds=self.settings.settle_seconds + extra_seconds)
        job = aps.get_job(AFTER_CYCLE)
        if job is not None and (job.next_run_time is None or job.next_run_time > when):
            aps.modify_job(AFTER_CYCLE, next_run_time=when)

    # -- bookkeeping -------------------------------------------------------------

    def _on_submitted(self, event: JobEvent) -> None:
        with self._idle:
            self._pending += 1
        self._apply_retry(event.job_id)
        aps = self.aps
        job = aps.get_job(event.job_id) if aps is not None else None
        if job is not None:
            self._save_state(event.job_id, next_run_at=job.next_run_time)

    def _on_max_instances(self, event: JobEvent) -> None:
        # An after-cycle request that arrived while the job ran was skipped by
        # max_instances=1; ask again shortly so the last watch run reaches the site.
        if event.job_id == AFTER_CYCLE and self._dirty.is_set():
            self._request_after_cycle(extra_seconds=1.0)
        elif event.job_id.startswith(WATCH_PREFIX):
            self._overrun.add(event.job_id)

    def _on_done(self, event: JobEvent) -> None:
        if event.code == EVENT_JOB_MISSED:
            self._save_state(event.job_id, last_outcome="missed")
        with self._idle:
            self._pending -= 1
            self._idle.notify_all()

    @contextmanager
    def _recorded(self, job_id: str, *, claimed: bool = False) -> Iterator[None]:
        """Record a job's start (unless :meth:`Lease.claim_run` did), end, outcome."""
        if not claimed:
            self._save_state(job_id, last_started_at=self.clock())
        try:
            yield
        except LockLost:
            raise  # not ours to record any more: the new holder keeps this row
        except Exception as exc:
            self._save_state(
                job_id,
                last_finished_at=self.clock(),
                last_outcome="error",
                last_error=str(exc)[:500],
            )
            raise
        self._save_state(job_id, last_finished_at=self.clock(), last_outcome="ok", last_error=None)

    def _persist_next_runs(self, jobs: list[Any]) -> None:
        for job in jobs:
            self._save_state(job.id, next_run_at=job.next_run_time)

    def _save_state(self, job_id: str, **values: Any) -> None:
        """Upsert one schedulestate row in its own short transaction (single scheduler: the
        lease guarantees no concurrent inserter of the same job id in another process)."""
        with _STATE_LOCK, Session(self.engine) as session:
            row = session.get(ScheduleState, job_id) or ScheduleState(job_id=job_id)
            for name, value in values.items():
                setattr(row, name, value)
            session.add(row)
            session.commit()


# Serializes the get-or-create above between this process's threads.
_STATE_LOCK = threading.Lock()
