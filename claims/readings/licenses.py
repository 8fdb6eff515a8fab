"""Licences: Hub ``cardData`` / ``license:`` tags and free text -> one licence identifier.

Identifiers are the Hub's lower-case licence ids (SPDX id where one exists via
:func:`spdx_id`); ``other`` + ``license_name`` gives the named licence (``modified-mit``).
"Permissive" or "commercial use allowed" are claims about licence properties.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

# Hub licence id -> SPDX identifier, where SPDX has one.
HUB_TO_SPDX: dict[str, str] = {
    "apache-2.0": "Apache-2.0",
    "mit": "MIT",
    "bsd-3-clause": "BSD-3-Clause",
    "bsd-2-clause": "BSD-2-Clause",
    "cc-by-4.0": "CC-BY-4.0",
    "cc-by-sa-4.0": "CC-BY-SA-4.0",
    "cc-by-nc-4.0": "CC-BY-NC-4.0",
    "gpl-3.0": "GPL-3.0-only",
    "agpl-3.0": "AGPL-3.0-only",
    "lgpl-3.0": "LGPL-3.0-only",
    "mpl-2.0": "MPL-2.0",
    "openrail": "OpenRAIL",
    "unlicense": "Unlicense",
}
# Free-text spellings and licence names -> Hub id (a data file: rules that are data).
NAMES_FILE = Path(__file__).with_name("license_names.toml")


def _read_names(path: Path = NAMES_FILE) -> dict[str, str]:
    """``[names]`` of the licence-names file, keys in :func:`_folded` form."""
    with path.open("rb") as fh:
        names = tomllib.load(fh)["names"]
    return {_folded(k): str(v) for k, v in names.items()}


def _folded(text: str) -> str:
    """Lower case, spaces/underscores/dashes as one dash: how names are compared."""
    return re.sub(r"[\s_\-]+", "-", text.strip().lower())


ALIASES: dict[str, str] = _read_names()
# Properties of known licences: None = depends on terms we do not encode.
PROPERTIES: dict[str, dict[str, bool | None]] = {
    "apache-2.0": {"permissive": True, "commercial_use": True},
    "mit": {"permissive": True, "commercial_use": True},
    "bsd-3-clause": {"permissive": True, "commercial_use": True},
    "modified-mit": {"permissive": None, "commercial_use": True},
    "cc-by-nc-4.0": {"permissive": False, "commercial_use": False},
    "gpl-3.0": {"permissive": False, "commercial_use": True},
    "agpl-3.0": {"permissive": False, "commercial_use": True},
}
# Claim texts that state a licence property rather than an identifier.
PROPERTY_WORDS: dict[str, str] = {
    "permissive": "permissive",
    "permissiva": "permissive",
    "commercial use allowed": "commercial_use",
    "commercial use": "commercial_use",
    "uso comercial": "commercial_use",
}


@dataclass(frozen=True)
class LicenseReading:
    """A licence id (lower-case Hub id, or the ``license_name`` of an ``other`` licence),
    where it was read, and the sha256 of the LICENSE text when known."""

    id: str | None
    provenance: str | None
    text_sha256: str | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)


def normalize_license_text(text: str) -> str:
    """Free text or an id ("Modified MIT", "Apache 2.0", "MIT", "Apache-2.0",
    "gemma-terms-of-use") -> lower-case Hub id, through the names file
    (``license_names.toml``) compared case-insensitively; else the text lower-case
    with spaces as dashes."""
    t = _folded(text)
    return ALIASES.get(t, re.sub(r"[\s_]+", "-", " ".join(text.strip().lower().split())))


def spdx_id(license_id: str) -> str | None:
    """SPDX identifier for a Hub licence id, or None when SPDX has none (``modified-mit``)."""
    return HUB_TO_SPDX.get(license_id)


# A licence file at a repo's root, as Hub listings name them: LICENSE, LICENSE.md,
# LICENSE.txt, license, LICENCE, LICENSE-MODEL... (any case).
_LICENSE_FILE = re.compile(r"licen[cs]e(?:[.\-_][\w.\-]*)?", re.IGNORECASE)
_FILE_ORDER = ("LICENSE", "LICENSE.md", "LICENSE.txt")  # preferred when several


def license_file(names: Iterable[str]) -> str | None:
    """The licence file among a repo's file names (the Hub's ``siblings[].rfilename``),
    at its root: ``LICENSE``, then ``LICENSE.md``, ``LICENSE.txt``, then any other such
    name (``license``, ``LICENCE``, ``LICENSE-MODEL``) in name order; None when the
    listing has none."""
    found = sorted(n for n in names if "/" not in n and _LICENSE_FILE.fullmatch(n))
    for name in _FILE_ORDER:
        if name in found:
            return name
    return found[0] if found else None


@dataclass(frozen=True)
class LicenseLink:
    """Where to read a licence: ``url`` (None when there is nowhere), ``kind`` (``file``:
    the repo's licence file; ``spdx``: the SPDX page of its id; ``none``) and ``note``
    for people when there is no link (``no licence file in the repo``)."""

    url: str | None
    kind: str
    note: str | None = None


def license_link(
    license_id: str,
    repo: str | None = None,
    file: str | None = None,
    *,
    files_listed: bool = False,
) -> LicenseLink:
    """Where to read a licence, the licence itself rather than a page about the repo:

    1. the repo's licence ``file`` (from its Hub file listing, :func:`license_file`, or
       a LICENSE the watch fetched): ``https://huggingface.co/ORG/NAME/blob/main/LICENSE``;
    2. else the SPDX page of an id SPDX has (``https://spdx.org/licenses/Apache-2.0.html``);
    3. else no link, saying why: ``no licence file in the repo`` when its file listing
       was read (``files_listed``), else ``no licence file seen (the repo's file list was
       not read)``."""
    if file and repo:
        return LicenseLink(f"https://huggingface.co/{repo}/blob/main/{quote(file)}", "file")
    spdx = spdx_id(license_id)
    if spdx:
        return LicenseLink(f"https://spdx.org/licenses/{spdx}.html", "spdx")
    if files_listed:
        return LicenseLink(None, "none", "no licence file in the repo")
    return LicenseLink(None, "none", "no licence file seen (the repo's file list was not read)")


def hub_license(card_data: dict[str, Any] | None, tags: list[str] | None = None) -> LicenseReading:
    """Licence of a Hub ``GET /api/models/{repo}`` response from ``cardData.license``
    (+ ``cardData.license_name`` when it is ``other``) and ``license:`` tags.

    ``cardData`` wins over tags; a disagreement is a warning. Nothing found -> id None."""
    warnings: list[str] = []
    card = card_data or {}
    tag_ids = [t.split(":", 1)[1] for t in (tags or []) if t.startswith("license:")]
    raw = card.get("license")
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    lid: str | None = None
    provenance: str | None = None
    if isinstance(raw, str) and raw.strip():
        lid, provenance = normalize_license_text(raw), "cardData.license"
    elif tag_ids:
        lid, provenance = normalize_license_text(tag_ids[0]), "tags"
    if lid is not None and tag_ids and normalize_license_text(tag_ids[0]) != lid:
        warnings.append(f"cardData.license {lid!r} differs from tag license:{tag_ids[0]}")
    if lid == "other":
        name = card.get("license_name")
        if isinstance(name, str) and name.strip():
            lid, provenance = normalize_license_text(name), "cardData.license_name"
        else:
            warnings.append("license is 'other' without a license_name")
    return LicenseReading(lid, provenance, None, tuple(warnings))


def license_text_sha256(text: str) -> str:
    """sha256 of a LICENSE text with line endings and trailing spaces normalized, so a
    re-encoded file is not a change but any change of wording is."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return hashlib.sha256("\n".join(lines).strip().encode()).hexdigest()


def license_changed(old: LicenseReading, new: LicenseReading) -> str | None:
    """Why the licence changed between two readings, or None. A different LICENSE text
    hash is a change even when the id stays (both hashes must be known)."""
    if old.id != new.id:
        return f"licence id changed from {old.id} to {new.id}"
    if old.text_sha256 and new.text_sha256 and old.text_sha256 != new.text_sha256:
        return f"LICENSE text changed under the same id {new.id}"
    return None


def license_property(claim_text: str) -> str | None:
    """The licence property a claim text states ("permissive" -> ``permissive``,
    "commercial use allowed" -> ``commercial_use``), or None for an identifier."""
    t = " ".join(claim_text.strip().lower().split())
    for word, prop in PROPERTY_WORDS.items():
        if word == t or t.startswith(word):
            return prop
    return None


def license_has_property(license_id: str, prop: str) -> bool | None:
    """Whether a known licence has a property; None when unknown (then unverified)."""
    return PROPERTIES.get(license_id, {}).get(prop)
