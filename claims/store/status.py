"""Weights status of a subject: did the weights land, where, under what licence, and
how late are the promises. Reads observations, claims and watch checks; pure queries.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claims.readings.licenses import LicenseLink, license_link, spdx_id
from claims.store.rows import (
    AliasRow,
    ClaimRow,
    EventRow,
    ObservationRow,
    SourceRow,
    SubjectRow,
    WatchRow,
    read_rows,
    reader,
)
from claims.store.views import hub_watches_of, observation_views
from claims.subjects.sourcenames import plain_name, source_names
from claims.values.canonical import as_utc
from claims.values.timefmt import iso_z
from claims.values.value import Value
from claims.verify.promises import days_past, deadline_of, landed_at_first_look
from claims.vocabulary import RETIRED_STATE, SKIPPED_KIND, gated_value, qualifiers_text

if TYPE_CHECKING:
    from claims.store.rawdb import RawDB
    from claims.store.tables import Subject


@dataclass(frozen=True)
class Promise:
    """One source's statement of when the weights come: ``date`` ISO, ``relation``
    on/before/by/after; ``qualifiers`` of the claim (``{"variant": "Mini"}``: a promise
    about one variant's weights, not the whole model's). ``source`` is the name sentences
    give the source (titles in quotes, cut); ``source_plain`` and ``source_key`` are what
    JSON gives (:func:`claims.subjects.sourcenames.plain_name`, no quotes, and the key)."""

    date: str
    relation: str
    source: str
    claimant: str | None
    claim_id: int
    qualifiers: dict[str, str] = field(default_factory=dict)
    source_plain: str = ""
    source_key: str = ""

    @property
    def qualifiers_text(self) -> str:
        """``variant: Mini`` (empty when the promise is about the model itself)."""
        return qualifiers_text(self.qualifiers)

    def days_overdue(self, as_of: dt.datetime | None) -> int | None:
        """Whole days past :meth:`deadline` at ``as_of`` (None when not past, unknown, or
        the promise has no deadline; :func:`claims.verify.promises.days_past`)."""
        return days_past(self.deadline(), as_of)

    def deadline(self) -> dt.date | None:
        """Last day that keeps the promise (:func:`claims.verify.promises.deadline_of`: "before
        D" the day before, "by 2026-11" the month's last day, "after D" none)."""
        precision = "month" if len(self.date) == 7 else "day"
        v = Value(kind="date", value=self.date, relation=self.relation, precision=precision)
        return deadline_of(v)


@dataclass(frozen=True)
class CheckFailure:
    """The failed latest check of a watch that would show the weights: when, the error's
    kind and text as the watch row keeps them, the watch, and how many checks in a row
    have failed. Shown beside the last successful check's answer, never instead of it."""

    at: dt.datetime
    kind: str
    error: str
    watch: str
    failures: int


@dataclass
class WeightsStatus:
    """Answer to "did the weights land, and under what licence" for one subject.

    ``as_of`` is the last successful check of a watch that would show the weights
    (the subject's Hub org listing or one of its repos); ``overdue_days`` counts whole
    days from the most generous promised deadline to ``as_of`` (None when not overdue
    or when the weights landed).
    """

    slug: str
    name: str
    landed: bool
    repo: str | None = None
    landed_at: dt.datetime | None = None
    license: str | None = None
    license_source: str | None = None
    promises: list[Promise] = field(default_factory=list)
    overdue_days: int | None = None
    # the latest deadline (ISO date) among the model's own promises: ``overdue_days``
    # counts from its end
    latest_deadline: str | None = None
    as_of: dt.datetime | None = None
    # The repo was already listed the first time its watch ran: ``landed_at`` is then
    # only "by this time", not the landing date. ``repo_created`` is the Hub's createdAt.
    at_first_check: bool = False
    repo_created: str | None = None
    # Some live watch would show the weights (its Hub org or one of its repos): without
    # one, "not landed" only means nobody looks. ``retired``: watches that would show
    # them exist but every one is retired (`tracker untrack`).
    watched: bool = False
    retired: bool = False
    # The latest failure among those watches whose last check failed (before or after
    # an earlier success: ``as_of`` keeps the last successful answer); None while every
    # live one's last check succeeded, or before any check. ``next_retry``: when that
    # watch runs again, filled in by the caller that knows the schedule (the CLI).
    last_failure: CheckFailure | None = None
    next_retry: dt.datetime | None = None
    # Whether a scheduler holds the lease (filled in by the CLI): without one the retry
    # time is only when a check would be due, not a planned run.
    scheduler_running: bool = False
    # Landed after every promised deadline: whole days from the latest deadline to the
    # first sighting (None when on time, with no promise, or when the repo was already
    # there at the first check: its landing day is then unknown).
    landed_late_days: int | None = None
    # The watch's previous successful check before the first sighting: the weights
    # landed between it and ``landed_at`` (from the landing event; None when unknown).
    landed_after: dt.datetime | None = None
    # Access: the Hub's ``gated`` (``false``, ``auto``, ``manual``) and when each of it
    # and the licence was last read; the licence's SPDX id (when SPDX has one) and link.
    gated: str | None = None
    gated_read_at: dt.datetime | None = None
    license_read_at: dt.datetime | None = None
    license_spdx: str | None = None
    license_link: str | None = None
    # ``file`` (the repo's licence file), ``spdx`` (the SPDX page of its id) or ``none``;
    # ``license_note`` says why there is no link (``no licence file in the repo``).
    license_link_kind: str | None = None
    license_note: str | None = None
    # The weights were public and are no longer (every sighting of them is not current:
    # a listing no longer shows the repo and/or its model page answers not found).
    # ``landed`` is then False; ``withdrawn_since``: when that was recorded (the
    # ``repo_disappeared`` event after the last sighting; None without one),
    # ``last_seen_public`` the last sighting, ``withdrawn_alert`` the event's title.
    withdrawn: bool = False
    withdrawn_since: dt.datetime | None = None
    last_seen_public: dt.datetime | None = None
    withdrawn_alert: str | None = None

    @property
    def weights_word(self) -> str:
        """``landed``, ``withdrawn`` (landed, then no longer public), ``not landed`` (a
        successful Hub check saw no weights) or
        ``unknown`` (no watch looks, or none has checked successfully yet: "not landed"
        would be a guess)."""
        if self.landed:
            return "landed"
        if self.withdrawn:
            return "withdrawn"
        return "not landed" if self.as_of is not None else "unknown"

    @property
    def landed_at_meaning(self) -> str | None:
        """What ``landed_at`` is: the first sighting, or only "by then" when the repo was
        already listed at its watch's first check; None when not landed."""
        if not self.landed:
            return None
        return (
            "first seen at the first check (landed earlier)"
            if self.at_first_check
            else "first seen"
        )

    def to_dict(self) -> dict[str, Any]:
        def iso(t: dt.datetime | None) -> str | None:
            return iso_z(t) or None

        return {
            "subject": self.slug,
            "name": self.name,
            "weights": self.weights_word,
            # null with "unknown": neither yes nor no is known
            "landed": None if self.weights_word == "unknown" else self.landed,
            "repo": self.repo,
            "landed_at": iso(self.landed_at),
            "landed_at_meaning": self.landed_at_meaning,
            "repo_created": self.repo_created,
            "license": self.license,
            "license_spdx": self.license_spdx,
            "license_link": self.license_link,
            "license_link_kind": self.license_link_kind,
            "license_note": self.license_note,
            "license_source": self.license_source,
            "license_read_at": iso(self.license_read_at),
            # as the Hub's API gives it: false, "auto" or "manual" (null: never read)
            "gated": gated_value(self.gated),
            "gated_read_at": iso(self.gated_read_at),
            "landed_after": iso(self.landed_after),
            "promises": [
                {
                    "date": p.date,
                    "relation": p.relation,
                    # the bare name (the quotes of titles in sentences are presentation)
                    "source": p.source_plain or p.source,
                    "source_key": p.source_key or None,
                    "claimant": p.claimant,
                    "qualifiers": dict(p.qualifiers),
                    # the last day that keeps it; days_overdue counts from its end
                    "deadline": iso_date(p.deadline()),
                    "days_overdue": None if self.landed else p.days_overdue(self.as_of),
                }
                for p in self.promises
            ],
            "overdue_days": self.overdue_days,
            # overdue_days counts from the end of the latest promised deadline
            "overdue_from": self.latest_deadline,
            "as_of": iso(self.as_of),
            "watched": self.watched,
            "retired": self.retired,
            # whether the latest check of a watch showing the weights failed; the
            # answers above stay those of the last successful check (``as_of``)
            "last_check_failed": self.last_failure is not None,
            "last_failure": None
            if self.last_failure is None
            else {
                "at": iso(self.last_failure.at),
                "kind": self.last_failure.kind,
                "error": self.last_failure.error,
                "watch": self.last_failure.watch,
                "failures_in_a_row": self.last_failure.failures,
                "next_retry": iso(self.next_retry),
                "scheduler_running": self.scheduler_running,
            },
            "landed_late_days": self.landed_late_days,
            # null unless the weights were public and are no longer ("withdrawn")
            "withdrawn": None
            if not self.withdrawn
            else {
                "since": iso(self.withdrawn_since),
                "last_seen_public": iso(self.last_seen_public),
                "alert": self.withdrawn_alert,
            },
        }


def weights_status(db: Any, subject: Subject | SubjectRow) -> WeightsStatus:
    """Compute :class:`WeightsStatus` for ``subject`` from the database (``db``: an ORM
    ``Session`` or a :class:`~claims.store.rawdb.RawDB`, see :func:`weights_statuses`)."""
    return weights_statuses(db, [subject])[subject.id]


def weights_statuses(
    db: Any, subjects: Sequence[Subject | SubjectRow]
) -> dict[int | None, WeightsStatus]:
    """:class:`WeightsStatus` of each of ``subjects`` (ORM rows or
    :class:`~claims.store.rows.SubjectRow` s) by id, from one read of each table.

    ``db`` is an ORM ``Session`` or a :class:`~claims.store.rawdb.RawDB`: the reads are
    plain SQL either way (:mod:`claims.store.rows`), so ``tracker build`` needs no ORM.
    Why a batch: the site shows every subject's status, and reading observations,
    watches and aliases once per subject made the build quadratic (issue 7)."""
    raw = reader(db)
    wanted = {s.id for s in subjects}
    observations = read_rows(raw, ObservationRow, "ORDER BY id")
    weights_obs, access = _hub_observations(observations, wanted)
    landings = landing_events(raw, wanted)
    gone = _gone_events(raw, wanted)
    sources = read_rows(raw, SourceRow)
    names = source_names(sources)  # as reasons name them
    plain = {s.id: (plain_name(s), s.key) for s in sources}
    promises: dict[int, list[ClaimRow]] = defaultdict(list)
    for claim in read_rows(
        raw,
        ClaimRow,
        "WHERE attribute = 'weights_release_date' "
        "AND source_id IN (SELECT id FROM source) ORDER BY id",
    ):
        promises[claim.subject_id].append(claim)
    own: dict[int, list[Any]] = defaultdict(list)
    for ov in observation_views(observations):
        own[ov.subject_id].append(ov)
    watches = read_rows(raw, WatchRow, "ORDER BY id")
    aliases: dict[int, list[AliasRow]] = defaultdict(list)
    for a in read_rows(raw, AliasRow):
        aliases[a.subject_id].append(a)
    first_seen_of: dict[int | None, list[dt.datetime]] = defaultdict(list)
    for o in observations:
        first_seen_of[o.watch_id].append(o.first_seen)

    out: dict[int | None, WeightsStatus] = {}
    for subject in subjects:
        status = WeightsStatus(slug=subject.slug, name=subject.name, landed=False)
        sid: int = subject.id  # type: ignore[assignment]
        landed = [o for o in weights_obs[sid] if o.value.value is True]
        if landed and not any(o.current for o in landed):
            _read_withdrawn(status, landed, gone.get(sid, []))
        elif landed:
            first = min(landed, key=lambda o: o.first_seen)
            status.landed = True
            status.repo = first.qualifiers.get("repo")
            status.landed_at = first.first_seen
            _judge_landing(
                status, first_seen_of.get(first.watch_id, []), landings.get((sid, status.repo))
            )
            created = first.value.extra.get("created_at")
            status.repo_created = str(created)[:10] if created else None
        _read_access(status, *(access[a][sid] for a in _ACCESS))
        status.promises = _promises_of(promises[sid], names, plain)
        _read_checks(status, hub_watches_of(subject, own[sid], watches, aliases[sid]))
        # Promises about the model itself (a variant's own date is not the model's), with
        # a deadline ("after D" has none).
        ends = [d for p in status.promises if not p.qualifiers and (d := p.deadline())]
        if status.landed and ends and not status.at_first_check:
            assert status.landed_at is not None
            status.landed_late_days = days_past(max(ends), status.landed_at)
        if not status.landed and not status.withdrawn and ends:
            status.latest_deadline = max(ends).isoformat()
            status.overdue_days = days_past(max(ends), status.as_of)
        out[subject.id] = status
    return out


Grouped = dict[int, list[ObservationRow]]


def iso_date(d: dt.date | None) -> str | None:
    """``2026-11-04`` (None stays None)."""
    return d.isoformat() if d is not None else None


def _promises_of(
    rows: Sequence[ClaimRow], names: dict[Any, str], plain: dict[Any, tuple[str, str]]
) -> list[Promise]:
    """The :class:`Promise` of each ``weights_release_date`` claim, by date, relation
    and source (``names``: source id -> name; ``plain``: source id -> (plain name, key))."""
    out = []
    for claim in rows:
        v = claim.value
        bare, key = plain[claim.source_id]
        out.append(Promise(str(v.value), str(v.relation), names[claim.source_id],
                           claim.claimant, claim.id, claim.qualifiers, bare, key))  # fmt: skip
    return sorted(out, key=lambda p: (p.date, p.relation, p.source))


def _read_withdrawn(
    status: WeightsStatus,
    landed: Sequence[ObservationRow],
    told: Sequence[tuple[dt.datetime, str, str]],
) -> None:
    """``withdrawn`` and its times for a subject whose every weights sighting is no
    longer current: the repo last seen, when, and the latest ``repo_disappeared`` of it
    after that (``told``: (time, repo, title) of the subject's events)."""
    last = max(landed, key=lambda o: as_utc(o.last_seen))
    status.withdrawn = True
    status.repo = last.qualifiers.get("repo")
    status.last_seen_public = as_utc(last.last_seen)
    repo = (status.repo or "").lower()
    after = [t for t in told if t[1].lower() == repo and t[0] >= status.last_seen_public]
    if after:
        status.withdrawn_since, _repo, status.withdrawn_alert = max(after)


def _read_checks(status: WeightsStatus, covering: Sequence[WatchRow]) -> None:
    """``watched``, ``retired``, ``as_of`` and ``last_failure`` of ``status`` from the
    watches that would show its weights (retired ones included: their last success
    still says "as of")."""
    live = [w for w in covering if w.state != RETIRED_STATE]
    status.watched = bool(live)
    status.retired = bool(covering) and not live
    known = [as_utc(w.last_success) for w in covering if w.last_success is not None]
    status.as_of = max(known) if known else None
    status.last_failure = _last_failure(live)


def _last_failure(watches: Sequence[WatchRow]) -> CheckFailure | None:
    """The latest failure among ``watches`` whose last check failed (``consecutive_failures``
    > 0, with the row's ``last_run``, ``last_error_kind``, ``last_error``), or None. A
    failure an earlier success or a re-activation cleared is not current, and a skipped
    watch did not fail."""
    failed = [
        w
        for w in watches
        if w.consecutive_failures > 0
        and w.last_error
        and w.last_run is not None
        and w.last_error_kind != SKIPPED_KIND
    ]
    if not failed:
        return None
    w = max(failed, key=lambda w: as_utc(w.last_run))  # type: ignore[arg-type]
    return CheckFailure(
        as_utc(w.last_run),  # type: ignore[arg-type]
        w.last_error_kind or "error",
        str(w.last_error),
        w.name,
        w.consecutive_failures,
    )


_ACCESS = ("license", "gated", "license_text_sha256")


def _hub_observations(
    observations: Sequence[ObservationRow], wanted: set[int | None]
) -> tuple[Grouped, dict[str, Grouped]]:
    """Per subject of ``wanted``: every ``weights_available`` observation, and the
    current ``license``, ``gated`` and ``license_text_sha256`` ones (by attribute), in
    the order of ``observations`` (by id)."""
    weights: Grouped = defaultdict(list)
    access: dict[str, Grouped] = {a: defaultdict(list) for a in _ACCESS}
    for o in observations:
        if o.subject_id not in wanted:
            continue
        if o.attribute == "weights_available":
            weights[o.subject_id].append(o)
        elif o.current and o.attribute in access:
            access[o.attribute][o.subject_id].append(o)
    return weights, access


def _judge_landing(
    status: WeightsStatus,
    same_watch: Sequence[dt.datetime],
    told: tuple[str, dict[str, Any]] | None,
) -> None:
    """Set ``at_first_check`` (and ``landed_after``) of a landed ``status`` by the one
    landing window (:func:`claims.verify.promises.landed_at_first_look`)."""
    assert status.landed_at is not None
    first = min((as_utc(t) for t in same_watch), default=None)
    status.at_first_check, after = landed_at_first_look(status.landed_at, first, told)
    if after is not None:
        status.landed_after = after


def _read_access(
    status: WeightsStatus,
    licences: Sequence[ObservationRow],
    gated: Sequence[ObservationRow],
    texts: Sequence[ObservationRow] = (),
) -> None:
    """The latest current licence (SPDX id, link: :func:`_license_link`) and gating of a
    subject, each with when it was last read."""
    if licences:
        latest = max(licences, key=lambda o: as_utc(o.last_seen))
        status.license = str(latest.value.value)
        status.license_source = latest.source_url or "observed"
        status.license_read_at = as_utc(latest.last_seen)
        status.license_spdx = spdx_id(status.license)
        link = _license_link(latest, texts)
        status.license_link, status.license_link_kind = link.url, link.kind
        status.license_note = link.note
    if gated:
        latest = max(gated, key=lambda o: as_utc(o.last_seen))
        status.gated, status.gated_read_at = str(latest.value.value), as_utc(latest.last_seen)


def _license_link(licence: ObservationRow, texts: Sequence[ObservationRow]) -> LicenseLink:
    """:func:`claims.readings.licenses.license_link` of a licence observation: the
    licence file its repo's file listing showed (``extra.license_file``, read by the
    model adapter), else the one a watch fetched for the same repo (a current
    ``license_text_sha256`` read from ``.../resolve/REV/LICENSE``)."""
    repo = licence.qualifiers.get("repo")
    extra = licence.value.extra
    file = extra.get("license_file")
    if not file:
        fetched = [t.source_url for t in texts
                   if t.qualifiers.get("repo") == repo and t.source_url]  # fmt: skip
        file = next((str(u).rsplit("/", 1)[-1] for u in fetched if "/resolve/" in str(u)), None)
    return license_link(str(licence.value.value), repo, file,
                        files_listed=bool(extra.get("files_listed")))  # fmt: skip


def _gone_events(
    raw: RawDB, wanted: set[int | None]
) -> dict[int, list[tuple[dt.datetime, str, str]]]:
    """subject id -> (time, repo, title) of each of its ``repo_disappeared`` events."""
    import json

    out: dict[int, list[tuple[dt.datetime, str, str]]] = defaultdict(list)
    for ev in read_rows(raw, EventRow, "WHERE kind = 'repo_disappeared'"):
        if ev.subject_id not in wanted or ev.subject_id is None:
            continue
        repo = json.loads(ev.detail_json).get("qualifiers", {}).get("repo", "")
        out[ev.subject_id].append((ev.created_at, str(repo), ev.title))
    return out


def landing_events(
    raw: RawDB, wanted: set[int | None]
) -> dict[tuple[int, str | None], tuple[str, dict[str, Any]]]:
    """(subject id, repo) -> (kind, detail) of the first ``weights_landed`` or first-check
    ``subject_discovered`` event: how the cycle judged the repo's first sighting."""
    import json

    out: dict[tuple[int, str | None], tuple[str, dict[str, Any]]] = {}
    for ev in read_rows(
        raw, EventRow, "WHERE kind IN ('weights_landed', 'subject_discovered') ORDER BY id"
    ):
        if ev.subject_id not in wanted or ev.subject_id is None:
            continue
        detail = json.loads(ev.detail_json)
        if ev.kind == "subject_discovered" and not detail.get("at_first_check"):
            continue
        out.setdefault((ev.subject_id, detail.get("repo")), (ev.kind, detail))
    return out
