"""Adapter contract: a fetched response in, observed values out; and the registry by kind.

An adapter is pure: ``parse(fetched)`` reads only the body bytes, the URL and the
fetch time, never the network or the database (STYLE.md "Pure adapters").
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from claims.values.canonical import dumps
from claims.values.value import Value
from tracker.errors import BadStatus, ConfigError, NotRecorded
from tracker.net.response import Fetched


@dataclass(frozen=True)
class ObservedValue:
    """One value an adapter read, before it is matched to a subject.

    ``subject_ref`` is ``(namespace, id)`` as the source names the thing, e.g.
    ``("huggingface", "moonshotai/Kimi-K2-Thinking")`` or ``("openrouter",
    "moonshotai/kimi-k2-thinking")``; ``alt_refs`` are tried in order when it does not
    resolve (e.g. OpenRouter's ``hugging_face_id``). ``attribute`` is a name from
    :data:`claims.vocabulary.ATTRIBUTES`; ``qualifiers`` make values comparable
    (``repo``, ``offering``, ``benchmark``...).
    """

    subject_ref: tuple[str, str]
    attribute: str
    value: Value
    qualifiers: Mapping[str, str] = field(default_factory=dict)
    note: str | None = None
    alt_refs: tuple[tuple[str, str], ...] = ()

    @functools.cached_property
    def qualifiers_json(self) -> str:
        """``qualifiers`` as canonical JSON (the observation row's ``qualifiers_json``),
        computed once: recording needs it for listing, conflicts and the row itself."""
        return dumps(dict(self.qualifiers))


@dataclass(frozen=True)
class ParseResult:
    """What an adapter read from one page: values, the next page's URL, warnings.

    ``warnings`` are data-quality notes (e.g. a price rejected as a unit error); they
    never become observations. ``listing`` names an attribute these pages list
    completely (an org's repos): a value of it absent from a complete, non-empty
    listing is no longer current.

    ``files`` (first page only) maps a file name to a URL the cycle fetches in the same
    watch run and hands, with the page, to the adapter's ``combine`` (a model repo's
    ``config.json``, ``model.safetensors.index.json``, ``LICENSE``). ``stale`` names
    attributes this run could not read (e.g. gated files): their last values stay
    current, are not re-seen, and the run says so in a warning (no event).
    """

    values: list[ObservedValue]
    next_url: str | None = None
    warnings: list[str] = field(default_factory=list)
    listing: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    stale: tuple[str, ...] = ()


ParseFn = Callable[[Fetched, Mapping[str, Any]], ParseResult]
# combine(first page, {file name: Fetched, or the FetchError it answered}, params)
#   -> {file name ("" = the first page): what was read with that file as its source}
CombineFn = Callable[[Fetched, Mapping[str, Any], Mapping[str, Any]], dict[str, ParseResult]]


@dataclass(frozen=True)
class Adapter:
    """A registered adapter: its ``kind`` and its pure ``parse(fetched, params)``.

    ``params`` is the watch's ``[watch.params]`` table (read-only configuration such
    as a CSS selector); it is never state.
    """

    kind: str
    parse: ParseFn
    description: str = ""
    combine: CombineFn | None = None


_REGISTRY: dict[str, Adapter] = {}

# BadStatus kinds that are a file's definite answer, handed to ``combine`` (gated repo,
# private, no such file) rather than failing the watch.
FILE_ANSWER_KINDS = frozenset(
    {"gated", "unauthorized", "missing_or_private", "not_found", "entry_not_found"}
)


def read_files(
    adapter: Adapter,
    main: Fetched,
    parsed: ParseResult,
    get: Callable[[str], Fetched],
    params: Mapping[str, Any],
) -> list[tuple[Fetched, ParseResult]]:
    """Fetch the ``files`` a first page asks for with ``get(url)`` and run the adapter's
    ``combine``; returns the pages to record: the first page with the combined values
    sourced to it, then each file fetched with the values sourced to that file.

    ``get`` raises :class:`~tracker.errors.BadStatus` for a non-2xx answer; one of
    :data:`FILE_ANSWER_KINDS` is handed to ``combine``, and so is a replay's
    :class:`~tracker.errors.NotRecorded` (the recording lacks the file: its values are
    unknown, the rest of the page stands, as live when a file is missing); any other
    FetchError propagates (429, 5xx, timeout: a half-read repo records nothing). Used by the cycle and by
    ``tracker parse``. Raises ConfigError when the adapter has no combine step.
    """
    if adapter.combine is None:
        raise ConfigError(f"adapter {adapter.kind} asks for files but has no combine step")
    got: dict[str, Fetched | BadStatus | NotRecorded] = {}
    for name, url in parsed.files.items():
        try:
            got[name] = get(url)
        except BadStatus as exc:
            if exc.kind not in FILE_ANSWER_KINDS:
                raise
            got[name] = exc
        except NotRecorded as exc:  # a replay without this file: unknown, not a failure
            got[name] = exc
    combined = adapter.combine(main, got, params)
    extra = combined.get("", ParseResult(values=[]))
    first = replace(
        parsed,
        values=[*parsed.values, *extra.values],
        warnings=[*parsed.warnings, *extra.warnings],
        stale=(*parsed.stale, *extra.stale),
    )
    pages = [(main, first)]
    for name, f in got.items():
        if isinstance(f, Fetched):
            pages.append((f, combined.get(name, ParseResult(values=[]))))
    return pages


def register(kind: str, description: str = "") -> Callable[[ParseFn], ParseFn]:
    """Decorator registering ``parse`` under ``kind``; a duplicate kind raises ConfigError."""

    def deco(fn: ParseFn) -> ParseFn:
        if kind in _REGISTRY:
            raise ConfigError(f"adapter kind {kind!r} is registered twice")
        _REGISTRY[kind] = Adapter(kind=kind, parse=fn, description=description)
        return fn

    return deco


def register_combine(kind: str) -> Callable[[CombineFn], CombineFn]:
    """Decorator giving the adapter registered as ``kind`` a pure ``combine`` step for
    the ``files`` its first page asks for; ConfigError when ``kind`` is unknown or
    already has one."""

    def deco(fn: CombineFn) -> CombineFn:
        adapter = _REGISTRY.get(kind)
        if adapter is None or adapter.combine is not None:
            raise ConfigError(f"adapter kind {kind!r} is unknown or already has a combine step")
        _REGISTRY[kind] = Adapter(adapter.kind, adapter.parse, adapter.description, fn)
        return fn

    return deco


# Built-in kind -> the module that registers it, imported on first use: a cycle over
# html_page watches then never loads the Hub, price or leaderboard parsers (start-up,
# issue 7). The Hugging Face kinds load hub_files, which adds huggingface_model's
# combine step to what huggingface.py registers.
BUILTIN: dict[str, str] = {
    "html_page": "tracker.adapters.html_page",
    "huggingface_org": "tracker.adapters.huggingface.files",
    "huggingface_model": "tracker.adapters.huggingface.files",
    "huggingface_config": "tracker.adapters.huggingface.files",
    "lmarena_catalog": "tracker.adapters.leaderboards",
    "artificial_analysis": "tracker.adapters.leaderboards",
    "openrouter_models": "tracker.adapters.prices",
    "litellm_prices": "tracker.adapters.prices",
    "terminal_bench": "tracker.adapters.leaderboards",
    "endpoint_speeds": "tracker.adapters.measurements",
    "aa_providers": "tracker.adapters.measurements",
    "claimant_page": "tracker.adapters.measurements",
}


# Watch params any watch may set: read by the cycle (robots, failing_after, auth,
# allow_hosts, allow_private: tracker.net.policy), the scheduler (cron, timezone) and `tracker status` (org/author, repo/repo_id name what it watches).
COMMON_PARAMS = frozenset(
    {
        "robots",
        "failing_after",
        "cron",
        "timezone",
        "auth",
        "org",
        "author",
        "repo",
        "repo_id",
        "allow_hosts",
        "allow_private",
    }
)
# The params each built-in adapter reads (see its parse function's docstring). A watch
# param outside these and COMMON_PARAMS is refused by `tracker load` as a likely typo (a
# mistyped `selector` used to load and fail only at check time).
BUILTIN_PARAMS: dict[str, frozenset[str]] = {
    "html_page": frozenset(
        {
            "selector",
            "expect_min",
            "columns",
            "name_cell",
            "subject",
            "attribute",
            "regex",
            "decimal",
            "scale",
            "unit",
            "qualifiers",
        }
    ),  # fmt: skip
    "huggingface_org": frozenset({"follow"}),  # read by the cycle: follow new repos
    "huggingface_model": frozenset({"files", "revision", "followed_from"}),
    "huggingface_config": frozenset(),
    "lmarena_catalog": frozenset({"leaderboard"}),
    "artificial_analysis": frozenset(),
    "openrouter_models": frozenset({"variants"}),
    "litellm_prices": frozenset({"variants"}),
    "terminal_bench": frozenset({"benchmark"}),
    "endpoint_speeds": frozenset({"variants"}),
    "aa_providers": frozenset({"variants"}),
    "claimant_page": frozenset({"claimant", "subject", "statements", "selector"}),
}


# Hosts besides the watch URL's that a built-in adapter's redirects may reach (issue 20:
# only these and a watch's own `allow_hosts`): the Hub serves repo files from its CDNs.
HUB_FILE_HOSTS = ("*.hf.co", "*.huggingface.co")
ADAPTER_HOSTS: dict[str, tuple[str, ...]] = {
    "huggingface_model": HUB_FILE_HOSTS,
    "huggingface_config": HUB_FILE_HOSTS,
}


# Namespaces the built-in adapters resolve subject ids in (`[subject.ids]` keys): each
# adapter looks a model up by (namespace, id), e.g. ("openrouter", "moonshotai/kimi-k2").
ID_NAMESPACES = frozenset(
    {"huggingface", "openrouter", "litellm", "lmarena", "artificial_analysis", "terminal_bench"}
)


def known_params() -> dict[str, frozenset[str]]:
    """Adapter kind -> every watch param it accepts (its own and COMMON_PARAMS), for the
    built-in kinds; an adapter registered elsewhere declares none and is not checked."""
    return {kind: own | COMMON_PARAMS for kind, own in BUILTIN_PARAMS.items()}


def _load(modules: Iterable[str]) -> None:
    for module in modules:
        importlib.import_module(module)


def get_adapter(kind: str) -> Adapter:
    """The adapter registered as ``kind`` (a built-in one is imported on first use);
    raises ConfigError naming it and the known kinds when unknown."""
    if kind not in _REGISTRY and kind in BUILTIN:
        _load([BUILTIN[kind]])
    try:
        return _REGISTRY[kind]
    except KeyError:
        known = ", ".join(adapter_kinds())
        raise ConfigError(f"unknown adapter kind {kind!r} (known: {known})") from None


def check_kind(kind: str) -> None:
    """Raise ConfigError (as :func:`get_adapter`) unless ``kind`` is registered or built
    in, without importing its module (a cycle of 304s never needs the parser)."""
    if kind not in _REGISTRY and kind not in BUILTIN:
        get_adapter(kind)


def adapter_kinds() -> list[str]:
    """Sorted kinds of every registered adapter (every built-in one imported)."""
    _load(sorted(set(BUILTIN.values())))
    return sorted(_REGISTRY)


def next_link(link_header: str | None) -> str | None:
    """The ``rel="next"`` target of an RFC 8288 ``Link`` header, or None.

    The Hub pages ``/api/models`` listings this way (hub-docs api.md, cursor pagination;
    fixtures/real/synthetic_hf_models_list_paginated_response.json).
    """
    if not link_header:
        return None
    for part in link_header.split(","):
        m = re.match(r"\s*<([^>]*)>\s*;(.*)", part)
        if m and re.search(r'rel\s*=\s*"?next"?', m.group(2)):
            return m.group(1)
    return None
