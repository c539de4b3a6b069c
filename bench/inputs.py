"""Generated inputs for the benchmarks, and the sample report that ships inside the package.

    python bench/inputs.py sample    # rewrites src/boundread/data/sample-report.pdf
    python bench/inputs.py all DIR   # generates (or reuses) every bench input in DIR

Each ``make_*`` writes to a temporary name and renames, so an interrupted run never leaves a half file
that a later run would reuse.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sys
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

REGIONS = ("North", "South", "East", "West", "Online")
WORDS = (
    "budget", "revenue", "margin", "logistics", "delivery", "supplier", "contract", "invoice", "region", "quarter",
    "forecast", "risk", "outlook", "audit", "customer", "churn", "pipeline", "inventory", "warehouse", "freight",
    "tariff", "pricing", "discount", "volume", "capacity",
)


def make_report_pdf(
    path: Path, pages: int, *, seed_text: str = "Quarterly report", repeat: int = 6
) -> Path:
    """A text PDF of ``pages`` pages; page 2 holds a table, every page a sentinel `PAGE-n`.

    ``repeat`` sets how many times the body sentence pair is written per page (6: about 1,000 characters).
    """
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_compression(True)
    pdf.set_title(f"{seed_text} 2026")
    for n in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, f"{seed_text} - section {n}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        if n == 2:
            pdf.cell(0, 8, "Revenue by region (thousands of euros)", new_x="LMARGIN", new_y="NEXT")
            table = [(region, str(100 + 7 * i), str(120 + 5 * i), str(90 + 11 * i))
                     for i, region in enumerate(REGIONS)]
            for row in [("Region", "Q1", "Q2", "Q3"), *table]:
                for cell in row:
                    pdf.cell(40, 8, cell, border=1)
                pdf.ln()
        pdf.multi_cell(0, 6, (
            f"PAGE-{n}. This page discusses results, risks and outlook for section {n}. "
            "Operating costs stayed within budget while logistics improved delivery times. "
        ) * repeat)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def _atomic(path: Path, write: Callable[[Path], object]) -> Path:
    """Reuse ``path`` if present, else build it under a temporary name and rename it into place."""
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    write(tmp)
    tmp.replace(path)
    return path


def make_pdf(path: Path, pages: int, *, repeat: int = 6) -> Path:
    return _atomic(path, lambda tmp: make_report_pdf(tmp, pages, repeat=repeat))


def make_xlsx(path: Path, rows: int, cols: int = 10) -> Path:
    """One sheet of ``rows`` data rows under a header: ids, dates, regions, amounts, free text."""

    def write(tmp: Path) -> None:
        import xlsxwriter

        book = xlsxwriter.Workbook(str(tmp), {"constant_memory": True})
        sheet = book.add_worksheet("Orders")
        date_fmt = book.add_format({"num_format": "yyyy-mm-dd"})
        sheet.write_row(0, 0, [f"col{c + 1}" for c in range(cols)])
        start = dt.date(2020, 1, 1)
        for r in range(1, rows + 1):
            for c in range(cols):
                kind = c % 5
                if kind == 0:
                    sheet.write_number(r, c, r)
                elif kind == 1:
                    sheet.write_datetime(r, c, dt.datetime.combine(start + dt.timedelta(days=r % 1500),
                                                                   dt.time()), date_fmt)
                elif kind == 2:
                    sheet.write_string(r, c, REGIONS[(r + c) % len(REGIONS)])
                elif kind == 3:
                    sheet.write_number(r, c, (r * 37 + c) % 10_000 / 100)
                else:
                    sheet.write_string(r, c, f"{WORDS[(r + c) % len(WORDS)]} {r}")
        book.close()

    return _atomic(path, write)


def make_log(path: Path, size: int) -> Path:
    """A server log of about ``size`` bytes: a 1 MB block of varied lines, written as often as needed."""

    def write(tmp: Path) -> None:
        rng = random.Random(7)
        levels = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
        lines, total, n = [], 0, 0
        while total < min(size, 1 << 20):
            n += 1
            line = (f"2024-05-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:{n * 7 % 60:02d}.{n % 1000:03d}Z "
                    f"{rng.choice(levels):5} worker-{n % 16} request={n:08d} "
                    f"{' '.join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))}\n")
            lines.append(line)
            total += len(line)
        block = "".join(lines).encode()
        with open(tmp, "wb") as fh:
            written = 0
            while written < size:
                fh.write(block)
                written += len(block)

    return _atomic(path, write)


def make_numbered_log(path: Path, lines: int) -> Path:
    """A log of ``lines`` lines of about 73 bytes, each with a unique `line NNNNNNNNN ` (15M lines: 1.1 GB).

    The numbers let a bench ask for one line near the end (`--grep 'line 014999000 '`) and check the answer.
    """

    def write(tmp: Path) -> None:
        rng = random.Random(5)
        levels = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
        tails = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 4))).ljust(30)[:30] for _ in range(997)]
        with open(tmp, "w", encoding="ascii") as fh:
            for start in range(1, lines + 1, 100_000):
                fh.write("".join(
                    f"2024-05-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:{n * 7 % 60:02d}Z "
                    f"{levels[n % 6]:5} line {n:09d} {tails[n % 997]}\n"
                    for n in range(start, min(start + 100_000, lines + 1))))

    return _atomic(path, write)


def make_zip(path: Path, entries: int, *, stored_bytes: int, text_bytes: int) -> Path:
    """A zip of ``entries`` members: half stored random data, half deflated text (``*_bytes`` in total)."""

    def write(tmp: Path) -> None:
        rng = random.Random(11)
        pool = [" ".join(rng.choice(WORDS) for _ in range(12)) + f" {rng.random():.6f}\n" for _ in range(4000)]
        stored = entries // 2
        texts = entries - stored
        with zipfile.ZipFile(tmp, "w") as zf:
            for i in range(stored):
                zf.writestr(zipfile.ZipInfo(f"data/blob-{i:03d}.bin", (2024, 1, 1, 0, 0, 0)),
                            os.urandom(stored_bytes // max(stored, 1)), compress_type=zipfile.ZIP_STORED)
            for i in range(texts):
                want = text_bytes // max(texts, 1)
                body = "".join(rng.choices(pool, k=want // 100 + 1))
                zf.writestr(zipfile.ZipInfo(f"docs/notes-{i:03d}.txt", (2024, 1, 1, 0, 0, 0)), body,
                            compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)

    return _atomic(path, write)


def _transcript_lines(session: str, rng: random.Random, n: int) -> list[str]:
    """One user turn and one assistant turn streamed as two lines sharing (message.id, requestId)."""
    stamp = f"2025-06-01T10:{n % 60:02d}:{n * 7 % 60:02d}.000Z"
    text = " ".join(rng.choice(WORDS) for _ in range(60))
    user = {"type": "user", "sessionId": session, "uuid": f"u-{n}", "timestamp": stamp,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t-{n}",
                                                     "content": text * 3}]}}
    usage = {"input_tokens": rng.randint(1, 400), "output_tokens": rng.randint(20, 2000),
             "cache_creation_input_tokens": rng.randint(0, 5000), "cache_read_input_tokens": rng.randint(0, 90000),
             "service_tier": "standard"}
    out = [json.dumps(user)]
    for part in ("thinking", "text"):
        msg = {"id": f"msg_{n:010d}", "type": "message", "role": "assistant",
               "model": "claude-sonnet-4-20250514" if n % 3 else "claude-opus-4-1-20250805",
               "content": [{"type": part, part: text}], "stop_reason": None, "usage": usage}
        out.append(json.dumps({"type": "assistant", "sessionId": session, "requestId": f"req_{n:010d}",
                               "uuid": f"a-{n}-{part}", "timestamp": stamp, "message": msg}))
    return out


def make_transcript(path: Path, size: int, *, session: str = "bench-session") -> Path:
    """A Claude Code transcript JSONL of about ``size`` bytes."""

    def write(tmp: Path) -> None:
        rng = random.Random(3)
        with open(tmp, "w", encoding="utf-8") as fh:
            written, n = 0, 0
            while written < size:
                n += 1
                chunk = "\n".join(_transcript_lines(session, rng, n)) + "\n"
                fh.write(chunk)
                written += len(chunk)

    return _atomic(path, write)


MB = 1_000_000
# name -> (generator, positional args, keyword args); the slow ones first so they start at once in the pool
INPUTS: dict[str, tuple[Callable[..., Path], tuple[object, ...], dict[str, object]]] = {
    "big1000.pdf": (make_pdf, (1000,), {}),
    "big.xlsx": (make_xlsx, (300_000,), {}),
    "text103.pdf": (make_pdf, (103,), {"repeat": 20}),
    "small5.pdf": (make_pdf, (5,), {}),
    "small.xlsx": (make_xlsx, (20,), {}),
    "small.log": (make_log, (1 << 20,), {}),
    "big.log": (make_log, (1 << 30,), {}),
    "huge.log": (make_numbered_log, (15_000_000,), {}),
    "small.zip": (make_zip, (4,), {"stored_bytes": 20_000, "text_bytes": 20_000}),
    "big.zip": (make_zip, (47,), {"stored_bytes": 88 * MB, "text_bytes": 100 * MB}),
    "big.jsonl": (make_transcript, (100 * MB,), {}),
}


def make_all(folder: Path, names: Iterable[str] | None = None, *, workers: int = 2) -> dict[str, Path]:
    """The bench inputs ``names`` (default: all) in ``folder``: present ones are reused, missing ones built in
    parallel."""
    from concurrent.futures import ProcessPoolExecutor

    folder.mkdir(parents=True, exist_ok=True)
    wanted = list(INPUTS) if names is None else list(names)
    todo = {name: INPUTS[name] for name in wanted if not (folder / name).exists()}
    if todo:
        print(f"generating {len(todo)} input(s) in {folder}: {', '.join(todo)} (once; reused later)",
              file=sys.stderr)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(fn, folder / name, *args, **kw) for name, (fn, args, kw) in todo.items()]
            for future in futures:
                future.result()
    return {name: folder / name for name in wanted}


def make_prices_xlsx(path: Path, rows: int = 300) -> Path:
    """A price workbook: a visible price list with dates, a notes sheet and a hidden sheet."""
    import datetime

    import xlsxwriter

    path.parent.mkdir(parents=True, exist_ok=True)
    book = xlsxwriter.Workbook(str(path))
    date_format = book.add_format({"num_format": "yyyy-mm-dd"})
    prices = book.add_worksheet("Prices 2026")
    prices.write_row(0, 0, ["SKU", "Product", "Region", "Unit price", "Updated"])
    for n in range(1, rows + 1):
        region = REGIONS[n % len(REGIONS)]
        prices.write_row(n, 0, [f"SKU-{n:05d}", f"Widget model {n}", region, round(9.5 + n * 0.25, 2)])
        prices.write_datetime(n, 4, datetime.datetime(2026, 1, 1) + datetime.timedelta(days=n % 300), date_format)
    notes = book.add_worksheet("Notes")
    notes.write_column(0, 0, ["Prices exclude VAT.", "Contact: sales@example.com"])
    internal = book.add_worksheet("Internal")
    internal.write(0, 0, "margin table")
    internal.hide()
    book.close()
    return path


if __name__ == "__main__":
    if sys.argv[1:] == ["sample"]:
        data = Path(__file__).resolve().parents[1] / "src" / "boundread" / "data"
        print(make_report_pdf(data / "sample-report.pdf", 12))
        print(make_prices_xlsx(data / "sample-prices.xlsx"))
    elif sys.argv[1:2] == ["all"] and len(sys.argv) == 3:
        for name, made in make_all(Path(sys.argv[2])).items():
            print(f"{name}: {made.stat().st_size:,} bytes")
    else:
        sys.exit("usage: python bench/inputs.py sample | all DIR")
