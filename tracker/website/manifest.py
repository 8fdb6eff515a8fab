"""The build manifest ``.site-manifest.json``: every file the last build produced, with
the key it was made from and its size in bytes.

The next build skips rendering a file whose key is unchanged and whose file is still
there at that size, and deletes files the last build made that it no longer makes.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tracker.website.writer import SiteError, safe_join

MANIFEST = ".site-manifest.json"
FORMAT = 2


@dataclass(frozen=True)
class Entry:
    """What the manifest says of one file; both None when an older build (a plain list
    of paths) wrote the manifest, which makes the file render again."""

    key: str | None = None
    size: int | None = None


def read_manifest(out_dir: Path) -> dict[str, Entry]:
    """Relative path -> :class:`Entry` of the last build in ``out_dir`` ({} when none).

    Reads both this format and the earlier list of paths. Raises :class:`SiteError`
    when the file is not JSON or has another shape.
    """
    path = out_dir / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SiteError(f"{path}: unreadable build manifest ({exc})") from exc
    if isinstance(data, list) and all(isinstance(p, str) for p in data):
        return {p: Entry() for p in data}
    if isinstance(data, dict) and data.get("format") == FORMAT:
        files = data.get("files")
        if isinstance(files, dict):
            return {p: Entry(v[0], v[1]) for p, v in files.items()}
    raise SiteError(f"{path}: unexpected build manifest (format {FORMAT} expected)")


def manifest_text(entries: dict[str, Entry]) -> str:
    """The manifest file for ``entries``: sorted, one file a line (diffs stay readable)."""
    enc = json.JSONEncoder(ensure_ascii=False).encode  # one encoder for ~3,000 lines

    def value(e: Entry) -> str:  # a hex key and a size need no encoder: the same text
        if type(e.key) is str and e.key.isalnum() and e.key.isascii() and type(e.size) is int:
            return f'["{e.key}", {e.size}]'
        return enc([e.key, e.size])

    lines = [f"{enc(p)}: {value(e)}" for p, e in sorted(entries.items())]
    body = ",\n".join(lines)
    return f'{{"format": {FORMAT}, "files": {{\n{body}\n}}}}\n'


def still_there(out_dir: Path, relpath: str, entry: Entry | None) -> bool:
    """True when ``relpath`` exists as a file of the size ``entry`` recorded (a deleted
    or truncated file renders again even when its key matches)."""
    if entry is None or entry.size is None:
        return False
    try:
        st = os.stat(os.path.join(out_dir, relpath))
    except OSError:
        return False
    return st.st_size == entry.size and stat.S_ISREG(st.st_mode)


def kept_files(out_dir: Path, candidates: Iterable[tuple[str, Entry]]) -> set[str]:
    """The relative paths of ``candidates`` (path, its manifest entry) that are
    :func:`still_there`, each ``stat`` made relative to one descriptor of ``out_dir``
    where the platform allows (``os.supports_dir_fd``): the kernel walks the short
    relative path, ~30 % less than 3,000 absolute ones on a one-claim rebuild."""
    if os.stat not in os.supports_dir_fd:
        return {rel for rel, entry in candidates if still_there(out_dir, rel, entry)}
    found: set[str] = set()
    folder = os.open(out_dir, os.O_RDONLY)
    try:
        for rel, entry in candidates:
            if entry.size is None:
                continue
            try:
                st = os.stat(rel, dir_fd=folder)
            except OSError:
                continue
            if st.st_size == entry.size and stat.S_ISREG(st.st_mode):
                found.add(rel)
    finally:
        os.close(folder)
    return found


def remove_stale(out_dir: Path, previous: Iterable[str], keep: set[str]) -> int:
    """Delete files the last build listed (``previous``) that this build did not
    produce (``keep``); returns how many were deleted. Never leaves ``out_dir``."""
    removed = 0
    for rel in previous:
        if rel in keep or rel == MANIFEST:
            continue
        target = safe_join(out_dir, rel)
        if target.is_file():
            target.unlink()
            removed += 1
    return removed
