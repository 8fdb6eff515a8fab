"""Site output: writes rendered bytes under one folder, safely and incrementally.

Pelican's lessons: a build never writes one file twice and never writes outside its
output folder (``sanitised_join``); a file whose bytes did not change is left alone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from tracker.errors import TrackerError


class SiteError(TrackerError):
    """The site cannot be built: unsafe path, a file written twice, missing templates."""

    kind = "site"


def safe_join(root: Path, relpath: str) -> Path:
    """``root / relpath`` for a relative POSIX path that stays inside ``root``.

    Raises :class:`SiteError` for an absolute path, a ``..`` or empty part, a
    backslash or NUL, or a path that resolves (through symlinks) outside ``root``.
    """
    if not relpath or "\\" in relpath or "\x00" in relpath:
        raise SiteError(f"unsafe output path {relpath!r}")
    pure = PurePosixPath(relpath)
    if pure.is_absolute() or any(part in ("", ".", "..") for part in relpath.split("/")):
        raise SiteError(f"unsafe output path {relpath!r}")
    base = root.resolve()
    target = (base / pure).resolve()
    if not target.is_relative_to(base) or target == base:
        raise SiteError(f"output path {relpath!r} leaves the output folder {root}")
    return target


@dataclass
class Writer:
    """Writes each relative path once; counts files rewritten and files left unchanged."""

    out_dir: Path
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def write(self, relpath: str, data: str | bytes) -> bool:
        """Write ``data`` (str is UTF-8 encoded) at ``relpath``; True when bytes changed.

        Raises :class:`SiteError` when ``relpath`` was already written in this build or
        is unsafe (see :func:`safe_join`). Writes through a temp file and rename, so a
        reader never sees half a page.
        """
        if relpath in self._seen:
            raise SiteError(f"refusing to write {relpath} twice in one build")
        target = safe_join(self.out_dir, relpath)
        self._seen.add(relpath)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        if target.is_file() and target.read_bytes() == payload:
            self.unchanged.append(relpath)
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(payload)
        os.replace(tmp, target)
        self.written.append(relpath)
        return True

    @property
    def paths(self) -> set[str]:
        """Every relative path this build produced (written or unchanged)."""
        return set(self._seen)
