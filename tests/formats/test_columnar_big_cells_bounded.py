"""A big string in a Parquet or Arrow file is cut in Arrow by its start: its size from the offsets, its first
characters only (a memory-mapped Arrow file's 50 MB string costs its first pages, not 50 MB); a long list keeps
its first items; a Parquet read that had to decode a big value whole (a page holds it) says so; a Parquet batch
of wide rows decodes fewer rows at once."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Request, Source, Span
from boundread.contract.sink import Sink
from boundread.formats.columnar import arrow, cells, handler
from boundread.limits import Limits

pa = pytest.importorskip("pyarrow", reason="the parquet extra (pyarrow) reads Parquet and Arrow")


def _table() -> object:
    return pa.table({"id": [1, 2, 3], "body": ["B" * 50_000_000, "short", "é" * 3000],
                     "tags": [list(range(5)), list(range(1000)), []], "data": [b"x", b"y" * 3_000_000, b""]})


def _rows(kind: str, path: Path, request: Request) -> tuple[list[list[str]], list[str]]:
    module, mime = (arrow, "application/vnd.apache.arrow.file") if kind == "arrow" else (handler, "x-parquet")
    sink = Sink(Limits())
    outcome = module.extract(Source(str(path), Sniffed(kind, mime), path.stat().st_size, path), request, sink)
    return list(csv.reader(io.StringIO(sink.text().split("\n", 2)[2]))), outcome.warnings


@pytest.mark.parametrize("kind", ["parquet", "arrow"])
def test_cells_are_cut_by_their_start(tmp_path: Path, kind: str) -> None:
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    path = tmp_path / f"t.{kind}"
    if kind == "arrow":
        feather.write_feather(_table(), str(path), compression="uncompressed")
    else:
        pq.write_table(_table(), path)
    rows, warnings = _rows(kind, path, Request(rows=Span(1, 3)))
    assert rows[0] == ["1", "B" * 2000 + "... [50,000,000 bytes]", "[0, 1, 2, 3, 4]", "[binary 1 bytes]"]
    assert rows[1][:2] == ["2", "short"] and rows[1][3] == "[binary 3,000,000 bytes]"
    assert rows[1][2].startswith("[0, 1, 2,") and rows[1][2].endswith(" 98, 99]... [1,000 items]")
    assert rows[2] == ["3", "é" * 2000 + "... [6,000 bytes]", "[]", "[binary 0 bytes]"]
    assert warnings[0] == f"3 cells cut at {cells.CELL_CHARS:,} characters"
    decoded = [w for w in warnings if "decoded whole" in w]
    assert decoded == ([] if kind == "arrow" else
                       ["a cell of 50.0 MB was decoded whole to show its start (Parquet keeps a value whole in one "
                        "page): reading its rows takes about that much memory, twice or more"])


_PEAK = """
import json, resource, sys
from boundread import api
api.sheets(sys.argv[1], "1", rows="2-2", stdout=True)  # the modules loaded, a small row read
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
text = api.sheets(sys.argv[1], "1", rows="1-1", stdout=True).text
print(json.dumps({"grown_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before, "text": text}))
"""


def test_a_50_mb_string_in_a_mapped_arrow_file_costs_its_start(tmp_path: Path) -> None:
    import pyarrow.feather as feather

    path = tmp_path / "big.arrow"
    feather.write_feather(pa.table({"id": [1, 2], "body": ["B" * 50_000_000, "short"]}), str(path),
                          compression="uncompressed")
    done = subprocess.run([sys.executable, "-c", _PEAK, str(path)], capture_output=True, text=True, check=True,
                          timeout=300)
    got = json.loads(done.stdout)
    assert got["grown_kb"] < 20_000, got["grown_kb"]  # utf8_length walked all 50 MB of it: ~50,000 kB more
    assert "B" * 2000 + "... [50,000,000 bytes]" in got["text"]


def test_a_batch_of_wide_rows_decodes_fewer_rows(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    path = tmp_path / "wide.parquet"
    texts = [f"{n:06d}" + "w" * 200_000 for n in range(300)]
    pq.write_table(pa.table({"id": list(range(300)), "text": texts}), path, row_group_size=300, compression="none",
                   use_dictionary=False)
    assert 60 < handler._batch_rows(pq.ParquetFile(path), [0]) < 90  # 16 MB of 200 kB rows, not 1,024 of them
    rows, _ = _rows("parquet", path, Request(rows=Span(250, 260)))
    assert [row[0] for row in rows] == [str(n) for n in range(249, 260)]


def test_a_value_python_cannot_hold_is_shown_as_its_number(tmp_path: Path) -> None:
    """A timestamp past year 9999 (in a struct, as Rust writers make them): its raw number, not a traceback."""
    import pyarrow.parquet as pq

    far = pa.array([1_608_822_900_000_000_000, 0], pa.timestamp("us", tz="UTC"))
    table = pa.table({"id": [1, 2], "when": far, "stats": pa.StructArray.from_arrays([far, pa.array([5, 6])],
                                                                                     ["max", "count"])})
    path = tmp_path / "far.parquet"
    pq.write_table(table, path)
    rows, _ = _rows("parquet", path, Request(rows=Span(1, 2)))
    assert rows[0][1] == "<timestamp[us, tz=UTC] out of range: 1608822900000000000>"
    assert rows[0][2] == "{'max': '<timestamp[us, tz=UTC] out of range: 1608822900000000000>', 'count': 5}"
    assert rows[1][1].startswith("1970-01-01 00:00:00")  # the values Python holds, as before
