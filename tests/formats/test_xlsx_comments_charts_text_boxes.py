"""An xlsx sheet's notes, threaded comments, charts and drawing text boxes come out as marked lines
(formats/sheets/xlsx_extras.py), bounded by a character budget, with a warning for whatever is not read."""

from __future__ import annotations

import io
import zipfile
from functools import cache
from pathlib import Path

import pytest
from tests.formats.office_parts import add_rels, chart_xml, rezip

from boundread.formats._ooxml import charts
from boundread.formats.sheets.xlsx_extras import SheetExtras, sheet_extras

SHEET = "xl/worksheets/sheet1.xml"
MS = "http://schemas.microsoft.com/office/2017/10/relationships"
TC = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"
STAND_IN = "[Threaded comment] Your version of Excel allows you to read this threaded comment; Comment: THREAD-ROOT"
THREADS = (
    f'<?xml version="1.0"?><ThreadedComments xmlns="{TC}"><threadedComment ref="A1" dT="2024-01-01T00:00:00.00" '
    f'personId="{{P1}}" id="{{T1}}"><text>THREAD-ROOT is this final?</text></threadedComment><threadedComment '
    f'ref="A1" dT="2024-01-02T00:00:00.00" personId="{{P2}}" id="{{T2}}" parentId="{{T1}}"><text>THREAD-REPLY yes'
    f"</text></threadedComment></ThreadedComments>"
).encode()
PERSONS = (
    f'<?xml version="1.0"?><personList xmlns="{TC}"><person displayName="Grace Hopper" id="{{P1}}" userId="g" '
    f'providerId="None"/><person displayName="Alan Turing" id="{{P2}}" userId="a" providerId="None"/></personList>'
).encode()


@cache
def book(stand_in: bool = False) -> bytes:
    """Sheet 'Data': a note on B2 (and, with stand_in, the note Excel writes for a threaded comment on A1), a
    column chart with a title, a named series, categories and an axis title, and a text box."""
    import xlsxwriter

    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True})
    ws = wb.add_worksheet("Data")
    ws.write_column("A1", ["Q1", "Q2", "Q3"])
    ws.write_column("B1", [1, 2, 3])
    ws.write_comment("B2", "NOTE-SENTINEL check this", {"author": "Ada"})
    if stand_in:
        ws.write_comment("A1", STAND_IN, {"author": "tc={T1}"})
    chart = wb.add_chart({"type": "column"})
    chart.add_series({"name": "SERIES-Sales", "categories": "=Data!$A$1:$A$3", "values": "=Data!$B$1:$B$3"})
    chart.set_title({"name": "CHART-TITLE"})
    chart.set_x_axis({"name": "AXIS-Quarter"})
    ws.insert_chart("E2", chart)
    ws.insert_textbox("E20", "TEXTBOX-SENTINEL hello")
    wb.close()
    return buf.getvalue()


def threaded_book() -> bytes:
    data = book(stand_in=True)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        sheet_rels = zf.read("xl/worksheets/_rels/sheet1.xml.rels")
        book_rels = zf.read("xl/_rels/workbook.xml.rels")
    return rezip(data, {
        "xl/worksheets/_rels/sheet1.xml.rels": add_rels(
            sheet_rels, ("rIdTc", f"{MS}/threadedComment", "../threadedComments/threadedComment1.xml")),
        "xl/_rels/workbook.xml.rels": add_rels(book_rels, ("rIdPs", f"{MS}/person", "persons/person.xml")),
        "xl/threadedComments/threadedComment1.xml": THREADS, "xl/persons/person.xml": PERSONS,
    })


def extras(data: bytes, budget: int = 100_000, part: str = SHEET) -> SheetExtras:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return sheet_extras(zf, part, "Data", "book.xlsx", budget)


def test_note_chart_and_text_box_in_order() -> None:
    found = extras(book())
    assert found.lines == [
        "Comment B2 (Ada): NOTE-SENTINEL check this",
        "Chart: CHART-TITLE - series SERIES-Sales; categories Q1, Q2, Q3; axes AXIS-Quarter",
        "Text box: TEXTBOX-SENTINEL hello",
    ]
    assert found.warnings == []


def test_note_matches_openpyxl() -> None:
    import openpyxl

    comment = openpyxl.load_workbook(io.BytesIO(book()))["Data"]["B2"].comment
    assert f"Comment B2 ({comment.author}): {comment.text}" in extras(book()).lines


def test_threaded_comments_with_replies_replace_their_stand_in_note() -> None:
    found = extras(threaded_book())
    assert found.lines[:3] == [
        "Comment A1 (Grace Hopper): THREAD-ROOT is this final?",
        "Comment A1 (Alan Turing): THREAD-REPLY yes",
        "Comment B2 (Ada): NOTE-SENTINEL check this",
    ]
    assert not any("[Threaded comment]" in line for line in found.lines)


def test_budget_stops_reading_and_says_so() -> None:
    found = extras(book(), budget=60)
    assert found.lines == ["Comment B2 (Ada): NOTE-SENTINEL check this"]
    assert found.warnings == ["sheet 'Data': comments, charts and text boxes after the first 1 not read "
                              "(the output limit was reached)"]


def test_oversized_chart_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts, "CHART_CAP", 100)
    found = extras(book())
    assert not any(line.startswith("Chart:") for line in found.lines)
    assert len(found.warnings) == 1
    assert found.warnings[0].startswith("sheet 'Data': chart xl/charts/chart1.xml not read: ")


def test_damaged_comments_part_is_a_warning_and_the_rest_reads() -> None:
    found = extras(rezip(book(), {"xl/comments1.xml": b"<comments><commentList><comment"}))
    assert found.lines[0].startswith("Chart: CHART-TITLE") and "Text box: TEXTBOX-SENTINEL hello" in found.lines
    assert len(found.warnings) == 1 and "comments xl/comments1.xml not read" in found.warnings[0]


def test_fallback_copies_are_not_read_twice() -> None:
    data = book()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        drawing = zf.read("xl/drawings/drawing1.xml").decode()
    start, end = drawing.index("<xdr:sp "), drawing.index("</xdr:sp>") + len("</xdr:sp>")
    shape = drawing[start:end]
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    wrapped = (f'<mc:AlternateContent xmlns:mc="{mc}"><mc:Choice Requires="a14">{shape}</mc:Choice>'
               f"<mc:Fallback>{shape}</mc:Fallback></mc:AlternateContent>")
    found = extras(rezip(data, {"xl/drawings/drawing1.xml": (drawing[:start] + wrapped + drawing[end:]).encode()}))
    assert [line for line in found.lines if line.startswith("Text box:")] == ["Text box: TEXTBOX-SENTINEL hello"]


def test_chart_without_any_text_still_says_it_is_there() -> None:
    bare = chart_xml("", ["x"], []).replace(b"<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount "
                                            b'val="1"/><c:pt idx="0"><c:v>x</c:v></c:pt></c:strCache></c:strRef>'
                                            b"</c:tx>", b"")
    found = extras(rezip(book(), {"xl/charts/chart1.xml": bare}))
    assert "Chart: (untitled) - series 1 unnamed" in found.lines


def test_sheet_without_extras_gives_nothing() -> None:
    import xlsxwriter

    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True})
    wb.add_worksheet("Data").write("A1", "plain")
    wb.close()
    found = extras(buf.getvalue())
    assert found.lines == [] and found.warnings == [] and not found.cut


@pytest.mark.corpus
def test_corpus_chart_sheet(corpus_dir: Path) -> None:
    with zipfile.ZipFile(corpus_dir / "xlsx-any_sheets.xlsx") as zf:
        found = sheet_extras(zf, "xl/chartsheets/sheet1.xml", "Chart1", "xlsx-any_sheets.xlsx", 10_000)
    assert found.lines == ["Chart: (untitled) - series 2 unnamed"] and found.warnings == []
