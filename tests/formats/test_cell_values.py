"""Cell values as the spreadsheet shows them (issue 22, item 3): ``_xHHHH_`` escapes decoded, elapsed-time
formats as durations in 1900- and 1904-based workbooks, formulas without a computed value flagged.

Workbooks are generated here with xlsxwriter (which escapes control characters as ``_xHHHH_`` and saves 0 for a
formula's value unless told it) and openpyxl (which saves formulas with no value at all).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import run

from boundread.formats.sheets.cellfmt import duration_text, is_duration, unescape

ELAPSED = (255 * 3600 + 10 * 60 + 10) / 86400  # 255:10:10 as a count of days


def _extract(path: Path) -> tuple[list[list[str]], list[str]]:
    import csv
    import io

    result = run("extract", str(path), "--stdout", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    body = data["text"].split("\n", 1)[1]  # below the "--- sheet" header
    return list(csv.reader(io.StringIO(body, newline=""))), data["warnings"]


@pytest.mark.parametrize("date1904", [False, True])
def test_escapes_and_elapsed_time_read_as_shown(tmp_path: Path, date1904: bool) -> None:
    import xlsxwriter  # type: ignore[import-untyped]

    path = tmp_path / "book.xlsx"
    wb = xlsxwriter.Workbook(str(path), {"date_1904": date1904})
    ws = wb.add_worksheet("S")
    ws.write_string(0, 0, "first\rsecond _x0041_ kept")  # xlsxwriter writes _x000D_ and _x005F_x0041_
    ws.write_number(0, 1, ELAPSED, wb.add_format({"num_format": "[hh]:mm:ss"}))
    ws.write_number(0, 2, ELAPSED, wb.add_format({"num_format": "[mm]:ss"}))
    ws.write_number(0, 3, ELAPSED, wb.add_format({"num_format": "[h]:mm:ss.00"}))
    ws.write_number(0, 4, ELAPSED, wb.add_format({"num_format": 46}))  # built-in [h]:mm:ss
    ws.write_number(0, 5, 45418.5, wb.add_format({"num_format": "yyyy-mm-dd hh:mm"}))
    wb.close()
    rows, warnings = _extract(path)
    assert rows[0][0] == "first\rsecond _x0041_ kept"
    assert rows[0][1:5] == ["255:10:10", "15310:10", "255:10:10.00", "255:10:10"]
    assert rows[0][5] == ("2028-05-07T12:00:00" if date1904 else "2024-05-06T12:00:00")  # dates still dates
    assert not warnings


def test_a_formula_without_a_computed_value_is_flagged_not_a_silent_zero(tmp_path: Path) -> None:
    import openpyxl
    import xlsxwriter

    placeholder = tmp_path / "xlsxwriter.xlsx"  # saves <v>0</v> and asks Excel to compute on open
    wb = xlsxwriter.Workbook(str(placeholder))
    ws = wb.add_worksheet("Calc")
    ws.write_number(0, 0, 21)
    ws.write_formula(0, 1, "=A1*2")
    ws.write_formula(0, 2, "=A1*3", None, 63)  # told its value: nothing to flag
    for row in range(1, 26):
        ws.write_formula(row, 1, f"=A{row}+1")
    wb.close()
    rows, warnings = _extract(placeholder)
    assert rows[0] == ["21", "0", "63"]
    flagged = [w for w in warnings if "formula cell(s) saved without a computed value" in w]
    assert len(flagged) == 1
    assert flagged[0].startswith("sheet 'Calc': 26 formula cell(s)")
    assert "B1, B2, B3" in flagged[0] and "C1" not in flagged[0] and "and 6 more" in flagged[0]

    bare = tmp_path / "openpyxl.xlsx"  # saves the formula and no value at all
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet["A1"], sheet["B1"] = 5, "=A1+1"
    book.save(bare)
    rows, warnings = _extract(bare)
    assert rows[0] == ["5"]
    assert any(w.startswith("sheet 'Sheet': 1 formula cell(s)") and ": B1 -" in w for w in warnings)


def test_computed_formulas_are_not_flagged(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "computed.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("S")
    ws.write_formula(0, 0, "=1+1", None, 2)
    ws.write_formula(0, 1, '="a"&"b"', None, "ab")
    wb.close()
    rows, warnings = _extract(path)
    assert rows[0] == ["2", "ab"]
    assert not warnings


def test_the_ecma_escape_rule() -> None:
    assert unescape("a_x000D_b") == "a\rb"
    assert unescape("_x005F_x000D_") == "_x000D_"  # the escaped underscore: the rest is literal text
    assert unescape("_x005f_") == "_"
    assert unescape("_xD83D__xDE00_") == "\U0001f600"  # a UTF-16 pair joined
    assert unescape("_xD83D_ alone") == "\ufffd alone"
    assert unescape("_x12_ _xZZZZ_ plain") == "_x12_ _xZZZZ_ plain"


def test_elapsed_time_formats() -> None:
    assert is_duration("[h]:mm:ss") and is_duration("[Red][mm]:ss") and is_duration('[h]"h "mm"m"')
    assert not is_duration("hh:mm:ss") and not is_duration("d [h]") and not is_duration('"[h]" 0')
    assert duration_text(ELAPSED, '[h]"h "mm"m"') == "255h 10m"
    assert duration_text(-ELAPSED, "[h]:mm:ss") == "-255:10:10"
    assert duration_text(1.5 / 86400, "[s].0") == "1.5"
    assert duration_text(0.5 / 86400, "[h]:mm:ss") == "0:00:01"  # half a second shows as one, as in Excel


def test_a_duration_read_by_calamine_or_from_ods_shows_elapsed_hours() -> None:
    """xls/xlsb (calamine) and ods give a duration as a timedelta: shown as [h]:mm:ss, not "10 days, 15:10:10"."""
    import datetime as dt

    from boundread.formats.sheets.tabular import cell_text

    assert cell_text(dt.timedelta(days=10, seconds=54610)) == "255:10:10"
    assert cell_text(dt.timedelta(seconds=36610, microseconds=100000)) == "10:10:10.1"
    assert cell_text(-dt.timedelta(hours=30, minutes=5)) == "-30:05:00"


def test_percentages_and_currencies_read_as_shown(tmp_path: Path) -> None:
    """0.125 under 0.0% is 12.5%, not an amount of 0.125; a currency keeps its symbol and its decimals; a plain
    number format, a date and a scientific form are left as they were."""
    import xlsxwriter

    path = tmp_path / "prices.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("S")
    cells = [(0.125, "0.0%"), (0.125, "0%"), (0.5, 10), (1234.5, '"$"#,##0.00'), (1234.5, "#,##0.00 [$€-407]"),
             (-1234.5, '"$"#,##0.00_);("$"#,##0.00)'), (1234.567, "€#,##0.0#"), (1234.5, "#,##0.00"),
             (1234.5, "0.00E+00"), (45000, "yyyy-mm-dd")]
    for col, (value, fmt) in enumerate(cells):
        ws.write_number(0, col, value, wb.add_format({"num_format": fmt}))
    wb.close()
    rows, _ = _extract(path)
    assert rows[0] == ["12.5%", "13%", "50.00%", "$1,234.50", "1,234.50 €", "($1,234.50)", "€1,234.57", "1234.5",
                       "1234.5", "2023-03-15"]


def test_an_ods_percentage_or_currency_is_the_text_it_shows(tmp_path: Path) -> None:
    import zipfile

    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content'
        ' xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
        '<table:table table:name="S"><table:table-row>'
        '<table:table-cell office:value-type="percentage" office:value="0.125"><text:p>12.50 %</text:p>'
        '</table:table-cell>'
        '<table:table-cell office:value-type="currency" office:currency="EUR" office:value="1234.5">'
        '<text:p>1.234,50 €</text:p></table:table-cell>'
        '<table:table-cell office:value-type="float" office:value="7.25"><text:p>7,25</text:p></table:table-cell>'
        "</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>")
    path = tmp_path / "book.ods"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content)
        zf.writestr("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest xmlns:manifest='
                    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>')
    rows, _ = _extract(path)
    assert rows[0] == ["12.50 %", "1.234,50 €", "7.25"]
