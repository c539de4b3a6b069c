"""What a gunzip prints (``zcat f.gz``, ``gzip -dc``, ``gunzip -c``): the gzip file's text, measured by
decompressing it as zcat does (every member, in order), never by the trailer's size field, which a file sets at
will and which counts only its last member. And what ``unzip -p a.zip [members]`` prints: those members' text
(all of them when none is named), in the central directory's order, stored or deflated (another method or an
encrypted member is not known here).

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
    from typing import BinaryIO

    from boundread.bytelevel import zipdir
    from boundread.guard.bounds import Bound

GUNZIP_READ = 8 * 1024 * 1024  # compressed bytes read to measure a gzip file's text
WORK = 32 * 1024 * 1024  # text decompressed for a tail or a range deep in the file (~0.1 s here)
_BLOCK = 64 * 1024
#: How a text ended: the file's last member ended; the file ended inside a member (zcat prints what it had, then
#: fails); not gzip (zcat prints nothing of it); the read or work limit came first (the rest is not known).
END, CUT, BROKEN, LIMIT = "end", "cut", "broken", "limit"


#: Central directory records a zip's text walks at most.
ZIP_RECORDS = 20_000
GZIP, ZIP = b"\x1f\x8b", b"PK\x03\x04"


def unpackable(path: str | os.PathLike[str]) -> bool:
    """Whether the file is gzip or zip, whose text this module reads."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False
    return head[:2] == GZIP or head == ZIP


class _Text:
    """The text of a gzip file or of a zip's ``members``, piece by piece (``pieces``), and how it ended (``how``,
    after the last)."""

    __slots__ = ("how", "members", "path", "work")

    def __init__(self, path: str | os.PathLike[str], work: int, members: tuple[str, ...] = ()) -> None:
        self.path, self.work, self.members, self.how = path, work, members, LIMIT

    def pieces(self) -> Iterator[bytes]:
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(4)
                fh.seek(0)
                if head == ZIP:
                    yield from self._zip(fh)
                elif head[:2] == GZIP:
                    yield from self._gzip(fh)
                else:
                    self.how = BROKEN
        except (OSError, zlib.error, ValueError):  # zipdir.BadZip is a ValueError
            self.how = BROKEN

    def _gzip(self, fh: BinaryIO) -> Iterator[bytes]:
        total, inflate, between = 0, zlib.decompressobj(47), False  # between: a member ended, no next one begun
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

    def _zip(self, fh: BinaryIO) -> Iterator[bytes]:
        from boundread.bytelevel import zipdir

        chosen = _chosen(fh, self.members)
        if chosen is None:
            return
        total = read = 0
        for rec in chosen:
            if rec.encrypted or rec.method not in (0, 8):
                self.how = BROKEN
                return
            fh.seek(zipdir.data_start(fh, rec))
            left = rec.compressed
            inflate = zlib.decompressobj(-15) if rec.method == 8 else None
            while left > 0:
                data = fh.read(min(_BLOCK, left))
                if not data:
                    self.how = CUT
                    return
                left -= len(data)
                read += len(data)
                while data:
                    text = data if inflate is None else inflate.decompress(data, self.work + 1 - total)
                    data = b"" if inflate is None else inflate.unconsumed_tail
                    total += len(text)
                    if text:
                        yield text
                    if total > self.work or read > GUNZIP_READ:
                        return
        self.how = END


def within(path: str | os.PathLike[str], most: int, members: tuple[str, ...] = ()) -> int | None:
    """The size of what ``zcat`` prints of a gzip file, when that is text (no NUL byte: not a tar) of at most
    ``most`` bytes and the file is gzip to its end; else None. Decompresses at most ``most + 1`` bytes."""
    text = _Text(path, most, members)
    total = 0
    for piece in text.pieces():
        total += len(piece)
        if total > most or b"\0" in piece:
            return None
    return total if text.how == END else None


def head(path: str | os.PathLike[str], most: int, members: tuple[str, ...] = ()) -> bytes:
    """The first ``most`` bytes of the text (fewer when it is shorter, or not known past them)."""
    return b"".join(_Text(path, most, members).pieces())[:most]


def begins_as_text(path: str | os.PathLike[str], members: tuple[str, ...] = (), sample: int = 64 * 1024) -> bool:
    """Whether the text begins as text: no NUL byte in its first ``sample`` bytes (a tar has one at once)."""
    seen = head(path, sample, members)
    return bool(seen) and b"\0" not in seen


def declared(path: str | os.PathLike[str], members: tuple[str, ...]) -> int | None:
    """What a zip's directory says these members (none: all) unpack to; None for a gzip file or a bad zip."""
    try:
        with open(path, "rb") as fh:
            chosen = _chosen(fh, members) if fh.read(4) == ZIP else None
    except (OSError, ValueError):  # zipdir.BadZip is a ValueError
        return None
    return None if chosen is None else sum(rec.size for rec in chosen)


def _chosen(fh: BinaryIO, members: tuple[str, ...]) -> list[zipdir.Record] | None:
    """The records of a zip's files that ``unzip -p`` prints for ``members`` (a name, or a folder: what it holds;
    none: all of them), in the directory's order; None past ZIP_RECORDS records."""
    from boundread.bytelevel import zipdir

    wanted = {member.rstrip("/") for member in members}
    chosen = []
    for walked, rec in enumerate(zipdir.records(fh)):
        if walked >= ZIP_RECORDS:
            return None
        if not rec.is_dir and (not wanted or rec.name in wanted or
                               any(rec.name.startswith(folder + "/") for folder in wanted)):
            chosen.append(rec)
    return chosen


def part(path: str | os.PathLike[str], bound: Bound, most: int, members: tuple[str, ...] = ()) -> int | None:
    """The bytes ``bound`` (a later stage's: lines or bytes, from the start or the end) lets through of a gzip
    file's text, when that is at most ``most``; None when it is more or cannot be told within the limits."""
    if bound.unit == "bytes":  # `| head -c N`, `| tail -c N`: N at most, whatever the text
        return bound.count if bound.count <= most else None
    if bound.unit != "lines":
        return None
    text = _Text(path, WORK, members)
    got = _last_lines(text, bound.count, most) if bound.from_end else _lines(text, bound.skip, bound.count, most)
    return _by_longest(path, bound.count, most, members) if got == _UNKNOWN else got


#: What _lines and _last_lines give when the lines lie past the WORK bytes read here.
_UNKNOWN = -1
#: The text's first bytes whose longest line stands for the lines past WORK.
SAMPLE = 64 * 1024


def _by_longest(path: str | os.PathLike[str], count: int, most: int, members: tuple[str, ...]) -> int | None:
    """Lines past what is decompressed here (``| tail -n 50`` of a 100 MB log), as the guard sizes lines deep in
    a big file: each as long as the longest of the text's first SAMPLE bytes; None when that is over ``most``
    or the text does not begin as text."""
    sample = head(path, SAMPLE, members)
    if not sample or b"\0" in sample:
        return None
    lines = sample.split(b"\n")
    if len(lines) > 1 and len(sample) == SAMPLE:
        lines.pop()  # cut by the sample's end
    size = count * max(max(len(line) + 1 for line in lines), 1)
    return size if size <= most else None


def _lines(text: _Text, skip: int, count: int, most: int) -> int | None:
    """The bytes of lines ``skip + 1`` to ``skip + count`` of the text (fewer where it ends sooner); _UNKNOWN
    when they lie past what is read here."""
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
    return _UNKNOWN if text.how == LIMIT else None


def _last_lines(text: _Text, count: int, most: int) -> int | None:
    """The bytes of the last ``count`` lines of the text: all of it is decompressed (up to WORK), the last
    ``most + 1`` bytes kept; _UNKNOWN when there is more of it."""
    window = b""
    total = 0
    for piece in text.pieces():
        total += len(piece)
        window = (window + piece)[-(most + 1):]
    if text.how not in (END, CUT):
        return _UNKNOWN if text.how == LIMIT else None
    body = window[:-1] if window.endswith(b"\n") else window
    at = len(body)
    for _ in range(count):
        at = body.rfind(b"\n", 0, at)
        if at < 0:
            return total if total <= most else None  # fewer lines than asked in what was kept
    return len(window) - at - 1
