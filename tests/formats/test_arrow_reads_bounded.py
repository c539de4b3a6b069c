"""An Arrow IPC file (Feather v2) is one sheet named after the file: info gives the schema, record batches and
rows; --rows A-B converts only the batches that hold them; a truncated file is one Corrupt line."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.bytelevel.sniff import Sniffed, sniff_bytes
from boundread.contract.model import FILE, Request, Source, Span
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, ExitCode
from boundread.formats.columnar import arrow

pytest.importorskip("pyarrow")


def _feather(path: Path, rows: int = 1_000) -> Path:
    import pyarrow as pa
    import pyarrow.feather as feather

    table = pa.table({"id": list(range(1, rows + 1)), "name": [f"row{i}" for i in range(1, rows + 1)]})
    feather.write_feather(table, str(path), chunksize=100, compression="uncompressed")
    return path


def _source(path: Path) -> Source:
    return Source(str(path), Sniffed("arrow", "application/vnd.apache.arrow.file"), path.stat().st_size, path)


def test_the_magic_names_it() -> None:
    assert sniff_bytes(b"ARROW1\x00\x00\xff\xff", name="x.bin").kind == "arrow"


def test_info_and_rows_deep_in_the_file(tmp_path: Path) -> None:
    path = _feather(tmp_path / "ev.feather")
    details = arrow.info(_source(path), Request())
    assert details.fields["rows"] == 1_000 and details.fields["record_batches"] == 10
    assert details.fields["schema"] == "id int64, name string"
    req = Request(rows=Span(299, 302))
    sink = Sink(req.limits)
    outcome = arrow.extract(_source(path), req, sink)
    assert sink.text().splitlines() == ["--- sheet 'ev' (rows 299-302 of 1000, file order) ---", "id,name",
                                        "299,row299", "300,row300", "301,row301", "302,row302"]
    assert outcome.resume == ("sheets", FILE, "ev", "--rows", "303-306")


def test_a_truncated_file_is_corrupt(tmp_path: Path) -> None:
    path = _feather(tmp_path / "ev.feather")
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(Corrupt) as caught:
        arrow.info(_source(path), Request())
    assert caught.value.exit_code == ExitCode.CORRUPT and "\n" not in str(caught.value)
