"""Spreadsheets (xlsx/xlsm, xls, ods) and delimited text (csv, tsv: one sheet named after the file, its header
repeated above a slice): list the sheets cheaply, extract a bounded block of rows.

``info`` reads the workbook's directory, never the cells (xlsx: workbook.xml and each sheet's
head; xls/ods: calamine's sheet list, with sizes only for small files). ``extract`` writes each
chosen sheet as ``--- sheet 'Name' (rows 1-200 of 3,000) ---`` (``(empty)`` for a sheet of no rows) then
csv / tsv / markdown rows of cached values, and stops at the row bound or as soon as the sink is full.
An ods sheet's cell comments follow its rows (``Comment B2 (author): text``), as an xlsx's do.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from boundread import record as rec
from boundread.contract import kinds
from boundread.contract.model import FILE, Details, Outcome, Request, Source, Span, Suggestion
from boundread.contract.sink import Sink
from boundread.errors import UsageError
from boundread.formats.sheets.books import Book, check_readable, open_book
from boundread.formats.sheets.csv_rows import SAMPLE_BYTES
from boundread.formats.sheets.tabular import RowFormatter, cell_text, trim
from boundread.formats.sheets.xlsx_peek import HUGE_CELLS, SheetMeta
from boundread.limits import Limits
from boundread.ranges import OPEN_END, span_text

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import Any

KINDS: tuple[str, ...] = kinds.SPREADSHEETS

EMPTY_RUN = 1000  # consecutive empty rows after which a sheet is taken to have ended
SAMPLE_MB = SAMPLE_BYTES // 1_000_000
MORE_SHEETS = 10  # unread sheets named one by one in `next`; past them `sheets F` lists them all


def info(src: Source, req: Request) -> Details:
    with open_book(src, encoding=req.encoding) as book:  # encrypted, too old, a bomb: raises, and info says so
        sheets = book.sheets
        macros = book.macros
        strings_bytes = book.strings_bytes
        if src.kind in kinds.TABLES:
            return _table_info(src, req, book)
    details = Details(fields={"sheets": [s.as_dict() for s in sheets], "macros": macros}, estimated=True)
    for sheet in sheets:
        if sheet.type != "worksheet":
            continue
        if src.kind == "xlsx" and src.sniffed.subtype != "xlsb" and sheet.dimension is None:
            details.warnings.append(f"sheet '{sheet.name}': size unknown (no <dimension>)")
        if sheet.rows and sheet.cols and sheet.rows * sheet.cols > HUGE_CELLS:
            details.warnings.append(f"sheet '{sheet.name}' declares {sheet.rows:,} x {sheet.cols:,} cells; "
                                    "the real data may be smaller")
    if macros:
        details.warnings.append("contains VBA macros (reported, never run)")
    details.est_chars = _estimate(src, sheets, strings_bytes)
    # the sheet table is shown already (`sheets F` would print it again): suggest reading sheets
    visible = [s for s in sheets if not s.hidden and s.type == "worksheet"]
    details.next.extend(sheet_step(sheet.name, ("--max-rows", "50")) for sheet in visible[:2])
    return details


def _table_info(src: Source, req: Request, book: Book) -> Details:
    """A CSV or TSV: its one sheet, rows (counted, or estimated from its start and marked so), columns, the
    delimiter, encoding and header; the next steps read rows (``sheets``) or grep it as text."""
    sheet = book.sheets[0]
    fields: dict[str, object] = {**book.facts, "sheets": [sheet.as_dict()], "macros": False}
    details = Details(fields=fields, est_chars=src.size, estimated=True, warnings=list(book.said))
    if fields.get("rows_estimated"):
        details.warnings.append(f"rows estimated from the first {SAMPLE_MB} MB (a forward scan would count them)")
    details.next.append(_decoded_step(sheet.name, ("--rows", "1-50"), req.encoding))
    details.next.append(("extract", FILE, "--grep", "PATTERN", "--context", "2",
                         *(("--encoding", req.encoding) if req.encoding else ())))
    return details


def _decoded_step(name: str, options: tuple[str, ...], encoding: str | None) -> Suggestion:
    """``sheets F NAME OPTIONS``; in a codec the user named (``sheets`` takes no --encoding), the same read said
    with ``extract --sheet NAME OPTIONS --encoding E``."""
    if not encoding:
        return sheet_step(name, options)
    sheet = (f"--sheet={name}",) if name.startswith("-") else ("--sheet", name)
    return ("extract", FILE, *sheet, *options, "--encoding", encoding)


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    check_readable(src)
    outcome = Outcome(unit="rows")
    with open_book(src, sizes=False, encoding=req.encoding) as book:
        outcome.warnings.extend(book.said)
        chosen = select(book.sheets, req.sheets, src.name, outcome.warnings)
        outcome.totals["sheets"] = len(book.sheets)
        if req.sheets:  # the sheets by their names, however they were asked for (an index, a name's other case)
            outcome.totals["sheet_names"] = [sheet.name for sheet in chosen]
        done: list[str] = []
        steps: list[Suggestion] = []  # every sheet's continuation: one `next` would skip the others' rows
        for index, sheet in enumerate(chosen):
            result = _write_sheet(src, book, sheet, req, sink, outcome)
            done.append(result.words)
            if result.resume_from is not None:
                steps.append(_rows_from(sheet.name, result.resume_from, req))
            if sink.full:
                steps += _unread(chosen[index + 1:], req, sink, outcome)
                break
        outcome.done = "; ".join(done)
        if steps:
            outcome.resume, *outcome.more = steps
    return outcome


def _rows_from(name: str, start: int, req: Request) -> Suggestion:
    """``sheets F NAME --rows A-B``: a sheet's rows from ``start``, a window as wide as this read's, in its
    format and columns."""
    width = req.limits.max_rows
    if req.rows:
        width = min(req.rows.last - req.rows.first + 1, width)
    words: Suggestion = ("--rows", f"{start}-{start + width - 1}")
    if req.fmt != "csv":
        words += ("--format", req.fmt)
    if req.limits.max_cols != Limits().max_cols:
        words += ("--max-cols", str(req.limits.max_cols))
    return _decoded_step(name, words, req.encoding)


def sheet_step(name: str, options: Suggestion) -> Suggestion:
    """``sheets F NAME OPTIONS``; a name that starts with ``-`` (``-neg``, ``--rows``) goes last, after ``--``,
    so that it is not read as an option: ``sheets F OPTIONS -- -neg``."""
    if name.startswith("-"):
        return ("sheets", FILE, *options, "--", name)
    return ("sheets", FILE, name, *options)


def _unread(rest: list[SheetMeta], req: Request, sink: Sink, outcome: Outcome) -> list[Suggestion]:
    """The sheets a full sink never reached: each one's first rows (the first ``MORE_SHEETS``; past them,
    ``sheets F`` lists them all), and a warning naming them when a bound (not the selection's end) stopped it."""
    rest = [sheet for sheet in rest if sheet.type != "chartsheet"]  # a chart sheet has no rows to miss
    if not rest:
        return []
    if sink.reasons:
        count = f"{len(rest)} sheets" if len(rest) > 1 else "1 sheet"
        outcome.warnings.append(f"{count} not read ({sink.reasons[-1]} first): {_names([s.name for s in rest])}"
                                " - `next` names where each goes on")
    start = max(req.rows.first, 1) if req.rows else 1
    steps = [_rows_from(sheet.name, start, req) for sheet in rest[:MORE_SHEETS]]
    return steps + ([("sheets", FILE)] if len(rest) > MORE_SHEETS else [])


def select(sheets: tuple[SheetMeta, ...], wanted: tuple[str, ...], name: str,
           warnings: list[str]) -> list[SheetMeta]:
    """The sheets asked for (names first, then 1-based indices), or every visible worksheet."""
    if not wanted:
        hidden = [s.name for s in sheets if s.hidden]
        charts = [s.name for s in sheets if not s.hidden and s.type == "chartsheet"]
        if hidden:
            warnings.append(f"skipped {len(hidden)} hidden sheet(s): {_names(hidden)} (name one to read it)")
        if charts:
            warnings.append(f"skipped chart sheet(s) {_names(charts)}: charts have no cells")
        return [s for s in sheets if not s.hidden and s.type != "chartsheet"]
    chosen = []
    for word in wanted:
        match = next((s for s in sheets if s.name == word), None)
        match = match or next((s for s in sheets if s.name.casefold() == word.strip().casefold()), None)
        if match is None and word.strip().isdigit() and 1 <= int(word) <= len(sheets):
            match = sheets[int(word) - 1]
        if match is None:
            base = Path(name).name
            known = _names([s.name for s in sheets])
            fix = f"sheets are: {known} (run `boundread sheets {'./' if base.startswith('-') else ''}{base}`)"
            raise UsageError(f"no sheet '{word}' in {base}", fix)
        chosen.append(match)
    return chosen


class _Written(rec.Record, frozen=True):
    words: str
    resume_from: int | None


def _write_sheet(src: Source, book: Book, sheet: SheetMeta, req: Request, sink: Sink, outcome: Outcome) -> _Written:
    limits = req.limits
    sheet = book.measure(sheet)
    first = max(req.rows.first, 1) if req.rows else 1
    last = req.rows.last if req.rows else limits.max_rows
    if last - first + 1 > limits.max_rows:
        last = first + limits.max_rows - 1
    if last < first:
        last = first
    total = f"{sheet.rows:,}" if sheet.rows is not None else "?"
    shown = Span(first, min(last, sheet.rows) if sheet.rows and sheet.rows >= first else last)
    span = "empty" if sheet.rows == 0 else f"rows {shown.first}-{shown.last} of {total}"  # never "1-200 of 0"
    if not sink.write(f"--- sheet '{sheet.name}' ({span}) ---\n"):
        return _Written(f"no rows of sheet '{sheet.name}'", first)
    if sheet.type == "chartsheet":
        sink.write("(a chart sheet: a chart, no cells)\n")
        _extras(src, book, sheet, last, sink, outcome)  # the chart's title, series and categories
        return _Written(f"sheet '{sheet.name}' (a chart)", None)
    width = min(sheet.cols, limits.max_cols) if sheet.cols and (sheet.rows or 0) * sheet.cols <= HUGE_CELLS \
        else None
    fmt = RowFormatter(req.fmt, width)
    if first > book.header_rows > 0 and not _header(book, sheet, fmt, sink):  # a CSV's header above the slice
        return _Written(f"no rows of sheet '{sheet.name}'", first)
    state = _Loop(first)
    if sheet.rows is not None:  # the rows to read are known: the progress line has a percent and time left
        sink.progress.start(max(min(last, sheet.rows) - first + 1, 0), "rows")
    with contextlib.closing(book.rows(sheet, first, last, limits.max_cols)) as rows:
        for number, values, cut in rows:
            sink.progress.advance(max(min(number, last) - first + 1 - sink.progress.done, 0))
            if not state.take(number, [cell_text(v) for v in values], cut, last, fmt, sink):
                break
    # a row past the range was read: the blank rows held back at its end were read too, and `next` goes on after
    covered = last if state.remained and state.written_last >= first else state.written_last
    words = _words(sheet, first, covered)
    outcome.warnings.extend(f"sheet '{sheet.name}': {note}" for note in book.notes)
    uncached = book.uncached.warning(sheet.name)
    if uncached:
        outcome.warnings.append(uncached)
    if book.broken:
        outcome.warnings.append(f"sheet '{sheet.name}': stopped at a damaged part after row "
                                f"{state.written_last} ({book.broken})")
    if state.cols_cut:
        reason = f"max_cols {limits.max_cols} reached"
        if reason not in outcome.truncated:
            outcome.truncated.append(reason)
        outcome.warnings.append(f"sheet '{sheet.name}': columns after {limits.max_cols} not shown "
                                "(raise --max-cols)")
    if state.empty_stop:
        outcome.warnings.append(f"sheet '{sheet.name}': stopped after {EMPTY_RUN:,} consecutive empty rows "
                                f"(at row {state.empty_stop:,})")
    if state.sink_stop is not None and state.sink_stop == first and state.too_long:
        # the same read again would stop at the same row: say so, and go on after it
        outcome.warnings.append(f"sheet '{sheet.name}': row {first:,} alone is longer than --max-chars "
                                f"{limits.max_chars:,} (cut): raise --max-chars to read it whole")
        return _Written(words, first + 1)
    if state.sink_stop is not None:
        return _Written(words, state.sink_stop)
    if _past_end(req, sheet, last, state):
        outcome.warnings.append(_clamped(req.rows or Span(first, last), sheet))
    if state.remained:
        capped = req.rows is None or req.rows.last > last  # the row bound, not the user's range, ended it
        reason = f"max_rows {limits.max_rows} reached"
        if capped and reason not in outcome.truncated:
            outcome.truncated.append(reason)
        return _Written(words, last + 1)
    if state.written_last < first and not sink.full and sheet.rows != 0:
        sink.write("(no values in these rows)\n")
    _extras(src, book, sheet, last, sink, outcome)  # read to the end: its comments, charts and text boxes follow
    return _Written(words, None)


def _extras(src: Source, book: Book, sheet: SheetMeta, last: int, sink: Sink, outcome: Outcome) -> None:
    """The sheet's notes, comments, charts and text boxes (xlsx, :mod:`.xlsx_extras`; an ods's cell comments,
    :mod:`.ods_comments`, of rows up to ``last``) as marked lines after its rows, within the room the sink has
    left; its warnings say what was cut or unreadable."""
    if sink.full:
        return
    found = book.extras(sheet, sink.limits.max_chars - sink.chars)
    if found is None and src.kind == "ods":
        found = _ods_comments(src, sheet, last, sink.limits.max_chars - sink.chars)
    if found is None:
        return
    for line in found.lines:
        if not sink.write(line + "\n"):
            break
    outcome.warnings.extend(found.warnings)
    reason = f"max_chars {sink.limits.max_chars} reached"
    if found.cut and reason not in outcome.truncated:  # the lines that did not fit are part of what is missing
        outcome.truncated.append(reason)


def _ods_comments(src: Source, sheet: SheetMeta, last: int, budget: int) -> Any:
    """An ods sheet's cell comments, from a second look at the package (until the book hands them over)."""
    import zipfile

    from boundread.formats.sheets import ods_rows
    from boundread.formats.sheets.ods_comments import has_comments, sheet_comments

    with src.open() as fh, zipfile.ZipFile(fh) as zf:
        if not has_comments(zf):
            return None
        return sheet_comments(zf, ods_rows.read_tables(zf, src.name, False), sheet, last, budget)


def _header(book: Book, sheet: SheetMeta, fmt: RowFormatter, sink: Sink) -> bool:
    """Write the header row(s) above a slice that starts below them; False when the sink is full."""
    with contextlib.closing(book.rows(sheet, 1, book.header_rows, sink.limits.max_cols)) as rows:
        for number, values, _cut in rows:
            if number > book.header_rows:
                break
            if not sink.write(fmt.line(trim([cell_text(v) for v in values]))):
                return False
    return True


class _Loop:
    """The per-sheet row loop's state: blank rows are held back until a row with values follows."""

    def __init__(self, first: int) -> None:
        self.first = first
        self.expected = first  # the next row number to write
        self.written_last = first - 1
        self.empty_run = 0
        self.empty_stop = 0
        self.remained = False
        self.cols_cut = False
        self.sink_stop: int | None = None
        self.too_long = False  # the row the sink stopped at is longer than the whole --max-chars

    def take(self, number: int, texts: list[str], cut: bool, last: int, fmt: RowFormatter,
             sink: Sink) -> bool:
        """Handle one row; False means stop reading this sheet."""
        cells = trim(texts)
        if not cells:
            self.empty_run += 1
            if self.empty_run >= EMPTY_RUN:
                self.empty_stop = number if number <= last else 0
                return False
            if self.empty_run % 256 == 0 and sink.deadline.expired:
                sink.expire()
                return False
            return True
        if number > last:
            self.remained = True
            return False
        self.empty_run = 0
        self.cols_cut = self.cols_cut or cut
        for blank in range(self.expected, number):
            if not sink.write(fmt.line([])):
                self.sink_stop = blank
                return False
        line = fmt.line(cells)
        if not sink.write(line):
            self.sink_stop = number
            self.too_long = len(line) > sink.limits.max_chars
            return False
        self.expected = self.written_last = number
        self.expected += 1
        return True


def _past_end(req: Request, sheet: SheetMeta, last: int, state: _Loop) -> bool:
    """The user's --rows ran past the sheet's end and the end, not a bound, stopped the read; a row read past
    the declared size (a stale <dimension>) says the size is wrong, so nothing is said."""
    if req.rows is None or req.rows.last == OPEN_END or sheet.rows is None or last <= sheet.rows:
        return False
    wrote_any = state.written_last >= state.first
    return not (state.remained or state.empty_stop) and (not wrote_any or state.written_last <= sheet.rows)


def _clamped(asked: Span, sheet: SheetMeta) -> str:
    """What a row range past the sheet's end read, as ``pages`` says of pages past a PDF's: ``asked rows
    290-320 but sheet 'S' has 301: read 290-301`` (an open end, ``290-``, says nothing: it means the end)."""
    rows = sheet.rows or 0
    read = f"read {asked.first:,}-{rows:,}" if rows >= asked.first else "no rows there"
    return f"asked rows {span_text(asked)} but sheet '{sheet.name}' has {rows:,}: {read}"


def _words(sheet: SheetMeta, first: int, written_last: int) -> str:
    size = f"{sheet.rows:,} rows" if sheet.rows is not None else "? rows"
    if written_last < first:
        return f"no rows of sheet '{sheet.name}' ({size})"
    return f"rows {Span(first, written_last)} of sheet '{sheet.name}' ({size})"


def _names(names: list[str], most: int = 20) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _estimate(src: Source, sheets: tuple[SheetMeta, ...], strings_bytes: int) -> int:
    """Characters of the whole book as csv: from the sheet XML sizes (xlsx) or declared sizes."""
    xml = sum(s.xml_bytes or 0 for s in sheets if s.type == "worksheet")
    if src.kind == "xlsx" and src.sniffed.subtype != "xlsb":
        return xml // 6 + strings_bytes * 2 // 3
    cells = sum((s.rows or 0) * (s.cols or 0) for s in sheets)
    return cells * 4 if cells else src.size // 2
