"""What the guard's text-shape sniff costs on the hook path (guard/facts.py text_shape, text_lines): the time of
one text_lines call on a 10 MB file of each shape, against a bare count of LF bytes in the same 64 KiB sample
(what text_lines did before it looked at the shape). Not a test: it prints a table.

    .venv/bin/python bench/text_shape.py [--repeat N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boundread.guard import facts

LINE = "2026-11-29T08:00:00Z INFO worker 上传 request served in 12 ms\n"
SHAPES = {"LF utf-8": ("utf-8", "\n"), "CRLF utf-8": ("utf-8", "\r\n"), "CR-only": ("utf-8", "\r"),
          "utf-16 BOM": ("utf-16", "\n"), "utf-16-le no BOM": ("utf-16-le", "\n"),
          "utf-32-be no BOM": ("utf-32-be", "\n")}


def _best(call: object, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'shape':<18} {'text_lines ms':>14} {'LF count ms':>12} {'ratio':>6}  lines (true 160,000)")
        for name, (codec, end) in SHAPES.items():
            path = Path(folder) / "f.txt"
            path.write_bytes((LINE.replace("\n", end) * 160_000).encode(codec))
            size = path.stat().st_size

            def bare(p: Path = path) -> int:
                with open(p, "rb") as fh:
                    return fh.read(facts.SAMPLE).count(b"\n")

            shaped = _best(lambda p=path, s=size: facts.text_lines(p, s), repeat)
            plain = _best(bare, repeat)
            found = facts.text_lines(path, size)
            print(f"{name:<18} {shaped:>14.3f} {plain:>12.3f} {shaped / plain:>6.1f}  {found[0] if found else '-':,}")


if __name__ == "__main__":
    main()
