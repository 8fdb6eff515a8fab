"""A share of a large build's files rendered and written by a second, forked process.

A full build renders ~3,000 files from one in-memory context on one core; the machine
has more. Once the jobs are planned (every key made, the context complete), the build
forks (``os.fork``: the child starts with the context as it is, copy on write, nothing
to send or import). The HTML pages and feeds go into a pool shared by both processes
(:func:`forked_share`): the child takes chunks of them from the start, the parent makes
the exports first and then takes chunks too, until none is left, so the two finish
together whatever the load and the disk (creating a file here costs 0.1 to 1 ms of
kernel time, and varies with what other programs deleted lately). The exports stay in
the parent because they fill what it keeps for its next build (the fragments of
``fragments.py``, the layouts of ``segments.py``); a page fills nothing the parent needs
(only caches of this build), so the child's work needs no state sent back: it answers,
per file, whether its bytes changed and its size.

What the child never does: touch the database (its inherited connection is left alone),
run the parent's exit handlers or flush its buffers (it ends with ``os._exit``), or
write outside the output folder (the same :class:`~tracker.website.writer.Writer`
checks). It is forked only where that is safe: a POSIX ``os.fork`` (not macOS), called from the
main thread of a process that runs no other thread (a lock another thread held at the
fork would stay held in the child; the scheduler runs its jobs in threads, so its
builds take the one-process path). An error in the child reaches the parent as
:class:`~tracker.website.writer.SiteError` naming the file (a ``RecordMiss`` as
itself, so the build is made again); the parent writes no manifest then, as when
rendering fails in the parent. When the parent fails first, the child is told to stop
(SIGTERM: it finishes the file it is writing, so no temp file is left) and waited for.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker.website.views import RecordMiss
from tracker.website.writer import Pieces, SiteError, Writer

# From this many pages and feeds to render, they are shared with a forked process
# (forking and the memory pages it copies cost ~0.05 s: more than a small rebuild saves).
FORK_AT = 300

# One file for the child: (relative path, render, compare with the file there?).
Task = tuple[str, Callable[[], str | bytes | Pieces], bool]
# Per file the child wrote: (relative path, bytes changed?, size in bytes).
Outcome = tuple[str, bool, int]


def can_fork() -> bool:
    """Whether this process may fork a child that runs Python: ``os.fork`` exists, not
    on macOS, and this is the main thread of a process running no other thread (module
    docstring)."""
    return (
        hasattr(os, "fork")
        # macOS's system libraries may start threads of their own: Python's docs call
        # fork there unsafe (multiprocessing defaults to spawn on macOS since 3.8)
        and sys.platform != "darwin"
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
    )


def in_child_share(path: str) -> bool:
    """Whether the file ``path`` is the child's to render: the HTML pages of subjects
    and index views, and the feeds. At 1,000 subjects this splits a full build's
    rendering and writing about evenly (the rest: the exports, ~1,000 files of JSON,
    CSV and the 27 MB of the big exports, and the other pages)."""
    return path.endswith(".html") or path.startswith("feeds/")


# The pool: one byte per chunk of tasks in a pipe both processes read (a read of one
# byte takes one chunk, atomically), so at most this many chunks: a pipe holds 64 KiB.
MAX_CHUNKS = 250


def _chunks(n: int) -> list[range]:
    """``range(n)`` in at most :data:`MAX_CHUNKS` consecutive chunks."""
    size = max(1, -(-n // MAX_CHUNKS))
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


def _pool(chunks: int) -> int:
    """The read end of a pipe holding one byte (its index) per chunk, its write end
    closed: reads give the chunks in order, then end of file."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, bytes(range(chunks)))
    finally:
        os.close(write_end)
    return read_end


def _take(pool: int, tasks: list[Task], chunks: list[range]) -> list[Task]:
    """The next chunk of ``tasks`` from the pool ([] when none is left)."""
    got = os.read(pool, 1)
    return [tasks[i] for i in chunks[got[0]]] if got else []


@dataclass
class Child:
    """The parent's handle on the forked child: its process id, the read end of the
    pipe its answer comes through, and the pool of tasks both take from."""

    pid: int
    answers: int
    tasks: list[Task]
    pool: int
    chunks: list[range]
    done: bool = False

    def take(self) -> list[Task]:
        """The next chunk of tasks for the parent to render and write itself ([] when
        the pool is empty)."""
        return _take(self.pool, self.tasks, self.chunks)

    def outcomes(self) -> list[Outcome]:
        """Wait for the child's answer: per file it wrote, in order, (path, changed,
        size). Raises the child's ``RecordMiss``, or :class:`SiteError` naming the file
        whose rendering or writing failed, or saying how the child ended without an
        answer."""
        chunks = []
        while chunk := os.read(self.answers, 1 << 20):
            chunks.append(chunk)
        status = self._wait()
        try:
            answer = pickle.loads(b"".join(chunks))
        except (pickle.UnpicklingError, EOFError, ValueError) as exc:
            raise SiteError(
                f"the site build's second process ended without an answer ({status})"
            ) from exc
        kind, *rest = answer
        if kind == "miss":
            message, subjects = rest
            raise RecordMiss(message, frozenset(subjects))
        if kind == "error":
            path, text = rest
            raise failed(path, text, " (in the build's second process)")
        return rest[0]  # type: ignore[no-any-return]

    def stop(self) -> None:
        """Tell the child to stop after the file it is writing, wait for it, close the
        pipes."""
        if not self.done:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            os.close(self.answers)  # a child writing its answer gets EPIPE, not a wait
            self.answers = -1
            self._wait()
        if self.pool >= 0:
            os.close(self.pool)
            self.pool = -1

    def _wait(self) -> str:
        _, status = os.waitpid(self.pid, 0)
        self.done = True
        if self.answers >= 0:
            os.close(self.answers)
            self.answers = -1
        code = os.waitstatus_to_exitcode(status)
        return f"exit {code}" if code >= 0 else f"signal {-code}"


def failed(path: str, error: BaseException | str, where: str = "") -> SiteError:
    """The error of a pool task whose rendering or writing failed, naming its file
    (either process: which one takes a task depends on timing)."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return SiteError(f"site build: making {path} failed{where}: {text}")


@contextmanager
def forked_share(tasks: list[Task], out_dir: Path) -> Iterator[Child]:
    """Fork a child that renders and writes ``tasks`` into ``out_dir`` (its own
    :class:`Writer`: the same path checks, temp file and rename, byte comparison),
    taking them a chunk at a time from a pool the block takes from too
    (:meth:`Child.take`); the block then takes the answer with :meth:`Child.outcomes`.
    Leaving the block by an exception stops the child first. Call only when
    :func:`can_fork`."""
    chunks = _chunks(len(tasks))
    pool = _pool(len(chunks))
    parent = os.getpid()
    try:
        read_end, write_end = os.pipe()
    except OSError:
        os.close(pool)
        raise
    pid = os.fork()
    if pid == 0:  # the child: never returns into the parent's code
        code = 1
        try:
            os.close(read_end)
            code = _serve(tasks, (pool, chunks, parent), out_dir, write_end)
        finally:
            os._exit(code)
    os.close(write_end)
    child = Child(pid, read_end, tasks, pool, chunks)
    try:
        yield child
    finally:
        child.stop()


_stopping = False


def _stop_soon(signum: int, frame: Any) -> None:
    global _stopping
    _stopping = True


def _serve(
    tasks: list[Task], pool: tuple[int, list[range], int], out_dir: Path, answers: int
) -> int:
    """The child's work: take chunks of ``tasks`` from the ``pool`` (its pipe, chunks
    and the parent's process id: a child whose parent is gone stops at the next chunk)
    and render and write each, then send the answer (``("done", outcomes)``,
    ``("miss", message, subjects)`` or ``("error", path, text)``) through
    ``answers``; the exit code."""
    signal.signal(signal.SIGTERM, _stop_soon)
    writer = Writer(out_dir)
    done: list[Outcome] = []
    answer: tuple[Any, ...] = ("done", done)
    path = ""
    try:
        while os.getppid() == pool[2] and (chunk := _take(pool[0], tasks, pool[1])):
            for path, render, compare in chunk:
                if _stopping:
                    raise SiteError("stopped by the parent")
                data = render()
                payload = data.encode("utf-8") if isinstance(data, str) else data
                changed = writer.write(path, payload, compare=compare)
                done.append((path, bool(changed), len(payload)))
    except RecordMiss as miss:
        answer = ("miss", str(miss), sorted(miss.subjects))
    except BaseException as exc:  # sent to the parent, which raises SiteError
        answer = ("error", path, f"{type(exc).__name__}: {exc}")
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(answers, view) :]
    except OSError:  # the parent stopped listening
        return 1
    return 0 if answer[0] == "done" else 1
