"""Shared plumbing for zipped office files (OOXML and ODF): guarded parts, streaming XML, local names.

Strict OOXML and ODF use other namespaces than Transitional OOXML, so everything here matches
elements and attributes by their local name. XML is parsed with defusedxml and DTDs are refused,
so entity bombs cannot expand.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO
from xml.etree.ElementTree import Element, ParseError

from boundread.contract.model import Source
from boundread.errors import Corrupt, Encrypted, Refused
from boundread.formats._xml import attr, local

PART_CAP = 16 * 1024 * 1024  # uncompressed bytes of a part that is parsed whole (slide, rels, styles)
PROLOG_CAP = 1 << 20  # a prolog (before the root element) longer than this is not a real document
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
               NotImplementedError)  # a version or method zipfile cannot read: as damaged, never a traceback


def natural_key(name: str) -> tuple[object, ...]:
    """header10.xml after header2.xml."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


@dataclass
class Progress:
    """How much of a part a streaming parse consumed, and whether it reached the end."""

    consumed: int = 0
    complete: bool = False


class _Counting:
    def __init__(self, raw: IO[bytes], progress: Progress) -> None:
        self.raw, self.progress = raw, progress

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.progress.consumed += len(data)
        return data


class Package:
    """A zip of XML parts; part names are looked up case-insensitively, as OPC says."""

    def __init__(self, zf: zipfile.ZipFile, name: str) -> None:
        self.zf = zf
        self.name = name
        self.infos = {info.filename.lower(): info for info in zf.infolist()}

    def info(self, part: str) -> zipfile.ZipInfo | None:
        return self.infos.get(part.lstrip("/").lower())

    def has(self, part: str) -> bool:
        return self.info(part) is not None

    def size(self, part: str) -> int:
        info = self.info(part)
        return info.file_size if info else 0

    def parts(self, pattern: str) -> list[str]:
        """Part names matching a regular expression (lower case), in natural order."""
        rx = re.compile(pattern)
        return sorted((i.filename for k, i in self.infos.items() if rx.fullmatch(k)), key=natural_key)

    @contextlib.contextmanager
    def open(self, part: str) -> Iterator[IO[bytes]]:
        info = self.info(part)
        if info is None:
            raise Corrupt(f"{self.name}: part {part} is missing", "re-save the file in its application")
        try:
            with self.zf.open(info) as fh:
                yield fh
        except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required"
            raise Encrypted(
                f"{self.name}: part {part} is encrypted ({exc})", "save a copy without a password"
            ) from None
        except NotImplementedError as exc:
            raise Corrupt(f"{self.name}: part {part} cannot be decompressed ({exc})", "re-save the file") from None
        except _ZIP_ERRORS as exc:
            raise Corrupt(f"{self.name}: part {part} is damaged ({exc})", "re-save the file") from None

    def iterparse(
        self, part: str, progress: Progress | None = None, budget: int | None = None
    ) -> Iterator[tuple[str, Element]]:
        """("start"|"end", element) events; stops quietly once ``budget`` compressed-stream bytes are read."""
        from defusedxml import DefusedXmlException
        from defusedxml.ElementTree import iterparse

        progress = progress or Progress()
        with self.open(part) as raw:
            stream = _Counting(raw, progress)
            parsed = 0  # bytes whose events have all been yielded (the parser reads 16 KB at a time)
            try:
                for event, elem in iterparse(stream, events=("start", "end"), forbid_dtd=True):
                    if progress.consumed != parsed:
                        if budget is not None and parsed > budget:
                            progress.consumed = parsed
                            return
                        parsed = progress.consumed
                    yield event, elem
            except DefusedXmlException as exc:
                raise Refused(
                    f"{self.name}: part {part} declares a DTD or entities ({type(exc).__name__})",
                    "the file may be an XML bomb; open it only in a sandbox",
                ) from None
            except ParseError as exc:
                raise Corrupt(f"{self.name}: part {part} is not well-formed XML ({exc})", "re-save the file") from None
        progress.complete = True

    def parse(self, part: str, cap: int = PART_CAP) -> Element | None:
        """A whole (small) part, or None when it is missing. Bigger than ``cap`` -> Refused."""
        if not self.has(part):
            return None
        if self.size(part) > cap:
            raise Refused(
                f"{self.name}: part {part} is {self.size(part):,} bytes uncompressed",
                f"parts over {cap:,} bytes are not parsed whole; the file may be a bomb",
            )
        root: Element | None = None
        for event, elem in self.iterparse(part):
            if event == "start" and root is None:
                root = elem
        return root

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of ``part``: id -> (type's last word, target part name). External ones are left out."""
        folder, base = posixpath.split(part)
        root = self.parse(posixpath.join(folder, "_rels", base + ".rels"))
        out: dict[str, tuple[str, str]] = {}
        if root is None:
            return out
        for rel in root.iter():
            if local(rel.tag) != "Relationship" or (attr(rel, "TargetMode") or "").lower() == "external":
                continue
            rid, kind, target = attr(rel, "Id"), attr(rel, "Type") or "", attr(rel, "Target")
            if rid and target:
                path = posixpath.normpath(posixpath.join(folder, target)).lstrip("/")
                if target.startswith("/"):
                    path = target.lstrip("/")
                out[rid] = (kind.rsplit("/", 1)[-1], path)
        return out

    def main_part(self, default: str) -> str:
        for kind, target in self.rels("").values():
            if kind == "officeDocument" and self.has(target):
                return target
        return default

    def title(self, part: str = "docProps/core.xml") -> str | None:
        """dc:title from docProps/core.xml (or ODF meta.xml)."""
        root = self.parse(part, cap=1 << 20)
        if root is None:
            return None
        for elem in root.iter():
            if local(elem.tag) == "title" and elem.text and elem.text.strip():
                return elem.text.strip()
        return None

    def macros(self) -> bool:
        return any(k.endswith("vbaproject.bin") for k in self.infos)

    def declares_dtd(self, part: str) -> bool:
        """True when the part's prolog has <!DOCTYPE or <!ENTITY (minidom-based libraries would expand it)."""
        data = b""
        with self.open(part) as fh:
            while len(data) < PROLOG_CAP:
                chunk = fh.read(65536)
                if not chunk:
                    break
                data += chunk
                text = data.decode("utf-16", "replace").encode() if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data
                root = re.search(rb"<[A-Za-z_]", text)
                if root:
                    prolog = text[: root.start()]
                    return b"<!DOCTYPE" in prolog or b"<!ENTITY" in prolog
        return len(data) >= PROLOG_CAP


@contextlib.contextmanager
def open_package(src: Source, what: str, app: str) -> Iterator[Package]:
    """The source as a Package; encrypted and unreadable containers raise with the fix."""
    if src.sniffed.encrypted:
        odf = " (ODF encryption, which boundread cannot decrypt)" if src.sniffed.subtype == "encrypted-odf" else ""
        raise Encrypted(f"{src.name} is password-protected{odf}", f"remove the password in {app} and save a copy")
    with src.open() as fh:
        try:
            zf = zipfile.ZipFile(fh)
        except _ZIP_ERRORS as exc:
            raise Corrupt(
                f"{src.name} is not a readable {what} ({exc})",
                "check the file is complete (re-download it) or re-save it",
            ) from None
        with zf:
            yield Package(zf, src.name)
