"""Stream the cached cell values of one xlsx sheet, row by row, reading no further than asked.

A streaming iterparse of the sheet XML (each <row> is dropped once read), shared strings parsed
lazily only up to the highest index needed, and the styles' number formats to tell dates from
numbers. Cost grows with the rows read, not with the sheet: the first 50 rows of a 300,000-row
sheet cost the same as those of a 60-row one, and a missing or huge <dimension> changes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from boundread.formats._xml import local
from boundread.formats.sheets.cellfmt import (
    BUILTIN_DURATIONS,
    BUILTIN_SHOWN,
    Uncached,
    duration_text,
    is_duration,
    is_shown,
    shown_text,
    unescape,
)
from boundread.formats.sheets.xlsx_peek import Workbook, cell_position, iterparse

_DATE_IDS = frozenset({14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,
                       45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58})
_ROW_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row[\s/>]")
_ROW_NUMBER = re.compile(rb'\sr=["\x27](\d+)["\x27]')
_NOT_DATE = re.compile(r'"[^"]*"|\\.|\[(?!h\]|m\]|s\])[^\]]*\]|_.|\*.', re.IGNORECASE)


class SharedStrings:
    """xl/sharedStrings.xml, parsed on demand up to the index asked for."""

    def __init__(self, zf: zipfile.ZipFile, part: str | None) -> None:
        self._zf = zf
        self._part = part
        self._items: list[str] = []
        self._stream: IO[bytes] | None = None
        self._events: Iterator[tuple[str, Any]] | None = None

    def get(self, index: int) -> str:
        while index >= len(self._items) and self._more():
            pass
        return self._items[index] if 0 <= index < len(self._items) else ""

    def _more(self) -> bool:
        if self._events is None:
            if self._part is None:
                return False
            self._stream = self._zf.open(self._part)
            self._events = iterparse(self._stream, ("end",))
        for _event, elem in self._events:
            if local(elem.tag) == "si":
                self._items.append(rich_text(elem))
                elem.clear()
                return True
        self.close()
        self._part = None
        return False

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        self._events = None


def rich_text(elem: Any) -> str:
    """The text of an <si> or <is>: its <t>, or its runs' <t>, never the phonetic <rPh> hints; ``_xHHHH_``
    escapes decoded."""
    parts = []
    for child in elem:
        name = local(child.tag)
        if name == "t":
            parts.append(child.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in child if local(t.tag) == "t")
    return unescape("".join(parts))


@dataclass(frozen=True)
class Styles:
    """What the cell styles (cellXfs indices) say about numbers: dates, elapsed times with their format, and
    percentages and currencies with theirs."""

    dates: frozenset[int] = frozenset()
    durations: dict[int, str] = field(default_factory=dict)
    shown: dict[int, str] = field(default_factory=dict)


def date_styles(zf: zipfile.ZipFile, part: str | None) -> Styles:
    """The cellXfs whose number format shows a date or a time, and those that show elapsed time."""
    if part is None:
        return Styles()
    codes: dict[int, str] = {}
    xfs: list[int] = []
    in_xfs = False
    with zf.open(part) as stream:
        for event, elem in iterparse(stream, ("start", "end")):
            name = local(elem.tag)
            if name == "cellXfs":
                in_xfs = event == "start"
            elif event == "end" and name == "numFmt":
                codes[int(elem.get("numFmtId", "0"))] = elem.get("formatCode", "")
            elif event == "end" and name == "xf" and in_xfs:
                xfs.append(int(elem.get("numFmtId", "0")))
    durations = {i: BUILTIN_DURATIONS.get(fmt) or codes[fmt] for i, fmt in enumerate(xfs)
                 if fmt in BUILTIN_DURATIONS or is_duration(codes.get(fmt, ""))}
    dates = frozenset(i for i, fmt in enumerate(xfs) if fmt in _DATE_IDS or _is_date_code(codes.get(fmt)))
    shown = {i: BUILTIN_SHOWN.get(fmt) or codes[fmt] for i, fmt in enumerate(xfs)
             if i not in durations and i not in dates and (fmt in BUILTIN_SHOWN or is_shown(codes.get(fmt, "")))}
    return Styles(dates - durations.keys(), durations, shown)


def _is_date_code(code: str | None) -> bool:
    if not code:
        return False
    stripped = _NOT_DATE.sub("", code.split(";")[0]).lower()
    return stripped != "general" and any(ch in stripped for ch in "dmyhs")


def from_serial(serial: float, date1904: bool) -> dt.datetime | dt.time | float:
    """An Excel date serial as a datetime (a time for serials below 1)."""
    if 0 <= serial < 1 and not date1904:
        seconds = round(serial * 86400, 3)
        whole = int(seconds)
        if whole >= 86400:
            return dt.time(0)
        return dt.time(whole // 3600, whole // 60 % 60, whole % 60, round((seconds - whole) * 1e6))
    if date1904:
        epoch = dt.datetime(1904, 1, 1)
    else:
        epoch = dt.datetime(1899, 12, 30) if serial >= 61 else dt.datetime(1899, 12, 31)
    try:
        return epoch + dt.timedelta(milliseconds=round(serial * 86_400_000))
    except OverflowError:
        return serial


def stream_rows(
    zf: zipfile.ZipFile, part: str, book: Workbook, strings: SharedStrings, styles: Styles,
    first: int, max_cols: int, uncached: Uncached,
) -> Generator[tuple[int, list[Any], bool], None, None]:
    """(row number, values of columns 1..max_cols, cut) for each <row> at or after ``first``.

    ``cut`` is True when the row has a value beyond ``max_cols``. The caller stops iterating
    when it has enough; the stream is closed when the generator is. Formula cells read without a computed
    value are noted in ``uncached``.
    """
    with zf.open(part) as raw:
        stream, row_no = skip_to_row(raw, first) if first > 64 else (raw, 0)
        sheet_data = None
        for event, elem in iterparse(stream, ("start", "end")):
            name = local(elem.tag)
            if event == "start":
                if name == "sheetData":
                    sheet_data = elem
                continue
            if name != "row":
                continue
            row_no = _int(elem.get("r"), row_no + 1)
            if row_no >= first:
                values, cut = _row_values(elem, _Cells(book, strings, styles, uncached), max_cols)
                yield row_no, values, cut
            if sheet_data is not None:
                sheet_data.clear()
            else:
                elem.clear()


class Joined:
    """A file-like object: ``head`` first, then the rest of ``raw``."""

    def __init__(self, head: bytes, raw: IO[bytes]) -> None:
        self._head = head
        self._raw = raw

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            head, self._head = self._head, b""
            return head + self._raw.read()
        if self._head:
            chunk, self._head = self._head[:size], self._head[size:]
            return chunk
        return self._raw.read(size)


def skip_to_row(raw: IO[bytes], first: int, chunk: int = 1 << 20) -> tuple[Any, int]:
    """Jump over the rows before ``first`` by scanning bytes, not parsing XML (~50x faster).

    Returns a stream holding the sheet's head up to <sheetData> and the rest from the first <row>
    numbered ``first`` or more, and the number of the row before it (for rows without r="...").
    When anything looks unusual, the whole stream is returned unskipped.
    """
    buf = b""
    head: bytes | None = None
    count = 0
    while True:
        data = raw.read(chunk)
        if not data:
            if head is not None and (ended := buf.find(b"</sheetData")) >= 0:
                return Joined(head + buf[ended:], raw), count  # no row at or after ``first``: none to parse
            return Joined((head or b"") + buf, raw), 0 if head is None else count
        buf += data
        if head is None:
            start = buf.find(b"<sheetData")
            close = buf.find(b">", start) if start >= 0 else -1
            if close < 0 or buf[close - 1:close] == b"/":
                if len(buf) > 16 * chunk or close >= 0:
                    return Joined(buf, raw), 0
                continue
            head, buf = buf[: close + 1], buf[close + 1:]
        last = buf.rfind(b"<row")
        end = buf.find(b">", last) if last >= 0 else -1
        number = _ROW_NUMBER.search(buf, last, end) if end >= 0 else None
        if number and int(number.group(1)) < first:  # the whole chunk is before ``first``
            count, buf = int(number.group(1)), buf[end + 1:]
            continue
        keep = max(len(buf) - 16, 0)
        for match in _ROW_TAG.finditer(buf):
            end = buf.find(b">", match.start())
            if end < 0:
                keep = match.start()
                break
            number = _ROW_NUMBER.search(buf, match.start(), end)
            count = int(number.group(1)) if number else count + 1
            if count >= first:
                return Joined(head + buf[match.start():], raw), count - 1
            keep = max(keep, end + 1) if end + 1 <= len(buf) else keep
        ended = buf.find(b"</sheetData")
        if ended >= 0:  # the rows end before ``first``: the tail of a row left in ``buf`` would not parse
            return Joined(head + buf[ended:], raw), count
        buf = buf[min(keep, len(buf)):]


@dataclass(frozen=True)
class _Cells:
    """What reading a cell's value needs: the book's date system, its strings and styles, and where to note
    a formula without a value."""

    book: Workbook
    strings: SharedStrings
    styles: Styles
    uncached: Uncached


def _row_values(row: Any, cells: _Cells, max_cols: int) -> tuple[list[Any], bool]:
    values: list[Any] = []
    col = 0
    anchor: str | None = None  # the last reference not yet turned into a column number
    since = 0  # cells after it that had no reference
    cut = False
    for cell in row:
        ref = cell.get("r")
        if not len(cell):  # an empty (perhaps styled) cell: no value, and no parsing of its reference
            if ref:
                anchor, since = ref, 0
            elif anchor is not None:
                since += 1
            else:
                col += 1
            continue
        if local(cell.tag) != "c":
            continue
        if ref is None and anchor is not None:
            position = cell_position(anchor)
            col, anchor = (position[1] if position else col) + since, None
        position = cell_position(ref) if ref else None
        col = position[1] if position else col + 1
        anchor, since = None, 0
        if col > max_cols:
            cut = cut or _value(cell, cells) not in (None, "")
            continue
        value = _value(cell, cells)
        if value is None or value == "":
            continue
        if col > len(values):
            values.extend([None] * (col - len(values)))
        values[col - 1] = value
    return values, cut


def _value(cell: Any, cells: _Cells) -> Any:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        inline = next((child for child in cell if local(child.tag) == "is"), None)
        return rich_text(inline) if inline is not None else None
    v = next((child.text for child in cell if local(child.tag) == "v"), None)
    if any(local(child.tag) == "f" for child in cell) and (
            not v or (cells.book.full_calc and v.strip() in ("0", ""))):
        cells.uncached.add(cell.get("r") or "?")
    if v is None:
        return None
    if kind == "s":
        return cells.strings.get(_int(v, -1))
    if kind == "b":
        return v.strip() in ("1", "true")
    if kind in ("str", "e", "d"):
        return unescape(v)
    try:
        number = float(v)
    except ValueError:
        return v
    style = _int(cell.get("s"), 0)
    if style in cells.styles.durations:
        return duration_text(number, cells.styles.durations[style])
    if style in cells.styles.shown:
        return shown_text(number, cells.styles.shown[style])
    if style in cells.styles.dates:
        return from_serial(number, cells.book.date1904)
    return number


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default
