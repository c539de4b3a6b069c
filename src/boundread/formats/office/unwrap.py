"""Run wrappers mammoth drops, rewritten as plain runs before it converts a docx.

mammoth ignores an element it does not know together with everything inside it, without a word to
the caller: a simple field's result (``w:fldSimple``: a REF cross-reference, a MERGEFIELD value),
ruby (``w:ruby``: furigana over Japanese) and right-to-left runs (``w:dir``, ``w:bdo``: Arabic and
Hebrew documents). A cheap byte search finds them; only then is the document part parsed (through
defusedxml), the wrappers replaced by the runs they hold (ruby as "base (reading)"), and a small zip
of the package's XML parts handed to mammoth, so the markdown keeps its formatting and every word.
"""

from __future__ import annotations

import io
import re
import zipfile
from xml.etree.ElementTree import Element, SubElement, tostring

from boundread.formats._ooxml.package import PART_CAP, Package
from boundread.formats._xml import local

_FOUND = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:fldSimple|ruby|dir|bdo)[\s/>]")
_FLAT = frozenset({"fldSimple", "dir", "bdo"})
_CHUNK = 1 << 20
_XML_PARTS = (".xml", ".rels")


def wrapped(pkg: Package, part: str) -> bool:
    """The part holds a wrapper mammoth drops (one pass over its bytes, a chunk at a time)."""
    tail = b""
    with pkg.open(part) as fh:
        while chunk := fh.read(_CHUNK):
            if _FOUND.search(tail + chunk):
                return True
            tail = chunk[-64:]
    return False


def _run(tag: str, text: str) -> Element:
    run = Element(tag)
    t = SubElement(run, tag[: -len("r")] + "t")
    t.text = text
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return run


def _ruby_runs(run: Element) -> list[Element]:
    """A run holding ``w:ruby``: its base runs, then " (", the reading's runs, ")"."""
    out: list[Element] = []
    rest = Element(run.tag, run.attrib)
    for child in run:
        if local(child.tag) != "ruby":
            rest.append(child)
            continue
        parts = {local(c.tag): list(c) for c in child if local(c.tag) in ("rt", "rubyBase")}
        out.extend(parts.get("rubyBase", []))
        if parts.get("rt"):
            out.append(_run(run.tag, " ("))
            out.extend(parts["rt"])
            out.append(_run(run.tag, ")"))
    if any(local(c.tag) != "rPr" for c in rest):
        out.insert(0, rest)
    return out


def _flatten(children: list[Element]) -> list[Element]:
    out: list[Element] = []
    todo = list(reversed(children))
    while todo:
        child = todo.pop()
        name = local(child.tag)
        if name in _FLAT:
            todo.extend(reversed(list(child)))
        elif name == "r" and any(local(c.tag) == "ruby" for c in child):
            todo.extend(reversed(_ruby_runs(child)))
        else:
            out.append(child)
    return out


def _is_wrapper(elem: Element) -> bool:
    name = local(elem.tag)
    return name in _FLAT or (name == "r" and any(local(c.tag) == "ruby" for c in elem))


def unwrapped(pkg: Package, part: str) -> io.BytesIO | None:
    """The package with ``part`` rewritten and only its XML parts (stored); None when the part is missing or an
    XML part is too big to copy (the caller streams the document instead)."""
    parts = [i for i in pkg.infos.values() if i.filename.lower().endswith(_XML_PARTS)]
    root = pkg.parse(part)
    if root is None or sum(i.file_size for i in parts) > PART_CAP:
        return None
    for elem in list(root.iter()):
        if any(_is_wrapper(child) for child in elem):
            elem[:] = _flatten(list(elem))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for info in parts:
            if info.filename.lower() == part.lstrip("/").lower():
                zf.writestr(info.filename, tostring(root, encoding="utf-8", xml_declaration=True))
            else:
                with pkg.open(info.filename) as fh:
                    zf.writestr(info.filename, fh.read())
    out.seek(0)
    return out
