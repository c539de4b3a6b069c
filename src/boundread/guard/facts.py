"""Cheap facts about a file for the guard's reason: pages, sheets, entries, lines.

Standard library only, and bounded: the head and tail of a PDF, a zip's central directory, one
workbook XML part (capped), a 64 KiB sample of text. Every function returns None (or an empty
value) rather than raising when the file does not cooperate.
"""

from __future__ import annotations

import os
import re
import zipfile
import zlib
from typing import Any

from boundread import sniff

WINDOW = 256 * 1024
SAMPLE = 64 * 1024
_PAGES = re.compile(rb"/Type\s*/Pages\b")
_COUNT = re.compile(rb"/Count\s+(\d{1,7})\b")
_ZIP_ERRORS = (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError, zlib.error,
               KeyError, EOFError)


def pdf_pages(path: str | os.PathLike[str], size: int) -> int | None:
    """The /Count of the root /Pages node, found in the head or tail of the file (None if unseen)."""
    try:
        with open(path, "rb") as fh:
            chunks = [fh.read(WINDOW)]
            if size > WINDOW:
                fh.seek(max(WINDOW, size - WINDOW))
                chunks.append(fh.read(WINDOW))
    except OSError:
        return None
    best: int | None = None
    for chunk in chunks:
        for match in _PAGES.finditer(chunk):
            at = match.start()
            start = chunk.rfind(b"<<", max(0, at - 65536), at)
            end = chunk.find(b">>", match.end())
            window = chunk[max(0, min(start if start >= 0 else at, at - 400)): end if end > 0 else at + 400]
            for count in _COUNT.findall(window):
                best = max(best or 0, int(count))
    return best


def zip_summary(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """(entries, total uncompressed bytes) from the central directory."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except _ZIP_ERRORS:
        return None
    return len(infos), sum(info.file_size for info in infos)


def gzip_size(path: str | os.PathLike[str], size: int) -> int | None:
    """The uncompressed size a gzip member records in its last 4 bytes (modulo 4 GiB)."""
    if size < 18:
        return None
    try:
        with open(path, "rb") as fh:
            fh.seek(size - 4)
            return int.from_bytes(fh.read(4), "little")
    except OSError:
        return None


def _safe_xml(data: bytes) -> Any:
    """Parsed XML, or None; documents with a DOCTYPE or ENTITY are refused (no bombs)."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return None
    from xml.etree import ElementTree

    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError:
        return None


def _member(zf: zipfile.ZipFile, name: str, cap: int = 2 * 1024 * 1024) -> bytes | None:
    try:
        info = zf.getinfo(name)
        if info.file_size > cap:
            return None
        with zf.open(info) as fh:
            return fh.read(cap)
    except _ZIP_ERRORS:
        return None


def office_facts(path: str | os.PathLike[str], kind: str) -> dict[str, object]:
    """xlsx sheet names, pptx slide count, docx page count (from docProps/app.xml)."""
    facts: dict[str, object] = {}
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if kind == sniff.XLSX:
                root = _safe_xml(_member(zf, "xl/workbook.xml") or b"")
                if root is not None:
                    facts["sheets"] = [el.get("name", "?") for el in root.iter() if el.tag.endswith("}sheet")]
            elif kind == sniff.PPTX:
                facts["slides"] = sum(1 for n in names if re.fullmatch(r"ppt/slides/slide\d+\.xml", n))
            elif kind == sniff.DOCX:
                root = _safe_xml(_member(zf, "docProps/app.xml") or b"")
                found = root.iter() if root is not None else iter(())
                pages = next((el.text for el in found if el.tag.endswith("}Pages")), None)
                if pages and pages.isdigit():
                    facts["pages"] = int(pages)
    except _ZIP_ERRORS:
        return {}
    return facts


def text_lines(path: str | os.PathLike[str], size: int) -> tuple[int, int] | None:
    """(estimated lines, longest line in the sample) from a 64 KiB sample."""
    try:
        with open(path, "rb") as fh:
            sample = fh.read(SAMPLE)
    except OSError:
        return None
    if not sample:
        return 0, 0
    newlines = sample.count(b"\n")
    longest = max(len(line) for line in sample.split(b"\n"))
    if newlines == 0 and size > len(sample):  # one line longer than the sample: it may be the whole file
        longest = size
    if len(sample) >= size:
        return newlines + (0 if sample.endswith(b"\n") else 1), longest
    return max(1, round(size * newlines / len(sample))), longest


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} bytes"
