"""What the first bytes say, for the formats told by their head alone: image and executable magic numbers, a
tar header, an Excel 2-4 worksheet, and a gzip/bzip2/xz stream (whose first KiB, inflated, may be a tar).

Standard library only; zlib, bz2 and lzma load in the function that needs them (the guard-check hot path).
"""

from __future__ import annotations

from boundread.bytelevel.sniffed import BZ2, GZ, TAR, XZ, Sniffed, mime_of

IMAGE_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpeg"), (b"GIF87a", "gif"), (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"), (b"MM\x00*", "tiff"),
)

BINARY_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x7fELF", "elf", "application/x-executable"),
    (b"\xcf\xfa\xed\xfe", "mach-o", "application/x-mach-binary"),
    (b"\xce\xfa\xed\xfe", "mach-o", "application/x-mach-binary"),
    (b"\xfe\xed\xfa\xcf", "mach-o", "application/x-mach-binary"),
    (b"\xca\xfe\xba\xbe", "mach-o/java", "application/x-mach-binary"),
    (b"\x28\xb5\x2f\xfd", "zstd", "application/zstd"),
    (b"\x00asm", "wasm", "application/wasm"),
)


def compressed(head: bytes) -> Sniffed | None:
    """gzip, bzip2 and xz: a tar inside is a tar, anything else is the compressed file."""
    if head.startswith(b"\x1f\x8b"):
        kind, sub, inflate = GZ, "gz", _gunzip_head
    elif head.startswith(b"BZh"):
        kind, sub, inflate = BZ2, "bz2", _bunzip_head
    elif head.startswith(b"\xfd7zXZ\x00"):
        kind, sub, inflate = XZ, "xz", _unxz_head
    else:
        return None
    inner = inflate(head)
    if is_tar_header(inner):
        return Sniffed(TAR, mime_of(TAR), subtype=sub, note=f"tar compressed with {sub}")
    return Sniffed(kind, mime_of(kind), subtype=sub)


def _gunzip_head(head: bytes) -> bytes:
    import zlib

    try:
        return zlib.decompressobj(wbits=31).decompress(head, 1024)
    except zlib.error:
        return b""


def _bunzip_head(head: bytes) -> bytes:
    import bz2

    try:
        return bz2.BZ2Decompressor().decompress(head, 1024)
    except (OSError, EOFError, ValueError):
        return b""


def _unxz_head(head: bytes) -> bytes:
    import lzma

    try:
        return lzma.LZMADecompressor().decompress(head, 1024)
    except (lzma.LZMAError, EOFError):
        return b""


def is_tar_header(block: bytes) -> bool:
    """A POSIX/GNU tar header: "ustar" magic, or a v7 header whose checksum adds up."""
    if len(block) < 512:
        return False
    if block[257:262] == b"ustar":
        return True
    digits = block[148:156].replace(b"\x00", b" ").strip()
    if not digits or not all(48 <= ch <= 55 for ch in digits):
        return False
    expected = int(digits, 8)
    actual = sum(block[:148]) + 8 * 32 + sum(block[156:512])
    return expected == actual and block[0] != 0


def is_bare_biff(head: bytes) -> bool:
    """An Excel 2/3/4 BOF record at byte 0 (these files have no OLE container)."""
    return len(head) >= 8 and head[:2] in (b"\x09\x00", b"\x09\x02", b"\x09\x04") and head[2:4] in (
        b"\x04\x00", b"\x06\x00", b"\x08\x00",
    )
