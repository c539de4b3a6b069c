"""Where handlers put text: a bounded buffer that says "stop" once a limit is reached.

A handler loops ``for chunk in ...: if not sink.write(chunk): break``. The sink enforces
``max_chars``, ``max_lines`` and the deadline, and optionally filters the text by line: a window
(``--lines A-B``) or a grep (``--grep P --context N --max-matches M``). Memory stays bounded by the
limits, not by the input: a line longer than ``MAX_LINE`` is cut before it is matched.

With a ``stream`` (``--stdout``, the pager of ``view``) the text goes there as it is written, not kept: a
reader sees the first match while the file is still being read, and a reader that has gone (``| head -1``,
a pager quit early) stops the read at once.
"""

from __future__ import annotations

import re
from collections import deque

from boundread.contract.model import Span
from boundread.contract.stream import CLOSED, Stream
from boundread.limits import Deadline, Limits

TYPE_CHECKING = False  # not typing's (start-up)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from boundread.contract.stream import Writer

MAX_LINE = 1 << 20  # characters of one input line kept for matching


class Progress:
    """How far a reader is, for a progress bar: bytes of the file for text, pages for a PDF. Readers set the
    total once they know it and move ``done``; a watcher (another thread) only reads the two numbers."""

    __slots__ = ("done", "total", "unit")

    def __init__(self) -> None:
        self.done = 0
        self.total: int | None = None
        self.unit = "bytes"

    def start(self, total: int | None, unit: str) -> None:
        self.done, self.total, self.unit = 0, total, unit

    def advance(self, n: int = 1) -> None:
        self.done += n


class Sink:
    def __init__(
        self,
        limits: Limits,
        deadline: Deadline | None = None,
        *,
        window: Span | None = None,
        grep: re.Pattern[str] | None = None,
        context: int = 0,
        stream: Writer | None = None,
    ) -> None:
        self.limits = limits
        self.deadline = deadline or Deadline(limits.timeout)
        self.window = window
        self.grep = grep
        self.context = max(0, context)
        self.chars = 0
        self.lines = 0  # newlines written to the output
        self.line_no = 0  # input lines fully consumed
        self.lines_counted = True  # False: read to the end, the lines after the last one fed not counted
        self.matches = 0
        self.reasons: list[str] = []
        self.warnings: list[str] = []
        self.full = False  # stop reading: a bound was reached or the selection is complete
        self.timed_out = False
        self.interrupted = False
        self.progress = Progress()
        self.stop_line: int | None = None  # first input line not (fully) written, when cut
        self._parts: list[str] = []
        self._partial: list[str] = []
        self._partial_len = 0
        self._before: deque[tuple[int, str]] = deque(maxlen=self.context or 1)
        self._after = 0
        self._last_emitted = 0
        self._stop_after: int | None = None
        self.stream = Stream(stream) if stream is not None else None
        self.ends_line = True  # the text written so far is empty or ends with a newline

    @property
    def filtering(self) -> bool:
        return self.window is not None or self.grep is not None

    @property
    def truncated(self) -> bool:
        return bool(self.reasons)

    def text(self) -> str:
        """What was written (nothing when it was streamed: the reader has it)."""
        return "".join(self._parts)

    @property
    def reader_gone(self) -> bool:
        """The streamed text's reader closed it (``| head -1`` had its line)."""
        return self.stream is not None and self.stream.closed

    def write(self, text: str) -> bool:
        """Add text; False means stop reading (the caller breaks out of its loop)."""
        if self.full:
            return False
        if self.deadline.expired:
            self.expire()
            return False
        if self.filtering:
            self._feed(text)
            if self.stream is not None and not self.stream.tick():
                self._stop(CLOSED)
        else:
            self._emit(text, count_input=True)
        return not self.full

    def close(self) -> None:
        """Flush a last line that had no newline, and what waits for the stream's reader."""
        if self.filtering and self._partial and not self.full:
            line = "".join(self._partial)
            self._partial.clear()
            self._line(line)
        ended = self.stream is None or self.stream.write("" if self.ends_line else "\n")  # a summary starts a line
        if not ended or (self.stream is not None and not self.stream.tick(force=True)):
            self._stop(CLOSED)

    def feed_line(self, line: str) -> None:
        """One whole input line, without its newline, as ``write`` would have split it off: the fast text path
        (formats/text/scan.py) hands over only the lines that can change the output and counts the rest."""
        self._append_partial(line)
        whole = "".join(self._partial)
        self._partial.clear()
        self._partial_len = 0
        self._line(whole)

    def skip_lines(self, count: int, last: Sequence[str] = ()) -> None:
        """``count`` input lines that cannot change the output (before the window, or not matching the grep),
        counted, not read. ``last``: the final ones (cut at MAX_LINE), the context before the next match."""
        self.line_no += count
        if self.stream is not None and not self.stream.tick():  # a burst before this gap reaches the reader now
            self._stop(CLOSED)
        if self.context and self.grep is not None and last:
            first = self.line_no - len(last) + 1
            self._before.extend(zip(range(first, self.line_no + 1), last, strict=True))

    @property
    def needs_each_line(self) -> bool:
        """True while lines after a match are owed as context, or a max-matches stop waits for them."""
        return self._after > 0 or self._stop_after is not None

    def long_line(self, number: int) -> None:
        """Say that input line ``number`` was cut at MAX_LINE characters before it was matched."""
        if not any(w.startswith(f"line {number} ") for w in self.warnings):
            self.warnings.append(f"line {number} is longer than {MAX_LINE:,} chars: cut there")

    def expire(self) -> None:
        if not self.timed_out:
            self.timed_out = True
            self._stop(f"timeout after {self.deadline.seconds:g} s")

    def interrupt(self) -> None:
        """Ctrl-C: stop here and keep what was written, as a timeout does."""
        if not self.interrupted:
            self.interrupted = True
            self._stop("interrupted")

    def _stop(self, reason: str | None) -> None:
        self.full = True
        if reason and reason not in self.reasons:
            self.reasons.append(reason)
        if self.stop_line is None and reason:
            # filtering counts the line being handled already; pass-through counts finished lines
            self.stop_line = self.line_no if self.filtering else self.line_no + 1

    def _emit(self, text: str, *, count_input: bool = False) -> None:
        limits = self.limits
        room = limits.max_chars - self.chars
        cut_reason = None
        if len(text) > room:
            text, cut_reason = text[: max(room, 0)], f"max_chars {limits.max_chars:,} reached"
        if limits.max_lines is not None:
            allowed = limits.max_lines - self.lines
            if text.count("\n") >= allowed:
                end = -1
                for _ in range(max(allowed, 0)):
                    end = text.find("\n", end + 1)
                text, cut_reason = text[: end + 1], f"max_lines {limits.max_lines:,} reached"
        if text:
            if self.stream is None:
                self._parts.append(text)
            elif not self.stream.write(text):
                self._stop(CLOSED)
                return
            self.ends_line = text.endswith("\n")
            self.chars += len(text)
            newlines = text.count("\n")
            self.lines += newlines
            if count_input:
                self.line_no += newlines
        if cut_reason:
            self._stop(cut_reason)

    def _feed(self, text: str) -> None:
        pieces = text.split("\n")
        for piece in pieces[:-1]:
            self._append_partial(piece)
            line = "".join(self._partial)
            self._partial.clear()
            self._partial_len = 0
            self._line(line)
            if self.full:
                return
        self._append_partial(pieces[-1])

    def _append_partial(self, piece: str) -> None:
        room = MAX_LINE - self._partial_len
        if len(piece) > room:
            piece = piece[:room]
            self.long_line(self.line_no + 1)
        if piece:
            self._partial.append(piece)
            self._partial_len += len(piece)

    def _line(self, line: str) -> None:
        self.line_no += 1
        number = self.line_no
        if self.window is not None and self.grep is None:
            if number > self.window.last:
                self._stop(None)
            elif number >= self.window.first:
                self._emit_line(number, line, None)
                if number >= self.window.last and not self.full:
                    self._stop(None)
            return
        if self.window is not None and number < self.window.first:
            return
        if self.window is not None and number > self.window.last:
            self._stop(None)
            return
        self._grep_line(number, line)

    def _grep_line(self, number: int, line: str) -> None:
        assert self.grep is not None
        if self._stop_after is not None and number > self._stop_after:
            self._stop(f"max_matches {self.limits.max_matches:,} reached")
            self.stop_line = number
            return
        if self._stop_after is None and self.grep.search(line):
            first = self._before[0][0] if self.context and self._before else number
            if self.context and self._last_emitted and first > self._last_emitted + 1:
                self._emit("--\n")
            if self.context:
                for before_no, before in self._before:
                    self._emit_line(before_no, before, "-")
                self._before.clear()
            self._emit_line(number, line, ":")
            self.matches += 1
            self._after = self.context
            if self.matches >= self.limits.max_matches:
                self._stop_after = number + self.context
                if not self.context:
                    self._stop(f"max_matches {self.limits.max_matches:,} reached")
                    self.stop_line = number + 1
        elif self._after > 0:
            self._emit_line(number, line, "-")
            self._after -= 1
        elif self.context:
            self._before.append((number, line))

    def _emit_line(self, number: int, line: str, sep: str | None) -> None:
        self._last_emitted = number
        self._emit(f"{number}{sep}{line}\n" if sep else f"{line}\n")
