"""A notebook with a 200 MB output: what info, extract and pages cost, against loading it with json (what
nbformat, nbconvert and markitdown do first).

    .venv/bin/python bench/notebook_bench.py [--inputs /tmp/nbbench] [--megabytes 200]

Writes ``big.ipynb`` when missing: 40 small cells, then one code cell whose stdout is MEGABYTES of lines
(as Jupyter stores it, a list of strings) and one whose image/png is a 20 MB base64 string, then 40 more cells.
Each row runs as its own process; it prints wall time and peak memory (the child's max RSS). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")
JSON_LOAD = "import json, sys\nwith open(sys.argv[1], 'rb') as fh:\n    print(len(json.load(fh)['cells']))\n"


def _cell(n: int) -> str:
    return json.dumps({"cell_type": "markdown", "metadata": {}, "source": [f"## cell {n}\n", "words " * 20]})


def write(path: Path, megabytes: int) -> None:
    line = json.dumps("y" * 99 + "\n")
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"cells": [' + ",".join(_cell(n) for n in range(1, 41)) + ",")
        fh.write('{"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "loop()", "outputs": '
                 '[{"output_type": "stream", "name": "stdout", "text": [')
        count = megabytes * 10_000
        for start in range(0, count, 10_000):
            fh.write(",".join([line] * min(10_000, count - start)) + ("," if start + 10_000 < count else ""))
        fh.write(']}]},{"cell_type": "code", "execution_count": 2, "metadata": {}, "source": "plot()", "outputs": '
                 '[{"output_type": "display_data", "metadata": {}, "data": {"image/png": "' + "A" * 20_000_000
                 + '"}}]},' + ",".join(_cell(n) for n in range(43, 83)))
        fh.write('], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}')


def run(label: str, argv: list[str]) -> None:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    print(f"{label:<34} {wall:7.2f} s  {usage.ru_maxrss / 1024:8.1f} MB peak  exit {os.waitstatus_to_exitcode(status)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/nbbench"))
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--write-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.inputs.mkdir(parents=True, exist_ok=True)
    path = args.inputs / f"big{args.megabytes}.ipynb"
    if args.write_only:
        write(path, args.megabytes)
        return
    if not path.exists():  # in a process of its own: a child's peak memory counts its parent's at the fork
        subprocess.run([sys.executable, __file__, "--inputs", str(args.inputs), "--megabytes", str(args.megabytes),
                        "--write-only"], check=True)
    print(f"{path.name}: {path.stat().st_size / 1e6:,.1f} MB, 82 cells")
    env_out = ["--stdout"]
    run("boundread info", [str(BIN), "info", str(path)])
    run("boundread pages 1-10", [str(BIN), "pages", str(path), "1-10", *env_out])
    run("boundread pages 41-42 (the big ones)", [str(BIN), "pages", str(path), "41-42", *env_out])
    run("boundread extract (all cells)", [str(BIN), "extract", str(path), *env_out])
    run("python json.load (nbformat's way)", [sys.executable, "-c", JSON_LOAD, str(path)])


if __name__ == "__main__":
    main()
