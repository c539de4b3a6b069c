"""CSV and TSV as a workbook of one sheet, named after the file's stem: rows streamed by the stdlib csv module.

Rows are records, not lines (a quoted field may hold line breaks), numbered from 1; row 1 is the header,
which ``sheets`` repeats above a slice that starts further down. Reading rows A-B is a forward scan from the
start that stops after row B: time grows with B, memory with one row (a line before row A with no quote in it
is one record, counted without being parsed: about twice as fast as the csv module's own reading). A physical
line longer than ``LINE_CHARS`` is cut there (the rest of it is skipped, and said); a field the csv module finds
longer than its limit (an unclosed quote swallowing the file) ends the read as a damaged part, after the rows
before it.

The encoding is decided as the text handler decides it (:mod:`boundread.bytelevel.charset`); the delimiter is
the one of ``, TAB ; |`` that splits the first rows into the same number of fields (a .tsv tries TAB first).
Rows are counted exactly when the file is at most ``SAMPLE_BYTES``; above that they are estimated from that
much of its start (and said to be an estimate): ``info`` never reads a big file whole.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
from collections.abc import Iterator
from pathlib import PurePath

from boundread import record as rec
from boundread.bytelevel import charset
from boundread.contract.model import Source
from boundread.formats.sheets.xlsx_peek import SheetMeta

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import IO

#: A physical line is cut here (a 2 GB line with no newline is not one row to hold): under the csv module's own
#: field limit (131,072 characters, process-wide, left alone), so a long unquoted field is cut, not an error.
LINE_CHARS = 100_000
SAMPLE_BYTES = 2_000_000  # rows counted exactly up to this size; above, estimated from this much
HEAD_ROWS = 20  # rows the delimiter is judged on
HEADER_CHARS = 300  # of the header row, in info
MOST_NOTES = 5  # cut lines named one by one in the warnings of one read
_DELIMITERS = {"csv": ",\t;|", "tsv": "\t,;|"}
_NAMES = {",": "comma", "\t": "tab", ";": "semicolon", "|": "pipe"}
ERRORS: tuple[type[BaseException], ...] = (csv.Error, OSError)


class Table(rec.Record, frozen=True):
    """What opening a CSV learns from its start: how to decode and split it, and its header."""

    encoding: str
    delimiter: str
    header: list[str]
    said: tuple[str, ...] = ()  # warnings about the encoding guess
    encoding_from: str = "utf-8"  # how the encoding was decided (charset.Choice.how)
    confidence: float | None = None  # the detector's, when it guessed


class Size(rec.Record):
    rows: int
    cols: int
    exact: bool


class Cuts(rec.Record):
    """Lines cut at ``LINE_CHARS`` during one read: the pending flag is turned into a row's note."""

    pending: bool = False
    notes: list[str] = rec.field(default_factory=list)
    count: int = 0

    def row(self, number: int) -> None:
        if not self.pending:
            return
        self.pending = False
        self.count += 1
        if self.count <= MOST_NOTES:
            self.notes.append(f"row {number:,}: a line longer than {LINE_CHARS:,} characters was cut there "
                              "(the rest of the line skipped)")

    def summary(self) -> list[str]:
        more = self.count - MOST_NOTES
        return self.notes + ([f"{more:,} more lines were cut at {LINE_CHARS:,} characters"] if more > 0 else [])


def sheet_name(src: Source) -> str:
    """The one sheet's name: the file's stem (``data`` for ``data.csv``, and for ``a.zip:dir/data.csv``, a member
    read from memory, whose name is the archive's, a colon, then the member's)."""
    last = PurePath(src.name.replace("\\", "/")).name
    if src.path is None and ":" in last:  # a member at the archive's top: "a.zip:data.csv"
        last = last.split(":", 1)[1]
    return PurePath(last).stem or last or src.name


def open_table(src: Source, override: str | None = None) -> Table:
    """The encoding, delimiter and header, from the file's first bytes only."""
    with src.open() as fh:
        sample = fh.read(charset.SAMPLE_BYTES)
    choice = charset.decide(sample, src.sniffed.encoding, override, complete=len(sample) >= src.size)
    head = sample.decode(choice.encoding, errors="replace")
    if len(sample) < src.size:  # the last line may be cut mid-way: judge on whole lines
        head = head[: max(head.rfind("\n"), 0)] or head
    delimiter = _delimiter(head, src.kind)
    try:
        first = next(csv.reader(io.StringIO(head, newline=""), delimiter=delimiter), [])
    except csv.Error:  # a first record the csv module refuses: the read says so where it meets it
        first = []
    confidence = round(choice.confidence, 2) if choice.confidence is not None else None
    return Table(choice.encoding, delimiter, first, tuple(choice.warnings()), choice.how, confidence)


def delimiter_name(delimiter: str) -> str:
    return _NAMES.get(delimiter, repr(delimiter))


def _delimiter(head: str, kind: str) -> str:
    """The delimiter that splits the first rows into one same number (more than one) of fields; else the one
    that gives the most fields to the first row; else the kind's own (comma, TAB for tsv)."""
    order = _DELIMITERS.get(kind, _DELIMITERS["csv"])
    best, widest = order[0], 1
    for delimiter in order:
        try:
            head_rows = itertools.islice(csv.reader(io.StringIO(head, newline=""), delimiter=delimiter), HEAD_ROWS)
            widths = [len(row) for row in head_rows if row]
        except csv.Error:
            continue
        if widths and min(widths) > 1 and len(set(widths)) == 1:
            return delimiter
        if widths and widths[0] > widest:
            best, widest = delimiter, widths[0]
    return best


@contextlib.contextmanager
def _text(src: Source, encoding: str) -> Iterator[IO[str]]:
    with src.open() as raw:
        # newline="": the csv module sees the line ends as they are (a CRLF inside a quoted field stays in it)
        text = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="")
        try:
            yield text
        finally:
            text.detach()


def _lines(text: IO[str], cuts: Cuts) -> Iterator[str]:
    """The physical lines, each at most ``LINE_CHARS`` characters: the rest of a longer one is skipped (read in
    bounded pieces, never held) and the cut marked for the row it falls in."""
    while line := text.readline(LINE_CHARS):
        yield _whole(text, line, cuts) if len(line) >= LINE_CHARS else line


def _whole(text: IO[str], line: str, cuts: Cuts) -> str:
    """``line`` as read at most ``LINE_CHARS``: when it did not end, the rest of it is skipped and the cut
    marked; a line end is put back on, so the record ends there."""
    if line.endswith(("\n", "\r")):
        return line
    while rest := text.readline(LINE_CHARS):
        if rest.endswith(("\n", "\r")):
            break
    cuts.pending = True
    return line + "\n"


def rows(src: Source, table: Table, first: int, max_cols: int,
         cuts: Cuts) -> Iterator[tuple[int, list[str], bool]]:
    """Records from row ``first`` on (1-based; the header is row 1): (row, its first ``max_cols`` fields, were
    non-empty fields cut). The caller stops reading when it has what it asked for."""
    with _text(src, table.encoding) as text:
        lines = _Lines(_lines(text, cuts))
        reader = csv.reader(lines, delimiter=table.delimiter)
        skipped, readline = 0, text.readline
        while skipped < first - 1:  # the rows before: a line with no quote is one record, and is not parsed
            line = readline(LINE_CHARS)  # the reader holds no line between records: reading here is safe
            if not line:
                return
            if len(line) >= LINE_CHARS:
                line = _whole(text, line, cuts)
            if '"' in line:  # it may open a quoted field that goes on: the csv module reads the record
                lines.back = line
                if next(reader, None) is None:
                    return
            skipped += 1
            if cuts.pending:
                cuts.row(skipped)
        for number, record in enumerate(reader, start=skipped + 1):
            cuts.row(number)
            cut = any(value for value in record[max_cols:])
            yield number, record[:max_cols], cut


class _Lines:
    """The lines, with one put back: the skip looks at a line, then hands it to the csv reader, which pulls only
    the lines of one record at a time (between records it holds no state)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.back: str | None = None

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        if self.back is not None:
            line, self.back = self.back, None
            return line
        return next(self.lines)


def size(src: Source, table: Table) -> Size:
    """Rows (up to the last with a value) and the widest row: counted when the file is at most
    ``SAMPLE_BYTES``, else estimated from that much of its start, scaled by bytes."""
    exact = src.size <= SAMPLE_BYTES
    with src.open() as fh:
        sample = fh.read(SAMPLE_BYTES if not exact else src.size + 1)
    text = sample.decode(table.encoding, errors="replace")
    used = len(sample)
    if not exact:  # whole lines only; the bytes they took, for the scale
        end = text.rfind("\n")
        if end > 0:
            text = text[: end + 1]
            used = max(len(text.encode(table.encoding, errors="replace")), 1)
    count = cols = 0
    cuts = Cuts()
    try:
        for number, record in enumerate(csv.reader(_lines(io.StringIO(text, newline=""), cuts),
                                                   delimiter=table.delimiter), start=1):
            if any(record):
                count = number
                cols = max(cols, len(record))
    except csv.Error:
        exact = False  # an unclosed quote in the sample: the count stops there
    if not exact:
        count = round(count * src.size / max(used, 1))
    return Size(count, cols, exact)


def measured(sheet: SheetMeta, found: Size) -> SheetMeta:
    """The sheet with its size when it was counted; an estimate stays out of it (``rows`` is a count there, and
    the row loop's clamp warnings trust it), and is given by ``info`` as such."""
    return rec.replace(sheet, rows=found.rows, cols=found.cols) if found.exact else rec.replace(sheet, cols=found.cols)
