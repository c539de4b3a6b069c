"""What a container holds, for the kinds that share one: OOXML, ODF and plain zips by their member names (the
central directory read lazily, never unpacked), old Office and encrypted OOXML by their OLE stream names.

Standard library only; imported by :mod:`~boundread.bytelevel.sniff` only for a file that starts as a zip or an
OLE file does.
"""

from __future__ import annotations

import os

from boundread.bytelevel.sniffed import BINARY, DOC, DOCX, ODP, ODS, ODT, PPT, PPTX, XLS, XLSX, ZIP, Sniffed, mime_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    Container = str | os.PathLike[str] | IO[bytes]

_ODF_MIMETYPES = {
    b"application/vnd.oasis.opendocument.text": ODT,
    b"application/vnd.oasis.opendocument.spreadsheet": ODS,
    b"application/vnd.oasis.opendocument.presentation": ODP,
}


#: Central directory records read to classify a zip: OOXML and ODF parts come first in practice.
ZIP_NAMES = 5000


def zip_kind(path: Container) -> Sniffed:
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


def ole_kind(path: Container, hint: str | None) -> Sniffed:
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
