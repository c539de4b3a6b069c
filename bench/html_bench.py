"""A big saved web page: what info, pages (sections), extract and --grep cost, and a page of unfinished markup.

    .venv/bin/python bench/html_bench.py [--inputs /tmp/htmlbench] [--megabytes 17 200] [--pandoc]

Writes ``pageN.html`` when missing: a head with a script and a style, a site header and nav (dropped), then
sections of an h2, 20 paragraphs, an h3 over a 10-row table and a list, to N MB, with EARLYWORD in the first
paragraph and LATEWORD in the last; and ``openN.html``: a 1.5 MB tag never closed, then N MB of one paragraph
never closed. Each row runs as its own process and prints wall time and peak memory (the child's max RSS);
``--pandoc`` adds pandoc's conversion of the page to plain text, where it is installed. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]


def write_page(path: Path, megabytes: int) -> None:
    rnd = random.Random(7)
    with path.open("w", encoding="utf-8") as fh:
        fh.write("<!DOCTYPE html><html><head><title>Big page</title><style>p{color:red}</style>"
                 "<script>var x = '<h2>not a heading</h2>';</script></head><body>"
                 "<header><h1>Site</h1><nav><ul><li><a href='/'>Home</a></li></ul></nav></header><main>"
                 "<p>Intro paragraph EARLYWORD here.</p>")
        number = 0
        while fh.tell() < megabytes * 1_000_000:
            number += 1
            parts = [f"<h2 id='s{number}'>Section {number}</h2>"]
            parts += ["<p>" + " ".join(rnd.choice(WORDS) for _ in range(40)) + f" <b>p{k}</b></p>" for k in range(20)]
            parts.append("<h3>Table</h3><table><tr><th>a</th><th>b</th></tr>"
                         + "".join(f"<tr><td>{i}</td><td>{i * i}</td></tr>" for i in range(10)) + "</table>")
            parts.append("<ul>" + "".join(f"<li>item {i}</li>" for i in range(5)) + "</ul>")
            fh.write("".join(parts))
        fh.write("<h2>Last</h2><p>LATEWORD</p></main><footer><h3>Footer</h3></footer></body></html>")


def write_open(path: Path, megabytes: int) -> None:
    with path.open("wb") as fh:
        fh.write(b"<html><body><div class='x' " + b"attr " * 300_000 + b"><p>START ")
        line = b"word " * 200_000
        for _ in range(megabytes):
            fh.write(line)


def run(label: str, argv: list[str]) -> None:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    print(f"{label:<44} {wall:7.2f} s  {usage.ru_maxrss / 1024:8.1f} MB peak  exit {os.waitstatus_to_exitcode(status)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/htmlbench"))
    parser.add_argument("--megabytes", type=int, nargs="+", default=[17, 200])
    parser.add_argument("--pandoc", action="store_true")
    parser.add_argument("--write-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.inputs.mkdir(parents=True, exist_ok=True)
    if args.write_only:
        for size in args.megabytes:
            for name, write in (("page", write_page), ("open", write_open)):
                if not (args.inputs / f"{name}{size}.html").exists():
                    write(args.inputs / f"{name}{size}.html", size)
        return
    # written in a process of their own: a child's peak memory counts its parent's at the fork
    subprocess.run([sys.executable, __file__, "--inputs", str(args.inputs), "--write-only", "--megabytes",
                    *map(str, args.megabytes)], check=True)
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} on {os.cpu_count()} cores")
    for size in args.megabytes:
        page, hostile = str(args.inputs / f"page{size}.html"), str(args.inputs / f"open{size}.html")
        out = ["--stdout", "--timeout", "600"]  # to the bench's /dev/null
        print(f"page{size}.html: {Path(page).stat().st_size / 1e6:,.1f} MB")
        run("info (lists the sections)", [str(BIN), "info", page, "--timeout", "600"])
        run("pages 1-3", [str(BIN), "pages", page, "1-3", *out])
        run("pages in the middle (5 sections)", [str(BIN), "pages", page, f"{size * 190}-{size * 190 + 4}", *out])
        run("extract (first 100,000 chars)", [str(BIN), "extract", page, *out])
        run("extract --grep Section (100 matches early)", [str(BIN), "extract", page, "--grep", "Section", *out])
        run("extract --grep LATEWORD (converts it all)", [str(BIN), "extract", page, "--grep", "LATEWORD", *out])
        run(f"open{size}.html extract --grep START", [str(BIN), "extract", hostile, "--grep", "START", *out])
        if args.pandoc and shutil.which("pandoc") and size <= 20:
            run("pandoc -t plain (the whole page)", ["pandoc", "--from", "html", "--to", "plain", "-o", os.devnull,
                                                     page])


if __name__ == "__main__":
    main()
