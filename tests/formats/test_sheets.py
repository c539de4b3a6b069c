"""The spreadsheet handler: cheap sheet listing, bounded row extraction, hostile workbooks."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boundread
from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import FILE, Request, Source, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import Corrupt, Encrypted, ExitCode, Refused, Unsupported, UsageError
from boundread.formats.sheets import handler as sheets
from boundread.formats.sheets.tabular import cell_text
from boundread.limits import Limits


def run(src: Source, **kw: Any) -> tuple[str, Any]:
    limits = kw.pop("limits", Limits())
    req = Request(limits=limits, **kw)
    sink = Sink(limits)
    outcome = sheets.extract(src, req, sink)
    return sink.text(), outcome


@pytest.fixture
def book(tmp_path: Path) -> Path:
    import xlsxwriter  # type: ignore[import-untyped]

    path = tmp_path / "book.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    prices = wb.add_worksheet("Prices")
    date_fmt = wb.add_format({"num_format": "yyyy-mm-dd"})
    stamp_fmt = wb.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
    prices.write_row(0, 0, ["item", "price", "when", "note"])
    for r in range(1, 300):
        prices.write_row(r, 0, [f"item-{r}", r * 1.0, None, "plain"])
    prices.write_string(1, 3, "SENTINEL_PRICES, with comma\nand newline")
    prices.write_number(2, 1, 2.5)
    prices.write_datetime(1, 2, dt.datetime(2024, 3, 15), date_fmt)
    prices.write_datetime(2, 2, dt.datetime(2024, 3, 15, 13, 45, 30), stamp_fmt)
    prices.write_formula(3, 1, "=B2*10", None, 42)
    prices.write_boolean(4, 3, True)
    secret = wb.add_worksheet("Secret")
    secret.write_string(0, 0, "SENTINEL_HIDDEN")
    secret.hide()
    wide = wb.add_worksheet("Wide")
    wide.write_row(0, 0, [f"c{i}" for i in range(60)])
    wide.write_string(0, 59, "SENTINEL_FAR_RIGHT")
    gaps = wb.add_worksheet("Gaps")
    gaps.write_string(0, 0, "top")
    gaps.write_string(4, 0, "after three blank rows")
    chart = wb.add_chartsheet("Chart")
    series = wb.add_chart({"type": "line"})
    series.add_series({"values": "=Prices!$B$2:$B$10"})
    chart.set_chart(series)
    wb.close()
    return path


def test_info_lists_sheets_from_the_workbook_xml(book: Path) -> None:
    details = sheets.info(source_for_path(book), Request())
    listed = {s["name"]: s for s in details.fields["sheets"]}
    assert [s["name"] for s in details.fields["sheets"]] == ["Prices", "Secret", "Wide", "Gaps", "Chart"]
    assert listed["Prices"]["rows"] == 300 and listed["Prices"]["cols"] == 4
    assert listed["Prices"]["dimension"] == "A1:D300" and listed["Prices"]["xml_bytes"] > 0
    assert listed["Secret"]["hidden"] is True and listed["Secret"]["state"] == "hidden"
    assert listed["Chart"]["type"] == "chartsheet"
    assert details.fields["macros"] is False
    assert details.estimated and details.est_chars and details.est_chars > 0
    # info shows the sheet table, so `sheets F` (the same table) is no next step; reading the sheets is
    assert details.next == [("sheets", FILE, name, "--max-rows", "50") for name in ("Prices", "Wide")]
    assert boundread.sheet_list(book) == details.fields["sheets"]  # the Python API's sheet list is info's


def test_extract_default_reads_visible_worksheets_with_cached_values(book: Path) -> None:
    text, outcome = run(source_for_path(book), limits=Limits(max_rows=6))
    assert text.startswith("--- sheet 'Prices' (rows 1-6 of 300) ---\n")
    assert "item,price,when,note\n" in text
    assert '"SENTINEL_PRICES, with comma\nand newline"' in text
    assert "item-1,1,2024-03-15," in text  # whole float as int, date in ISO form
    assert "item-2,2.5,2024-03-15T13:45:30,plain" in text
    assert "item-3,42,,plain" in text  # the formula's cached value, not "=B2*10"
    assert "item-4,4,,TRUE" in text
    assert "SENTINEL_HIDDEN" not in text and "sheet 'Chart'" not in text
    assert any("hidden" in w and "'Secret'" in w for w in outcome.warnings)
    assert outcome.unit == "rows" and outcome.totals == {"sheets": 5}
    assert "rows 1-6 of sheet 'Prices' (300 rows)" in outcome.done
    assert "max_rows 6 reached" in outcome.truncated
    assert "top\n\n\n\nafter three blank rows\n" in text  # blank rows kept so row numbers hold


def test_rows_span_sheet_by_index_and_resume(book: Path) -> None:
    text, outcome = run(source_for_path(book), sheets=("1",), rows=Span(201, 400), limits=Limits(max_rows=50))
    assert text.splitlines()[0] == "--- sheet 'Prices' (rows 201-250 of 300) ---"
    assert text.splitlines()[1] == "item-200,200,,plain"
    assert len(text.splitlines()) == 51
    assert outcome.resume == ("sheets", FILE, "Prices", "--rows", "251-300")
    text, outcome = run(source_for_path(book), sheets=("Prices",), rows=Span(251, 300))
    assert text.splitlines()[-1] == "item-299,299,,plain" and outcome.resume is None
    assert not outcome.truncated


def test_hidden_sheet_by_name_and_chartsheet_line(book: Path) -> None:
    text, _ = run(source_for_path(book), sheets=("Secret", "chart"))
    assert "SENTINEL_HIDDEN" in text
    assert "--- sheet 'Chart'" in text and "chart sheet" in text


def test_unknown_sheet_names_the_sheets(book: Path) -> None:
    with pytest.raises(UsageError) as err:
        run(source_for_path(book), sheets=("Nope",))
    assert err.value.what == "no sheet 'Nope' in book.xlsx"
    assert "'Prices', 'Secret'" in err.value.fix and "boundread sheets book.xlsx" in err.value.fix


def test_columns_are_cut_at_max_cols(book: Path) -> None:
    text, outcome = run(source_for_path(book), sheets=("Wide",), limits=Limits(max_cols=10))
    assert "c9" in text and "c10" not in text and "SENTINEL_FAR_RIGHT" not in text
    assert "max_cols 10 reached" in outcome.truncated
    assert any("columns after 10" in w for w in outcome.warnings)


def test_tsv_and_markdown(book: Path) -> None:
    tsv, _ = run(source_for_path(book), sheets=("Prices",), fmt="tsv", limits=Limits(max_rows=3))
    assert "item\tprice\twhen\tnote\n" in tsv and "SENTINEL_PRICES, with comma\\nand newline" in tsv
    md, _ = run(source_for_path(book), sheets=("Prices",), fmt="markdown", limits=Limits(max_rows=3))
    lines = md.splitlines()
    assert lines[1] == "| item | price | when | note |" and lines[2] == "|---|---|---|---|"


def test_full_sink_gives_a_resume_from_the_unwritten_row(book: Path) -> None:
    text, outcome = run(source_for_path(book), sheets=("Prices",), limits=Limits(max_chars=200))
    assert len(text) <= 200
    assert outcome.resume is not None and outcome.resume[:4] == ("sheets", FILE, "Prices", "--rows")
    first = int(outcome.resume[4].split("-")[0])
    assert 2 <= first < 20
    assert f"item-{first - 1}," not in text.splitlines()[-1] or text.endswith("\n")


def test_in_memory_source(book: Path) -> None:
    src = source_for_bytes("inner.xlsx", book.read_bytes())
    text, _ = run(src, sheets=("Secret",))
    assert "SENTINEL_HIDDEN" in text
    assert len(sheets.info(src, Request()).fields["sheets"]) == 5


def test_sheet_without_dimension(tmp_path: Path) -> None:
    import openpyxl

    path = tmp_path / "nodim.xlsx"
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Log")
    for r in range(1, 31):
        ws.append([f"SENTINEL_ROW_{r}", r])
    wb.save(path)
    details = sheets.info(source_for_path(path), Request())
    listed = details.fields["sheets"][0]
    assert listed["rows"] is None and listed["dimension"] is None
    assert any("size unknown (no <dimension>)" in w for w in details.warnings)
    text, outcome = run(source_for_path(path), limits=Limits(max_rows=10))
    assert text.splitlines()[0] == "--- sheet 'Log' (rows 1-10 of ?) ---"
    assert "SENTINEL_ROW_10,10" in text and "SENTINEL_ROW_11" not in text
    assert outcome.resume == ("sheets", FILE, "Log", "--rows", "11-20")


def _xlsx_parts(sheet_xml: str, extra: dict[str, str] | None = None) -> bytes:
    import io

    parts = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                               'package/2006/content-types"/>',
        "xl/workbook.xml": '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                           'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                           '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                                      'relationships"><Relationship Id="rId1" Type="http://schemas.openxml'
                                      'formats.org/officeDocument/2006/relationships/worksheet" '
                                      'Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": sheet_xml,
        **(extra or {}),
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)
    return buf.getvalue()


_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def test_huge_declared_dimension_reads_only_real_rows() -> None:
    empties = "".join(f'<c r="{col}3" s="1"/>' for col in ("A", "B", "C", "D")) * 50
    xml = (f'<worksheet {_NS}><dimension ref="A1:XFD1048576"/><sheetData>'
           '<row r="1"><c r="A1" t="inlineStr"><is><t>Your Ref #</t></is></c></row>'
           '<row r="2"><c r="A2"><v>123</v></c></row>'
           f'<row r="3">{empties}</row><row r="1048576"><c r="A1048576" s="1"/></row>'
           "</sheetData></worksheet>")
    src = source_for_bytes("huge.xlsx", _xlsx_parts(xml))
    details = sheets.info(src, Request())
    assert details.fields["sheets"][0]["rows"] == 1_048_576
    assert any("declares 1,048,576 x 16,384 cells" in w for w in details.warnings)
    text, outcome = run(src)
    assert text == "--- sheet 'S' (rows 1-200 of 1,048,576) ---\nYour Ref #\n123\n"
    assert outcome.resume is None and not outcome.truncated


def test_xml_entities_are_refused() -> None:
    xml = (f'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><worksheet {_NS}><sheetData>'
           '<row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row></sheetData></worksheet>')
    src = source_for_bytes("bomb.xlsx", _xlsx_parts(xml))
    with pytest.raises(Refused):
        run(src)


def test_truncated_xlsx_is_corrupt(book: Path) -> None:
    data = book.read_bytes()
    with pytest.raises(Corrupt) as err:
        sheets.info(Source("cut.xlsx", Sniffed("xlsx", "x"), len(data) // 2, data=data[: len(data) // 2]),
                    Request())
    assert err.value.exit_code == ExitCode.CORRUPT


def test_encrypted_workbook() -> None:
    sniffed = Sniffed("xlsx", "x", subtype="encrypted-ooxml", encrypted=True)
    src = Source("secret.xlsx", sniffed, 10, data=b"x")
    for read in (lambda: sheets.info(src, Request()), lambda: run(src)):  # the same verdict from both
        with pytest.raises(Encrypted) as err:
            read()
        assert err.value.what == "secret.xlsx is password-protected" and "remove the password" in err.value.fix


def test_biff4_is_unsupported() -> None:
    src = source_for_bytes("old.xls", b"\x09\x04\x06\x00\x00\x00\x10\x00" + b"\x00" * 64)
    with pytest.raises(Unsupported) as err:
        run(src)
    assert "Excel 2-4 worksheet (BIFF4)" in err.value.what and "save as .xlsx" in err.value.fix


def _ods(rows_xml: str) -> bytes:
    import io

    content = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               '<office:body><office:spreadsheet><table:table table:name="Odd">'
               f"{rows_xml}</table:table></office:spreadsheet></office:body></office:document-content>")
    manifest = ('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.'
                'opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
                'manifest:media-type="text/xml"/></manifest:manifest>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", manifest)
    return buf.getvalue()


def _cell(text: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


def test_ods_rows_through_calamine() -> None:
    rows = "".join(f"<table:table-row>{_cell(f'SENTINEL_ODS_{r}')}{_cell('x')}</table:table-row>"
                   for r in range(1, 8))
    src = source_for_bytes("tiny.ods", _ods(rows))
    assert src.kind == "ods"
    details = sheets.info(src, Request())
    assert details.fields["sheets"][0]["name"] == "Odd" and details.fields["sheets"][0]["rows"] == 7
    text, outcome = run(src, limits=Limits(max_rows=5))
    assert text.splitlines()[0] == "--- sheet 'Odd' (rows 1-5 of 7) ---"
    assert "SENTINEL_ODS_5,x" in text and "SENTINEL_ODS_6" not in text
    assert outcome.resume == ("sheets", FILE, "Odd", "--rows", "6-10")


def test_ods_cell_bomb_is_refused() -> None:
    row = ('<table:table-row table:number-rows-repeated="999999999">'
           '<table:table-cell table:number-columns-repeated="999999999" office:value-type="string">'
           "<text:p>X</text:p></table:table-cell></table:table-row>")
    src = source_for_bytes("bomb.ods", _ods(row))
    with pytest.raises(Refused) as err:
        run(src)
    assert err.value.exit_code == ExitCode.REFUSED


@pytest.mark.parametrize(("value", "text"), [
    (None, ""), (3.0, "3"), (2.5, "2.5"), (0.1 + 0.2, "0.3"), (True, "TRUE"), ("", ""),
    (dt.datetime(2020, 1, 2), "2020-01-02"), (dt.datetime(2020, 1, 2, 3, 4, 5), "2020-01-02T03:04:05"),
    (dt.date(2020, 1, 2), "2020-01-02"), (dt.time(13, 30), "13:30:00"), (-7.0, "-7"),
])
def test_cell_text(value: Any, text: str) -> None:
    assert cell_text(value) == text


@settings(max_examples=25, deadline=None)
@given(max_chars=st.integers(min_value=1, max_value=3000), max_rows=st.integers(min_value=1, max_value=400))
def test_output_never_exceeds_the_limits(tmp_path_factory: pytest.TempPathFactory, max_chars: int,
                                         max_rows: int) -> None:
    path = tmp_path_factory.getbasetemp() / "prop.xlsx"
    if not path.exists():
        import xlsxwriter

        wb = xlsxwriter.Workbook(str(path))
        ws = wb.add_worksheet("P")
        for r in range(500):
            ws.write_row(r, 0, [r, f"row {r}", r / 7])
        wb.close()
    text, _ = run(source_for_path(path), limits=Limits(max_chars=max_chars, max_rows=max_rows))
    assert len(text) <= max_chars
    assert len(text.splitlines()) <= max_rows + 1


# ---- the real-world corpus -------------------------------------------------------------------


@pytest.mark.corpus
def test_corpus_any_sheets(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "xlsx-any_sheets.xlsx")
    listed = sheets.info(src, Request()).fields["sheets"]
    assert [(s["name"], s["state"], s["type"]) for s in listed] == [
        ("Visible", "visible", "worksheet"), ("Hidden", "hidden", "worksheet"),
        ("VeryHidden", "veryHidden", "worksheet"), ("Chart", "visible", "chartsheet"),
    ]
    text, _ = run(src)
    assert "1,2\n3,4\n5,6\n" in text
    assert "This workbook contains 4 sheets: Visible, Hidden, VeryHidden and Chart" in text


@pytest.mark.corpus
def test_corpus_huge_dimension(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "xlsx-issue_174-huge-dimension.xlsx")
    details = sheets.info(src, Request())
    assert any("declares 1,048,576 x 16,384 cells" in w for w in details.warnings)
    text, outcome = run(src)
    lines = text.splitlines()
    assert len(lines) == 3 and lines[1].startswith("Your Ref #,Contact Name,") and lines[2].startswith("123,")
    assert len(lines[1].split(",")) == 11 and outcome.resume is None


@pytest.mark.corpus
def test_corpus_xlsm_macros_reported(corpus_dir: Path) -> None:
    details = sheets.info(source_for_path(corpus_dir / "xlsm-vba.xlsm"), Request())
    assert details.fields["macros"] is True
    assert [s["name"] for s in details.fields["sheets"]] == ["Sheet1", "Sheet2", "Sheet3"]


@pytest.mark.corpus
def test_corpus_pass_protected(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "xlsx-pass_protected.xlsx")
    for read in (lambda: sheets.info(src, Request()), lambda: run(src)):  # info raises too: the engine describes
        with pytest.raises(Encrypted):
            read()
    assert boundread.info(src.name).encrypted and boundread.info(src.name).problem["code"] == "encrypted"


@pytest.mark.corpus
def test_corpus_xls_many_hidden_sheets(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "xls-OOM_alloc.xls")
    listed = sheets.info(src, Request()).fields["sheets"]
    assert len(listed) == 10 and sum(s["hidden"] for s in listed) == 9
    text, outcome = run(src)
    assert text.splitlines()[0].startswith("--- sheet 'Weekly Report'")
    first = next(line for line in text.splitlines()[1:] if line.strip(","))
    assert first.startswith("Principal Projects / Deals:")
    assert any("skipped 9 hidden" in w for w in outcome.warnings)


@pytest.mark.corpus
def test_corpus_ods_bomb_refused(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "ods-issue_594_dos.ods")
    with pytest.raises(Refused):
        sheets.info(src, Request())
    with pytest.raises(Refused):
        run(src)


@pytest.mark.corpus
def test_corpus_biff4(corpus_dir: Path) -> None:
    with pytest.raises(Unsupported):
        run(source_for_path(corpus_dir / "xls-biff4_no_format_no_window2.xls"))


@pytest.mark.parametrize("with_r", [True, False])
def test_deep_rows_are_skipped_by_bytes_and_still_numbered(with_r: bool) -> None:
    import io

    from boundread.formats.sheets.xlsx_rows import skip_to_row

    def attr(r: int) -> str:
        return f' r="{r}"' if with_r else ""

    rows = "".join(f'<row{attr(r)}><c t="inlineStr"><is><t>R{r}</t></is></c></row>' for r in range(1, 301))
    xml = f'<worksheet {_NS}><sheetData>{rows}</sheetData></worksheet>'
    stream, before = skip_to_row(io.BytesIO(xml.encode()), 250, chunk=7)
    assert before == 249 and stream.read(-1).decode().count("<row") == 51
    text, outcome = run(source_for_bytes("deep.xlsx", _xlsx_parts(xml)), rows=Span(250, 252))
    assert text.splitlines()[1:] == ["R250", "R251", "R252"]
    assert outcome.resume == ("sheets", FILE, "S", "--rows", "253-255")  # the next window of the same width


def test_an_explicit_row_range_is_not_truncation_and_resumes_with_its_width(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "rows.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    for n in range(40):
        sheet.write_row(n, 0, [f"row-{n + 1}", n + 1])
    book.close()
    from boundread.contract.model import Request, Span
    from boundread.core.engine import extract as engine_extract

    result = engine_extract(path, Request(sheets=("Data",), rows=Span(1, 5)), to_stdout=True)
    assert not result.truncated and result.text is not None and "row-5," in result.text and "row-6," not in result.text
    assert result.next == (f"boundread sheets {path} Data --rows 6-10",)


def _cli_error(path: Path) -> tuple[int, dict[str, Any]]:
    from tests.helpers import run_json

    code, doc = run_json("sheets", str(path))
    return code, doc["error"]


@pytest.mark.parametrize(("name", "data"), [
    ("bomb.xlsx", lambda: _xlsx_parts(f'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><worksheet {_NS}><sheetData>'
                                      '<row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row>'
                                      "</sheetData></worksheet>")),
    ("bomb.ods", lambda: _ods('<table:table-row table:number-rows-repeated="999999999"><table:table-cell '
                              'table:number-columns-repeated="999999999" office:value-type="string">'
                              "<text:p>X</text:p></table:table-cell></table:table-row>")),
])
def test_api_sheet_list_of_a_bomb_raises_what_the_cli_says(tmp_path: Path, name: str, data: Any) -> None:
    path = tmp_path / name
    path.write_bytes(data())
    with pytest.raises(Refused) as err:
        boundread.sheet_list(path)
    code, error = _cli_error(path)
    assert code == err.value.exit_code == ExitCode.REFUSED
    assert error["code"] == err.value.code == "refused" and error["message"] == str(err.value)


@pytest.mark.corpus
def test_api_sheet_list_of_the_corpus_ods_bomb_raises(corpus_dir: Path) -> None:
    path = corpus_dir / "ods-issue_594_dos.ods"
    with pytest.raises(Refused) as err:
        boundread.sheet_list(path)
    assert "spreadsheet bomb" in err.value.what
    assert _cli_error(path) == (7, {"code": "refused", "message": str(err.value), "exit_code": 7})


def test_api_sheet_list_reads_a_sane_book_and_refuses_a_non_workbook(book: Path, tmp_path: Path) -> None:
    listed = boundread.sheet_list(book)
    assert isinstance(listed, list) and [s["name"] for s in listed] == [
        s["name"] for s in sheets.info(source_for_path(book), Request()).fields["sheets"]]
    assert listed
    text = tmp_path / "notes.txt"
    text.write_text("SENTINEL plain text\n", encoding="utf-8")
    with pytest.raises(UsageError) as err:
        boundread.sheet_list(text)
    assert "not a workbook" in err.value.what
    with pytest.raises(UsageError):
        boundread.sheets(book, fmt="tsv")  # an option for rows, with no sheet to read
