"""JSON and JSONL at 1 GB: boundread's own scanner against ijson (yajl2_c, its C backend) for the same work.

    .venv/bin/python bench/json_bench.py [--inputs /tmp/jsonbench] [--megabytes 1000] [--ijson DIR]

Generates ``dump.json`` (an API dump: {"meta", "items": [millions of records], "count"}) and ``events.jsonl``
with bench/json_fixtures.py when missing, then runs each row as its own process and prints wall time, MB/s
and peak memory (the child's max RSS). The ijson rows need ijson importable (``--ijson DIR`` adds a folder,
e.g. one made with ``pip install --target DIR ijson``); without it they are MISS. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")
HERE = Path(__file__).resolve().parent

IJSON_COUNT = """
import sys, ijson
with open(sys.argv[1], "rb") as fh:
    print(sum(1 for _ in ijson.items(fh, "items.item", buf_size=1 << 20)))
"""
IJSON_EVENTS = """
import sys, ijson
with open(sys.argv[1], "rb") as fh:
    print(sum(1 for _ in ijson.basic_parse(fh, buf_size=1 << 20)))
"""
IJSON_SLICE = """
import itertools, json, sys, ijson
with open(sys.argv[1], "rb") as fh:
    for item in itertools.islice(ijson.items(fh, "items.item", buf_size=1 << 20), int(sys.argv[2]), int(sys.argv[3])):
        print(json.dumps(item, default=float, indent=2))
"""


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit code) of one child process. On a shared machine the
    CPU time (user + system) is the steadier figure: wall time grows with everyone else's load."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd="/tmp")
    _, status, usage = os.wait4(proc.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/jsonbench"))
    parser.add_argument("--megabytes", type=int, default=1000)
    parser.add_argument("--ijson", type=Path, help="a folder holding the ijson package")
    parser.add_argument("--only", help="run the rows whose name contains this")
    args = parser.parse_args()
    dump, events = args.inputs / "dump.json", args.inputs / "events.jsonl"
    if not (dump.exists() and events.exists()):
        subprocess.run([sys.executable, str(HERE / "json_fixtures.py"), str(args.inputs), str(args.megabytes)],
                       check=True)
    env = {**os.environ, "BOUNDREAD_OUT_DIR": "/tmp/jsonbench-out", "NO_PROGRESS": "1"}
    if args.ijson:
        env["PYTHONPATH"] = str(args.ijson)
    has_ijson = subprocess.run([sys.executable, "-c", "import ijson; assert ijson.backend == 'yajl2_c'"],
                               env=env, capture_output=True).returncode == 0
    far = 2_800_000
    out = ["--output", "/tmp/jsonbench-out/x.txt", "--timeout", "600"]
    rows: list[tuple[str, Path, list[str] | None]] = [
        ("boundread info dump.json", dump, [str(BIN), "info", str(dump), "--timeout", "600"]),
        ("ijson items: count .items", dump, [sys.executable, "-c", IJSON_COUNT, str(dump)] if has_ijson else None),
        ("ijson basic_parse: every event", dump,
         [sys.executable, "-c", IJSON_EVENTS, str(dump)] if has_ijson else None),
        ("boundread extract --path .items[100:120]", dump,
         [str(BIN), "extract", str(dump), "--path", ".items[100:120]", *out]),
        (f"boundread extract --path .items[{far}:{far + 20}]", dump,
         [str(BIN), "extract", str(dump), "--path", f".items[{far}:{far + 20}]", *out]),
        (f"ijson items islice {far}:{far + 20}", dump,
         [sys.executable, "-c", IJSON_SLICE, str(dump), str(far), str(far + 20)] if has_ijson else None),
        ("boundread chunks dump.json (its first 200 chunks)", dump,  # MB/s: of the file, of which it reads the start
         [str(BIN), "chunks", str(dump), "-o", "/tmp/jsonbench-out/chunks", "--timeout", "600"]),
        ("boundread chunks dump.json --tokens 2000 (first 200, small)", dump,
         [str(BIN), "chunks", str(dump), "--tokens", "2000", "-o", "/tmp/jsonbench-out/small", "--timeout", "600"]),
        ("boundread info events.jsonl", events, [str(BIN), "info", str(events), "--timeout", "600"]),
        (f"boundread extract events.jsonl --rows {far}-{far + 19}", events,
         [str(BIN), "extract", str(events), "--rows", f"{far}-{far + 19}", *out]),
        ("boundread extract events.jsonl --grep 'user 2799999 '", events,
         [str(BIN), "extract", str(events), "--grep", "user 2799999 ", *out]),
    ]
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'row':58} {'wall s':>8} {'CPU s':>7} {'MB/s CPU':>8} {'peak MB':>8}  exit")
    for name, path, argv in rows:
        if args.only and args.only not in name:
            continue
        if argv is None:
            print(f"{name:58} {'MISS (no ijson with yajl2_c)':>26}")
            continue
        seconds, cpu, peak, code = timed(argv, env)
        rate = path.stat().st_size / 1e6 / max(cpu, 1e-3)
        print(f"{name:58} {seconds:8.2f} {cpu:7.2f} {rate:8.0f} {peak:8.0f}  {code}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
