"""The totals of a long central directory (entries, sizes, the records a warning may apply to), counted a block of
records at a time with C-speed operations instead of one Python step per record.

``list-zip`` keeps one page of entries but must count all of them (sizes, zip slips, bombs, encrypted or
nested members past the page). Walking 300,000 records in Python costs 0.5-0.8 s, more than ``unzip -l``
takes to print them all. Here a block of the directory is split at the record signature; the fixed fields
become columns by strided slices; a block whose every piece has exactly the length its own fields declare
is a chain of records (a signature inside a name or a comment breaks the chain, and then the block is left
to the record walk). Names are checked joined, by ``find`` and one regular expression: a record is *odd*
when any warning might apply (encrypted, zip64 sizes, a Unicode Path field, ``..``, a leading slash or drive,
a NUL, a nested archive, a ratio over the cap). Odd records are parsed whole, as the walk parses them; the
rest only add to the sums.

A block with a name that is neither ASCII nor flagged UTF-8 needs the archive's code-page guess: it is left
to the walk, as is anything that does not parse. Standard library only, nothing but :mod:`.zipdir` imported at
module level (the guard's path may load any of ``bytelevel``).
"""

from __future__ import annotations

from boundread.bytelevel import zipdir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO

#: Directory bytes split per step: memory stays a few times this.
BLOCK = 1 << 20
_SIG = b"PK\x01\x02"
_FIXED = 42  # a record's fixed part after its signature
_BIT0 = bytes(byte & 1 for byte in range(256))  # a translation table: 1 where bit 0 is set
_NESTED = ("zip|7z|tar|gz|tgz|bz2|tbz2|xz|txz|rar|jar|war|ear|apk|whl|epub|cab|iso|zst|docx|docm|xlsx|xlsm|pptx|"
           "pptm|odt|ods|odp")


class Walk(Exception):
    """This block is for the record walk (it does not split cleanly, or holds names needing a guess)."""


class Tally:
    """One block of records: the sums of its plain records, and its odd records parsed whole."""

    __slots__ = ("compressed", "entries", "largest", "next_at", "odd", "records", "size")

    def __init__(self, records: int, next_at: int, compressed: int) -> None:
        self.records = records  # every record of the block
        self.next_at = next_at  # the file offset after the block
        self.compressed = compressed  # of every record, odd ones included
        self.entries = self.size = self.largest = 0  # of the plain records
        self.odd: list[tuple[int, zipdir.Record]] = []  # (place in the block, record)


def blocks(fh: IO[bytes], end: zipdir.End, at: int, limit: int, max_ratio: float) -> Tally:
    """Count up to ``limit`` records from file offset ``at`` (a record's start), at most one block of them.

    Raises :class:`Walk` when the records from ``at`` must be walked one by one instead."""
    import sys

    if sys.byteorder != "little":
        raise Walk("big-endian machine")
    stop = end.start + end.size
    fh.seek(at)
    data = fh.read(min(BLOCK, stop - at))
    pieces = data.split(_SIG)
    if pieces[0] != b"":
        raise Walk("the block does not start with a record")
    del pieces[0]
    if at + len(data) < stop and len(pieces) > 1:
        pieces.pop()  # the last record may go on in the next block
    del pieces[limit:]
    if not pieces:
        raise Walk("a record longer than a block")
    return _tally(pieces, at, end.concat, max_ratio)


def _column(fixed: bytes, at: int, width: int, count: int) -> memoryview:
    """The little-endian field at ``at`` of every record's fixed part, as integers."""
    out = bytearray(width * count)
    for k in range(width):
        out[k::width] = fixed[at + k::_FIXED]
    return memoryview(out).cast("H" if width == 2 else "I")


def _tally(pieces: list[bytes], at: int, concat: int, max_ratio: float) -> Tally:
    import re
    from bisect import bisect_right
    from itertools import accumulate, compress, repeat
    from operator import add, and_, contains, eq, getitem, gt, mul
    from typing import cast

    part = cast("Callable[[bytes, slice], bytes]", getitem)

    count = len(pieces)
    lengths = list(map(len, pieces))
    if min(lengths) < _FIXED:
        raise Walk("a piece shorter than a record")
    fixed = b"".join(map(part, pieces, repeat(slice(0, _FIXED))))
    flags, csize, usize = _column(fixed, 4, 2, count), _column(fixed, 16, 4, count), _column(fixed, 20, 4, count)
    nlen, xlen, clen = _column(fixed, 24, 2, count), _column(fixed, 26, 2, count), _column(fixed, 28, 2, count)
    offset = _column(fixed, 38, 4, count)
    name_end = list(map(add, nlen, repeat(_FIXED)))
    if not all(map(eq, lengths, map(add, map(add, name_end, xlen), clen))):
        raise Walk("a signature inside a record")  # the pieces are not the records
    joined = b"\x00".join(map(part, pieces, map(slice, repeat(_FIXED), name_end)))
    if joined.count(b"\x00") != count - 1:
        raise Walk("a NUL in a name")
    starts: list[int] = []

    def names_at(pattern: bytes, text: bytes = joined) -> set[int]:
        """The records whose names hold a match (each match starts inside its name)."""
        found = [m.start() for m in re.finditer(pattern, text)]
        if found and not starts:
            starts.extend(accumulate(map(add, nlen, repeat(1)), initial=0))
        return {bisect_right(starts, at) - 1 for at in found}

    odd: set[int] = set()
    if not joined.isascii() and any(not flags[i] & 0x800 for i in names_at(rb"[\x80-\xff]")):
        raise Walk("a name that is neither ASCII nor flagged UTF-8")
    if b".." in joined:
        odd |= names_at(rb"\.\.")
    if b":" in joined:
        odd |= names_at(rb"(?<![^\x00])[A-Za-z]:")
    if joined.startswith((b"/", b"\\")) or b"\x00/" in joined or b"\x00\\" in joined:
        odd |= names_at(rb"(?<![^\x00])[/\\]")  # a leading slash or backslash
    if not joined or joined.startswith(b"\x00") or joined.endswith(b"\x00") or b"\x00\x00" in joined:
        odd |= names_at(rb"(?<![^\x00])(?=\x00|\Z)")  # an empty name
    odd |= names_at(rb"\.(?:" + _NESTED.encode() + rb")(?=\x00|\Z)", joined.lower())
    if any(xlen):
        extras = map(part, pieces, map(slice, name_end, map(add, name_end, xlen)))
        odd.update(compress(range(count), map(contains, extras, repeat(b"up"))))  # a Unicode Path field, maybe
    if fixed[4::_FIXED].translate(_BIT0).find(b"\x01") >= 0:  # the low byte of the flags: encrypted
        odd.update(compress(range(count), map(and_, flags, repeat(1))))
    if max(usize) > max_ratio * min(csize):  # else no record can expand more than max_ratio
        odd.update(compress(range(count), map(gt, usize, map(mul, csize, repeat(max_ratio)))))
    if b"\xff\xff\xff\xff" in fixed:  # a zip64 size or offset, maybe
        for column in (usize, csize, offset):
            odd.update(compress(range(count), map(eq, column, repeat(0xFFFFFFFF))))
    tally = Tally(count, at + sum(lengths) + 4 * count, sum(csize))
    if odd:
        plain = [True] * count
        for i in odd:
            plain[i] = False
        sizes = list(compress(usize, plain))
        tally.odd = [(i, _parse(pieces[i], concat)) for i in sorted(odd)]
        tally.compressed += sum(rec.compressed - csize[i] for i, rec in tally.odd)  # zip64 sizes
    else:
        sizes = list(usize)
    tally.entries, tally.size, tally.largest = len(sizes), sum(sizes), max(sizes, default=0)
    return tally


def _parse(piece: bytes, concat: int) -> zipdir.Record:
    """One record, parsed as the walk parses it."""
    import io

    whole = len(piece) + 4
    return next(zipdir.records(io.BytesIO(_SIG + piece), zipdir.End(1, whole, 0, concat)))
