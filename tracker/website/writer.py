"""Site output: writes rendered bytes under one folder, safely and incrementally.

Pelican's lessons: a build never writes one file twice and never writes outside its
output folder (``sanitised_join``); a file whose bytes did not change is left alone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from tracker.errors import TrackerError


class SiteError(TrackerError):
    """The site cannot be built: unsafe path, a file written twice, missing templates."""

    kind = "site"


def _check_relpath(relpath: str) -> None:
    """Raise :class:`SiteError` unless ``relpath`` is a plain relative POSIX path."""
    if not relpath or "\\" in relpath or "\x00" in relpath:
        raise SiteError(f"unsafe output path {relpath!r}")
    # A leading "/" shows up as an empty first part.
    if any(part in ("", ".", "..") for part in relpath.split("/")):
        raise SiteError(f"unsafe output path {relpath!r}")


def safe_join(root: Path, relpath: str) -> Path:
    """``root / relpath`` for a relative POSIX path that stays inside ``root``.

    Raises :class:`SiteError` for an absolute path, a ``..`` or empty part, a
    backslash or NUL, or a path that resolves (through symlinks) outside ``root``.
    """
    _check_relpath(relpath)
    base = root.resolve()
    target = (base / relpath).resolve()
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
    # Resolved folders (realpath strings), so a build of thousands of files resolves
    # each folder once; os.path rather than pathlib: this runs for every file.
    _dirs: dict[str, str] = field(default_factory=dict)
    _made: set[str] = field(default_factory=set)

    def _target(self, relpath: str) -> str:
        """What :func:`safe_join` returns (as a string), resolving each folder once."""
        _check_relpath(relpath)
        folder, _, name = relpath.rpartition("/")
        base = self._dirs.get("")
        if base is None:
            base = self._dirs[""] = os.path.realpath(self.out_dir)
        parent = self._dirs.get(folder)
        if parent is None:
            parent = self._dirs[folder] = os.path.realpath(os.path.join(base, folder))
        target = os.path.join(parent, name)
        if os.path.islink(target):
            target = os.path.realpath(target)
        if not target.startswith(base.rstrip(os.sep) + os.sep):
            raise SiteError(f"output path {relpath!r} leaves the output folder {self.out_dir}")
        return target

    def write(self, relpath: str, data: str | bytes, *, compare: bool = True) -> bool:
        """Write ``data`` (str is UTF-8 encoded) at ``relpath``; True when bytes changed.

        ``compare=False`` skips reading the file already there (the caller knows it is
        new): the write then always counts as a change. Raises :class:`SiteError` when
        ``relpath`` was already written in this build or is unsafe (see
        :func:`safe_join`). Writes through a temp file and rename, so a reader never
        sees half a page.
        """
        if relpath in self._seen:
            raise SiteError(f"refusing to write {relpath} twice in one build")
        target = self._target(relpath)
        self._seen.add(relpath)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        same = False
        try:
            if compare:
                with open(target, "rb") as existing:
                    same = os.fstat(existing.fileno()).st_size == len(payload)
                    same = same and existing.read() == payload
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            pass
        if same:
            self.unchanged.append(relpath)
            return False
        folder = os.path.dirname(target)
        if folder not in self._made:
            os.makedirs(folder, exist_ok=True)
            self._made.add(folder)
        tmp = os.path.join(folder, f".{os.path.basename(target)}.tmp")
        with open(tmp, "wb") as out:
            out.write(payload)
        os.replace(tmp, target)
        self.written.append(relpath)
        return True

    def keep(self, relpath: str) -> None:
        """Count ``relpath`` as produced and unchanged without writing it (a file the
        build did not need to render). Raises :class:`SiteError` like :meth:`write`."""
        if relpath in self._seen:
            raise SiteError(f"refusing to write {relpath} twice in one build")
        _check_relpath(relpath)
        self._seen.add(relpath)
        self.unchanged.append(relpath)

    @property
    def paths(self) -> set[str]:
        """Every relative path this build produced (written or unchanged)."""
        return set(self._seen)
