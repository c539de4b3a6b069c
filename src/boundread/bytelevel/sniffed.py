"""The kinds of file the sniff names, and :class:`Sniffed`, what it says of one: the kind constants, the kind a
file name suggests, the MIME type of a kind.

Standard library only, nothing loaded at import beyond ``os``: the guard-check hook imports it on every agent tool
call (through :mod:`~boundread.bytelevel.sniff`).
"""

from __future__ import annotations

import os

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
