"""Store reviewed candidate claims (the JSON of ``tracker claims extract --json``) as Claim
rows of one source. Idempotent: a claim's ``key`` hashes what it says, so importing the
same candidates twice stores them once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from claims.loader import claim_key as loader_claim_key
from claims.models import Claim, Source, Subject, SubjectAlias, SubjectVariant, dumps
from claims.subjects import SubjectRef
from claims.values import Value, ValueError_
from claims.vocabulary import ATTRIBUTES, QUALIFIERS, SOURCE_KINDS
from tracker.errors import ConfigError


@dataclass(frozen=True)
class SourceInfo:
    """What is known of the source the candidates were read from (``key`` is its identity)."""

    key: str
    title: str | None = None
    url: str | None = None
    publisher: str | None = None
    published: str | None = None
    language: str | None = None
    kind: str = "press"


@dataclass(frozen=True)
class ImportResult:
    """Counts of one import: new claims stored, already present, skipped (no subject)."""

    stored: int
    present: int
    skipped: int


def claim_key(source_key: str, item: Mapping[str, Any]) -> str:
    """The curated loader's content key (:func:`claims.loader.claim_key`) of a candidate, so
    an imported claim and the same curated claim are one row.

    The character span is left out on purpose: the same figure repeated in one article is
    one claim of that source (the first span is kept as its locator).
    """
    return loader_claim_key(
        item["subject"],
        item["attribute"],
        item.get("qualifiers") or {},
        Value.from_dict(item["value"]),
        source_key,
        item.get("claimant"),
    )


def validate_candidates(items: Any) -> list[dict[str, Any]]:
    """Check the candidate JSON; raises :class:`ConfigError` naming the first bad item."""
    if not isinstance(items, list):
        raise ConfigError("candidates: expected a JSON array")
    out = []
    for i, item in enumerate(items):
        where = f"candidate #{i + 1}"
        if not isinstance(item, dict):
            raise ConfigError(f"{where}: expected an object")
        attr = item.get("attribute")
        if attr not in ATTRIBUTES:
            raise ConfigError(f"{where}: unknown attribute {attr!r}")
        quals = item.get("qualifiers") or {}
        if not isinstance(quals, dict) or any(k not in QUALIFIERS for k in quals):
            raise ConfigError(f"{where}: qualifiers must use {', '.join(QUALIFIERS)}")
        try:
            value = Value.from_dict(item.get("value"))  # type: ignore[arg-type]
        except ValueError_ as exc:
            raise ConfigError(f"{where}: {exc}") from exc
        if value.kind not in ATTRIBUTES[attr][0]:
            raise ConfigError(f"{where}: {attr} cannot hold a {value.kind} value")
        out.append(item)
    return out


def import_candidates(
    engine: Engine,
    items: Sequence[Mapping[str, Any]],
    source: SourceInfo,
    subjects: Sequence[SubjectRef] = (),
) -> ImportResult:
    """Store ``items`` (already validated) as claims of ``source`` in one transaction.

    Creates the Source row when its key is new, and a Subject row (with name aliases and
    variants) from ``subjects`` when a slug is not in the database yet. Items whose subject
    is null are skipped. Raises :class:`ConfigError` for a slug known to neither.
    """
    if source.kind not in SOURCE_KINDS:
        raise ConfigError(f"--kind: {source.kind!r} is not one of {', '.join(SOURCE_KINDS)}")
    refs = {s.slug: s for s in subjects}
    stored = present = skipped = 0
    with Session(engine) as session:
        src = session.exec(select(Source).where(Source.key == source.key)).first()
        if src is None:
            src = Source(
                key=source.key, title=source.title or source.key, url=source.url,
                publisher=source.publisher, published=source.published,
                language=source.language, kind=source.kind,
            )  # fmt: skip
            session.add(src)
            session.flush()
        subject_ids: dict[str, int] = {}
        seen: set[str] = set()
        for item in items:
            slug = item.get("subject")
            if not slug:
                skipped += 1
                continue
            if slug not in subject_ids:
                subject_ids[slug] = _subject_id(session, slug, refs)
            key = claim_key(source.key, item)
            if key in seen or session.exec(select(Claim.id).where(Claim.key == key)).first():
                present += 1
                continue
            seen.add(key)
            session.add(
                Claim(
                    key=key,
                    subject_id=subject_ids[slug],
                    attribute=item["attribute"],
                    qualifiers_json=dumps(item.get("qualifiers") or {}),
                    value_json=dumps(Value.from_dict(dict(item["value"])).to_dict()),
                    raw_text=item.get("text"),
                    source_id=src.id,  # type: ignore[arg-type]
                    claimant=item.get("claimant"),
                    locator=f"chars {item['start']}-{item['end']}" if "start" in item else None,
                    stated_date=source.published,
                    origin="import",
                )
            )
            stored += 1
        session.commit()
    return ImportResult(stored, present, skipped)


def _subject_id(session: Session, slug: str, refs: Mapping[str, SubjectRef]) -> int:
    row = session.exec(select(Subject).where(Subject.slug == slug)).first()
    if row is not None:
        return row.id  # type: ignore[return-value]
    ref = refs.get(slug)
    if ref is None:
        raise ConfigError(f"subject {slug!r} is neither in the database nor in the subjects file")
    row = Subject(
        slug=slug, name=ref.names[0] if ref.names else slug, organization=ref.organization
    )
    session.add(row)
    session.flush()
    for name in ref.names:
        taken = session.exec(
            select(SubjectAlias).where(SubjectAlias.namespace == "name", SubjectAlias.alias == name)
        ).first()
        if taken is None:
            session.add(SubjectAlias(subject_id=row.id, namespace="name", alias=name))  # type: ignore[arg-type]
    for v in ref.variants:
        session.add(SubjectVariant(subject_id=row.id, name=v))  # type: ignore[arg-type]
    return row.id  # type: ignore[return-value]


def subjects_from_db(engine: Engine) -> list[SubjectRef]:
    """Subject refs (names from the ``name`` alias namespace, variants) from the database."""
    with Session(engine) as session:
        refs = []
        for s in session.exec(select(Subject)).all():
            aliases = session.exec(
                select(SubjectAlias.alias).where(
                    SubjectAlias.subject_id == s.id, SubjectAlias.namespace == "name"
                )
            ).all()
            variants = session.exec(
                select(SubjectVariant.name).where(SubjectVariant.subject_id == s.id)
            ).all()
            names = tuple(dict.fromkeys([s.name, *aliases]))
            refs.append(SubjectRef(s.slug, names, tuple(variants), s.organization))
        return refs
