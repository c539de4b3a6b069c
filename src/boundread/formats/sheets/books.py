"""Open a workbook of any spreadsheet kind behind one small interface: its sheets, and their rows.

xlsx and ods go through our own zip + defusedxml peek and row stream (bounded by what is asked);
xls and xlsb go through python-calamine, which loads a whole sheet to read it (calamine refuses cell-count
bombs itself, quickly: "Cell limit exceeded"; BIFF8 caps a sheet at 65,536 x 256 anyway). Library
errors become boundread errors here.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Generator, Iterator
from pathlib import Path

from boundread import record as rec
from boundread.bytelevel.ole import stream_names as ole_stream_names
from boundread.contract import kinds
from boundread.contract.model import Source
from boundread.errors import Corrupt, Encrypted, Refused, Unsupported
from boundread.formats.sheets.cellfmt import Uncached
from boundread.formats.sheets.xlsx_peek import SheetMeta, read_workbook

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    import zipfile
    from typing import Any

    #: (1-based row, values of columns 1..max_cols, columns were cut)
    Rows = Generator[tuple[int, list[Any], bool], None, None]

SMALL = 5 * 1024 * 1024  # xls: sheet sizes in info only below this (calamine loads whole sheets)

_BIFF = {b"\x09\x00": "BIFF2", b"\x09\x02": "BIFF3", b"\x09\x04": "BIFF4"}
_STATES = {"Visible": "visible", "Hidden": "hidden", "VeryHidden": "veryHidden"}
_TYPES = {"WorkSheet": "worksheet", "ChartSheet": "chartsheet", "DialogSheet": "dialogsheet",
          "MacroSheet": "macrosheet", "Vba": "vba"}


class Book(rec.Record):
    sheets: tuple[SheetMeta, ...]
    macros: bool = False
    strings_bytes: int = 0
    _rows: Any = None  # (sheet, first, last, max_cols) -> Rows
    _errors: tuple[type[BaseException], ...] = ()
    broken: str | None = None  # why the last rows() stopped early on a damaged sheet
    #: formula cells the last rows() read without a computed value (xlsx)
    uncached: Uncached = rec.field(default_factory=Uncached)
    _measure: Any = None  # (sheet) -> sheet with rows/cols filled in, when the listing left them out
    header_rows: int = 0  # csv: row 1 is a header, repeated above a slice that starts below it
    facts: dict[str, Any] = rec.field(default_factory=dict)  # csv: encoding, delimiter, rows... for info
    said: list[str] = rec.field(default_factory=list)  # what opening it must say (an encoding guess)
    notes: list[str] = rec.field(default_factory=list)  # what the last rows() must say (lines cut)
    _extras: Any = None  # xlsx: (sheet, budget) -> xlsx_extras.SheetExtras (comments, charts, text boxes)

    def extras(self, sheet: SheetMeta, budget: int) -> Any:
        """What the sheet holds besides its cells, as marked lines within ``budget`` characters (an
        ``xlsx_extras.SheetExtras``); None for a kind that has none read (xls, ods, csv)."""
        return None if self._extras is None else self._extras(sheet, budget)

    def measure(self, sheet: SheetMeta) -> SheetMeta:
        """The sheet with its size, loading it if needed (calamine loads a sheet to read it anyway)."""
        if self._measure is None or sheet.rows is not None or sheet.type != "worksheet":
            return sheet
        try:
            measured: SheetMeta = self._measure(sheet)
        except self._errors:
            return sheet
        return measured

    def rows(self, sheet: SheetMeta, first: int, last: int, max_cols: int) -> Rows:
        """The sheet's rows from ``first``; a damaged part ends the rows and sets ``broken``."""
        self.broken = None
        self.uncached = Uncached()
        self.notes = []
        try:
            yield from self._rows(sheet, first, last, max_cols)
        except self._errors as exc:
            self.broken = _short(exc)


def _nothing() -> Rows:
    yield from ()


def check_readable(src: Source) -> None:
    """Encrypted workbooks and pre-OLE Excel files stop here, before any library sees them."""
    if src.sniffed.encrypted:
        app = "LibreOffice" if src.kind == "ods" else "Excel"
        odf = " (ODF encryption, which boundread cannot decrypt)" if src.sniffed.subtype == "encrypted-odf" else ""
        raise Encrypted(f"{src.name} is password-protected{odf}", f"remove the password in {app} and save a copy")
    if src.sniffed.subtype == "biff2-4":
        with src.open() as fh:
            version = _BIFF.get(fh.read(2), "BIFF4")
        raise Unsupported(f"{src.name} is an Excel 2-4 worksheet ({version}), too old to read",
                          "open it in Excel or LibreOffice and save as .xlsx")


@contextlib.contextmanager
def open_book(src: Source, *, sizes: bool = True, encoding: str | None = None) -> Iterator[Book]:
    """The workbook, open for the duration of the block. ``sizes``: xls/ods sheet sizes (costly); a CSV's rows,
    counted when small, else estimated. ``encoding``: a CSV's codec, the user's, over the guess."""
    check_readable(src)
    if src.kind in kinds.TABLES:
        yield _csv(src, sizes, encoding)
    elif src.kind == "xlsx" and src.sniffed.subtype != "xlsb":
        with _xlsx(src) as book:
            yield book
    elif src.kind == "ods":
        with _ods(src, sizes) as book:
            yield book
    else:
        with _calamine(src, sizes) as book:
            yield book


def _csv(src: Source, sizes: bool, encoding: str | None) -> Book:
    """A CSV or TSV: one sheet named after the file, rows streamed by the csv module (:mod:`.csv_rows`)."""
    from boundread.formats.sheets import csv_rows

    table = csv_rows.open_table(src, encoding)
    sheet = SheetMeta(index=1, name=csv_rows.sheet_name(src))
    facts: dict[str, Any] = {"encoding": table.encoding, "encoding_from": table.encoding_from,
                             **({"encoding_confidence": table.confidence} if table.confidence is not None else {}),
                             "delimiter": csv_rows.delimiter_name(table.delimiter),
                             "header": table.delimiter.join(table.header)[:csv_rows.HEADER_CHARS]}
    if sizes:
        found = csv_rows.size(src, table)
        sheet = csv_rows.measured(sheet, found)
        facts.update(rows=found.rows, rows_estimated=not found.exact, columns=found.cols)

    def rows(sheet: SheetMeta, first: int, last: int, max_cols: int) -> Rows:
        cuts = csv_rows.Cuts()
        try:
            yield from csv_rows.rows(src, table, first, max_cols, cuts)
        finally:
            book.notes.extend(cuts.summary())

    def measure(sheet: SheetMeta) -> SheetMeta:  # a small file is counted (a big one's count is an estimate)
        return csv_rows.measured(sheet, csv_rows.size(src, table)) if src.size <= csv_rows.SAMPLE_BYTES else sheet

    book = Book((sheet,), _rows=rows, _errors=csv_rows.ERRORS, _measure=measure, header_rows=1, facts=facts,
                said=list(table.said))
    return book


@contextlib.contextmanager
def _xlsx(src: Source) -> Iterator[Book]:
    import zipfile  # a workbook's, not a CSV's (10 ms of start-up)
    import zlib
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException

    from boundread.formats.sheets import xlsx_rows

    try:
        with src.open() as fh, zipfile.ZipFile(fh) as zf:
            workbook = read_workbook(zf)
            for part in (workbook.strings_part, workbook.styles_part):
                if part is not None and _declares_dtd(zf, part):  # info says so, not only the first read
                    raise DefusedXmlException
            dates = xlsx_rows.date_styles(zf, workbook.styles_part)
            strings = xlsx_rows.SharedStrings(zf, workbook.strings_part)

            def rows(sheet: SheetMeta, first: int, last: int, max_cols: int) -> Rows:
                if sheet.part is None:
                    return _nothing()
                return xlsx_rows.stream_rows(zf, sheet.part, workbook, strings, dates, first, max_cols,
                                             book.uncached)

            def extras(sheet: SheetMeta, budget: int) -> Any:
                if sheet.part is None:
                    return None
                from boundread.formats.sheets.xlsx_extras import sheet_extras

                return sheet_extras(zf, sheet.part, sheet.name, src.name, budget)

            try:
                damaged = (ParseError, zlib.error, EOFError, OSError, zipfile.BadZipFile)  # a bomb is no damage
                book = Book(workbook.sheets, workbook.macros, workbook.strings_bytes, rows, damaged, _extras=extras)
                yield book
            finally:
                strings.close()
    except DefusedXmlException:
        raise Refused(f"{src.name} declares XML entities or a DTD (a possible XML bomb)",
                      "open it in Excel and save a copy") from None
    except (zipfile.BadZipFile, KeyError, ParseError, zlib.error, EOFError, NotImplementedError) as exc:
        raise Corrupt(f"{src.name} is not a readable xlsx ({_short(exc)})",
                      "open it in Excel or LibreOffice and save a copy") from None


_PROLOG = 64 * 1024


def _declares_dtd(zf: zipfile.ZipFile, part: str) -> bool:
    """True when the part's prolog (what precedes its root element) declares a DTD or entities."""
    with zf.open(part) as stream:
        head = stream.read(_PROLOG)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = head.decode("utf-16", "replace").encode()
    root = re.search(rb"<[A-Za-z_]", head)
    prolog = head[: root.start()] if root else head
    return b"<!DOCTYPE" in prolog or b"<!ENTITY" in prolog


@contextlib.contextmanager
def _ods(src: Source, sizes: bool) -> Iterator[Book]:
    import zipfile
    import zlib
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException

    from boundread.formats.sheets import ods_rows

    try:
        with src.open() as fh, zipfile.ZipFile(fh) as zf:
            if ods_rows.encrypted(zf):
                raise Encrypted(f"{src.name} is password-protected",
                                "remove the password in LibreOffice and save a copy")
            tables = ods_rows.read_tables(zf, src.name, sizes)

            def rows(sheet: SheetMeta, first: int, last: int, max_cols: int) -> Rows:
                return ods_rows.sheet_rows(zf, tables, sheet, first, last, max_cols, src.name)

            def measure(sheet: SheetMeta) -> SheetMeta:
                return ods_rows.measure(zf, tables, sheet, src.name)

            damaged = (ParseError, zlib.error, EOFError, OSError, zipfile.BadZipFile)
            macros = any(name.startswith("Basic/") for name in zf.namelist())
            yield Book(tables.sheets, macros, 0, rows, damaged, _measure=measure)
    except DefusedXmlException:
        raise Refused(f"{src.name} declares XML entities or a DTD (a possible XML bomb)",
                      "open it in LibreOffice and save a copy") from None
    except RuntimeError as exc:  # zipfile: a member encrypted the zip way
        if "encrypted" not in str(exc):
            raise
        raise Encrypted(f"{src.name} is password-protected ({_short(exc)})",
                        "remove the password in LibreOffice and save a copy") from None
    except (zipfile.BadZipFile, KeyError, ParseError, zlib.error, EOFError, NotImplementedError) as exc:
        raise Corrupt(f"{src.name} is not a readable ods ({_short(exc)})",
                      "open it in LibreOffice and save a copy") from None


@contextlib.contextmanager
def _calamine(src: Source, sizes: bool) -> Iterator[Book]:
    import python_calamine as pc

    errors = (pc.CalamineError, pc.ZipError, pc.XmlError, pc.WorksheetNotFound, ValueError, OSError)
    with contextlib.ExitStack() as stack:
        ext = "xlsb" if src.sniffed.subtype == "xlsb" else src.kind
        if src.path is not None and src.path.suffix.lower() == f".{ext}":
            path = str(src.path)
        else:  # calamine picks the reader by extension; from_filelike hides the real error in a guess
            import tempfile  # an .xls spilled to disk only

            spill = stack.enter_context(tempfile.TemporaryDirectory(prefix="boundread-"))
            path = str(Path(spill) / f"member.{ext}")
            if src.path is not None:  # named otherwise (book.xlsx that is an xlsb): a link, not a copy
                Path(path).symlink_to(src.path.resolve())
            else:
                with open(path, "wb") as out:
                    out.write(src.data or b"")
        try:
            wb = pc.CalamineWorkbook.from_path(path)
        except pc.PasswordError:
            raise Encrypted(f"{src.name} is password-protected", "remove the password, save a copy") from None
        except errors as exc:
            raise _calamine_error(src, exc) from None
        with _calamine_book(src, wb, sizes, errors) as book:
            yield book


@contextlib.contextmanager
def _calamine_book(
    src: Source, wb: Any, sizes: bool, errors: tuple[type[BaseException], ...]
) -> Iterator[Book]:
    try:
        sheets = []
        for index, meta in enumerate(wb.sheets_metadata, start=1):
            kind = _TYPES.get(str(meta.typ).rsplit(".", 1)[-1], "worksheet")
            rows = cols = None
            if sizes and src.size < SMALL and kind == "worksheet":
                end = wb.get_sheet_by_name(meta.name).end
                rows, cols = (end[0] + 1, end[1] + 1) if end else (0, 0)
            sheets.append(SheetMeta(index=index, name=meta.name, type=kind, rows=rows, cols=cols,
                                    state=_STATES.get(str(meta.visible).rsplit(".", 1)[-1], "visible")))

        loaded: dict[str, Any] = {}

        def load(name: str) -> Any:
            if name not in loaded:
                loaded.clear()
                loaded[name] = wb.get_sheet_by_name(name)
            return loaded[name]

        def measure(sheet: SheetMeta) -> SheetMeta:
            end = load(sheet.name).end
            rows, cols = (end[0] + 1, end[1] + 1) if end else (0, 0)
            return rec.replace(sheet, rows=rows, cols=cols)

        def read(sheet: SheetMeta, first: int, last: int, max_cols: int) -> Rows:
            data = load(sheet.name).to_python(skip_empty_area=False, nrows=last + 1000)
            for number, row in enumerate(data[first - 1:], start=first):
                cut = any(value not in ("", None) for value in row[max_cols:])
                yield number, list(row[:max_cols]), cut

        yield Book(tuple(sheets), _has_macros(src), 0, read, errors, _measure=measure)
    except errors as exc:
        raise _calamine_error(src, exc) from None
    finally:
        wb.close()


def _calamine_error(src: Source, exc: BaseException) -> Exception:
    text = _short(exc)
    if "cell limit" in text.lower():
        return Refused(f"{src.name} declares too many cells ({text}): a spreadsheet bomb",
                       "do not open it; ask for a sane copy")
    if "password" in text.lower() or "encrypt" in text.lower():
        return Encrypted(f"{src.name} is password-protected", "remove the password and save a copy")
    return Corrupt(f"{src.name} is not a readable {src.kind} ({text})",
                   "open it in Excel or LibreOffice and save as .xlsx")


def _has_macros(src: Source) -> bool:
    """xls: a _VBA_PROJECT_CUR stream. Never run, only noticed."""
    try:
        with src.open() as fh:
            return "_VBA_PROJECT_CUR" in ole_stream_names(fh)
    except (OSError, ValueError):
        return False


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
