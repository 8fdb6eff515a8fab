"""Content-addressed store of fetched bodies: ``<root>/<sha[:2]>/<sha>``.

Input: bytes; output: their sha256 (hex). Storage only; the refetch policy
(validators, 304) lives in ``tracker.fetch`` (the scrapy httpcache split).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import threading
from pathlib import Path

DEFAULT_ROOT = Path("data") / "snapshots"
_SHA = re.compile(r"^[0-9a-f]{64}$")


class SnapshotStore:
    """Bodies filed by sha256 under ``root`` (default ``data/snapshots/``, git-ignored).

    ``put`` is idempotent and atomic (write to a temp file in the same directory, then
    rename), so a crash never leaves a half-written body under a valid name.
    """

    def __init__(self, root: str | os.PathLike[str] = DEFAULT_ROOT) -> None:
        self.root = Path(root)
        self._dirs: set[str] = set()  # shard folders known to exist (one mkdir each)

    def path(self, sha: str) -> Path:
        """Where the body of ``sha`` lives; raises ValueError for a malformed digest."""
        if not _SHA.match(sha):
            raise ValueError(f"not a sha256 hex digest: {sha!r}")
        return self.root / sha[:2] / sha

    def put(self, body: bytes, sha: str | None = None) -> str:
        """Store ``body``; return its sha256 hex digest. ``sha``, when the caller already
        has it (a fetch hashes every body), saves hashing twice; it must be the body's."""
        if sha is None:
            sha = hashlib.sha256(body).hexdigest()
        elif not _SHA.match(sha):
            raise ValueError(f"not a sha256 hex digest: {sha!r}")
        shard = os.path.join(self.root, sha[:2])
        target = os.path.join(shard, sha)
        if os.path.exists(target):
            return sha
        if shard not in self._dirs:  # a set lookup instead of a mkdir per body
            os.makedirs(shard, exist_ok=True)
            self._dirs.add(shard)
        # One writer per (process, thread) at a time, so this temp name is free unless a
        # crashed process with the same pid left it: then O_EXCL fails and mkstemp picks.
        tmp = os.path.join(shard, f".tmp-{sha[:16]}-{os.getpid()}-{threading.get_ident()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            fd, tmp = tempfile.mkstemp(dir=shard, prefix=".tmp-")
        except FileNotFoundError:  # the folder was removed since (a long-running scheduler)
            os.makedirs(shard, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=shard, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(body)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return sha

    def __contains__(self, sha: str) -> bool:
        return self.path(sha).exists()

    def get(self, sha: str) -> bytes:
        """The stored body; raises KeyError naming ``sha`` when absent."""
        try:
            return self.path(sha).read_bytes()
        except FileNotFoundError:
            raise KeyError(f"snapshot {sha} is not in {self.root}") from None
