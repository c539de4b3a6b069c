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

from boundread.bytelevel.ole import MAGIC as OLE_MAGIC
from boundread.bytelevel.textenc import guess_encoding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    Container = str | os.PathLike[str] | IO[bytes]

HEAD_BYTES = 8192

PDF, DOCX, XLSX, XLS, ODS, PPTX, ODT, ODP, DOC, PPT = (
    "pdf", "docx", "xlsx", "xls", "ods", "pptx", "odt", "odp", "doc", "ppt",
)
ZIP, SEVENZ, TAR, GZ, BZ2, XZ, RAR = "zip", "7z", "tar", "gz", "bz2", "xz", "rar"
IMAGE, TEXT, BINARY = "image", "text", "binary"
SQLITE = "sqlite"
PARQUET = "parquet"
ARROW = "arrow"

OFFICE_KINDS = frozenset({DOCX, XLSX, XLS, ODS, PPTX, ODT, ODP, DOC, PPT})
ARCHIVE_KINDS = frozenset({ZIP, SEVENZ, TAR, GZ, BZ2, XZ, RAR})

_EXTENSIONS: dict[str, str] = {
    ".pdf": PDF, ".docx": DOCX, ".docm": DOCX, ".dotx": DOCX, ".xlsx": XLSX, ".xlsm": XLSX,
    ".xltx": XLSX, ".xls": XLS, ".ods": ODS, ".pptx": PPTX, ".pptm": PPTX, ".ppsx": PPTX,
    ".xlsb": XLSX, ".odt": ODT, ".odp": ODP, ".doc": DOC, ".ppt": PPT, ".zip": ZIP, ".jar": ZIP, ".7z": SEVENZ,
    ".tar": TAR, ".tgz": TAR, ".tbz2": TAR, ".txz": TAR, ".gz": GZ, ".bz2": BZ2, ".xz": XZ,
    ".rar": RAR, ".png": IMAGE, ".jpg": IMAGE, ".jpeg": IMAGE, ".gif": IMAGE, ".webp": IMAGE,
    ".tif": IMAGE, ".tiff": IMAGE, ".bmp": IMAGE, ".txt": TEXT, ".csv": TEXT, ".tsv": TEXT,
    ".log": TEXT, ".json": TEXT, ".jsonl": TEXT, ".md": TEXT, ".xml": TEXT, ".html": TEXT,
    ".exe": BINARY, ".dll": BINARY, ".so": BINARY, ".db": SQLITE, ".sqlite": SQLITE, ".sqlite3": SQLITE,
    ".db3": SQLITE, ".parquet": PARQUET, ".arrow": ARROW,
    ".feather": ARROW,
}

_MIMES: dict[str, str] = {
    PDF: "application/pdf",
    DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    XLS: "application/vnd.ms-excel", DOC: "application/msword", PPT: "application/vnd.ms-powerpoint",
    ODS: "application/vnd.oasis.opendocument.spreadsheet",
    ODT: "application/vnd.oasis.opendocument.text",
    ODP: "application/vnd.oasis.opendocument.presentation",
    ZIP: "application/zip", SEVENZ: "application/x-7z-compressed", TAR: "application/x-tar",
    GZ: "application/gzip", BZ2: "application/x-bzip2", XZ: "application/x-xz",
    RAR: "application/vnd.rar", TEXT: "text/plain", BINARY: "application/octet-stream",
    SQLITE: "application/vnd.sqlite3", PARQUET: "application/vnd.apache.parquet",
    ARROW: "application/vnd.apache.arrow.file",
}

_IMAGE_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpeg"), (b"GIF87a", "gif"), (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"), (b"MM\x00*", "tiff"),
)

_BINARY_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x7fELF", "elf", "application/x-executable"),
    (b"\xcf\xfa\xed\xfe", "mach-o", "application/x-mach-binary"),
    (b"\xce\xfa\xed\xfe", "mach-o", "application/x-mach-binary"),
    (b"\xfe\xed\xfa\xcf", "mach-o", "application/x-mach-binary"),
    (b"\xca\xfe\xba\xbe", "mach-o/java", "application/x-mach-binary"),
    (b"\x28\xb5\x2f\xfd", "zstd", "application/zstd"),
    (b"\x00asm", "wasm", "application/wasm"),
)

_ODF_MIMETYPES = {
    b"application/vnd.oasis.opendocument.text": ODT,
    b"application/vnd.oasis.opendocument.spreadsheet": ODS,
    b"application/vnd.oasis.opendocument.presentation": ODP,
}



class Sniffed:
    """What the bytes say a file is (frozen; compares and hashes by value, like a frozen dataclass).

    ``kind`` is one of the constants above; ``subtype`` refines it (image format, a tar's
    compression, "xlsm", "elf"); ``encoding`` is set for text; ``encrypted`` when the container
    itself says so (OLE ``EncryptedPackage``); ``note`` is a short human remark.
    """

    __slots__ = ("kind", "mime", "subtype", "encoding", "encrypted", "note")  # noqa: RUF023 - field order = argument order
    kind: str
    mime: str
    subtype: str
    encoding: str
    encrypted: bool
    note: str

    def __init__(self, kind: str, mime: str, subtype: str = "", encoding: str = "", encrypted: bool = False,
                 note: str = "") -> None:
        for name, value in zip(self.__slots__, (kind, mime, subtype, encoding, encrypted, note), strict=True):
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[str, str, str, str, bool, str]:
        return self.kind, self.mime, self.subtype, self.encoding, self.encrypted, self.note

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, Sniffed) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.__slots__, self._key(), strict=True))
        return f"Sniffed({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Sniffed is frozen: cannot assign {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Sniffed is frozen: cannot delete {name!r}")


def kind_from_name(name: str) -> str | None:
    """The kind a file name suggests: a hint only, never the verdict."""
    lower = name.lower()
    if lower.endswith((".tar.gz", ".tar.bz2", ".tar.xz")):
        return TAR
    return _EXTENSIONS.get(os.path.splitext(lower)[1])


def mime_of(kind: str) -> str:
    return _MIMES.get(kind, "application/octet-stream")


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
        return _sniff_zip(path) if path is not None else Sniffed(ZIP, mime_of(ZIP))
    if head.startswith(b"7z\xbc\xaf\x27\x1c"):
        return Sniffed(SEVENZ, mime_of(SEVENZ))
    if head.startswith(b"Rar!\x1a\x07"):
        return Sniffed(RAR, mime_of(RAR))
    if head.startswith(OLE_MAGIC):
        return _sniff_ole(path, hint) if path is not None else Sniffed(BINARY, "application/x-ole-storage")
    compressed = _sniff_compressed(head)
    if compressed is not None:
        return compressed
    if _is_tar_header(head):
        return Sniffed(TAR, mime_of(TAR))
    for magic, fmt in _IMAGE_MAGIC:
        if head.startswith(magic):
            return Sniffed(IMAGE, f"image/{fmt}", subtype=fmt)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return Sniffed(IMAGE, "image/webp", subtype="webp")
    if head[:2] == b"BM" and len(head) > 14 and head[6:10] == b"\x00\x00\x00\x00":
        return Sniffed(IMAGE, "image/bmp", subtype="bmp")
    if _is_bare_biff(head):
        return Sniffed(XLS, mime_of(XLS), subtype="biff2-4", note="Excel 2-4 worksheet (no OLE container)")
    if head.startswith(b"SQLite format 3\x00"):  # whatever its name
        return Sniffed(SQLITE, mime_of(SQLITE))
    if head.startswith(b"PAR1") and (hint == PARQUET or not guess_encoding(head)):  # text may start "PAR1" too
        return Sniffed(PARQUET, mime_of(PARQUET))
    if head.startswith(b"ARROW1\x00\x00"):  # an Arrow IPC file (Feather v2)
        return Sniffed(ARROW, mime_of(ARROW))
    for magic, sub, mime in _BINARY_MAGIC:
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


#: Central directory records read to classify a zip: OOXML and ODF parts come first in practice.
ZIP_NAMES = 5000


def _sniff_zip(path: Container) -> Sniffed:
    """Classify a zip container by its first member names (OOXML parts, ODF mimetype).

    Reads the central directory lazily (boundread.bytelevel.zipdir), at most ``ZIP_NAMES`` records, and the
    ``mimetype`` member from its local header: never the whole directory, never zipfile.
    """
    from boundread.bytelevel import zipdir

    names: set[str] = set()
    odf = manifest = None
    try:
        with _Opened(path) as fh:
            for rec in zipdir.records(fh):
                names.add(rec.name)
                if rec.name == "mimetype" and rec.size < 200 and rec.method in (0, 8) and not rec.flags & 0x61:
                    odf = _ODF_MIMETYPES.get(zipdir.read_data(fh, rec)[:200].strip())
                elif rec.name == "META-INF/manifest.xml":
                    manifest = rec
                if (odf and manifest) or len(names) >= ZIP_NAMES:
                    break
            if odf:
                return _odf(fh, odf, manifest)
    except (zipdir.BadZip, OSError, EOFError):
        return Sniffed(ZIP, mime_of(ZIP), note="zip signature, unreadable central directory")
    if "[Content_Types].xml" in names:
        tops = {name.split("/", 1)[0] for name in names}
        macro = any(name.endswith("vbaProject.bin") for name in names)
        if "xl/workbook.bin" in names:  # Excel's binary workbook: the OOXML package, BIFF12 parts
            return Sniffed(XLSX, "application/vnd.ms-excel.sheet.binary.macroEnabled.12", subtype="xlsb")
        for top, kind, plain, with_macros in (
            ("word", DOCX, "docx", "docm"), ("xl", XLSX, "xlsx", "xlsm"), ("ppt", PPTX, "pptx", "pptm"),
        ):
            if top in tops:
                return Sniffed(kind, mime_of(kind), subtype=with_macros if macro else plain)
    return Sniffed(ZIP, mime_of(ZIP))


#: Manifests bigger than this are not read by the sniff (a real one lists each part in a line: a few KB).
MANIFEST_BYTES = 1 << 20


def _odf(fh: IO[bytes], kind: str, manifest: object) -> Sniffed:
    """An ODF document; encrypted when its manifest gives a part ``encryption-data`` (ODF's password
    protection, which encrypts every part but the mimetype and the manifest)."""
    from boundread.bytelevel import zipdir

    rec = manifest if isinstance(manifest, zipdir.Record) else None
    readable = rec is not None and rec.size <= MANIFEST_BYTES and rec.method in (0, 8) and not rec.flags & 0x61
    if readable and rec is not None and b"encryption-data" in zipdir.read_data(fh, rec):
        return Sniffed(kind, mime_of(kind), subtype="encrypted-odf", encrypted=True,
                           note="password-protected ODF document (manifest encryption-data)")
    return Sniffed(kind, mime_of(kind))


class _Opened:  # a tiny context manager: contextlib costs start-up time on the hot path
    """A path opened for reading, or a stream used as is (left open, as zipfile leaves it)."""

    def __init__(self, path: Container) -> None:
        self.path = path
        self.fh: IO[bytes] | None = None

    def __enter__(self) -> IO[bytes]:
        if isinstance(self.path, (str, os.PathLike)):
            self.fh = open(self.path, "rb")
            return self.fh
        return self.path

    def __exit__(self, *exc: object) -> None:
        if self.fh is not None:
            self.fh.close()


def _sniff_compressed(head: bytes) -> Sniffed | None:
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
    if _is_tar_header(inner):
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


def _is_tar_header(block: bytes) -> bool:
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


def _is_bare_biff(head: bytes) -> bool:
    """An Excel 2/3/4 BOF record at byte 0 (these files have no OLE container)."""
    return len(head) >= 8 and head[:2] in (b"\x09\x00", b"\x09\x02", b"\x09\x04") and head[2:4] in (
        b"\x04\x00", b"\x06\x00", b"\x08\x00",
    )


def _sniff_ole(path: Container, hint: str | None) -> Sniffed:
    """Old Office files and encrypted OOXML share the OLE (CFB) container: read its stream names."""
    from boundread.bytelevel.ole import stream_names

    names = stream_names(path)
    if "EncryptedPackage" in names:
        kind = hint if hint in (DOCX, XLSX, PPTX) else DOCX
        return Sniffed(kind, mime_of(kind), subtype="encrypted-ooxml", encrypted=True,
                       note="password-protected Office file (OLE EncryptedPackage)")
    if names & {"Workbook", "Book"}:
        return Sniffed(XLS, mime_of(XLS), subtype="biff8" if "Workbook" in names else "biff5")
    if "WordDocument" in names:
        return Sniffed(DOC, mime_of(DOC))
    if "PowerPoint Document" in names:
        return Sniffed(PPT, mime_of(PPT))
    return Sniffed(BINARY, "application/x-ole-storage", subtype="ole")


def symlink_target(path: str | os.PathLike[str]) -> str | None:
    """Where a symlink finally points (resolved), or None for a plain path."""
    from pathlib import Path

    p = Path(path)
    if not p.is_symlink():
        return None
    try:
        return str(p.resolve(strict=False))
    except (OSError, RuntimeError):
        return os.readlink(p)
