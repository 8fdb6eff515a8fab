"""Site output: writes rendered bytes under one folder, safely and incrementally.

Pelican's lessons: a build never writes one file twice and never writes outside its
output folder (``sanitised_join``); a file whose bytes did not change is left alone.
A large build can hand the file system calls to a helper process (:meth:`Writer.offloaded`):
creating thousands of files is system time that then overlaps rendering. The bytes reach
the helper through a shared buffer file (written once, copied to each file by the kernel)
and the socket carries only where they are, a batch of files at a time.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import tracker
from tracker.errors import TrackerError

if TYPE_CHECKING:
    # The helper process's modules (socket, subprocess, multiprocessing, tempfile) are
    # imported where it is started or served: a build that does not offload its writes
    # (every one-claim rebuild) did not need their ~10 ms of imports.
    from multiprocessing.connection import Connection


class SiteError(TrackerError):
    """The site cannot be built: unsafe path, a file written twice, missing templates."""

    kind = "site"


@dataclass(frozen=True)
class Pieces:
    """A file's bytes in pieces (the spliced big exports: slices of the last output and
    the new parts between them), written one after another and never joined: joining
    copied ``api/claims.json``'s 18.7 MB once more. ``len()`` is the file's size."""

    parts: tuple[bytes | memoryview, ...]
    size: int

    def __len__(self) -> int:
        return self.size

    def joined(self) -> bytes:
        """The bytes in one piece (a helper process or a comparison takes them so)."""
        return b"".join(self.parts)


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
    # Folders that did not exist when resolved: no file in them can be a link, so their
    # files need no lstat (which also waits while the helper creates files there).
    _fresh: set[str] = field(default_factory=set)
    _helper: _Helper | None = None
    # Inside offloaded(): (path, sent to the helper?) in call order, so the counts keep it.
    _order: list[tuple[str, bool]] = field(default_factory=list)

    def _folder(self, folder: str) -> str:
        """The real path of ``folder`` (relative, ``""`` for the output folder), resolved
        once per build."""
        real = self._dirs.get(folder)
        if real is None:
            if not folder:
                real = os.path.realpath(self.out_dir)
            else:
                # Below an already real folder only the last part can be a link: one
                # lstat per folder instead of one per part of the whole path.
                parent, _, name = folder.rpartition("/")
                real = os.path.join(self._folder(parent), name)
                if parent in self._fresh:
                    self._fresh.add(folder)
                else:
                    try:
                        if stat.S_ISLNK(os.lstat(real).st_mode):
                            real = os.path.realpath(real)
                    except FileNotFoundError:
                        self._fresh.add(folder)
            self._dirs[folder] = real
        return real

    def _target(self, relpath: str) -> str:
        """What :func:`safe_join` returns (as a string), resolving each folder once."""
        _check_relpath(relpath)
        folder, _, name = relpath.rpartition("/")
        parent = self._folder(folder)
        base = self._dirs[""]
        target = os.path.join(parent, name)
        if folder not in self._fresh and os.path.islink(target):
            target = os.path.realpath(target)
        if not target.startswith(base.rstrip(os.sep) + os.sep):
            raise SiteError(f"output path {relpath!r} leaves the output folder {self.out_dir}")
        return target

    def write(
        self, relpath: str, data: str | bytes | Pieces, *, compare: bool = True
    ) -> bool | None:
        """Write ``data`` (str is UTF-8 encoded) at ``relpath``; True when bytes changed,
        None inside :meth:`offloaded` (the helper writes it; counted when the block ends).

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
        if self._helper is not None:
            if isinstance(payload, Pieces):
                payload = payload.joined()
            self._helper.send((target, payload, compare))
            self._order.append((relpath, True))
            return None
        if store(target, payload, compare, self._made):
            self.written.append(relpath)
            return True
        self.unchanged.append(relpath)
        return False

    def keep(self, relpath: str) -> None:
        """Count ``relpath`` as produced and unchanged without writing it (a file the
        build did not need to render). Raises :class:`SiteError` like :meth:`write`."""
        self.reserve(relpath)
        if self._helper is not None:
            self._order.append((relpath, False))
        else:
            self.unchanged.append(relpath)

    def reserve(self, relpath: str) -> None:
        """Claim ``relpath`` for this build without writing or counting it (a file another
        process writes, ``forked.py``: :meth:`count` it when it is written). Raises
        :class:`SiteError` like :meth:`write`."""
        if relpath in self._seen:
            raise SiteError(f"refusing to write {relpath} twice in one build")
        _check_relpath(relpath)
        self._seen.add(relpath)

    def count(self, relpath: str, changed: bool) -> None:
        """Count a :meth:`reserve` d file another process wrote: rewritten (``changed``)
        or left as it was."""
        (self.written if changed else self.unchanged).append(relpath)

    @contextmanager
    def offloaded(self, relpaths: Iterable[str] = ()) -> Iterator[None]:
        """Inside the block, :meth:`write` checks the path and hands the bytes to a helper
        process that does the file system calls (same temp file and rename), so they
        overlap the caller's rendering; ``written`` and ``unchanged`` are filled, in call
        order, when the block ends, which also raises the helper's first error (no file
        after it is written). The helper first makes the folders of ``relpaths`` (the
        files to come), while the first files render. It is a new interpreter (fork and
        exec, as the 'spawn' start method does: this process may run threads, so it is
        never forked to run Python); when it does not come up, files are written here."""
        try:
            helper = _Helper()
        except (OSError, ValueError):  # no interpreter to start (an embedded Python)
            yield
            return
        self._helper, self._order = helper, []
        base = self._folder("")
        folders = []
        for folder in sorted({rel.rpartition("/")[0] for rel in relpaths} - {""}):
            _check_relpath(folder)
            real = self._folder(folder)
            if real.startswith(base.rstrip(os.sep) + os.sep):  # else write() raises
                folders.append(real)
        helper.send(folders)
        try:
            try:
                yield
            except BaseException:
                helper.abort()
                raise
            finally:
                self._helper = None
            flags = helper.finish()
            if flags is None:  # it never came up: every file is still held
                flags = helper.write_here(self._made)
        finally:
            helper.close()
        changed = iter(flags)
        for relpath, sent in self._order:
            (self.written if sent and next(changed) else self.unchanged).append(relpath)
        self._order = []

    @property
    def paths(self) -> set[str]:
        """Every relative path this build produced (written or unchanged)."""
        return set(self._seen)


def store(target: str, payload: bytes | Pieces, compare: bool, made: set[str]) -> bool:
    """Put ``payload`` at the absolute path ``target`` through a temp file and rename (a
    reader never sees half a page); False, writing nothing, when ``compare`` and the
    file already holds these bytes. ``made``: folders already created (updated)."""
    if compare and _holds(target, payload):
        return False
    tmp = _temp_beside(target, made)
    with open(tmp, "wb") as out:
        if isinstance(payload, Pieces):
            out.writelines(payload.parts)
        else:
            out.write(payload)
    os.replace(tmp, target)
    return True


def _holds(target: str, payload: bytes | Pieces) -> bool:
    """Whether the file at ``target`` holds exactly ``payload`` (False when absent).
    :class:`Pieces` are compared piece by piece with slices of the file's bytes: a
    one-claim edit that keeps ``api/claims.json``'s size joined its 18.7 MB first."""
    try:
        with open(target, "rb") as existing:
            if os.fstat(existing.fileno()).st_size == len(payload):
                there = existing.read()
                if not isinstance(payload, Pieces):
                    return there == payload
                return _same_pieces(there, payload.parts)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        pass
    return False


def _same_pieces(there: bytes, parts: tuple[bytes | memoryview, ...]) -> bool:
    """Whether ``there`` is ``parts`` one after another, compared in place
    (``bytes.startswith`` at each part's offset is a ``memcmp``; comparing memoryviews
    goes item by item, ~60 times slower)."""
    at = 0
    for part in parts:
        if not there.startswith(part, at):
            return False
        at += len(part)
    return at == len(there)


def _temp_beside(target: str, made: set[str]) -> str:
    """The temp file's path beside ``target``, its folder made (``made``: folders
    already created, updated)."""
    folder = os.path.dirname(target)
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    return os.path.join(folder, f".{os.path.basename(target)}.tmp")


def _read_at(fd: int, offset: int, size: int) -> bytes:
    """``size`` bytes of the file ``fd`` from ``offset``."""
    parts = []
    while size > 0:
        part = os.pread(fd, size, offset)
        if not part:
            raise OSError(f"the site writer's buffer ended {size} bytes early")
        parts.append(part)
        offset += len(part)
        size -= len(part)
    return b"".join(parts)


def store_from(
    target: str, data: int, offset: int, size: int, compare: bool, made: set[str]
) -> bool:
    """:func:`store` of the ``size`` bytes at ``offset`` of the buffer file ``data``,
    copied by the kernel (``os.sendfile``, no copy through this process) unless they
    must be compared with the file there first."""
    if compare:
        return store(target, _read_at(data, offset, size), compare, made)
    tmp = _temp_beside(target, made)
    with open(tmp, "wb") as out:
        fd = out.fileno()
        try:
            while size > 0 and _SENDFILE is not None:
                sent = _SENDFILE(fd, data, offset, size)
                if not sent:
                    raise OSError("the site writer's buffer ended early")
                offset, size = offset + sent, size - sent
        except OSError as exc:
            if exc.errno not in _NO_SENDFILE:
                raise
        if size:  # no sendfile into a file here (macOS: sockets only): through memory
            out.write(_read_at(data, offset, size))
    os.replace(tmp, target)
    return True


_SENDFILE = getattr(os, "sendfile", None)
# What sendfile answers where it cannot write into a regular file.
_NO_SENDFILE = frozenset(
    {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSOCK, errno.EBADF}
)


def _buffer_file() -> int:
    """A new, unnamed file for the bytes handed to the helper: in memory
    (``memfd_create``, Linux), else an unlinked temp file."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("tracker-site-writer", os.MFD_CLOEXEC)
    import tempfile

    handle = tempfile.TemporaryFile()
    return os.dup(handle.fileno())  # the handle closes; the file lives while fd is open


# Messages go to the helper this many at a time: each send can wake it, and with a send
# per file a profiled full build spent 1.7 s (wall) inside 3,000 small socket writes,
# the scheduler running the woken helper while the build waited.
BATCH = 32
# A buffer file holds at most this many bytes (unless one file is larger): then the next
# one starts and the helper closes the last once it has written from it, so a build of
# any size keeps about this much in memory for the helper.
BUFFER_BYTES = 32 * 1024 * 1024


# What the parent sends: a list of folders to make, a file to store (target, offset and
# size in the current buffer file, compare?), or a switch to the next buffer file (its
# descriptor travels beside the message, SCM_RIGHTS).
Message = list[str] | tuple[str, int, int, bool] | tuple[str, int]
NEXT_BUFFER = "next-buffer"


class _Helper:
    """The parent's end of the helper process. A file's bytes go into a buffer file
    shared with the helper (``os.pwrite``: one copy, never waiting on the helper); the
    socket carries only where they are. Messages are held here until the helper says it
    is up, then sent as they come; a helper that never comes up leaves them to be
    written here when the block ends (:meth:`write_here`)."""

    def __init__(self) -> None:
        import socket
        import subprocess
        from multiprocessing.connection import Connection

        ours, theirs = socket.socketpair()
        self._buffers = [_buffer_file()]  # the buffers the helper may not have yet
        self._used = 0  # bytes in the last buffer
        root = str(Path(tracker.__file__).resolve().parent.parent)  # where tracker is
        first = str(self._buffers[0])
        try:
            # -I: no current folder or PYTHONPATH on its path, so it imports this very
            # tracker package (root), not one that happens to be where it runs.
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-c", _HELPER_MAIN, str(theirs.fileno()), root, first],
                pass_fds=(theirs.fileno(), self._buffers[0]),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            os.close(self._buffers[0])
            raise
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self.held: list[Message] = []
        self._state = "starting"  # then "up", or "failed" when it never came up

    def send(self, item: tuple[str, bytes, bool] | list[str]) -> None:
        """Queue one file (``(target, bytes, compare)``, its bytes put in the buffer now)
        or a list of folders to make first, sending all that is held once the helper is
        up."""
        if isinstance(item, tuple):
            target, payload, compare = item
            offset = self._put(payload)  # may queue a switch to the next buffer first
            self.held.append((target, offset, len(payload), compare))
        else:
            self.held.append(item)
        if len(self.held) < BATCH:
            return
        if self._state == "starting" and self._conn.poll():
            self._hello()
        if self._state == "up":
            self._flush()

    def _put(self, payload: bytes) -> int:
        """Write ``payload`` at the end of the buffer (a new buffer when this one is
        full, the switch queued); its offset there."""
        if self._used and self._used + len(payload) > BUFFER_BYTES:
            fd = _buffer_file()
            self._buffers.append(fd)
            self.held.append((NEXT_BUFFER, fd))
            self._used = 0
        offset, view = self._used, memoryview(payload)
        while view:
            done = os.pwrite(self._buffers[-1], view, offset)
            view, offset = view[done:], offset + done
        self._used, start = offset, self._used
        return start

    def _flush(self) -> None:
        """Send every held message at once, with the descriptors of the buffers they
        switch to; then close ours of the buffers before those (their memory is freed
        when the helper closes its copy)."""
        import socket

        fds = [m[1] for m in self.held if isinstance(m, tuple) and m[0] == NEXT_BUFFER]
        try:
            self._conn.send(self.held)
            if fds:
                with socket.fromfd(self._conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    socket.send_fds(s, [b"b"], fds)  # type: ignore[arg-type]
        except OSError as exc:
            raise self._lost() from exc
        self.held = []
        while fds and self._buffers[0] != fds[-1]:
            os.close(self._buffers.pop(0))

    def write_here(self, made: set[str]) -> list[bool]:
        """Store every held file in this process (the helper never came up), in order;
        per file, whether its bytes changed."""
        flags, buffer = [], self._buffers[0]
        for item in self.held:
            if isinstance(item, tuple) and item[0] == NEXT_BUFFER:
                buffer = item[1]  # type: ignore[assignment]
            elif isinstance(item, tuple):
                target, offset, size, compare = item  # type: ignore[misc]
                flags.append(store(target, _read_at(buffer, offset, size), compare, made))
        return flags

    def finish(self) -> list[bool] | None:
        """Send what is left and wait for the helper: per file sent, whether its bytes
        changed; None when it never came up (:meth:`write_here` then). Raises the
        helper's first error, or :class:`SiteError` when it ended early."""
        try:
            if self._state == "starting":
                self._hello()
            if self._state == "failed":
                return None
            try:
                self._flush()
                self._conn.send(None)
                changed, error = self._conn.recv()
            except (EOFError, OSError) as exc:
                raise self._lost() from exc
        finally:
            self.abort()
        if error is not None:
            raise error
        return changed  # type: ignore[no-any-return]

    def abort(self) -> None:
        """Stop the helper: it exits when its end of the socket closes. The buffers
        stay open while :meth:`write_here` may need them (:meth:`close`)."""
        import subprocess

        self._conn.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def close(self) -> None:
        """Close this end's buffer files."""
        while self._buffers:
            os.close(self._buffers.pop())

    def _hello(self) -> None:
        try:
            self._conn.recv()
            self._state = "up"
        except (EOFError, OSError):
            self._state = "failed"

    def _lost(self) -> SiteError:
        self.abort()
        return SiteError(f"the site writer process ended early (exit {self._proc.returncode})")


def _make_folders(folders: list[str], made: set[str]) -> None:
    """Make ``folders`` ahead of their files; a folder that cannot be made is left to
    :func:`store`, which raises for the file that needs it, in order."""
    for folder in folders:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        made.add(folder)


# The helper's program: it imports this module only (not the caller's __main__, as a
# multiprocessing 'spawn' child would: that costs a second and may run a script twice).
_HELPER_MAIN = (
    "import sys; sys.path.insert(0, sys.argv[2]); "
    "from tracker.website.writer import serve; serve(int(sys.argv[1]), int(sys.argv[3]))"
)


def _receive(conn: Connection) -> list[Message] | None:
    """The next messages from the parent (None: no more); the descriptors of the
    buffers they switch to come right after them, and take the place of the parent's
    numbers."""
    import socket

    items = conn.recv()
    if items is None:
        return None
    switches = [i for i, m in enumerate(items) if isinstance(m, tuple) and m[0] == NEXT_BUFFER]
    if switches:
        with socket.fromfd(conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as s:
            _, fds, _, _ = socket.recv_fds(s, 1, len(switches))
        if len(fds) != len(switches):
            raise EOFError("a buffer switch came without its file")
        for i, fd in zip(switches, fds, strict=True):
            items[i] = (NEXT_BUFFER, fd)
    return items  # type: ignore[no-any-return]


def serve(fd: int, buffer: int) -> None:
    """The helper process, on the socket ``fd`` and the first buffer file ``buffer``:
    read messages as they arrive (so the parent seldom waits on a full socket), store
    the files in order (:func:`store_from`), then reply with the changed flags and the
    first error (None). Exits quietly when the parent goes."""
    from multiprocessing.connection import Connection

    conn = Connection(fd)
    todo: deque[Message] = deque()
    made: set[str] = set()
    changed: list[bool] = []
    error: BaseException | None = None
    ended = False
    try:
        conn.send("up")
        while not ended or todo:
            if not ended and (not todo or conn.poll()):
                items = _receive(conn)
                if items is None:
                    ended = True
                else:
                    todo.extend(items)
                continue
            item = todo.popleft()
            if isinstance(item, list):
                _make_folders(item, made)
            elif len(item) == 2:
                os.close(buffer)
                buffer = item[1]  # type: ignore[misc]
            elif error is None:
                try:
                    changed.append(store_from(item[0], buffer, *item[1:], made))  # type: ignore[misc]
                except Exception as exc:  # the parent raises it
                    error = exc
        try:
            conn.send((changed, error))
        except Exception:  # an error that does not pickle: send its text
            conn.send((changed, SiteError(f"writing the site failed: {error!r}")))
    except (EOFError, OSError):
        pass  # the parent went away (its build failed): just stop
