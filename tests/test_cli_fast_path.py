"""``info`` and ``extract`` without Typer (cli/fast.py): the same options, the same answers, and Typer for the
rest - help, usage errors and anything the fast parser is not sure of."""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import typer

from boundread.cli import fast, run
from boundread.cli.app import app
from boundread.cli.boundary import AtLeast
from boundread.mcp import start

ENTRY = ("import sys\nfrom boundread.__main__ import main\nsys.argv = ['boundread', *sys.argv[1:]]\n"
         "import atexit\natexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\nmain()")
TYPER_ONLY = ("import sys\nfrom boundread.cli import only\n"  # the entry point as it was: Typer parses everything
              "only(sys.argv[1])(args=sys.argv[1:], prog_name='boundread')")


def _command(name: str) -> Any:
    return typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]


def _function(name: str) -> Any:
    return start.serve if name == "mcp" else getattr(run, name.replace("-", "_"))


@pytest.mark.parametrize("name", ["info", "extract", "pages", "sheets", "list-zip", "mcp"])
def test_the_table_says_what_the_typer_command_declares(name: str) -> None:
    table = fast.OPTIONS[name]
    left = fast.LEFT_TO_TYPER.get(name, frozenset())
    keywords = inspect.signature(_function(name)).parameters
    declared: set[str] = set()
    for param in _command(name).params:
        if param.param_type_name == "argument":
            continue
        assert keywords[param.name].default == (() if param.default is None and param.multiple else param.default)
        for opt in (*param.opts, *param.secondary_opts):
            declared.add(opt)
            if opt in left:
                assert opt not in table
                continue
            entry = table[opt]
            assert entry.field == param.name, opt
            path = type(param.type).__name__ in ("Path", "TyperPath")
            if param.is_flag:
                assert entry.kind == fast.FLAG, opt
            elif param.multiple:
                assert entry.kind == (fast.PATHS if path else fast.REPEAT), opt
            elif isinstance(param.type, AtLeast):
                assert (entry.kind, entry.floor) == (param.type.kind.__name__, param.type.low), opt
            else:
                assert entry.kind == (fast.PATH if path else fast.TEXT), opt
    assert declared == set(table) | left  # no option the command lacks, none it has missing


@pytest.mark.parametrize("argv", [
    ["info", "a.txt", "--help"], ["info", "-h", "a.txt"], ["extract", "a.txt", "--bogus"], ["extract", "a.txt", "--"],
    ["extract", "a.txt", "--max-chars", "0"], ["extract", "a.txt", "--max-chars", "x"], ["extract", "a.txt", "-C2"],
    ["extract", "a.txt", "--timeout", "1e3"], ["extract", "a.txt", "--context", "-1"], ["extract", "-"],
    ["extract", "a.txt", "b.txt"], ["extract"], ["info"], ["info", "a.txt", "--json=1"], ["info", ""],
    ["extract", "a.txt", "--grep"], ["extract", "a.txt", "--grep="], ["extract", "a.txt", "-o=out.txt"],
    ["pages", "a.pdf"], ["pages", "a.pdf", "1-2", "3"], ["pages", "a.pdf", "-1"], ["sheets", "b.xlsx", "-x"],
    ["sheets"], ["list-zip", "a.zip", "b.zip"], ["view", "a.txt"], ["pages", "a.pdf", "1-2", "--grep", "x"],
])
def test_what_the_parser_is_not_sure_of_goes_to_typer(argv: list[str]) -> None:
    assert fast.parse(argv) is None


def test_the_parser_reads_what_click_reads() -> None:
    parsed = fast.parse(["extract", "--max-chars", "50", "f.txt", "-i", "--grep=ERR|WARN", "--sheet", "A",
                         "--sheet", "2", "-C", "3", "--timeout", "2.5", "--max-chars=70", "-o", "x/out.txt"])
    assert parsed == ("extract", ["f.txt"], {"max_chars": 70, "ignore_case": True, "grep": "ERR|WARN",
                                                    "sheet": ("A", "2"), "context": 3, "timeout": 2.5,
                                                    "output": Path("x/out.txt")})
    assert fast.parse(["info", "a", "b", "--json"]) == ("info", ["a", "b"], {"as_json": True})
    assert fast.parse(["extract", "f", "--grep", "-v"]) == ("extract", ["f"], {"grep": "-v"})  # as click
    assert fast.parse(["sheets", "b.xlsx", "A", "--rows", "1-5", "2"]) == ("sheets", ["b.xlsx", "A", "2"],
                                                                          {"rows": "1-5"})
    assert fast.parse(["pages", "--layout", "a.pdf", "2-3"]) == ("pages", ["a.pdf", "2-3"], {"layout": True})


def _fixtures(folder: Path) -> None:
    (folder / "small.txt").write_text("alpha\nsentinel-42 beta\ngamma\n", encoding="utf-8")
    (folder / "rows.csv").write_text("a,b\n1,2\n3,4\n", encoding="utf-8")
    (folder / "cp.txt").write_bytes("привет мир\n".encode("cp1251"))
    with zipfile.ZipFile(folder / "bundle.zip", "w") as out:
        out.writestr("docs/readme.txt", "inside sentinel-7\n")
    fpdf = pytest.importorskip("fpdf")
    pdf = fpdf.FPDF()
    pdf.set_font("helvetica", size=12)
    for n in range(1, 4):
        pdf.add_page()
        pdf.cell(text=f"page {n} sentinel-p{n}")
    pdf.output(str(folder / "three.pdf"))
    xlsxwriter = pytest.importorskip("xlsxwriter")
    book = xlsxwriter.Workbook(str(folder / "book.xlsx"))
    for name in ("Prices 2024", "Notes"):
        sheet = book.add_worksheet(name)
        for row in range(6):
            sheet.write_row(row, 0, [f"{name[:3]}-{row}", row * 10, row / 4])
    book.close()


CASES = [
    ["info", "small.txt"],
    ["info", "small.txt", "--json"],
    ["info", "small.txt", "rows.csv", "bundle.zip", "missing.txt"],
    ["info", "small.txt", "missing.txt", "--json"],
    ["info", "missing.txt"],
    ["info", "missing.txt", "--json"],
    ["info", "cp.txt", "--encoding", "cp1251"],
    ["info", "cp.txt", "--encoding", "no-such-codec"],
    ["extract", "small.txt"],
    ["extract", "small.txt", "--json"],
    ["extract", "small.txt", "--stdout", "--grep", "sentinel", "-C", "1"],
    ["extract", "small.txt", "--stdout", "--tail", "1"],
    ["extract", "small.txt", "-o", "-", "--head", "2"],
    ["extract", "small.txt", "-o", "picked.txt", "--lines", "2-3"],
    ["extract", "small.txt", "--max-chars", "5", "--json"],
    ["extract", "bundle.zip", "--member", "docs/readme.txt", "--stdout"],
    ["extract", "small.txt", "--pages", "1-2"],
    ["extract", "small.txt", "--stdout", "--grep", "--json"],  # the pattern is the word after --grep
    ["extract", "small.txt", "--format", "nope", "--json"],
    ["extract", "missing.txt", "--json"],
    ["pages", "three.pdf", "2-3"],
    ["pages", "three.pdf", "2", "--stdout", "--max-chars", "40"],
    ["pages", "three.pdf", "1-9", "--json"],
    ["pages", "three.pdf", "x-y"],
    ["pages", "small.txt", "1", "--json"],
    ["sheets", "book.xlsx"],
    ["sheets", "book.xlsx", "--json"],
    ["sheets", "book.xlsx", "Notes", "--rows", "2-4", "--stdout"],
    ["sheets", "book.xlsx", "1", "Notes", "--format", "markdown", "-o", "rows.md"],
    ["sheets", "book.xlsx", "Nope", "--json"],
    ["sheets", "rows.csv", "--max-rows", "1", "--stdout"],
    ["list-zip", "bundle.zip"],
    ["list-zip", "bundle.zip", "--json", "--match", "*.txt"],
    ["list-zip", "bundle.zip", "--entries", "2-", "--max-entries", "1"],
    ["list-zip", "small.txt"],
]


def _run(code: str, argv: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_PROGRESS": "1"}
    env.pop("FORCE_COLOR", None)
    env.pop("TTY_COMPATIBLE", None)
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120,
                          cwd=folder, env=env, check=False)


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_the_fast_path_answers_as_typer(argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "fast").mkdir()
    _fixtures(tmp_path / "fast")
    shutil.copytree(tmp_path / "fast", tmp_path / "typer")  # byte for byte (a PDF holds its creation time)
    assert fast.parse(argv) is not None  # these take the fast path
    quick = _run(ENTRY, argv, tmp_path / "fast")
    slow = _run(TYPER_ONLY, argv, tmp_path / "typer")
    modules = quick.stderr.rpartition("MODULES")[2].split()
    assert "typer" not in modules and "click" not in modules  # it really was the fast path
    assert quick.returncode == slow.returncode, (quick.stderr, slow.stderr)
    assert quick.stdout == slow.stdout
    assert quick.stderr.rpartition("MODULES")[0] == slow.stderr
    written = sorted(p.relative_to(tmp_path / "fast") for p in (tmp_path / "fast").rglob("*"))
    assert written == sorted(p.relative_to(tmp_path / "typer") for p in (tmp_path / "typer").rglob("*"))
    for name in written:
        if (tmp_path / "fast" / name).is_file():
            assert (tmp_path / "fast" / name).read_bytes() == (tmp_path / "typer" / name).read_bytes()


HEAVY = {"typer", "click", "rich", "magic", "pdfminer", "pypdfium2", "openpyxl", "mammoth", "py7zr",
         "python_calamine", "docx", "pptx"}


@pytest.mark.parametrize("argv", [["info", "small.txt"], ["info", "small.txt", "--json"],
                                  ["extract", "small.txt"], ["extract", "small.txt", "--stdout"]])
def test_a_small_text_file_loads_no_heavy_library(argv: list[str], tmp_path: Path) -> None:
    """What the fast path imports: not Typer/click, not rich (plain output off a terminal), not python-magic
    (libmagic by its soname), no document library."""
    _fixtures(tmp_path)
    done = _run(ENTRY, argv, tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = {name.split(".")[0] for name in done.stderr.rpartition("MODULES")[2].split()}
    assert not loaded & HEAVY, loaded & HEAVY


def test_help_and_errors_stay_typers(tmp_path: Path) -> None:
    _fixtures(tmp_path)
    helped = _run(ENTRY, ["extract", "small.txt", "--help"], tmp_path)
    assert helped.returncode == 0 and "Usage: boundread extract" in helped.stdout
    wrong = _run(ENTRY, ["extract", "small.txt", "--max-chars", "0", "--json"], tmp_path)
    assert wrong.returncode == 2
    assert json.loads(wrong.stdout)["error"]["code"] == "usage"
    assert "typer" in wrong.stderr.rpartition("MODULES")[2].split()


SLOW_STDLIB = {"dataclasses", "inspect", "typing", "contextlib", "importlib", "pathlib", "ctypes", "threading", "json"}


@pytest.mark.parametrize("argv", [["info", "small.txt"], ["extract", "small.txt", "--stdout"]])
def test_a_small_text_file_loads_no_slow_standard_library(argv: list[str], tmp_path: Path) -> None:
    """Issue 24's start-up: the records are no dataclasses (inspect), types are for mypy (typing), paths stay strings
    (pathlib), a text file is not asked of libmagic (ctypes, threading), json is for --json, the line scan and its
    grep engines load for --lines, --grep and --tail only."""
    _fixtures(tmp_path)
    done = _run(ENTRY, argv, tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.rpartition("MODULES")[2].split())
    assert not loaded & SLOW_STDLIB, loaded & SLOW_STDLIB


STARTUP_SLOW = {"dataclasses", "inspect", "typing", "tempfile", "importlib", "sysconfig"}


@pytest.mark.parametrize(("argv", "ran"), [
    (["extract", "small.txt", "--grep", "l+", "--stdout"], "boundread.formats.text.rgengine"),
    (["extract", "bundle.zip", "--member", "docs/readme.txt", "--stdout"], "boundread.formats.archives.zipfiles"),
    (["info", "rows.csv"], "boundread.formats.sheets.csv_rows"),
    (["sheets", "rows.csv", "--rows", "1-2", "--stdout"], "boundread.formats.sheets.csv_rows"),
    (["info", "data.json"], "boundread.formats.structured.jsonshape"),
    (["extract", "data.json", "--path", ".items[0]", "--stdout"], "boundread.formats.structured.jsonselect"),
    (["extract", "page.html", "--stdout"], "boundread.formats.web.page"),
    (["pages", "three.pdf", "1-2", "--stdout"], "boundread.formats.pdf.pdfium"),
])
def test_a_read_loads_no_slow_standard_library(argv: list[str], ran: str, tmp_path: Path) -> None:
    """Issue 24's start-up beyond a text file: a grep (rg, threads to watch it), an archive member, CSV rows, JSON,
    a web page and PDF pages keep their records as boundread.record types and their types for mypy, so none of
    dataclasses (inspect), typing, tempfile, importlib or sysconfig loads - 15-30 ms of each start-up when they
    did (a CSV's info: 85 -> 54 ms here)."""
    _fixtures(tmp_path)
    (tmp_path / "data.json").write_text('{"items": [{"id": 1}, {"id": 2}], "name": "x"}', encoding="utf-8")
    (tmp_path / "page.html").write_text("<html><body><h1>Title</h1><p>words</p></body></html>", encoding="utf-8")
    done = _run(ENTRY, argv, tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.rpartition("MODULES")[2].split())
    assert ran in loaded  # the path named ran
    assert not loaded & STARTUP_SLOW, loaded & STARTUP_SLOW


def test_a_grep_by_rg_starts_it_without_subprocess_pathlib_or_json(tmp_path: Path) -> None:
    """rg is started by os.posix_spawn (formats/_rg/child.py) and the grep cache is plain text on os.path strings:
    subprocess, pathlib and json were 20 ms of a grep's start-up beside a 0.2 s search of a GB (issue 24's 1.3x)."""
    _fixtures(tmp_path)
    done = _run(ENTRY, ["extract", "small.txt", "--grep", "l+", "--stdout"], tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.rpartition("MODULES")[2].split())
    assert "boundread.formats._rg.child" in loaded
    assert not loaded & {"subprocess", "pathlib", "json"}, loaded & {"subprocess", "pathlib", "json"}


PLAIN = "import sys\nfrom boundread.__main__ import main\nsys.argv = ['boundread', *sys.argv[1:]]\nmain()"


@pytest.mark.parametrize("argv", [["info", "small.txt"], ["extract", "small.txt"], ["extract", "small.txt", "--stdout"],
                                  ["info", "missing.txt", "--json"], ["extract", "small.txt", "--max-chars", "5"]])
def test_the_early_exit_says_what_the_usual_exit_says(argv: list[str], tmp_path: Path) -> None:
    """fast.end skips the interpreter's teardown (os._exit) when no atexit callback waits (PLAIN); ENTRY registers
    one, so it exits as usual: the same output, exit code and files."""
    for name in ("quick", "usual"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "small.txt").write_text("alpha\nsentinel-42 beta\ngamma\n", encoding="utf-8")
    quick = _run(PLAIN, argv, tmp_path / "quick")
    usual = _run(ENTRY, argv, tmp_path / "usual")
    assert (quick.returncode, quick.stdout) == (usual.returncode, usual.stdout)
    assert quick.stderr == usual.stderr.rpartition("MODULES")[0]
    for path in (tmp_path / "usual").rglob("*"):
        twin = tmp_path / "quick" / path.relative_to(tmp_path / "usual")
        assert twin.exists() and (path.is_dir() or twin.read_bytes() == path.read_bytes())


def test_the_early_exit_flushes_and_leaves_atexit_callbacks_to_run() -> None:
    flushed = "from boundread.cli import fast\nprint('kept', end='')\nfast.end('info', 3)"
    done = subprocess.run([sys.executable, "-c", flushed], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (3, "kept")
    waiting = ("import atexit\nfrom boundread.cli import fast\natexit.register(lambda: print('ran'))\n"
               "fast.end('extract', 0)")
    done = subprocess.run([sys.executable, "-c", waiting], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "ran\n")
