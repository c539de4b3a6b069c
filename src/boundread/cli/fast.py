"""The start-up fast path: ``boundread info``, ``extract``, ``pages``, ``sheets``, ``list-zip`` and the stdio
``boundread mcp`` without Typer.

Importing Typer (and its click) and building a command costs ~40 ms, four times Python's own start; a one-line
``info`` of a small file was mostly that, and an MCP client waits for it before ``initialize`` is answered.
Here the commands' options are parsed by a table that says what Typer's declaration says (names, flags,
floors; the defaults are the keyword defaults of the functions in :mod:`boundread.cli.run` and of
:func:`boundread.mcp.start.serve`), and the same work runs through the same boundary.

Only a command line this parser is sure of takes the fast path: ``--help``, an unknown or misspelt option, a
value Typer would refuse or convert otherwise (a negative number, ``1e3``, ``-C2``), an operand (FILE, RANGE,
SHEET) that starts with ``-``, and shell completion (__main__ checks its variable) all go to Typer, which
parses as always - so help, usage errors, their exit codes and JSON errors stay Typer's, word for word. An
option's value is the next word, whatever it starts with, as click takes it.
tests/test_cli_fast_path.py holds the table to the Typer commands and compares the two paths' outputs.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's, and no pathlib: together ~8 ms of the start-up this module shortens
if TYPE_CHECKING:
    from typing import Any, NoReturn

FLAG, TEXT, PATH, REPEAT, PATHS = "flag", "text", "path", "repeat", "paths"


class Opt:
    """One option: the keyword it sets, its kind, a number's floor. (A plain class: a NamedTuple's string
    annotations are compiled one by one at import, a millisecond of the path this module exists to shorten.)"""

    __slots__ = ("field", "floor", "kind")

    def __init__(self, field: str, kind: str, floor: float = 0) -> None:
        self.field = field  # the keyword of run.info / run.extract / mcp.start.serve
        self.kind = kind  # FLAG, TEXT, PATH, REPEAT (texts), PATHS, or "int"/"float" with a floor
        self.floor = floor


_SHARED = {
    "--password": Opt("password", TEXT),
    "--json": Opt("as_json", FLAG),
    "--encoding": Opt("encoding", TEXT),
    "--timeout": Opt("timeout", "float", 0.1),
}

#: the options of each command, as app.py declares them (tests/test_cli_fast_path.py compares the two)
OPTIONS: dict[str, dict[str, Opt]] = {
    "info": _SHARED,
    "extract": {
        **_SHARED,
        "--pages": Opt("pages", TEXT), "--sheet": Opt("sheet", REPEAT), "--lines": Opt("lines", TEXT),
        "--head": Opt("head", "int", 1), "--tail": Opt("tail", "int", 1), "--grep": Opt("grep", TEXT),
        "-i": Opt("ignore_case", FLAG), "--ignore-case": Opt("ignore_case", FLAG),
        "--context": Opt("context", "int", 0), "-C": Opt("context", "int", 0),
        "--max-matches": Opt("max_matches", "int", 1), "--member": Opt("member", TEXT),
        "--max-member-mb": Opt("max_member_mb", "int", 1), "--max-chars": Opt("max_chars", "int", 1),
        "--max-lines": Opt("max_lines", "int", 1), "-o": Opt("output", PATH), "--output": Opt("output", PATH),
        "--stdout": Opt("stdout", FLAG), "--format": Opt("fmt", TEXT), "--rows": Opt("rows", TEXT),
        "--max-rows": Opt("max_rows", "int", 1), "--max-cols": Opt("max_cols", "int", 1),
        "--layout": Opt("layout", FLAG), "--engine": Opt("engine_name", TEXT), "--ocr": Opt("ocr_mode", TEXT),
        "--ocr-lang": Opt("ocr_lang", TEXT), "--path": Opt("path", TEXT),
        "--sql": Opt("sql", TEXT),
    },
    "pages": {
        "--layout": Opt("layout", FLAG), "--engine": Opt("engine_name", TEXT), "--ocr": Opt("ocr_mode", TEXT),
        "--ocr-lang": Opt("ocr_lang", TEXT), "--max-chars": Opt("max_chars", "int", 1), "-o": Opt("output", PATH),
        "--output": Opt("output", PATH), "--stdout": Opt("stdout", FLAG), "--password": Opt("password", TEXT),
        "--json": Opt("as_json", FLAG), "--timeout": Opt("timeout", "float", 0.1),
    },
    "sheets": {
        "--format": Opt("fmt", TEXT), "--rows": Opt("rows", TEXT), "--max-rows": Opt("max_rows", "int", 1),
        "--max-cols": Opt("max_cols", "int", 1), "--max-chars": Opt("max_chars", "int", 1),
        "-o": Opt("output", PATH), "--output": Opt("output", PATH), "--stdout": Opt("stdout", FLAG),
        "--json": Opt("as_json", FLAG), "--timeout": Opt("timeout", "float", 0.1),
    },
    "list-zip": {
        "--entries": Opt("entries", TEXT), "--match": Opt("match", TEXT), "--max-entries": Opt("max_entries", "int", 1),
        "--password": Opt("password", TEXT), "--json": Opt("as_json", FLAG), "--timeout": Opt("timeout", "float", 0.1),
    },
    "mcp": {  # the stdio server as `init --mcp` registers it; --http and --port are Typer's (LEFT_TO_TYPER)
        "--root": Opt("root", PATHS), "--max-chars": Opt("max_chars", "int", 1),
        "--timeout": Opt("timeout", "float", 0.1), "--out": Opt("out", PATH),
    },
}
#: options a command has that this parser leaves to Typer (a command line with one goes to Typer)
LEFT_TO_TYPER = {"mcp": frozenset({"--http", "--port"})}
#: how many operands each command takes: (at least, at most); the first is a FILE (info: all are), pages' second
#: its RANGE, sheets' others its SHEETs
OPERANDS: dict[str, tuple[int, int | None]] = {"info": (1, None), "extract": (1, 1), "pages": (2, 2),
                                                "sheets": (1, None), "list-zip": (1, 1), "mcp": (0, 0)}


def parse(argv: list[str]) -> tuple[str, list[str], dict[str, Any]] | None:
    """(command, operands, options) when this parser is sure of ``argv`` (see the module's doc); else None."""
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    table = OPTIONS.get(command)
    if table is None:
        return None
    operands: list[str] = []
    given: dict[str, Any] = {}
    at = 0
    while at < len(rest):
        word = rest[at]
        at += 1
        if not word.startswith("-"):
            if not word:
                return None  # Path("") is ".", and "" no sheet: let Typer say what it says
            operands.append(word)
            continue
        name, eq, inline = word.partition("=")
        opt = table.get(name)
        if opt is None or (eq and (opt.kind == FLAG or not name.startswith("--") or not inline)):
            return None
        if opt.kind == FLAG:
            given[opt.field] = True
            continue
        if not eq:
            if at >= len(rest):
                return None
            inline, at = rest[at], at + 1
        value = _value(opt, inline)
        if value is None:
            return None
        if opt.kind in (REPEAT, PATHS):
            given[opt.field] = (*given.get(opt.field, ()), value)
        else:
            given[opt.field] = value  # click: the last one counts
    least, most = OPERANDS[command]
    if len(operands) < least or (most is not None and len(operands) > most):
        return None
    return command, operands, given


def _value(opt: Opt, text: str) -> object | None:
    if opt.kind in (TEXT, REPEAT):
        return text
    if opt.kind in (PATH, PATHS):  # as Typer gives them; the FILE operands stay strings (pathlib loads on use)
        from pathlib import Path

        return Path(text)
    if not text.isascii():
        return None
    number: float
    if opt.kind == "int" and text.isdigit():  # [0-9]+: no sign, no _, no spaces (Typer's int() takes those)
        number = int(text)
    elif opt.kind == "float" and text.replace(".", "", 1).isdigit():  # 5, 5., .5, 5.5: not 1e3, nan, -1
        number = float(text)
    else:
        return None
    return number if number >= opt.floor else None


def dispatch(argv: list[str]) -> int | None:
    """Run the command when :func:`parse` is sure of ``argv``: the exit code; None for Typer."""
    parsed = parse(argv)
    if parsed is None:
        return None
    command, files, given = parsed
    as_json = bool(given.get("as_json"))
    try:
        _early_grep(command, files, given)
        from boundread.cli import run

        if command == "info":
            return run.guarded(as_json, lambda: run.info(files, **given))
        if command == "pages":
            return run.guarded(as_json, lambda: run.pages(files[0], files[1], **given))
        if command == "sheets":
            return run.guarded(as_json, lambda: run.sheets(files[0], tuple(files[1:]), **given))
        if command == "list-zip":
            return run.guarded(as_json, lambda: run.list_zip(files[0], **given))
        if command == "mcp":
            from boundread.mcp import start

            return run.guarded(False, lambda: start.serve(**given))
        return run.guarded(as_json, lambda: run.extract(files[0], **given))
    except KeyboardInterrupt:  # before the work started: Typer's main answers 130 too
        return 130  # ExitCode.INTERRUPTED, whose module may not be loaded yet
    finally:  # an rg started early and not taken by the read (it failed, or went another way, or Ctrl-C) ends here
        import sys

        if (held := sys.modules.get("boundread.formats._rg.early")) is not None:
            held.discard()


#: extract options after which a grep reads by lines or not from the file as named: no rg is started early for them
_NOT_EARLY = frozenset({"lines", "head", "tail", "member", "encoding", "pages", "sheet", "rows", "path", "sql"})


def _early_grep(command: str, files: list[str], given: dict[str, Any]) -> None:
    """Start the rg of ``extract FILE --grep P`` now, before the engine loads (cli/early.py)."""
    if command != "extract" or given.get("grep") is None or not _NOT_EARLY.isdisjoint(given):
        return
    from boundread.cli.early import start

    start(files[0], given["grep"], ignore_case=bool(given.get("ignore_case")), context=given.get("context", 0))


def end(command: str, code: int) -> NoReturn:
    """End the process with ``code`` once stdout and stderr are flushed, skipping the interpreter's teardown (freeing
    every module and object: ~9 ms of CPU of a one-line info, as much as Python's own start) - when nothing needs
    it: no atexit callback registered (coverage, multiprocessing, weakref.finalize, a library's cleanup), no thread
    but the main one, and the files the read wrote closed (output.write_atomic closes its own). The stdio MCP
    server, and anything else, exits as usual (guard-check does the same: hook.main.finish)."""
    import sys

    if command != "mcp":
        import atexit
        import os

        threading = sys.modules.get("threading")
        alone = threading is None or threading.active_count() == 1
        if alone and atexit._ncallbacks() == 0:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):  # a closed pipe, no stdout: the usual exit
                sys.exit(code)
            os._exit(code)
    sys.exit(code)
