"""Page keys for incremental builds: a hash of everything a site file is made from.

A key hashes the code fingerprint (template sources, the modules that turn view data
into files, package and library versions) and the plain JSON of the file's input. A
file whose key matches the manifest's, and which is still on disk, is not rendered.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import tracker
from tracker.website.jsontext import json_encoder
from tracker.website.views import plain

# Code that turns view data into bytes (collect's output is hashed as data instead),
# relative to the folder holding the ``tracker`` and ``claims`` packages. The label
# filters (``attribute_label``, ``rule_label``) read claims/vocabulary.py while pages
# render, so a changed label renders every page again.
# Code whose edit changes what pages say: every module of the site stage, and the
# core's wording of names and values. A glob, so a new site module cannot be forgotten.
# The claim views are keyed by the rows they are made from (``claimviews.inputs_digest``),
# so the code that turns a stored value or qualifiers into text and claims into facts is
# code of the site too. The weights status's own wording and export record
# (``WeightsStatus.weights_word``, ``to_dict``: pages and ``api/subjects.json`` show
# them; keys hash its fields) are code of the site as well.
CODE_MODULES = (
    "tracker/website/*.py",
    "claims/vocabulary.py",
    "claims/values/*.py",
    "claims/verify/compare.py",
    "claims/store/status.py",
)
LIBRARIES = ("release-tracker", "jinja2", "markupsafe", "feedgen", "lxml")


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them (``MarkupSafe`` = ``markupsafe``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_versions(dists: Iterable[str]) -> dict[str, str]:
    """``{dist: version}``: the version each distribution has installed, from the name of
    its ``NAME-VERSION.dist-info`` folder (the first on ``sys.path``, the one imported),
    else from importlib.metadata (another kind of install), else ``?`` (a source checkout
    never installed). Folder names first: importlib.metadata's import and its reading of
    each METADATA file were a twentieth of a `tracker build` process's start-up."""
    wanted = {_normal(d): d for d in dists}
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:  # a zip file, or a folder that is gone
            continue
        for name in names:
            dist, dash, version = name.removesuffix(".dist-info").partition("-")
            key = _normal(dist)
            if name.endswith(".dist-info") and dash and key in wanted:
                found.setdefault(wanted[key], version)
    for dist in wanted.values():
        if dist not in found:
            found[dist] = _metadata_version(dist)
    return found


def _metadata_version(dist: str) -> str:
    from importlib import metadata  # loaded only for an install without a dist-info folder

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:  # a source checkout without an install
        return "?"


def code_fingerprint(templates: Path) -> str:
    """sha256 over every template (``assets/`` aside: those files are keyed by their
    bytes), the :data:`CODE_MODULES` sources and the :data:`LIBRARIES` versions.

    Any edit to a template or to that code changes it, so every page renders again.
    """
    h = hashlib.sha256()
    for path in sorted(templates.rglob("*")):
        rel = path.relative_to(templates).as_posix()
        if path.is_file() and not rel.startswith("assets/"):
            h.update(f"template {rel} {path.stat().st_size}\n".encode())
            h.update(path.read_bytes())
    root = Path(tracker.__file__).resolve().parent.parent
    for pattern in CODE_MODULES:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            source = path.read_bytes()
            h.update(f"module {rel} {len(source)}\n".encode())
            h.update(source)
    versions = installed_versions(LIBRARIES)
    versions["python"] = platform.python_version()
    h.update(json.dumps(versions, sort_keys=True).encode())
    return h.hexdigest()


_ENCODE = json_encoder(default=plain)


def to_json(value: Any) -> str:
    """Canonical JSON of view data (:func:`tracker.website.views.plain` for dataclasses,
    datetimes and decimals); raises TypeError for anything else."""
    return _ENCODE(value)


def key_of(*parts: Any) -> str:
    """sha256 hex of the canonical JSON of ``parts`` (already-made keys and JSON text
    may be parts: they are hashed as strings)."""
    return hashlib.sha256(to_json(parts).encode("utf-8")).hexdigest()
