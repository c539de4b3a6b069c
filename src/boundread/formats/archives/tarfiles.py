"""Tar archives, plain or compressed (tar.gz, tar.bz2, tar.xz), through the standard library.

The listing reads headers one after the other and stops after ``max_entries``. In a compressed
tar, reaching the next header means decompressing the data before it, so the listing also stops
when that would go past ``max_ratio`` times the file's size (a tar bomb). A member is read through
``extractfile`` into memory, capped; its name is never used as a path.
"""

from __future__ import annotations

import contextlib
import dataclasses
import lzma
import re
import shlex
import tarfile
import zlib
from collections.abc import Iterator

from boundread.bytelevel.names import ESCAPED, Decoder, escaped_utf8, mostly_utf8, plausible_utf8
from boundread.contract.model import Entry, Listing, Request, Source
from boundread.errors import Corrupt, Refused
from boundread.formats.archives.common import (
    NO_NAME,
    TAR_NAMELESS,
    Collector,
    iso_from_epoch,
    make_entry,
    no_member,
    not_a_file,
    read_capped,
    same_text,
    too_big,
)
from boundread.limits import Limits
from boundread.units import human_bytes

_NO_NAME = re.compile(r"\(entry ([1-9][0-9]*), no name\)")

_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error, lzma.LZMAError, ValueError)
_MAGIC = ((b"\x1f\x8b", "tar.gz"), (b"BZh", "tar.bz2"), (b"\xfd7zXZ\x00", "tar.xz"))


def _reason(exc: BaseException) -> str:
    return (str(exc).strip() or type(exc).__name__)[:120]


def _format(src: Source) -> str:
    with src.open() as fh:
        head = fh.read(6)
    return next((fmt for magic, fmt in _MAGIC if head.startswith(magic)), "tar")


@contextlib.contextmanager
def _opened(src: Source) -> Iterator[tarfile.TarFile]:
    with src.open() as fh:
        try:
            archive = tarfile.open(fileobj=fh, mode="r:*",  # noqa: SIM115 - closed by the with below
                                   encoding="utf-8", errors="surrogateescape")
        except _ERRORS as exc:
            raise Corrupt(f"{src.name} is a damaged tar ({_reason(exc)})",
                          f"test it with `tar tvf {shlex.quote(src.name)}`") from None
        with archive:
            yield archive


def _skip_limit(src: Source, fmt: str, limits: Limits) -> int | None:
    """How far into the decompressed stream headers may be looked for; None for a plain tar."""
    if fmt == "tar":
        return None
    return max(int(limits.max_ratio * src.size), limits.max_member_bytes)


def _decoded(name: str, decoder: Decoder, pax: bool = False) -> tuple[str, str | None]:
    """A header name that is not UTF-8 comes back with surrogate escapes, and a short legacy one can
    pass for UTF-8 of rare scripts (cp866 "список" is valid UTF-8): their bytes get the archive's
    guessed code page (:mod:`boundread.bytelevel.names`), and the label says so. A pax name (UTF-8 by
    the standard, unless its header says ``hdrcharset=BINARY``: raw bytes, as GNU tar writes a legacy name) or a
    name that is mostly UTF-8 is shown as UTF-8 with its bad bytes escaped (``\\xNN``) and labelled so: one
    stray byte does not make the whole name cp437."""
    if name.isascii():
        return name, None
    raw = name.encode("utf-8", "surrogateescape")
    if plausible_utf8(raw) is not None:
        return name, None
    if pax or mostly_utf8(raw):
        return escaped_utf8(raw), ESCAPED
    return decoder.decode(raw)


def _entry(member: tarfile.TarInfo, limits: Limits, decoder: Decoder, number: int) -> Entry:
    utf8 = member.pax_headers.get("hdrcharset") != "BINARY"  # pax's own word that its names are raw bytes
    name, encoding = _decoded(member.name, decoder, utf8 and "path" in member.pax_headers)
    link = (_decoded(member.linkname, decoder, utf8 and "linkpath" in member.pax_headers)[0]
            if member.issym() or member.islnk() else None)
    entry = make_entry(
        name or NO_NAME.format(number), member.size if member.isfile() else 0, None, iso_from_epoch(member.mtime),
        limits, is_dir=member.isdir(), is_symlink=member.issym(), link_target=link, hard_link=member.islnk(),
        name_encoding=encoding,
    )
    return entry if name else dataclasses.replace(entry, warnings=(*entry.warnings, TAR_NAMELESS))


def _decoder() -> Decoder:
    """Legacy tar names: a Western guess is cp1252, not the zip default cp437."""
    return Decoder(western="cp1252")


def listing(src: Source, req: Request) -> Listing:
    limits = req.limits
    fmt = _format(src)
    collector = Collector(fmt, req)
    lst = collector.listing
    skip_limit = _skip_limit(src, fmt, limits)
    decoder = _decoder()
    walked = 0
    with _opened(src) as archive:
        try:
            while (member := archive.next()) is not None:
                if collector.full:
                    lst.truncated = True
                    break
                collector.add(_entry(member, limits, decoder, walked + 1))
                walked += 1
                if walked % 1024 == 0 and not collector.full and collector.late(0.8):
                    collector.out_of_time(walked)
                    break
                if skip_limit is not None and member.offset_data + member.size > skip_limit:
                    lst.truncated = collector.stopped = True
                    lst.warnings.append(
                        f"listing stopped after {_decoded(member.name, decoder)[0]!r}: the next header lies more than "
                        f"{human_bytes(skip_limit)} into the decompressed stream (possible tar bomb)"
                    )
                    break
            else:
                collector.stopped = _check_end(archive, lst)
        except _ERRORS as exc:
            lst.truncated = collector.stopped = True
            lst.warnings.append(f"archive is truncated after entry {lst.total_entries} ({_reason(exc)})")
    return collector.finish(total_compressed=None if fmt == "tar" else src.size)


def _check_end(archive: tarfile.TarFile, lst: Listing) -> bool:
    """tarfile ends quietly at a cut or unreadable header: what follows the last entry must be zeros.
    True when it is not (the listing stopped at damage)."""
    archive.fileobj.seek(archive.offset)
    block = archive.fileobj.read(512)
    if block.strip(b"\x00"):
        lst.truncated = True
        what = "truncated" if len(block) < 512 else "unreadable (bad header)"
        lst.warnings.append(f"archive is {what} after entry {lst.total_entries}: the rest is not listed")
        return True
    return False


def _same(a: str, b: str) -> bool:
    def norm(name: str) -> str:
        while name.startswith("./"):
            name = name[2:]
        return name.rstrip("/")

    return a == b or same_text(norm(a), norm(b))


def read_member(src: Source, name: str, req: Request) -> bytes:
    limits = req.limits
    cap = limits.max_member_bytes
    quoted = shlex.quote(src.name)
    skip_limit = _skip_limit(src, _format(src), limits)
    decoder = _decoder()  # the names the listing showed: the same guess, made the same way
    place = _NO_NAME.fullmatch(name)
    with _opened(src) as archive:
        try:
            number = 0
            while (member := archive.next()) is not None:
                number += 1
                shown = _decoded(member.name, decoder, "path" in member.pax_headers)[0]
                if ((_same(shown, name) or _same(member.name, name)) and member.name) or (
                        place is not None and not member.name and number == int(place.group(1))):
                    break
                if skip_limit is not None and member.offset_data + member.size > skip_limit:
                    raise Refused(
                        f"finding {name} means decompressing more than {human_bytes(skip_limit)}",
                        f"list it with `boundread list-zip {quoted}` and pick an earlier member",
                    )
        except _ERRORS as exc:
            raise Corrupt(f"{src.name} is cut short before {name} ({_reason(exc)})",
                          f"list what is readable with `boundread list-zip {quoted}`") from None
        if member is None:
            raise no_member(src.name, name)
        if member.isdir():
            raise not_a_file(src.name, name)
        if member.issym() or member.islnk():
            raise not_a_file(src.name, name, f"a link to {_decoded(member.linkname, decoder)[0]!r}")
        if not member.isfile():
            raise not_a_file(src.name, name, "not a regular file (a device or FIFO)")
        if member.size > cap:
            raise too_big(src.name, name, cap)
        try:
            stream = archive.extractfile(member)
            if stream is None:
                return b""
            with stream:
                return read_capped(stream, cap, lambda: too_big(src.name, name, cap))
        except _ERRORS as exc:
            raise Corrupt(f"{name} in {src.name} is cut short or damaged ({_reason(exc)})",
                          "pick another member") from None
