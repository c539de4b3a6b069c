"""PDFium's text of many pages, read by forked worker processes alongside this one, handed back in page order.

PDFium is not thread-safe, so the work is split between processes: the pages asked for are cut into chunks of
:data:`CHUNK` pages, dealt round-robin to this process and ``cpus - 1`` forked workers. Each worker opens the
document on its own (a forked copy shares the file offset with its parent, so it must not read through the
parent's handle), reads its chunks and writes each page, as bytes, into its own pipe; this process reads its own
chunks itself and takes the workers' from their pipes in turn, so pages come out in the order asked.

Bounded by construction:

- Start-up: the first chunk is read here before any fork, and timed; workers start only when the pages left
  (as many as the char budget will take, at the first chunk's chars a page) would take :data:`MIN_SECONDS`
  here: below that, a fork and a second ``FPDF_LoadDocument`` cost about what they save.
- Work past a limit: a worker stops when it alone has produced the budget, and a full pipe (:data:`PIPE_BYTES`)
  blocks it until this process reads on; when the caller stops (char cap, ``--lines`` complete, the deadline,
  Ctrl-C, an error), closing the generator kills the workers at once.
- A worker that dies (a crash inside PDFium) costs one page, reported as unreadable; this process reads the
  rest of that worker's pages itself. A worker that cannot start (``fork`` fails: EAGAIN, ENOMEM) leaves its
  chunks to this process. Workers ignore Ctrl-C (the parent keeps what it has; SIGINT is blocked across the
  ``fork`` so that it cannot reach a child before it ignores it) and carry their own alarm, so none outlives the
  time limit: a worker killed by that alarm makes its page a timeout, as a deadline does in one process.

Only ``os.fork`` platforms (Linux, macOS) use workers, and only from the main thread; elsewhere, and for small
reads, the reading is sequential.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator

from boundread.contract.model import Source
from boundread.formats.pdf.page import Page
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.limits import Deadline

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import BinaryIO

CHUNK = 8  # pages dealt at a time: small enough that a worker's chunk fits its pipe, large enough to amortise
MIN_SECONDS = 0.05  # reading time left (at the first chunk's pace) below which it stays sequential (measured)
MAX_WORKERS = 3  # forked workers at most, whatever the machine
OWN_COST = 0.04  # of this process's time per page, the sink's and the pipes' share (measured: parent 292 ms of CPU
# against the worker's 264 on 1,000 pages dealt in turn, 8 of them read before the fork)
PIPE_BYTES = 1 << 18  # each worker's pipe: how far (in text) it may run ahead of the reader
_HEADER = struct.Struct("<iBIIIIi")  # page number, flags, bytes of text, of error, of doubt; glyphs, usable (-1: None)
_DRAWN, _ERROR, _DOUBT = 1, 2, 4
_CODEC = ("utf-8", "surrogatepass")


def cpus() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def usable() -> bool:
    """Workers may be forked here. Not from a thread other than the main one (the MCP server extracts in worker
    threads): a forked child holds only the forking thread, and any lock another thread held at that moment (the
    allocator's, logging's, an import's) stays locked in it for ever, so one page could hang the worker. Reading
    sequentially there costs speed, never a hang; the main thread's own helper threads (the progress bar) take
    no lock the worker touches."""
    return hasattr(os, "fork") and cpus() > 1 and threading.current_thread() is threading.main_thread()


def _pack(page: Page) -> bytes:
    text, error, doubt = (s.encode(*_CODEC) for s in (page.text, page.error or "", page.doubt or ""))
    flags = _DRAWN * page.drawn | _ERROR * (page.error is not None) | _DOUBT * (page.doubt is not None)
    usable = -1 if page.usable is None else page.usable
    return _HEADER.pack(page.number, flags, len(text), len(error), len(doubt), page.glyphs, usable) + text + error \
        + doubt


def _unpack(stream: BinaryIO) -> Page | None:
    """The next page a worker wrote; None when its pipe ended early (the worker died)."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    number, flags, *sizes, glyphs, usable = _HEADER.unpack(header)
    body = stream.read(sum(sizes))
    if len(body) < sum(sizes):
        return None
    text = body[: sizes[0]].decode(*_CODEC)
    error = body[sizes[0] : sizes[0] + sizes[1]].decode(*_CODEC) if flags & _ERROR else None
    doubt = body[sizes[0] + sizes[1] :].decode(*_CODEC) if flags & _DOUBT else None
    return Page(number, text, error, drawn=bool(flags & _DRAWN), doubt=doubt, glyphs=glyphs,
                usable=None if usable < 0 else usable)


TIMED_OUT = "timed out"  # why a worker's pipe ended when its own alarm killed it: the time limit, not PDFium


class _Worker:
    """One forked reader: its process id and the read end of its pipe."""

    def __init__(self, pid: int, stream: BinaryIO) -> None:
        self.pid, self.stream = pid, stream
        self.alive = True

    def stop(self) -> None:
        if self.alive:
            self.alive = False
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
        self.stream.close()

    def ended(self, *, kill: bool = False) -> str | None:
        """Why the worker's pipe ended (it is reaped here): None when it stopped on its own (budget spent),
        :data:`TIMED_OUT` when its alarm killed it. ``kill``: it is out of step (a page other than the one due), so
        it is stopped first."""
        self.alive = False
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return "its reader process vanished"
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            if number == signal.SIGALRM:  # its own alarm (see _work): the time limit ran out on this page
                return TIMED_OUT
            return ("its reader process was killed (out of memory?)" if number == signal.SIGKILL
                    else f"PDFium crashed on it (signal {number})")
        code = os.WEXITSTATUS(status)
        return None if code == 0 else f"its reader process failed (exit {code})"


def _work(src: Source, password: str | None, numbers: list[int], layout: bool, budget: int | None,
          deadline: Deadline, write_fd: int) -> None:
    """The body of a worker, with SIGINT ignored: read ``numbers`` and write each page into the pipe until they
    are done or ``budget`` chars are written (exit 0 either way: the parent reads on itself if it wants more)."""
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the parent's alarm is not inherited; set our own
    if deadline.remaining is not None:
        signal.setitimer(signal.ITIMER_REAL, deadline.remaining + 1.0)
    doc = PdfiumDoc(src, password)
    written = 0
    with os.fdopen(write_fd, "wb") as pipe:
        for first, last in _runs(numbers):
            for page in doc.read(first, last, layout):
                pipe.write(_pack(page))
                pipe.flush()
                written += len(page.text)
                if budget is not None and written >= budget:
                    return


def _runs(numbers: list[int]) -> Iterator[tuple[int, int]]:
    """Consecutive page numbers as (first, last) runs, in order."""
    start = prev = numbers[0]
    for number in numbers[1:]:
        if number != prev + 1:
            yield start, prev
            start = number
        prev = number
    yield start, prev


def _spawn(src: Source, password: str | None, numbers: list[int], layout: bool, budget: int | None,
           deadline: Deadline, workers: list[_Worker]) -> None:
    """Fork a worker for ``numbers`` and add it to ``workers``. SIGINT stays blocked from before the fork until
    the child ignores it and the parent has listed it, so Ctrl-C can neither run this process's code in the child
    (its ``finally`` would kill the other workers and write the output) nor leave a child unlisted, unkilled.
    OSError (no fork, no pipe) with nothing left open: the caller reads those pages itself."""
    read_fd, write_fd = os.pipe()
    with contextlib.suppress(AttributeError, OSError):
        import fcntl

        fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)  # Linux; elsewhere the default (16-64 KB)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        try:
            with warnings.catch_warnings():  # Python 3.12+ warns on a fork while the progress bar's thread runs:
                warnings.simplefilter("ignore", DeprecationWarning)  # the worker takes no lock that thread holds
                pid = os.fork()
        except BaseException:
            os.close(read_fd)
            os.close(write_fd)
            raise
        if pid == 0:
            _child(src, password, numbers, layout, budget, deadline, workers, read_fd, write_fd, mask)
        os.close(write_fd)
        workers.append(_Worker(pid, os.fdopen(read_fd, "rb")))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _child(src: Source, password: str | None, numbers: list[int], layout: bool, budget: int | None,
           deadline: Deadline, others: list[_Worker], read_fd: int, write_fd: int,
           mask: set[int | signal.Signals]) -> None:
    """The forked worker, from the fork on: keep only its own write end, read, exit. Never returns."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent answers it
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(read_fd)
        for other in others:
            with contextlib.suppress(OSError):
                os.close(other.stream.fileno())
        _work(src, password, numbers, layout, budget, deadline, write_fd)
        code = 0
    except BaseException:  # noqa: BLE001 - a worker reports by its pipe ending; nothing may escape into the parent
        pass
    finally:
        os._exit(code)


def read(doc: PdfiumDoc, src: Source, password: str | None, numbers: list[int], layout: bool,
         room: Callable[[], int | None], deadline: Deadline) -> Generator[Page, None, None]:
    """The pages ``numbers`` (in that order) as ``doc.read`` gives them, read by workers where it pays.
    ``room()`` is how many more characters the caller will take (None: no telling, e.g. a grep)."""
    first, rest = numbers[:CHUNK], numbers[CHUNK:]
    clock = _Clock()
    yield from clock.pages(_own(doc, first, layout))
    count = _workers_for(len(rest), room() if rest else None, clock, len(first)) if rest else 0
    if not count:
        yield from _own(doc, rest, layout)
        return
    budget = room()
    chunks = [rest[i : i + CHUNK] for i in range(0, len(rest), CHUNK)]
    owners = _deal(chunks, count, len(first))
    workers: list[_Worker] = []
    try:
        for k in range(1, count + 1):
            mine = [n for chunk, owner in zip(chunks, owners, strict=True) if owner == k for n in chunk]
            try:
                _spawn(src, password, mine, layout, budget, deadline, workers)
            except OSError:  # out of processes or descriptors: the workers started so far and this one do it all
                break
        for chunk, owner in zip(chunks, owners, strict=True):
            if owner == 0 or owner > len(workers):
                yield from _own(doc, chunk, layout)
            else:
                yield from _take(doc, workers[owner - 1], chunk, layout)
    finally:
        for worker in workers:
            worker.stop()


def _deal(chunks: list[list[int]], count: int, first: int) -> list[int]:
    """Who reads each chunk: 0 this process, 1..count the workers in turn. Each process is to read as many pages
    in all, but this one has read the ``first`` pages already and writes every page into the sink (:data:`OWN_COST`
    of its time), so it takes fewer of the rest, spread along them (a worker's pipe holds only so many pages
    ahead) and the first chunk of them its own (it reads while the workers open the document)."""
    rest = sum(map(len, chunks))
    mine = max((first + rest) / (count + 1) * (1 - OWN_COST) - first, 0.0)  # pages of the rest this process reads
    owners: list[int] = []
    taken = dealt = turn = 0
    for chunk in chunks:
        dealt += len(chunk)
        if taken < mine * dealt / rest:
            owners.append(0)
            taken += len(chunk)
        else:
            owners.append(turn % count + 1)
            turn += 1
    return owners


class _Clock:
    """Seconds spent reading pages (not in the caller between them) and the characters they held."""

    def __init__(self) -> None:
        self.seconds, self.chars = 0.0, 0

    def pages(self, pages: Iterator[Page]) -> Iterator[Page]:
        while True:
            started = time.perf_counter()
            page = next(pages, None)
            self.seconds += time.perf_counter() - started
            if page is None:
                return
            self.chars += len(page.text)
            yield page


def _workers_for(pages: int, budget: int | None, clock: _Clock, sampled: int) -> int:
    """How many workers the ``pages`` left are worth: the time they would take here, at the pace of the
    ``sampled`` pages read so far, and only as many of them as ``budget`` chars will take."""
    if not usable() or not sampled:
        return 0
    needed = pages if budget is None else min(pages, int(budget / max(clock.chars / sampled, 1.0)) + 1)
    if needed < 2 * CHUNK or needed * clock.seconds / sampled < MIN_SECONDS:
        return 0  # a fork and a second FPDF_LoadDocument would cost about what they save
    return min(cpus() - 1, MAX_WORKERS, needed // CHUNK)


def _own(doc: PdfiumDoc, numbers: list[int], layout: bool) -> Iterator[Page]:
    for first, last in _runs(numbers) if numbers else ():
        yield from doc.read(first, last, layout)


def _take(doc: PdfiumDoc, worker: _Worker, chunk: list[int], layout: bool) -> Iterator[Page]:
    """The pages of ``chunk`` from ``worker``'s pipe; once its pipe has ended, read here (a crash costs the page
    it was reading)."""
    for number in chunk:
        page = _unpack(worker.stream) if worker.alive else None
        if page is not None and page.number == number:
            yield page
            continue
        if worker.alive and (why := worker.ended(kill=page is not None)) is not None:
            yield Page(number, "", timed_out=True) if why == TIMED_OUT else Page(number, "", why)
            continue
        yield from doc.read(number, number, layout)
