"""The boundread bench: generate big inputs once, find or install the peers, time everything, print one table.

    .venv/bin/python bench/run.py [--inputs DIR] [--repeat N] [--markdown]

Every figure is a subprocess measured in this run (wall time: best of N; peak RSS: per command), through the
installed console script next to this interpreter, so start-up is included as a user sees it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import concurrency
import inputs
import peers
import table
from context import Ctx
from measure import Measure, measure
from table import Row, mapped_row, memory_row, ratio_row, seconds_row, skipped


def _by_turns(ctx: Ctx, runs: dict[str, list[str]], rounds: int) -> dict[str, Measure]:
    """Each command once a round, in turn, so the machine's load drifts over all of them alike; every run's wall
    time and the largest peak RSS."""
    got: dict[str, list[Measure]] = {label: [] for label in runs}
    for _ in range(rounds):
        for label, argv in runs.items():
            got[label].append(ctx.run(label, argv, repeat=1))
    return {label: Measure(ms[0].argv, tuple(t for m in ms for t in m.walls), max(m.peak_mb for m in ms),
                           next((m.error for m in ms if m.error), "")) for label, ms in got.items()}


def startup_rows(ctx: Ctx) -> list[Row]:
    """The floor under every CLI figure: interpreter start, then the console script doing nothing."""
    ctx.run("warm-up", [str(ctx.exe), "--version"], repeat=2)  # page cache, .pyc files
    got = _by_turns(ctx, {"python -c pass": [sys.executable, "-c", "pass"],
                          "boundread --version": [str(ctx.exe), "--version"]}, max(ctx.repeat, 10))
    ctx.memory.append(("--version", got["boundread --version"]))
    return [ratio_row("start-up: boundread --version / python -c pass", got["boundread --version"],
                      got["python -c pass"], limit=5)]


FULL_TEXT = {"small5.pdf": ("5-page PDF (start-up bound)", None), "text103.pdf": ("103-page PDF", 2.0),
             "big1000.pdf": ("1,000-page PDF", 1.2)}


def pdf_rows(ctx: Ctx) -> list[Row]:
    f, w = ctx.files, ctx.work
    small = ctx.br("pages small5.pdf 1-5", "pages", f["small5.pdf"], "1-5", "-o", w / "pages-small.txt")
    big = ctx.br("pages big1000.pdf 1-5", "pages", f["big1000.pdf"], "1-5", "-o", w / "pages-big.txt")
    rows = [ratio_row("pages 1-5: 1,000-page PDF / 5-page PDF", big, small, limit=1.3)]
    poppler = ctx.peer("pdftotext")
    full: dict[str, Measure] = {}
    for name, (label, limit) in FULL_TEXT.items():
        stem = name.removesuffix(".pdf")
        ours_argv = [str(ctx.exe), "extract", str(f[name]), "--max-chars", "100000000", "-o", str(w / f"{stem}.txt")]
        if not poppler:
            full[name] = ctx.br(f"extract {name} (full text)", *ours_argv[1:])
            rows.append(skipped(f"full text, {label}: boundread / pdftotext", "pdftotext not installed"))
            continue
        got = _by_turns(ctx, {f"boundread extract {name}": ours_argv,
                              f"pdftotext {name}": [poppler, str(f[name]), str(w / f"{stem}-poppler.txt")]},
                        ctx.repeat)
        full[name] = got[f"boundread extract {name}"]
        ctx.memory.append((f"extract {name} (full text)", full[name]))
        rows.append(ratio_row(f"full text, {label}: boundread / pdftotext", full[name], got[f"pdftotext {name}"],
                              limit=limit))
    md = ctx.peer("markitdown")
    if md:
        theirs = ctx.run("markitdown text103.pdf", [md, str(f["text103.pdf"]), "-o", str(w / "text103.md")],
                         repeat=1)
        rows.append(ratio_row("full text, 103-page PDF: markitdown / boundread", full["text103.pdf"], theirs,
                              limit=20, higher=True, invert=True))
    else:
        rows.append(skipped("full text, 103-page PDF: markitdown / boundread", "markitdown not installed"))
    for stem in ("text103", "big1000"):
        sizes = {p.name: len(p.read_text(encoding="utf-8", errors="replace"))
                 for p in (w / f"{stem}.txt", w / f"{stem}-poppler.txt", w / f"{stem}.md") if p.exists()}
        ctx.notes.append(f"{stem}.pdf text, characters written: " + ", ".join(f"{k} {n:,}" for k, n in sizes.items()))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ctx.notes.append(f"full text: boundread reads pages on {cores} cores (forked PDFium workers); pdftotext on one")
    return rows


def info_rows(ctx: Ctx) -> list[Row]:
    rows = []
    for kind, big, small, label in (("pdf", "big1000.pdf", "small5.pdf", "1,000-page PDF / 5-page PDF"),
                                    ("xlsx", "big.xlsx", "small.xlsx", "300,000-row xlsx / 20-row xlsx"),
                                    ("zip", "big.zip", "small.zip", "113 MB zip (47 entries) / 4-entry zip")):
        m_small = ctx.br(f"info {small}", "info", ctx.files[small])
        m_big = ctx.br(f"info {big}", "info", ctx.files[big])
        rows.append(ratio_row(f"info ({kind}): {label}", m_big, m_small, limit=1.3))
    return rows


def xlsx_rows(ctx: Ctx) -> list[Row]:
    big = ctx.files["big.xlsx"]
    ours = ctx.br("sheets big.xlsx 1 --max-rows 50", "sheets", big, "1", "--max-rows", "50",
                  "-o", ctx.work / "sheet.csv")
    rows = [seconds_row("sheets big.xlsx 1 --max-rows 50 (300,000 rows)", ours, 0.5)]
    naive = ctx.run("openpyxl.load_workbook(big.xlsx) + 50 rows",
                    [sys.executable, "-c", peers.NAIVE_OPENPYXL, str(big), "50"], repeat=1)
    rows.append(ratio_row("50 rows of big.xlsx: naive openpyxl / boundread", ours, naive, limit=None, invert=True))
    rows.append(Row("  naive openpyxl peak RSS (for comparison)", "-", f"{naive.peak_mb:.0f} MB"))
    return rows


def log_rows(ctx: Ctx) -> list[Row]:
    f, w = ctx.files, ctx.work
    small = ctx.br("extract small.log --lines 1-1000", "extract", f["small.log"], "--lines", "1-1000",
                   "-o", w / "log-small.txt")
    big = ctx.br("extract big.log --lines 1-1000", "extract", f["big.log"], "--lines", "1-1000",
                 "-o", w / "log-big.txt")
    return [ratio_row("extract --lines 1-1000: 1 GB log / 1 MB log", big, small, limit=1.3)]


def text_rows(ctx: Ctx) -> list[Row]:
    """A 1.1 GB, 15-million-line log (in the page cache), each row next to the Unix tool doing the same."""
    f, w = ctx.files, ctx.work
    huge = f["huge.log"]
    tools = {name: shutil.which(name) for name in ("grep", "sed", "tail", "cat")}
    if not all(tools.values()):
        return [skipped("text rows (huge.log)", "grep, sed, tail or cat not found")]
    grep, sed, tail, cat = (str(tools[name]) for name in ("grep", "sed", "tail", "cat"))
    ctx.run("warm-up: cat huge.log", [cat, str(huge)], repeat=1)  # into the page cache for every row
    rows = []
    ours = ctx.br("extract huge.log --grep NOSUCHTHING", "extract", huge, "--grep", "NOSUCHTHING",
                  "-o", w / "huge-none.txt")
    theirs = ctx.run("grep -c NOSUCHTHING huge.log", [grep, "-c", "NOSUCHTHING", str(huge)], ok=(1,))
    rows.append(ratio_row("grep, no match, 1.1 GB log: boundread / grep -c", ours, theirs, limit=3))
    ours = ctx.br("extract huge.log --grep '\\d{12}'", "extract", huge, "--grep", r"\d{12}",
                  "-o", w / "huge-digits.txt", repeat=1)  # tens of seconds: once
    theirs = ctx.run("grep -cP '\\d{12}' huge.log", [grep, "-cP", r"\d{12}", str(huge)], ok=(1,), repeat=1)
    rows.append(ratio_row("grep, no literal (\\d{12}), no match: boundread / grep -cP", ours, theirs, limit=None))
    needle = "line 014999000 "
    ours = ctx.br("extract huge.log --grep 'line 014999000 ' --max-matches 1", "extract", huge, "--grep", needle,
                  "--max-matches", "1", "-o", w / "huge-one.txt")
    theirs = ctx.run("grep -m1 'line 014999000 ' huge.log", [grep, "-m1", needle, str(huge)])
    rows.append(ratio_row("grep, one match near the end: boundread / grep -m1", ours, theirs, limit=3))
    from boundread.formats._rg.proc import binary

    if (rg := binary()) is not None:  # the peak RSS of the file's mapping alone, for the grep rows' memory
        ctx.mapped.append(ctx.run("rg -c NOSUCHTHING huge.log", [rg, "-c", "NOSUCHTHING", str(huge)], ok=(1,)))
    ours = ctx.br("extract huge.log --lines 14999000-", "extract", huge, "--lines", "14999000-",
                  "-o", w / "huge-lines.txt")
    theirs = ctx.run("sed -n '14999000,$p' huge.log", [sed, "-n", "14999000,$p", str(huge)])
    rows.append(ratio_row("--lines 14999000- (near the end): boundread / sed -n", ours, theirs, limit=1.5))
    big = ctx.br("extract huge.log --tail 100", "extract", huge, "--tail", "100", "-o", w / "huge-tail.txt")
    small = ctx.br("extract small.log --tail 100", "extract", f["small.log"], "--tail", "100",
                   "-o", w / "small-tail.txt")
    theirs = ctx.run("tail -n 100 huge.log", [tail, "-n", "100", str(huge)])
    rows.append(ratio_row("--tail 100: 1.1 GB log / 1 MB log", big, small, limit=1.3))
    rows.append(ratio_row("--tail 100, 1.1 GB log: boundread / tail -n 100", big, theirs, limit=None))
    found = {name: (w / name).read_text(encoding="utf-8", errors="replace") if (w / name).exists() else ""
             for name in ("huge-one.txt", "huge-lines.txt", "huge-tail.txt")}
    ctx.notes.append("huge.log answers: --grep found " + ("line 14,999,000" if found["huge-one.txt"].startswith(
        "14999000:") else "NOT line 14,999,000") + f"; --lines wrote {found['huge-lines.txt'].count(chr(10)):,} "
        f"lines (to the 100,000-char cap); --tail 100 wrote {found['huge-tail.txt'].count(chr(10))} lines")
    return rows


def zip_rows(ctx: Ctx) -> list[Row]:
    big = ctx.files["big.zip"]
    ours = ctx.br("list-zip big.zip", "list-zip", big)
    unzip = ctx.peer("unzip")
    if not unzip:
        return [skipped("list-zip big.zip vs unzip -l", "unzip not installed")]
    theirs = ctx.run("unzip -l big.zip", [unzip, "-l", str(big)])
    return [ratio_row("list-zip 113 MB zip: boundread / unzip -l", ours, theirs, limit=None)]


def guard_rows(ctx: Ctx) -> list[Row]:
    """guard-check's p50 against ``python -c pass`` on the same interpreter, the two run by turns (30 each):
    the machine's load drifts, within a row too, and a ratio of two blocks measured apart drifts with it."""
    # An install has its .pyc files: a PYTHONDONTWRITEBYTECODE=1 in the bench's environment would compile the
    # guard's modules on every run (empty = unset, for Python).
    pyc = {"PYTHONDONTWRITEBYTECODE": ""}

    def paired(label: str, payload: Path, env: dict[str, str] | None = None) -> tuple[Measure, Measure]:
        merged = {**ctx.env, **pyc, **(env or {})}
        ours: list[Measure] = []
        base: list[Measure] = []
        print(f"bench: boundread guard-check: {label} (by turns with python -c pass) ...", end=" ",
              file=sys.stderr, flush=True)
        for _ in range(30):
            base.append(measure([sys.executable, "-c", "pass"], repeat=1, cwd=ctx.work, env=merged))
            ours.append(measure([str(ctx.exe), "guard-check"], repeat=1, stdin=payload, cwd=ctx.work, env=merged,
                                ok_codes=(0, 2)))
        m, b = _joined(ours), _joined(base)
        print(f"p50 {m.p50:.3f} s vs {b.p50:.3f} s" if m.ok and b.ok else m.error or b.error, file=sys.stderr)
        ctx.memory.append((f"guard-check: {label}", m))
        return m, b

    pdf = str(ctx.files["big1000.pdf"])
    whole = ctx.payload("read-whole.json", {"file_path": pdf})
    part = ctx.payload("read-pages.json", {"file_path": pdf, "pages": "1-5"})
    folder, name = os.path.split(pdf)
    plain = ctx.payload("bash-plain.json", {"command": f"cd {folder} && cat {name} | head -n 5"}, tool="Bash")
    dump = ctx.payload("bash-plain-deny.json", {"command": f"cd {folder} && cat {name}"}, tool="Bash")
    quoted = ctx.payload("bash-parsed.json", {"command": f"cd '{folder}' && for f in *.pdf; do cat \"$f\"; done"},
                         tool="Bash")
    rows = []
    for label, payload, limit in (("Read big1000.pdf whole (deny)", whole, 1.6),  # issue 12's target
                                  ("Read big1000.pdf pages 1-5 (allow)", part, 2),
                                  ("Bash cd && cat | head, plain words (allow)", plain, 2),
                                  ("Bash cd && cat, plain words (deny)", dump, 2),
                                  ("Bash for f in *.pdf; do cat \"$f\", parsed (deny)", quoted, 2)):
        m, base = paired(label, payload)
        rows.append(ratio_row(f"guard-check p50, {label} / python -c pass", m, base, limit=limit, stat="p50"))
        ctx.notes.append(f"guard-check on {payload.name}: {ctx.decision(payload)}")
    state = ctx.fresh_state("state-budget")
    env = {"BOUNDREAD_STATE_DIR": str(state)}
    setup = ctx.run("budget set", [str(ctx.exe), "budget", "set", "--session", "bench-guard", "--max-tokens",
                                   "1000000000", "--max-calls", "1000000"], repeat=1, env=env)
    what = "guard-check p50, Read pages 1-5 + budget ledger / python -c pass"
    if not setup.ok:
        return [*rows, Row(what, f"ERROR budget set: {setup.error}", result="ERROR")]
    m, base = paired("Read pages 1-5 + budget ledger", part, env)
    rows.append(ratio_row(what, m, base, limit=2, stat="p50"))
    ctx.notes.append(f"guard-check + ledger on {part.name}: {ctx.decision(part, env)}; the session's ledger "
                     f"then held: {ctx.status('bench-guard', env)}")
    return rows


def _joined(runs: list[Measure]) -> Measure:
    """Single runs as one measurement: every wall time, the highest peak, the first error."""
    return Measure(runs[0].argv, tuple(t for r in runs for t in r.walls), max(r.peak_mb for r in runs),
                   next((r.error for r in runs if r.error), ""))


def budget_rows(ctx: Ctx) -> list[Row]:
    transcript = ctx.files["big.jsonl"]
    runs = []
    for i in range(ctx.repeat):  # a fresh ledger each time: a second ingest would read only new bytes
        env = {"BOUNDREAD_STATE_DIR": str(ctx.fresh_state(f"state-ingest-{i}"))}
        runs.append(ctx.br("budget ingest big.jsonl (100 MB)", "budget", "ingest", "--transcript", transcript,
                           "--session", "bench-ingest", repeat=1, env=env, record=False))
    m = Measure(runs[0].argv, tuple(t for r in runs for t in r.walls), max(r.peak_mb for r in runs),
                next((r.error for r in runs if r.error), ""))
    ctx.memory.append(("budget ingest big.jsonl (100 MB)", m))
    ctx.notes.append(f"budget ingest recorded: {ctx.status('bench-ingest', env)}")
    mb_s = transcript.stat().st_size / 1e6 / m.best if m.ok else 0
    return [Row("budget ingest --transcript (100 MB JSONL)", table.secs(m), "-", f"{mb_s:.0f} MB/s")
            if m.ok else Row("budget ingest --transcript (100 MB JSONL)", f"ERROR {m.error}", result="ERROR")]


def ledger_rows(ctx: Ctx) -> list[Row]:
    """guard-check p50 with the PostgreSQL ledger (issue 14) against the SQLite one and ``python -c pass``, the
    three by turns (30 each). The server is local (tests/budget/pgserver.py: initdb + pg_ctl on 127.0.0.1), so
    the figure is the client's cost; a fleet's database adds its network round trips (four a call)."""
    what = "guard-check p50, Bash ls + PostgreSQL ledger / python -c pass"
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "budget"))
    try:
        import pgserver

        server = pgserver.start()
    except (ImportError, RuntimeError, OSError) as exc:
        return [skipped(what, f"no PostgreSQL server: {exc}")]
    try:
        payload = ctx.payload("bash-ledger.json", {"command": "ls"}, tool="Bash")
        sqlite_env = {"BOUNDREAD_STATE_DIR": str(ctx.fresh_state("state-ledger-sqlite")), "PYTHONDONTWRITEBYTECODE": ""}
        pg_env = {"BOUNDREAD_STATE_DIR": str(ctx.fresh_state("state-ledger-pg")), "PYTHONDONTWRITEBYTECODE": "",
                  "BOUNDREAD_LEDGER_URL": server.url()}
        limits = ["budget", "set", "--session", "bench-guard", "--max-tokens", "1000000000", "--max-calls", "1000000"]
        for env in (sqlite_env, pg_env):
            setup = ctx.run("budget set", [str(ctx.exe), *limits], repeat=1, env=env)
            if not setup.ok:
                return [Row(what, f"ERROR budget set: {setup.error}", result="ERROR")]
        runs: dict[str, list[Measure]] = {"pass": [], "sqlite": [], "postgres": []}
        print("bench: guard-check + ledger: python -c pass / SQLite / PostgreSQL by turns ...", end=" ",
              file=sys.stderr, flush=True)
        for _ in range(30):
            runs["pass"].append(measure([sys.executable, "-c", "pass"], repeat=1, cwd=ctx.work,
                                        env={**ctx.env, **sqlite_env}))
            for name, env in (("sqlite", sqlite_env), ("postgres", pg_env)):
                runs[name].append(measure([str(ctx.exe), "guard-check"], repeat=1, stdin=payload, cwd=ctx.work,
                                          env={**ctx.env, **env}, ok_codes=(0, 2)))
        base, lite, pg = (_joined(runs[k]) for k in ("pass", "sqlite", "postgres"))
        print(f"p50 {base.p50:.3f} / {lite.p50:.3f} / {pg.p50:.3f} s" if pg.ok and lite.ok else pg.error or lite.error,
              file=sys.stderr)
        ctx.memory.append(("guard-check: Bash ls + PostgreSQL ledger", pg))
        ctx.notes.append(f"guard-check + PostgreSQL ledger on {payload.name}: {ctx.decision(payload, pg_env)}; "
                         f"the session then held: {ctx.status('bench-guard', pg_env)}")
        if pg.ok and lite.ok and base.ok:
            ctx.notes.append(f"per tool call, p50: python -c pass {base.p50 * 1000:.1f} ms, guard-check with the "
                             f"SQLite ledger {lite.p50 * 1000:.1f} ms, with the PostgreSQL ledger "
                             f"{pg.p50 * 1000:.1f} ms (+{(pg.p50 - lite.p50) * 1000:.1f} ms for the connection and "
                             "four round trips)")
        return [ratio_row(what, pg, base, limit=6, stat="p50"),
                ratio_row("guard-check p50, Bash ls + SQLite ledger / python -c pass", lite, base, limit=2, stat="p50"),
                ratio_row("guard-check p50, PostgreSQL ledger / SQLite ledger", pg, lite, limit=None, stat="p50")]
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/boundread-bench"),
                        help="cache folder for the generated inputs and the markitdown venv")
    parser.add_argument("--repeat", type=int, default=5, help="runs per command; the best wall time counts")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown (for the README)")
    parser.add_argument("--only", choices=("guard", "ledger", "concurrency", "text", "pdf", "startup"),
                        help="run one section: guard (its input is big1000.pdf), ledger (SQLite vs PostgreSQL), "
                             "concurrency (8-64 hooks at once on either store), text (huge.log: grep, --lines, "
                             "--tail), pdf (start-up and the PDF rows) or startup")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    exe = Path(sys.executable).with_name("boundread")
    if not exe.exists():
        sys.exit(f"bench: {exe} is missing: run with the project's venv python after `pip install -e .`")
    if args.only:
        return _section(exe, args)
    files = inputs.make_all(args.inputs)
    found = {"pdftotext": peers.apt_tool("pdftotext", "poppler-utils"), "unzip": peers.apt_tool("unzip", "unzip"),
             "markitdown": peers.markitdown(args.inputs)}
    ctx = Ctx.create(exe, files, args.inputs, args.repeat, found)
    rows = [*startup_rows(ctx), *pdf_rows(ctx), *info_rows(ctx), *xlsx_rows(ctx), *log_rows(ctx), *text_rows(ctx),
            *zip_rows(ctx)]
    if ctx.has_command("guard-check"):
        rows += guard_rows(ctx)
    else:
        rows.append(skipped("guard-check p50", "boundread guard-check is not available"))
    if ctx.has_command("budget"):
        rows += budget_rows(ctx)
        rows += ledger_rows(ctx)
    rows += memory_rows(ctx)
    versions = {name: peers.version([p, "-v" if name == "pdftotext" else "--version"])
                for name, p in found.items() if p and name != "unzip"}
    print(f"Machine: {table.machine()}")
    print(f"boundread: {peers.version([str(exe), '--version'])}; peers: "
          + "; ".join(f"{v}" for v in versions.values()))
    print(f"Wall time: best of {args.repeat} (guard-check: p50 of 30; markitdown and naive openpyxl: 1 run); "
          "peak RSS per command via getrusage(RUSAGE_CHILDREN); "
          "python = this interpreter, not a shim. Other load on the machine adds noise to the ratios.\n")
    print(table.render(rows, markdown=args.markdown))
    for line in ctx.notes:
        print(f"\nnote: {line}" if args.markdown else f"note: {line}")
    print(f"\nbench took {time.perf_counter() - started:.0f} s; inputs in {args.inputs}", file=sys.stderr)
    shutil.rmtree(ctx.work, ignore_errors=True)
    return 0


def memory_rows(ctx: Ctx) -> list[Row]:
    """Each command's peak RSS; a grep of the big log is set against rg's own on it (both map the file)."""
    return [mapped_row(f"peak RSS: boundread {label}", m, ctx.mapped[0])
            if ctx.mapped and "--grep" in label and "huge.log" in label
            else memory_row(f"peak RSS: boundread {label}", m) for label, m in ctx.memory]


# --only: each section's inputs, the peers it needs, and its rows
SECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable[[Ctx], list[Row]]]] = {
    "guard": (("big1000.pdf",), (), guard_rows),
    "ledger": ((), (), ledger_rows),
    "concurrency": ((), (), lambda ctx: concurrency.rows()),
    "text": (("huge.log", "small.log"), (), text_rows),
    "pdf": (tuple(FULL_TEXT), ("pdftotext",), lambda ctx: startup_rows(ctx) + pdf_rows(ctx)),
    "startup": ((), (), startup_rows),
}


def _section(exe: Path, args: argparse.Namespace) -> int:
    """One section of the table alone, with only the inputs and peers it needs."""
    names, wanted, rows_of = SECTIONS[args.only]
    files = inputs.make_all(args.inputs, names)
    found = {"pdftotext": peers.apt_tool("pdftotext", "poppler-utils")} if "pdftotext" in wanted else {}
    ctx = Ctx.create(exe, files, args.inputs, args.repeat, found)
    rows = rows_of(ctx)
    rows += memory_rows(ctx)
    print(f"Machine: {table.machine()}; wall time: best of {args.repeat}; other load on the machine adds noise.\n")
    print(table.render(rows, markdown=args.markdown))
    for line in ctx.notes:
        print(f"note: {line}")
    shutil.rmtree(ctx.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
