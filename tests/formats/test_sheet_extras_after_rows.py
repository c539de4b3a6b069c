"""A sheet read to its end is followed by what it holds besides its cells (xlsx notes and charts, from
formats/sheets/xlsx_extras.py): ``Comment A1 (author): ...`` and ``Chart: ...`` lines after its rows; a chart sheet
gives its chart; a window of rows in the middle of the sheet leaves them for the read that reaches the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread import api


@pytest.fixture
def book(tmp_path: Path) -> Path:
    import xlsxwriter  # type: ignore[import-untyped]

    path = tmp_path / "noted.xlsx"
    workbook = xlsxwriter.Workbook(str(path))
    sheet = workbook.add_worksheet("Data")
    for row in range(10):
        sheet.write_row(row, 0, [f"item{row + 1}", row + 1])
    sheet.write_comment("B2", "EXTRAS-SENTINEL check this", {"author": "Ada"})
    chart = workbook.add_chart({"type": "column"})
    chart.add_series({"name": "Units", "values": "=Data!$B$1:$B$10", "categories": "=Data!$A$1:$A$10"})
    chart.set_title({"name": "Units by item"})
    sheet.insert_chart("D2", chart)
    sheets = workbook.add_chartsheet("Graph")
    graph = workbook.add_chart({"type": "line"})
    graph.add_series({"name": "Trend", "values": "=Data!$B$1:$B$10"})
    graph.set_title({"name": "Trend line"})
    sheets.set_chart(graph)
    workbook.close()
    return path


def test_a_sheet_read_to_its_end_gives_its_comments_and_charts(book: Path) -> None:
    text = api.sheets(book, "Data", stdout=True).text or ""
    rows, _, after = text.partition("item10,10\n")
    assert rows and "EXTRAS-SENTINEL" not in rows
    assert "Comment B2 (Ada): EXTRAS-SENTINEL check this" in after, text
    assert "Chart: Units by item" in after, text


def test_a_chart_sheet_gives_its_chart(book: Path) -> None:
    text = api.sheets(book, "Graph", stdout=True).text or ""
    assert "(a chart sheet: a chart, no cells)\n" in text and "Chart: Trend line" in text, text


def test_a_window_in_the_middle_leaves_them_to_the_end(book: Path) -> None:
    text = api.sheets(book, "Data", rows="2-3", stdout=True).text or ""
    assert "EXTRAS-SENTINEL" not in text and "Chart:" not in text


def test_the_sink_bound_cuts_them_with_a_warning(book: Path) -> None:
    from boundread.limits import Limits

    whole = api.sheets(book, "Data", stdout=True).text or ""
    room = whole.index("Comment B2") + 10  # the rows fit, the first comment does not
    result = api.sheets(book, "Data", stdout=True, limits=Limits(max_chars=room))
    assert "Comment B2" not in (result.text or "") and (result.text or "").endswith("item10,10\n")
    assert result.truncated and f"max_chars {room} reached" in result.truncated_reasons
    assert any("comments, charts and text boxes after the first 0 not read" in w for w in result.warnings)
