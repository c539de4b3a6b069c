"""Is there a lone CR before this byte? rg's line numbers are ours only up to the first one.

Universal newlines (the Python path) end a line at a CR that no LF follows; rg does not. Flagging such lines in
rg's own search would cost it its literal search (a regex with a literal ran 3x slower with ``|\\r[^\\n]`` added),
so a second rg looks for the first lone CR alongside (a memchr pass on the other core) and the lines before it are
fed as rg numbers them. A record that arrives before that rg is done is cleared by reading the bytes before it here
when they are few (the first matches of a big file come at once), else by waiting for it (started then, if the
search had not been going long enough to start it). What it found may be known already: an earlier grep of the
same file left it in formats/_rg/counts.py. From the first lone CR on, the caller hands the file to the Python
path (scan.py), which reads it as universal newlines do.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from boundread.formats._rg import counts
from boundread.formats._rg.records import parse

TYPE_CHECKING = False  # typing for mypy only, as in _rg/records.py
if TYPE_CHECKING:
    from typing import BinaryIO

    from boundread.formats._rg.child import Child

STEP = 8 << 20  # at most this many bytes read here to clear a record before the checking rg is done
_BLOCK = 1 << 20
_LONE = re.compile(rb"\r[^\n]")


class LoneCr:
    """``checker``: the rg looking for the first lone CR; or ``start(now)``, which gives it once started (``now``:
    start it), so that it runs only for a search that goes on past the bytes read here (STEP); or ``known``, what
    an earlier pass found (counts.CLEAR: none in the file; else its line's number and offset)."""

    def __init__(self, path: str, checker: Child | None, size: int,
                 known: tuple[int, int] | str | None = None,
                 start: Callable[[bool], Child | None] | None = None) -> None:
        self.path, self.checker, self.size, self.start = path, checker, size, start
        self.upto = 0  # bytes [0, upto) read here and found clear
        self.first: tuple[int, int] | None = known if isinstance(known, tuple) else None  # (line number, offset
        # of its start) of the first lone CR's line
        self.whole = known == counts.CLEAR  # the whole file is known clear
        self.base = (1, 0)  # a line start whose number is known (the last record fed): numbers what is found here
        self.by_hand = False  # the checking rg failed, or there is none to start: read here whatever is asked

    def found(self) -> tuple[int, int] | str | None:
        """What is known of the whole file, for counts.remember: the first lone CR, CLEAR, or None (not known)."""
        if self.first is None and not self.whole and not self.by_hand:
            self._look(now=False)
        if self.first is None and not self.whole and not self.by_hand and self.checker is not None \
                and self.checker.poll() is not None:
            self._checked()
        if self.first is not None:
            return self.first
        return counts.CLEAR if self.whole or self.upto >= self.size else None

    def note(self, number: int, offset: int) -> None:
        """A record fed: its line's number and offset."""
        self.base = (number, offset)

    def clear_before(self, end: int) -> bool:
        """No line that starts before ``end`` holds a lone CR: rg's line numbers hold through those lines."""
        while True:
            if self.first is not None:
                return self.first[1] >= end
            if self.whole or self.upto >= end:
                return True
            self._look(now=False)
            if self.checker is not None and not self.by_hand and self.checker.poll() is not None:
                self._checked()
            elif self.by_hand or end - self.upto <= STEP:
                self._read(end)
            elif (checker := self._look(now=True)) is not None:
                checker.wait()
            else:
                self.by_hand = True  # no checking rg to wait for

    def _look(self, *, now: bool) -> Child | None:
        """The checking rg: the one given, else the one ``start`` has started (``now``: start it if not yet)."""
        if self.checker is None and self.start is not None:
            self.checker = self.start(now)
        return self.checker

    def _checked(self) -> None:
        assert self.checker is not None
        out = self.checker.stdout.read(256) if self.checker.stdout is not None else b""
        code = self.checker.wait()
        number, offset, _text = parse(out)
        if code == 0 and number is not None:
            self.first = (number, offset)
        elif code == 1:
            self.whole = True
        else:
            self.by_hand = True

    def _read(self, end: int) -> None:
        """Look for a lone CR here in the lines from ``upto`` through the one holding byte ``end - 1`` (a CR at
        the very end of the file ends its last line: not lone)."""
        with open(self.path, "rb") as fd:
            pos, limit = self.upto, _line_end(fd, end - 1, self.size)
            while pos < limit:
                stop = min(pos + _BLOCK, limit)
                data = _pread(fd, stop - pos + 1, pos)  # one byte more: a CR's next byte
                found = _LONE.search(data)
                if found is not None:
                    self.first = self._line_of(fd, pos + found.start())
                    return
                pos = stop
            self.upto = max(self.upto, limit)

    def _line_of(self, fd: BinaryIO, at: int) -> tuple[int, int]:
        """(number, start offset) of the line holding byte ``at``: numbered from ``base``, which lies before it."""
        start = _line_start(fd, at)
        number, pos = self.base
        while pos < start:
            stop = min(pos + _BLOCK, start)
            number += _pread(fd, stop - pos, pos).count(b"\n")
            pos = stop
        return number, start


def _line_start(fd: BinaryIO, at: int) -> int:
    """The offset of the line that holds byte ``at``: just after the last LF before it, else 0."""
    start = at
    while start > 0:
        low = max(0, start - _BLOCK)
        newline = _pread(fd, start - low, low).rfind(b"\n")
        if newline >= 0:
            return low + newline + 1
        start = low
    return 0


def lines_before(path: str, offset: int, count: int, cap: int) -> list[bytes]:
    """The last ``count`` lines before ``offset`` (a line start), each its first ``cap`` bytes, CRLF's CR dropped."""
    if count <= 0 or offset <= 0:
        return []
    with open(path, "rb") as fd:
        lines: list[bytes] = []
        end = offset - 1  # the LF that ends the line before
        while len(lines) < count and end >= 0:
            start = _line_start(fd, end)
            line = _pread(fd, min(end - start, cap + 1), start)
            lines.append(line[:-1] if line.endswith(b"\r") and end - start <= cap else line[:cap])
            end = start - 1
        return lines[::-1]


def _line_end(fh: BinaryIO, at: int, size: int) -> int:
    """Where the line holding byte ``at`` ends (after its LF; the file's size for a last line without one)."""
    pos = max(at, 0)
    while pos < size:
        data = _pread(fh, _BLOCK, pos)
        newline = data.find(b"\n")
        if newline >= 0:
            return pos + newline + 1
        if not data:
            break
        pos += len(data)
    return size


def _pread(fh: BinaryIO, size: int, offset: int) -> bytes:
    fh.seek(offset)
    return fh.read(size)
