"""A tiny HTML -> markdown converter for mammoth's output (standard library only).

Headings become ``#``, lists ``-`` / ``1.``, tables markdown pipes, links their text, and images
are dropped. Footnote links and mammoth's footnote list become ``[^1]`` and ``[^1]: ...``.
The result is a list of blocks, so the caller can write it into a sink piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset({"p", "li", "ul", "ol", "table", "tr", "td", "th", "div", "blockquote", *_HEADINGS})


@dataclass
class _Table:
    rows: int = 0
    row: list[str] = field(default_factory=list)
    cell: list[str] = field(default_factory=list)


def _note(ref: str) -> str | None:
    """Footnote links: "#footnote-3" -> "3", "#endnote-2" -> "e2"; back links ("#footnote-ref-3") and others -> None."""
    for prefix, mark in (("footnote-", ""), ("endnote-", "e")):
        if ref.startswith(prefix) and not ref.startswith(prefix + "ref-"):
            return mark + ref[len(prefix) :]
    return None


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, bool]] = []  # (markdown, is a paragraph)
        self.buf: list[str] = []
        self.heading = 0
        self.lists: list[list[int]] = []  # [ordered (0/1), counter]
        self.item_prefix: str | None = None  # the marker of a list item not written yet
        self.tables: list[_Table] = []
        self.mute = 0  # inside a link whose text is dropped (footnote back links, [1] labels)
        self.after_list = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in _BLOCKS:
            self._flush()
        if tag in _HEADINGS:
            self.heading = _HEADINGS[tag]
        elif tag in ("ul", "ol"):
            self.lists.append([int(tag == "ol"), 0])
        elif tag == "li":
            note = _note(found.get("id") or "")
            depth = max(len(self.lists) - 1, 0)
            if self.lists:
                self.lists[-1][1] += 1
            if note is not None:
                self.item_prefix = f"[^{note}]: "
            elif self.lists and self.lists[-1][0]:
                self.item_prefix = "   " * depth + f"{self.lists[-1][1]}. "
            else:
                self.item_prefix = "  " * depth + "- "
        elif tag == "table":
            self.tables.append(_Table())
        elif tag == "tr" and self.tables:
            self.tables[-1].row = []
        elif tag in ("td", "th") and self.tables:
            self.tables[-1].cell = []
        elif tag == "a":
            href = found.get("href") or ""
            note = _note(href[1:]) if href.startswith("#") else None
            if note is not None:
                self.buf.append(f"[^{note}]")
            if note is not None or href.startswith(("#footnote-ref-", "#endnote-ref-")):
                self.mute += 1
        elif tag == "br":
            self.buf.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.mute:
            self.mute -= 1
        if tag not in _BLOCKS:
            return
        self._flush()
        if tag in _HEADINGS:
            self.heading = 0
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
        elif tag == "li":
            self.item_prefix = None
        elif tag in ("td", "th") and self.tables:
            table = self.tables[-1]
            table.row.append(" ".join(" ".join(table.cell).replace("|", "\\|").split()))
            table.cell = []
        elif tag == "tr" and self.tables:
            self._row(self.tables[-1])
        elif tag == "table" and self.tables:
            done = self.tables.pop()
            if not self.tables and done.rows:
                self.blocks.append(("\n", False))

    def handle_data(self, data: str) -> None:
        if not self.mute:
            self.buf.append(data)

    def _row(self, table: _Table) -> None:
        line = "| " + " | ".join(table.row) + " |"
        if len(self.tables) > 1:
            self.tables[-2].cell.append(line)
        elif any(table.row):
            lead = "\n" if self.after_list else ""
            rule = "\n| " + " | ".join("---" for _ in table.row) + " |" if table.rows == 0 else ""
            self.blocks.append((lead + line + rule + "\n", False))
            table.rows += 1
            self.after_list = False

    def _flush(self) -> None:
        text = "".join(self.buf).strip()
        self.buf.clear()
        if not text:
            return
        if self.tables:
            self.tables[-1].cell.append(text)
            return
        counted = not (self.item_prefix or "").startswith("[^")  # footnotes are not body paragraphs
        if self.item_prefix is not None or (self.lists and not self.heading):
            prefix = self.item_prefix if self.item_prefix is not None else "  " * len(self.lists)
            self.item_prefix = None
            self.blocks.append((prefix + text.replace("\n", "\n  ") + "\n", counted))
            self.after_list = True
            return
        lead = "\n" if self.after_list else ""
        marks = "#" * self.heading + " " if self.heading else ""
        self.blocks.append((f"{lead}{marks}{text}\n\n", True))
        self.after_list = False


def convert(html: str) -> list[tuple[str, bool]]:
    """Markdown blocks (each ending in its newlines), each with whether it counts as a paragraph."""
    parser = _Converter()
    parser.feed(html)
    parser.close()
    parser._flush()
    return parser.blocks
