"""HTML to readable markdown-ish text with the standard library's streaming parser, bounded.

Scripts, styles, templates, SVG and the page's chrome (nav, header, footer, aside, forms) are dropped;
headings become ``#``, list items ``-``, table rows ``| a | b |``, links their text, images their alt text
in brackets. ``html.parser`` is incremental: text is fed in pieces and comes out as its blocks close, each
block followed by a blank line. Memory is bounded whatever the markup: a block longer than ``PART``
characters goes out in parts (one line still), a table cell keeps ``PART`` characters, and an unfinished
construct (a tag, a comment, a declaration) held past ``STUCK`` characters is skipped to its end, the content
of an unclosed ``<script>`` dropped as it comes; retries of a held construct wait for as much new input as is
held, so its cost stays linear (html.parser re-scans it from its ``<`` at every feed: 4 MB after ``<div `
took 27 s and 480 MB before; html.parser's tag regex holds ~100 bytes a character of a long tag).
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

PART = 64 * 1024  # characters of one block (or table cell) held before its text goes out in parts (or is cut)
STUCK = 64 * 1024  # characters of one unfinished construct held before it is skipped to its end
TITLE = 300  # characters of the <title> kept
_DROP = frozenset({"script", "style", "template", "noscript", "svg", "nav", "header", "footer", "aside",
                   "form", "iframe", "object", "head", "button", "select"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
#: What may sit in <head>; any other tag, or visible text, there starts the body as a browser does (an unclosed
#: <head>, or no <head>/<body> tags at all, must not hide the page's text).
_IN_HEAD = frozenset({"base", "link", "meta", "title", "style", "script", "noscript", "template"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
#: Content that holds its own header and footer (an article's title and byline): there they are text, not chrome.
CONTENT = frozenset({"article", "main", "section"})
_CHROME = frozenset({"header", "footer"})
_BLOCKS = frozenset({"p", "div", "section", "article", "main", "header", "footer", "ul", "ol", "li", "table", "tr",
                     "blockquote", "pre", "dl", "dt", "dd", "figure", "figcaption", "body", "br", "hr", *_HEADINGS})


class Converter(HTMLParser):
    """Feed HTML with ``feed``; take the text written so far with ``take``, then ``finish``. A block's text comes
    out once it closes, followed by a blank line (a long one in parts); what is still open stays."""

    def __init__(self, content: int = 0) -> None:
        super().__init__(convert_charrefs=True)
        self.content = content  # open article/main/section elements (a section of a page starts inside some)
        self.done: list[str] = []
        self.buf: list[str] = []
        self.held = 0  # characters in buf
        self.open_block = False  # part of the current block went out already (a long block)
        self.dropping: list[str] = []  # the open dropped elements, innermost last
        self.prefix = ""
        self.cells: list[str] | None = None  # the open table row's cells
        self.in_cell = False
        self.pre = 0
        self.title: str | None = None
        self._in_title = False
        self.skipped = 0  # unfinished constructs over STUCK characters skipped
        self.cut_cells = 0  # table cells cut at PART characters
        self._cell_cut = False
        self._waiting: list[str] = []  # input held back while the parser is stuck on a long construct
        self._waiting_len = 0
        self._skip_to: str | None = None  # skipping a construct: the text that ends it
        self._skip_tail = ""

    def feed(self, data: str) -> None:
        if self._skip_to is not None:
            data = self._skip(data)
            if not data:
                return
        self._waiting.append(data)
        self._waiting_len += len(data)
        if self._waiting_len < len(self.rawdata):  # stuck on a construct: retry when the input has doubled
            return
        self._resume()

    def _resume(self) -> None:
        data = "".join(self._waiting)
        self._waiting.clear()
        self._waiting_len = 0
        super().feed(data)
        if len(self.rawdata) > STUCK:
            self._unstick()

    def _skip(self, data: str) -> str:
        """What follows the end of the construct being skipped in ``data`` ("" while it goes on)."""
        end = self._skip_to or ""
        joined = self._skip_tail + data
        at = joined.find(end)
        if at < 0:
            self._skip_tail = joined[len(joined) - len(end) + 1:]
            return ""
        self._skip_to, self._skip_tail = None, ""
        return joined[at + len(end):]

    def _unstick(self) -> None:
        """The parser holds more than STUCK characters of one construct: a script's or style's text is dropped
        (it is never shown) but for a tail that may hold the start of its end tag; a tag, comment or declaration
        is skipped to its end, as a browser hides it."""
        held = self.rawdata
        if self.cdata_elem:
            self.rawdata = held[-64:]
            return
        self.skipped += 1
        self.rawdata = ""
        self._skip_to = "-->" if held.startswith("<!--") else ">"
        rest = self._skip(held[1:])
        if rest:
            self.feed(rest)

    def _put(self, text: str, end: bool) -> None:
        """Write a block's text (``end``: its last part, then a blank line)."""
        if not self.pre:
            lead = self.open_block and text[:1].isspace()
            text = " ".join(text.split())
            text = " " + text if lead and text else text
        else:
            text = text if self.open_block else text.lstrip("\n")
            text = text.rstrip("\n") if end else text
        if text or (end and self.open_block):
            self.done.append(("" if self.open_block else self.prefix) + text + ("\n\n" if end else ""))
            self.open_block = not end
        if end:
            self.prefix = ""

    def _flush(self) -> None:
        text = "".join(self.buf)
        self.buf.clear()
        self.held = 0
        self._put(text, end=True)

    def _part(self) -> None:
        """A block over PART characters: its text up to the last space (line break in <pre>) goes out."""
        text = "".join(self.buf)
        cut = text.rfind("\n") if self.pre else max(text.rfind(" "), text.rfind("\n"), text.rfind("\t"))
        cut = cut if cut > 0 else len(text)
        self.buf[:] = [text[cut:]]
        self.held = len(text) - cut
        self._put(text[:cut], end=False)

    def _end_cell(self) -> None:
        if self.in_cell and self.cells is not None:
            self.cells.append(" ".join("".join(self.buf).split()).replace("|", "\\|"))
            self.buf.clear()
            self.held = 0
            if sum(len(c) for c in self.cells) > PART:  # a row of megabytes: what it has so far is one line
                self.done.append("| " + " | ".join(self.cells) + " |\n\n")
                self.cells = []
        self.in_cell = False

    def _end_row(self) -> None:
        self._end_cell()
        if self.cells is not None and any(self.cells):
            self.done.append("| " + " | ".join(self.cells) + " |\n\n")
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
        if tag in _DROP and not (tag in _CHROME and self.content):
            self.dropping.append(tag)
            return
        self.content += tag in CONTENT
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
            self.held = 0
            self._cell_cut = False
        elif tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self._data(f"[{alt[:PART]}]")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if tag in CONTENT:
            self.content = max(0, self.content - 1)
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
            self.title = " ".join(data[:TITLE].split()) or None
        if self.dropping == ["head"] and not self._in_title and data.strip():
            self.dropping.clear()
        if not self.dropping:
            self._data(data)

    def _data(self, data: str) -> None:
        if self.cells is not None:  # in a table row: a cell keeps PART characters (text between cells goes)
            if self.held >= PART:
                self.cut_cells += self.in_cell and not self._cell_cut
                self._cell_cut = True
                return
            data = data[:PART - self.held]
        self.buf.append(data)
        self.held += len(data)
        if self.held > PART:
            self._part()

    def take(self) -> list[str]:
        out, self.done = self.done, []
        return out

    def finish(self) -> list[str]:
        if self._waiting:
            self._resume()
        self.close()
        self._end_row()
        self._flush()
        return self.take()


def text_of(pieces: Iterator[str]) -> Iterator[str]:
    """The text of the HTML given in pieces, as its blocks close (each ends with a blank line)."""
    conv = Converter()
    for piece in pieces:
        conv.feed(piece)
        yield from conv.take()
    yield from conv.finish()


def to_text(html: str) -> str:
    return "".join(text_of(iter([html]))).removesuffix("\n\n")
