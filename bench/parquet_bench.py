"""Parquet at 10M rows: boundread's footer-only info and row-group-bounded --rows against reading the table whole
(``pyarrow.parquet.read_table``, what ``pandas.read_parquet`` calls before it builds a DataFrame, so pandas costs
at least as much).

    .venv/bin/python bench/parquet_bench.py [--inputs /tmp/parquetbench] [--rows 10000000]

Generates ``big.parquet`` (10M rows: an int64 key, a short string, a float; row groups of 1M rows) and
``groups.parquet`` (10,000 row groups of 10 rows) and ``cell.parquet`` (one 100 MB string cell) when missing,
then runs each row in its own process and prints wall time and peak memory (the child's max RSS). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

IMPORT = "import pyarrow.parquet"
HANDLER = ("import sys; from pathlib import Path; from boundread.bytelevel.sniff import Sniffed; "
           "from boundread.contract.model import Request, Source, Span; from boundread.contract.sink import Sink; "
           "from boundread.formats.columnar import handler; p = Path(sys.argv[1]); "
           "s = Source(str(p), Sniffed('parquet', 'application/vnd.apache.parquet'), p.stat().st_size, p); ")
INFO = HANDLER + "handler.info(s, Request())"
ROWS = HANDLER + ("a, b = map(int, sys.argv[2].split('-')); r = Request(rows=Span(a, b)); "
                  "handler.extract(s, r, Sink(r.limits))")
WHOLE = "import sys, pyarrow.parquet as pq; pq.read_table(sys.argv[1])"
PEAK = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, " \
       "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def make(folder: Path, rows: int) -> tuple[Path, Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    big, groups, cell = folder / "big.parquet", folder / "groups.parquet", folder / "cell.parquet"
    if not big.exists():
        with pq.ParquetWriter(big, pa.schema([("id", pa.int64()), ("kind", pa.string()), ("ms", pa.float64())])) \
                as writer:
            step = 1_000_000
            for start in range(0, rows, step):
                n = min(step, rows - start)
                ids = pa.array(range(start + 1, start + n + 1), pa.int64())
                writer.write_table(pa.table({"id": ids, "kind": pa.array(["click"] * n),
                                             "ms": pa.array([float(i % 900) for i in range(n)])}))
    if not groups.exists():
        pq.write_table(pa.table({"id": list(range(100_000))}), groups, row_group_size=10)
    if not cell.exists():
        pq.write_table(pa.table({"id": [1, 2], "s": ["x" * 100_000_000, "short"]}), cell)
    return big, groups, cell


def measure(code: str, *args: str) -> tuple[float, float]:
    """(seconds, peak MB of the child); the peak from a second run in a fresh parent."""
    cmd = [sys.executable, "-c", code, *args]
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    took = time.perf_counter() - start
    peak = subprocess.run([sys.executable, "-c", PEAK, *cmd], capture_output=True, text=True, check=False)
    return took, int(peak.stdout.strip() or 0) / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/parquetbench"))
    parser.add_argument("--rows", type=int, default=10_000_000)
    args = parser.parse_args()
    args.inputs.mkdir(parents=True, exist_ok=True)
    big, groups, cell = make(args.inputs, args.rows)
    deep = f"{args.rows - 100}-{args.rows - 51}"
    cases = [("python -c pass", "pass", ()), ("import pyarrow.parquet", IMPORT, ()),
             (f"info {big.name} (footer only)", INFO, (str(big),)),
             (f"info {groups.name} (10,000 row groups)", INFO, (str(groups),)),
             (f"--rows {deep} of {big.name}", ROWS, (str(big), deep)),
             (f"--rows 1-2 of {cell.name} (a 100 MB cell, shown cut)", ROWS, (str(cell), "1-2")),
             (f"read_table {big.name} (pandas.read_parquet's floor)", WHOLE, (str(big),))]
    print(f"{'case':<60} {'seconds':>8} {'peak MB':>8}")
    for name, code, extra in cases:
        took, peak = measure(code, *extra)
        print(f"{name:<60} {took:8.3f} {peak:8.1f}")


if __name__ == "__main__":
    main()
