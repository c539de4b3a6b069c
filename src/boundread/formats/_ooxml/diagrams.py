"""SmartArt (DrawingML diagrams, in pptx and docx): the text of a diagram's data part as a marked list.

A SmartArt graphic on a slide or page holds no text of its own: the text lives in the data part
(``ppt/diagrams/data1.xml``, ``word/diagrams/data1.xml``) that the frame's ``dgm:relIds r:dm`` names. Its
points (``dgm:pt``) are joined by parent-of connections (``dgm:cxn``, ordered by ``srcOrd``); the text comes
out in that tree order, one ``- item`` per point, indented by depth, under a ``SmartArt:`` line. A data part
over DIAGRAM_CAP is not parsed and the caller gets a warning naming it.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from boundread.errors import Corrupt, Refused
from boundread.formats._ooxml.package import Package
from boundread.formats._xml import attr, local

DIAGRAM_CAP = 4 * 1024 * 1024  # uncompressed bytes of a diagram data part parsed at most
_TEXT_POINTS = frozenset({"node", "asst"})  # point types that carry the user's text (not doc/pres/transitions)


def _text(point: Element) -> str:
    paras: list[str] = []
    for body in (c for c in point if local(c.tag) == "t"):
        for para in (p for p in body.iter() if local(p.tag) == "p"):
            text = " ".join("".join(t.text or "" for t in para.iter() if local(t.tag) == "t").split())
            if text:
                paras.append(text)
    return " / ".join(paras)


def diagram_items(pkg: Package, part: str) -> list[tuple[int, str]]:
    """(depth, text) of the diagram's points in tree order; points no connection reaches follow in part order."""
    root = pkg.parse(part, cap=DIAGRAM_CAP)
    if root is None:
        raise Corrupt(f"{pkg.name}: diagram part {part} is missing", "re-save the file in its application")
    points: dict[str, tuple[str, str]] = {}  # modelId -> (type, text)
    children: dict[str, list[tuple[int, str]]] = {}
    has_parent: set[str] = set()
    top: list[str] = []
    for elem in root.iter():
        name = local(elem.tag)
        if name == "pt":
            model = attr(elem, "modelId") or ""
            points[model] = (attr(elem, "type") or "node", _text(elem))
            if points[model][0] == "doc":
                top.append(model)
        elif name == "cxn" and (attr(elem, "type") or "parOf") == "parOf":
            src, dest = attr(elem, "srcId") or "", attr(elem, "destId") or ""
            order = attr(elem, "srcOrd") or "0"
            children.setdefault(src, []).append((int(order) if order.isdecimal() else 0, dest))
            has_parent.add(dest)
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    todo = [(0, model) for model in reversed(top)]
    while todo:
        depth, model = todo.pop()
        if model in seen or model not in points:
            continue
        seen.add(model)
        kind, text = points[model]
        shown = kind in _TEXT_POINTS and bool(text)
        if shown:
            out.append((depth, text))
        below = sorted(children.get(model, []), reverse=True)
        todo.extend((depth + (kind in _TEXT_POINTS), dest) for _order, dest in below)
    out.extend((0, text) for model, (kind, text) in points.items()
               if model not in seen and kind in _TEXT_POINTS and text)
    return out


def diagram_lines(pkg: Package, part: str, warnings: list[str]) -> list[str]:
    """``SmartArt:`` and its items, or [] (with a warning when the part could not be read)."""
    try:
        items = diagram_items(pkg, part)
    except (Refused, Corrupt) as exc:
        warnings.append(f"SmartArt {part} not read: {exc.what}")
        return []
    if not items:
        return []
    return ["SmartArt:", *("  " * min(depth, 8) + "- " + text for depth, text in items)]
