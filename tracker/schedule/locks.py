"""One scheduler per database (cases/C14): a lease row in the ``schedulerlock`` table.

Input: an engine; output: the lease held (or :class:`SchedulerBusy` naming the holder).
Works the same on SQLite and PostgreSQL because it relies only on a primary key and
single-statement INSERT / UPDATE ... WHERE, which both databases apply atomically.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import os
import re
import socket
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from claims.store.rawdb import RawDB
from claims.store.tables import SchedulerLock, ScheduleState
from claims.values.canonical import utcnow
from claims.values.timefmt import iso_z
from tracker.errors import TrackerError

log = logging.getLogger("tracker.schedule.daemon")

# The lease fence of the scheduler job running in this context (set by the Scheduler
# around each watch run; read by jobs that run the cycle: tracker.schedule.jobs).
_FENCE: contextvars.ContextVar[Callable[[RawDB], None] | None] = contextvars.ContextVar(
    "scheduler_fence", default=None
)


def current_fence() -> Callable[[RawDB], None] | None:
    """The running scheduler job's lease fence (:meth:`Lease.fence`), None outside a job."""
    return _FENCE.get()


@contextmanager
def fenced_by(lease: Lease) -> Iterator[None]:
    """Make ``lease.fence`` the :func:`current_fence` for the block."""
    token = _FENCE.set(lease.fence)
    try:
        yield
    finally:
        _FENCE.reset(token)


LOCK_NAME = "scheduler"
_T = SchedulerLock.__table__  # type: ignore[attr-defined]
_STATE = ScheduleState.__table__  # type: ignore[attr-defined]


class SchedulerBusy(TrackerError):
    """Another live scheduler holds the lease; this one must not start."""

    kind = "scheduler_busy"


class LockLost(TrackerError):
    """Our lease expired and another process took it over: stop scheduling at once."""

    kind = "lock_lost"


BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
PIDNS_PATH = "/proc/self/ns/pid"
_BOOT_ID_RE = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
_PIDNS_RE = re.compile(r"pid:\[(\d+)\]")
_NS_NUMBER_RE = re.compile(r"\d+")


@dataclass(frozen=True)
class MachineIdentity:
    """Which running kernel and which pid namespace a process lives in (Linux).

    ``boot_id``: the kernel's random boot id (a uuid, new at every boot; shared by the
    containers of one kernel). ``pid_namespace``: the inode number of the process's pid
    namespace (``/proc/self/ns/pid`` reads ``pid:[4026531836]``; unique among the live
    namespaces of one kernel). Two processes with equal identities see the same pids, so
    ``os.kill(pid, 0)`` in one tells about the other's pid (see proc(5), namespaces(7)).
    """

    boot_id: str
    pid_namespace: str

    def suffix(self) -> str:
        """``<boot-id>/<pid-namespace>``, as appended to the lease owner after ``@``."""
        return f"{self.boot_id}/{self.pid_namespace}"


def machine_identity(
    boot_id_path: str = BOOT_ID_PATH, pidns_path: str = PIDNS_PATH
) -> MachineIdentity | None:
    """This process's :class:`MachineIdentity`, or None where it cannot be read (macOS,
    Windows, a /proc that is missing or restricted, or contents of an unexpected form).
    None means "identity unknown": no lease is then taken over before it expires."""
    try:
        with open(boot_id_path, encoding="ascii") as f:
            boot_id = f.read().strip().lower()
        pidns = _PIDNS_RE.fullmatch(os.readlink(pidns_path))
    except (OSError, ValueError):  # ValueError: undecodable boot_id
        return None
    if pidns is None or not _BOOT_ID_RE.fullmatch(boot_id):
        return None
    return MachineIdentity(boot_id=boot_id, pid_namespace=pidns.group(1))


def owner_identity(owner: str) -> MachineIdentity | None:
    """The identity encoded in a lease owner ``<uuid>@<boot-id>/<pid-namespace>``; None for
    an owner without it (rows written before identities were recorded: a bare uuid) or
    with a suffix of another form. Never raises."""
    _token, at, suffix = owner.partition("@")
    boot_id, slash, pidns = suffix.partition("/")
    if not (at and slash and _BOOT_ID_RE.fullmatch(boot_id) and _NS_NUMBER_RE.fullmatch(pidns)):
        return None
    return MachineIdentity(boot_id=boot_id, pid_namespace=pidns)


@dataclass(frozen=True)
class LockHolder:
    """Who holds the lease, as stored in the row. ``owner`` is the raw stored token
    (``<uuid>@<boot-id>/<pid-namespace>``, or a bare uuid when the identity was unknown
    or the row is older); :attr:`identity` is its parsed identity."""

    owner: str
    pid: int
    host: str
    acquired_at: dt.datetime
    heartbeat_at: dt.datetime
    expires_at: dt.datetime

    @property
    def identity(self) -> MachineIdentity | None:
        """The holder's :class:`MachineIdentity`, or None when its row does not record it."""
        return owner_identity(self.owner)


def database_label(engine: Engine) -> str:
    """The database as a user would name it: the SQLite file path, else the URL without password."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return url.render_as_string(hide_password=True)


def _as_utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def same_machine(holder: LockHolder, host: str, here: MachineIdentity | None) -> bool | None:
    """Whether the holder runs on this machine in this pid namespace: True when its host
    equals ``host`` and its recorded identity equals ``here``; False when the host differs
    or both identities are known and differ (another machine or container); None when the
    host is the same but either identity is unknown (cannot tell)."""
    if holder.host != host:
        return False
    theirs = holder.identity
    if theirs is None or here is None:
        return None
    return theirs == here


def on_this_machine(holder: LockHolder) -> bool | None:
    """:func:`same_machine` against this process (``socket.gethostname()`` and
    :func:`machine_identity`)."""
    return same_machine(holder, socket.gethostname(), machine_identity())


def _exited(holder: LockHolder, host: str, here: MachineIdentity | None) -> bool:
    if same_machine(holder, host, here) is not True or holder.pid <= 0:
        return False  # another pid namespace: its pid means nothing here
    try:
        os.kill(holder.pid, 0)  # signal 0: existence check, nothing is sent
    except ProcessLookupError:
        return True
    except OSError:
        return False  # PermissionError: alive, owned by someone else
    return False  # the pid exists: alive (or reused, which we cannot tell apart: wait)


def holder_exited(holder: LockHolder, host: str | None = None) -> bool:
    """Whether the holder's process is known to be gone: it ran on this machine in this
    pid namespace (:func:`same_machine` with ``host``, default ``socket.gethostname()``,
    and :func:`machine_identity`) and ``os.kill(pid, 0)`` raises ProcessLookupError.
    Another host, another boot or pid namespace (a container sharing our host name), an
    unknown identity on either side, PermissionError (a live process of another user) and
    an existing pid all count as not exited: there only the lease expiry tells."""
    return _exited(holder, host or socket.gethostname(), machine_identity())


class Lease:
    """A database lease with owner, heartbeat and expiry.

    ``acquire()`` first tries ``INSERT`` (the primary key lets exactly one concurrent
    inserter win); if a row exists it tries ``UPDATE ... WHERE expires_at < now OR
    owner = me`` (one statement, so of several processes seeing the same stale row only
    one updates it: SQLite serializes writers, PostgreSQL re-checks the WHERE after the
    row lock). ``renew()`` pushes ``expires_at`` forward; ``release()`` deletes our row.
    A crashed holder stops renewing; after ``ttl_seconds`` its lease can be taken over, and
    at once when it ran on this machine in this pid namespace and its pid has exited
    (:func:`holder_exited`).

    ``owner`` is a fresh uuid plus, where :func:`machine_identity` can read it,
    ``@<boot-id>/<pid-namespace>``: the identity rides in the existing text column, so
    older databases need no migration and their bare-uuid rows read as "identity unknown".
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
        self.identity = machine_identity()
        suffix = f"@{self.identity.suffix()}" if self.identity else ""
        self.owner = uuid.uuid4().hex + suffix
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
        this machine in this pid namespace and has exited, is taken over (logged). Raises
        SchedulerBusy (a TrackerError).
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
            if current is not None and _exited(current, self.host, self.identity):
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
                "took over a stale scheduler lock on %s from pid %d (exited) on this machine",
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

    def claim_run(self, job_id: str) -> bool:
        """Fencing check at a job's start: in ONE transaction, confirm the lease row is still
        ours (and push its expiry forward) and record the run's start in ``schedulestate``.

        Returns False, writing nothing, when another scheduler has taken the lease over
        (we were paused past our expiry: a suspended VM, a long GC pause): the job must
        then not run. A lease that expired but that nobody took over is still ours; the
        claim renews it in the same statement, so a takeover (an UPDATE of an expired row)
        and a claim cannot both succeed: SQLite serializes the two writers and PostgreSQL
        re-checks the takeover's WHERE after the row lock.
        """
        now = self.clock()
        with self.engine.begin() as conn:
            held = conn.execute(
                update(_T)
                .where(and_(_T.c.name == self.name, _T.c.owner == self.owner))
                .values(heartbeat_at=now, expires_at=now + self.ttl)
            ).rowcount
            if held != 1:
                self.held = False
                return False
            started = conn.execute(
                update(_STATE).where(_STATE.c.job_id == job_id).values(last_started_at=now)
            ).rowcount
            if started == 0:
                conn.execute(insert(_STATE).values(job_id=job_id, last_started_at=now))
        return True

    def fence(self, raw: RawDB) -> None:
        """The lease check a watch cycle runs inside each commit's transaction
        (``run_check(fence=...)``): push our expiry forward while the row is still ours,
        else raise :class:`LockLost`, so the cycle rolls that commit back. A scheduler
        paused mid-run whose lease was taken over then writes nothing of that run."""
        now = self.clock()
        renewed = raw.execute(
            "UPDATE schedulerlock SET heartbeat_at = :now, expires_at = :expires "
            "WHERE name = :name AND owner = :owner",
            {"now": now, "expires": now + self.ttl, "name": self.name, "owner": self.owner},
        ).rowcount
        if renewed != 1:
            self.held = False
            raise LockLost(
                f"the scheduler lease on {database_label(self.engine)} was taken over during "
                "a run; its writes were rolled back"
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
    since = iso_z(holder.acquired_at)
    return (
        f"a scheduler is already running against {database_label(engine)} "
        f"(pid {holder.pid} on host {holder.host} since {since}); not starting another"
    )
