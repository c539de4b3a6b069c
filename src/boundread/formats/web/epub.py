"""EPUB: chapters in spine order are its pages, each chapter's XHTML read as HTML (``html.Converter``).

``META-INF/container.xml`` names the package document (OPF); its ``spine`` lists the chapters in reading
order (``linear="no"`` items too, in place); ``pages book.epub 3-5`` reads chapters 3-5, each behind
``--- chapter N / TOTAL: TITLE ---`` (the title: the chapter's first heading or <title>). Bounded: the zip
directory is read, never the whole archive; a chapter larger than ``MAX_CHAPTER`` bytes, or expanding more
than --max-ratio (a zip bomb), is refused for that chapter with a warning, and its text streams through the
converter in 64 kB pieces, so an unclosed tag costs nothing more.
"""

from __future__ import annotations

import codecs
import posixpath
import shlex
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import unquote
from xml.etree.ElementTree import Element

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Encrypted, Refused
from boundread.formats._lines import lines_on
from boundread.formats._xml import local
from boundread.formats.web import parts
from boundread.formats.web.html import Converter
from boundread.units import MB, human_bytes

KINDS: tuple[str, ...] = ("epub",)
MAX_CHAPTER = 16 * MB  # bytes of one chapter's XHTML read
MAX_PACKAGE = 4 * MB  # bytes of container.xml / the OPF read
PIECE = 64 * 1024
_DAMAGE = (zipfile.BadZipFile, zlib.error, NotImplementedError, OSError, EOFError, ValueError)
MAX_ENTRIES = 50_000  # zip entries of a book (a big one has a few thousand: chapters, images, fonts)


@dataclass(frozen=True)
class Book:
    zf: zipfile.ZipFile
    chapters: list[str]  # member names in spine order
    title: str | None
    language: str | None


def _xml(zf: zipfile.ZipFile, name: str, src: Source) -> Element:
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise Corrupt(f"{src.name} has no {name}", "it is not a complete EPUB; `boundread list-zip F` shows what "
                      "it holds") from None
    if info.file_size > MAX_PACKAGE:
        raise Corrupt(f"{name} in {src.name} is {human_bytes(info.file_size)}, not a real EPUB package file",
                      "`boundread list-zip F` shows what it holds")
    if info.flag_bits & 0x1:  # zipfile would raise RuntimeError asking for a password
        raise Encrypted(f"{name} in {src.name} is encrypted", "boundread reads EPUBs without DRM only")
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        data = zf.read(name)
    except _DAMAGE as exc:
        raise Corrupt(f"{name} in {src.name} is damaged ({exc})", "re-export the EPUB") from None
    try:
        root: Element = fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise Refused(f"{name} in {src.name} declares a DTD or entities", "the file may be an XML bomb; open it "
                      "only in a sandbox") from None
    except ParseError as exc:
        raise Corrupt(f"{name} in {src.name} is not well-formed XML ({exc})", "re-export the EPUB") from None
    return root


@contextmanager
def open_book(src: Source) -> Iterator[Book]:
    from boundread.bytelevel import zipdir

    with src.open() as fh:
        try:  # zipfile holds the whole directory in memory: its size is checked first
            end = zipdir.end_record(fh)
        except (zipdir.BadZip, OSError) as exc:
            raise Corrupt(f"{src.name} is not a readable zip ({exc})", "check the file is a complete EPUB") from None
        if end.count > MAX_ENTRIES:
            raise Refused(f"{src.name} declares {end.count:,} zip entries, more than a book holds (a zip bomb?)",
                          f"list some with `boundread list-zip {shlex.quote(src.name)} --max-entries 50`")
        fh.seek(0)
        try:
            zf = zipfile.ZipFile(fh)
        except _DAMAGE as exc:
            raise Corrupt(f"{src.name} is not a readable zip ({exc})", "check the file is a complete EPUB") from None
        with zf:
            container = _xml(zf, "META-INF/container.xml", src)
            opf = next((e.get("full-path") for e in container.iter() if local(e.tag) == "rootfile"), None)
            if not opf:
                raise Corrupt(f"{src.name}: container.xml names no package document", "re-export the EPUB")
            package = _xml(zf, opf, src)
            base = posixpath.dirname(opf)
            items = {e.get("id"): e for e in package.iter() if local(e.tag) == "item"}
            chapters = []
            for ref in (e for e in package.iter() if local(e.tag) == "itemref"):
                href = _readable(items, ref.get("idref"))
                if href:
                    chapters.append(posixpath.normpath(posixpath.join(base, unquote(href.split("#")[0]))))
            meta = {local(e.tag): (e.text or "").strip() for e in package.iter() if local(e.tag) in ("title",
                                                                                                   "language")}
            yield Book(zf, chapters, meta.get("title") or None, meta.get("language") or None)


#: What a reader shows of a spine item; anything else (a "foreign" resource) is read through its fallback.
_CONTENT = ("application/xhtml+xml", "text/html", "image/svg+xml")


def _readable(items: dict[str | None, Element], idref: str | None) -> str | None:
    """The href of spine item ``idref``, or of the first item along its ``fallback`` chain that is a content
    document (EPUB 3: a foreign resource in the spine names one) - the item itself when none is."""
    item = items.get(idref)
    if item is None:
        return None
    seen = {idref}
    found = item
    while found.get("media-type", "application/xhtml+xml") not in _CONTENT:
        nxt = found.get("fallback")
        if nxt in seen or items.get(nxt) is None or len(seen) > 16:  # a loop or a dead end: the item as it is
            return item.get("href")
        seen.add(nxt)
        found = items[nxt]
    return found.get("href")


def _pieces(book: Book, name: str, req: Request, warnings: list[str]) -> Iterator[str]:
    try:
        info = book.zf.getinfo(name)
    except KeyError:
        warnings.append(f"{name}: named by the spine but missing from the zip")
        return
    ratio = info.file_size / info.compress_size if info.compress_size else 0.0
    if info.file_size > MAX_CHAPTER or ratio > req.limits.max_ratio:
        why = f"ratio {ratio:,.0f}x: a zip bomb?" if ratio > req.limits.max_ratio else \
            f"more than {human_bytes(MAX_CHAPTER)}"
        warnings.append(f"{name} not read: {human_bytes(info.file_size)} ({why})")
        return
    if info.flag_bits & 0x1:
        raise Encrypted(f"{name} is encrypted (DRM?)", "boundread reads EPUBs without DRM only")
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    try:
        with book.zf.open(info) as fh:
            read = 0
            while read <= MAX_CHAPTER and (block := fh.read(PIECE)):
                read += len(block)
                yield decoder.decode(block)
    except _DAMAGE as exc:
        warnings.append(f"{name} is damaged ({exc}): read up to the damage")
    yield decoder.decode(b"", final=True)


def info(src: Source, req: Request) -> Details:
    with open_book(src) as book:
        sizes = [book.zf.getinfo(c).file_size for c in book.chapters if c in book.zf.NameToInfo]
    fields: dict[str, object] = {"chapters": len(book.chapters), "title": book.title, "language": book.language}
    details = Details(fields=fields, est_chars=sum(sizes) // 2, estimated=True)  # markup is about half of XHTML
    if book.chapters:
        details.next = [("pages", FILE, f"1-{min(3, len(book.chapters))}"), ("extract", FILE)]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    outcome = Outcome(unit="chapters")
    written: list[int] = []
    with open_book(src) as book:
        total = len(book.chapters)
        chosen, outcome.warnings = parts.select(req, total, src.name, "chapter", "book")
        for number in chosen:
            conv = Converter()
            head = f"--- chapter {number} / {total} ---\n"
            ok = sink.write(head)
            for piece in _pieces(book, book.chapters[number - 1], req, outcome.warnings):
                conv.feed(piece)
                if not ok or not all(sink.write(piece) for piece in conv.take()):
                    ok = False
                    break
            if ok:
                ok = all(sink.write(piece) for piece in conv.finish())
            if not ok:
                outcome.done = f"chapters to {number} of {total} (chapter {number} cut)"
                outcome.resume = lines_on(req, sink) if sink.filtering else \
                    ("pages", FILE, f"{number}-{min(total, number + 2)}")
                break
            written.append(number)
    outcome.totals = {"chapters": total}
    if not outcome.done:
        outcome.done = (f"chapters {written[0]}-{written[-1]} of {total}" if written else f"no chapters of {total}")
        if req.pages and written and written[-1] < total and not sink.filtering:
            outcome.resume = ("pages", FILE, f"{written[-1] + 1}-{min(total, written[-1] + len(written))}")
    return outcome
