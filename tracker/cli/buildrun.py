"""``tracker build``'s work and its report line, without the CLI framework.

The typer command (:func:`tracker.cli.main.build`) and the console script's own entry
(:mod:`tracker.cli.entry`, which runs a plain ``tracker build`` without loading typer)
both build through :func:`build_into` and print :func:`build_summary`'s line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.errors import ConfigError

if TYPE_CHECKING:
    from claims.store.rawdb import RawDB


def build_into(raw: RawDB, out: Path, base_url: str | None, cache_dir: Path | None) -> Any:
    """Build the site from ``raw`` into ``out`` (made first: :func:`writable_folder`)
    with the build cache ``cache_dir`` (None: :func:`default_cache_dir`); ``raw`` is
    closed when it returns or raises (nothing is left for the interpreter's exit).
    Returns the :class:`tracker.website.build.BuildReport`; raises ConfigError for an
    output folder that cannot be made or written, and what the build raises."""
    from tracker import pipeline

    cache = cache_dir if cache_dir is not None else default_cache_dir(out)
    try:
        writable_folder(out, "output folder (--out)")
        return pipeline.build(raw, out, base_url=base_url, cache_dir=cache)
    finally:
        raw.close()


def writable_folder(folder: Path, what: str) -> None:
    """Create ``folder`` (and its parents) now, or raise ConfigError naming it as the
    user gave it (``what``: which option), not a file the build would write in or
    beside it (``/proc/x.cache``)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{what} {folder} cannot be created: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"{what} {folder} is not writable")


def default_cache_dir(out: Path) -> Path:
    """``tracker build``'s build cache when ``--cache-dir`` is not given: the output
    folder's name plus ``.cache``, beside it (``site`` -> ``site.cache``)."""
    out = out.resolve()
    return out.with_name(out.name + ".cache")


def build_counts(report: Any) -> dict[str, Any]:
    """The site's files as ``tracker build`` reports them, in text and ``--json`` alike:
    ``files``, ``pages_written``, ``pages_unchanged``, ``pages_rendered`` and
    ``written_paths``, leaving out the build manifest (a bookkeeping file, not part of
    the site). ``report`` is a :class:`tracker.website.build.BuildReport`."""
    from tracker.website.manifest import MANIFEST

    written = [p for p in report.written_paths if p != MANIFEST]
    same = report.pages_unchanged - (0 if MANIFEST in report.written_paths else 1)
    return {
        "files": len(written) + same,
        "pages_written": len(written),
        "pages_unchanged": same,
        "pages_rendered": report.pages_rendered,
        "written_paths": written,
    }


def build_json(report: Any) -> dict[str, Any]:
    """``tracker build --json``: the report's fields with :func:`build_counts` (so the
    numbers are the text line's) and the output folder as text."""
    out = {k: str(v) if isinstance(v, Path) else v for k, v in report.__dict__.items()}
    return {**out, **build_counts(report)}


def build_summary(report: Any, out: Path) -> str:
    """``tracker build``'s line: ``site built in site: 45 files, 3 rendered (42 up
    to date); 2 written (new or changed), 43 left as they were``, from
    :func:`build_counts`."""
    n = build_counts(report)
    total, rendered = n["files"], n["pages_rendered"]
    files = "1 file" if total == 1 else f"{total} files"
    return (
        f"site built in {out}: {files}, {rendered} rendered "
        f"({total - rendered} up to date); {n['pages_written']} written (new or changed), "
        f"{n['pages_unchanged']} left as they were"
    )
