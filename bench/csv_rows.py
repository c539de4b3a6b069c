"""A big CSV as a workbook (issue 23 item 4, issue 25 item 2): info stays bounded, rows A-B cost a forward scan
to row B, a plain grep stays a text grep.

    .venv/bin/python bench/csv_rows.py [--mb 1000] [--dir /tmp/boundread-bench]

Generates ``big-table.csv`` of ``--mb`` MB once (reused): a header and numbered rows of 5 columns, one row in
1,000 with a quoted field holding a newline and a comma. Times each command as a subprocess (the console script
next to this interpreter) with its peak memory (``/usr/bin/time -f %M``):

- ``boundread info``: reads the first 2 MB only, whatever the size (rows estimated);
- ``boundread sheets F big-table --rows 1-200`` and ``--rows N-N+199`` at the middle of the file;
- the peers for the same slice: ``sed -n`` (lines, not records: it cuts a quoted row) and a Python ``csv``
  loop that stops at the row, as an agent would write it;
- ``boundread extract F --grep`` (text) against ``grep -m``.

Prints seconds and MB; nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "boundread"
ROW = "{n},item-{n:09d},{price}.{cents:02d},2026-12-02T08:00:00,plain note for row {n}\n"
ODD = '{n},item-{n:09d},{price}.{cents:02d},2026-12-02T08:00:00,"a note, on\ntwo lines"\n'


def make_table(path: Path, megabytes: int) -> int:
    """The file, written once (rows counted in a side file); its number of records, the header included."""
    count_file = path.with_suffix(".rows")
    if path.exists() and count_file.exists() and path.stat().st_size >= megabytes * 1_000_000:
        return int(count_file.read_text())
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write("id,name,price,when,note\n")
        n, size, block = 0, 0, []
        while size < megabytes * 1_000_000:
            n += 1
            line = (ODD if n % 1000 == 0 else ROW).format(n=n, price=n % 997, cents=n % 100)
            block.append(line)
            size += len(line)
            if len(block) >= 50_000:
                out.write("".join(block))
                block.clear()
        out.write("".join(block))
    count_file.write_text(str(n + 1))
    return n + 1


def timed(words: list[str], shell: bool = False) -> tuple[float, float, str]:
    """(seconds, peak MB, the first line of stdout)."""
    cmd = ["/usr/bin/time", "-f", "%M", *(["sh", "-c", words[0]] if shell else words)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd="/tmp")
    seconds = time.perf_counter() - start
    peak = int((done.stderr.strip().splitlines() or ["0"])[-1] or 0) / 1024
    return seconds, peak, (done.stdout.splitlines() or [""])[0][:60]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=1000)
    parser.add_argument("--dir", default="/tmp/boundread-bench")
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    table = folder / "big-table.csv"
    rows = make_table(table, args.mb)
    middle = rows // 2
    name, stem = str(table), table.stem
    scan = (f"import csv,sys\nr=csv.reader(open({name!r},newline=''))\n"
            f"for i,row in enumerate(r,1):\n    if i>={middle}: print(','.join(row))\n"
            f"    if i>={middle + 199}: break\n")
    cases: list[tuple[str, list[str], bool]] = [
        ("boundread info", [str(BIN), "info", name], False),
        ("boundread sheets --rows 1-200", [str(BIN), "sheets", name, stem, "--rows", "1-200", "--stdout"], False),
        (f"boundread sheets --rows {middle:,}+200", [str(BIN), "sheets", name, stem, "--rows",
                                                     f"{middle}-{middle + 199}", "--stdout"], False),
        (f"sed -n {middle:,}+200 (lines, not rows)", [f"sed -n '{middle},{middle + 199}p;{middle + 200}q' {name}"],
         True),
        (f"python csv loop to row {middle:,}", [sys.executable, "-c", scan], False),
        ("boundread extract --grep item-000777777", [str(BIN), "extract", name, "--grep", "item-000777777",
                                                     "--max-matches", "1", "--stdout"], False),
        ("grep -m1 item-000777777", [f"grep -m1 item-000777777 {name}"], True),
    ]
    print(f"{table} ({table.stat().st_size / 1e6:,.0f} MB, {rows:,} rows)")
    if not shutil.which("sed"):
        cases = [case for case in cases if not case[0].startswith("sed")]
    for label, words, shell in cases:
        seconds, peak, first = timed(words, shell)
        print(f"  {label:<44} {seconds:7.2f} s  {peak:7.1f} MB  {first}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
