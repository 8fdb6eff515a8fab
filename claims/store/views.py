"""Database rows -> read-only views for the verification rules (Claims, Observations)
and the hub watches that say "as of" for a subject's weights promise.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from claims.subjects.sourcenames import source_names
from claims.values.canonical import as_utc
from claims.verify.facts import ClaimView, ObsView
from claims.verify.paramcounts import derive_total_params, effective_value

if TYPE_CHECKING:
    from sqlmodel import Session

    from claims.store.rows import AliasRow, ObservationRow, SubjectRow, WatchRow
    from claims.store.tables import Observation, Subject, SubjectAlias, Watch

# The ORM (sqlmodel, claims.store.tables) is imported by the functions that query
# through a Session: the site build reads through claims.store.rows and calls
# observation_views / hub_watches_of only, without loading it (bench/RESULTS.md).

W = TypeVar("W", "Watch", "WatchRow")  # a watch row, ORM or plain

HUB_ORG_ADAPTER = "huggingface_org"
HUB_MODEL_ADAPTER = "huggingface_model"


def aware(t: dt.datetime | None) -> dt.datetime | None:
    """:func:`claims.store.tables.as_utc` that lets ``None`` through."""
    return None if t is None else as_utc(t)


def load_claims(session: Session) -> list[ClaimView]:
    """Every claim as a :class:`ClaimView` (subject slug, the source's short name for
    reasons, claimant)."""
    from sqlmodel import select

    from claims.store.tables import Claim, Source, Subject

    subjects = {s.id: s.slug for s in session.exec(select(Subject)).all()}
    # Reasons name a source briefly (publisher or site), and two sources differently.
    sources = source_names(session.exec(select(Source)).all())
    out = []
    for c in session.exec(select(Claim).order_by(Claim.id)).all():  # type: ignore[arg-type]
        assert c.id is not None
        out.append(
            ClaimView(
                id=c.id,
                key=c.key,
                subject_id=c.subject_id,
                subject=subjects.get(c.subject_id, str(c.subject_id)),
                attribute=c.attribute,
                value=c.value,
                qualifiers=c.qualifiers,
                source_id=c.source_id,
                source=sources.get(c.source_id, ""),
                claimant=c.claimant,
                stated_date=c.stated_date,
            )
        )
    return out


def load_observations(session: Session) -> list[ObsView]:
    """Every observation with its effective value (:func:`claims.verify.paramcounts.effective_value`),
    plus ``total_params`` views derived from ``hub_params_raw`` + weight bits
    (:func:`claims.verify.paramcounts.derive_total_params`).

    The same value read from the same URL by two watches (e.g. a ``huggingface_config``
    watch and a model watch that also reads that ``config.json``, or a watch removed from
    watches.toml whose rows stay current) is one fact: it is counted once, as the row
    seen last, spanning both rows' first and last seen."""
    from sqlmodel import select

    from claims.store.tables import Observation

    return observation_views(session.exec(select(Observation).order_by(Observation.id)).all())  # type: ignore[arg-type]


def observation_views(rows: Iterable[Observation | ObservationRow]) -> list[ObsView]:
    """:func:`load_observations` over rows already read (ORM or
    :class:`~claims.store.rows.ObservationRow`, in id order)."""
    out: list[ObsView] = []
    same: dict[tuple[object, ...], int] = {}  # (subject, attribute, ..., url) -> index in out
    for o in rows:
        assert o.id is not None
        first, last = aware(o.first_seen), aware(o.last_seen)
        assert first is not None and last is not None
        view = ObsView(
            id=o.id,
            subject_id=o.subject_id,
            attribute=o.attribute,
            value=effective_value(o.attribute, o.value),
            first_seen=first,
            last_seen=last,
            qualifiers=o.qualifiers,
            current=o.current,
            watch_id=o.watch_id,
        )
        key = (o.subject_id, o.attribute, o.qualifiers_json, o.value_key, o.source_url, o.current)
        earlier = same.get(key) if o.source_url else None
        if earlier is None or out[earlier].watch_id == o.watch_id:
            same.setdefault(key, len(out))
            out.append(view)
            continue
        kept = out[earlier]
        newer = view if view.last_seen > kept.last_seen else kept
        out[earlier] = replace(
            newer,
            first_seen=min(kept.first_seen, view.first_seen),
            last_seen=max(kept.last_seen, view.last_seen),
        )
    return out + derive_total_params(out)


def hub_watches(session: Session, subject: Subject, observations: Sequence[ObsView]) -> list[Watch]:
    """Watches that would show the subject's weights: a ``huggingface_org`` watch whose
    ``params.org`` (or ``author``) is the subject's ``hub_org``, or a ``huggingface_model``
    watch whose ``params.repo`` is a ``huggingface`` alias of the subject, a repo
    qualifier of its observations, or that produced one of its observations."""
    from sqlmodel import select

    from claims.store.tables import SubjectAlias, Watch

    aliases = session.exec(select(SubjectAlias).where(SubjectAlias.subject_id == subject.id)).all()
    watches = session.exec(select(Watch).order_by(Watch.id)).all()  # type: ignore[arg-type]
    return hub_watches_of(subject, observations, watches, aliases)


def hub_watches_of(
    subject: Subject | SubjectRow,
    observations: Sequence[ObsView],
    watches: Sequence[W],
    aliases: Sequence[SubjectAlias | AliasRow],
) -> list[W]:
    """:func:`hub_watches` over rows already read (``watches`` in id order, ``aliases``
    of any subjects), so a caller that needs it for every subject reads them once."""
    repos = {
        a.alias.lower()
        for a in aliases
        if a.subject_id == subject.id and a.namespace == "huggingface"
    }
    own = [o for o in observations if o.subject_id == subject.id]
    repos |= {str(o.qualifiers["repo"]).lower() for o in own if o.qualifiers.get("repo")}
    produced = {o.watch_id for o in own if o.watch_id is not None}
    org = (subject.hub_org or "").lower()
    out = []
    for w in watches:
        p = w.params
        if (
            w.adapter == HUB_ORG_ADAPTER
            and org
            and str(p.get("org") or p.get("author") or "").lower() == org
        ):
            out.append(w)
        elif w.adapter == HUB_MODEL_ADAPTER and (
            str(p.get("repo") or p.get("repo_id") or "").lower() in repos or w.id in produced
        ):
            out.append(w)
    return out


def last_hub_check(
    session: Session, subject: Subject, observations: Sequence[ObsView]
) -> dt.datetime | None:
    """The last successful check among :func:`hub_watches` (what "as of" means)."""
    return _latest(hub_watches(session, subject, observations))


def hub_check_time(
    subject: Subject,
    observations: Sequence[ObsView],
    watches: Sequence[Watch],
    aliases: Sequence[SubjectAlias],
) -> dt.datetime | None:
    """:func:`last_hub_check` over rows already read (see :func:`hub_watches_of`)."""
    return _latest(hub_watches_of(subject, observations, watches, aliases))


def _latest(watches: Sequence[Watch]) -> dt.datetime | None:
    times = [aware(w.last_success) for w in watches]
    known = [t for t in times if t is not None]
    return max(known) if known else None
