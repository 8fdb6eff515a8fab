"""Curated data loader: ``data/*.toml`` (subjects, watches) and ``data/claims/*.toml``
(one source and its claims per file) -> validated specs -> database rows.

Everything is read and validated before anything is written: every problem found is
raised together with its path, line and field (:class:`DataFileError`, several as
:class:`DataFileErrors`) and the database is left as it was. The specs are in
:mod:`claims.curated.specs` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from claims.curated import checks as datachecks
from claims.curated import datafile
from claims.curated.datafile import DataFile, DataFileError
from claims.curated.fields import check_top, entries, opt_str, req_str, str_list, tables_ok, unique
from claims.curated.hubids import namespace_problem, repo_id_problem, suggested_namespace
from claims.curated.problems import DataFileErrors, Problems
from claims.curated.specs import (
    ClaimSpec,
    CuratedData,
    SourceSpec,
    SubjectSpec,
    WatchSpec,
    claim_key,
)
from claims.curated.watchparams import (
    common_param_problems,
    control_problem,
    interval_problem,
    slug_problem,
)
from claims.subjects.aliases import plain_alias_problem
from claims.subjects.references import listed_variant
from claims.values.stated import StatedValueError, parse_stated
from claims.values.value import Value
from claims.vocabulary import ATTRIBUTES, QUALIFIERS, SOURCE_KINDS

__all__ = [
    "ClaimSpec", "CuratedData", "DataFileError", "DataFileErrors", "SourceSpec",
    "SubjectSpec", "WatchSpec", "claim_key", "load_data",
]  # fmt: skip
# adapter params -> (param, message) for each malformed one (tracker.adapters supplies them)
ParamCheck = Callable[[Mapping[str, Any]], list[tuple[str, str]]]


def _no_control(f: DataFile, table: str, i: int, name: str, value: Any) -> None:
    problem = control_problem(value) if isinstance(value, str) else None
    if problem:
        raise f.error(table, i, name, problem)


# -- reading -------------------------------------------------------------------


def _read_subject(
    f: DataFile,
    i: int,
    entry: dict[str, Any],
    namespaces: Iterable[str] | None,
    earlier: list[tuple[int, str]],
) -> SubjectSpec:
    f.check_keys(entry, datafile.SUBJECT, f"subject[{i}]", f.line_of("subject", i))
    slug = req_str(f, "subject", i, entry, "slug")
    bad_slug = slug_problem(slug)
    if bad_slug:
        raise f.error("subject", i, "slug", bad_slug)
    for name in ("name", "organization", "family", "hub_org"):
        _no_control(f, "subject", i, name, entry.get(name))
    for alias in str_list(f, "subject", i, entry, "aliases"):
        _no_control(f, "subject", i, "aliases", alias)
        plain = plain_alias_problem(alias)
        if plain:
            raise f.error("subject", i, "aliases", f"{plain}: an alias must name this model "
                          "alone in text (e.g. 'Qwen 3', not '3'); remove it")  # fmt: skip
    _hub_names(f, i, entry)
    unique(f, "subject", i, "slug", slug, earlier)
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
    return SubjectSpec(
        slug=slug,
        name=req_str(f, "subject", i, entry, "name"),
        organization=opt_str(f, "subject", i, entry, "organization"),
        family=opt_str(f, "subject", i, entry, "family"),
        hub_org=opt_str(f, "subject", i, entry, "hub_org"),
        description=opt_str(f, "subject", i, entry, "description"),
        aliases=str_list(f, "subject", i, entry, "aliases"),
        variants=str_list(f, "subject", i, entry, "variants"),
        ids=ids,
    )


def _hub_names(f: DataFile, i: int, entry: dict[str, Any]) -> None:
    """``hub_org`` and ``ids.huggingface`` must be names the Hub accepts
    (:mod:`claims.curated.hubids`): a display name there (``Nimbus Labs``) makes an
    org watch that never sees the weights land."""
    hub_org = entry.get("hub_org")
    if isinstance(hub_org, str):
        problem = namespace_problem(hub_org)
        if problem:
            raise f.error("subject", i, "hub_org", f"{problem}: hub_org is the Hub "
                          f"namespace (e.g. {suggested_namespace(hub_org)!r}), not the "
                          "display name (that is `organization`)")  # fmt: skip
    ids = entry.get("ids")
    repos = ids.get("huggingface", []) if isinstance(ids, dict) else []
    for repo in repos if isinstance(repos, list) else []:
        problem = repo_id_problem(repo) if isinstance(repo, str) else None
        if problem:
            raise f.error("subject", i, "ids", f"huggingface: {problem}")


def _read_subjects(
    f: DataFile, namespaces: Iterable[str] | None, problems: Problems
) -> tuple[list[SubjectSpec], set[str | None]]:
    """The well-formed ``[[subject]]`` entries of ``f`` (errors go to ``problems``) and
    the slugs written in the others, case-folded: a claim naming one is not also
    "unknown subject". ``None`` in the set: an entry without a slug, so any claim's
    subject might be it."""
    out: list[SubjectSpec] = []
    read: list[tuple[int, str]] = []  # (entry index, slug) of each of `out`
    unsure: set[str | None] = set()
    for i, entry in entries(f, "subject"):
        spec = problems.attempt(_read_subject, f, i, entry, namespaces, read)
        if spec is None:
            slug = entry.get("slug")
            unsure.add(slug.casefold() if isinstance(slug, str) else None)
            continue
        out.append(spec)
        read.append((i, spec.slug))
    names = [(i, s.slug, (s.name, *s.aliases)) for (i, _), s in zip(read, out, strict=True)]
    for err in datachecks.shared_aliases(f, names):
        problems.add(err)
    return out, unsure


def _read_watch(
    f: DataFile,
    i: int,
    entry: dict[str, Any],
    known_adapters: set[str] | None,
    known_params: Mapping[str, Iterable[str]],
    earlier: list[tuple[int, str]],
    param_checks: Mapping[str, ParamCheck],
) -> WatchSpec:
    f.check_keys(entry, datafile.WATCH, f"watch[{i}]", f.line_of("watch", i))
    name = req_str(f, "watch", i, entry, "name")
    _no_control(f, "watch", i, "name", name)
    unique(f, "watch", i, "name", name, earlier)
    adapter = req_str(f, "watch", i, entry, "adapter")
    if known_adapters is not None and adapter not in known_adapters:
        hint = datafile.nearest(adapter, known_adapters)
        raise f.error("watch", i, "adapter", f"unknown adapter {adapter!r} ({hint})")
    url = req_str(f, "watch", i, entry, "url")
    if not url.startswith(("http://", "https://")):
        raise f.error("watch", i, "url", f"{url!r} is not an http(s) URL")
    interval = entry.get("interval_minutes", 60)
    bad_interval = interval_problem(interval)
    if bad_interval:
        raise f.error("watch", i, "interval_minutes", bad_interval)
    params = entry.get("params", {})
    if not isinstance(params, dict):
        raise f.error("watch", i, "params", "expected a table")
    if adapter in known_params:  # a likely typo, e.g. `selectr` (the adapter reads none)
        f.check_keys(params, known_params[adapter], f"watch[{i}].params", f.line_of("watch", i))
    check = param_checks.get(adapter)
    problems = [*common_param_problems(params), *(check(params) if check else [])]
    if problems:  # the first; a fixed one shows the next (one error per entry)
        key, message = problems[0]
        raise DataFileError(
            f.path, f.line_of("watch", i, key.split(".")[0]), f"watch[{i}].params.{key}", message
        )
    return WatchSpec(
        name, adapter, url, interval, params, origin=f"{f.path}:{f.line_of('watch', i)}"
    )


def _read_watches(
    f: DataFile,
    known_adapters: set[str] | None,
    known_params: Mapping[str, Iterable[str]],
    problems: Problems,
    param_checks: Mapping[str, ParamCheck],
) -> list[WatchSpec]:
    """The well-formed ``[[watch]]`` entries of ``f``; errors go to ``problems``."""
    out: list[WatchSpec] = []
    read: list[tuple[int, str]] = []  # (entry index, name) of each of `out`
    for i, entry in entries(f, "watch"):
        spec = problems.attempt(
            _read_watch, f, i, entry, known_adapters, known_params, read, param_checks
        )
        if spec is not None:
            out.append(spec)
            read.append((i, spec.name))
    return out


def _read_source(f: DataFile) -> SourceSpec:
    """The ``[source]`` table of ``f``. Each field is checked on its own, so one run
    reports every problem of the table (a bad date beside a bad key and an unknown field,
    not only the first: a fresh-user trial): raises :class:`DataFileError`, or
    :class:`DataFileErrors` with several. ``url`` must be an http(s) URL with a host."""
    src = f.data.get("source")
    if not isinstance(src, dict):
        raise DataFileError(f.path, None, "source", "missing [source] table")

    def s_err(name: str, msg: str) -> DataFileError:
        return DataFileError(f.path, f.line_of_key(name), f"source.{name}", msg)

    found = Problems()
    for wrong in f.key_errors(src, datafile.SOURCE, "source", None):
        found.add(wrong)
    key = src.get("key")
    if key is None:
        found.add(s_err("key", "required: a lower-case slug naming the source (e.g. wire-orion-2)"))
    elif not isinstance(key, str) or slug_problem(key):
        found.add(s_err("key", f"{key!r} is not a lower-case slug (letters, digits and dashes)"))
    title = src.get("title")
    if not isinstance(title, str) or not title.strip():
        found.add(s_err("title", "required text"))
    kind = src.get("kind", "press")
    if kind not in SOURCE_KINDS:
        found.add(s_err("kind", f"{kind!r} is not one of {', '.join(SOURCE_KINDS)}"))
    published = src.get("published")
    if published is not None and not datachecks.is_iso_date(str(published)):
        found.add(
            s_err("published", f"{published!r} is not a real ISO date (YYYY-MM-DD or YYYY-MM)")
        )
    texts = ("url", "publisher", "published_precision", "language", "seed")
    for name in texts:
        if src.get(name) is not None and not isinstance(src[name], str):
            found.add(s_err(name, f"expected text, got {type(src[name]).__name__}"))
    url = src.get("url")
    if isinstance(url, str) and not _web_url(url):
        found.add(s_err("url", f"{url!r} is not an http(s) URL with a host"))
    if src.get("published_precision") not in (None, *datafile.PUBLISHED_PRECISIONS):
        found.add(
            s_err("published_precision", f"not one of {', '.join(datafile.PUBLISHED_PRECISIONS)}")
        )
    else:
        found.attempt(datachecks.source_dates, f, src)
    found.raise_if_any()
    assert isinstance(key, str) and isinstance(title, str)
    return SourceSpec(
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


def _web_url(text: str) -> bool:
    """Whether ``text`` is an http or https URL naming a host (``https://example.org/a``;
    not ``not a url``, ``example.org/a`` or ``https:///a``)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text.strip())
        return parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        return False


def _read_claim(f: DataFile, i: int, entry: dict[str, Any], source: str) -> ClaimSpec:
    """Claim ``i`` of ``f`` as a :class:`ClaimSpec`. Its fields are checked each on its
    own, so one run reports every problem of the entry (a key typo and a bad attribute,
    not only the first: a fresh-user trial): raises :class:`DataFileError`, or
    :class:`DataFileErrors` with several."""
    found = Problems()
    for wrong in f.key_errors(entry, datafile.CLAIM, f"claim[{i}]", f.line_of("claim", i)):
        found.add(wrong)
    subject = found.attempt(req_str, f, "claim", i, entry, "subject")
    attribute = found.attempt(_claim_attribute, f, i, entry)
    quals = found.attempt(_claim_qualifiers, f, i, entry)
    found.attempt(datachecks.claim_fields, f, i, entry)
    value = found.attempt(_claim_value, f, i, entry, attribute) if attribute else None
    texts = {
        name: found.attempt(opt_str, f, "claim", i, entry, name)
        for name in ("raw", "claimant", "locator", "stated_date", "note")
    }
    found.raise_if_any()
    assert subject is not None and attribute is not None and value is not None
    return ClaimSpec(
        subject=subject,
        attribute=attribute,
        value=value,
        source=source,
        qualifiers=dict(quals or {}),
        **texts,
    )


def _claim_attribute(f: DataFile, i: int, entry: dict[str, Any]) -> str:
    """The claim's ``attribute``, one of :data:`claims.vocabulary.ATTRIBUTES`."""
    attribute = req_str(f, "claim", i, entry, "attribute")
    if attribute not in ATTRIBUTES:
        hint = datafile.nearest(attribute, ATTRIBUTES)
        raise f.error("claim", i, "attribute", f"unknown attribute {attribute!r} ({hint})")
    return attribute


def _claim_qualifiers(f: DataFile, i: int, entry: dict[str, Any]) -> dict[str, str]:
    """The claim's ``qualifiers``: a table of text values under known qualifier names."""
    quals = entry.get("qualifiers", {})
    if not isinstance(quals, dict) or not all(isinstance(v, str) for v in quals.values()):
        raise f.error("claim", i, "qualifiers", "expected a table of text values")
    for q in quals:
        if q not in QUALIFIERS:
            hint = datafile.nearest(q, QUALIFIERS)
            raise f.error("claim", i, "qualifiers", f"unknown qualifier {q!r} ({hint})")
    return quals


def _claim_value(f: DataFile, i: int, entry: dict[str, Any], attribute: str) -> Value:
    """The claim's ``value`` read as stated for ``attribute`` (with its ``unit`` and
    ``exact``); needs a known attribute, so it is checked only with one."""
    if "value" not in entry:
        raise f.error("claim", i, "value", "required")
    unit = opt_str(f, "claim", i, entry, "unit")
    wrong_unit = datafile.unit_problem(attribute, unit)
    if wrong_unit:
        raise f.error("claim", i, "unit", wrong_unit)
    try:
        return parse_stated(
            datachecks.value_text(f, i, entry["value"]),
            attribute,
            unit=unit,
            exact=entry.get("exact", False) is True,
        )
    except StatedValueError as exc:
        raise f.error("claim", i, "value", str(exc)) from exc


def _read_source_file(
    f: DataFile, problems: Problems
) -> tuple[SourceSpec | None, list[tuple[int, ClaimSpec]], list[tuple[int, str]]]:
    """The ``[source]`` of a claims file (None when malformed), its well-formed claims,
    each with its ``[[claim]]`` index, the same claim twice kept once, and (index,
    subject slug) of each malformed claim that names one, whose subject is still
    cross-checked (a key typo and an unknown subject are both reported); errors go to
    ``problems``. The claims of a malformed source are still checked."""
    source = problems.attempt(_read_source, f)
    key = source.key if source else ""  # claims are checked all the same; none is stored
    claims, malformed = [], []
    for i, entry in entries(f, "claim"):
        spec = problems.attempt(_read_claim, f, i, entry, key)
        if spec is not None:
            claims.append((i, spec))
        elif isinstance(entry, dict) and isinstance(entry.get("subject"), str):
            malformed.append((i, entry["subject"]))
    repeats = datachecks.duplicate_claims(f, [(i, c.key()) for i, c in claims])
    for _, err in repeats:
        problems.add(err)
    repeated = {i for i, _ in repeats}
    return source, [(i, c) for i, c in claims if i not in repeated], malformed


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
    listed = listed_variant(variant, spec.variants)
    if listed:  # "fast" is stored as the listed "Fast"
        claim.qualifiers["variant"] = listed


def load_data(
    data_dir: Path | str,
    *,
    known_adapters: Iterable[str] | None = None,
    known_params: Mapping[str, Iterable[str]] | None = None,
    known_namespaces: Iterable[str] | None = None,
    param_checks: Mapping[str, ParamCheck] | None = None,
) -> CuratedData:
    """Read and validate ``subjects.toml``, ``watches.toml`` and ``claims/*.toml`` under ``data_dir``.

    Cross-checks: slugs, source keys and watch names are unique; every claim names a
    known subject; with ``known_adapters``, every watch's adapter is one of them; with
    ``known_params`` (adapter kind -> the watch params it reads), a watch of such a kind
    sets no other param; with ``known_namespaces``, a subject's ``[subject.ids]`` uses
    only those (the namespaces adapters match ids in); with ``param_checks`` (adapter
    kind -> a function of the params returning ``(param, message)`` pairs), an adapter's
    own params are checked too (a CSS selector that does not compile, a bad regex).
    Every watch's schedule and common params are checked
    (:mod:`claims.curated.watchparams`), names for control characters, slugs for a safe
    pattern.

    Every file is read and each entry checked on its own, so one call finds every
    independent problem (:mod:`claims.curated.problems`): one raises :class:`DataFileError`
    (path, line, field), several :class:`DataFileErrors`. An entry with an error is left
    out of the cross-checks: a claim naming a malformed subject, or any claim when
    subjects.toml cannot be read, is not also an "unknown subject". Also raises
    DataFileError when ``data_dir`` is not a folder or holds none of those files (a
    mistyped ``--data`` must not "load" nothing).
    """
    root = Path(data_dir)
    if not root.is_dir():
        raise DataFileError(root, None, "data", "no such folder")
    names = ("subjects.toml", "watches.toml")
    if not any((root / n).exists() for n in names) and not any(root.glob("claims/*.toml")):
        raise DataFileError(
            root, None, "data", "no subjects.toml, watches.toml or claims/*.toml here"
        )
    problems = Problems()
    adapters = set(known_adapters) if known_adapters is not None else None
    data = CuratedData(claims_dir=(root / "claims").resolve())
    # Claims whose subject might be a malformed entry's are not also "unknown subject":
    # no subject is when subjects.toml cannot be read or an entry has no slug.
    subjects_read = True
    unsure: set[str | None] = set()
    subj_path = root / "subjects.toml"
    if subj_path.exists():
        f = problems.attempt(DataFile, subj_path)
        if f is not None:
            problems.attempt(check_top, f, "subjects.toml")
            data.subjects, unsure = _read_subjects(f, known_namespaces, problems)
        subjects_read = f is not None and tables_ok(f, "subject") and None not in unsure
    watch_path = root / "watches.toml"
    if watch_path.exists():
        f = problems.attempt(DataFile, watch_path)
        if f is not None:
            problems.attempt(check_top, f, "watches.toml")
            data.watches = _read_watches(
                f, adapters, known_params or {}, problems, param_checks or {}
            )
        data.watch_file = True
    subjects = {s.slug: s for s in data.subjects}
    unknown = _read_claim_files(root, data, subjects, subjects_read, unsure, problems)
    _report_unknown_subjects(unknown, subjects, problems)
    problems.raise_if_any()
    return data


def _read_claim_files(
    root: Path,
    data: CuratedData,
    subjects: Mapping[str, Any],
    subjects_read: bool,
    unsure: set[str | None],
    problems: Problems,
) -> dict[str, list[tuple[DataFile, int]]]:
    """Read every ``claims/*.toml`` into ``data`` (sources, claims, their files); returns
    the slugs no subject has, with where each is named (file, claim index)."""
    unknown: dict[str, list[tuple[DataFile, int]]] = {}
    claim_files: dict[str, Path] = {}
    for path in sorted((root / "claims").glob("*.toml")):
        f = problems.attempt(DataFile, path)
        if f is None:
            continue
        problems.attempt(check_top, f, "claims")
        source, claims, malformed = _read_source_file(f, problems)
        if source is not None and source.key in claim_files:
            problems.add(
                DataFileError(
                    path,
                    f.line_of_key("key"),
                    "source.key",
                    f"{source.key!r} also used in {claim_files[source.key]}",
                )
            )
        elif source is not None:
            claim_files[source.key] = path
            data.claim_files[source.key] = path.resolve()
            data.sources.append(source)
        # a malformed claim's other problems are reported: is its subject known too?
        named = sorted(
            [(i, c.subject, c) for i, c in claims] + [(i, s, None) for i, s in malformed]
        )
        for i, slug, c in named:
            if slug in subjects:
                if c is not None:
                    problems.attempt(_check_subject, f, i, c, subjects)
            elif subjects_read and slug.casefold() not in unsure:
                unknown.setdefault(slug, []).append((f, i))
        data.claims.extend(c for _, c in claims)
    return unknown


def _report_unknown_subjects(
    unknown: Mapping[str, list[tuple[DataFile, int]]],
    subjects: Mapping[str, Any],
    problems: Problems,
) -> None:
    """One error per unknown slug, at its first claim, not one per claim naming it."""
    for slug, where in unknown.items():
        f, i = where[0]
        hint = datafile.nearest(slug, subjects) if subjects else "no subjects.toml here"
        more = f"; {len(where) - 1} more claims name it" if len(where) > 1 else ""
        if more and subjects and "did you mean" in hint:  # many claims agree: maybe the slug
            more += ": if they are right, the subject's slug in subjects.toml is the typo"
        problems.add(f.error("claim", i, "subject", f"unknown subject {slug!r} ({hint}){more}"))
