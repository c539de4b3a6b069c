"""ODF presentations (odp), best effort: ``draw:page`` elements of content.xml as slides.

All slides live in one content.xml, so it is streamed: each page is read when it ends, then
dropped. The slide count comes from a capped byte scan for ``<draw:page``.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt
from boundread.formats._ooxml.package import Package, open_package
from boundread.formats._xml import attr, local, odf_text
from boundread.formats.office.odf_objects import object_lines
from boundread.formats.office.slides import Slide, finish, select
from boundread.units import MB, human_bytes

KINDS: tuple[str, ...] = ("odp",)

COUNT_BUDGET = 16 * MB  # bytes of content.xml scanned to count pages
_PAGE = re.compile(rb"<draw:page[\s>/]")


def count_pages(pkg: Package) -> tuple[int, bool]:
    """(pages, exact): a byte scan of content.xml up to COUNT_BUDGET, extrapolated past it."""
    count, seen, tail = 0, 0, b""
    with pkg.open("content.xml") as fh:
        while seen < COUNT_BUDGET:
            chunk = fh.read(1 << 16)
            if not chunk:
                return count, True
            seen += len(chunk)
            count += len(_PAGE.findall(tail + chunk)) - len(_PAGE.findall(tail))
            tail = chunk[-16:]
    return round(count * pkg.size("content.xml") / max(seen, 1)), False


def _slide_text(pkg: Package, page: Element) -> Slide:
    """A page's title, text (text boxes, tables, embedded charts), notes and comments, in document order."""
    slide = Slide()
    todo = list(reversed(page))
    while todo:
        elem = todo.pop()
        name = local(elem.tag)
        if name == "notes":
            slide.notes.extend(t for p in elem.iter() if local(p.tag) in ("p", "h") and (t := odf_text(p)))
        elif name == "annotation":
            who = " ".join(c.text or "" for c in elem if local(c.tag) == "creator").strip() or "unknown"
            text = " / ".join(t for p in elem.iter() if local(p.tag) in ("p", "h") and (t := odf_text(p)))
            slide.comments.extend([f"Comment ({who}): {text}"] if text else [])
        elif name == "object":
            slide.lines.extend(object_lines(pkg, attr(elem, "href", "xlink") or "", slide.warnings))
        elif name == "table":
            for row in (r for r in elem.iter() if local(r.tag) == "table-row"):
                cells = [
                    " ".join(odf_text(p) for p in c.iter() if local(p.tag) == "p")
                    for c in row
                    if local(c.tag) == "table-cell"
                ]
                slide.lines.append("| " + " | ".join(" ".join(c.replace("|", "\\|").split()) for c in cells) + " |")
        elif name in ("p", "h"):
            text = odf_text(elem)
            if text:
                slide.lines.append(text)
        else:
            if name == "frame" and attr(elem, "class") == "title" and not slide.title:
                slide.title = " ".join(odf_text(p) for p in elem.iter() if local(p.tag) in ("p", "h")).strip()
                if slide.title:
                    continue
            todo.extend(reversed(elem))
    return slide


def info(src: Source, req: Request) -> Details:
    with open_package(src, "ODF presentation", "LibreOffice") as pkg:
        if not pkg.has("content.xml"):
            raise Corrupt(f"{src.name} has no content.xml", "it is not a complete presentation; re-save it")
        pages, exact = count_pages(pkg)
        fields: dict[str, object] = {"slides": pages, "title": pkg.title("meta.xml"), "macros": False}
    details = Details(fields=fields, est_chars=None)
    if not exact:
        details.warnings.append(f"slide count estimated from the first {human_bytes(COUNT_BUDGET)} of content.xml")
    if pages:
        details.next = [("pages", FILE, f"1-{min(5, pages)}"), ("extract", FILE)]
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    outcome = Outcome(unit="slides")
    with open_package(src, "ODF presentation", "LibreOffice") as pkg:
        total, exact = count_pages(pkg)
        chosen, outcome.warnings = select(req, total, src.name)
        wanted = set(chosen)
        written: list[int] = []
        cut = None
        number = 0
        stack: list[Element] = []
        try:
            for event, elem in pkg.iterparse("content.xml"):
                if event == "start":
                    stack.append(elem)
                    continue
                stack.pop()
                if local(elem.tag) != "page":
                    continue
                number += 1
                if number in wanted:
                    slide = _slide_text(pkg, elem)
                    outcome.warnings.extend(f"slide {number}: {warning}" for warning in slide.warnings)
                    chunks = slide.chunks(number, total if exact else "?")
                    if not all(sink.write(c) for c in chunks):
                        cut = number
                        break
                    written.append(number)
                if stack:
                    stack[-1].remove(elem)
                if sink.full or number >= max(chosen, default=0):
                    break
        except Corrupt as exc:
            if not written:
                raise
            outcome.warnings.append(f"{exc.what}: slides after {written[-1]} could not be read")
    return finish(req, sink, total, written, cut, outcome)
