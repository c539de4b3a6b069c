"""Rows asked past a sheet's end: the read ends cleanly and says what it read, as pages does for pages past a
PDF's end; the progress line counts the sheet's rows."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.etree.ElementTree import fromstring

import pytest

from boundread.contract.model import Request, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_path
from boundread.formats.sheets import handler as sheets
from boundread.formats.sheets.xlsx_rows import skip_to_row
from boundread.limits import Limits

ROWS = 301


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    import xlsxwriter  # type: ignore[import-untyped]

    path = tmp_path / "prices.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("S")
    for row in range(ROWS):
        sheet.write_row(row, 0, [f"item{row + 1}", row * 1.5])
    book.close()
    return path


def _read(path: Path, rows: Span, limits: Limits | None = None) -> tuple[str, list[str], Sink]:
    limits = limits or Limits()
    sink = Sink(limits)
    outcome = sheets.extract(source_for_path(path), Request(limits=limits, sheets=("S",), rows=rows), sink)
    return sink.text(), outcome.warnings, sink


def test_a_range_far_past_the_end_is_not_called_damaged(prices: Path) -> None:
    text, warnings, _ = _read(prices, Span(99_990, 100_010))
    assert "item" not in text
    assert warnings == [f"asked rows 99990-100010 but sheet 'S' has {ROWS}: no rows there"]


def test_a_range_over_the_end_reads_to_it_and_says_so(prices: Path) -> None:
    text, warnings, _ = _read(prices, Span(290, 320))
    assert "item290," in text and f"item{ROWS}," in text
    assert warnings == [f"asked rows 290-320 but sheet 'S' has {ROWS}: read 290-{ROWS}"]


def test_a_range_inside_the_sheet_or_cut_by_max_rows_says_nothing(prices: Path) -> None:
    assert _read(prices, Span(10, 20))[1] == []
    assert _read(prices, Span(1, 1000))[1] == []  # max_rows 200 ended it, not the sheet


def test_the_progress_counts_the_sheets_rows(prices: Path) -> None:
    _, _, sink = _read(prices, Span(101, 400), Limits(max_rows=1000))
    assert (sink.progress.unit, sink.progress.total, sink.progress.done) == ("rows", ROWS - 100, ROWS - 100)


@pytest.mark.parametrize("chunk", [64, 256, 4096, 1 << 20])
def test_skipping_past_the_last_row_leaves_well_formed_xml(prices: Path, chunk: int) -> None:
    with zipfile.ZipFile(prices) as zf:
        raw = zf.read("xl/worksheets/sheet1.xml")
    stream, before = skip_to_row(io.BytesIO(raw), 99_990, chunk)
    root = fromstring(stream.read())  # a row's tail left in the stream raised 'mismatched tag'
    assert not [elem for elem in root.iter() if elem.tag.endswith("}row")]
    assert before == ROWS
