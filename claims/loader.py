"""Curated data loader: ``data/*.toml`` (subjects, watches) and ``data/claims/*.toml``
(one source and its claims per file) -> validated specs -> database rows.

Everything is read and validated before anything is written, so a malformed file
stops the load with its path, line and field (:class:`DataFileError`) and the
database is left as it was.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims import datachecks, datafile, models
from claims.datafile import DataFile, DataFileError
from claims.stated import StatedValueError, parse_stated
from claims.values import Value
from claims.vocabulary import ATTRIBUTES, QUALIFIERS, SOURCE_KINDS

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")


@dataclass(frozen=True)
class SubjectSpec:
    slug: str
    name: str
    organization: str | None = None
    family: str | None = None
    hub_org: str | None = None
    description: str | None = None
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    ids: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class WatchSpec:
    name: str
    adapter: str
    url: str
    interval_minutes: int = 60
    params: dict[str, Any] = field(default_factory=dict)
    origin: str = ""


@dataclass(frozen=True)
class SourceSpec:
    key: str
    title: str
    url: str | None = None
    publisher: str | None = None
    published: str | None = None
    published_precision: str | None = None
    language: str | None = None
    kind: str = "press"
    seed: str | None = None


@dataclass(frozen=True)
class ClaimSpec:
    subject: str
    attribute: str
    value: Value
    source: str
    qualifiers: dict[str, str] = field(default_factory=dict)
    raw: str | None = None
    claimant: str | None = None
    locator: str | None = None
    stated_date: str | None = None
    note: str | None = None

    def key(self) -> str:
        """Content hash: the same statement from the same source is stored once."""
        return claim_key(
            self.subject, self.attribute, self.qualifiers, self.value, self.source, self.claimant
        )


@dataclass
class CuratedData:
    """Everything a data folder states. ``watch_file``: the folder has a watches.toml
    (when it has none, stored watches are left alone, never retired). ``claims_dir``:
    the folder's ``claims/`` (resolved; None when not read from a folder) and
    ``claim_files``: source key -> the file that states it."""

    claims_dir: Path | None = None
    claim_files: dict[str, Path] = field(default_factory=dict)
    subjects: list[SubjectSpec] = field(default_factory=list)
    watches: list[WatchSpec] = field(default_factory=list)
    watch_file: bool = False
    sources: list[SourceSpec] = field(default_factory=list)
    claims: list[ClaimSpec] = field(default_factory=list)


def claim_key(
    subject: str,
    attribute: str,
    qualifiers: dict[str, str],
    value: Value,
    source: str,
    claimant: str | None,
) -> str:
    """sha256 over canonical JSON of what the claim says and who says it where."""
    payload = models.dumps(
        {
            "subject": subject,
            "attribute": attribute,
            "qualifiers": qualifiers,
            "value": value.key(),
            "source": source,
            "claimant": claimant,
        }
    )
    return hashlib.sha256(payload.encode()).hexdigest()


# -- reading -------------------------------------------------------------------


def _req_str(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> str:
    val = entry.get(name)
    if not isinstance(val, str) or not val.strip():
        raise f.error(table, i, name, "required text is missing or empty")
    return val


def _opt_str(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> str | None:
    val = entry.get(name)
    if val is None:
        return None
    if not isinstance(val, str):
        raise f.error(table, i, name, f"expected text, got {type(val).__name__}")
    return val


def _str_list(f: DataFile, table: str, i: int, entry: dict[str, Any], name: str) -> tuple[str, ...]:
    val = entry.get(name, [])
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise f.error(table, i, name, "expected a list of text")
    return tuple(val)


def _unique(f: DataFile, table: str, i: int, name: str, value: str, earlier: list[str]) -> None:
    """Raise at ``[[table]]`` number ``i`` when an earlier entry has the same ``name``."""
    if value in earlier:
        first = f.line_of(table, earlier.index(value), name)
        raise f.error(table, i, name, f"duplicate {name} {value!r} (first at line {first})")


def _read_subjects(f: DataFile, namespaces: Iterable[str] | None) -> list[SubjectSpec]:
    out = []
    for i, entry in enumerate(f.data.get("subject", [])):
        f.check_keys(entry, datafile.SUBJECT, f"subject[{i}]", f.line_of("subject", i))
        slug = _req_str(f, "subject", i, entry, "slug")
        if not SLUG_RE.match(slug):
            raise f.error("subject", i, "slug", f"{slug!r} is not a lower-case slug")
        _unique(f, "subject", i, "slug", slug, [s.slug for s in out])
        ids_raw = entry.get("ids", {})
        if not isinstance(ids_raw, dict):
            raise f.error("subject", i, "ids", "expected a table of namespace = [ids]")
        if namespaces is not None:  # `hf` for `huggingface` matched nothing, silently
            f.check_keys(ids_raw, namespaces, f"subject[{i}].ids", f.line_of("subject", i))
        ids = {}
        for ns, vals in ids_raw.items():
            if not isinstance(vals, list) or not all(isinstance(x, str) for x in vals):
                raise f.error("subject", i, "ids", f"{ns}: expected a list of ids")
            ids[ns] = tuple(vals)
        out.append(
            SubjectSpec(
                slug=slug,
                name=_req_str(f, "subject", i, entry, "name"),
                organization=_opt_str(f, "subject", i, entry, "organization"),
                family=_opt_str(f, "subject", i, entry, "family"),
                hub_org=_opt_str(f, "subject", i, entry, "hub_org"),
                description=_opt_str(f, "subject", i, entry, "description"),
                aliases=_str_list(f, "subject", i, entry, "aliases"),
                variants=_str_list(f, "subject", i, entry, "variants"),
                ids=ids,
            )
        )
    datachecks.shared_aliases(f, [(s.slug, (s.name, *s.aliases)) for s in out])
    return out


def _read_watches(
    f: DataFile, known_adapters: set[str] | None, known_params: Mapping[str, Iterable[str]]
) -> list[WatchSpec]:
    out = []
    for i, entry in enumerate(f.data.get("watch", [])):
        f.check_keys(entry, datafile.WATCH, f"watch[{i}]", f.line_of("watch", i))
        name = _req_str(f, "watch", i, entry, "name")
        _unique(f, "watch", i, "name", name, [w.name for w in out])
        adapter = _req_str(f, "watch", i, entry, "adapter")
        if known_adapters is not None and adapter not in known_adapters:
            raise f.error(
                "watch",
                i,
                "adapter",
                f"unknown adapter {adapter!r} ({datafile.nearest(adapter, known_adapters)})",
            )
        url = _req_str(f, "watch", i, entry, "url")
        if not url.startswith(("http://", "https://")):
            raise f.error("watch", i, "url", f"{url!r} is not an http(s) URL")
        interval = entry.get("interval_minutes", 60)
        if not isinstance(interval, int) or isinstance(interval, bool) or interval < 1:
            raise f.error("watch", i, "interval_minutes", "expected a whole number of minutes >= 1")
        params = entry.get("params", {})
        if not isinstance(params, dict):
            raise f.error("watch", i, "params", "expected a table")
        if adapter in known_params:  # a likely typo, e.g. `selectr` (the adapter reads none)
            where = f"watch[{i}].params"
            f.check_keys(params, known_params[adapter], where, f.line_of("watch", i))
        out.append(
            WatchSpec(
                name, adapter, url, interval, params, origin=f"{f.path}:{f.line_of('watch', i)}"
            )
        )
    return out


def _read_source_file(f: DataFile) -> tuple[SourceSpec, list[ClaimSpec]]:
    src = f.data.get("source")
    if not isinstance(src, dict):
        raise DataFileError(f.path, None, "source", "missing [source] table")

    def s_err(name: str, msg: str) -> DataFileError:
        return DataFileError(f.path, f.line_of_key(name), f"source.{name}", msg)

    f.check_keys(src, datafile.SOURCE, "source", None)
    key = src.get("key")
    if key is None:
        raise s_err("key", "required: a lower-case slug naming the source (e.g. wire-orion-2)")
    if not isinstance(key, str) or not SLUG_RE.match(key):
        raise s_err("key", f"{key!r} is not a lower-case slug (letters, digits and dashes)")
    title = src.get("title")
    if not isinstance(title, str) or not title.strip():
        raise s_err("title", "required text")
    kind = src.get("kind", "press")
    if kind not in SOURCE_KINDS:
        raise s_err("kind", f"{kind!r} is not one of {', '.join(SOURCE_KINDS)}")
    published = src.get("published")
    if published is not None and not datachecks.is_iso_date(str(published)):
        raise s_err("published", f"{published!r} is not a real ISO date (YYYY-MM-DD or YYYY-MM)")
    for name in ("url", "publisher", "published_precision", "language", "seed"):
        if src.get(name) is not None and not isinstance(src[name], str):
            raise s_err(name, f"expected text, got {type(src[name]).__name__}")
    if src.get("published_precision") not in (None, *datafile.PUBLISHED_PRECISIONS):
        raise s_err("published_precision", f"not one of {', '.join(datafile.PUBLISHED_PRECISIONS)}")
    datachecks.source_dates(f, src)
    source = SourceSpec(
        key=key,
        title=title,
        url=src.get("url"),
        publisher=src.get("publisher"),
        published=str(published) if published is not None else None,
        published_precision=src.get("published_precision"),
        language=src.get("language"),
        kind=kind,
        seed=src.get("seed"),
    )
    claims = []
    for i, entry in enumerate(f.data.get("claim", [])):
        f.check_keys(entry, datafile.CLAIM, f"claim[{i}]", f.line_of("claim", i))
        subject = _req_str(f, "claim", i, entry, "subject")
        attribute = _req_str(f, "claim", i, entry, "attribute")
        if attribute not in ATTRIBUTES:
            hint = datafile.nearest(attribute, ATTRIBUTES)
            raise f.error("claim", i, "attribute", f"unknown attribute {attribute!r} ({hint})")
        quals = entry.get("qualifiers", {})
        if not isinstance(quals, dict) or not all(isinstance(v, str) for v in quals.values()):
            raise f.error("claim", i, "qualifiers", "expected a table of text values")
        for q in quals:
            if q not in QUALIFIERS:
                raise f.error(
                    "claim",
                    i,
                    "qualifiers",
                    f"unknown qualifier {q!r} ({datafile.nearest(q, QUALIFIERS)})",
                )
        if "value" not in entry:
            raise f.error("claim", i, "value", "required")
        datachecks.claim_fields(f, i, entry)
        unit = _opt_str(f, "claim", i, entry, "unit")
        wrong_unit = datafile.unit_problem(attribute, unit)
        if wrong_unit:
            raise f.error("claim", i, "unit", wrong_unit)
        try:
            value = parse_stated(
                datachecks.value_text(f, i, entry["value"]),
                attribute,
                unit=unit,
                exact=entry.get("exact", False),
            )
        except StatedValueError as exc:
            raise f.error("claim", i, "value", str(exc)) from exc
        claims.append(
            ClaimSpec(
                subject=subject,
                attribute=attribute,
                value=value,
                source=key,
                qualifiers=dict(quals),
                raw=_opt_str(f, "claim", i, entry, "raw"),
                claimant=_opt_str(f, "claim", i, entry, "claimant"),
                locator=_opt_str(f, "claim", i, entry, "locator"),
                stated_date=_opt_str(f, "claim", i, entry, "stated_date"),
                note=_opt_str(f, "claim", i, entry, "note"),
            )
        )
    datachecks.duplicate_claims(f, [c.key() for c in claims])
    return source, claims


def _check_subject(
    f: DataFile, i: int, claim: ClaimSpec, subjects: Mapping[str, SubjectSpec]
) -> None:
    """Raise at claim ``i`` of ``f`` when its subject is not one of ``subjects``, or its
    ``variant`` qualifier is not one of that subject's variants."""
    spec = subjects.get(claim.subject)
    if spec is None:
        hint = datafile.nearest(claim.subject, subjects) if subjects else "no subjects.toml here"
        raise f.error("claim", i, "subject", f"unknown subject {claim.subject!r} ({hint})")
    variant = claim.qualifiers.get("variant")
    wrong = datafile.variant_problem(claim.subject, variant, spec.variants)
    if wrong:
        raise f.error("claim", i, "qualifiers", wrong)
    for listed in spec.variants if variant else ():  # "fast" is stored as the listed "Fast"
        if listed.casefold() == variant.casefold():
            claim.qualifiers["variant"] = listed


def load_data(
    data_dir: Path | str,
    *,
    known_adapters: Iterable[str] | None = None,
    known_params: Mapping[str, Iterable[str]] | None = None,
    known_namespaces: Iterable[str] | None = None,
) -> CuratedData:
    """Read and validate ``subjects.toml``, ``watches.toml`` and ``claims/*.toml`` under ``data_dir``.

    Cross-checks: slugs, source keys and watch names are unique; every claim names a
    known subject; with ``known_adapters``, every watch's adapter is one of them; with
    ``known_params`` (adapter kind -> the watch params it reads), a watch of such a kind
    sets no other param; with ``known_namespaces``, a subject's ``[subject.ids]`` uses
    only those (the namespaces adapters match ids in). Raises :class:`DataFileError` (path, line, field) on the first problem,
    also when ``data_dir`` is not a folder or holds none of those files (a mistyped
    ``--data`` must not "load" nothing).
    """
    root = Path(data_dir)
    if not root.is_dir():
        raise DataFileError(root, None, "data", "no such folder")
    names = ("subjects.toml", "watches.toml")
    if not any((root / n).exists() for n in names) and not any(root.glob("claims/*.toml")):
        raise DataFileError(
            root, None, "data", "no subjects.toml, watches.toml or claims/*.toml here"
        )
    adapters = set(known_adapters) if known_adapters is not None else None
    data = CuratedData(claims_dir=(root / "claims").resolve())
    subj_path = root / "subjects.toml"
    if subj_path.exists():
        f = DataFile(subj_path)
        f.check_keys(f.data, datafile.TOP_LEVEL["subjects.toml"], "", None)
        data.subjects = _read_subjects(f, known_namespaces)
    watch_path = root / "watches.toml"
    if watch_path.exists():
        f = DataFile(watch_path)
        f.check_keys(f.data, datafile.TOP_LEVEL["watches.toml"], "", None)
        data.watches = _read_watches(f, adapters, known_params or {})
        data.watch_file = True
    claim_files: dict[str, Path] = {}
    for path in sorted((root / "claims").glob("*.toml")):
        f = DataFile(path)
        f.check_keys(f.data, datafile.TOP_LEVEL["claims"], "", None)
        source, claims = _read_source_file(f)
        if source.key in claim_files:
            raise DataFileError(
                path,
                f.line_of_key("key"),
                "source.key",
                f"{source.key!r} also used in {claim_files[source.key]}",
            )
        claim_files[source.key] = path
        data.claim_files[source.key] = path.resolve()
        data.sources.append(source)
        subjects = {s.slug: s for s in data.subjects}
        for i, c in enumerate(claims):
            _check_subject(f, i, c, subjects)
        data.claims.extend(claims)
    return data
