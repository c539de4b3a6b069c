"""Comments on PowerPoint slides, as ``Comment (author): text`` lines (the way docx prints its comments).

Two formats: legacy comments (``ppt/comments/comment1.xml``, ``p:cm`` with ``p:text``, authors in
``ppt/commentAuthors.xml``) and modern threaded ones (``ppt/comments/modernComment_*.xml``, ``p188:cm``
with a ``txBody`` and a ``replyLst``, authors in ``ppt/authors.xml``). A slide names its comment part with
a relationship whose type ends in ``/comments`` in both.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from boundread.errors import Corrupt, Refused
from boundread.formats._ooxml.package import Package
from boundread.formats._xml import attr, local

AUTHORS_CAP = 1 << 20  # bytes of an authors part parsed at most
COMMENTS_CAP = 4 * 1024 * 1024  # bytes of one slide's comment part parsed at most


def _authors(pkg: Package) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in ("ppt/commentAuthors.xml", "ppt/authors.xml"):
        try:
            root = pkg.parse(part, cap=AUTHORS_CAP)
        except (Refused, Corrupt):
            continue  # the comments still read, with their author ids
        for elem in root.iter() if root is not None else ():
            if local(elem.tag) in ("cmAuthor", "author") and attr(elem, "id") is not None:
                found[attr(elem, "id") or ""] = attr(elem, "name") or attr(elem, "initials") or ""
    return found


def _body(elem: Element) -> str:
    """A comment's text: legacy ``p:text``, or the paragraphs of a modern ``txBody``."""
    for child in elem:
        name = local(child.tag)
        if name == "text":
            return " ".join((child.text or "").split())
        if name == "txBody":
            paras = (" ".join("".join(t.text or "" for t in p.iter() if local(t.tag) == "t").split())
                     for p in child.iter() if local(p.tag) == "p")
            return " / ".join(p for p in paras if p)
    return ""


def comment_lines(pkg: Package, parts: list[str], warnings: list[str]) -> list[str]:
    """The comments of a slide's comment parts, replies after the comment they answer."""
    lines: list[str] = []
    authors: dict[str, str] | None = None
    for part in parts:
        try:
            root = pkg.parse(part, cap=COMMENTS_CAP)
        except (Refused, Corrupt) as exc:
            warnings.append(f"comments {part} not read: {exc.what}")
            continue
        for elem in root.iter() if root is not None else ():
            if local(elem.tag) not in ("cm", "reply"):
                continue
            text = _body(elem)
            if not text:
                continue
            if authors is None:
                authors = _authors(pkg)
            who = authors.get(attr(elem, "authorId") or "", "") or "unknown"
            lines.append(f"Comment ({who}): {text}")
    return lines
