"""Site output: writes rendered bytes under one folder, safely and incrementally.

Pelican's lessons: a build never writes one file twice and never writes outside its
output folder (``sanitised_join``); a file whose bytes did not change is left alone.
A large build can hand the file system calls to a helper process (:meth:`Writer.offloaded`):
creating thousands of files is system time that then overlaps rendering.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import tracker
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

    def write(self, relpath: str, data: str | bytes, *, compare: bool = True) -> bool | None:
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
        if relpath in self._seen:
            raise SiteError(f"refusing to write {relpath} twice in one build")
        _check_relpath(relpath)
        self._seen.add(relpath)
        if self._helper is not None:
            self._order.append((relpath, False))
        else:
            self.unchanged.append(relpath)

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
            yield
        except BaseException:
            helper.abort()
            raise
        finally:
            self._helper = None
        held = list(helper.held)
        flags = helper.finish()
        if flags is None:  # it never came up: every file is still held
            flags = [store(*item, self._made) for item in held if isinstance(item, tuple)]
        changed = iter(flags)
        for relpath, sent in self._order:
            (self.written if sent and next(changed) else self.unchanged).append(relpath)
        self._order = []

    @property
    def paths(self) -> set[str]:
        """Every relative path this build produced (written or unchanged)."""
        return set(self._seen)


def store(target: str, payload: bytes, compare: bool, made: set[str]) -> bool:
    """Put ``payload`` at the absolute path ``target`` through a temp file and rename (a
    reader never sees half a page); False, writing nothing, when ``compare`` and the
    file already holds these bytes. ``made``: folders already created (updated)."""
    try:
        if compare:
            with open(target, "rb") as existing:
                if os.fstat(existing.fileno()).st_size == len(payload):
                    if existing.read() == payload:
                        return False
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        pass
    folder = os.path.dirname(target)
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    tmp = os.path.join(folder, f".{os.path.basename(target)}.tmp")
    with open(tmp, "wb") as out:
        out.write(payload)
    os.replace(tmp, target)
    return True


class _Helper:
    """The parent's end of the helper process. Files are held here until the helper
    says it is up, then sent as they come; a helper that never comes up leaves them to
    be written here when the block ends."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        root = str(Path(tracker.__file__).resolve().parent.parent)  # where tracker is
        try:
            # -I: no current folder or PYTHONPATH on its path, so it imports this very
            # tracker package (root), not one that happens to be where it runs.
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-c", _HELPER_MAIN, str(theirs.fileno()), root],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self.held: list[tuple[str, bytes, bool] | list[str]] = []
        self._state = "starting"  # then "up", or "failed" when it never came up

    def send(self, item: tuple[str, bytes, bool] | list[str]) -> None:
        """Queue one file (or a list of folders to make first), sending all that is held
        once the helper is up."""
        self.held.append(item)
        if self._state == "starting" and self._conn.poll():
            self._hello()
        if self._state == "up":
            try:
                for held in self.held:
                    self._conn.send(held)
            except OSError as exc:
                raise self._lost() from exc
            self.held.clear()

    def finish(self) -> list[bool] | None:
        """Send what is left and wait for the helper: per file sent, whether its bytes
        changed; None when it never came up (``held`` has every file). Raises the
        helper's first error, or :class:`SiteError` when it ended early."""
        try:
            if self._state == "starting":
                self._hello()
            if self._state == "failed":
                return None
            try:
                for held in self.held:
                    self._conn.send(held)
                self.held.clear()
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
        """Stop the helper: it exits when its end of the socket closes."""
        self._conn.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

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
    "from tracker.website.writer import serve; serve(int(sys.argv[1]))"
)


def serve(fd: int) -> None:
    """The helper process, on the socket ``fd``: read files as they arrive (so the
    parent seldom waits on a full socket), store them in order, then reply with the
    changed flags and the first error (None). Exits quietly when the parent goes."""
    conn = Connection(fd)
    todo: deque[tuple[str, bytes, bool] | list[str]] = deque()
    made: set[str] = set()
    changed: list[bool] = []
    error: BaseException | None = None
    ended = False
    try:
        conn.send("up")
        while not ended or todo:
            if not ended and (not todo or conn.poll()):
                item = conn.recv()
                if item is None:
                    ended = True
                else:
                    todo.append(item)
                continue
            item = todo.popleft()
            if isinstance(item, list):
                _make_folders(item, made)
            elif error is None:
                try:
                    changed.append(store(*item, made))
                except Exception as exc:  # the parent raises it
                    error = exc
        try:
            conn.send((changed, error))
        except Exception:  # an error that does not pickle: send its text
            conn.send((changed, SiteError(f"writing the site failed: {error!r}")))
    except (EOFError, OSError):
        pass  # the parent went away (its build failed): just stop
