"""How a sentence names a source: briefly, and never the same way for two sources.

Reasons, event titles, ``tracker discrepancies`` and promises say "Moonshot AI via X".
X is the publisher, else the site, else the start of the title in quotes; a title cut at
28 characters named two seed articles "Kimi 3.1 Pro: 2.8T open…" and "Kimi K3.1 Pro
launch…" (fresh-user trial), so titles now keep up to :data:`TITLE_CHARS` characters
(whole up to :data:`WHOLE_TITLE`), and sources that would share a name get more of
their titles until the names differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol
from urllib.parse import urlsplit

TITLE_CHARS = 48  # a longer title is cut at the last word that fits in this many characters
WHOLE_TITLE = 56  # ... unless it is at most this long: then it is named whole
# A cut title does not end on a joining word ("pricing and…").
_JOINERS = frozenset(
    "a an and at by for from in of on or the to vs with against e de do da em o os as".split()
)


class SourceLike(Protocol):
    """What naming reads of a source (:class:`claims.store.tables.Source` and
    :class:`claims.store.rows.SourceRow` have it; read-only, so either fits)."""

    @property
    def id(self) -> int | None: ...
    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def publisher(self) -> str | None: ...
    @property
    def url(self) -> str | None: ...


def cut_title(title: str, limit: int = TITLE_CHARS) -> str:
    """``title`` with runs of spaces collapsed; longer than :data:`WHOLE_TITLE` (or than
    ``limit`` when it is above that) it is cut after the last whole word within ``limit``
    characters, without a trailing joining word or punctuation, and ends in ``…``."""
    title = " ".join(title.split())
    if len(title) <= max(limit, WHOLE_TITLE):
        return title
    words = title[: limit + 1].split(" ")
    if len(words) > 1:
        words = words[:-1]  # the last piece may be part of a word
    while len(words) > 1 and words[-1].lower().strip(" :,;-–") in _JOINERS:
        words.pop()
    return " ".join(words).rstrip(" :,;-–") + "…"


def _host(source: SourceLike) -> str | None:
    host = urlsplit(source.url.strip()).hostname if source.url else None
    return host.removeprefix("www.") if host else None


def _named_by(source: SourceLike) -> tuple[str, bool]:
    """(name, whether it is the title): its publisher, else its site, else its title
    (spaces collapsed), else its key."""
    if source.publisher and source.publisher.strip():
        return source.publisher.strip(), False
    host = _host(source)
    if host:
        return host, False
    title = " ".join((source.title or "").split())
    if not title or title == source.key:
        return source.key, False
    return title, True


def base_name(source: SourceLike, limit: int = TITLE_CHARS) -> str:
    """The source's name when no other source shares it: its publisher, else its site
    (``news.example.com``), else its title (:func:`cut_title`) in quotes, else its key."""
    name, is_title = _named_by(source)
    return f"“{cut_title(name, limit)}”" if is_title else name


def plain_name(source: SourceLike) -> str:
    """The source's name for JSON: :func:`base_name` without the display quotes and the
    cut, which are presentation (``tracker status --json`` gave ``"“Kimi K3.1 Pro
    launch…”"``, a fresh-user trial)."""
    return _named_by(source)[0]


def _longer_name(source: SourceLike, limit: int) -> str:
    """A name that adds (more of) the title: ``Máquina Web: “Kimi K3.1 Pro…”``."""
    title = " ".join((source.title or "").split())
    if not title or title == source.key:
        return f"{base_name(source)} ({source.key})"
    quoted = f"“{cut_title(title, limit)}”"
    if (source.publisher and source.publisher.strip()) or _host(source):
        return f"{base_name(source)}: {quoted}"
    return quoted


def source_names(sources: Iterable[SourceLike]) -> dict[int | None, str]:
    """Source id -> the name sentences use, one per source and different for different
    sources (compared ignoring case). Sources whose :func:`base_name` collide are named
    with their titles, cut longer and longer until the names differ; sources with the
    same title (or none) then get their key in brackets."""
    sources = list(sources)
    names = {s.id: base_name(s) for s in sources}
    longest = max((len(s.title or "") for s in sources), default=0)
    for _ in range(3):  # a lengthened name could meet another source's name: check again
        clashes = _clashing(sources, names)
        if not clashes:
            break
        for group in clashes:
            limit = TITLE_CHARS
            while True:
                tried = {s.id: _longer_name(s, limit) for s in group}
                if len({n.casefold() for n in tried.values()}) == len(group) or limit > longest:
                    break
                limit += 8
            if len({n.casefold() for n in tried.values()}) < len(group):
                tried = {s.id: f"{tried[s.id]} [{s.key}]" for s in group}
            names.update(tried)
    return names


def _clashing(sources: list[SourceLike], names: dict[int | None, str]) -> list[list[SourceLike]]:
    groups: dict[str, list[SourceLike]] = {}
    for s in sources:
        groups.setdefault(names[s.id].casefold(), []).append(s)
    return [g for g in groups.values() if len(g) > 1]
