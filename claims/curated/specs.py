"""The shapes of curated data as :mod:`claims.curated.loader` reads it: one spec per subject,
watch, source and claim of a data folder, the whole folder (:class:`CuratedData`), and
the content key a claim is stored under (:func:`claim_key`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims.values.canonical import dumps
from claims.values.value import Value


@dataclass(frozen=True)
class SubjectSpec:
    """One ``[[subject]]`` of subjects.toml as validated: slug, display name, and its
    aliases, variants and ids (namespace -> ids) used to match observations (docs/data.md)."""

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
    """One ``[[watch]]`` of watches.toml: adapter kind, URL, interval in minutes, the
    adapter's params, and ``origin`` (the file it came from)."""

    name: str
    adapter: str
    url: str
    interval_minutes: int = 60
    params: dict[str, Any] = field(default_factory=dict)
    origin: str = ""


@dataclass(frozen=True)
class SourceSpec:
    """The ``[source]`` of a claims file: its key, title, URL, publisher, publication
    date (ISO text) and its precision, language and kind (one of SOURCE_KINDS)."""

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
    """One ``[[claim]]``: a figure (``value``, parsed by :func:`claims.values.stated.parse_stated`)
    a source states about a subject's attribute, with its qualifiers, quote and claimant."""

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
    payload = dumps(
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
