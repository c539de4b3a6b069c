"""Properties of a CSV read by rows, on generated text with quotes, delimiters, blank lines and every line end:
every row read alone is the csv module's row of that number (the skip that does not parse lines without a quote
keeps the numbering), and no text or bytes make info or a read raise anything but a boundread error."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source
from boundread.formats.sheets import csv_rows
from boundread.formats.sheets.books import open_book

FUZZ = settings(derandomize=True, max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
PIECES = st.sampled_from(['"', ",", ";", "\t", "\n", "\r\n", "\r", '""', "a", "b c", "é", " ", "x\"y"])


def _source(data: bytes, kind: str = "csv") -> Source:
    return Source(name=f"t.{kind}", size=len(data), sniffed=Sniffed(kind, "text/csv", encoding="utf-8"),
                  path=None, data=data)


@FUZZ
@given(text=st.lists(PIECES, max_size=60).map("".join))
def test_each_row_alone_is_the_csv_modules(text: str) -> None:
    src = _source(text.encode("utf-8"))
    table = csv_rows.open_table(src)
    try:
        expected = list(csv.reader(io.StringIO(text, newline=""), delimiter=table.delimiter))
    except csv.Error:
        return
    for number, row in enumerate(expected, start=1):
        got = next(csv_rows.rows(src, table, number, 1000, csv_rows.Cuts()), None)
        assert got == (number, row, False), (text, number)
    assert next(csv_rows.rows(src, table, len(expected) + 1, 1000, csv_rows.Cuts()), None) is None


@FUZZ
@given(data=st.binary(max_size=2000), kind=st.sampled_from(["csv", "tsv"]))
def test_bad_bytes_read_to_a_result(data: bytes, kind: str) -> None:
    src = _source(data, kind)
    with open_book(src) as book:
        assert len(book.sheets) == 1 and book.sheets[0].name == "t"
        rows = list(book.rows(book.sheets[0], 1, 10**6, 50))
    assert all(len(values) <= 50 for _, values, _ in rows)
    assert [number for number, _, _ in rows] == list(range(1, len(rows) + 1))


def test_a_file_source_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(b'a,b\r\n"1\r\n2",3\r\n')
    src = Source(name=str(path), size=path.stat().st_size, sniffed=Sniffed("csv", "text/csv", encoding="utf-8"),
                 path=path)
    table = csv_rows.open_table(src)
    assert list(csv_rows.rows(src, table, 2, 50, csv_rows.Cuts())) == [(2, ["1\r\n2", "3"], False)]
