"""Executables, databases, old binary Office files and unknown bytes: reported, never dumped."""

from __future__ import annotations

import shlex
import zlib

from boundread.contract import kinds
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Unsupported

KINDS: tuple[str, ...] = ("binary", *kinds.LEGACY)

_SEVENZ = b"7z\xbc\xaf\x27\x1c"

_ADVICE = {
    "doc": "an old Word .doc: save it as .docx (Word or `libreoffice --convert-to docx`)",
    "ppt": "an old PowerPoint .ppt: save it as .pptx (PowerPoint or `libreoffice --convert-to pptx`)",
}


def _zstd(src: Source) -> tuple[str, str] | None:
    """(what, how to unpack it) of a zstd-compressed file: compressed data, not binary (zstandard is no
    dependency, so it is not read through)."""
    if src.sniffed.subtype != "zstd":
        return None
    name = shlex.quote(src.name.rsplit("/", 1)[-1])
    if name.lower().endswith((".tar.zst", ".tzst", ".tar.zstd")):
        return "a zstd-compressed tar archive", f"unpack it with `tar --zstd -xf {name}`, then read the files in it"
    return "zstd-compressed data", f"unpack it with `zstd -d {name}` (a tar inside: `tar --zstd -xf {name}`), " \
                                   "then read what it holds"


def info(src: Source, req: Request) -> Details:
    details = Details(fields={"format": src.sniffed.subtype or src.kind}, est_chars=None)
    packed = _zstd(src)
    advice = f"{packed[0]}: {packed[1]}" if packed else None
    details.warnings.append(advice or _ADVICE.get(src.kind, "binary data: boundread reports it but never dumps it"))
    with src.open() as fh:
        head = fh.read(1 << 20)
    if (at := _embedded_7z(head)) > 0:
        details.fields["embedded_7z_offset"] = at
        details.warnings.append(f"a 7z archive is embedded at byte {at:,} (self-extractor): never run it")
    details.next.append(("info", FILE))
    return details


def _embedded_7z(head: bytes) -> int:
    """Offset of a real 7z signature header (its start-header CRC checks out), or -1."""
    at = head.find(_SEVENZ, 1)
    while at > 0:
        start = head[at + 12: at + 32]
        if len(start) == 20 and zlib.crc32(start) == int.from_bytes(head[at + 8: at + 12], "little"):
            return at
        at = head.find(_SEVENZ, at + 1)
    return -1


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    packed = _zstd(src)
    if packed:
        raise Unsupported(f"{src.name} is {packed[0]}", f"boundread does not decompress zstd: {packed[1]}")
    what = _ADVICE.get(src.kind, f"binary data ({src.sniffed.mime})")
    raise Unsupported(f"{src.name} is {what}", "boundread extracts text only; `boundread info` describes it")
