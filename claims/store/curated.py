"""Store validated curated data (:mod:`claims.curated.loader` specs) as database rows.

Idempotent upserts: subjects by slug, sources by key, watches by name, claims by their
content key; the caller commits (one transaction for the whole load). Each stated claim
is stamped with its file (``Claim.origin``, a ``file://`` URI). A stored claim the data
no longer states is removed with its verdicts when its origin is a file of this
folder's ``claims/`` (corrected, deleted, or its file deleted or re-keyed): the folder
put it there, so the folder's files are its whole truth. Other stored claims of the
data's sources (imported with ``tracker claims import``, or stored before origins were
kept) are reported, and removed only when asked (``prune``). A source left without
claims by those removals, and no longer defined by the data, is removed too. Likewise a stored watch the data no longer defines is reported, and retired (state
``retired``: never checked or scheduled again, its history kept) only with ``prune``;
defined again, it is brought back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from claims.curated.specs import ClaimSpec, CuratedData
from claims.store import tables as models
from claims.values.canonical import dumps
from claims.vocabulary import RETIRED_STATE

RETIRED = RETIRED_STATE


@dataclass
class LoadReport:
    """What a load stored. ``claims_stale``: stored claims the data folder no longer
    states (a corrected or deleted claim, a deleted claims file), each as ``{"id",
    "source", "subject", "attribute", "value", "removed"}``; ``removed`` is true for the
    ``claims_removed`` of them that were deleted (those the folder's files had stored,
    or all with ``prune``), and ``qualifiers``. ``claims_changed``: each removed claim
    paired with the new claim of the same source (file), subject, attribute and
    qualifiers, a figure corrected in its file, as ``{"old_id", "new_id", "source",
    "subject", "attribute", "qualifiers", "old_value", "new_value"}`` (both are still
    counted in ``claims_added`` and ``claims_removed``, and listed in ``claims_stale``).
    ``claims_updated``: how many stored claims (same content key) had their ``raw``,
    ``locator``, ``stated_date`` or ``note`` changed in their file; ``claims_edited``:
    those claims, each as ``{"id", "source", "subject", "attribute", "qualifiers",
    "value", "fields"}`` (``fields``: which of those four changed, as the file names
    them). ``watches_stale``: names of stored watches the data no longer
    defines (still checked unless retired); ``watches_retired`` of them were retired.
    ``sources_removed``: keys of sources deleted because this load removed their last
    claim and the data no longer defines them (a re-keyed or deleted claims file)."""

    subjects: int = 0
    sources: int = 0
    claims_added: int = 0
    claims_unchanged: int = 0
    claims_updated: int = 0
    watches: int = 0
    claims_stale: list[dict[str, Any]] = field(default_factory=list)
    claims_removed: int = 0
    claims_changed: list[dict[str, Any]] = field(default_factory=list)
    claims_edited: list[dict[str, Any]] = field(default_factory=list)
    watches_stale: list[str] = field(default_factory=list)
    watches_retired: int = 0
    sources_removed: list[str] = field(default_factory=list)


def store(session: Session, data: CuratedData, *, prune: bool = False) -> LoadReport:
    """Upsert validated data into the database (caller commits). Idempotent. With
    ``prune``, claims of the data's sources that the data no longer states are deleted
    with their verdicts (the next verification resolves discrepancies they were in)."""
    report = LoadReport()
    subject_ids = _store_subjects(session, data, report)
    _store_watches(session, data, report, prune)
    source_ids = _store_sources(session, data, report)
    keys, added = _store_claims(session, data, report, subject_ids, source_ids)
    session.flush()
    _stale_claims(session, report, data, source_ids, keys, prune)
    _pair_changes(report, added)
    return report


def _store_subjects(session: Session, data: CuratedData, report: LoadReport) -> dict[str, int]:
    """Upsert subjects with their aliases and variants; returns slug -> subject id."""
    subject_ids: dict[str, int] = {}
    for spec in data.subjects:
        row = session.exec(select(models.Subject).where(models.Subject.slug == spec.slug)).first()
        if row is None:
            row = models.Subject(slug=spec.slug, name=spec.name)
        row.name, row.organization, row.family = spec.name, spec.organization, spec.family
        row.hub_org, row.description = spec.hub_org, spec.description
        session.add(row)
        session.flush()
        assert row.id is not None
        subject_ids[spec.slug] = row.id
        report.subjects += 1
        aliases = [("name", a) for a in (spec.name, *spec.aliases)]
        aliases += [(ns, a) for ns, vals in spec.ids.items() for a in vals]
        for ns, alias in dict.fromkeys(aliases):
            exists = session.exec(
                select(models.SubjectAlias).where(
                    models.SubjectAlias.namespace == ns, models.SubjectAlias.alias == alias
                )
            ).first()
            if exists is None:
                session.add(models.SubjectAlias(subject_id=row.id, namespace=ns, alias=alias))
        for v in spec.variants:
            variant_row = session.exec(
                select(models.SubjectVariant).where(
                    models.SubjectVariant.subject_id == row.id, models.SubjectVariant.name == v
                )
            ).first()
            if variant_row is None:
                session.add(models.SubjectVariant(subject_id=row.id, name=v))
    return subject_ids


def _store_watches(session: Session, data: CuratedData, report: LoadReport, prune: bool) -> None:
    """Upsert watches (a retired one defined again starts clean); list or retire the rest."""
    for w in data.watches:
        row_w = session.exec(select(models.Watch).where(models.Watch.name == w.name)).first()
        if row_w is None:
            row_w = models.Watch(name=w.name, adapter=w.adapter, url=w.url)
        row_w.adapter, row_w.url, row_w.interval_minutes = w.adapter, w.url, w.interval_minutes
        row_w.params_json = dumps(w.params)
        if row_w.state == RETIRED:  # defined again: checked again, from a clean slate
            row_w.state, row_w.consecutive_failures, row_w.failing_since = "new", 0, None
        session.add(row_w)
        report.watches += 1
    if data.watch_file:  # a folder without watches.toml says nothing about watches
        _stale_watches(session, report, {w.name for w in data.watches}, prune)


def _store_sources(session: Session, data: CuratedData, report: LoadReport) -> dict[str, int]:
    """Upsert sources; returns source key -> source id."""
    source_ids: dict[str, int] = {}
    for s in data.sources:
        row_s = session.exec(select(models.Source).where(models.Source.key == s.key)).first()
        if row_s is None:
            row_s = models.Source(key=s.key, title=s.title)
        for attr in (
            "title",
            "url",
            "publisher",
            "published",
            "published_precision",
            "language",
            "kind",
        ):
            setattr(row_s, attr, getattr(s, attr))
        session.add(row_s)
        session.flush()
        assert row_s.id is not None
        source_ids[s.key] = row_s.id
        report.sources += 1
    return source_ids


def _store_claims(
    session: Session,
    data: CuratedData,
    report: LoadReport,
    subject_ids: dict[str, int],
    source_ids: dict[str, int],
) -> tuple[dict[str, set[str]], list[tuple[ClaimSpec, models.Claim]]]:
    """Add new claims and update the file-only fields of stored ones; returns the content
    keys each source states and the claims added (for the stale-claim report)."""
    keys: dict[str, set[str]] = {s.key: set() for s in data.sources}
    added: list[tuple[ClaimSpec, models.Claim]] = []
    for c in data.claims:
        key = c.key()
        keys[c.source].add(key)
        origin = data.claim_files[c.source].as_uri() if c.source in data.claim_files else None
        stored = session.exec(select(models.Claim).where(models.Claim.key == key)).first()
        if stored is not None:
            # Fields outside the content key (the figure as written, where, when, a note)
            # follow the file; the origin too (a moved folder, a row from before origins).
            fresh = {
                "raw_text": c.raw,
                "locator": c.locator,
                "stated_date": c.stated_date,
                "note": c.note,
                "origin": origin or stored.origin,
            }
            edited = {k: val for k, val in fresh.items() if getattr(stored, k) != val}
            if edited:
                for k, val in edited.items():
                    setattr(stored, k, val)
                session.add(stored)
            fields = [_FILE_FIELD.get(k, k) for k in edited if k != "origin"]
            if fields:
                report.claims_updated += 1
                report.claims_edited.append(
                    _described(c, id=stored.id, value=stored.value.display(), fields=fields)
                )
            else:
                report.claims_unchanged += 1
            continue
        row_c = models.Claim(
            key=key,
            subject_id=subject_ids[c.subject],
            attribute=c.attribute,
            qualifiers_json=dumps(c.qualifiers),
            value_json=dumps(c.value.to_dict()),
            raw_text=c.raw,
            source_id=source_ids[c.source],
            claimant=c.claimant,
            locator=c.locator,
            stated_date=c.stated_date,
            note=c.note,
            origin=origin,
        )
        session.add(row_c)
        added.append((c, row_c))
        report.claims_added += 1
    return keys, added


# A claim's column -> its key in a claims file, for the fields a load names as changed.
_FILE_FIELD = {"raw_text": "raw"}


def _described(c: ClaimSpec, **extra: Any) -> dict[str, Any]:
    """A claim as a load's report names it: its source, subject, attribute, qualifiers."""
    who = {"source": c.source, "subject": c.subject, "attribute": c.attribute}
    return {**extra, **who, "qualifiers": dict(c.qualifiers)}


def _pair_changes(report: LoadReport, added: list[tuple[ClaimSpec, models.Claim]]) -> None:
    """Pair each removed claim with a new claim of the same source, subject, attribute
    and qualifiers (first by id, one to one): a figure corrected in its file."""
    fresh: dict[tuple[Any, ...], list[tuple[ClaimSpec, models.Claim]]] = {}
    for c, row in added:
        what = (c.source, c.subject, c.attribute, dumps(dict(c.qualifiers)))
        fresh.setdefault(what, []).append((c, row))
    for old in report.claims_stale:
        what = (old["source"], old["subject"], old["attribute"], dumps(old["qualifiers"]))
        if not old["removed"] or not fresh.get(what):
            continue
        c, row = fresh[what].pop(0)
        report.claims_changed.append(
            _described(
                c,
                old_id=old["id"],
                new_id=row.id,
                old_value=old["value"],
                new_value=row.value.display(),
            )
        )


def _stale_watches(session: Session, report: LoadReport, defined: set[str], prune: bool) -> None:
    live = select(models.Watch).where(models.Watch.state != RETIRED).order_by(models.Watch.name)
    for row in session.exec(live).all():
        # A model watch the cycle made to follow a listed repo is the database's own
        # (issue 16): not in watches.toml, and not stale for that.
        if row.name in defined or "followed_from" in row.params:
            continue
        report.watches_stale.append(row.name)
        if prune:
            row.state = RETIRED
            session.add(row)
            report.watches_retired += 1


def _stale_claims(
    session: Session,
    report: LoadReport,
    data: CuratedData,
    source_ids: dict[str, int],
    keys: dict[str, set[str]],
    prune: bool,
) -> None:
    """Report (and remove, see the module doc) stored claims the data no longer states:
    those of the data's sources, and those whose origin is a file of its ``claims/``."""
    stated = set().union(*keys.values()) if keys else set()
    candidates = select(models.Claim).where(col(models.Claim.source_id).in_(source_ids.values()))
    found = {c.id: c for c in session.exec(candidates).all() if c.key not in stated}
    if data.claims_dir is not None:
        # A URI prefix: "file:///…/data/claims/" (a trailing slash, so "claims2/" is not in).
        mine = data.claims_dir.as_uri().rstrip("/") + "/"
        by_origin = select(models.Claim).where(col(models.Claim.origin).startswith(mine))
        found.update({c.id: c for c in session.exec(by_origin).all() if c.key not in stated})
    else:
        mine = None
    if not found:
        return
    emptied: set[int] = set()
    slugs = {s.id: s.slug for s in session.exec(select(models.Subject)).all()}
    source_keys = {s.id: s.key for s in session.exec(select(models.Source)).all()}
    for claim in sorted(found.values(), key=lambda c: c.id or 0):
        remove = prune or (mine is not None and (claim.origin or "").startswith(mine))
        report.claims_stale.append(
            {
                "id": claim.id,
                "source": source_keys.get(claim.source_id),
                "subject": slugs.get(claim.subject_id),
                "attribute": claim.attribute,
                "value": claim.value.display(),
                "qualifiers": claim.qualifiers,
                "removed": remove,
            }
        )
        if remove:
            verdicts = select(models.Verdict).where(models.Verdict.claim_id == claim.id)
            for verdict in session.exec(verdicts).all():
                session.delete(verdict)
            session.flush()  # the verdict before the claim it points to
            session.delete(claim)
            report.claims_removed += 1
            if claim.source_id not in source_ids.values():
                emptied.add(claim.source_id)
    session.flush()
    _ghost_sources(session, report, emptied)


def _ghost_sources(session: Session, report: LoadReport, source_ids: set[int]) -> None:
    """Delete the sources of ``source_ids`` (none defined by the data: the caller checks)
    that no claim refers to any more: a re-keyed or deleted claims file would otherwise
    leave its old source listed, with no claims, beside the new one. A claim is the only
    row that refers to a source (claims.store.tables); one still there (imported, or from
    another folder) keeps its source."""
    for source_id in sorted(source_ids):
        left = select(models.Claim.id).where(models.Claim.source_id == source_id)
        if session.exec(left).first() is not None:
            continue
        row = session.get(models.Source, source_id)
        if row is not None:
            report.sources_removed.append(row.key)
            session.delete(row)
