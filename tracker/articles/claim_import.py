"""Store reviewed candidate claims (the JSON of ``tracker claims extract --json``) as Claim
rows of one source. Idempotent: a claim's ``key`` hashes what it says, so importing the
same candidates twice stores them once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from claims.curated.datafile import nearest, unit_problem
from claims.curated.loader import claim_key as loader_claim_key
from claims.curated.watchparams import slug_problem
from claims.store.tables import Claim, Source, Subject, SubjectAlias, SubjectVariant
from claims.subjects.references import SubjectRef
from claims.values.canonical import dumps
from claims.values.physical import range_problem
from claims.values.stated import StatedValueError, parse_stated
from claims.values.value import Value, ValueError_
from claims.vocabulary import ATTRIBUTES, QUALIFIERS, SOURCE_KINDS
from tracker.errors import CandidateErrors, ConfigError


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
    """Counts of one import: new claims stored, already present, skipped (no subject);
    ``not_applied``: source fields given that differ from the stored source's (an
    existing source is never rewritten by an import)."""

    stored: int
    present: int
    skipped: int
    not_applied: tuple[str, ...] = ()


def claim_key(source_key: str, item: Mapping[str, Any]) -> str:
    """The curated loader's content key (:func:`claims.curated.loader.claim_key`) of a candidate, so
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


def validate_candidates(
    items: Any, known_subjects: Collection[str] | None = None
) -> list[dict[str, Any]]:
    """Check the candidate JSON; raises :class:`CandidateErrors` naming EVERY bad item
    (``candidate #N``, 1-based) and its field, one line each (its ``problems``:
    ``{"candidate": N, "message"}``). With ``known_subjects`` (the slugs of the database
    and the subjects file: :func:`known_subjects`), a subject among neither is one of
    those problems, with the nearest slug as a did-you-mean.

    Returns the items with each ``value`` as a :meth:`Value.to_dict` object. A value may
    also be written as in a data file, ``"1.3T"``, ``"65.7%"``, ``"before 2026-11-04"``,
    read by :func:`claims.values.stated.parse_stated` with the candidate's optional ``unit`` and
    ``exact`` (the data-file keys). A quantity or range without a unit takes its
    attribute's; a unit other than the attribute's is refused
    (:func:`claims.curated.datafile.unit_problem`), and so is a quantity whose ``value`` lies
    outside its own ``low``/``high`` (an edited figure with its old interval).
    """
    if not isinstance(items, list):
        raise ConfigError("candidates: expected a JSON array")
    out = []
    problems: list[tuple[int, str]] = []
    for i, item in enumerate(items):
        try:
            out.append(_checked(f"candidate #{i + 1}", item, known_subjects))
        except ConfigError as exc:
            problems.append((i + 1, str(exc)))
    if problems:
        raise CandidateErrors(problems, len(items))
    return out


def _checked(where: str, item: Any, known: Collection[str] | None = None) -> dict[str, Any]:
    """One candidate checked (ConfigError starting with ``where``), value as a dict."""
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: expected an object")
    attr = item.get("attribute")
    if attr is None:
        raise ConfigError(f"{where}: attribute: missing (e.g. total_params; see docs/data.md)")
    if attr not in ATTRIBUTES:
        hint = nearest(str(attr), ATTRIBUTES)
        raise ConfigError(f"{where}: attribute: unknown attribute {attr!r} ({hint})")
    quals = item.get("qualifiers") or {}
    if not isinstance(quals, dict) or any(k not in QUALIFIERS for k in quals):
        raise ConfigError(f"{where}: qualifiers must use {', '.join(QUALIFIERS)}")
    subject = item.get("subject")
    if subject is not None and (not isinstance(subject, str) or slug_problem(subject)):
        raise ConfigError(f"{where}: subject: {slug_problem(str(subject))}")
    if subject is not None and known is not None and subject not in known:
        raise ConfigError(f"{where}: subject: {unknown_subject(subject, known)}")
    value = _candidate_value(where, attr, item)
    if value.kind not in ATTRIBUTES[attr][0]:
        raise ConfigError(f"{where}: {attr} cannot hold a {value.kind} value")
    impossible = range_problem(attr, value)  # NaN broke every later verify and build
    if impossible:
        raise ConfigError(f"{where}: value: {impossible}")
    return {**item, "value": value.to_dict()}


def _candidate_value(where: str, attr: str, item: Mapping[str, Any]) -> Value:
    """The checked :class:`Value` of one candidate (see :func:`validate_candidates`)."""
    raw = item.get("value")
    if isinstance(raw, (str, int, float, bool)):  # the data files' short notation
        unit = item.get("unit")
        if unit is not None and not isinstance(unit, str):
            raise ConfigError(f"{where}: unit: expected text")
        wrong = unit_problem(attr, unit)
        if wrong:
            raise ConfigError(f"{where}: unit: {wrong}")
        exact = item.get("exact", False)
        if not isinstance(exact, bool):  # bool("false") is True: it read as exact
            raise ConfigError(f"{where}: exact: expected true or false, got {exact!r}")
        try:
            return parse_stated(raw, attr, unit=unit, exact=exact)
        except StatedValueError as exc:
            raise ConfigError(f"{where}: value: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(
            f"{where}: value: expected an object (as extract --json writes it) or a figure "
            'written as in a data file, e.g. "1.3T"'
        )
    try:
        value = Value.from_dict(raw)
    except ValueError_ as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    own_unit = ATTRIBUTES[attr][1]
    if value.numeric and value.unit is None and own_unit is not None:
        value = replace(value, unit=own_unit)  # as a data file's claim without `unit`
    wrong = unit_problem(attr, value.unit, "value.unit") if value.numeric else None
    if wrong:
        raise ConfigError(f"{where}: value.unit: {wrong}")
    if value.kind == "quantity":
        _check_bounds(where, value)
    return value


def _check_bounds(where: str, value: Value) -> None:
    """Refuse a quantity outside its own interval. A trial set value.value to 50000000000
    and left low/high at 47.5B-48.5B (and text "48 billion"): it stored 50B with an
    interval around 48B. Refused rather than recomputed: nothing says whether the value
    or the bounds are the intended figure, and the scale the interval came from is lost."""
    low, high, number = value.low, value.high, value.value
    assert isinstance(number, Decimal)
    if (low is None or low <= number) and (high is None or number <= high):
        return
    bounds = " and ".join(
        f"{name} {bound:f}" for name, bound in (("low", low), ("high", high)) if bound is not None
    )
    raise ConfigError(
        f"{where}: value.value {number:f} is outside its own {bounds}: edit low and high to "
        "fit it, or drop them (the figure is then exact), or write the figure as in a data "
        'file (e.g. "2.8T": its interval follows from its digits); check "text" too'
    )


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
        not_applied: tuple[str, ...] = ()
        if src is not None:
            _not_from_a_data_file(session, src)
            fields = ("title", "url", "publisher", "published", "language")
            not_applied = tuple(
                f for f in fields
                if getattr(source, f) is not None and getattr(source, f) != getattr(src, f)
            )  # fmt: skip
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
    return ImportResult(stored, present, skipped, not_applied)


def _not_from_a_data_file(session: Session, src: Source) -> None:
    """Raise ConfigError when a stored claim of ``src`` came from a data file (its
    ``origin`` a ``file:`` URI): `tracker load` owns that source's claims and removes
    those its file no longer states, so imported ones would not survive the next load.
    The database says so wherever the command runs from, data folder found or not."""
    origin = session.exec(
        select(Claim.origin).where(Claim.source_id == src.id, col(Claim.origin).startswith("file:"))
    ).first()
    if origin is None:
        return
    path = url2pathname(urlparse(origin).path)
    raise ConfigError(
        f"--source {src.key!r} is defined by {path} (stored by `tracker load`): add these "
        "claims to that file and run `tracker load`, or import under another source key"
    )


def _subject_id(session: Session, slug: str, refs: Mapping[str, SubjectRef]) -> int:
    row = session.exec(select(Subject).where(Subject.slug == slug)).first()
    if row is not None:
        return row.id  # type: ignore[return-value]
    bad = slug_problem(slug)
    if bad:  # a subjects file read for names may hold any text (`../../x`, "x\n")
        raise ConfigError(f"subject slug: {bad}")
    ref = refs.get(slug)
    if ref is None:  # validate_candidates with known_subjects lists these first
        known = [*session.exec(select(Subject.slug)).all(), *refs]
        raise ConfigError(f"subject {unknown_subject(slug, known)}")
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


def unknown_subject(slug: str, known: Collection[str]) -> str:
    """Why ``slug`` cannot be imported: ``'nosuch' is neither in the database nor in the
    subjects file (did you mean 'x'?)``, else the known slugs."""
    return f"{slug!r} is neither in the database nor in the subjects file ({nearest(slug, known)})"


def known_subjects(engine: Engine, subjects: Sequence[SubjectRef] = ()) -> set[str]:
    """The slugs an import can give its claims: the database's subjects and those of
    the subjects file (``subjects``, created on import)."""
    with Session(engine) as session:
        return {*session.exec(select(Subject.slug)).all(), *(s.slug for s in subjects)}


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
