"""What an xlsx sheet holds besides its cells: notes and threaded comments, charts and drawing text boxes.

:func:`sheet_extras` reads them for one sheet (worksheet or chart sheet) through the sheet's relationships
and gives marked lines, in the order a reader meets them:

- ``Comment A1 (author): text`` - threaded comments (with their replies) and notes (legacy comments; a note
  Excel wrote only as the stand-in of a threaded comment on the same cell is left out);
- ``Chart: title - series a, b; categories x, y; axes ...`` - each chart of the sheet's drawing;
- ``SmartArt:`` lists and ``Text box: ...`` lines - shapes of the drawing that hold text.

Bounded: comment parts are streamed and dropped element by element, and reading stops (with a warning that
says so) once ``budget`` characters of lines are made; a chart or diagram part over its cap, or a damaged
part, is a warning naming the part, never a hang or a traceback.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from boundread.errors import Corrupt, Refused
from boundread.formats._ooxml.charts import chart_line
from boundread.formats._ooxml.diagrams import diagram_lines
from boundread.formats._ooxml.package import Package
from boundread.formats._xml import attr, local, walk

PERSONS_CAP = 1 << 20  # bytes of xl/persons/person.xml parsed at most
DRAWING_CAP = 8 * 1024 * 1024  # bytes of one drawing part parsed at most
_SKIP = frozenset({"Fallback"})  # mc:Fallback repeats mc:Choice's shapes for older readers


@dataclass
class SheetExtras:
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    chars: int = 0
    cut: bool = False

    def add(self, line: str, budget: int) -> bool:
        """Keep ``line`` if the budget allows; False (and cut) once it does not."""
        if self.cut or self.chars + len(line) + 1 > budget:
            self.cut = True
            return False
        self.lines.append(line)
        self.chars += len(line) + 1
        return True


def _text(elem: Element) -> str:
    """A comment's rich text (``t`` runs, the ``rPh`` phonetic runs left out), one line."""
    out: list[str] = []
    todo = [elem]
    while todo:
        item = todo.pop()
        name = local(item.tag)
        if name == "rPh":
            continue
        if name == "t":
            out.append(item.text or "")
        todo.extend(reversed(item))
    return " ".join("".join(out).split())


def _persons(pkg: Package) -> dict[str, str]:
    book = pkg.main_part("xl/workbook.xml")
    found: dict[str, str] = {}
    for kind, target in pkg.rels(book).values():
        if kind != "person" or not pkg.has(target):
            continue
        try:
            root = pkg.parse(target, cap=PERSONS_CAP)
        except (Refused, Corrupt):
            continue  # the comments still read, as by "unknown"
        for person in root.iter() if root is not None else ():
            if local(person.tag) == "person":
                found[attr(person, "id") or ""] = attr(person, "displayName") or ""
    return found


def _threaded(pkg: Package, part: str, out: SheetExtras, budget: int, cells: set[str]) -> None:
    persons: dict[str, str] | None = None
    for event, elem in pkg.iterparse(part):
        if event != "end" or local(elem.tag) != "threadedComment":
            continue
        if persons is None:
            persons = _persons(pkg)
        ref = attr(elem, "ref") or "?"
        cells.add(ref)
        texts = [" ".join((c.text or "").split()) for c in elem if local(c.tag) == "text"]  # plain text, no runs
        who = persons.get(attr(elem, "personId") or "", "") or "unknown"
        if texts and texts[0] and not out.add(f"Comment {ref} ({who}): {texts[0]}", budget):
            return
        elem.clear()


def _notes(pkg: Package, part: str, out: SheetExtras, budget: int, skip: set[str]) -> None:
    authors: list[str] = []
    for event, elem in pkg.iterparse(part):
        name = local(elem.tag)
        if event != "end":
            continue
        if name == "author":
            authors.append(elem.text or "")
        elif name == "comment":
            ref = attr(elem, "ref") or "?"
            texts = [_text(c) for c in elem if local(c.tag) == "text"]
            index = attr(elem, "authorId") or ""
            who = authors[int(index)] if index.isdecimal() and int(index) < len(authors) else ""
            line = f"Comment {ref} ({who.strip() or 'unknown'}): {texts[0]}" if texts and texts[0] else ""
            if ref not in skip and line and not out.add(line, budget):
                return
            elem.clear()


def _shape_lines(pkg: Package, shape: Element, rels: dict[str, tuple[str, str]], warnings: list[str]) -> list[str]:
    """A drawing's anchored shape: a chart, SmartArt, or a text box (groups give each of their shapes)."""
    lines: list[str] = []
    for elem in (e for e in walk(shape, _SKIP) if not isinstance(e, str)):
        name = local(elem.tag)
        if name == "chart" and attr(elem, "id", "relationships") in rels:
            kind, target = rels[attr(elem, "id", "relationships") or ""]
            if kind in ("chart", "chartEx") and pkg.has(target):
                line = chart_line(pkg, target, warnings)
                lines.extend([line] if line else [])
        elif name == "relIds" and attr(elem, "dm", "relationships") in rels:
            kind, target = rels[attr(elem, "dm", "relationships") or ""]
            if kind == "diagramData" and pkg.has(target):
                lines.extend(diagram_lines(pkg, target, warnings))
        elif name == "sp":
            paras = [" ".join("".join(t.text or "" for t in p.iter() if local(t.tag) == "t").split())
                     for body in elem if local(body.tag) == "txBody" for p in body if local(p.tag) == "p"]
            text = " / ".join(p for p in paras if p)
            lines.extend([f"Text box: {text}"] if text else [])
    return lines


def _drawing(pkg: Package, part: str, out: SheetExtras, budget: int) -> None:
    try:
        root = pkg.parse(part, cap=DRAWING_CAP)
    except (Refused, Corrupt) as exc:
        out.warnings.append(f"drawing {part} not read: {exc.what}")
        return
    rels = pkg.rels(part)
    for anchor in root if root is not None else ():
        for line in _shape_lines(pkg, anchor, rels, out.warnings):
            if not out.add(line, budget):
                return


def read_extras(pkg: Package, sheet_part: str, budget: int) -> SheetExtras:
    """Comments, then charts, SmartArt and text boxes of one sheet part, as marked lines."""
    out = SheetExtras()
    rels = pkg.rels(sheet_part).values()
    threaded = sorted(t for k, t in rels if k == "threadedComment" and pkg.has(t))
    steps = [(_threaded, t) for t in threaded] + [(_notes, t) for k, t in rels if k == "comments" and pkg.has(t)]
    cells: set[str] = set()
    for step, part in steps:
        try:
            step(pkg, part, out, budget, cells)
        except (Refused, Corrupt) as exc:
            out.warnings.append(f"comments {part} not read: {exc.what}")
    for part in sorted(t for k, t in rels if k == "drawing" and pkg.has(t)):
        _drawing(pkg, part, out, budget)
    return out


def sheet_extras(zf: zipfile.ZipFile, sheet_part: str, sheet_name: str, file_name: str, budget: int) -> SheetExtras:
    """The sheet handler's entry point: marked lines for ``sheet_part`` of an open xlsx zip, and warnings, each
    naming the sheet. ``budget`` is the characters of lines to make at most (the sink's room)."""
    out = read_extras(Package(zf, file_name), sheet_part, max(budget, 0))
    out.warnings = [f"sheet '{sheet_name}': {w}" for w in out.warnings]
    if out.cut:
        out.warnings.append(f"sheet '{sheet_name}': comments, charts and text boxes after the first "
                            f"{len(out.lines):,} not read (the output limit was reached)")
    return out
