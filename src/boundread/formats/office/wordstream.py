"""Streaming text of word-processing XML (docx ``w:document`` and ODF ``office:text``) as blocks.

One pass with iterparse: a paragraph's text is taken when it ends, then the element is dropped,
so memory stays flat however long the document is, and the caller stops the parse by no longer
asking for blocks. Tables come out as markdown rows; a chart or SmartArt drawn in the body comes out
as a "graphic" block naming its relationship, for the caller to read from its part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from boundread.formats._ooxml.package import Package, Progress
from boundread.formats._xml import attr, local, odf_text, walk

_HEADING = re.compile(r"(?:heading|.berschrift|titre|titolo|encabezado)\s*([1-9])|(title)", re.IGNORECASE)
_DOCX_SKIP = frozenset({"pPr", "rPr", "instrText", "delText", "Fallback", "txbxContent", "commentReference", "ruby"})
_DOCX_NOTES = frozenset({"footnote", "endnote", "comment"})
_ODF_NOTES = frozenset({"note", "annotation"})


@dataclass(frozen=True)
class Block:
    kind: str  # "p" | "row" | "table_end" | "note" (a footnote/endnote/comment ended) | "graphic"
    text: str = ""
    heading: int = 0  # 1-6 for a heading paragraph
    list_level: int = -1  # 0.. for a list item
    first_row: bool = False
    container: str = ""  # the note element a paragraph sits in ("" for body text); a graphic's "chart" | "diagram"
    note_id: str = ""  # a note's id; a graphic's relationship id (its chart or SmartArt data part)
    author: str = ""


@dataclass
class _Table:
    rows: int = 0
    row: list[str] = field(default_factory=list)
    cell: list[str] = field(default_factory=list)
    graphics: list[Block] = field(default_factory=list)  # charts/SmartArt/objects in its cells


def heading_level(style_id: str, name: str = "") -> int:
    for label in (name, style_id):
        match = _HEADING.fullmatch(label.strip()) if label else None
        if match:
            return int(match.group(1)) if match.group(1) else 1
    return 0


def docx_styles(pkg: Package, part: str) -> dict[str, tuple[int, int]]:
    """styleId -> (heading level, list level or -1), from the document's styles part (capped)."""
    found: dict[str, tuple[int, int]] = {}
    for kind, target in pkg.rels(part).values():
        if kind != "styles" or pkg.size(target) > 8 * 1024 * 1024:
            continue
        root = pkg.parse(target)
        for style in root.iter() if root is not None else ():
            if local(style.tag) != "style":
                continue
            names = [attr(c, "val") or "" for c in style if local(c.tag) == "name"]
            level = heading_level(attr(style, "styleId") or "", names[0] if names else "")
            numbered = [n for c in style if local(c.tag) == "pPr" for n in c if local(n.tag) == "numPr"]
            listed = _list_level(numbered[0]) if numbered else -1
            if level or listed >= 0:
                found[attr(style, "styleId") or ""] = (level, listed)
    return found


def _list_level(num_pr: Element) -> int:
    levels = [attr(c, "val") or "0" for c in num_pr if local(c.tag) == "ilvl"]
    return int(levels[0]) if levels and levels[0].isdigit() else 0


def _graphic_rid(elem: Element, name: str) -> str:
    """The relationship id of a chart (``c:chart r:id``) or SmartArt (``dgm:relIds r:dm``) reference, or the
    href of an ODF embedded object (``draw:object xlink:href``), else ""."""
    if name == "object":
        return attr(elem, "href", "xlink") or ""
    if name == "chart":
        return attr(elem, "id", "relationships") or ""
    if name == "relIds":
        return attr(elem, "dm", "relationships") or ""
    return ""


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _docx_text(p: Element) -> str:
    out: list[str] = []
    for item in walk(p, _DOCX_SKIP):
        if isinstance(item, str):
            continue
        name = local(item.tag)
        if name == "t":
            out.append(item.text or "")
        elif name == "tab":
            out.append("\t")
        elif name in ("br", "cr") and (attr(item, "type") or "textWrapping") == "textWrapping":
            out.append("\n")
        elif name == "noBreakHyphen":
            out.append("-")
        elif name == "ruby":
            out.append(_ruby(item))
        elif name == "footnoteReference":
            out.append(f"[^{attr(item, 'id')}]")
        elif name == "endnoteReference":
            out.append(f"[^e{attr(item, 'id')}]")
    return "".join(out).strip()


def _ruby(ruby: Element) -> str:
    """A docx ruby (``w:rubyBase``, ``w:rt``) as "base (reading)", from their ``w:t`` text only."""
    found = {"rubyBase": "", "rt": ""}
    for part in ruby:
        if local(part.tag) in found:
            found[local(part.tag)] = "".join(t.text or "" for t in part.iter() if local(t.tag) == "t")
    return f"{found['rubyBase']} ({found['rt']})" if found["rt"].strip() else found["rubyBase"]


def _paragraph(p: Element, odf: bool, styles: dict[str, tuple[int, int]], names: list[str]) -> Block:
    notes = _ODF_NOTES if odf else _DOCX_NOTES
    container = next((n for n in reversed(names) if n in notes), "")
    if odf:
        items = names.count("list-item")
        level = int(attr(p, "outline-level") or 1) if local(p.tag) == "h" else 0
        return Block("p", odf_text(p), heading=min(level, 6), list_level=items - 1, container=container)
    heading, list_level = 0, -1
    for ppr in (c for c in p if local(c.tag) == "pPr"):
        for prop in ppr:
            name = local(prop.tag)
            if name == "pStyle":
                heading, list_level = styles.get(attr(prop, "val") or "", (0, list_level))
                heading = heading or heading_level(attr(prop, "val") or "")
            elif name == "outlineLvl" and not heading and (attr(prop, "val") or "9").isdigit():
                heading = int(attr(prop, "val") or "9") + 1 if int(attr(prop, "val") or "9") < 6 else 0
            elif name == "numPr":
                ids = [attr(c, "val") for c in prop if local(c.tag) == "numId"]
                list_level = -1 if ids and ids[0] == "0" else _list_level(prop)
    return Block("p", _docx_text(p), heading=min(heading, 6), list_level=list_level, container=container)


def blocks(
    pkg: Package,
    part: str,
    *,
    odf: bool = False,
    styles: dict[str, tuple[int, int]] | None = None,
    progress: Progress | None = None,
    budget: int | None = None,
) -> Iterator[Block]:
    """The blocks of one part, in document order; stop iterating to stop reading."""
    para: tuple[str, ...] = ("p", "h") if odf else ("p",)
    table, row, cell = ("table", "table-row", "table-cell") if odf else ("tbl", "tr", "tc")
    notes, styles = (_ODF_NOTES if odf else _DOCX_NOTES), styles or {}
    stack: list[Element] = []
    names: list[str] = []
    tables: list[_Table] = []
    skip = 0  # inside mc:Fallback (a copy of mc:Choice) or ODF tracked changes
    for event, elem in pkg.iterparse(part, progress, budget):
        name = local(elem.tag)
        if event == "start":
            if name in ("Fallback", "tracked-changes"):
                skip += 1
            elif not skip and name == table:
                tables.append(_Table())
            elif not skip and tables and name == row:
                tables[-1].row = []
            elif not skip and tables and name == cell:
                tables[-1].cell = []
            stack.append(elem)
            names.append(name)
            continue
        stack.pop()
        names.pop()
        if name in ("Fallback", "tracked-changes"):
            skip -= 1
        elif skip:
            pass
        elif name in para:
            block = _paragraph(elem, odf, styles, names)
            if tables and not block.container:
                if block.text:
                    tables[-1].cell.append(block.text)
            elif block.text:
                yield block
        elif tables and name == cell:
            tables[-1].row.append(_cell(" ".join(tables[-1].cell)))
        elif tables and name == row:
            current = tables[-1]
            line = "| " + " | ".join(current.row) + " |"
            if len(tables) > 1:
                tables[-2].cell.append(line)
            elif any(current.row):
                yield Block("row", line, first_row=current.rows == 0)
                current.rows += 1
        elif tables and name == table:
            done = tables.pop()
            if not tables and done.rows:
                yield Block("table_end")
            if not tables:
                yield from done.graphics  # drawn in its cells: after the table, which markdown rows cannot hold
        elif _graphic_rid(elem, name):
            kind = {"chart": "chart", "relIds": "diagram"}.get(name, "object")
            graphic = Block("graphic", container=kind, note_id=_graphic_rid(elem, name))
            if tables:
                tables[0].graphics.append(graphic)
            else:
                yield graphic
        elif name in notes:
            found = {local(c.tag): c.text or "" for c in elem.iter() if local(c.tag) in ("creator", "note-citation")}
            yield Block(
                "note",
                container=name,
                note_id=found.get("note-citation") or attr(elem, "id") or "",
                author=attr(elem, "author") or found.get("creator", ""),
            )
        if stack and (name in para or not any(n in para for n in names)) and len(stack[-1]) and stack[-1][-1] is elem:
            del stack[-1][-1]  # done with it: keep memory flat
