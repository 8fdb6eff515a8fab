"""The one documented list of event kinds, and how an event gets its stable key.

Subscriber events tell users about releases; operator events tell whoever runs the
tracker about its watches. An event's key hashes what it says, so a re-run, a
restart or a second process never records (or alerts) the same thing twice.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claims.values.canonical import dumps, utcnow
from claims.values.timefmt import utc_minute
from claims.vocabulary import attribute_label, label_from, qualifiers_text

# kind -> (audience, one-line meaning)
EVENT_KINDS: dict[str, tuple[str, str]] = {
    "value_changed": (
        "subscriber",
        "an observed value changed (price, licence, context, params...)",
    ),
    "subject_discovered": (
        "subscriber",
        "weights found: a repo already listed at its watch's first check (when it landed "
        "is unknown), or another weights repo of a subject that has one",
    ),
    "weights_landed": ("subscriber", "weights of a subject became available on a hub"),
    "license_observed": (
        "subscriber",
        "a repo's licence or access (gated) was read for the first time",
    ),
    "license_changed": ("subscriber", "a subject's licence id or LICENSE text changed"),
    "price_changed": ("subscriber", "an input or output price changed"),
    "verdict_changed": (
        "subscriber",
        "a claim's verdict changed status (a first verdict only when disputed, contradicted or overdue)",
    ),
    "discrepancy_opened": (
        "subscriber",
        "a discrepancy opened: sources disagree, or an observation contradicts a claim",
    ),
    "discrepancy_resolved": (
        "subscriber",
        "a discrepancy was settled (by an observation, or its claims corrected)",
    ),
    "discrepancy_dismissed": ("subscriber", "a reviewer dismissed a discrepancy, with a note"),
    "repo_disappeared": (
        "subscriber",
        "a previously listed repo is no longer publicly visible: private or removed (history is kept)",
    ),
    "repo_renamed": (
        "subscriber",
        "a weights repo was renamed or transferred (one entity; the old id stays an alias)",
    ),
    "watch_failing": (
        "operator",
        "a watch failed N times in a row; its last good value stays current",
    ),
    "watch_recovered": ("operator", "a failing watch works again"),
    "extraction_failed": ("operator", "a page was fetched but its selector/format yielded nothing"),
    "runs_missed": (
        "operator",
        "a scheduler was down or a run overran: one catch-up run replaced N scheduled runs",
    ),
}

# Labels for people (site, alerts); JSON, CSV and feeds keep the kind names.
# One entry per EVENT_KINDS key (tests/test_vocabulary.py checks both lists match).
EVENT_LABELS: dict[str, str] = {
    "value_changed": "Value changed",
    # the tracker finds weights of the subjects it is given; it discovers no subjects
    "subject_discovered": "Weights found",
    "weights_landed": "Weights landed",
    "license_observed": "Licence read",
    "license_changed": "Licence changed",
    "price_changed": "Price changed",
    "verdict_changed": "Verdict changed",
    "discrepancy_opened": "Discrepancy opened",
    "discrepancy_resolved": "Discrepancy resolved",
    "discrepancy_dismissed": "Discrepancy dismissed",
    "repo_disappeared": "Repo disappeared",
    "repo_renamed": "Repo renamed",
    "watch_failing": "Watch failing",
    "watch_recovered": "Watch recovered",
    "extraction_failed": "Extraction failed",
    "runs_missed": "Runs missed",
}


# Observed attributes whose change has a kind of its own (subscribers follow prices and
# licences by kind, docs/alerts.md); any other attribute's change is ``value_changed``.
PRICE_ATTRIBUTES: tuple[str, ...] = ("price_input_usd_per_mtok", "price_output_usd_per_mtok")
LICENSE_ATTRIBUTES: tuple[str, ...] = ("license", "license_text_sha256")


def value_change_event(
    subject: str,
    attribute: str,
    qualifiers: dict[str, str],
    old: str,
    new: str,
    where: str,
) -> tuple[str, str]:
    """(kind, title) of an observed value that changed from ``old`` to ``new`` (display
    text; for ``license_text_sha256`` the two texts' sizes, ``201`` and ``212 lines``, or empty when
    unknown: never the hashes, which say nothing to people): ``price_changed`` for a price, ``license_changed`` for a licence id or
    LICENSE text (a new text hash under the same id is a licence change too, issue 5;
    ``where`` names the repo or watch), else ``value_changed``. Titles read in words
    (``Kimi K3.1 Pro: Output price [variant: Highspeed] changed from $10.00 … to …``)."""
    if attribute == "license_text_sha256":  # old/new: "201", "212 lines" (or empty)
        sizes = f" ({new}, was {old})" if old and new else f" ({new})" if new else ""
        return "license_changed", f"{subject}: the LICENSE file of {where} changed{sizes}"
    kind = (
        "price_changed"
        if attribute in PRICE_ATTRIBUTES
        else "license_changed"
        if attribute in LICENSE_ATTRIBUTES
        else "value_changed"
    )
    q = f" [{qualifiers_text(qualifiers)}]" if qualifiers else ""
    return kind, f"{subject}: {attribute_label(attribute)}{q} changed from {old} to {new}"


def license_file_change(
    repo: str, old_lines: int | None, new_lines: int | None, license_id: str | None
) -> str:
    """The words of a LICENSE file change (its event's ``summary``): ``the LICENSE file of
    ORG/NAME changed (212 lines, was 201); licence id apache-2.0 as read in the same
    check`` (the id part only when one was read; a changed id is a ``license_changed`` of
    its own)."""
    size = ""
    if new_lines is not None:
        size = f" ({new_lines} lines" + (f", was {old_lines})" if old_lines is not None else ")")
    read = f"; licence id {license_id} as read in the same check" if license_id else ""
    return f"the LICENSE file of {repo} changed{size}{read}"


# A discrepancy first found already settled (never open) is stored as a
# ``discrepancy_resolved`` marked ``found_settled`` (its kind and key stay: feeds and
# alerts know it by them), but it was never announced open, so readers (site, feeds,
# alerts, the demo's summary) see it as a kind of its own, never as "resolved".
FOUND_SETTLED = "discrepancy_found_settled"
# A verdict's first status (``verdict_changed`` from no verdict) is not a change.
FIRST_VERDICT = "verdict_first"
READER_LABELS: dict[str, str] = {
    FOUND_SETTLED: "Disagreement already settled",
    FIRST_VERDICT: "First verdict",
}
FOUND_SETTLED_TEXT = "sources disagreed; already settled by an observation, never open"
# what titles stored before said (they stay in old databases; readers see the new words)
_OLD_SETTLED_SUFFIX = " (resolved) (found settled: never open)"


def reader_kind(kind: str, detail: Mapping[str, Any]) -> str:
    """The kind people read an event as: :data:`FOUND_SETTLED` for a
    ``discrepancy_resolved`` whose ``detail`` says ``found_settled``; :data:`FIRST_VERDICT`
    for a ``verdict_changed`` whose ``detail`` has a ``to`` and a null ``from``; else
    ``kind``."""
    if kind == "discrepancy_resolved" and detail.get("found_settled") is True:
        return FOUND_SETTLED
    if kind == "verdict_changed" and "to" in detail and detail.get("from") is None:
        return FIRST_VERDICT
    return kind


def settled_never_opened(events: Iterable[tuple[str, Mapping[str, Any]]]) -> set[str]:
    """Keys of the discrepancies found already settled and never opened, from events as
    (kind, detail): announced by a ``discrepancy_resolved`` marked ``found_settled``
    and by no ``discrepancy_opened`` (one reopened later is an ordinary discrepancy).
    The site, ``tracker discrepancies`` and ``tracker review`` word these "already
    settled" (:data:`ALREADY_SETTLED`), never "resolved"."""
    settled, opened = set(), set()
    for kind, detail in events:
        if kind == "discrepancy_opened":
            opened.add(detail.get("discrepancy"))
        elif reader_kind(kind, detail) == FOUND_SETTLED:
            settled.add(detail.get("discrepancy"))
    return {k for k in settled - opened if isinstance(k, str)}


# How a discrepancy found already settled is named where a state is shown (stored state
# ``resolved``): the site, `tracker discrepancies`, `tracker review`.
ALREADY_SETTLED = "already settled"


def found_settled_title(title: str) -> str:
    """A found-settled discrepancy's title from :func:`claims.store.verification.discrepancy_title`
    (ends ``(resolved)``) or as stored by older versions (ends ``(resolved) (found settled:
    never open)``): ``… (sources disagreed; already settled by an observation, never open)``."""
    for end in (_OLD_SETTLED_SUFFIX, " (resolved)"):
        if title.endswith(end):
            title = title.removesuffix(end)
            break
    return f"{title} ({FOUND_SETTLED_TEXT})"


def reader_title(kind: str, title: str, detail: Mapping[str, Any]) -> str:
    """The title people read: the stored one, except a found-settled discrepancy's, which
    :func:`found_settled_title` words (also for titles stored with the old words)."""
    if reader_kind(kind, detail) == FOUND_SETTLED and not title.endswith(f"({FOUND_SETTLED_TEXT})"):
        return found_settled_title(title)
    return title


def event_label(kind: str) -> str:
    """``verdict_changed`` -> ``Verdict changed`` (also a :func:`reader_kind`:
    ``Disagreement already settled``); an unknown kind reads with spaces."""
    if kind in READER_LABELS:
        return READER_LABELS[kind]
    return label_from(EVENT_LABELS, kind, capital=True)


def audience_of(kind: str) -> str:
    """``subscriber`` or ``operator``; raises KeyError for an unknown kind."""
    return EVENT_KINDS[kind][0]


def event_key(
    kind: str, subject_id: int | None, watch_id: int | None, detail: dict[str, Any]
) -> str:
    """sha256 of the event's content (kind, subject, watch, detail) as canonical JSON."""
    payload = dumps({"kind": kind, "subject": subject_id, "watch": watch_id, "detail": detail})
    return hashlib.sha256(payload.encode()).hexdigest()


def event_row(
    kind: str,
    title: str,
    *,
    subject_id: int | None = None,
    watch_id: int | None = None,
    detail: dict[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> dict[str, Any]:
    """The columns of one ``event`` row (``key``, ``kind``, ``audience``, ``subject_id``,
    ``watch_id``, ``title``, ``detail_json``, ``created_at``) as a plain dict, for writers
    that do not use the ORM (the watch cycle). Raises KeyError for unknown kinds.

    ``detail`` must say what changed, e.g. ``{"attribute": ..., "from": ..., "to": ...}``;
    include whatever makes two distinct happenings distinct (e.g. the snapshot sha256).
    ``at`` (aware UTC) is when it happened: the fetch that observed it, the verification
    run's time; default now. A replayed recording's events then carry its time.
    """
    if kind not in EVENT_KINDS:
        raise KeyError(f"unknown event kind {kind!r}")
    detail = detail or {}
    return {
        "key": event_key(kind, subject_id, watch_id, detail),
        "kind": kind,
        "audience": audience_of(kind),
        "subject_id": subject_id,
        "watch_id": watch_id,
        "title": title,
        "detail_json": dumps(detail),
        "created_at": at or utcnow(),
    }


# -- rules: observations before/after in, events out ------------------------------------
#
# Pure functions that decide which subscriber events one recorded watch check means.
# The cycle (tracker/cycle/observe.py, change_rules.py) reads what they need from the
# database and writes what they return; tests call them directly, one per path.

# A watch's last error of one of these kinds said the repo was not publicly there (a
# promised repo answers 404 until launch), so its first success afterwards is a landing.
NOT_PUBLIC_KINDS = frozenset(
    {"not_found", "missing_or_private", "unauthorized", "gated", "not_public"}
)


@dataclass(frozen=True)
class EventSpec:
    """An event a rule decided: ``kind``, ``title`` and ``detail`` (made a row with the
    subject, watch and time by :func:`event_row`). ``per_watch`` False: the event is
    about the subject whichever watch saw it (stored with no watch, so two watches that
    see one rename record it once)."""

    kind: str
    title: str
    detail: dict[str, Any]
    per_watch: bool = True


@dataclass(frozen=True)
class WatchHistory:
    """What one watch had done before the check being recorded: its previous successful
    check (None: this is its first) and the kind of its last error since then."""

    previous_success: dt.datetime | None = None
    last_error_kind: str | None = None

    @property
    def knew_before(self) -> bool:
        """True when the watch had looked before and seen no such repo: a successful
        check, or an answer that the repo was not publicly there (404 until launch)."""
        return self.previous_success is not None or self.last_error_kind in NOT_PUBLIC_KINDS

    def joined(
        self, others: Iterable[tuple[dt.datetime | None, str | None]], before: dt.datetime
    ) -> WatchHistory:
        """This history together with the subject's other Hub watches' (``others``: each
        one's last successful check and last error kind): the latest successful check of
        ANY of them before ``before`` bounds a landing, whichever watch reports it first
        in a cycle (an org listing that was empty at 18:00 bounds a repo its model watch
        sees at 06:00). A repo one of them had seen is no landing (the caller's
        ``known_repos``), so every check counted here did not see it."""
        best, kind = self.previous_success, self.last_error_kind
        for at, other_kind in others:
            if at is not None and at < before and (best is None or at > best):
                best = at
            if other_kind in NOT_PUBLIC_KINDS and kind not in NOT_PUBLIC_KINDS:
                kind = other_kind
        return WatchHistory(best, kind)


@dataclass(frozen=True)
class Promise:
    """A stated open-weights date: ``relation`` (on / before / by / after), ``date``
    (ISO day or month) and its ``deadline``, the last day that keeps it (None for
    "after D"; the caller computes it with :func:`claims.verify.promises.deadline_of`),
    e.g. ``Promise("before", "2026-11-04", date(2026, 11, 3))``."""

    relation: str
    date: str
    deadline: dt.date | None


@dataclass(frozen=True)
class WeightsSighting:
    """A subject's weights repo seen now by one watch (``weights_available = true``).

    ``known_repos``: repos of the subject any watch had already seen with weights
    (``created`` maps those with a Hub ``createdAt`` to it); ``renamed_from``: the id
    the watch asked for when the Hub answered with this one (a redirect, cases/C34);
    ``license`` / ``gated``: read in the same cycle from the repo's model info, or None;
    ``promises``: the subject's model-level promised dates; ``url``: the repo's page,
    which a landing event links."""

    subject: str
    repo: str
    seen_at: dt.datetime
    created_at: str | None = None
    license: str | None = None
    gated: str | None = None
    known_repos: tuple[str, ...] = ()
    created: Mapping[str, str] = field(default_factory=dict)
    renamed_from: str | None = None
    promises: tuple[Promise, ...] = ()
    url: str | None = None  # the repo's page (``https://huggingface.co/ORG/NAME``)


def recovered_event(
    watch_id: int, watch: str, failing_since: dt.datetime | None, at: dt.datetime
) -> dict[str, Any]:
    """The ``watch_recovered`` row (:func:`event_row`) for watch ``watch`` (id
    ``watch_id``), failing since ``failing_since`` (aware UTC, or None when not stored),
    answering again at ``at``: every way a check can succeed sends this one."""
    detail = {
        "watch": watch,
        "failing_since": failing_since.isoformat() if failing_since else None,
        "recovered_at": at.isoformat(),
    }
    return event_row(
        "watch_recovered", f"Watch {watch} works again", watch_id=watch_id, detail=detail, at=at
    )


def lateness(seen: dt.date, promises: Sequence[Promise]) -> list[dict[str, Any]]:
    """How late weights first seen on ``seen`` are against each promise with a deadline,
    e.g. ``{"promise": "before 2026-11-04", "deadline": "2026-11-03", "days_late": 27,
    "text": "27 days after the promised before 2026-11-04"}`` (``on`` and ``by`` read
    as the date alone: "27 days after the promised 2026-11-04"); ``days_late`` 0 and
    "on time for ..." when kept. A promise without a deadline ("after D") is left out."""
    out = []
    for p in promises:
        end = p.deadline
        if end is None:
            continue
        late = max(0, (seen - end).days)
        said = f"{p.relation} {p.date}" if p.relation in ("before", "after") else p.date
        text = f"{late} days after the promised {said}" if late else f"on time for {said}"
        out.append(
            {"promise": f"{p.relation} {p.date}", "deadline": end.isoformat(),
             "days_late": late, "text": text}
        )  # fmt: skip
    return out


def _access_text(license_id: str | None, gated: str | None) -> str:
    """``licence apache-2.0, gated (manual)``; empty when neither was read."""
    parts = []
    if license_id:
        parts.append(f"licence {license_id}")
    if gated:
        parts.append("not gated" if gated == "false" else f"gated ({gated})")
    return ", ".join(parts)


def weights_events(s: WeightsSighting, history: WatchHistory) -> list[EventSpec]:
    """What a new ``weights_available = true`` row means (issue 16, item 3).

    - the repo was already seen by another watch: nothing (one entity, one event);
    - it is a known repo under a new id (``renamed_from`` is known, or its ``createdAt``
      equals a known repo's): one ``repo_renamed`` (cases/C34: not "removed" + "new");
    - the subject already has another repo: ``subject_discovered`` (a new weights repo);
    - the watch had looked before (a successful check, or "not found" since):
      ``weights_landed``, landed between the previous check and ``seen_at``, with the
      licence and gating read in the same cycle and the lateness against each promise;
    - else (listed at the watch's first successful check): ``subject_discovered``,
      since when it landed is unknown.
    """
    if s.repo in s.known_repos:
        return []
    old = s.renamed_from if s.renamed_from in s.known_repos else None
    if old is None and s.created_at:
        old = next((r for r in s.known_repos if s.created.get(r) == s.created_at), None)
    if old is not None:
        moved = {"from": old, "to": s.repo, "seen_at": s.seen_at.isoformat()}
        title = f"{s.subject}: weights repo {old} is now {s.repo} (renamed or transferred)"
        return [EventSpec("repo_renamed", title, moved, per_watch=False)]
    detail: dict[str, Any] = {"repo": s.repo, "first_seen": s.seen_at.isoformat()}
    if s.created_at:
        detail["created_at"] = s.created_at
    if s.known_repos:
        return [EventSpec("subject_discovered", f"{s.subject}: new weights repo {s.repo}", detail)]
    if not history.knew_before:
        since = f" (repo created {s.created_at[:10]})" if s.created_at else ""
        detail["at_first_check"] = True
        detail["summary"] = f"{s.repo} was already listed at the first check{since}"
        title = f"{s.subject}: weights already on Hugging Face at the first check ({s.repo})"
        return [EventSpec("subject_discovered", title, detail)]
    if s.url:
        detail["url"] = s.url
    if history.previous_success is not None:
        detail["previous_check"] = history.previous_success.isoformat()
    else:  # the watch's last answer: not publicly there (404 until launch)
        detail["not_public_before"] = True
    for key, value in (("license", s.license), ("gated", s.gated)):
        if value is not None:
            detail[key] = value
    late = lateness(s.seen_at.date(), s.promises)
    if late:
        detail["lateness"] = late
    extra = "; ".join(
        t for t in (_access_text(s.license, s.gated), *(x["text"] for x in late)) if t
    )
    # what the site, feeds and alerts say beside the title (tracker/website/eventtext.py):
    # first seen, the check before, licence and gating (or that they are not read), lateness
    before = (
        f"the check before {utc_minute(history.previous_success)}"
        if history.previous_success is not None
        else "not public at the check before"
    )
    told = [
        f"first seen {utc_minute(s.seen_at)} ({before})",
        _access_text(s.license, s.gated) or "licence and gating not read yet",
        *(x["text"] for x in late),
    ]
    detail["summary"] = f"{s.repo}: " + "; ".join(told)
    title = f"{s.subject}: weights available on Hugging Face ({s.repo})"
    return [EventSpec("weights_landed", title + (f"; {extra}" if extra else ""), detail)]


def first_reading_event(
    subject: str, repo: str, readings: Mapping[str, str], at: dt.datetime
) -> EventSpec | None:
    """``license_observed`` for a repo's licence and/or access state (``gated``: false,
    auto, manual) read for the first time (``readings``: attribute -> value, only the
    first-time ones); None when there are none. A later change of either is a
    ``license_changed`` / ``value_changed`` (:func:`value_change_event`), not this."""
    lic, gated = readings.get("license"), readings.get("gated")
    if lic is None and gated is None:
        return None
    said = _access_text(lic, gated)
    detail = {"repo": repo, "observed_at": at.isoformat(), **dict(sorted(readings.items())),
              "summary": f"{repo}: {said}"}  # fmt: skip
    return EventSpec("license_observed", f"{subject}: {said} ({repo})", detail)


def gone_event(
    subject: str,
    what: str,
    where: str,
    attribute: str,
    qualifiers: Mapping[str, str],
    last_seen: dt.datetime,
    missing_at: dt.datetime,
    renamed_to: str | None = None,
) -> EventSpec | None:
    """``repo_disappeared`` for a repo (``what``; or the attribute) no longer publicly
    there: a complete listing no longer shows it, or its model page answers 404 after
    it was seen public. ``where`` says how, in the Hub's own names, never a watch's
    (``no longer listed in the Hugging Face org auralis``). None when the repo was
    renamed or transferred (``renamed_to``: its new id; one ``repo_renamed`` says so,
    cases/C34). Never "deleted": it may be private or removed."""
    if renamed_to is not None:
        return None
    detail = {
        "attribute": attribute,
        "qualifiers": dict(qualifiers),
        "last_seen": last_seen.isoformat(),
        "missing_at": missing_at.isoformat(),
        "summary": f"{what}: {where}; last seen public {utc_minute(last_seen)} "
        "(private or removed; its history is kept)",
    }
    return EventSpec("repo_disappeared", f"{subject}: {what} is {where}", detail)


def reappeared_event(
    subject: str, repo: str, at: dt.datetime, gone_since: dt.datetime | None, url: str | None
) -> EventSpec:
    """``weights_landed`` for a repo public again after it was gone (a ``repo_disappeared``
    since its last sighting): the weights are landed again from ``at``."""
    since = f" (gone since {utc_minute(gone_since)})" if gone_since else ""
    detail: dict[str, Any] = {
        "repo": repo,
        "first_seen": at.isoformat(),
        "reappeared": True,
        "summary": f"{repo} is public again{since}",
    }
    if gone_since is not None:
        detail["gone_since"] = gone_since.isoformat()
    if url:
        detail["url"] = url
    return EventSpec("weights_landed", f"{subject}: weights public again on Hugging Face ({repo})",
                     detail)  # fmt: skip
