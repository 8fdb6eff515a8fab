"""SQLModel tables of the claims database (DESIGN.md vocabulary).

JSON columns hold qualifiers and :class:`claims.values.value.Value` dicts as text so the
same schema runs on SQLite and PostgreSQL. All datetimes are timezone-aware UTC.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from claims.subjects.sourcenames import base_name
from claims.values.canonical import utcnow
from claims.values.value import Value


class Subject(SQLModel, table=True):
    """A model release claims are about, e.g. ``kimi-k3.1-pro``."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(index=True, unique=True)
    name: str
    organization: str | None = None
    family: str | None = None
    # Hub organization whose listing would show the weights repo (e.g. moonshotai).
    hub_org: str | None = None
    description: str | None = None


class SubjectAlias(SQLModel, table=True):
    """One name a subject goes by in one namespace (``name``, ``huggingface``, ``openrouter``,
    ``lmarena``, ``artificial_analysis``, ``litellm``). The explicit alias table."""

    __table_args__ = (UniqueConstraint("namespace", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    subject_id: int = Field(foreign_key="subject.id", index=True)
    namespace: str = "name"
    alias: str


class SubjectVariant(SQLModel, table=True):
    """A named offering of a subject (Standard, Highspeed)."""

    __table_args__ = (UniqueConstraint("subject_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    subject_id: int = Field(foreign_key="subject.id", index=True)
    name: str


class Source(SQLModel, table=True):
    """Where a statement was read: article, announcement, API endpoint or page."""

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, unique=True)
    url: str | None = None
    title: str
    publisher: str | None = None
    published: str | None = None  # ISO date as best known
    published_precision: str | None = None  # day / month / estimated
    language: str | None = None
    kind: str = "press"

    @property
    def short_name(self) -> str:
        """The source in a sentence when no other source is named beside it: its
        publisher, else its site, else the start of its title in quotes, else its key
        (:func:`claims.subjects.sourcenames.base_name`). Where several sources are named, use
        :func:`claims.subjects.sourcenames.source_names`, which keeps names of different sources
        different."""
        return base_name(self)


class Claim(SQLModel, table=True):
    """One stated figure. ``key`` is a content hash so re-imports store it once."""

    # A removed claim's id is never given to another (AUTOINCREMENT; without it SQLite
    # reuses the highest id): `#claim-N` links and `claim #N` in notes keep meaning one
    # claim. PostgreSQL sequences never reuse ids. Databases made before keep SQLite's
    # default (the table would have to be rebuilt).
    __table_args__ = {"sqlite_autoincrement": True}

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, unique=True)
    subject_id: int = Field(foreign_key="subject.id", index=True)
    attribute: str = Field(index=True)
    qualifiers_json: str = "{}"
    value_json: str
    raw_text: str | None = None  # the figure as written ("2,8 trilhões"), never a sentence
    source_id: int = Field(foreign_key="source.id", index=True)
    claimant: str | None = None
    locator: str | None = None
    stated_date: str | None = None
    note: str | None = None
    created_at: dt.datetime = Field(default_factory=utcnow)
    # Who stored it: the data file's URI (``file:///…/claims/x.toml``) for `tracker load`,
    # "import" for `tracker claims import`, None for rows stored before this was kept.
    # `tracker load` removes a claim its own folder's files no longer state (by origin).
    origin: str | None = None

    @property
    def qualifiers(self) -> dict[str, str]:
        return json.loads(self.qualifiers_json)

    @property
    def value(self) -> Value:
        return Value.from_dict(json.loads(self.value_json))


class Watch(SQLModel, table=True):
    """A scheduled check of one endpoint by one adapter, with its health."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    adapter: str
    url: str
    params_json: str = "{}"
    interval_minutes: int = 60
    state: str = "new"  # new / ok / failing / retired (no longer in the data files)
    consecutive_failures: int = 0
    last_run: dt.datetime | None = None
    last_success: dt.datetime | None = None
    last_error: str | None = None
    last_error_kind: str | None = None
    # Why the last cycle skipped it (``TRACKER_AA_API_KEY not set``; a check clears it):
    # apart from ``last_error``, which a failing watch's current error keeps.
    skip_reason: str | None = None
    failing_since: dt.datetime | None = None
    etag: str | None = None
    last_modified: str | None = None

    @property
    def params(self) -> dict[str, Any]:
        return json.loads(self.params_json)


class SchedulerLock(SQLModel, table=True):
    """A lease: at most one scheduler per database (cases/C14). Taken by an atomic INSERT,
    or by an UPDATE of an expired row; renewed by heartbeat; deleted on clean shutdown."""

    name: str = Field(primary_key=True)  # "scheduler"
    owner: str  # random token of the holding process
    pid: int
    host: str
    acquired_at: dt.datetime
    heartbeat_at: dt.datetime
    expires_at: dt.datetime


class ScheduleState(SQLModel, table=True):
    """Persisted schedule of one scheduler job (``watch:<name>`` or ``after_cycle``), so a
    restarted scheduler resumes where it stopped and turns missed runs into one catch-up."""

    job_id: str = Field(primary_key=True)
    next_run_at: dt.datetime | None = None
    last_started_at: dt.datetime | None = None
    last_finished_at: dt.datetime | None = None
    last_outcome: str | None = None  # ok / error / missed
    last_error: str | None = None


class Snapshot(SQLModel, table=True):
    """Raw bytes fetched by a watch; the body lives on disk under its sha256."""

    id: int | None = Field(default=None, primary_key=True)
    watch_id: int | None = Field(default=None, foreign_key="watch.id", index=True)
    url: str
    status: int
    headers_json: str = "{}"
    fetched_at: dt.datetime
    sha256: str = Field(index=True)
    size: int = 0


class Observation(SQLModel, table=True):
    """A value read by an adapter; one row per distinct value, with first/last seen."""

    __table_args__ = (
        UniqueConstraint("subject_id", "attribute", "qualifiers_json", "value_key", "watch_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    subject_id: int = Field(foreign_key="subject.id", index=True)
    attribute: str = Field(index=True)
    qualifiers_json: str = "{}"
    value_json: str
    value_key: str
    watch_id: int | None = Field(default=None, foreign_key="watch.id", index=True)
    snapshot_id: int | None = Field(default=None, foreign_key="snapshot.id")
    source_url: str | None = None
    first_seen: dt.datetime
    last_seen: dt.datetime
    current: bool = True

    @property
    def qualifiers(self) -> dict[str, str]:
        return json.loads(self.qualifiers_json)

    @property
    def value(self) -> Value:
        return Value.from_dict(json.loads(self.value_json))


class Verdict(SQLModel, table=True):
    """A claim's current verification status, reason and evidence (observation ids)."""

    id: int | None = Field(default=None, primary_key=True)
    claim_id: int = Field(foreign_key="claim.id", unique=True, index=True)
    status: str
    reason: str
    evidence_json: str = "[]"
    as_of: dt.datetime | None = None
    checked_at: dt.datetime = Field(default_factory=utcnow)
    # Whether the claimant states the figure on its own page, independent of ``status``:
    # {"status": "yes" | "no" | "not checked", "reason", "evidence"} (claims.verify.statements).
    # NULL in rows written before migration 4 (read as "not checked").
    statement_json: str | None = None

    @property
    def statement(self) -> dict[str, Any]:
        """The stored statement status; ``not checked`` when none is stored."""
        if not self.statement_json:
            return {"status": "not checked", "reason": "", "evidence": []}
        return json.loads(self.statement_json)


class SubjectClaimsToken(SQLModel, table=True):
    """A subject's change token: a random text the database's triggers put in place of
    the subject's rows whenever one of its claim or verdict rows changes (a subject has
    one row, or several while concurrent writers on PostgreSQL left older ones;
    :mod:`claims.store.changetokens`). The site build compares them with those it made
    its per-subject record with."""

    token: str = Field(primary_key=True)
    subject_id: int = Field(index=True)


class Discrepancy(SQLModel, table=True):
    """Claims that cannot all hold, or a claim contradicted by an observation."""

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, unique=True)
    subject_id: int = Field(foreign_key="subject.id", index=True)
    attribute: str
    rule: str
    claim_ids_json: str = "[]"
    observation_ids_json: str = "[]"
    state: str = "open"  # open / resolved / dismissed
    reason: str
    note: str | None = None
    opened_at: dt.datetime = Field(default_factory=utcnow)
    closed_at: dt.datetime | None = None


class Event(SQLModel, table=True):
    """Something a subscriber (or operator) may want to know. ``key`` hashes what it says,
    so a re-run never records (or alerts) twice."""

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, unique=True)
    kind: str = Field(index=True)
    audience: str = "subscriber"  # subscriber / operator
    subject_id: int | None = Field(default=None, foreign_key="subject.id", index=True)
    watch_id: int | None = Field(default=None, foreign_key="watch.id")
    title: str
    detail_json: str = "{}"
    created_at: dt.datetime = Field(default_factory=utcnow)


class SnapshotBody(SQLModel, table=True):
    """A fetched body by its sha256, on PostgreSQL (shared by every host of a team); on
    SQLite bodies live in the local file instead (:mod:`claims.store.bodies`)."""

    sha256: str = Field(primary_key=True)
    data: bytes


class Delivery(SQLModel, table=True):
    """The alert outbox log: one row per (event, subscription), so nothing is sent twice.

    ``state``: ``pending`` (waiting for ``next_attempt_at``), ``sending`` (claimed and
    handed to the channel; a crash leaves it there and it is not resent by itself),
    ``delivered`` (a 2xx came back), ``dead`` (gave up after the retry budget). ``last_error`` keeps what the
    channel answered; ``parts`` counts the messages a split delivery used.
    """

    __table_args__ = (UniqueConstraint("event_id", "subscription"),)
    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    subscription: str = Field(index=True)
    state: str = "pending"
    attempts: int = 0
    next_attempt_at: dt.datetime | None = None
    last_attempt_at: dt.datetime | None = None
    delivered_at: dt.datetime | None = None
    last_error: str | None = None
    sent_chars: int | None = None
    parts: int = 0
