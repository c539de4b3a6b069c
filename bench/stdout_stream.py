"""How soon ``--stdout`` text reaches a reader, and how soon a closed pipe stops the read (issue 23 item 2).

    .venv/bin/python bench/stdout_stream.py [--mb 200] [--dir /tmp/boundread-bench]

Generates a server log of ``--mb`` MB (once, reused) whose ``INFO`` lines are sparse - one in 50,000, the first
on line 10 - so a read that waits for the end, or that keeps reading after ``head -1`` has gone, scans the whole
file. Times, as a user's shell would run them (the console script next to this interpreter, a pipe to a reader
that takes one line and closes it):

- ``boundread extract big.log --grep INFO --stdout | head -1``: the first line's arrival and the exit;
- ``grep INFO big.log | head -1``, the peer;
- ``boundread view big.log --grep INFO | head -1`` (off a terminal, plain stdout).

Prints seconds; nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "boundread"
LINE = "2026-12-02T08:00:00.000 DEBUG worker-{n:07d} handled request in 12 ms from 10.0.0.1 path=/api/v1/items\n"


def make_log(path: Path, megabytes: int) -> Path:
    """A log of about ``megabytes`` MB, INFO on line 10 and then every 50,000th line."""
    if path.is_file() and path.stat().st_size >= megabytes * 1_000_000:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    block = []
    with path.open("w", encoding="utf-8") as fh:
        n, written = 0, 0
        while written < megabytes * 1_000_000:
            n += 1
            line = LINE.format(n=n)
            if n == 10 or n % 50_000 == 0:
                line = line.replace("DEBUG", "INFO ")
            block.append(line)
            if len(block) == 10_000:
                chunk = "".join(block)
                fh.write(chunk)
                written += len(chunk)
                block.clear()
        fh.write("".join(block))
    return path


def first_line(command: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """Run ``command | head -1``: seconds to the first line, seconds to the exit, the exit code, the line."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline().decode("utf-8", "replace").rstrip("\n")
    first = time.perf_counter() - start
    process.stdout.close()  # what head does after its line
    process.stderr.read()
    code = process.wait()
    return first, time.perf_counter() - start, code, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/boundread-bench"))
    args = parser.parse_args()
    log = make_log(args.dir / f"sparse-info-{args.mb}mb.log", args.mb)
    work = args.dir / "stdout-stream-cwd"
    work.mkdir(parents=True, exist_ok=True)
    unbounded = ["--max-chars", "1000000000", "--timeout", "600"]
    rows = [("boundread extract --grep INFO --stdout | head -1",
             [str(BIN), "extract", str(log), "--grep", "INFO", "--stdout", "--timeout", "600"]),
            ("boundread extract --grep DEBUG --stdout (1e7 matches) | head -1",
             [str(BIN), "extract", str(log), "--grep", "DEBUG", "--max-matches", "10000000", "--stdout", *unbounded]),
            ("boundread extract --lines 1-5000000 --stdout | head -1",
             [str(BIN), "extract", str(log), "--lines", "1-5000000", "--stdout", *unbounded]),
            ("boundread view --grep INFO | head -1",
             [str(BIN), "view", str(log), "--grep", "INFO", "--timeout", "600"])]
    if shutil.which("grep"):
        rows.append(("grep INFO | head -1", ["grep", "INFO", str(log)]))
    print(f"{log} ({log.stat().st_size / 1e6:.0f} MB)")
    for name, command in rows:
        first, total, code, line = first_line(command, work)
        print(f"{name:<66} first line {first:7.3f} s   exit {total:7.3f} s   code {code:3d}   {line[:40]!r}")


if __name__ == "__main__":
    main()
