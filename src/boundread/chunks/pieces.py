"""What the splitter takes and gives: pieces of text (with the unit they belong to and how good a place to cut
before them is), and finished chunks."""

from __future__ import annotations

from dataclasses import dataclass, field

NEVER, LINE, PARAGRAPH, HEADING, UNIT = -1, 0, 1, 2, 3


@dataclass(eq=False)
class Unit:
    """A page, slide, sheet or archive member: what a span names."""

    label: str  # page | slide | sheet | member
    number: int  # the page or slide number; the sheet's or member's place in the stream
    name: str = ""  # a sheet's or member's name
    headers: list[Piece] = field(default_factory=list)  # repeated when a chunk continues the unit
    cuts: int = 0  # how many chunk boundaries fell inside it


@dataclass(frozen=True)
class Origin:
    """Where a piece of plain text came from: its block's raw bytes and offset in the file, and the newlines of
    the block before the piece (a piece cut in two keeps the block). Maps a boundary back to a byte offset."""

    offset: int
    raw: bytes  # LF or CRLF line ends only
    newlines: int = 0
    at_line: bool = True  # the piece starts a line: a byte offset to read on from

    def after(self, head: str) -> Origin:
        """The origin of what follows ``head`` in the piece."""
        return Origin(self.offset, self.raw, self.newlines + head.count("\n"),
                      head.endswith("\n") or (self.at_line and not head))

    def byte(self) -> int:
        at = -1
        for _ in range(self.newlines):
            at = self.raw.find(b"\n", at + 1)
        return self.offset + at + 1


@dataclass(eq=False)
class Piece:
    text: str
    level: int  # how good a place to cut before this piece is
    unit: Unit | None = None
    header: bool = False
    row: int | None = None  # a sheet row's number
    splittable: bool = True  # may be cut at its own line breaks when it does not fit
    origin: Origin | None = None  # plain text read by offset: where it starts in the file
    paragraphs: bool = True  # a blank line inside is a better cut than a line break (not for plain text, whose
    # cuts must not depend on how it was read in blocks: --from reads from an offset)
    known_newlines: int = -1  # the text's newlines when the maker counted them already (-1: not counted)

    def newlines(self) -> int:
        """The text's newlines, counted once."""
        if self.known_newlines < 0:
            self.known_newlines = self.text.count("\n")
        return self.known_newlines


@dataclass(frozen=True)
class Cut:
    """One finished chunk: ``text`` is what its file holds; its first ``repeated`` characters repeat earlier text."""

    index: int
    text: str
    repeated: int
    first_line: int
    last_line: int
    span: str
