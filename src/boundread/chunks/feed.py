"""From what a format handler writes to the splitter's pieces: the sink handlers write into, one feeder per family.

The handlers are the ones ``extract`` runs, writing the same text with the same markers (``--- page 3 / 12
---``, ``--- slide 2 / 9 ---``, ``--- sheet 'Lista 3' (rows 1-800 of 800) ---``); a feeder only says where
that text may be cut. Nothing is kept beyond the splitter's one chunk (and a line shorter than a chunk).
"""

from __future__ import annotations

import re

from boundread.chunks.split import HEADING, LINE, NEVER, PARAGRAPH, UNIT, Piece, Splitter, Unit
from boundread.contract import kinds
from boundread.contract.sink import Sink
from boundread.limits import Deadline, Limits

# ``--- page 3 / 12 ---``; a web page's whole read names no total (``--- section 3 ---``, ``--- section 1: top...``)
_PAGE = re.compile(r"--- (page|slide|cell|chapter|section) (\d+)(?:[ :][^\n]*)? ---\n")
_SHEET = re.compile(r"--- sheet '(.*)' \(rows (\d+)-\d+ of [^\n]*\) ---\n")

SHEETS = kinds.WORKBOOKS
DOCUMENTS = kinds.DOCUMENTS
PAGED = kinds.PAGED
ARCHIVES = tuple(k for k in kinds.ARCHIVES if k not in kinds.STREAMS)  # one stream is text


class Feeder:
    """Lines: text, logs, decompressed .gz, OCR text. Whole lines go on; a line longer than a chunk is cut."""

    overlap_by = "lines"

    def __init__(self, splitter: Splitter, outer: Unit | None = None) -> None:
        self.splitter = splitter
        self.outer = outer  # the archive member this text belongs to
        self._partial = ""
        self._at_start = True  # the next piece starts a line

    def feed(self, text: str) -> bool:
        data = self._partial + text
        end = data.rfind("\n") + 1
        if end == 0:
            self._partial = data
            if len(data) <= self.splitter.budget:
                return True
            end = len(data)  # a line longer than a chunk: pass it on in parts
        self._partial = data[end:]
        return self._put(data[:end])

    def finish(self) -> None:
        if self._partial:
            self._put(self._partial)
            self._partial = ""

    def _put(self, text: str) -> bool:
        level = LINE if self._at_start else NEVER
        self._at_start = text.endswith("\n")
        return self.splitter.add(Piece(text, level, self.outer, paragraphs=False))


class PagedFeeder(Feeder):
    """PDF pages and slides: a cut before a page marker is best; a page larger than a chunk is cut at its
    paragraphs, else its lines."""

    def __init__(self, splitter: Splitter, outer: Unit | None = None) -> None:
        super().__init__(splitter, outer)
        self._unit: Unit | None = outer

    def feed(self, text: str) -> bool:
        marker = _PAGE.match(text)
        if marker is None:
            return super().feed(text)
        super().finish()
        if self.outer is None:
            self._unit = Unit(marker.group(1), int(marker.group(2)))
        if not self.splitter.add(Piece(marker.group(0), UNIT, self._unit, header=self.outer is None)):
            return False
        self._at_start = False  # no cut between a marker and its page
        return super().feed(text[marker.end():])

    def _put(self, text: str) -> bool:
        level = LINE if self._at_start else NEVER
        self._at_start = text.endswith("\n")
        return self.splitter.add(Piece(text, level, self._unit))


class SheetFeeder(Feeder):
    """Workbooks: one write is one row (its cells may hold line breaks). A cut before a sheet is best; a chunk
    that continues a sheet repeats its marker and its header row (the first row with values)."""

    overlap_by = "pieces"

    def __init__(self, splitter: Splitter, outer: Unit | None = None, *, names_line: bool = False) -> None:
        super().__init__(splitter, outer)
        self._unit: Unit | None = outer
        self._row = 0
        self._header_due = False
        self._sheets = 0
        self._names_line = names_line  # a database table: its first line names the columns, it is no row

    def feed(self, text: str) -> bool:
        marker = _SHEET.fullmatch(text)
        if marker is not None:
            self._sheets += 1
            if self.outer is None:
                self._unit = Unit("sheet", self._sheets, marker.group(1))
            self._row = int(marker.group(2))
            self._header_due = True
            return self.splitter.add(Piece(text, UNIT, self._unit, header=self.outer is None))
        header = self._header_due and text.strip() != ""
        if header and self._names_line:  # counted as no row, so a chunk's rows are the table's own
            self._header_due = False
            return self.splitter.add(Piece(text, NEVER, self._unit, header=self.outer is None, splittable=False))
        row, self._row = self._row, self._row + 1
        level = NEVER if self._header_due else LINE
        self._header_due = self._header_due and not header
        return self.splitter.add(Piece(text, level, self._unit, header=header and self.outer is None,
                                       row=row, splittable=False))


class DocumentFeeder(Feeder):
    """Word and ODF: one write is one block (a heading, a paragraph, a list item, a table row). A cut before a
    heading is best, then between paragraphs; overlap repeats paragraphs."""

    overlap_by = "pieces"

    def __init__(self, splitter: Splitter, outer: Unit | None = None) -> None:
        super().__init__(splitter, outer)
        self._after_blank = True

    def feed(self, text: str) -> bool:
        if not text:
            return True
        level = HEADING if text.lstrip("\n").startswith("#") else PARAGRAPH if self._after_blank else LINE
        if not self._at_start:
            level = NEVER
        self._after_blank = text.endswith("\n\n")
        self._at_start = text.endswith("\n")
        return self.splitter.add(Piece(text, level, self.outer))


def feeder_for(kind: str, splitter: Splitter, outer: Unit | None = None) -> Feeder:
    if kind in PAGED:
        return PagedFeeder(splitter, outer)
    if kind in SHEETS:
        return SheetFeeder(splitter, outer, names_line=kind in (*kinds.DATABASES, *kinds.COLUMNAR))
    if kind in DOCUMENTS:
        return DocumentFeeder(splitter, outer)
    return Feeder(splitter, outer)


def overlap_by(kind: str) -> str:
    return "pieces" if kind in SHEETS or kind in DOCUMENTS else "lines"


class ChunkSink(Sink):
    """A Sink that keeps nothing: every write goes through a feeder to the splitter, which writes chunk files.
    The handlers see the usual Sink (the deadline, ``full`` once the last chunk allowed is written)."""

    def __init__(self, limits: Limits, deadline: Deadline, splitter: Splitter, feeder: Feeder) -> None:
        super().__init__(limits, deadline)
        self.splitter = splitter
        self.feeder = feeder
        self.pending: Piece | None = None  # an archive member's marker, written before its first text
        self._last = ""

    def text(self) -> str:
        return self._last  # the text handler asks whether the text ended with a newline

    def write(self, text: str) -> bool:
        if self.full:
            return False
        if self.deadline.expired:
            self.expire()
            return False
        if text:
            self.chars += len(text)
            self.lines += text.count("\n")
            self._last = text[-1:]
            self._marker()
            if not self.feeder.feed(text):
                self._stop(f"max_chunks {self.splitter.limit:,} reached")
        return not self.full

    def write_piece(self, piece: Piece) -> bool:
        """A piece made by a reader of its own (plain text by offset), past the feeder."""
        if self.full:
            return False
        if self.deadline.expired:
            self.expire()
            return False
        self.chars += len(piece.text)
        self._last = piece.text[-1:]
        self._marker()
        if not self.splitter.add(piece):
            self._stop(f"max_chunks {self.splitter.limit:,} reached")
        return not self.full

    def _marker(self) -> None:
        """The pending archive member's marker, before the member's first text."""
        if self.pending is not None:
            marker, self.pending = self.pending, None
            self.splitter.add(marker)

    def close(self) -> None:
        if not self.full:
            self.feeder.finish()
            if self.splitter.stopped:
                self._stop(f"max_chunks {self.splitter.limit:,} reached")
