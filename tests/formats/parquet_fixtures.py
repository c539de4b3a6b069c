"""Parquet files generated for the tests (pyarrow writes them; the tests skip without it)."""

from __future__ import annotations

from pathlib import Path

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source


def make_events(path: Path, *, rows: int = 1_000, group: int = 100, big: int = 0) -> Path:
    """``id`` 1..rows, ``name`` ``row{id}``, ``blob`` 3 bytes; row groups of ``group`` rows; with ``big``, row 2's
    name is ``big`` characters."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = [f"row{i}" for i in range(1, rows + 1)]
    if big and rows > 1:
        names[1] = "x" * big
    table = pa.table({"id": list(range(1, rows + 1)), "name": names, "blob": [b"abc"] * rows})
    pq.write_table(table, path, row_group_size=group)
    return path


def source(path: Path) -> Source:
    return Source(str(path), Sniffed("parquet", "application/vnd.apache.parquet"), path.stat().st_size, path)
