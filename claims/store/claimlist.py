"""Claims as the terminal lists and exports them: every stored claim with its source,
claimant, locator and verdict (``tracker claims list``), and one source with its claims
(``tracker claims export``). Pure queries; nothing is written.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from claims.store.tables import Claim, Source, Subject, SubjectAlias, Verdict
from claims.subjects.sourcenames import plain_name, source_names
from claims.values.canonical import as_utc
from claims.values.timefmt import iso_z


@dataclass(frozen=True)
class ClaimRow:
    """One claim as listed: who says what about which subject, and its verdict (None
    before ``tracker verify`` ran)."""

    id: int
    subject: str
    attribute: str
    qualifiers: dict[str, str]
    value: str
    source: str
    source_key: str
    claimant: str | None
    locator: str | None
    raw: str | None
    stated_date: str | None
    origin: str | None
    verdict: str | None
    reason: str | None
    as_of: dt.datetime | None
    # the source's bare name for JSON (:func:`claims.subjects.sourcenames.plain_name`):
    # ``source`` is the name sentences give it, a title in quotes and cut
    source_plain: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON form; ``as_of`` RFC 3339 UTC or None; ``source`` the bare name (no
        display quotes round a title: those are presentation)."""
        d = dict(self.__dict__)
        d["source"] = d.pop("source_plain") or self.source
        d["as_of"] = iso_z(self.as_of) or None
        return d


def subject_slugs(session: Session) -> list[str]:
    """Every subject slug, in id order (for "did you mean" hints)."""
    return list(session.exec(select(Subject.slug).order_by(Subject.id)).all())  # type: ignore[arg-type]


def name_key(name: str) -> str:
    """A subject's name as people type it, compared: case does not count, and a run of
    spaces, hyphens or underscores is one separator (``Nova 2``, ``nova-2``, ``NOVA_2`` ->
    ``nova 2``; ``k31`` stays apart from ``k3-1``)."""
    return re.sub(r"[\s_\-]+", " ", name.casefold()).strip()


def subject_names(session: Session) -> dict[str, str]:
    """Every way a subject is named (slug, name, each alias of any namespace) -> its slug;
    a name two subjects share is left out (it names neither)."""
    slug_of = {s.id: s.slug for s in session.exec(select(Subject)).all()}
    out: dict[str, str] = {}
    shared: set[str] = set()
    rows = [(s.slug, s.slug) for s in session.exec(select(Subject)).all()]
    rows += [(s.name, s.slug) for s in session.exec(select(Subject)).all()]
    rows += [(a.alias, slug_of.get(a.subject_id, "")) for a in session.exec(select(SubjectAlias))]
    for name, slug in rows:
        if not slug:
            continue
        if out.get(name, slug) != slug:
            shared.add(name)
        out[name] = slug
    return {n: s for n, s in out.items() if n not in shared}


def resolve_slug(session: Session, name: str) -> str | None:
    """The slug of the subject ``name`` names: its slug, name or any alias, compared by
    :func:`name_key` (case, spaces and hyphens do not count: ``nova-2`` finds the alias
    ``Nova 2``); None when none does, or when it names two subjects."""
    found = {slug for n, slug in subject_names(session).items() if name_key(n) == name_key(name)}
    return found.pop() if len(found) == 1 else None


def list_claims(
    session: Session,
    *,
    subject: str | None = None,
    attributes: Sequence[str] = (),
    verdicts: Sequence[str] = (),
) -> list[ClaimRow]:
    """Claims (by id), optionally of one subject slug, some attributes, some verdict
    statuses (``none`` picks claims without a verdict)."""
    slugs = {s.id: s.slug for s in session.exec(select(Subject)).all()}
    sources = {s.id: s for s in session.exec(select(Source)).all()}
    names = source_names(list(sources.values()))
    verdict_of = {v.claim_id: v for v in session.exec(select(Verdict)).all()}
    out = []
    for c in session.exec(select(Claim).order_by(Claim.id)).all():  # type: ignore[arg-type]
        slug = slugs.get(c.subject_id, str(c.subject_id))
        v = verdict_of.get(c.id)  # type: ignore[arg-type]
        status = v.status if v else None
        if subject is not None and slug != subject:
            continue
        if attributes and c.attribute not in attributes:
            continue
        if verdicts and (status or "none") not in verdicts:
            continue
        assert c.id is not None
        src = sources.get(c.source_id)
        out.append(
            ClaimRow(
                id=c.id, subject=slug, attribute=c.attribute, qualifiers=c.qualifiers,
                value=c.value.display(), source=names.get(c.source_id, ""),
                source_key=src.key if src else "", claimant=c.claimant, locator=c.locator,
                raw=c.raw_text, stated_date=c.stated_date, origin=c.origin, verdict=status,
                reason=v.reason if v else None,
                as_of=as_utc(v.as_of) if v and v.as_of else None,
                source_plain=plain_name(src) if src else "",
            )
        )  # fmt: skip
    return out


def source_with_claims(session: Session, key: str) -> tuple[Source, list[tuple[Claim, str]]] | None:
    """The source stored under ``key`` and its claims (by id) with their subject slugs,
    or None when no source has that key."""
    src = session.exec(select(Source).where(Source.key == key)).first()
    if src is None:
        return None
    slugs = {s.id: s.slug for s in session.exec(select(Subject)).all()}
    rows = session.exec(
        select(Claim).where(Claim.source_id == src.id).order_by(Claim.id)  # type: ignore[arg-type]
    ).all()
    return src, [(c, slugs.get(c.subject_id, str(c.subject_id))) for c in rows]


def source_keys(session: Session) -> list[str]:
    """Every stored source key (for "did you mean" hints)."""
    return list(session.exec(select(Source.key).order_by(Source.key)).all())
