"""One compressed file (notes.txt.gz, dump.sql.bz2, log.xz) that is not a tar.

Its only "member" is the decompressed content. It is always read through a decompression cap
(``max_member_bytes``), in chunks, so a bomb costs at most the cap in time and a chunk in memory
when streamed into the sink.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import os
import shlex
import zlib
from pathlib import PurePosixPath
from typing import IO

from boundread.bytelevel import charset
from boundread.bytelevel.textenc import guess_encoding
from boundread.contract.model import FILE, Details, Listing, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Refused
from boundread.formats._rg import records
from boundread.formats._rg import stream as rgstream
from boundread.formats.archives.common import (
    CHUNK,
    Collector,
    iso_from_epoch,
    make_entry,
    read_capped,
    too_big,
)
from boundread.units import human_bytes

_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError)
_MAGIC = ((b"\x1f\x8b", "gz"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"))


def _format(src: Source) -> str:
    with src.open() as fh:
        head = fh.read(6)
    return next((fmt for magic, fmt in _MAGIC if head.startswith(magic)), src.kind)


def _decompressed(fh: IO[bytes], fmt: str) -> io.BufferedIOBase:
    if fmt == "gz":
        return gzip.GzipFile(fileobj=fh, mode="rb")
    if fmt == "bz2":
        return bz2.BZ2File(fh, "rb")
    return lzma.LZMAFile(fh, "rb")


def _gzip_header(src: Source) -> tuple[str | None, int | None, int | None]:
    """(FNAME, MTIME, ISIZE) of a gzip file: the name and time from the header, the size
    (mod 2**32, of the last member only) from the trailer."""
    with src.open() as fh:
        head = fh.read(10 + 2 + 65536 + 1024)
        isize = None
        if src.size >= 18:
            fh.seek(-4, os.SEEK_END)
            isize = int.from_bytes(fh.read(4), "little")
    if len(head) < 10:
        return None, None, isize
    flags, mtime, pos = head[3], int.from_bytes(head[4:8], "little"), 10
    if flags & 0x04 and len(head) >= 12:  # FEXTRA
        pos += 2 + int.from_bytes(head[10:12], "little")
    name = None
    if flags & 0x08:  # FNAME, NUL-terminated latin-1
        end = head.find(b"\x00", pos, pos + 1024)
        if end > pos:
            name = PurePosixPath(head[pos:end].decode("latin-1").replace("\\", "/")).name or None
    return name, mtime or None, isize


def _inner_name(src: Source, fmt: str) -> tuple[str, int | None, int | None]:
    stored, mtime, isize = _gzip_header(src) if fmt == "gz" else (None, None, None)
    base = PurePosixPath(src.name.replace("\\", "/"))
    stem, ext = base.stem, base.suffix
    guessed = stem if ext.lower() in (f".{fmt}", ".gzip", ".bzip2") and stem else "-"
    return stored or guessed, mtime, isize


def listing(src: Source, req: Request) -> Listing:
    fmt = _format(src)
    name, mtime, isize = _inner_name(src, fmt)
    collector = Collector(fmt, req)
    modified = iso_from_epoch(mtime) if mtime else None
    collector.add(make_entry(name, isize, src.size, modified, req.limits))
    return collector.finish(total_compressed=src.size)


def info(src: Source, req: Request) -> Details:
    fmt = _format(src)
    name, _mtime, isize = _inner_name(src, fmt)
    _probe(src, fmt)
    fields: dict[str, object] = {"format": fmt, "inner_name": name, "compressed": src.size}
    warnings: list[str] = []
    if isize is not None:
        fields["size"] = isize
        fields["size_approximate"] = True
        warnings.append("size is from the gzip trailer: approximate (modulo 4 GiB, last member only)")
        if src.size and isize / src.size > req.limits.max_ratio:
            warnings.append(f"it expands {isize / src.size:,.0f}x: possible decompression bomb")
    return Details(fields=dict(fields), est_chars=None, warnings=warnings,
                   next=[("extract", FILE), ("extract", FILE, "--member", name)])


def read_member(src: Source, name: str, req: Request) -> bytes:
    """The decompressed content, whatever member name was asked for, at most ``max_member_bytes``."""
    fmt = _format(src)
    cap = req.limits.max_member_bytes
    inner, _mtime, isize = _inner_name(src, fmt)

    def refuse() -> Refused:
        return too_big(src.name, inner, cap, cap / max(src.size, 1), req.limits)

    # A real trailer size (mod 2**32) is a lower bound: over the cap, refuse before inflating the cap into
    # memory. Deflate expands at most ~1032x, so a bigger claim is garbage (a cut file): let inflating tell.
    if isize is not None and cap < isize <= src.size * 1032:
        raise refuse()
    with src.open() as fh:
        try:
            with _decompressed(fh, fmt) as stream:
                return read_capped(stream, cap, refuse)
        except _ERRORS as exc:
            raise _damaged(src, fmt, exc) from None


_PROBE = 64 * 1024  # decompressed bytes info reads: enough to catch a file damaged from the start, and constant


def _probe(src: Source, fmt: str) -> None:
    """Inflate the first bytes, so that ``info`` gives the verdict ``extract`` will (a damaged start is
    common: a cut download, a text file renamed .gz). Damage further in is found only by reading that far."""
    with src.open() as fh:
        try:
            with _decompressed(fh, fmt) as stream:
                stream.read(_PROBE)
        except _ERRORS as exc:
            raise _damaged(src, fmt, exc) from None


def _damaged(src: Source, fmt: str, exc: BaseException) -> Corrupt:
    reason = (str(exc).strip() or type(exc).__name__)[:120]
    tool = {"gz": "gzip", "bz2": "bzip2", "xz": "xz"}.get(fmt, fmt)
    return Corrupt(f"{src.name} is damaged {fmt} data ({reason})",
                   f"`{tool} -t {shlex.quote(src.name)}` confirms it; only a good copy can be read")


class _LineEnds:
    """CRLF and a lone CR as LF, across chunk edges, as the text handler's universal newlines read them."""

    def __init__(self) -> None:
        self.after_cr = False

    def translate(self, text: str) -> str:
        if self.after_cr and text.startswith("\n"):
            text = text[1:]
        if not text:
            return text
        self.after_cr = text.endswith("\r")
        return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def extract(src: Source, req: Request, sink: Sink, *, by_rg: bool = True) -> Outcome:
    """The decompressed text, streamed into the sink and capped; binary content is only named. A grep runs rg
    over the stream (``by_rg``) where it can take the pattern and the encoding."""
    fmt = _format(src)
    cap = req.limits.max_member_bytes
    inner, _mtime, _isize = _inner_name(src, fmt)
    outcome = Outcome(unit="lines")
    with src.open() as fh, _decompressed(fh, fmt) as stream:
        try:
            chunk = stream.read(min(CHUNK, cap))
        except _ERRORS as exc:
            raise _damaged(src, fmt, exc) from None
        encoding = guess_encoding(chunk[:8192])
        if not encoding and not req.encoding:  # a named encoding says it is text (BOM-less UTF-16, say)
            outcome.warnings.append(f"{inner} is binary data once decompressed: there is no text to show")
            outcome.done = "nothing (binary content)"
            return outcome
        choice = charset.decide(chunk[:charset.SAMPLE_BYTES], encoding or "", req.encoding,
                                complete=len(chunk) < min(CHUNK, cap))
        encoding = choice.encoding
        outcome.warnings.extend(choice.warnings())
        dec = records.codec(encoding)
        more = lambda n: stream.read(min(n, CHUNK))  # noqa: E731 - the loop's read size: a damaged stream's
        # last read fails whole, so the text before the damage is the loop's
        streamed = rgstream.grep(chunk, more, sink, encoding, dec, cap) if dec is not None and by_rg else None
        if streamed is not None and not streamed.refused:  # rg searched the stream: the bounds and cap as below
            return _streamed(src, sink, streamed, encoding, cap, outcome)
        if streamed is None:
            produced = _written(src, stream, chunk, encoding, sink, cap, outcome)
    if streamed is not None:  # rg refused the pattern once the stream was read: from its start, by the loop
        return extract(src, req, sink, by_rg=False)
    outcome.totals = {"decompressed_bytes_read": produced, "encoding": encoding}
    return outcome


def _written(src: Source, stream: io.BufferedIOBase, chunk: bytes, encoding: str, sink: Sink, cap: int,
             outcome: Outcome) -> int:
    """Decode the stream that starts with ``chunk`` into the sink, universal newlines, up to ``cap`` bytes; how many
    decompressed bytes it read."""
    produced = 0
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    ends = _LineEnds()
    while chunk:
        produced += len(chunk)
        if not sink.write(ends.translate(decoder.decode(chunk))):
            break
        if produced >= cap:
            outcome.truncated.append(f"decompression cap {human_bytes(cap)} reached")
            break
        try:
            chunk = stream.read(min(CHUNK, cap - produced))
        except _ERRORS as exc:
            reason = (str(exc).strip() or type(exc).__name__)[:120]
            outcome.warnings.append(f"{src.name} is damaged after {produced:,} decompressed bytes "
                                    f"({reason}): the text stops there")
            break
    else:
        sink.write(ends.translate(decoder.decode(b"", final=True)))
    return produced


def _streamed(src: Source, sink: Sink, streamed: rgstream.Streamed, encoding: str, cap: int,
              outcome: Outcome) -> Outcome:
    """What a grep by rg read, said as the loop in ``extract`` says it: the pump reads ahead of the sink, so the
    cap or the damage it met counts only when the sink took all the text before it (the loop stops reading at a
    full sink)."""
    if streamed.error is not None and not isinstance(streamed.error, _ERRORS):
        raise streamed.error
    if sink.full:
        pass
    elif streamed.error is not None:
        reason = (str(streamed.error).strip() or type(streamed.error).__name__)[:120]
        outcome.warnings.append(f"{src.name} is damaged after {streamed.produced:,} decompressed bytes "
                                f"({reason}): the text stops there")
    elif streamed.capped:
        outcome.truncated.append(f"decompression cap {human_bytes(cap)} reached")
    outcome.totals = {"decompressed_bytes_read": streamed.produced, "encoding": encoding}
    return outcome
