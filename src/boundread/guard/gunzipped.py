"""What a gunzip prints (``zcat f.gz``, ``gzip -dc``, ``gunzip -c``): the gzip file's text, measured by
decompressing it as zcat does (every member, in order), never by the trailer's size field, which a file sets at
will and which counts only its last member.

``within``: all of it, when it fits the cap (``zcat notes.txt.gz``). ``part``: what a later stage's bound lets
through of a bigger one (``zcat big.log.gz | head -n 20``, ``| tail -n 50``, ``| sed -n 100,200p``, ``| head -c
4096``). Both stop early: at most GUNZIP_READ compressed bytes read and WORK bytes decompressed, so a bomb or a
file of gigabytes costs the hook a bounded time; a measure that would need more gives None (not known here).

Standard library only, imported on the hook path only for a gunzipped flow.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check).
from __future__ import annotations

import os
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from boundread.guard.bounds import Bound

GUNZIP_READ = 8 * 1024 * 1024  # compressed bytes read to measure a gzip file's text
WORK = 32 * 1024 * 1024  # text decompressed for a tail or a range deep in the file (~0.1 s here)
_BLOCK = 64 * 1024
#: How a text ended: the file's last member ended; the file ended inside a member (zcat prints what it had, then
#: fails); not gzip (zcat prints nothing of it); the read or work limit came first (the rest is not known).
END, CUT, BROKEN, LIMIT = "end", "cut", "broken", "limit"


class _Text:
    """The text of a gzip file, piece by piece (``pieces``), and how it ended (``how``, after the last)."""

    __slots__ = ("how", "path", "work")

    def __init__(self, path: str | os.PathLike[str], work: int) -> None:
        self.path, self.work, self.how = path, work, LIMIT

    def pieces(self) -> Iterator[bytes]:
        total, inflate, between = 0, zlib.decompressobj(47), False  # between: a member ended, no next one begun
        try:
            with open(self.path, "rb") as fh:
                for _ in range(GUNZIP_READ // _BLOCK + 1):
                    data = fh.read(_BLOCK)
                    if not data:
                        self.how = END if between else CUT
                        return
                    while data:
                        between = False
                        text = inflate.decompress(data, self.work + 1 - total)
                        total += len(text)
                        if text:
                            yield text
                        if total > self.work:
                            return
                        data = inflate.unconsumed_tail
                        if inflate.eof:  # the next member, if any
                            data, inflate, between = inflate.unused_data, zlib.decompressobj(47), True
        except (OSError, zlib.error):
            self.how = BROKEN


def within(path: str | os.PathLike[str], most: int) -> int | None:
    """The size of what ``zcat`` prints of a gzip file, when that is text (no NUL byte: not a tar) of at most
    ``most`` bytes and the file is gzip to its end; else None. Decompresses at most ``most + 1`` bytes."""
    text = _Text(path, most)
    total = 0
    for piece in text.pieces():
        total += len(piece)
        if total > most or b"\0" in piece:
            return None
    return total if text.how == END else None


def begins_as_text(path: str | os.PathLike[str], sample: int = 64 * 1024) -> bool:
    """Whether the text begins as text: no NUL byte in its first ``sample`` bytes (a tar has one at once)."""
    seen = b""
    for piece in _Text(path, sample).pieces():
        seen += piece
    return bool(seen) and b"\0" not in seen


def part(path: str | os.PathLike[str], bound: Bound, most: int) -> int | None:
    """The bytes ``bound`` (a later stage's: lines or bytes, from the start or the end) lets through of a gzip
    file's text, when that is at most ``most``; None when it is more or cannot be told within the limits."""
    if bound.unit == "bytes":  # `| head -c N`, `| tail -c N`: N at most, whatever the text
        return bound.count if bound.count <= most else None
    if bound.unit != "lines":
        return None
    if bound.from_end:
        return _last_lines(path, bound.count, most)
    return _lines(path, bound.skip, bound.count, most)


def _lines(path: str | os.PathLike[str], skip: int, count: int, most: int) -> int | None:
    """The bytes of lines ``skip + 1`` to ``skip + count`` of the text (fewer where it ends sooner)."""
    text = _Text(path, WORK)
    seen = 0  # newlines so far
    offset = 0  # bytes before this piece
    start = 0 if skip == 0 else None
    for piece in text.pieces():
        at = -1
        while True:
            wanted = skip if start is None else skip + count
            while seen < wanted:
                at = piece.find(b"\n", at + 1)
                if at < 0:
                    break
                seen += 1
            if seen < wanted:
                break
            if start is None:
                start = offset + at + 1
                continue
            span = offset + at + 1 - start
            return span if span <= most else None
        offset += len(piece)
        if start is not None and offset - start > most:
            return None
    if text.how in (END, CUT) and start is not None and offset - start <= most:
        return offset - start  # the text ends before the last line asked for
    if text.how in (END, CUT) and start is None:
        return 0  # it ends before the first
    return None


def _last_lines(path: str | os.PathLike[str], count: int, most: int) -> int | None:
    """The bytes of the last ``count`` lines of the text: all of it is decompressed (up to WORK), the last
    ``most + 1`` bytes kept."""
    text = _Text(path, WORK)
    window = b""
    total = 0
    for piece in text.pieces():
        total += len(piece)
        window = (window + piece)[-(most + 1):]
    if text.how not in (END, CUT):
        return None
    body = window[:-1] if window.endswith(b"\n") else window
    at = len(body)
    for _ in range(count):
        at = body.rfind(b"\n", 0, at)
        if at < 0:
            return total if total <= most else None  # fewer lines than asked in what was kept
    return len(window) - at - 1
