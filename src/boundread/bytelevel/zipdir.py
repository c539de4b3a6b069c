"""A zip's central directory, read lazily: the end record in O(1), then one record at a time.

``zipfile.ZipFile`` parses and keeps the whole central directory when it opens a file (300,000
entries: 7 s and 190 MB), so callers that need a few names, a count or one member use this module
instead. It follows zipfile's reading of the format (end record search, zip64 locator and record,
a prepended stub shifting every offset) and is standard library only, with no module-level imports:
the guard-check hook imports it before every agent tool call.

Names: the Info-ZIP Unicode Path field (0x7075) when present and its CRC matches the name's bytes (even
over an ASCII or flagged name: tools write "" or "????" there); else ASCII as is; UTF-8 when flag bit 11
says so; else a legacy name, decoded by :class:`.names.Decoder` with
one guessed code page per archive (``Record.name_encoding`` says which; the detector is imported
only then).

A record that does not parse ends the iteration with :class:`BadZip` (a ``ValueError``); the
caller turns it into ``Corrupt``. Nothing here raises past ``BadZip`` and ``OSError``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

TAIL = 22 + 0xFFFF  # the end record plus the longest comment: 65,557 bytes
CHUNK = 1 << 16
_EOCD, _LOC64, _EOCD64 = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
_CENTRAL, _LOCAL = b"PK\x01\x02", b"PK\x03\x04"
_MAX32 = 0xFFFFFFFF


class BadZip(ValueError):
    """The directory (or a member's local header) does not parse; the message says where."""


class End:
    """What the end of central directory record says, zip64 values applied."""

    __slots__ = ("concat", "count", "size", "start")

    def __init__(self, count: int, size: int, start: int, concat: int) -> None:
        self.count = count  # entries the directory declares
        self.size = size  # bytes of the central directory
        self.start = start  # where it really starts in the file (stub included)
        self.concat = concat  # bytes prepended to the zip: added to every local header offset


class Record:
    """One central directory record (the fields zipfile's ZipInfo takes from it)."""

    __slots__ = (
        "compressed",
        "crc",
        "create_system",
        "dos_date",
        "dos_time",
        "end_at",
        "external_attr",
        "flags",
        "header_offset",
        "method",
        "name",
        "name_encoding",
        "raw_name",
        "size",
    )

    name: str
    name_encoding: str | None  # the guessed encoding of a legacy name; None when the zip says which
    raw_name: bytes
    flags: int
    method: int
    compressed: int
    size: int
    crc: int
    dos_date: int
    dos_time: int
    external_attr: int
    create_system: int
    header_offset: int
    end_at: int  # the file offset after this record: where the next one starts

    @property
    def encrypted(self) -> bool:
        return bool(self.flags & 0x1)

    @property
    def is_dir(self) -> bool:
        return self.name.endswith("/")

    @property
    def is_symlink(self) -> bool:
        return self.create_system == 3 and (self.external_attr >> 16) & 0o170000 == 0o120000

    @property
    def date_time(self) -> tuple[int, int, int, int, int, int]:
        d, t = self.dos_date, self.dos_time
        return (d >> 9) + 1980, (d >> 5) & 0xF, d & 0x1F, t >> 11, (t >> 5) & 0x3F, (t & 0x1F) * 2


def _le(data: bytes, at: int, width: int) -> int:
    return int.from_bytes(data[at:at + width], "little")


def _size_of(fh: IO[bytes]) -> int:
    return fh.seek(0, 2)


def end_record(fh: IO[bytes]) -> End:
    """Find and read the end record (and the zip64 one when present), like zipfile's ``_EndRecData``."""
    filesize = _size_of(fh)
    base = max(0, filesize - TAIL)
    fh.seek(base)
    tail = fh.read(filesize - base)
    at = len(tail) - 22
    if not (at >= 0 and tail.startswith(_EOCD, at) and tail.endswith(b"\x00\x00")):
        at = tail.rfind(_EOCD)
        if at < 0 or len(tail) - at < 22:
            raise BadZip("file is not a zip file (no end of central directory record)")
    count, size, offset = _le(tail, at + 10, 2), _le(tail, at + 12, 4), _le(tail, at + 16, 4)
    location = base + at
    extra = 0
    loc = _read_before(fh, tail, base, location, 20)
    if loc is not None and loc.startswith(_LOC64):
        if _le(loc, 4, 4) != 0 or _le(loc, 16, 4) > 1:
            raise BadZip("zip files that span multiple disks are not supported")
        rec = _read_before(fh, tail, base, location - 20, 56)
        if rec is not None and rec.startswith(_EOCD64):
            count, size, offset = _le(rec, 32, 8), _le(rec, 40, 8), _le(rec, 48, 8)
            extra = 56 + 20
    concat = location - size - offset - extra
    start = offset + concat
    if start < 0:
        raise BadZip("bad offset for central directory")
    return End(count, size, start, concat)


def _read_before(fh: IO[bytes], tail: bytes, base: int, end: int, width: int) -> bytes | None:
    """The ``width`` bytes that end at file offset ``end`` (from the tail already read when possible)."""
    if end - width < 0:
        return None
    if end - width >= base:
        return tail[end - width - base:end - base]
    fh.seek(end - width)
    data = fh.read(width)
    return data if len(data) == width else None


def records(fh: IO[bytes], end: End | None = None) -> Iterator[Record]:
    """The central directory records in order, parsed one at a time as the caller asks for them.

    Reads the directory in 64 KiB chunks, so stopping after N records costs N records, not the
    directory. A record that does not parse raises :class:`BadZip` and ends the iteration.
    """
    import struct

    unpack = struct.Struct("<4s4B4HL2L5H2L").unpack_from
    end = end if end is not None else end_record(fh)
    pos, stop, concat = end.start, end.start + end.size, end.concat
    buf, at = b"", 0
    decoder = None
    while pos < stop:
        if len(buf) - at < 46:
            buf, at = _refill(fh, buf, at, pos, stop, 46)
        (sig, _cver, system, _xver, _r, flags, method, dtime, ddate, crc, csize, usize, nlen, xlen, clen,
         _disk, _iattr, eattr, offset) = unpack(buf, at)
        if sig != _CENTRAL:
            raise BadZip("bad magic number for central directory")
        whole = 46 + nlen + xlen + clen
        if len(buf) - at < whole:
            buf, at = _refill(fh, buf, at, pos, stop, whole)
        raw = buf[at + 46:at + 46 + nlen]
        rec = Record()
        encoding = None
        if xlen and (unicode := _unicode_path(buf[at + 46 + nlen:at + 46 + nlen + xlen], raw)) is not None:
            name = unicode  # the field wins where its CRC matches: the header's name may be "" or "????"
        elif raw.isascii():
            name = raw.decode("ascii")
        elif flags & 0x800:
            name = raw.decode("utf-8", "replace")
        else:
            if decoder is None:
                from boundread.bytelevel.names import Decoder

                decoder = Decoder()
            name, encoding = decoder.decode(raw, _legacy_sample, buf, at)
        nul = name.find("\x00")
        rec.name, rec.name_encoding, rec.raw_name = name if nul < 0 else name[:nul], encoding, raw
        rec.flags, rec.method, rec.crc, rec.dos_date, rec.dos_time = flags, method, crc, ddate, dtime
        rec.external_attr, rec.create_system = eattr, system
        if _MAX32 in (usize, csize, offset):
            usize, csize, offset = _zip64(buf[at + 46 + nlen:at + 46 + nlen + xlen], usize, csize, offset)
        rec.size, rec.compressed, rec.header_offset = usize, csize, offset + concat
        at += whole
        pos += whole
        rec.end_at = pos
        yield rec


def _refill(fh: IO[bytes], buf: bytes, at: int, pos: int, stop: int, need: int) -> tuple[bytes, int]:
    """Keep the unread part of ``buf`` and read on until ``need`` bytes of the record are there."""
    if pos + need > stop:
        raise BadZip("truncated central directory")
    fh.seek(pos + len(buf) - at)
    more = fh.read(max(CHUNK, need - (len(buf) - at)))
    buf = buf[at:] + more
    if len(buf) < need:
        raise BadZip("truncated central directory")
    return buf, 0


def _unicode_path(extra: bytes, raw: bytes) -> str | None:
    """The Info-ZIP Unicode Path extra field (0x7075): version 1, the CRC-32 of the header's name
    bytes, then the name in UTF-8. A field whose CRC does not match (the name was changed since) is
    ignored, as the APPNOTE says."""
    while len(extra) >= 4:
        kind, length = _le(extra, 0, 2), _le(extra, 2, 2)
        if kind == 0x7075 and 5 < length <= len(extra) - 4 and extra[4] == 1:
            import zlib

            if _le(extra, 5, 4) == zlib.crc32(raw):
                try:
                    return extra[9:4 + length].decode("utf-8")
                except UnicodeDecodeError:
                    return None
            return None
        extra = extra[4 + length:]
    return None


def _legacy_sample(buf: bytes, at: int) -> list[bytes]:
    """The raw legacy names of the records already in ``buf`` from ``at`` on: the code page is
    guessed from them together (short names alone mislead a detector)."""
    from boundread.bytelevel.names import SAMPLE_NAMES, plausible_utf8

    sample: list[bytes] = []
    while len(sample) < SAMPLE_NAMES and len(buf) - at >= 46 and buf.startswith(_CENTRAL, at):
        flags, nlen = _le(buf, at + 8, 2), _le(buf, at + 28, 2)
        raw = buf[at + 46:at + 46 + nlen]
        if len(raw) < nlen:
            break
        if not (raw.isascii() or flags & 0x800) and plausible_utf8(raw) is None:
            sample.append(raw)
        at += 46 + nlen + _le(buf, at + 30, 2) + _le(buf, at + 32, 2)
    return sample


def _zip64(extra: bytes, usize: int, csize: int, offset: int) -> tuple[int, int, int]:
    """Apply the zip64 extra field (0x0001): each 32-bit value that is 0xFFFFFFFF is read from it."""
    while len(extra) >= 4:
        kind, length = _le(extra, 0, 2), _le(extra, 2, 2)
        if length + 4 > len(extra):
            raise BadZip(f"corrupt extra field {kind:04x}")
        if kind == 1:
            data, values = extra[4:4 + length], []
            for value in (usize, csize, offset):
                if value == _MAX32:
                    if len(data) < 8:
                        raise BadZip("corrupt zip64 extra field")
                    value, data = _le(data, 0, 8), data[8:]
                values.append(value)
            return values[0], values[1], values[2]
        extra = extra[4 + length:]
    return usize, csize, offset


def data_start(fh: IO[bytes], rec: Record) -> int:
    """Where a member's bytes begin, from its local header (checked against the directory)."""
    fh.seek(rec.header_offset)
    head = fh.read(30)
    if len(head) < 30 or not head.startswith(_LOCAL):
        raise BadZip("bad magic number for file header")
    nlen, xlen = _le(head, 26, 2), _le(head, 28, 2)
    if fh.read(nlen) != rec.raw_name:
        raise BadZip(f"file name in directory {rec.name!r} and header differ")
    return rec.header_offset + 30 + nlen + xlen


def read_data(fh: IO[bytes], rec: Record) -> bytes:
    """A stored or deflated, unencrypted member, inflated to at most its declared size and CRC-checked.

    The caller refuses members whose declared size is over its cap first; a member that inflates
    past its declared size, ends early or fails its CRC raises :class:`BadZip`.
    """
    import zlib

    if rec.method not in (0, 8) or rec.flags & 0x61:
        raise BadZip(f"{rec.name}: not a plain stored or deflated member")
    fh.seek(data_start(fh, rec))
    out: bytes | bytearray
    if rec.method == 0:
        if rec.compressed != rec.size:
            raise BadZip(f"{rec.name}: stored sizes differ")
        out = fh.read(rec.size)
    else:
        out = _inflate(fh, rec)
    if len(out) != rec.size:
        raise BadZip(f"{rec.name}: {len(out):,} bytes where the directory declares {rec.size:,}")
    if zlib.crc32(out) != rec.crc:
        raise BadZip(f"bad CRC-32 for {rec.name}")
    return bytes(out)


def _inflate(fh: IO[bytes], rec: Record) -> bytearray:
    """Inflate at most ``size + 1`` bytes: one more than declared is enough to call it a lie."""
    import zlib

    inflater = zlib.decompressobj(-15)
    out, left, want = bytearray(), rec.compressed, rec.size + 1
    while not inflater.eof:
        chunk = inflater.unconsumed_tail
        if not chunk:
            if left <= 0:  # like zipfile: the data ends with the compressed size; length and CRC tell
                break
            chunk = fh.read(min(CHUNK, left))
            if not chunk:
                raise BadZip(f"{rec.name}: truncated member data")
            left -= len(chunk)
        try:
            out += inflater.decompress(chunk, want - len(out))
        except zlib.error as exc:
            raise BadZip(f"{rec.name}: {exc}") from None
        if len(out) >= want:
            break
    return out
