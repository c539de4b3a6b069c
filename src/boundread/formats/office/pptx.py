"""Presentations (pptx, pptm, Strict OOXML): slide text in order.

Slides come in presentation order (``sldIdLst``), each behind a ``--- slide N / TOTAL ---``
marker: the title, then the text of every shape in order (groups, tables, charts as a ``Chart:`` line,
SmartArt as a ``SmartArt:`` list), then the speaker notes, then the slide's comments. ``pages``
ranges select slides. Macros, click actions and OLE objects are never run or followed: only their
text is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt
from boundread.formats._ooxml.charts import chart_line
from boundread.formats._ooxml.diagrams import diagram_lines
from boundread.formats._ooxml.package import Package, open_package
from boundread.formats._xml import attr, local
from boundread.formats.office.slide_comments import comment_lines
from boundread.formats.office.slides import Slide, finish, select

KINDS: tuple[str, ...] = ("pptx",)

_SKIP_PH = frozenset({"sldNum", "dt", "ftr", "hdr", "sldImg"})
_TITLE_PH = frozenset({"title", "ctrTitle"})
SAMPLE_SLIDES = 3  # slides parsed by info to estimate the text size


def slide_parts(pkg: Package) -> list[str]:
    """Slide part names in presentation order."""
    pres = pkg.main_part("ppt/presentation.xml")
    root = pkg.parse(pres)
    if root is None:
        raise Corrupt(f"{pkg.name} has no {pres}", "it is not a complete presentation; re-save it")
    rels = pkg.rels(pres)
    order: list[str] = []
    for elem in root.iter():
        rid = attr(elem, "id", "relationships") if local(elem.tag) == "sldId" else None
        if rid in rels and pkg.has(rels[rid][1]) and rels[rid][1] not in order:
            order.append(rels[rid][1])
    return order


def _paragraphs(body: Element) -> list[str]:
    out: list[str] = []
    for para in (p for p in body.iter() if local(p.tag) == "p"):
        runs = (e for e in para.iter() if local(e.tag) in ("t", "br"))
        text = "".join((e.text or "") if local(e.tag) == "t" else "\n" for e in runs)
        text = "\n".join(line.strip() for line in text.split("\n") if line.strip())
        if text:
            out.append(text)
    return out


def _shapes(tree: Element) -> Iterator[Element]:
    """Leaf shapes in order; groups and alternate content are opened (their first choice only)."""
    todo = list(reversed(tree))
    while todo:
        shape = todo.pop()
        name = local(shape.tag)
        if name == "grpSp":
            todo.extend(reversed(shape))
        elif name == "AlternateContent":
            todo.extend(reversed([c for c in shape if local(c.tag) == "Choice"][:1]))
        elif name == "Choice":
            todo.extend(reversed(shape))
        elif name in ("sp", "graphicFrame", "cxnSp"):
            yield shape


def _placeholder(shape: Element) -> str | None:
    for elem in shape.iter():
        if local(elem.tag) == "ph":
            return attr(elem, "type") or "body"
        if local(elem.tag) == "txBody":
            break
    return None


def _frame(pkg: Package, shape: Element, rels: dict[str, tuple[str, str]], warnings: list[str]) -> list[str]:
    """A table as markdown rows, a chart as its marked line, SmartArt as its marked list."""
    lines: list[str] = []
    for elem in shape.iter():
        name = local(elem.tag)
        if name == "tbl":
            for number, row in enumerate(r for r in elem if local(r.tag) == "tr"):
                cells = [
                    " ".join(" ".join(_paragraphs(c)).replace("|", "\\|").split()) for c in row if local(c.tag) == "tc"
                ]
                lines.append("| " + " | ".join(cells) + " |")
                if number == 0:
                    lines.append("|" + " --- |" * len(cells))
            return lines
        rid = attr(elem, "id", "relationships") if name == "chart" else None
        rid = attr(elem, "dm", "relationships") if name == "relIds" else rid
        if rid is not None:
            kind, target = rels.get(rid, ("", ""))
            if not pkg.has(target):
                warnings.append(f"{'chart' if name == 'chart' else 'SmartArt'} {rid} not read: the part it names "
                                f"({target or 'no relationship'}) is missing")
                return []
            if kind in ("chart", "chartEx"):
                line = chart_line(pkg, target, warnings)
                return [line] if line else []
            return diagram_lines(pkg, target, warnings) if kind == "diagramData" else []
        if name == "oleObj":
            what = attr(elem, "progId") or attr(elem, "name") or "OLE"
            part = rels.get(attr(elem, "id", "relationships") or "", ("", ""))[1]
            fix = f"it is {part} inside the file: unzip it and read that" if pkg.has(part) else \
                "open the slide in PowerPoint to see it"
            warnings.append(f"embedded object ({what}) not read: {fix}")
            return []
    return lines


def read_slide(pkg: Package, part: str, *, notes: bool = True) -> Slide:
    root = pkg.parse(part)
    slide = Slide()
    rels = pkg.rels(part)
    trees = [t for t in root.iter() if local(t.tag) == "spTree"][:1] if root is not None else []
    for shape in (s for tree in trees for s in _shapes(tree)):
        ph = _placeholder(shape)
        if ph in _SKIP_PH:
            continue
        if local(shape.tag) == "graphicFrame":
            slide.lines.extend(_frame(pkg, shape, rels, slide.warnings))
            continue
        body = [b for b in shape if local(b.tag) == "txBody"]
        text = _paragraphs(body[0]) if body else []
        if ph in _TITLE_PH and not slide.title and text:
            slide.title = " ".join(text)
        else:
            slide.lines.extend(text)
    notes_part = next((t for k, t in rels.values() if k == "notesSlide" and pkg.has(t)), None)
    if notes and notes_part:
        page = read_slide(pkg, notes_part, notes=False)
        slide.notes = page.lines
        slide.warnings.extend(f"notes: {warning}" for warning in page.warnings)
    if notes:  # a slide, not its notes page: its comments
        parts = sorted({t for k, t in rels.values() if k == "comments" and pkg.has(t)})
        slide.comments = comment_lines(pkg, parts, slide.warnings)
    return slide


def info(src: Source, req: Request) -> Details:
    if src.sniffed.encrypted:
        return Details(encrypted=True, warnings=[f"{src.name} is password-protected: remove the password to read it"])
    with open_package(src, "PowerPoint presentation", "PowerPoint") as pkg:
        parts = slide_parts(pkg)
        sample = [read_slide(pkg, p) for p in parts[:SAMPLE_SLIDES]]
        chars = sum(len(line) + 1 for s in sample for line in [s.title, *s.lines, *s.notes])
        sampled = sum(pkg.size(p) for p in parts[:SAMPLE_SLIDES])
        est = round(chars * sum(pkg.size(p) for p in parts) / sampled) if sampled else 0
        hidden = sum(_hidden(pkg, p) for p in parts[:1000])
        fields: dict[str, object] = {
            "slides": len(parts),
            "title": (sample[0].title if sample and sample[0].title else None) or pkg.title(),
            "notes": _notes_with_text(pkg),
            "hidden_slides": hidden,
            "macros": pkg.macros(),
        }
    details = Details(fields=fields, est_chars=est, estimated=len(parts) > SAMPLE_SLIDES)
    if fields["macros"]:
        details.warnings.append("contains VBA macros (vbaProject.bin): never run, text only")
    if parts:
        details.next = [("pages", FILE, f"1-{min(5, len(parts))}"), ("extract", FILE)]
    return details


def _notes_with_text(pkg: Package) -> int:
    """Notes pages that hold text, as extract gives it: PowerPoint makes a notes page for a slide whenever its
    notes pane is opened, and an empty one is no note (of the first 1,000 notes pages)."""
    parts = pkg.parts(r"ppt/notesslides/notesslide\d+\.xml")[:1000]
    return sum(1 for part in parts if read_slide(pkg, part, notes=False).lines)


def _hidden(pkg: Package, part: str) -> bool:
    for _event, elem in pkg.iterparse(part):
        return attr(elem, "show") in ("0", "false")
    return False


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    outcome = Outcome(unit="slides")
    with open_package(src, "PowerPoint presentation", "PowerPoint") as pkg:
        parts = slide_parts(pkg)
        chosen, outcome.warnings = select(req, len(parts), src.name)
        written: list[int] = []
        cut = None
        for number in chosen:
            try:
                slide = read_slide(pkg, parts[number - 1])
            except Corrupt as exc:
                outcome.warnings.append(f"slide {number} could not be read: {exc.what}")
                slide = Slide(lines=["[slide could not be read]"])
            outcome.warnings.extend(f"slide {number}: {warning}" for warning in slide.warnings)
            if not all(sink.write(chunk) for chunk in slide.chunks(number, len(parts))):
                cut = number
                break
            written.append(number)
            if sink.full:
                cut = chosen[len(written)] if len(written) < len(chosen) else None
                break
    return finish(req, sink, len(parts), written, cut, outcome)
