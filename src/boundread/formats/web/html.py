"""HTML to readable markdown-ish text with the standard library's streaming parser, bounded.

Scripts, styles, templates, SVG and the page's chrome (nav, header, footer, aside, forms) are dropped;
headings become ``#``, list items ``-``, table rows ``| a | b |``, links their text, images their alt text
in brackets. ``html.parser`` is incremental: text is fed in pieces and blocks come out as they close, so
an unclosed tag costs nothing more than a closed one (its text just runs on to the end).
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

_DROP = frozenset({"script", "style", "template", "noscript", "svg", "nav", "header", "footer", "aside",
                   "form", "iframe", "object", "head", "button", "select"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
#: What may sit in <head>; any other tag, or visible text, there starts the body as a browser does (an unclosed
#: <head>, or no <head>/<body> tags at all, must not hide the page's text).
_IN_HEAD = frozenset({"base", "link", "meta", "title", "style", "script", "noscript", "template"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset({"p", "div", "section", "article", "main", "ul", "ol", "li", "table", "tr", "blockquote",
                     "pre", "dl", "dt", "dd", "figure", "figcaption", "body", "br", "hr", *_HEADINGS})


class Converter(HTMLParser):
    """Feed HTML with ``feed``; take the finished blocks with ``take`` (what is still open stays)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.done: list[str] = []
        self.buf: list[str] = []
        self.dropping: list[str] = []  # the open dropped elements, innermost last
        self.prefix = ""
        self.cells: list[str] | None = None  # the open table row's cells
        self.in_cell = False
        self.pre = 0
        self.title: str | None = None
        self._in_title = False

    def _flush(self) -> None:
        text = "".join(self.buf)
        self.buf.clear()
        if not self.pre:
            text = " ".join(text.split())
        text = text.strip("\n")
        if text:
            self.done.append(self.prefix + text)
        self.prefix = ""

    def _end_cell(self) -> None:
        if self.in_cell and self.cells is not None:
            self.cells.append(" ".join("".join(self.buf).split()).replace("|", "\\|"))
            self.buf.clear()
        self.in_cell = False

    def _end_row(self) -> None:
        self._end_cell()
        if self.cells is not None and any(self.cells):
            self.done.append("| " + " | ".join(self.cells) + " |")
        self.cells = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if self.dropping == ["head"] and tag not in _IN_HEAD:
            self.dropping.clear()
        if self.dropping:
            if tag in _DROP and tag not in _VOID:
                self.dropping.append(tag)
            return
        if tag in _DROP:
            self.dropping.append(tag)
            return
        if tag in _BLOCKS and self.cells is None:
            self._flush()
        if tag in _HEADINGS:
            self.prefix = "#" * _HEADINGS[tag] + " "
        elif tag == "li":
            self.prefix = "- "
        elif tag == "pre":
            self.pre += 1
        elif tag == "tr":
            self._end_row()
            self.cells = []
        elif tag in ("td", "th"):
            self._end_cell()
            if self.cells is None:
                self._flush()
                self.cells = []
            self.in_cell = True
            self.buf.clear()
        elif tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self.buf.append(f"[{alt}]")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if tag in ("td", "th"):
            self._end_cell()
        elif tag in ("tr", "table"):
            self._end_row()
        elif tag in _BLOCKS and self.cells is None:
            self._flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self._in_title and self.title is None:
            self.title = " ".join(data.split()) or None
        if self.dropping == ["head"] and not self._in_title and data.strip():
            self.dropping.clear()
        if not self.dropping:
            self.buf.append(data)

    def take(self) -> list[str]:
        out, self.done = self.done, []
        return out

    def finish(self) -> list[str]:
        self.close()
        self._end_row()
        self._flush()
        return self.take()


def blocks(pieces: Iterator[str]) -> Iterator[str]:
    """The text blocks of the HTML given in pieces, as they close."""
    conv = Converter()
    for piece in pieces:
        conv.feed(piece)
        yield from conv.take()
    yield from conv.finish()


def to_text(html: str) -> str:
    return "\n\n".join(blocks(iter([html])))
