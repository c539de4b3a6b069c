"""Read an ods workbook the bounded way: sheet names by a byte scan, rows by a streaming parse.

An ods keeps every sheet in one ``content.xml``. The sheet list comes from one pass over its
decompressed bytes looking for ``<table:table`` start tags (no XML parsing of the cells; only the
head, with the automatic styles that hide sheets, goes through defusedxml). Rows come from a
defusedxml iterparse that starts at the wanted sheet's byte offset, drops each row once read and
stops at the row bound. Repeated rows and cells (``number-rows-repeated``) are expanded only as
far as asked; a repeated run of cells with values above HUGE_CELLS is a cell bomb and refused.
"""

from __future__ import annotations

import datetime as dt
import html
import io
import itertools
import re
import zipfile
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import IO, Any

from boundread.errors import Refused
from boundread.formats._xml import local, odf_text
from boundread.formats.sheets.xlsx_peek import HUGE_CELLS, SheetMeta, iterparse
from boundread.formats.sheets.xlsx_rows import Joined

SMALL = 5 * 1024 * 1024  # content.xml below this: sheet sizes are counted by a full parse
HEAD_CAP = 16 * 1024 * 1024  # bytes before the first sheet kept to restart a parse at any sheet
SCAN_CAP = 4 * 1024 * 1024 * 1024  # decompressed bytes scanned for sheet names (a zip bomb stops here)
CHUNK = 1 << 20

_T = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_O = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_S = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_TAG = re.compile(rb"<table:table[\s/>]")
_MARK = re.compile(rb"<(/?)table:table(-row-group|-header-rows|-rows|-row)?[\s/>]")
_ROW = re.compile(rb"<table:table()(-row)[\s/>]")  # _MARK's groups, when the chunk has rows only
_RARE = (b"<table:table-row-group", b"<table:table-header-rows", b"<table:table-rows", b"</table:table>")
_ATTR = re.compile(rb"""table:(name|style-name)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DURATION = re.compile(r"(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")
_DROP_UNDER = frozenset({"document-content", "body", "spreadsheet", "table", "table-row-group",
                         "table-header-rows", "table-rows", "automatic-styles", "font-face-decls"})

#: (1-based row, values of columns 1..max_cols, columns were cut)
Rows = Generator[tuple[int, list[Any], bool], None, None]


@dataclass(frozen=True)
class Tables:
    """The sheets of content.xml, where each starts (decompressed byte offset), and its head."""

    sheets: tuple[SheetMeta, ...]
    offsets: tuple[int, ...]
    head: bytes | None  # content.xml up to the first <table:table>, when it is under HEAD_CAP
    size: int  # content.xml's declared uncompressed size


def encrypted(zf: zipfile.ZipFile) -> bool:
    """True when META-INF/manifest.xml declares encryption data (ODF's password protection)."""
    try:
        with zf.open("META-INF/manifest.xml") as fh:
            return b"encryption-data" in fh.read(4 * 1024 * 1024)
    except KeyError:
        return False


def read_tables(zf: zipfile.ZipFile, name: str, sizes: bool) -> Tables:
    """Every sheet's name and visibility; rows and cols only when content.xml is SMALL and ``sizes``."""
    size = zf.getinfo("content.xml").file_size
    with zf.open("content.xml") as raw:
        found, head = _scan(raw)
    if not found:  # no sheet by the conventional prefix: fall back to a (slow, flat) parse
        return Tables(_parsed_sheets(zf), (), None, size)
    hidden = _hidden_styles(head) if head is not None else frozenset()
    sheets = [SheetMeta(index=i, name=names.get("name") or f"Sheet{i}", part="content.xml",
                        state="hidden" if names.get("style-name") in hidden else "visible")
              for i, (_offset, names) in enumerate(found, start=1)]
    tables = Tables(tuple(sheets), tuple(offset for offset, _names in found), head, size)
    if sizes and size < SMALL:
        tables = Tables(tuple(measure(zf, tables, s, name) for s in sheets), tables.offsets, head, size)
    return tables


def measure(zf: zipfile.ZipFile, tables: Tables, sheet: SheetMeta, name: str) -> SheetMeta:
    """The sheet with rows/cols counted (last row and column with a value), when content.xml is SMALL."""
    if tables.size >= SMALL:
        return sheet
    rows = cols = 0
    with zf.open("content.xml") as raw:
        for row_no, repeat, row in _table_rows(_events(raw, tables, sheet.index - 1, 1)[0], 1):
            _values, _cut, declared, extent = _cells(row, 0)
            if declared:
                _check(declared, repeat, row_no, sheet.name, name)
                rows, cols = row_no + repeat - 1, max(cols, extent)
    return SheetMeta(index=sheet.index, name=sheet.name, state=sheet.state, type=sheet.type,
                     rows=rows, cols=cols, part=sheet.part)


def sheet_rows(zf: zipfile.ZipFile, tables: Tables, sheet: SheetMeta, first: int, last: int,
               max_cols: int, name: str) -> Rows:
    with zf.open("content.xml") as raw:
        yield from stream_rows(raw, tables, sheet, first, last, max_cols, name)


def stream_rows(raw: IO[bytes], tables: Tables, sheet: SheetMeta, first: int, last: int,
                max_cols: int, name: str) -> Rows:
    """(row number, values of columns 1..max_cols, cut) from ``first``; one row past ``last`` at most.

    Empty rows come out once per <table:table-row> (however often repeated) with no values, so the
    caller's run of empty rows ends a sheet of blank rows; the stream ends with the sheet.
    """
    events, before = _events(raw, tables, sheet.index - 1, first)
    for row_no, repeat, row in _table_rows(events, before + 1):
        if row_no + repeat <= first:  # wholly before the rows asked for: never looked at
            continue
        values, cut, declared, _extent = _cells(row, max_cols)
        if not declared:
            yield max(row_no, first), [], False
            continue
        _check(declared, repeat, row_no, sheet.name, name)
        for number in range(max(row_no, first), min(row_no + repeat - 1, last + 1) + 1):
            yield number, list(values), cut
        if row_no + repeat - 1 > last:
            return


def _check(declared: int, repeat: int, row_no: int, sheet: str, name: str) -> None:
    if declared * repeat > HUGE_CELLS:
        raise Refused(f"{name}: sheet '{sheet}' repeats {declared:,} cells with values {repeat:,} times "
                      f"from row {row_no:,}: a spreadsheet bomb", "do not open it; ask for a sane copy")


def _scan(raw: IO[bytes]) -> tuple[list[tuple[int, dict[str, str]]], bytes | None]:
    """(offset, {name, style-name}) of each <table:table> start tag, and the bytes before the first."""
    found: list[tuple[int, dict[str, str]]] = []
    head: list[bytes] | None = []
    buf, base = b"", 0  # base: offset of buf[0] in content.xml
    while base + len(buf) < SCAN_CAP:
        chunk = raw.read(CHUNK)
        if not chunk:
            break
        buf += chunk
        keep = max(len(buf) - 16, 0)
        for match in _TAG.finditer(buf):
            close = buf.find(b">", match.start())
            if close < 0:
                keep = match.start()
                break
            if head is not None and not found:
                head.append(buf[:match.start()])
            found.append((base + match.start(), _attrs(buf[match.start():close])))
            keep = max(keep, close + 1)
        if head is not None and not found:
            head.append(buf[:keep])
            if sum(len(part) for part in head) > HEAD_CAP:
                head = None
        buf, base = buf[keep:], base + keep
    return found, b"".join(head) if head is not None else None


def _attrs(tag: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for match in _ATTR.finditer(tag):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        out.setdefault(match.group(1).decode(), html.unescape(value.decode("utf-8", "replace")))
    return out


def _hidden_styles(head: bytes) -> frozenset[str]:
    """Table styles of the automatic styles with table:display="false" (hidden sheets)."""
    from xml.etree.ElementTree import ParseError

    hidden: set[str] = set()
    style = ""
    try:
        for _event, elem in iterparse(io.BytesIO(head), ("start",)):
            if elem.tag == _S + "style":
                style = elem.get(_S + "name", "") if elem.get(_S + "family") == "table" else ""
            elif elem.tag == _S + "table-properties" and style and elem.get(_T + "display") == "false":
                hidden.add(style)
    except ParseError:  # the head is cut before the body: "no element found" ends it
        pass
    return frozenset(hidden)


def _parsed_sheets(zf: zipfile.ZipFile) -> tuple[SheetMeta, ...]:
    sheets: list[SheetMeta] = []
    depth = 0
    with zf.open("content.xml") as raw:
        for event, elem in iterparse(raw, ("start", "end")):
            if local(elem.tag) != "table":
                continue
            if event == "start":
                depth += 1
                if depth == 1:
                    index = len(sheets) + 1
                    sheets.append(SheetMeta(index=index, name=elem.get(_T + "name") or f"Sheet{index}",
                                            part="content.xml"))
            else:
                depth -= 1
                elem.clear()
    return tuple(sheets)


def _events(raw: IO[bytes], tables: Tables, index: int, first: int) -> tuple[Iterator[tuple[str, Any]], int]:
    """Parse events from the start tag of sheet ``index`` (0-based), and the rows skipped before.

    With the head known, the sheets before are skipped as bytes (decompressed, never parsed), and
    so are the rows before ``first`` when it is past the first few.
    """
    if tables.head is None or index >= len(tables.offsets):
        return _from_table(iterparse(raw, ("start", "end")), index), 0
    left = tables.offsets[index]
    while left > 0:
        left -= len(raw.read(min(left, CHUNK))) or left
    rest, before = _skip_rows(raw, first) if first > 64 else (b"", 0)
    return _from_table(iterparse(Joined(tables.head + rest, raw), ("start", "end")), 0), before


def _from_table(events: Iterator[tuple[str, Any]], skip_tables: int) -> Iterator[tuple[str, Any]]:
    for event, elem in events:
        if event != "start" or local(elem.tag) != "table":
            continue
        if skip_tables == 0:
            yield event, elem
            yield from events
            return
        skip_tables -= 1
        for _row in _table_rows(itertools.chain([(event, elem)], events), 1):
            pass


def _skip_rows(raw: IO[bytes], first: int) -> tuple[bytes, int]:
    """Read past the rows before ``first`` by scanning bytes: (well-formed bytes to parse next, rows skipped).

    What is returned is the sheet's start tag, the row groups still open, then the rest from the
    row holding ``first``; a nested table, or the sheet's end, stops the skipping where it is.
    """
    buf, start_tag, count = b"", b"", 0
    groups: list[bytes] = []
    last_row = (-1, 0)  # (where the last row starts in buf, rows before it)
    scan = 0
    while chunk := raw.read(CHUNK):
        buf += chunk
        if not start_tag:
            close = buf.find(b">")
            if close < 0:
                continue
            start_tag, buf = buf[: close + 1], buf[close + 1:]
            if start_tag.endswith(b"/>"):
                break
        keep = max(len(buf) - 32, scan)
        plain = not any(tag in buf for tag in _RARE) and not _TAG.search(buf, scan)
        for match in (_ROW if plain else _MARK).finditer(buf, scan):
            close = buf.find(b">", match.start())
            if close < 0:
                keep = match.start()
                break
            closing, kind = match.group(1), match.group(2)
            if kind == b"-row" and not closing:
                repeat = _repeat(_attr_value(buf[match.start():close], b"number-rows-repeated"))
                if count + repeat >= first:
                    return start_tag + b"".join(groups) + buf[match.start():], count
                last_row, count = (match.start(), count), count + repeat
            elif kind is None and not closing and last_row[0] >= 0:  # a table inside a cell
                return start_tag + b"".join(groups) + buf[last_row[0]:], last_row[1]
            elif kind is None:
                return start_tag + b"".join(groups) + buf[match.start():], count
            elif kind != b"-row" and closing:
                groups = groups[:-1]
            elif kind != b"-row" and buf[close - 1:close] != b"/":
                groups.append(buf[match.start():close + 1])
            keep = max(keep, close + 1)
        cut = min(keep, last_row[0]) if last_row[0] >= 0 else keep
        buf, scan = buf[cut:], keep - cut
        last_row = (last_row[0] - cut, last_row[1]) if last_row[0] >= 0 else last_row
    return start_tag + b"".join(groups) + buf, count


def _attr_value(tag: bytes, name: bytes) -> str | None:
    match = re.search(rb":" + name + rb"""\s*=\s*["']([^"']*)""", tag)
    return match.group(1).decode("ascii", "replace") if match else None


def _table_rows(events: Iterator[tuple[str, Any]], row_no: int) -> Iterator[tuple[int, int, Any]]:
    """(first row number, repeat, <table:table-row>) of the sheet whose start tag comes first."""
    stack: list[Any] = []
    depth = 0  # tables open, the sheet itself included
    for event, elem in events:
        name = local(elem.tag)
        if event == "start":
            stack.append(elem)
            depth += name == "table"
            continue
        stack.pop()
        if name == "table":
            depth -= 1
            if depth == 0:
                return
        elif name == "table-row" and depth == 1:
            repeat = _repeat(elem.get(_T + "number-rows-repeated"))
            yield row_no, repeat, elem
            row_no += repeat
        if stack and local(stack[-1].tag) in _DROP_UNDER:
            del stack[-1][:]


def _repeat(text: str | None) -> int:
    try:
        return max(int(text), 1) if text else 1
    except ValueError:
        return 1


def _cells(row: Any, max_cols: int) -> tuple[list[Any], bool, int, int]:
    """(values of columns 1..max_cols, a value lies beyond, cells with values declared, last column)."""
    values: list[Any] = []
    col = declared = extent = 0
    cut = False
    for cell in row:
        name = local(cell.tag)
        if name not in ("table-cell", "covered-table-cell"):
            continue
        repeat = _repeat(cell.get(_T + "number-columns-repeated"))
        value = _value(cell) if name == "table-cell" else None
        if value is None:
            col += repeat
            continue
        if col < max_cols:
            values.extend([None] * (col - len(values)))
            values.extend([value] * min(repeat, max_cols - col))
        cut = cut or col + repeat > max_cols
        col += repeat
        declared, extent = declared + repeat, col
    return values, cut, declared, extent


def _value(cell: Any) -> Any:
    kind = cell.get(_O + "value-type")
    if kind in ("percentage", "currency"):  # the text the sheet shows (12.50 %, 1.234,50 €): the bare number
        shown = "\n".join(odf_text(p) for p in cell if local(p.tag) == "p").strip()  # reads as another amount
        return shown or _number(cell.get(_O + "value"))
    if kind == "float":
        return _number(cell.get(_O + "value"))
    if kind == "date":
        return _date(cell.get(_O + "date-value"))
    if kind == "time":
        return _duration(cell.get(_O + "time-value"))
    if kind == "boolean":
        text = (cell.get(_O + "boolean-value") or "").strip().lower()
        return text in ("true", "1") if text else None
    if kind == "string" and cell.get(_O + "string-value") is not None:
        return cell.get(_O + "string-value") or None
    text = "\n".join(odf_text(p) for p in cell if local(p.tag) == "p")
    return text or None


def _number(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _date(text: str | None) -> Any:
    if not text:
        return None
    try:
        return dt.datetime.fromisoformat(text.strip().removesuffix("Z"))
    except ValueError:
        return text


def _duration(text: str | None) -> Any:
    """``PT13H30M00S`` -> 13:30:00 (a time below a day, else a timedelta); unreadable -> as written."""
    match = _DURATION.fullmatch(text.strip()) if text else None
    if match is None or not any(match.groups()[1:]):
        return text or None
    days, hours, minutes = (int(group or 0) for group in match.groups()[1:4])
    span = dt.timedelta(days=days, hours=hours, minutes=minutes, seconds=float(match.group(5) or 0))
    if match.group(1):
        return -span
    if span < dt.timedelta(days=1):
        return (dt.datetime.min + span).time()
    return span
