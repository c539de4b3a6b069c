"""ods through our own streaming reader: sheet list by byte scan, rows by a bounded iterparse."""

from __future__ import annotations

import io
import zipfile
from typing import IO, Any, cast

import pytest

from boundread.contract.model import FILE, Request, Source, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.errors import Encrypted, ExitCode, Refused
from boundread.formats.sheets import handler as sheets
from boundread.formats.sheets import ods_rows
from boundread.limits import Limits

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
HIDDEN_STYLE = ('<office:automatic-styles><style:style style:name="ta2" style:family="table">'
                '<style:table-properties table:display="false"/></style:style>'
                '<style:style style:name="ta1" style:family="table">'
                '<style:table-properties table:display="true"/></style:style></office:automatic-styles>')
TRAILER = ('<table:table-row table:number-rows-repeated="1048000">'
           '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>')


def ods(tables: list[tuple[str, str]], *, styles: str = HIDDEN_STYLE, prolog: str = "",
        manifest_extra: str = "") -> bytes:
    """An ods of (start tag attributes, rows XML) tables."""
    body = "".join(f"<table:table {attrs}>{rows}</table:table>" for attrs, rows in tables)
    content = (f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<office:document-content {NS} office:version="1.2">'
               f"{styles}<office:body><office:spreadsheet>{body}</office:spreadsheet></office:body>"
               "</office:document-content>")
    manifest = ('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.'
                'opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
                f'manifest:media-type="text/xml">{manifest_extra}</manifest:file-entry></manifest:manifest>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", manifest)
    return buf.getvalue()


def s(text: str, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return f'<table:table-cell office:value-type="string"{rep}><text:p>{text}</text:p></table:table-cell>'


def row(*cells: str, repeat: int = 1) -> str:
    rep = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{rep}>{''.join(cells)}</table:table-row>"


def src_of(data: bytes, name: str = "book.ods") -> Source:
    src = source_for_bytes(name, data)
    assert src.kind == "ods"
    return src


def run(src: Source, **kw: Any) -> tuple[str, Any]:
    limits = kw.pop("limits", Limits())
    sink = Sink(limits)
    outcome = sheets.extract(src, Request(limits=limits, **kw), sink)
    return sink.text(), outcome


TYPED = row(
    '<table:table-cell office:value-type="float" office:value="3"><text:p>3.00</text:p></table:table-cell>',
    '<table:table-cell office:value-type="float" office:value="2.5"/>',
    '<table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25%</text:p></table:table-cell>',
    '<table:table-cell office:value-type="currency" office:currency="EUR" office:value="-7"/>',
    '<table:table-cell office:value-type="date" office:date-value="2024-03-15"/>',
    '<table:table-cell office:value-type="date" office:date-value="2024-03-15T13:45:30"/>',
    '<table:table-cell office:value-type="time" office:time-value="PT13H30M00S"/>',
    '<table:table-cell office:value-type="boolean" office:boolean-value="true"/>',
    '<table:table-cell office:value-type="boolean" office:boolean-value="false"/>',
)
RICH = row(
    '<table:table-cell office:value-type="string"><text:p>a<text:s text:c="2"/>b<text:tab/>c'
    '<text:span text:style-name="T1">SPAN<text:span>NESTED</text:span></text:span>tail</text:p>'
    '<text:p>second<text:line-break/>third</text:p></table:table-cell>',
    '<table:table-cell table:number-columns-repeated="2"/>',
    s("after gap"),
)


def test_values_of_every_type() -> None:
    text, outcome = run(src_of(ods([('table:name="Types"', TYPED + RICH + TRAILER)])))
    lines = text.splitlines()
    assert lines[0] == "--- sheet 'Types' (rows 1-2 of 2) ---"
    assert lines[1] == "3,2.5,25%,-7,2024-03-15,2024-03-15T13:45:30,13:30:00,TRUE,FALSE"
    assert text.split("\n", 2)[2].startswith('"a  b\tcSPANNESTEDtail\nsecond\nthird",,,after gap\n')
    assert outcome.warnings == [] and outcome.resume is None


def test_repeats_and_trailing_run() -> None:
    rows = (row(s("R", repeat=3), s("end")) + row(repeat=2) + row(s("twice"), repeat=2)
            + row(s("last"), '<table:table-cell table:number-columns-repeated="1020"/>') + TRAILER)
    src = src_of(ods([('table:name="Rep"', rows)]))
    listed = sheets.info(src, Request()).fields["sheets"][0]
    assert (listed["rows"], listed["cols"]) == (6, 4)  # the empty trailing run is not data
    text, outcome = run(src)
    assert text.splitlines()[1:] == ["R,R,R,end", "", "", "twice", "twice", "last"]
    assert outcome.warnings == [] and outcome.truncated == []


def test_two_sheets_and_a_hidden_one() -> None:
    src = src_of(ods([('table:name="One" table:style-name="ta1"', row(s("SENTINEL_ONE"))),
                      ('table:name="Secret &amp; Hidden" table:style-name="ta2"', row(s("SENTINEL_HIDDEN"))),
                      ('table:name="Two"', row(s("SENTINEL_TWO")))]))
    listed = sheets.info(src, Request()).fields["sheets"]
    assert [(x["name"], x["state"], x["rows"]) for x in listed] == [
        ("One", "visible", 1), ("Secret & Hidden", "hidden", 1), ("Two", "visible", 1)]
    text, outcome = run(src)
    assert "SENTINEL_ONE" in text and "SENTINEL_TWO" in text and "SENTINEL_HIDDEN" not in text
    assert any("skipped 1 hidden" in w for w in outcome.warnings)
    text, _ = run(src, sheets=("Secret & Hidden",))
    assert text.splitlines() == ["--- sheet 'Secret & Hidden' (rows 1-1 of 1) ---", "SENTINEL_HIDDEN"]
    text, _ = run(src, sheets=("3",))
    assert "SENTINEL_TWO" in text and "SENTINEL_ONE" not in text


def test_row_and_column_bounds_and_resume() -> None:
    rows = "".join(row(*(s(f"r{r}c{c}") for c in range(1, 61))) for r in range(1, 21))
    src = src_of(ods([('table:name="Wide"', rows)]))
    text, outcome = run(src, limits=Limits(max_rows=5, max_cols=3))
    assert text.splitlines()[1:] == [f"r{r}c1,r{r}c2,r{r}c3" for r in range(1, 6)]
    assert "max_rows 5 reached" in outcome.truncated and "max_cols 3 reached" in outcome.truncated
    assert outcome.resume == ("sheets", FILE, "Wide", "--rows", "6-10", "--max-cols", "3")  # the same columns
    text, outcome = run(src, limits=Limits(max_rows=5, max_cols=3), rows=Span(6, 10), sheets=("Wide",))
    assert text.splitlines()[1] == "r6c1,r6c2,r6c3" and text.splitlines()[-1] == "r10c1,r10c2,r10c3"
    assert outcome.resume == ("sheets", FILE, "Wide", "--rows", "11-15", "--max-cols", "3")


def test_repeated_value_columns_never_materialise_past_max_cols() -> None:
    src = src_of(ods([('table:name="W"', row(s("X", repeat=5000)))]))
    text, outcome = run(src, limits=Limits(max_cols=4))
    assert text.splitlines()[1] == "X,X,X,X" and "max_cols 4 reached" in outcome.truncated


@pytest.mark.parametrize("grouped", [False, True])
def test_deep_first_row_skips_by_bytes(grouped: bool) -> None:
    """Rows past the first 64 are found by a byte scan; row groups and repeats keep their numbers."""
    body = row(s("r1"), repeat=1) + row(s("same"), repeat=100) + "".join(row(s(f"r{r}")) for r in range(102, 400))
    if grouped:
        body = f"<table:table-row-group>{body}</table:table-row-group>"
    columns = '<table:table-column table:number-columns-repeated="3"/>'
    src = src_of(ods([('table:name="Before"', row(s("other"))), ('table:name="Deep"', columns + body + TRAILER)]))
    text, outcome = run(src, sheets=("Deep",), rows=Span(100, 104))
    assert text.splitlines()[1:] == ["same", "same", "r102", "r103", "r104"]
    assert outcome.resume == ("sheets", FILE, "Deep", "--rows", "105-109")
    text, _ = run(src, sheets=("Deep",), rows=Span(500, 504))
    assert "(no values in these rows)" in text


def test_reader_without_a_head_parses_from_the_start() -> None:
    data = ods([('table:name="A"', row(s("SENTINEL_A"))), ('table:name="B"', row(s("SENTINEL_B")))])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        tables = ods_rows.read_tables(zf, "x.ods", False)
        headless = ods_rows.Tables(tables.sheets, (), None, tables.size)
        got = list(ods_rows.sheet_rows(zf, headless, tables.sheets[1], 1, 5, 10, "x.ods"))
    assert got == [(1, ["SENTINEL_B"], False)]


class Counting:
    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.consumed = raw, 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.consumed += len(data)
        return data


def test_five_rows_of_a_big_sheet_read_a_sliver_of_it() -> None:
    body = "".join(row(s(f"r{r}a"), s(f"r{r}b"), s(f"r{r}c")) for r in range(1, 100_001))
    data = ods([('table:name="Big"', body)])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        size = zf.getinfo("content.xml").file_size
        tables = ods_rows.read_tables(zf, "big.ods", True)
        assert tables.sheets[0].rows is None  # too big to count (> SMALL)
        with zf.open("content.xml") as raw:
            counting = Counting(raw)
            rows = ods_rows.stream_rows(cast(IO[bytes], counting), tables, tables.sheets[0], 1, 5, 50, "big.ods")
            got = [next(rows) for _ in range(6)]
            rows.close()
    assert got[0] == (1, ["r1a", "r1b", "r1c"], False) and got[5][0] == 6
    assert size > 10_000_000 and counting.consumed < size // 50


def test_cell_bomb_in_columns_alone_is_refused() -> None:
    src = src_of(ods([('table:name="B"', row(s("X", repeat=999_999_999)))]))
    with pytest.raises(Refused) as err:
        run(src)
    assert err.value.exit_code == ExitCode.REFUSED and "spreadsheet bomb" in err.value.what


def test_entity_declaration_is_refused() -> None:
    prolog = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>'
    src = src_of(ods([('table:name="E"', row(s("&a;")))], prolog=prolog))
    with pytest.raises(Refused):
        sheets.info(src, Request())
    with pytest.raises(Refused):
        run(src)


def test_encrypted_manifest_is_reported() -> None:
    extra = ('<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x">'
             '<manifest:algorithm manifest:algorithm-name="Blowfish CFB"/></manifest:encryption-data>')
    src = src_of(ods([('table:name="P"', row(s("secret")))], manifest_extra=extra))
    with pytest.raises(Encrypted) as err:
        sheets.info(src, Request())
    assert "password-protected" in err.value.what and "LibreOffice" in err.value.fix
