"""A Parquet file is one sheet named after the file: info from the footer alone, ``--rows A-B`` decoding only
the row groups that hold those rows, cells cut and binaries shown as their size."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.formats.parquet_fixtures import make_events, source

from boundread.contract.model import FILE, Outcome, Request, Span
from boundread.contract.sink import Sink
from boundread.errors import UsageError
from boundread.formats.columnar import cells, handler
from boundread.limits import Limits

pytest.importorskip("pyarrow")


def test_info_reads_schema_groups_and_rows_from_the_footer(tmp_path: Path) -> None:
    details = handler.info(source(make_events(tmp_path / "events.parquet")), Request())
    fields = details.fields
    assert fields["rows"] == 1_000 and fields["row_groups"] == 10 and fields["columns"] == 3
    assert fields["magic"] == "PAR1 at both ends"
    assert fields["schema"].startswith("id int64, name string")
    assert fields["sheets"][0]["name"] == "events" and fields["sheets"][0]["rows"] == 1_000


def _extract(path: Path, req: Request) -> tuple[str, Outcome]:
    sink = Sink(req.limits)
    outcome = handler.extract(source(path), req, sink)
    return sink.text(), outcome


def test_rows_deep_in_the_file_read_only_their_row_groups(tmp_path: Path) -> None:
    path = make_events(tmp_path / "events.parquet")
    text, outcome = _extract(path, Request(rows=Span(455, 460)))
    lines = text.splitlines()
    assert lines[0] == "--- sheet 'events' (rows 455-460 of 1000, file order) ---"
    assert lines[1] == "id,name,blob"
    assert lines[2:] == [f"{i},row{i},[binary 3 bytes]" for i in range(455, 461)]
    assert "row groups 5-5 read" in outcome.done
    assert outcome.resume == ("sheets", FILE, "events", "--rows", "461-466")


def test_rows_across_row_groups_and_the_max_rows_bound(tmp_path: Path) -> None:
    path = make_events(tmp_path / "events.parquet")
    text, outcome = _extract(path, Request(rows=Span(95, 2_000), limits=Limits(max_rows=10)))
    assert [line.split(",")[0] for line in text.splitlines()[2:]] == [str(i) for i in range(95, 105)]
    assert "row groups 1-2 read" in outcome.done
    assert outcome.truncated == ["max_rows 10 reached"]


def test_rows_past_the_end_say_so(tmp_path: Path) -> None:
    text, outcome = _extract(make_events(tmp_path / "e.parquet"), Request(rows=Span(5_000, 5_010)))
    assert "no rows from 5,000" in outcome.done and text.count("\n") == 2


def test_a_long_string_cell_is_cut_and_said(tmp_path: Path) -> None:
    path = make_events(tmp_path / "e.parquet", rows=5, big=5_000_000)
    text, outcome = _extract(path, Request(rows=Span(1, 5)))
    assert len(text) < 10_000
    assert "... [5,000,000 bytes]" in text  # its size from the offsets: the string itself is not walked
    assert outcome.warnings == [f"1 cells cut at {cells.CELL_CHARS:,} characters"]


def test_another_sheet_name_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="one sheet, 'e'"):
        _extract(make_events(tmp_path / "e.parquet"), Request(sheets=("other",)))
    text, _ = _extract(make_events(tmp_path / "e.parquet"), Request(sheets=("e",), rows=Span(1, 1)))
    assert text.splitlines()[2] == "1,row1,[binary 3 bytes]"
