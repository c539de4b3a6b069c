"""Detection for the extractors: libmagic first where it is specific, our own sniffer otherwise.

libmagic is precise for single-format files (PDF, images, 7z, executables) but vague for
containers: it calls an xlsx "application/zip" and a password-protected workbook "CDFV2". Those
cases, and a machine without libmagic, go to :mod:`boundread.bytelevel.sniff`, which looks inside.
"""

from __future__ import annotations

import os

from boundread.bytelevel import sniff
from boundread.bytelevel.sniff import Sniffed

TYPE_CHECKING = False  # no typing, no pathlib: detection runs on every read's start-up
if TYPE_CHECKING:
    Named = str | os.PathLike[str]  # a path: a string (the engine's) or a Path

# Mime types libmagic is trusted on, and the kind each means.
_SPECIFIC: dict[str, str] = {
    "application/pdf": sniff.PDF,
    "application/x-7z-compressed": sniff.SEVENZ,
    "application/x-tar": sniff.TAR,
    "application/vnd.rar": sniff.RAR,
    "application/x-rar": sniff.RAR,
    "application/x-executable": sniff.BINARY,
    "application/x-sharedlib": sniff.BINARY,
    "application/x-pie-executable": sniff.BINARY,
    "application/x-mach-binary": sniff.BINARY,
    "application/x-dosexec": sniff.BINARY,
    "application/vnd.microsoft.portable-executable": sniff.BINARY,
    "application/vnd.sqlite3": sniff.BINARY,
    "application/x-sqlite3": sniff.BINARY,
}


def libmagic_mime(path: Named) -> str | None:
    """libmagic's mime type for a file from its binary checks (text reads as application/octet-stream: only
    ``_SPECIFIC`` answers change a kind), or None when libmagic is missing. See bytelevel/libmagic.py."""
    from boundread.bytelevel.libmagic import mime_type

    return mime_type(path)


def decisive(sniffed: Sniffed) -> bool:
    """Our sniff named the format from its own magic number (PDF, Office, archives, images, known binaries), or
    the bytes are text (they decode, or the file is empty): libmagic is not asked. On a named format it could not
    change the answer; on text, its text checks off, it could only mis-name the file from its first words (a note
    that starts "SQLite format 3" was a database to it) - and loading it (ctypes, its database) was ~5 ms of a
    small text file's info. Bytes our sniff could not name (binary, unknown) are still its to name."""
    return not (sniffed.kind == sniff.BINARY and sniffed.subtype in ("", "unknown"))


def suffix(path: Named) -> str:
    """The name's suffix in lower case, as ``Path(path).suffix.lower()`` has it (``.gz`` of ``a.tar.gz``; none for
    ``.bashrc`` or ``notes.``) without pathlib."""
    name = os.path.basename(os.fspath(path).rstrip("/"))  # noqa: PTH119 - not pathlib: start-up
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


#: Text named so is delimited text, read as a one-sheet workbook (``sheets``, ``--rows``) and still as text.
_TABLES: dict[str, tuple[str, str]] = {".csv": ("csv", "text/csv"), ".tsv": ("tsv", "text/tab-separated-values"),
                                       ".tab": ("tsv", "text/tab-separated-values")}


def table(path: Named, sniffed: Sniffed) -> Sniffed | None:
    """A text file named ``.csv``, ``.tsv`` or ``.tab`` (not an empty one: it has no rows to read) as the
    ``csv`` or ``tsv`` kind; None for anything else. The bytes said text already, the name says which text."""
    found = _TABLES.get(suffix(path))
    if found is None or sniffed.kind != sniff.TEXT or sniffed.subtype or not sniffed.encoding:
        return None
    kind, mime = found
    return Sniffed(kind, mime, encoding=sniffed.encoding, note=sniffed.note)


#: Text named so is JSON or JSON Lines, read by its structure (formats/structured).
_STRUCTURED: dict[str, tuple[str, str]] = {".json": ("json", "application/json"),
                                           ".geojson": ("json", "application/geo+json"),
                                           ".jsonl": ("jsonl", "application/jsonl"),
                                           ".ndjson": ("jsonl", "application/x-ndjson"),
                                           ".ipynb": ("ipynb", "application/x-ipynb+json")}

_UTF8 = ("utf-8", "utf-8-sig", "ascii")


def structured(path: Named, sniffed: Sniffed) -> Sniffed | None:
    """A non-empty UTF-8 text file named ``.json``/``.geojson`` (kind ``json``) or ``.jsonl``/``.ndjson``
    (``jsonl``), or ``.ipynb`` (a Jupyter notebook: ``ipynb``); JSON in another encoding (UTF-16) stays text,
    read as lines."""
    found = _STRUCTURED.get(suffix(path))
    if found is None or sniffed.kind != sniff.TEXT or sniffed.subtype or sniffed.encoding not in _UTF8:
        return None
    kind, mime = found
    return Sniffed(kind, mime, encoding=sniffed.encoding, note=sniffed.note)


_WEBPAGE = {".html": "text/html", ".htm": "text/html", ".xhtml": "application/xhtml+xml"}


def web(path: Named, sniffed: Sniffed) -> Sniffed | None:
    """A text file named ``.eml`` (an email: kind ``eml``), a zip named ``.epub`` (kind ``epub``), an OLE file
    named ``.msg`` (Outlook: kind ``msg``), a text file named ``.html``/``.htm``/``.xhtml`` (a saved web page:
    kind ``html``, its encoding kept); the handlers check the inside (headers; container.xml...)."""
    ending = suffix(path)
    if ending in _WEBPAGE and sniffed.kind == sniff.TEXT:
        return Sniffed("html", _WEBPAGE[ending], encoding=sniffed.encoding, note=sniffed.note)
    if ending == ".eml" and sniffed.kind == sniff.TEXT:
        return Sniffed("eml", "message/rfc822", encoding=sniffed.encoding, note=sniffed.note)
    if ending == ".epub" and sniffed.kind == sniff.ZIP:
        return Sniffed("epub", "application/epub+zip", note=sniffed.note)
    if ending == ".msg" and sniffed.kind == sniff.BINARY and sniffed.subtype == "ole":
        return Sniffed("msg", "application/vnd.ms-outlook", note=sniffed.note)
    return None


def by_name(path: Named, sniffed: Sniffed) -> Sniffed | None:
    """The kind a file's name makes of what its bytes were sniffed as (text as csv/tsv, JSON, a notebook, a web
    page or an email; a zip as a book; OLE as an Outlook message), or None when the name adds nothing."""
    for refine in (table, structured, web):
        if (found := refine(path, sniffed)) is not None:
            return found
    return None


def member(name: str, sniffed: Sniffed) -> Sniffed:
    """An archive member's kind, as its name refines the sniff of its bytes for a file on disk; libmagic is not
    asked (no path to give)."""
    return by_name(name, sniffed) or sniffed


def detect(path: Named, sniffed: Sniffed) -> Sniffed:
    """Refine our sniff with libmagic where libmagic is specific and agrees it is not a container."""
    if (named := by_name(path, sniffed)) is not None:  # named and text: libmagic would say text/csv at best
        return named
    if decisive(sniffed):
        return sniffed
    mime = libmagic_mime(path)
    if not mime:
        return sniffed
    kind = _SPECIFIC.get(mime)
    if mime.startswith("image/") and sniffed.kind == sniff.IMAGE:
        return Sniffed(sniff.IMAGE, mime, subtype=sniffed.subtype, note=sniffed.note)
    if kind is None or kind == sniffed.kind:
        # vague (zip, OLE, text, octet-stream) or in agreement: our sniff saw more; keep its kind
        specific_mime = mime if kind == sniffed.kind else sniffed.mime
        return Sniffed(sniffed.kind, specific_mime, sniffed.subtype, sniffed.encoding, sniffed.encrypted,
                       sniffed.note)
    if sniffed.kind in (sniff.TEXT, sniff.BINARY) and sniffed.subtype in ("", "unknown"):
        return Sniffed(kind, mime, note=f"identified by libmagic as {mime}")
    return sniffed
