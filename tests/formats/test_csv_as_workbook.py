"""CSV and TSV are workbooks of one sheet named after the file: ``sheets F NAME --rows A-B`` repeats the header
above the slice, ``info`` gives rows (counted, or estimated from the start of a big file and marked so) and
columns, --format csv|tsv|markdown, chunks by rows with the header in each, and a plain ``extract`` still reads
the file as text (--grep, --tail). Fixtures are generated here; the corpus CSV is read too when present."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from tests.helpers import run

from boundread import api
from boundread.bytelevel import charset, sniff
from boundread.contract.model import Request, Source, Span
from boundread.contract.sink import Sink
from boundread.core import engine
from boundread.errors import UsageError
from boundread.formats.sheets import csv_rows
from boundread.formats.sheets import handler as sheets
from boundread.formats.sheets.tabular import RowFormatter
from boundread.limits import Limits

ROWS = 1000  # data rows; the file has one more, the header


def _write(path: Path, rows: list[list[str]], delimiter: str = ",", encoding: str = "utf-8") -> Path:
    with path.open("w", newline="", encoding=encoding) as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


@pytest.fixture
def data(tmp_path: Path) -> Path:
    body = [[str(n), f"item{n}", "two\nlines" if n == 5 else f"note {n}"] for n in range(1, ROWS + 1)]
    return _write(tmp_path / "data.csv", [["id", "name", "note"], *body])


def test_a_csv_is_the_csv_kind_and_its_sheet_is_its_stem(data: Path) -> None:
    about = api.info(data)
    assert about.kind == "csv" and about.mislabelled is None
    assert [sheet["name"] for sheet in about.fields["sheets"]] == ["data"]
    assert (about.fields["rows"], about.fields["rows_estimated"], about.fields["columns"]) == (ROWS + 1, False, 3)
    assert about.fields["delimiter"] == "comma" and about.fields["header"] == "id,name,note"
    assert "boundread sheets " + str(data) + " data --rows 1-50" in about.next
    assert api.sheet_list(data)[0]["rows"] == ROWS + 1


def test_rows_a_to_b_repeat_the_header_and_keep_a_quoted_newline(data: Path) -> None:
    done = run("sheets", str(data), "data", "--rows", "4-7", "--stdout")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == ("--- sheet 'data' (rows 4-7 of 1,001) ---\nid,name,note\n3,item3,note 3\n"
                           "4,item4,note 4\n5,item5,\"two\nlines\"\n6,item6,note 6\n")
    assert "boundread sheets" in done.stderr and "data --rows 8-11" in done.stderr  # next: the following rows


def test_rows_without_a_sheet_read_the_one_sheet(data: Path) -> None:
    named = run("sheets", str(data), "data", "--rows", "4-7", "--stdout")
    alone = run("sheets", str(data), "--rows", "4-7", "--stdout")
    assert alone.exit_code == 0, alone.stderr
    assert alone.stdout == named.stdout and alone.stdout.startswith("--- sheet 'data' (rows 4-7")


def test_rows_without_a_sheet_of_a_workbook_of_several_name_them(tmp_path: Path) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(tmp_path / "two.xlsx"))
    for name in ("North", "South"):
        book.add_worksheet(name).write(0, 0, name)
    book.close()
    done = run("sheets", str(tmp_path / "two.xlsx"), "--rows", "1-3")
    assert done.exit_code == 2 and done.stdout == ""  # never the listing with --rows ignored
    assert "--rows needs a sheet: two.xlsx has 2 ('North', 'South')" in done.stderr
    assert "boundread sheets " in done.stderr and " North --rows 1-3" in done.stderr


def test_rows_from_the_first_do_not_repeat_the_header(data: Path) -> None:
    text = api.sheets(data, "data", rows="1-3", stdout=True).text or ""
    assert text.count("id,name,note") == 1


@pytest.mark.parametrize(("fmt", "header", "row"), [
    ("tsv", "id\tname\tnote\n", "500\titem500\tnote 500\n"),
    ("markdown", "| id | name | note |\n|---|---|---|\n", "| 500 | item500 | note 500 |\n"),
    ("csv", "id,name,note\n", "500,item500,note 500\n"),
])
def test_formats(data: Path, fmt: str, header: str, row: str) -> None:
    text = api.sheets(data, "data", rows="501-501", fmt=fmt, stdout=True).text or ""
    assert text.endswith(header + row), text


def test_rows_past_the_end_are_clamped_with_a_warning(data: Path) -> None:
    result = api.sheets(data, "1", rows="999-2000", stdout=True)
    assert (result.text or "").endswith("1000,item1000,note 1000\n")
    said = "asked rows 999-2000 but sheet 'data' has 1,001: read 999-1,001"
    assert said in result.warnings, result.warnings


def test_a_wrong_sheet_names_the_one_there(data: Path) -> None:
    with pytest.raises(UsageError, match="sheets are: 'data'"):
        api.sheets(data, "Sheet1", stdout=True)


def test_plain_extract_reads_it_as_text(data: Path) -> None:
    grep = api.extract(data, grep="item77[0-9]", stdout=True)
    assert grep.kind == "csv" and (grep.text or "").count("item77") == 10
    assert api.extract(data, tail=1, stdout=True).text == "1000,item1000,note 1000\n"
    assert api.extract(data, lines="1-1", stdout=True).text == "id,name,note\n"


def test_every_row_read_alone_is_the_csv_modules_row(tmp_path: Path) -> None:
    """Rows before a slice are counted without parsing the lines that hold no quote: the numbering must stay the
    csv module's, through quoted newlines, doubled quotes, an inch mark inside a field and blank lines."""
    path = tmp_path / "odd.csv"
    path.write_text('h1,h2\n1,"a\nb"\n2,3" pipe\n\n3,"x ""y""\n\nz"\r\n4,"q"\r5,end\n', encoding="utf-8")
    with path.open(newline="", encoding="utf-8") as fh:
        expected = list(csv.reader(fh))
    for number, row in enumerate(expected, start=1):
        text = api.sheets(path, "odd", rows=f"{number}-{number}", stdout=True).text or ""
        want = RowFormatter("csv").line(row) if row else "h1,h2\n"  # a blank row: the header alone
        assert text.endswith(want), (number, text, row)
        assert f"rows {number}-{number} of {len(expected)}" in text


def test_tsv_and_semicolons_are_split_by_their_delimiter(tmp_path: Path) -> None:
    tsv = _write(tmp_path / "t.tsv", [["a", "b,c"], ["1", "2,3"]], delimiter="\t")
    assert api.info(tsv).kind == "tsv"
    assert api.sheets(tsv, "t", rows="2-2", fmt="markdown", stdout=True).text == (
        "--- sheet 't' (rows 2-2 of 2) ---\n| a | b,c |\n|---|---|\n| 1 | 2,3 |\n")
    semi = _write(tmp_path / "s.csv", [["a", "b"], ["1,5", "2"]], delimiter=";")
    assert api.info(semi).fields["delimiter"] == "semicolon"
    assert (api.sheets(semi, "s", stdout=True).text or "").endswith('a,b\n"1,5",2\n')


def test_an_encoding_is_decided_and_can_be_named(tmp_path: Path) -> None:
    path = _write(tmp_path / "prices.csv", [["item", "price"], ["bread", "100 руб"]], encoding="cp1251")
    named = api.extract(path, sheets=("prices",), rows="2-2", encoding="cp1251", stdout=True)
    assert (named.text or "").endswith("item,price\nbread,100 руб\n")
    about = api.info(path, encoding="cp1251")
    assert about.fields["encoding_from"] == "--encoding"
    assert any("--sheet prices --rows 1-50 --encoding cp1251" in step for step in about.next), about.next


def test_a_big_csv_is_estimated_from_its_start_not_read_whole(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_rows, "SAMPLE_BYTES", 4_000)
    path = _write(tmp_path / "big.csv", [["n", "word"], *([f"{n:06d}", "x" * 20] for n in range(20_000))])
    got: list[int] = []

    class Counted(io.FileIO):
        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            got.append(len(data))
            return data

    monkeypatch.setattr(Source, "open", lambda self: Counted(str(self.path)))
    about = api.info(path)
    assert about.fields["rows_estimated"] is True and about.fields["sheets"][0]["rows"] is None
    assert 19_000 < about.fields["rows"] < 21_500, about.fields["rows"]  # 20,001 rows, from the first 4 KB
    assert any("rows estimated" in warning for warning in about.warnings)
    assert sum(got) <= charset.SAMPLE_BYTES + 4_000 < path.stat().st_size // 4  # its start only, twice at most
    got.clear()
    result = api.sheets(path, "big", rows="10001-10002", stdout=True)  # a forward scan that stops at row B
    assert (result.text or "").endswith("n,word\n009999," + "x" * 20 + "\n010000," + "x" * 20 + "\n")
    assert sum(got) - charset.SAMPLE_BYTES < path.stat().st_size * 0.55  # rows 1-10,003 of 20,001: about half
    assert "of ?" in (result.text or "")  # the count is an estimate: never shown as a count


def test_a_line_that_never_ends_is_cut_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_rows, "LINE_CHARS", 1_000)
    path = tmp_path / "long.csv"
    path.write_text("a,b\n1," + "y" * 50_000 + "\n2,after\n", encoding="utf-8")
    result = api.sheets(path, "long", stdout=True)
    text = result.text or ""
    assert text.endswith("2,after\n") and len(text) < 2_000
    assert any("row 2: a line longer than 1,000 characters was cut" in w for w in result.warnings), result.warnings
    later = api.sheets(path, "long", rows="3-3", stdout=True)  # the cut line is skipped on the way to row 3
    assert (later.text or "").endswith("a,b\n2,after\n")
    assert any("row 2: a line longer than 1,000 characters was cut" in w for w in later.warnings), later.warnings


def test_a_field_over_the_csv_modules_limit_is_cut_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("a,b\n1," + "w" * 500_000 + "\n2,after\n", encoding="utf-8")
    result = api.sheets(path, "wide", stdout=True, limits=Limits(max_chars=300_000))
    assert (result.text or "").endswith("2,after\n") and not any("damaged" in w for w in result.warnings)
    assert any(f"row 2: a line longer than {csv_rows.LINE_CHARS:,} characters" in w for w in result.warnings)
    assert csv.field_size_limit() > csv_rows.LINE_CHARS


def test_a_row_longer_than_max_chars_is_said_and_passed(tmp_path: Path) -> None:
    path = tmp_path / "fat.csv"
    path.write_text("a,b\n1," + "f" * 5_000 + "\n2,after\n", encoding="utf-8")
    first = api.sheets(path, "fat", rows="2-3", stdout=True, limits=Limits(max_chars=1_000))
    assert first.truncated
    assert any("row 2 alone is longer than --max-chars 1,000" in w for w in first.warnings), first.warnings
    assert "--rows 3-4" in first.next[0], first.next  # not 2-3 again: that read would stop at the same row
    then = api.sheets(path, "fat", rows="3-4", stdout=True, limits=Limits(max_chars=1_000))
    assert (then.text or "").endswith("a,b\n2,after\n")


def test_an_unclosed_quote_ends_the_read_as_damage_after_the_rows_before(tmp_path: Path) -> None:
    path = tmp_path / "open.csv"
    path.write_text('a,b\n1,ok\n2,"never closed\n' + "3,z\n" * 80_000, encoding="utf-8")  # it swallows the rest
    result = api.sheets(path, "open", stdout=True)
    assert (result.text or "").endswith("a,b\n1,ok\n")
    assert any("stopped at a damaged part after row 2" in w for w in result.warnings), result.warnings


def test_bad_bytes_named_csv_never_raise(tmp_path: Path) -> None:
    path = tmp_path / "noise.csv"
    path.write_bytes(bytes(range(32, 256)) * 50 + b"\r\n\"\x00,\"\n" * 10)
    about = api.info(path)
    if about.kind == "csv":
        api.sheets(path, "noise", stdout=True)


def test_chunks_go_by_rows_each_with_the_header(data: Path, tmp_path: Path) -> None:
    made = api.chunk(data, tokens=500, output=tmp_path / "chunks")
    assert made.complete and len(made.chunks) > 3
    for piece in made.chunks:
        text = (tmp_path / "chunks" / piece.file).read_text(encoding="utf-8")
        assert "id,name,note\n" in text, text[:200]
    assert "5,item5,\"two\nlines\"\n" in "".join((tmp_path / "chunks" / c.file).read_text(encoding="utf-8")
                                                 for c in made.chunks)


def test_a_member_named_csv_is_read_by_rows_too(data: Path, tmp_path: Path) -> None:
    import zipfile

    packed = tmp_path / "a.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.write(data, "dir/data.csv")
        archive.write(data, "top.csv")
    rows = api.extract(packed, member="dir/data.csv", rows="3-3", stdout=True)
    assert rows.kind == "csv"
    assert rows.text == "--- sheet 'data' (rows 3-3 of 1,001) ---\nid,name,note\n2,item2,note 2\n"
    top = api.extract(packed, member="top.csv", rows="3-3", stdout=True)
    assert (top.text or "").startswith("--- sheet 'top' (rows 3-3")
    assert "--sheet top --rows 4-4" in top.next[0], top.next
    grep = api.extract(packed, member="top.csv", grep="item999", stdout=True)
    assert grep.text == "1001:999,item999,note 999\n"  # a line number: row 5 holds a quoted line break


def test_read_as_routes_rows_and_text() -> None:
    assert engine.read_as("csv", Request(), None) == sniff.TEXT
    assert engine.read_as("csv", Request(rows=Span(1, 2)), None) == "csv"
    assert engine.read_as("tsv", Request(), ("xlsx", "tsv")) == "tsv"
    assert engine.read_as("xlsx", Request(), None) == "xlsx"


def test_the_handler_writes_the_header_only_once_per_slice(data: Path) -> None:
    sink = Sink(Limits())
    req = Request(sheets=("data",), rows=Span(10, 11))
    sheets.extract(engine.open_source(data), req, sink)
    assert sink.text() == "--- sheet 'data' (rows 10-11 of 1,001) ---\nid,name,note\n9,item9,note 9\n" \
                          "10,item10,note 10\n"


def test_the_cli_json_of_info(data: Path) -> None:
    done = run("info", str(data), "--json")
    assert done.exit_code == 0, done.stderr
    shown = json.loads(done.stdout)
    fields = shown[0]["fields"] if isinstance(shown, list) else shown.get("fields", shown)
    assert fields["rows"] == ROWS + 1 and fields["columns"] == 3


@pytest.mark.corpus
def test_the_corpus_csv_reads_as_rows(corpus_dir: Path) -> None:
    latin = corpus_dir / "csv-uspop-latin1.csv"
    about = api.info(latin)
    assert (about.kind, about.fields["rows"], about.fields["columns"]) == ("csv", 101, 5)
    text = api.sheets(latin, "csv-uspop-latin1", rows="4-4", stdout=True).text or ""
    assert "City,State,Population,Latitude,Longitude\n" in text and "Õakman,AL" in text
