"""The build cache: where each subject's part of the big exports lies in the last output.

``api/claims.json`` (18.7 MB at 1,000 subjects × 30 claims), ``api/claims.csv`` and
``assets/search-index.js`` are joined from per-subject fragments (``fragments.py``): a
subject's claim records, CSV rows and search entries. A process keeps those in memory
between builds; a new process (``tracker build``) would encode all 30,000 claims again to
change one. Instead, when a build writes one of these files, it records here, per
fragment key, the byte ranges the fragment occupies in the file. The next build copies
unchanged subjects' parts from those bytes of the file itself (:meth:`Segments.splice`:
runs of parts that stay neighbours are one slice, so nothing is decoded or encoded
again; no second copy of 27 MB is kept), or decodes one subject's parts from them
(:meth:`Segments.take`), after checking that the file is the one this cache describes;
any mismatch, missing file or unreadable cache makes the parts be encoded again, so the
cache can only cost time, never serve stale bytes.

How a file is checked: when the build that wrote it ends, its ``os.stat`` is noted
(size, ``st_mtime_ns``, ``st_ctime_ns``, inode), and a later build uses the file only
while its stat is exactly that (a sha256 of the old and new 27 MB was ~0.1 CPU s of a
one-claim rebuild). What this relies on: any later write to the file, by any program,
changes its size, mtime or ctime (``write``, ``truncate`` and ``utime`` all set ctime
to the current time, which no program can set back; replacing the file changes its
inode), and nothing writes the output folder during a build (the build owns it: it
also deletes stale files). Only a same-size rewrite within the filesystem's timestamp
granularity of the build's own write, during the build, would pass unseen.

The cache is one file, ``segments.pickle`` (the sha256 of the pickle on its first line,
so a damaged or edited cache is ignored, never trusted; a pickle, not JSON: writing the
~60,000 ids and lengths as JSON was ~17 ms of every one-claim rebuild in a new process,
reading them ~9 ms; the cache folder is trusted as the database is, ``records.py``),
in the build's cache folder
(``build_site(cache_dir=...)``, ``tracker build --cache-dir``), outside the published
folder. Its keys are the fragment keys of ``build.py`` (the code fingerprint plus the
subject's claims or view digest), so a code, template or data change misses.
"""

from __future__ import annotations

import hashlib
import logging
import mmap
import os
import pickle
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO

from tracker.website.writer import Pieces

log = logging.getLogger(__name__)

CACHE_FILE = "segments.pickle"
FORMAT = 5
# Fragment kinds whose value is a dict claim id -> text; the others are one text.
BY_CLAIM = ("claim-records", "claim-csv")
KINDS = (*BY_CLAIM, "search")


def _stat_of(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _framed(head: bytes, pieces: list[bytes | memoryview], sep: bytes, tail: bytes) -> Pieces:
    """``head``, the ``pieces`` with ``sep`` between them, ``tail``, as :class:`Pieces`
    the writer writes one after another (joined, the 18.7 MB of ``api/claims.json``
    were copied once more; a join inside a join copied them twice)."""
    parts: list[bytes | memoryview] = [head]
    for piece in pieces:
        parts += (piece, sep)
    if pieces:
        parts.pop()  # no separator after the last piece
    parts.append(tail)
    return Pieces(tuple(parts), sum(len(p) for p in parts))


def _mapped(f: BinaryIO) -> bytes | mmap.mmap:
    """The bytes of the open file ``f``, mapped read-only with its pages mapped at once
    (``MAP_POPULATE``) where the platform can: in a new process, reading the 27 MB of
    the big exports into fresh memory and writing them out again cost twice what
    writing them from the file's own pages does (~8 ms more of a one-claim rebuild).
    The build replaces files (a new inode), never writes one in place, so the mapping
    keeps the bytes it was checked with; a program truncating the file during the build
    (which the module docstring rules out) would end the build, not change its output."""
    size = os.fstat(f.fileno()).st_size
    flags = getattr(mmap, "MAP_SHARED", 0) | getattr(mmap, "MAP_POPULATE", 0)
    if size and flags and hasattr(mmap, "PROT_READ"):
        try:
            return mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
        except (OSError, ValueError, TypeError):
            pass  # a file system or platform without it: read it
    return f.read()


@dataclass
class FileSegments:
    """One big file's layout as a build wrote it: its size and ``stat``; the parts in file
    order (``ids``: claim ids for a by-claim kind, else numbers unique in the file, with
    their byte ``lengths``), the first at byte ``start``, each followed by ``sep``
    bytes; ``keys``: each fragment key with the ids of its parts."""

    kind: str
    size: int
    start: int
    sep: int
    ids: list[int]
    lengths: list[int]
    keys: dict[str, list[int]]
    # (size, st_mtime_ns, st_ctime_ns, st_ino) when the build that wrote it ended
    stat: list[int] | None = None
    _spans: dict[int, tuple[int, int]] | None = None

    def spans(self) -> dict[int, tuple[int, int]]:
        """Part id -> (byte offset, byte length), made on first use."""
        if self._spans is None:
            offsets = accumulate((n + self.sep for n in self.lengths[:-1]), initial=self.start)
            self._spans = {
                i: (off, n) for i, off, n in zip(self.ids, offsets, self.lengths, strict=True)
            }
        return self._spans

    def to_json(self) -> dict[str, Any]:
        """The cache file's record of this file."""
        fields = ("kind", "size", "start", "sep", "ids", "lengths", "keys", "stat")
        return {name: getattr(self, name) for name in fields}


@dataclass
class Segments:
    """The segment cache of one build folder: :meth:`take` serves fragments from the
    previous output files, :meth:`record` / :meth:`wrote` note the files this build
    writes, :meth:`save` writes the cache file (only when something changed)."""

    cache_dir: Path | None
    out_dir: Path
    files: dict[str, FileSegments] = field(default_factory=dict)
    _by_kind: dict[str, str] = field(default_factory=dict)
    _data: dict[str, bytes | mmap.mmap | None] = field(default_factory=dict)
    _pending: dict[str, FileSegments] = field(default_factory=dict)
    _written: set[str] = field(default_factory=set)
    changed: bool = False
    taken: int = 0  # fragments decoded from the last output (take)
    spliced: int = 0  # parts copied from it (splice)

    @classmethod
    def load(cls, cache_dir: Path | None, out_dir: Path) -> Segments:
        """The cache in ``cache_dir`` for ``out_dir`` (empty when ``cache_dir`` is None,
        or the file is missing, unreadable or of another format: a cold build then
        encodes every fragment, as without a cache)."""
        seg = cls(cache_dir, out_dir)
        if cache_dir is None:
            return seg
        try:
            check, _, body = (cache_dir / CACHE_FILE).read_bytes().partition(b"\n")
            if check != hashlib.sha256(body).hexdigest().encode("ascii"):
                return seg  # damaged or edited: its offsets cannot be trusted
            data = pickle.loads(body)  # noqa: S301  # our own cache (module docstring)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                return seg
            for path, f in data["files"].items():
                seg.files[path] = FileSegments(**f)
                if len(f["ids"]) != len(f["lengths"]):
                    raise ValueError(f"{path}: ids and lengths differ in number")
        except (
            OSError,
            ValueError,
            KeyError,
            TypeError,
            AttributeError,
            EOFError,
            IndexError,
            ImportError,
            pickle.UnpicklingError,
        ):
            seg.files = {}
        seg._by_kind = {f.kind: path for path, f in seg.files.items()}
        return seg

    def _file_bytes(self, path: str) -> bytes | mmap.mmap | None:
        """The output file ``path`` as the cache recorded it (:func:`_mapped`), or None
        when it is gone or its stat is not the one noted after it was written (module
        docstring)."""
        if path not in self._data:
            info = self.files[path]
            data: bytes | mmap.mmap | None = None
            try:
                with open(self.out_dir / path, "rb") as f:
                    if info.stat is not None and _stat_of(os.fstat(f.fileno())) == info.stat:
                        data = _mapped(f)
            except OSError:
                data = None
            if data is not None and len(data) != info.size:
                data = None
            self._data[path] = data
        return self._data[path]

    def layout(self, path: str) -> FileSegments | None:
        """The layout of ``path`` in the last output, when the file is still the one it
        describes (its parts can be spliced into a new version), else None."""
        info = self.files.get(path)
        if info is None or self._file_bytes(path) is None:
            return None
        return info

    def splice(
        self,
        path: str,
        kind: str,
        frame: tuple[str, str],
        sep: str,
        taken: set[int],
        made: dict[int, str],
        owners: dict[str, list[int]],
    ) -> Pieces | None:
        """The bytes of ``path``, whose parts are in id order: ``frame[0]``, the parts
        joined by ``sep``, ``frame[1]``; the parts of ``taken`` (ids in
        :meth:`layout`'s) copied from the last output, runs of neighbours as one slice,
        and the texts of ``made`` (id -> text). None when the last output cannot give
        them (not in id order, an id missing): the caller then makes every part. Notes
        the new layout (``owners``: each fragment key with its part ids) for
        :meth:`wrote`. The work is per run and per made part, not per part: 30,000
        parts cost a few list slices."""
        if not taken:
            return self._all_made(path, kind, frame, sep, made, owners)
        info = self.files.get(path)
        data = self._data.get(path) if info is not None else None
        if info is None or data is None:
            return None
        old_ids, lengths = info.ids, info.lengths
        in_file = set(old_ids)
        if old_ids != sorted(old_ids) or len(in_file) != len(old_ids):  # not by id
            return None
        sep_b = sep.encode("utf-8")
        # each part's offset; the loops here run in C (30,000 parts, twice a rebuild)
        starts = list(accumulate(map(len(sep_b).__add__, lengths), initial=info.start))
        view = memoryview(data)
        # the parts not copied: their places in the sorted, unique ids
        cuts = [(bisect_left(old_ids, i), 1, 0) for i in in_file.difference(taken)]
        inserts = [(bisect_left(old_ids, i), 0, i) for i in made]
        pieces: list[bytes | memoryview] = []
        ids_out: list[int] = []
        lengths_out: list[int] = []

        def copy(a: int, b: int) -> None:
            if a < b:
                pieces.append(view[starts[a] : starts[b - 1] + lengths[b - 1]])
                ids_out.extend(old_ids[a:b])
                lengths_out.extend(lengths[a:b])

        at = 0
        for p, cut, i in sorted(cuts + inserts):
            copy(at, p)
            at = max(at, p)
            if cut:
                at = p + 1
                continue
            encoded = made[i].encode("utf-8")
            pieces.append(encoded)
            ids_out.append(i)
            lengths_out.append(len(encoded))
        copy(at, len(old_ids))
        if len(ids_out) != len(taken) + len(made):  # an id of ``taken`` not in the file
            return None
        self.spliced += len(taken)
        head, tail = frame[0].encode("utf-8"), frame[1].encode("utf-8")
        payload = _framed(head, pieces, sep_b, tail)
        if self.cache_dir is not None and ids_out:
            self._pending[path] = FileSegments(
                kind, 0, len(head), len(sep_b), ids_out, lengths_out, owners
            )
        return payload

    def _all_made(
        self,
        path: str,
        kind: str,
        frame: tuple[str, str],
        sep: str,
        made: dict[int, str],
        owners: dict[str, list[int]],
    ) -> Pieces:
        """:meth:`splice` with nothing copied (a full build): the texts of ``made`` in id
        order, without placing each among the old parts (a sort of 30,000 places). Each
        part is encoded alone, not joined first: a joined copy of the 18.7 MB of
        ``api/claims.json`` cost more in fresh memory pages than the encodes."""
        ids = sorted(made)
        pieces: list[bytes | memoryview] = [made[i].encode("utf-8") for i in ids]
        head, tail = frame[0].encode("utf-8"), frame[1].encode("utf-8")
        sep_b = sep.encode("utf-8")
        if self.cache_dir is not None and ids:
            lengths = [len(p) for p in pieces]
            self._pending[path] = FileSegments(kind, 0, len(head), len(sep_b), ids, lengths, owners)
        return _framed(head, pieces, sep_b, tail)

    def splice_in_order(
        self,
        path: str,
        kind: str,
        frame: tuple[str, str],
        sep: str,
        parts: list[tuple[int, int | None, str | None]],
        owners: dict[str, list[int]],
    ) -> Pieces | None:
        """As :meth:`splice` for a file whose parts keep no id order (the search index:
        subjects in name order, numbered by place): ``parts`` in file order as ``(id in
        the new file, id in the last output to copy or None, text or None)``; a loop
        per part (a thousand, not 30,000). None when a part to copy is not there."""
        info = self.files.get(path)
        data = self._data.get(path) if info is not None else None
        spans = info.spans() if info is not None and data is not None else {}
        view = memoryview(data or b"")
        sep_b = sep.encode("utf-8")
        pieces: list[bytes | memoryview] = []
        lengths: list[int] = []
        run: list[int] | None = None  # [start, end) of old bytes being copied
        for _, old, text in parts:
            if old is None:
                if run is not None:
                    pieces.append(view[run[0] : run[1]])
                    run = None
                encoded = (text or "").encode("utf-8")
                lengths.append(len(encoded))
                pieces.append(encoded)
                continue
            if old not in spans:
                return None
            off, n = spans[old]
            lengths.append(n)
            if run is not None and off == run[1] + len(sep_b):
                run[1] = off + n
                continue
            if run is not None:
                pieces.append(view[run[0] : run[1]])
            run = [off, off + n]
        if run is not None:
            pieces.append(view[run[0] : run[1]])
        self.spliced += sum(1 for _, old, _ in parts if old is not None)
        head, tail = frame[0].encode("utf-8"), frame[1].encode("utf-8")
        payload = _framed(head, pieces, sep_b, tail)
        if self.cache_dir is not None and parts:
            ids = [i for i, _, _ in parts]
            self._pending[path] = FileSegments(kind, 0, len(head), len(sep_b), ids, lengths, owners)
        return payload

    def complete(self) -> bool:
        """Whether the cache describes every big file of the last build, each still
        there at its noted stat: a build serving subjects from their records
        (``records.py``) needs all their parts."""
        if {f.kind for f in self.files.values()} != set(KINDS):
            return False
        for path, info in self.files.items():
            try:
                st = os.stat(self.out_dir / path)
            except OSError:
                return False
            if st.st_size != info.size or _stat_of(st) != info.stat:
                return False
        return True

    def take(self, kind: str, key: str) -> Any:
        """The fragment ``(kind, key)`` read from the last output, or None when the cache
        does not have it or its file no longer matches."""
        path = self._by_kind.get(kind)
        if path is None:
            return None
        info = self.files[path]
        ids = info.keys.get(key)
        if ids is None:
            return None
        data = self._file_bytes(path)
        if data is None:
            return None
        spans = info.spans()
        try:
            texts = {i: data[spans[i][0] : spans[i][0] + spans[i][1]].decode("utf-8") for i in ids}
        except (KeyError, UnicodeDecodeError):  # a cache this code did not write
            return None
        if kind not in BY_CLAIM and len(texts) != 1:
            return None
        self.taken += 1
        return texts if kind in BY_CLAIM else texts[ids[0]]

    def record(
        self,
        path: str,
        kind: str,
        text: str,
        parts: Iterable[tuple[int, str]],
        sep: str,
        owners: Iterable[tuple[str, Iterable[int]]],
    ) -> None:
        """Note the layout of ``text`` (the file ``path`` about to be written), in which
        ``parts`` (``(id, text)``, in file order; a claim id for a by-claim ``kind``, else
        any number unique in the file) follow one another, joined by ``sep``, from the
        first part's first occurrence. ``owners``: each fragment key with the ids of its
        parts (one for a one-text fragment). Nothing is noted when the parts are not
        where this says."""
        if self.cache_dir is None:
            return
        parts = list(parts)
        if not parts:
            self._pending.pop(path, None)
            return
        start = text.find(parts[0][1])
        if start < 0:
            return
        # The writers join the parts themselves, so only the ends are checked (joining
        # 18 MB again to compare cost more than the rest of this); a text that is ASCII
        # has as many bytes as characters (no encoding needed to count them).
        at = start + sum(len(t) for _, t in parts) + len(sep) * (len(parts) - 1)
        last = parts[-1][1]
        if text[at - len(last) : at] != last:
            return
        head = len(text[:start].encode("utf-8"))
        lengths = [len(t) if t.isascii() else len(t.encode("utf-8")) for _, t in parts]
        ids = [i for i, _ in parts]
        keys = {key: list(idents) for key, idents in owners}
        sep_bytes = len(sep.encode("utf-8"))
        self._pending[path] = FileSegments(kind, 0, head, sep_bytes, ids, lengths, keys)

    def wrote(self, path: str, size: int) -> None:
        """``path`` was written (``size`` bytes): its recorded layout becomes the cache's
        (its stat is noted by :meth:`save`). Call for every file the build rendered."""
        pending = self._pending.pop(path, None)
        if pending is None:
            if self.files.pop(path, None) is not None:
                self.changed = True
            return
        pending.size = size
        self.files[path] = pending
        self._written.add(path)
        self.changed = True

    def save(self) -> None:
        """Write the cache file (atomically: a temporary file renamed over it) when this
        build changed it; a cache folder that cannot be written only costs time, so the
        error is logged as a warning, not raised."""
        if self.cache_dir is None or not self.changed:
            return
        for path in self._written:  # every write of the build is done (module docstring)
            try:
                st = os.stat(self.out_dir / path)
            except OSError:
                continue
            info = self.files[path]
            info.stat = _stat_of(st) if st.st_size == info.size else None
        data = {
            "format": FORMAT,
            "files": {p: f.to_json() for p, f in sorted(self.files.items())},
        }
        target = self.cache_dir / CACHE_FILE
        tmp = target.with_name(f".{CACHE_FILE}.{os.getpid()}.tmp")
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            body = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.write_bytes(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            os.replace(tmp, target)
        except OSError as exc:
            log.warning("site build cache %s not written: %s", target, exc)
            tmp.unlink(missing_ok=True)
