"""Hostile Parquet files give one line and a distinct exit code, or a bounded answer: a truncated file, a footer
length past the start, a footer of garbage, row groups whose offsets lie past the data, 10,000 row groups."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.formats.parquet_fixtures import make_events, source

from boundread.contract.model import Request, Span
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, ExitCode
from boundread.formats.columnar import handler

pytest.importorskip("pyarrow")


def _corrupt(path: Path) -> Corrupt:
    with pytest.raises(Corrupt) as caught:
        handler.info(source(path), Request())
    assert caught.value.exit_code == ExitCode.CORRUPT
    assert "\n" not in str(caught.value) and caught.value.fix
    return caught.value


def test_a_truncated_file_is_corrupt(tmp_path: Path) -> None:
    path = make_events(tmp_path / "e.parquet")
    path.write_bytes(path.read_bytes()[:-100])
    assert "no PAR1 at the end" in _corrupt(path).what


def test_a_footer_length_past_the_start_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "e.parquet"
    path.write_bytes(b"PAR1" + b"\0" * 20 + (10**9).to_bytes(4, "little") + b"PAR1")
    assert "claims 1,000,000,000 bytes" in _corrupt(path).what


def test_a_garbage_footer_is_corrupt(tmp_path: Path) -> None:
    path = make_events(tmp_path / "e.parquet")
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[-8:-4], "little")
    data[-8 - size:-8] = b"\xff" * size
    path.write_bytes(bytes(data))
    assert "damaged Parquet footer" in _corrupt(path).what


def test_row_groups_past_the_data_are_corrupt(tmp_path: Path) -> None:
    path = make_events(tmp_path / "e.parquet")
    data = path.read_bytes()
    size = int.from_bytes(data[-8:-4], "little")
    path.write_bytes(b"PAR1" + data[-8 - size:])  # the footer kept, the data it points at cut out
    assert "lies past the data" in _corrupt(path).what


def test_ten_thousand_row_groups_stay_bounded(tmp_path: Path) -> None:
    path = make_events(tmp_path / "many.parquet", rows=10_000, group=1)
    details = handler.info(source(path), Request())
    assert details.fields["row_groups"] == 10_000 and len(details.fields["row_group_rows"]) == handler.LISTED_GROUPS
    assert "10,000 row groups: the rows of the first 20 listed" in details.warnings
    req = Request(rows=Span(9_995, 10_000))
    sink = Sink(req.limits)
    outcome = handler.extract(source(path), req, sink)
    assert [line.split(",")[0] for line in sink.text().splitlines()[2:]] == [str(i) for i in range(9_995, 10_001)]
    assert "row groups 9995-10000 read" in outcome.done and outcome.resume is None


def test_a_row_count_that_disagrees_with_the_row_groups_is_corrupt(tmp_path: Path) -> None:
    path = make_events(tmp_path / "e.parquet")  # 1,000 rows in row groups of 100
    data = path.read_bytes()
    size = int.from_bytes(data[-8:-4], "little")
    meta = data[-8 - size:-8]
    count = b"\x16\xd0\x0f"  # FileMetaData.num_rows, field 3 (i64), zigzag varint of 1,000
    assert meta.count(count) == 1
    path.write_bytes(data[:-8 - size] + meta.replace(count, b"\x16\xd2\x0f") + data[-8:])  # says 1,001
    assert "the footer says 1,001 rows, its row groups 1,000" in _corrupt(path).what
