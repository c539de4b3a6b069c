"""What a file is, from its bytes: magic numbers, zip members, OLE directory names, text encodings.

Standard library only. The guard-check hook runs this on every agent tool call, so it must stay
cheap: it reads the first 8 KiB, and for containers only their directory (zip central directory,
OLE directory sectors, the first tar header), never their content.
"""

from __future__ import annotations

# Hot path (the guard-check hook): no dataclasses, typing, pathlib, contextlib, zipfile, zlib, bz2, lzma at
# module level - together they cost more start-up time than the check itself. Each loads in the
# function that needs it; Sniffed is a plain class with __slots__.
import os
import stat

from boundread.bytelevel.heads import BINARY_MAGIC, IMAGE_MAGIC, compressed, is_bare_biff, is_tar_header
from boundread.bytelevel.ole import MAGIC as OLE_MAGIC
from boundread.bytelevel.sniffed import (
    ARCHIVE_KINDS,
    ARROW,
    BINARY,
    BZ2,
    DOC,
    DOCX,
    GZ,
    IMAGE,
    ODP,
    ODS,
    ODT,
    OFFICE_KINDS,
    PARQUET,
    PDF,
    PPT,
    PPTX,
    RAR,
    SEVENZ,
    SQLITE,
    TAR,
    TEXT,
    XLS,
    XLSX,
    XZ,
    ZIP,
    Sniffed,
    kind_from_name,
    mime_of,
)
from boundread.bytelevel.textenc import guess_encoding

# the names callers have always imported from here (the kinds and Sniffed live in sniffed.py, the head checks in
# heads.py, the container looks in containers.py)
__all__ = ["ARCHIVE_KINDS", "ARROW", "BINARY", "BZ2", "DOC", "DOCX", "GZ", "HEAD_BYTES", "IMAGE", "ODP", "ODS", "ODT",
           "OFFICE_KINDS", "PARQUET", "PDF", "PPT", "PPTX", "RAR", "SEVENZ", "SQLITE", "TAR", "TEXT", "XLS", "XLSX",
           "XZ", "ZIP", "Sniffed", "is_regular_file", "kind_from_name", "mime_of", "sniff_bytes", "sniff_data",
           "sniff_path", "symlink_target"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    Container = str | os.PathLike[str] | IO[bytes]

HEAD_BYTES = 8192


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """True for a regular file (symlinks followed). FIFOs and devices are never "read"."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def sniff_path(path: str | os.PathLike[str]) -> Sniffed:
    """Sniff a regular file. The caller checks ``is_regular_file`` first: this opens it."""
    with open(path, "rb") as fh:
        head = fh.read(HEAD_BYTES)
    return sniff_bytes(head, path)


def sniff_data(data: bytes, name: str = "") -> Sniffed:
    """Sniff bytes held in memory (an archive member): containers are opened from memory."""
    import io

    return sniff_bytes(data[:HEAD_BYTES], io.BytesIO(data), name)


def sniff_bytes(head: bytes, path: Container | None = None, name: str = "") -> Sniffed:
    """Sniff the first bytes of a file; with ``path``, containers are opened to look inside."""
    if not name and isinstance(path, (str, os.PathLike)):
        name = os.fspath(path)
    hint = kind_from_name(name) if name else None
    if not head:
        return Sniffed(TEXT, "inode/x-empty", encoding="", note="empty file")
    if head.startswith(b"%PDF-"):
        return Sniffed(PDF, mime_of(PDF))
    # The byte-0 signatures come before a "%PDF-" found further in: a tar's first member starts at byte 512
    # and a stored zip member at byte 30 + its name, so an archive whose first member is a PDF has one there.
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        from boundread.bytelevel.containers import zip_kind

        return zip_kind(path) if path is not None else Sniffed(ZIP, mime_of(ZIP))
    if head.startswith(b"7z\xbc\xaf\x27\x1c"):
        return Sniffed(SEVENZ, mime_of(SEVENZ))
    if head.startswith(b"Rar!\x1a\x07"):
        return Sniffed(RAR, mime_of(RAR))
    if head.startswith(OLE_MAGIC):
        from boundread.bytelevel.containers import ole_kind

        return ole_kind(path, hint) if path is not None else Sniffed(BINARY, "application/x-ole-storage")
    squeezed = compressed(head)
    if squeezed is not None:
        return squeezed
    if is_tar_header(head):
        return Sniffed(TAR, mime_of(TAR))
    for magic, fmt in IMAGE_MAGIC:
        if head.startswith(magic):
            return Sniffed(IMAGE, f"image/{fmt}", subtype=fmt)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return Sniffed(IMAGE, "image/webp", subtype="webp")
    if head[:2] == b"BM" and len(head) > 14 and head[6:10] == b"\x00\x00\x00\x00":
        return Sniffed(IMAGE, "image/bmp", subtype="bmp")
    if is_bare_biff(head):
        return Sniffed(XLS, mime_of(XLS), subtype="biff2-4", note="Excel 2-4 worksheet (no OLE container)")
    if head.startswith(b"SQLite format 3\x00"):  # whatever its name
        return Sniffed(SQLITE, mime_of(SQLITE))
    # PAR1, or PARE: Parquet Modular Encryption with an encrypted footer (formats/columnar says so, exit 5)
    if head[:4] in (b"PAR1", b"PARE") and (hint == PARQUET or not guess_encoding(head)):  # text may start so too
        return Sniffed(PARQUET, mime_of(PARQUET), subtype="encrypted" if head[3:4] == b"E" else "")
    if head.startswith(b"ARROW1\x00\x00"):  # an Arrow IPC file (Feather v2)
        return Sniffed(ARROW, mime_of(ARROW))
    for magic, sub, mime in BINARY_MAGIC:
        if head.startswith(magic):
            return Sniffed(BINARY, mime, subtype=sub)
    if head[:2] == b"MZ":
        return Sniffed(BINARY, "application/vnd.microsoft.portable-executable", subtype="pe")
    pdf_at = head.find(b"%PDF-", 0, 1024)
    if pdf_at > 0:  # readers accept a header within the first 1,024 bytes (a mail or HTTP prefix left on)
        return Sniffed(PDF, mime_of(PDF), note=f"PDF header at byte {pdf_at}")
    encoding = guess_encoding(head)
    if encoding:
        return Sniffed(TEXT, _text_mime(head, hint), encoding=encoding)
    return Sniffed(BINARY, mime_of(BINARY), subtype="unknown")


def _text_mime(head: bytes, hint: str | None) -> str:
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"[") and hint in (TEXT, None):
        return "application/json"
    if stripped[:5] == b"<?xml":
        return "text/xml"
    return "text/plain"


def symlink_target(path: str | os.PathLike[str]) -> str | None:
    """Where a symlink finally points (resolved), or None for a plain path."""
    if not os.path.islink(path):  # noqa: PTH114 - as Path.is_symlink(), without pathlib (every info asks)
        return None
    from pathlib import Path

    p = Path(path)
    if not p.is_symlink():
        return None
    try:
        return str(p.resolve(strict=False))
    except (OSError, RuntimeError):
        return os.readlink(p)
