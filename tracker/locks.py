"""One scheduler per database (cases/C14): a lease row in the ``schedulerlock`` table.

Input: an engine; output: the lease held (or :class:`SchedulerBusy` naming the holder).
Works the same on SQLite and PostgreSQL because it relies only on a primary key and
single-statement INSERT / UPDATE ... WHERE, which both databases apply atomically.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from claims.models import SchedulerLock, utcnow
from tracker.errors import TrackerError

log = logging.getLogger("tracker.schedule")

LOCK_NAME = "scheduler"
_T = SchedulerLock.__table__  # type: ignore[attr-defined]


class SchedulerBusy(TrackerError):
    """Another live scheduler holds the lease; this one must not start."""

    kind = "scheduler_busy"


class LockLost(TrackerError):
    """Our lease expired and another process took it over: stop scheduling at once."""

    kind = "lock_lost"


@dataclass(frozen=True)
class LockHolder:
    """Who holds the lease, as stored in the row."""

    owner: str
    pid: int
    host: str
    acquired_at: dt.datetime
    heartbeat_at: dt.datetime
    expires_at: dt.datetime


def database_label(engine: Engine) -> str:
    """The database as a user would name it: the SQLite file path, else the URL without password."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return url.render_as_string(hide_password=True)


def _as_utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def holder_exited(holder: LockHolder, host: str | None = None) -> bool:
    """Whether the holder's process is known to be gone: it ran on ``host`` (default this
    machine, as :class:`Lease` records it: ``socket.gethostname()``) and ``os.kill(pid, 0)``
    raises ProcessLookupError. PermissionError (a live process of another user) and any
    other host count as not exited: there only the lease expiry tells."""
    if holder.host != (host or socket.gethostname()) or holder.pid <= 0:
        return False
    try:
        os.kill(holder.pid, 0)  # signal 0: existence check, nothing is sent
    except ProcessLookupError:
        return True
    except OSError:
        return False  # PermissionError: alive, owned by someone else
    return False


class Lease:
    """A database lease with owner, heartbeat and expiry.

    ``acquire()`` first tries ``INSERT`` (the primary key lets exactly one concurrent
    inserter win); if a row exists it tries ``UPDATE ... WHERE expires_at < now OR
    owner = me`` (one statement, so of several processes seeing the same stale row only
    one updates it: SQLite serializes writers, PostgreSQL re-checks the WHERE after the
    row lock). ``renew()`` pushes ``expires_at`` forward; ``release()`` deletes our row.
    A crashed holder stops renewing; after ``ttl_seconds`` its lease can be taken over, and
    at once when it ran on this host and its pid has exited (:func:`holder_exited`).

    ``clock`` returns aware UTC datetimes (injected by tests).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        name: str = LOCK_NAME,
        ttl_seconds: float = 120.0,
        clock: Callable[[], dt.datetime] = utcnow,
        pid: int | None = None,
        host: str | None = None,
    ) -> None:
        self.engine = engine
        self.name = name
        self.ttl = dt.timedelta(seconds=ttl_seconds)
        self.clock = clock
        self.owner = uuid.uuid4().hex
        self.pid = os.getpid() if pid is None else pid
        self.host = host or socket.gethostname()
        self.held = False

    def holder(self) -> LockHolder | None:
        """The current row (live or stale), or None when nobody holds the lease."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_T).where(_T.c.name == self.name)).mappings().first()
        if row is None:
            return None
        return LockHolder(
            owner=row["owner"],
            pid=row["pid"],
            host=row["host"],
            acquired_at=_as_utc(row["acquired_at"]),
            heartbeat_at=_as_utc(row["heartbeat_at"]),
            expires_at=_as_utc(row["expires_at"]),
        )

    def acquire(self) -> None:
        """Take the lease or raise :class:`SchedulerBusy` with the holder's pid, host and start.

        Idempotent for the current holder. An expired lease, or one whose holder ran on
        this host and has exited, is taken over (logged). Raises SchedulerBusy (a
        TrackerError).
        """
        for _attempt in range(3):
            now = self.clock()
            values = {
                "owner": self.owner,
                "pid": self.pid,
                "host": self.host,
                "acquired_at": now,
                "heartbeat_at": now,
                "expires_at": now + self.ttl,
            }
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(_T).values(name=self.name, **values))
                self.held = True
                return
            except IntegrityError:
                pass  # a row exists: live, stale, or ours
            with self.engine.begin() as conn:
                taken = conn.execute(
                    update(_T)
                    .where(
                        and_(
                            _T.c.name == self.name,
                            or_(_T.c.expires_at < now, _T.c.owner == self.owner),
                        )
                    )
                    .values(**values)
                ).rowcount
            if taken == 1:
                log.warning("took over a stale scheduler lease on %s", database_label(self.engine))
                self.held = True
                return
            current = self.holder()
            if current is not None and holder_exited(current, self.host):
                if self._take_from(current, values):
                    return
                continue  # someone else took it over first: look again
            if current is not None:
                raise SchedulerBusy(busy_message(self.engine, current))
            # the holder released between our INSERT and UPDATE: try again
        raise SchedulerBusy(f"could not take the scheduler lease on {database_label(self.engine)}")

    def _take_from(self, dead: LockHolder, values: dict[str, object]) -> bool:
        """Take over the row of a holder whose process has exited (only while that row is
        still its: one statement, so of several newcomers exactly one succeeds)."""
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(_T)
                .where(and_(_T.c.name == self.name, _T.c.owner == dead.owner))
                .values(**values)
            ).rowcount
        if taken == 1:
            log.warning(
                "took over a stale scheduler lock on %s from pid %d (exited) on this host",
                database_label(self.engine),
                dead.pid,
            )
            self.held = True
        return taken == 1

    def renew(self) -> None:
        """Heartbeat: extend our lease by ``ttl_seconds``; LockLost if it is no longer ours."""
        now = self.clock()
        with self.engine.begin() as conn:
            renewed = conn.execute(
                update(_T)
                .where(and_(_T.c.name == self.name, _T.c.owner == self.owner))
                .values(heartbeat_at=now, expires_at=now + self.ttl)
            ).rowcount
        if renewed != 1:
            self.held = False
            raise LockLost(
                f"the scheduler lease on {database_label(self.engine)} was taken over; stopping"
            )

    def release(self) -> bool:
        """Delete our row (never another owner's). Returns whether a row was deleted."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(_T).where(and_(_T.c.name == self.name, _T.c.owner == self.owner))
            ).rowcount
        self.held = False
        return gone == 1


def busy_message(engine: Engine, holder: LockHolder) -> str:
    """The one-line refusal of C14, naming database, pid, host and start time."""
    since = holder.acquired_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        f"a scheduler is already running against {database_label(engine)} "
        f"(pid {holder.pid} on host {holder.host} since {since}); not starting another"
    )
