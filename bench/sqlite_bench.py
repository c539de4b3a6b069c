"""SQLite at 10M rows: what boundread's bounded reads cost against sqlite3's own unbounded ones.

    .venv/bin/python bench/sqlite_bench.py [--inputs /tmp/sqlitebench] [--rows 10000000]

Generates ``big.db`` (``events``: 10M rows of an integer key and a short text; ``blobs``: one 50 MB BLOB and one
20 MB TEXT cell) when missing, then runs each row as its own process and prints wall time, peak memory (the
child's max RSS) and the bytes printed. The sqlite3 rows need the sqlite3 program (MISS without it). Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")


def make(path: Path, rows: int) -> None:
    if path.exists():
        return
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT, ms INTEGER)")
    conn.execute("INSERT INTO events SELECT n, 'click', n % 900 FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL "
                 f"SELECT n + 1 FROM r WHERE n < {rows}) SELECT n FROM r)")
    conn.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, b BLOB, t TEXT)")
    conn.execute("INSERT INTO blobs VALUES (1, zeroblob(50000000), NULL), (2, NULL, ?)", ("q" * 20_000_000,))
    conn.commit()
    conn.close()


PEAK = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, " \
       "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def measure(args: list[str], cwd: Path) -> tuple[float, float, int, int]:
    """(seconds, peak MB of the child, bytes printed, exit code); the peak from a second run in a fresh parent
    (RUSAGE_CHILDREN is the largest child a process ever waited for)."""
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, check=False)
    took = time.perf_counter() - start
    peak = subprocess.run([sys.executable, "-c", PEAK, *args], cwd=cwd, capture_output=True, text=True, check=False)
    return took, int(peak.stdout.strip() or 0) / 1024, len(done.stdout), done.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/sqlitebench"))
    parser.add_argument("--rows", type=int, default=10_000_000)
    opts = parser.parse_args()
    opts.inputs.mkdir(parents=True, exist_ok=True)
    db = opts.inputs / "big.db"
    make(db, opts.rows)
    b, s = str(BIN), shutil.which("sqlite3")
    cases: list[tuple[str, list[str] | None]] = [
        ("boundread info", [b, "info", "big.db"]),
        ("boundread sheets events --rows 1-50", [b, "sheets", "big.db", "events", "--rows", "1-50", "--stdout"]),
        ("boundread sheets events --rows 9999951-10000000",
         [b, "sheets", "big.db", "events", "--rows", f"{opts.rows - 49}-{opts.rows}", "--stdout"]),
        ("boundread extract --sql (count(*))", [b, "extract", "big.db", "--sql", "SELECT count(*) FROM events",
                                                "--stdout"]),
        ("boundread extract --sql (unlimited SELECT *)", [b, "extract", "big.db", "--sql",
                                                          "SELECT * FROM events", "--stdout"]),
        ("boundread sheets blobs (50 MB BLOB, 20 MB TEXT)", [b, "sheets", "big.db", "blobs", "--stdout"]),
        # the same cells through --sql: substr() makes SQLite load the 20 MB TEXT (a table read opens it by rowid)
        ("boundread extract --sql 'SELECT * FROM blobs'", [b, "extract", "big.db", "--sql", "SELECT * FROM blobs",
                                                           "--stdout"]),
        ("boundread extract --sql timeout 1 s", [b, "extract", "big.db", "--sql", "SELECT count(*) FROM events a, "
                                                 "events b", "--timeout", "1", "--stdout"]),
        ("sqlite3 'select count(*)'", [s, "big.db", "select count(*) from events"] if s else None),
        ("sqlite3 .dump (unbounded)", [s, "big.db", ".dump"] if s else None),
    ]
    print(f"{'case':52} {'s':>7} {'peak MB':>8} {'stdout':>12} {'exit':>5}")
    for name, args in cases:
        if args is None:
            print(f"{name:52} {'MISS':>7}")
            continue
        took, peak, printed, code = measure(args, opts.inputs)
        print(f"{name:52} {took:7.2f} {peak:8.1f} {printed:12,} {code:5}")
    print(f"(left over beside big.db: {sorted(p.name for p in opts.inputs.iterdir() if p.name != 'big.db')})")


if __name__ == "__main__":
    main()
