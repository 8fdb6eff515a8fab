"""The one documented list of event kinds, and how an event gets its stable key.

Subscriber events tell users about releases; operator events tell whoever runs the
tracker about its watches. An event's key hashes what it says, so a re-run, a
restart or a second process never records (or alerts) the same thing twice.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import TYPE_CHECKING, Any

from claims.values.canonical import dumps, utcnow
from claims.vocabulary import attribute_label, label_from, qualifiers_text

if TYPE_CHECKING:
    from claims.store.tables import Event

# kind -> (audience, one-line meaning)
EVENT_KINDS: dict[str, tuple[str, str]] = {
    "value_changed": (
        "subscriber",
        "an observed value changed (price, licence, context, params...)",
    ),
    "subject_discovered": (
        "subscriber",
        "a watched source shows a subject for the first time (e.g. weights repo appeared)",
    ),
    "weights_landed": ("subscriber", "weights of a subject became available on a hub"),
    "license_changed": ("subscriber", "a subject's licence id or LICENSE text changed"),
    "price_changed": ("subscriber", "an input or output price changed"),
    "verdict_changed": (
        "subscriber",
        "a claim's verdict changed status (a first verdict only when disputed, contradicted or overdue)",
    ),
    "discrepancy_opened": (
        "subscriber",
        "sources started to disagree (a claim an observation contradicts: its verdict_changed)",
    ),
    "discrepancy_resolved": (
        "subscriber",
        "a discrepancy was settled (by an observation, or its claims corrected)",
    ),
    "discrepancy_dismissed": ("subscriber", "a reviewer dismissed a discrepancy, with a note"),
    "repo_disappeared": (
        "subscriber",
        "a previously listed repo is gone or private (history is kept)",
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
    "subject_discovered": "Subject discovered",
    "weights_landed": "Weights landed",
    "license_changed": "Licence changed",
    "price_changed": "Price changed",
    "verdict_changed": "Verdict changed",
    "discrepancy_opened": "Discrepancy opened",
    "discrepancy_resolved": "Discrepancy resolved",
    "discrepancy_dismissed": "Discrepancy dismissed",
    "repo_disappeared": "Repo disappeared",
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
    text; for ``license_text_sha256`` the two hex digests): ``price_changed`` for a price, ``license_changed`` for a licence id or
    LICENSE text (a new text hash under the same id is a licence change too, issue 5;
    ``where`` names the repo or watch), else ``value_changed``. Titles read in words
    (``Kimi K3.1 Pro: Output price [variant: Highspeed] changed from $10.00 … to …``)."""
    if attribute == "license_text_sha256":
        return "license_changed", (
            f"{subject}: LICENSE text changed in {where} (sha256 {old[:12]}... -> {new[:12]}...)"
        )
    kind = (
        "price_changed"
        if attribute in PRICE_ATTRIBUTES
        else "license_changed"
        if attribute in LICENSE_ATTRIBUTES
        else "value_changed"
    )
    q = f" [{qualifiers_text(qualifiers)}]" if qualifiers else ""
    return kind, f"{subject}: {attribute_label(attribute)}{q} changed from {old} to {new}"


def event_label(kind: str) -> str:
    """``verdict_changed`` -> ``Verdict changed``; an unknown kind reads with spaces."""
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


def make_event(
    kind: str,
    title: str,
    *,
    subject_id: int | None = None,
    watch_id: int | None = None,
    detail: dict[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> Event:
    """:func:`event_row` as an :class:`~claims.store.tables.Event` (not yet added to a session).
    Raises KeyError for unknown kinds."""
    from claims.store.tables import Event  # the ORM is loaded only by callers that use it

    row = event_row(kind, title, subject_id=subject_id, watch_id=watch_id, detail=detail, at=at)
    return Event(**row)
