"""Text on its way to a reader as it is extracted (``--stdout``, the pager of ``view``), and the sign that the
reader has gone (``| head -1`` had its line, a pager was quit), so the read stops at once.
"""

from __future__ import annotations

import errno
import os
import stat
import time

TYPE_CHECKING = False  # not typing's: the sink loads this module on every read's start-up
if TYPE_CHECKING:
    import select
    from typing import Protocol

    class Writer(Protocol):
        """Where streamed text goes: stdout, a pager's stdin, any text file object (a type for mypy only:
        import it under TYPE_CHECKING)."""

        def write(self, text: str, /) -> int: ...

        def flush(self) -> None: ...

FLUSH_EVERY = 0.05  # seconds: text streamed in a burst reaches the reader at least this often
CLOSED = "the reader closed the output"  # the reason a streamed read stopped when its reader went away


class Stream:
    """Text on its way to a reader as it is extracted: the first write, and any after a pause of
    ``FLUSH_EVERY``, are flushed at once; a burst in between is flushed at the next write or :meth:`tick`,
    so a million matching lines are not a million flushes. ``closed``: the reader went away - a write met
    EPIPE, or, on a pipe, a tick saw its reading end closed while no text was due (``| head -1`` had its line
    and the read was between sparse matches)."""

    __slots__ = ("_flushed", "_pending", "_poll", "closed", "out")

    def __init__(self, out: Writer) -> None:
        self.out = out
        self.closed = False
        self._flushed = 0.0
        self._pending = False
        self._poll = _pipe_poll(out)

    def write(self, text: str) -> bool:
        """Send ``text``; False when the reader has gone."""
        if self.closed:
            return False
        try:
            self.out.write(text)
        except OSError as exc:
            return self._gone(exc)
        self._pending = True
        return self.tick()

    def tick(self, *, force: bool = False) -> bool:
        """Every ``FLUSH_EVERY`` (or ``force``): flush what waits, or see whether the reader has gone."""
        if self.closed:
            return False
        now = time.monotonic()
        if not force and now - self._flushed < FLUSH_EVERY:
            return True
        self._flushed = now
        if not self._pending:
            if self._poll is not None:
                import select  # loaded by _pipe_poll already: a pipe's poller exists

                self.closed = any(event & (select.POLLERR | select.POLLHUP) for _, event in self._poll.poll(0))
            return not self.closed
        try:
            self.out.flush()
        except OSError as exc:
            return self._gone(exc)
        self._pending = False
        return True

    def _gone(self, exc: OSError) -> bool:
        if exc.errno not in (errno.EPIPE, errno.EINVAL) and not isinstance(exc, BrokenPipeError):
            raise exc
        self.closed = True
        return False


def _pipe_poll(out: Writer) -> select.poll | None:
    """A poller of ``out``'s file when it is a pipe (whose closed reading end it reports), else None."""
    try:
        fd = out.fileno()  # type: ignore[attr-defined]
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
    except (OSError, ValueError, AttributeError):  # io.StringIO, a test runner's capture
        return None
    import select  # here: not on the start-up of a read that streams to no pipe

    poller = select.poll()
    poller.register(fd, 0)  # no events asked: POLLERR and POLLHUP are reported all the same
    return poller
