"""PDF full text against pdftotext, and what boundread costs beyond pypdfium2's own text call (issue 24 item 2).

```bash
.venv/bin/python bench/pdf_text.py [--inputs DIR] [--repeat 7]
```

Three kinds of row, each measured by turns (one run of each in a round, the best of ``--repeat`` rounds):

- in-process CPU: ``handler.extract`` of every page (sequential: workers off) against the floor, PDFium's own
  text loop through the same ctypes declarations (formats/pdf/binding.py: load the page, its text page, its text,
  close both). The ratio is the Python boundread adds per page: the judgement of each page's text
  (formats/pdf/judge.py), clean(), the rereader, the sink;
- the CLI as a user runs it (``boundread extract F -o OUT``, the default: workers where they pay) against
  ``pdftotext F OUT``: wall seconds, and CPU seconds of the process and its children (getrusage), which a loaded
  machine does not inflate as it does the wall;
- start-up: the CLI's CPU on a 5-page PDF, the part of every figure that does not grow with the pages.

The CLI runs with its .pyc files written, as an install has them (PYTHONDONTWRITEBYTECODE is emptied for it).

The load average is printed with the table: on 2 shared cores the wall figures move by 2-3x with it, the CPU
figures far less. Inputs come from bench/inputs.py (the same files as bench/run.py's PDF rows).
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from inputs import make_all  # bench/ is not a package: its modules import each other by name
from table import Row, machine, render

BOUNDREAD = Path(sys.executable).with_name("boundread")
PAGES = {"text103.pdf": "103 pages", "big1000.pdf": "1,000 pages"}


def _floor(path: Path) -> None:
    """PDFium's own text loop: every page's text, nothing else (what pypdfium2's get_text_range does)."""
    from boundread.formats.pdf import binding

    c = binding.pdfium()
    doc = c.FPDF_LoadDocument(str(path).encode(), None)
    try:
        for index in range(c.FPDF_GetPageCount(doc)):
            page = c.FPDF_LoadPage(doc, index)
            textpage = c.FPDFText_LoadPage(page)
            binding.page_text(c, textpage)
            c.FPDFText_ClosePage(textpage)
            c.FPDF_ClosePage(page)
    finally:
        c.FPDF_CloseDocument(doc)


def _ours(path: Path) -> None:
    """boundread's PDF handler, every page into a sink, in this process, sequentially."""
    from boundread.contract.model import Request
    from boundread.contract.sink import Sink
    from boundread.contract.source import source_for_path
    from boundread.formats.pdf import handler, parallel
    from boundread.limits import Limits

    usable, parallel.usable = parallel.usable, lambda: False  # type: ignore[assignment]
    try:
        sink = Sink(Limits(max_chars=10**9))
        handler.extract(source_for_path(path), Request(), sink)
        sink.close()
    finally:
        parallel.usable = usable  # type: ignore[assignment]


def _cpu(run: Callable[[], None]) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


def _command(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the command and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _row(what: str, ours: float, peer: float, limit: float | None) -> Row:
    ratio = ours / peer
    target = "-" if limit is None else f"<= {limit:g}x"
    result = "info" if limit is None else ("PASS" if ratio <= limit else "MISS")
    return Row(what, _ms(ours), _ms(peer), f"{ratio:.2f}x", target, result)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/boundread-bench"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    files = make_all(args.inputs, ["small5.pdf", *PAGES])
    work = args.inputs / "work"
    work.mkdir(parents=True, exist_ok=True)
    # PYTHONDONTWRITEBYTECODE emptied: the CLI runs on .pyc files, as installed (else every run compiles boundread)
    if shutil.which("pdftotext") is None:
        return "bench: no pdftotext to compare with - apt-get install poppler-utils"
    os.environ.update({"NO_COLOR": "1", "BOUNDREAD_STATE_DIR": str(work / "state"), "PYTHONDONTWRITEBYTECODE": ""})
    rows: list[Row] = []
    started = os.getloadavg()
    _ours(files["small5.pdf"])  # the handler's imports, outside every timed run
    for name, label in PAGES.items():
        path = files[name]
        rounds = [(_cpu(functools.partial(_floor, path)), _cpu(functools.partial(_ours, path)))
                  for _ in range(args.repeat)]
        floor, ours = min(floor for floor, _ in rounds), min(ours for _, ours in rounds)
        rows.append(_row(f"{label}, in-process CPU: handler.extract / PDFium's own loop", ours, floor, None))
    for name, label in PAGES.items():
        path = files[name]
        br = [str(BOUNDREAD), "extract", str(path), "--max-chars", "1000000000", "-o", str(work / f"{name}.txt")]
        peer = ["pdftotext", str(path), str(work / f"{name}.poppler.txt")]
        walls: dict[str, list[float]] = {"br": [], "peer": []}
        cpus: dict[str, list[float]] = {"br": [], "peer": []}
        for _ in range(args.repeat):
            for key, argv in (("peer", peer), ("br", br)):
                wall, cpu = _command(argv)
                walls[key].append(wall)
                cpus[key].append(cpu)
        limit = 2.0 if name == "text103.pdf" else 1.2
        rows.append(_row(f"full text, {label}, wall: boundread / pdftotext", min(walls["br"]), min(walls["peer"]),
                         limit))
        rows.append(_row(f"full text, {label}, CPU: boundread / pdftotext", min(cpus["br"]), min(cpus["peer"]),
                         None))
    small = [str(BOUNDREAD), "extract", str(files["small5.pdf"]), "-o", str(work / "small5.txt")]
    start = min(_command(small)[1] for _ in range(args.repeat))
    rows.append(Row("start-up: CPU of `extract` of a 5-page PDF", _ms(start), result="info"))
    print(machine())
    print(f"load average (1, 5, 15 min) at the start: {' '.join(f'{x:.1f}' for x in started)}, at the end: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(render(rows, markdown=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
