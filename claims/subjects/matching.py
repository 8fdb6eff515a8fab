"""Subject matching: which subject does a source's id (``namespace``, ``id``) name?

Input: subjects and their alias rows; output: a subject id or None. Pure (no I/O):
the explicit alias table first, then, for Hugging Face repo ids not listed, the
subject's normalized names, so a weights repo whose name is not known in advance
(``moonshotai/Kimi-K3.1-Pro``) is still recognised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol


class SubjectRow(Protocol):
    """What matching reads of a subject row (``claims.store.tables.Subject`` or a plain
    record of the cycle's DB-API path)."""

    @property
    def id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def hub_org(self) -> str | None: ...


class AliasRow(Protocol):
    """What matching reads of an alias row (``claims.store.tables.SubjectAlias``)."""

    @property
    def subject_id(self) -> int: ...
    @property
    def namespace(self) -> str: ...
    @property
    def alias(self) -> str: ...


# Namespaces whose ids are case-insensitive at the source (the Hub redirects
# "moonshotai/kimi-k2-thinking" to "moonshotai/Kimi-K2-Thinking").
CASE_INSENSITIVE = frozenset({"huggingface", "name"})
HUB_NAMESPACE = "huggingface"

_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def normalize_name(text: str) -> str:
    """Lower-case and drop everything but ASCII letters and digits.

    ``"Kimi K3.1 Pro"`` and ``"Kimi-K3.1-Pro"`` both give ``"kimik31pro"``.
    """
    return _NON_ALNUM.sub("", text.casefold())


def same_name(a: str, b: str) -> bool:
    """Whether two names differ only in case, spaces and punctuation (``"Vireo 30B"`` and
    ``"vireo-30b"``; letters of any script count, so two Chinese names are compared
    by their characters, not both read as empty)."""
    return _letters(a) == _letters(b)


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _fold(namespace: str, ident: str) -> str:
    return ident.casefold() if namespace in CASE_INSENSITIVE else ident


@dataclass
class AliasIndex:
    """Lookup tables built once per cycle from Subject and SubjectAlias rows.

    ``explicit`` maps (namespace, id) to a subject id. ``by_name`` maps a normalized
    name to the subject id going by it, or to the set of ids when several do (ambiguous:
    no match). ``hub_org`` (only subjects that set one) restricts name matching to repos
    of the subject's Hub organization, so a community re-upload under another account
    is not read as the vendor's weights. Kept compact (an int rather than a one-element
    set per name): a cycle holds it for every subject (issue 7: memory at 5,000 watches).
    """

    explicit: dict[tuple[str, str], int] = field(default_factory=dict)
    by_name: dict[str, int | set[int]] = field(default_factory=dict)
    hub_org: dict[int, str] = field(default_factory=dict)

    @classmethod
    def build(cls, subjects: Iterable[SubjectRow], aliases: Iterable[AliasRow]) -> AliasIndex:
        """Index ``subjects`` (their ``name``) and ``aliases`` (``name`` namespace aliases
        feed name matching; every namespace feeds explicit lookup)."""
        index = cls()
        for s in subjects:
            assert s.id is not None
            if s.hub_org:
                index.hub_org[s.id] = s.hub_org.casefold()
            index._add_name(s.name, s.id)
        for a in aliases:
            index.explicit[(a.namespace, _fold(a.namespace, a.alias))] = a.subject_id
            if a.namespace == "name":
                index._add_name(a.alias, a.subject_id)
        return index

    def _add_name(self, name: str, subject_id: int) -> None:
        key = normalize_name(name)
        if not key:
            return
        held = self.by_name.get(key)
        if held is None:
            self.by_name[key] = subject_id
        elif isinstance(held, set):
            held.add(subject_id)
        elif held != subject_id:
            self.by_name[key] = {held, subject_id}

    def _named(self, name: str) -> set[int]:
        held = self.by_name.get(normalize_name(name))
        if held is None:
            return set()
        return set(held) if isinstance(held, set) else {held}

    def resolve(self, namespace: str, ident: str) -> int | None:
        """The subject id ``(namespace, ident)`` names, or None.

        A ``name`` (as a page prints it) matches a subject whose normalized name or
        ``name`` alias equals it exactly.

        Hub repo ids (``org/name``) not in the alias table match when the repo name,
        normalized, equals one of a subject's normalized names exactly, and the org is
        the subject's ``hub_org`` (when set). Exact equality is deliberate:
        ``Kimi-K3`` must not match "Kimi K3.1 Pro" and ``Kimi-K2-Thinking`` must not
        match "Kimi K2".
        """
        hit = self.explicit.get((namespace, _fold(namespace, ident)))
        if hit is not None:
            return hit
        if namespace == "name":  # a model name as a page prints it ("Kimi K3.1 Pro")
            named = self._named(ident)
            return next(iter(named)) if len(named) == 1 else None
        if namespace != HUB_NAMESPACE or "/" not in ident:
            return None
        org, _, repo = ident.partition("/")
        candidates = {
            sid for sid in self._named(repo) if self.hub_org.get(sid) in (None, org.casefold())
        }
        return candidates.pop() if len(candidates) == 1 else None

    def resolve_any(self, refs: Iterable[tuple[str, str]]) -> int | None:
        """The first of ``refs`` that resolves, or None."""
        for namespace, ident in refs:
            sid = self.resolve(namespace, ident)
            if sid is not None:
                return sid
        return None
