"""An ods cell's comment (office:annotation) comes out as ``Comment B2 (author): text`` after the sheet's rows,
never as silence and never as the cell's value; comments that do not fit are counted in a warning; an empty
sheet's header says "(empty)", not "rows 1-200 of 0" (issue 22, sweep findings 8 and 2)."""

from __future__ import annotations

import io
import zipfile

from tests.formats.test_ods import ods, row, run, s, src_of

from boundread.formats.sheets import ods_rows
from boundread.formats.sheets.ods_comments import column_letters, sheet_comments
from boundread.limits import Limits

DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"'


def noted(value: str, comment: str, author: str = "Rita", repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    who = f"<dc:creator {DC}>{author}</dc:creator>" if author else ""
    return (f'<table:table-cell office:value-type="string"{rep}><office:annotation>{who}<dc:date {DC}>2024-01-01'
            f"</dc:date><text:p>{comment}</text:p><text:p>second line</text:p></office:annotation>"
            f"<text:p>{value}</text:p></table:table-cell>")


BOOK = ods([('table:name="Ledger"', row(s("Invoice"), s("Amount"))
             + row(s("1042"), noted("19.90", "customer disputes the shipping surcharge"))
             + row(s("1043"), s("5"))
             + row(s("x", repeat=3), noted("1044", "paid twice", author=""))),
            ('table:name="Blank"', ""), ('table:name="Tail"', row(s("tail value")))])


def test_comments_follow_the_rows_with_their_cells() -> None:
    text, outcome = run(src_of(BOOK))
    assert text.split("--- sheet 'Blank'")[0].splitlines() == [
        "--- sheet 'Ledger' (rows 1-4 of 4) ---",
        "Invoice,Amount", "1042,19.90", "1043,5", "x,x,x,1044",
        "Comment B2 (Rita): customer disputes the shipping surcharge second line",
        "Comment D4 (unknown): paid twice second line",
    ]
    assert outcome.warnings == []


def test_empty_sheet_says_empty() -> None:
    text, _ = run(src_of(BOOK))
    blank = text.split("--- sheet 'Blank'")[1].split("--- sheet 'Tail'")[0]
    assert blank == " (empty) ---\n"
    assert "of 0)" not in text
    assert text.endswith("--- sheet 'Tail' (rows 1-1 of 1) ---\ntail value\n")


def test_comments_cut_by_max_chars_are_counted() -> None:
    limits = Limits(max_chars=170)
    text, outcome = run(src_of(BOOK), sheets=("Ledger",), limits=limits)
    assert "Comment B2" in text and "Comment D4" not in text
    assert "sheet 'Ledger': 1 cell comment not shown (--max-chars reached): raise --max-chars" in outcome.warnings


def test_comments_stop_at_the_last_row_asked() -> None:
    """The second look at the sheet goes no further than the rows the reader was bounded to."""
    with zipfile.ZipFile(io.BytesIO(BOOK)) as zf:
        tables = ods_rows.read_tables(zf, "book.ods", False)
        found = sheet_comments(zf, tables, tables.sheets[0], 3, 10_000)
    assert found.lines == ["Comment B2 (Rita): customer disputes the shipping surcharge second line"]


def test_column_letters() -> None:
    assert [column_letters(c) for c in (0, 1, 25, 26, 27, 701, 702)] == ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]
