"""Element helpers that more than one family uses (office and sheets): local names, attributes by
local name, and the text of an ODF paragraph. Pure functions over ElementTree elements; no parsing
here (each family parses through defusedxml), so any family may import this and it imports none.

Strict OOXML and ODF use other namespaces than Transitional OOXML, so elements and attributes are
matched by their local name.
"""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False  # ElementTree for mypy only: a CSV's read loads no XML (5 ms)
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

_ODF_SKIP = frozenset({"note", "annotation", "tracked-changes", "s", "tab", "line-break", "ruby"})


def local(tag: object) -> str:
    """``{namespace}name`` -> ``name``; comments and processing instructions give ""."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def attr(elem: Element, name: str, ns_part: str = "") -> str | None:
    """An attribute by local name, whatever its namespace (``ns_part`` must occur in it if given)."""
    for key, value in elem.attrib.items():
        if key == name and not ns_part:
            return value
        if key.endswith("}" + name) and ns_part in key:
            return value
    return None


def walk(elem: Element, skip: frozenset[str]) -> Iterator[Element | str]:
    """Elements in document order, then their tail text; subtrees named in ``skip`` are left out."""
    todo: list[Element | str] = [elem]
    while todo:
        item = todo.pop()
        yield item
        if isinstance(item, str) or local(item.tag) in skip:
            continue
        for child in reversed(item):
            if child.tail:
                todo.append(child.tail)
            todo.append(child)


def odf_text(p: Element) -> str:
    """The text of an ODF ``text:p`` / ``text:h`` (odt, odp and ods cells): spaces, tabs and line
    breaks as written, a note as its citation (``[^1]``), ruby as "base (reading)", annotations and tracked
    changes left out."""
    out: list[str] = []
    for item in walk(p, _ODF_SKIP):
        if isinstance(item, str):
            out.append(item)
            continue
        name = local(item.tag)
        if name == "s":
            out.append(" " * min(int(attr(item, "c") or 1), 100))
        elif name == "tab":
            out.append("\t")
        elif name == "line-break":
            out.append("\n")
        elif name == "ruby":
            out.append(ruby_text(item, "ruby-base", "ruby-text"))
        elif name == "note":
            cites = [c.text or "" for c in item.iter() if local(c.tag) == "note-citation"]
            out.append(f"[^{cites[0] if cites else '*'}]")
        elif name not in ("annotation", "tracked-changes"):
            out.append(item.text or "")
    return "".join(out).strip()


def ruby_text(ruby: Element, base: str, reading: str) -> str:
    """Ruby (``base`` and ``reading`` children by local name) as "base (reading)", e.g. "漢字 (かんじ)":
    glued together, neither would be found as a word."""
    found = {base: "", reading: ""}
    for part in ruby:
        if local(part.tag) in found:
            found[local(part.tag)] = "".join(part.itertext())
    return f"{found[base]} ({found[reading]})" if found[reading].strip() else found[base]
