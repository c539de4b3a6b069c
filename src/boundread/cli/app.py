"""The Typer app. Each command parses its options, calls ONE front-door function (:mod:`boundread.api`), hands
the result to render.

Errors cross one boundary (:func:`boundread.cli.boundary.boundary`): a BoundreadError becomes one stderr line (or a JSON
error in ``--json`` mode) and its documented exit code. Anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TextIO

import typer

from boundread import __version__, api, render
from boundread.cli import complete
from boundread.cli.boundary import AtLeast, Command, Group, boundary
from boundread.cli.options import (
    ContextOpt,
    EncodingOpt,
    EngineOpt,
    FormatOpt,
    GrepOpt,
    HeadOpt,
    IgnoreCaseOpt,
    JsonOpt,
    LayoutOpt,
    LinesOpt,
    MaxCharsOpt,
    MaxColsOpt,
    MaxLinesOpt,
    MaxMatchesOpt,
    MaxRowsOpt,
    MemberOpt,
    OcrLangOpt,
    OcrOpt,
    OutOpt,
    PagesOpt,
    PasswordOpt,
    RowsOpt,
    SheetOpt,
    StdoutOpt,
    TailOpt,
    TimeoutOpt,
)
from boundread.contract.model import ExtractResult
from boundread.contract.sink import Sink
from boundread.contract.stream import CLOSED
from boundread.core.output import Replacing, check_dest, is_stdout, out_dir
from boundread.errors import BoundreadError, ExitCode
from boundread.limits import Limits
from boundread.units import MB

app = typer.Typer(
    name="boundread",
    help="Bounded reads of big files for LLM agents: inspect a file, extract a slice to a file, read the slice.",
    epilog="Example: boundread info report.pdf && boundread pages report.pdf 1-5",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
)

def _version(value: bool) -> None:
    if value:
        typer.echo(f"boundread {__version__}")
        raise typer.Exit


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Inspect first (info), then extract a bounded slice to a file, then read the slice in parts."""


def _watch(stream: TextIO | None = None) -> Callable[[Sink], contextlib.AbstractContextManager[object]] | None:
    """A progress line on stderr for long extractions, when a person is watching stderr - and the text is
    not streaming onto the same terminal, where the line would cut into it."""
    if stream is not None and stream.isatty():
        return None
    return render.progress if sys.stderr.isatty() and not os.environ.get("NO_PROGRESS") else None


def _stream(stdout: bool, as_json: bool) -> TextIO | None:
    """Where ``--stdout`` text goes as it is extracted: stdout itself, except in ``--json`` (one object)."""
    return sys.stdout if stdout and not as_json else None


def _reader_gone(result: ExtractResult) -> bool:
    """The reader of streamed text closed it (``| head -1``): stdout is pointed at /dev/null, so the exit's
    flush of what Python still holds for it cannot fail with a BrokenPipeError."""
    if CLOSED not in result.truncated_reasons:
        return False
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return True


def _target(output: Path | None, stdout: bool) -> tuple[Path | None, bool]:
    """``-o -`` is stdout, as pdftotext, curl and tar take it: (the file to write or None, to stdout)."""
    return (None, True) if is_stdout(output) else (output, stdout)


def _check_output(output: Path | None, stdout: bool) -> Replacing | None:
    """Refuse a bad ``-o`` (or a default folder that leads outside the working folder) before any work; what
    it will replace (an existing file or symlink), if anything."""
    if stdout:
        return None
    if output is None:
        out_dir()
        return None
    return check_dest(output)


def _emit_extract(result: ExtractResult, command: str, as_json: bool, replaced: Replacing | None = None) -> int:
    if as_json:
        render.print_json(command, {**render.as_dict(result),
                                    **({"replaced": replaced.as_dict()} if replaced and result.output else {})})
    else:
        if result.text is not None:  # ends with a newline, so the summary (on stderr) never glues onto it
            typer.echo(result.text, nl=bool(result.text) and not result.text.endswith("\n"))
        _reader_gone(result)
        render.print_extract(result, to_stderr=result.output is None,
                             replaced=replaced.describe() if replaced and result.output else None)
    if "interrupted" in result.truncated_reasons:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.TIMEOUT) if result.timed_out else 0


@app.command(cls=Command, epilog="Example: boundread info report.pdf prices.xlsx catalogue.zip")
def info(
    files: Annotated[list[Path], typer.Argument(readable=False,  # the read says 'permission denied', exit 3
                                                metavar="FILE...", help="Files to describe.", show_default=False)],
    password: PasswordOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (schema 1) on stdout: files, a list "
                                          "of one object per FILE; with one FILE its fields are also at the top.")
                       ] = False,
    encoding: EncodingOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """What a file is, cheaply, before anyone reads it: kind, size, pages/sheets/entries, tokens, next steps."""

    def work() -> int:
        limits = Limits(timeout=timeout)
        if len(files) == 1:  # "files" always: one shape for one FILE or several
            result = api.info(files[0], password=password, limits=limits, encoding=encoding)
            if as_json:
                render.print_json("info", {**(data := render.as_dict(result)), "files": [data]})
            else:
                render.print_info(result)
            return 0
        worst, results = 0, []
        for path in files:
            try:
                results.append(render.as_dict(result := api.info(path, password=password, limits=limits,
                                                                 encoding=encoding)))
                if not as_json:
                    render.print_info(result)
            except BoundreadError as exc:
                worst = worst or int(exc.exit_code)
                results.append({"path": str(path), "error": {"code": exc.code, "message": str(exc),
                                                               "exit_code": int(exc.exit_code)}})
                if not as_json:
                    render.print_error(exc, as_json=False)
        if as_json:
            render.print_json("info", {"files": results})
        return worst

    boundary(as_json, work)


@app.command(cls=Command, epilog="Examples: boundread extract server.log --grep 'ERROR|FATAL' --context 2\n\n"
             "boundread extract bundle.zip --member docs/spec.pdf --pages 1-3")
def extract(
    file: Annotated[Path, typer.Argument(readable=False,  # the read says 'permission denied', exit 3
                                         metavar="FILE", help="The file to extract text from.", show_default=False)],
    pages: PagesOpt = None,
    sheet: SheetOpt = None,
    lines: LinesOpt = None,
    head: HeadOpt = None,
    tail: TailOpt = None,
    grep: GrepOpt = None,
    ignore_case: IgnoreCaseOpt = False,
    context: ContextOpt = 0,
    max_matches: MaxMatchesOpt = 100,
    member: MemberOpt = None,
    max_member_mb: Annotated[int, typer.Option("--max-member-mb", metavar="MB", click_type=AtLeast(1),
                                               help="Refuse a --member that unpacks to more than this.")] = 32,
    max_chars: MaxCharsOpt = 100_000,
    max_lines: MaxLinesOpt = None,
    output: OutOpt = None,
    stdout: StdoutOpt = False,
    password: PasswordOpt = None,
    fmt: FormatOpt = "csv",
    rows: RowsOpt = None,
    max_rows: MaxRowsOpt = 200,
    max_cols: MaxColsOpt = 50,
    layout: LayoutOpt = False,
    engine_name: EngineOpt = "auto",
    ocr_mode: OcrOpt = "auto",
    ocr_lang: OcrLangOpt = "eng",
    encoding: EncodingOpt = None,
    as_json: JsonOpt = False,
    timeout: TimeoutOpt = 60.0,
) -> None:
    """The text of any supported file, bounded, written to a file; the summary says what was cut and what next."""

    def work() -> int:
        limits = Limits(max_chars=max_chars, max_lines=max_lines, max_matches=max_matches,
                        max_member_bytes=max_member_mb * MB, max_rows=max_rows, max_cols=max_cols, timeout=timeout)
        output_, stdout_ = _target(output, stdout)
        replacing = _check_output(output_, stdout_)
        stream = _stream(stdout_, as_json)
        result = api.extract(file, pages=pages, sheets=tuple(sheet or ()), rows=rows, fmt=fmt, layout=layout,
                             engine=engine_name, lines=lines, head=head, tail=tail, grep=grep,
                             ignore_case=ignore_case, context=context, member=member, output=output_,
                             stdout=stdout_, password=password, limits=limits, ocr=ocr_mode, ocr_lang=ocr_lang,
                             watch=_watch(stream), stream=stream, encoding=encoding)
        return _emit_extract(result, "extract", as_json, replacing)

    boundary(as_json, work)


@app.command(cls=Command,
             epilog="Examples: boundread pages report.pdf 1-5\n\nboundread pages report.pdf 1,3,8-10 --layout")
def pages(
    file: Annotated[Path, typer.Argument(readable=False,  # the read says 'permission denied', exit 3
                                         metavar="FILE", help="A PDF or PowerPoint file.", show_default=False)],
    page_range: Annotated[str, typer.Argument(metavar="RANGE", help="Pages or slides: 1-5, 7 or 1,3,8-10.")],
    layout: LayoutOpt = False,
    engine_name: EngineOpt = "auto",
    ocr_mode: OcrOpt = "auto",
    ocr_lang: OcrLangOpt = "eng",
    max_chars: MaxCharsOpt = 100_000,
    output: OutOpt = None,
    stdout: StdoutOpt = False,
    password: PasswordOpt = None,
    as_json: JsonOpt = False,
    timeout: TimeoutOpt = 60.0,
) -> None:
    """PDF pages or pptx slides, each after a `--- page N / TOTAL ---` marker line."""

    def work() -> int:
        output_, stdout_ = _target(output, stdout)
        replacing = _check_output(output_, stdout_)
        stream = _stream(stdout_, as_json)
        result = api.pages(file, page_range, layout=layout, engine=engine_name, ocr=ocr_mode, ocr_lang=ocr_lang,
                           output=output_, stdout=stdout_, password=password,
                           limits=Limits(max_chars=max_chars, timeout=timeout), watch=_watch(stream), stream=stream)
        return _emit_extract(result, "pages", as_json, replacing)

    boundary(as_json, work)


@app.command(cls=Command,
             epilog="Examples: boundread sheets prices.xlsx\n\nboundread sheets prices.xlsx 'Lista 2024' --max-rows 50")
def sheets(
    file: Annotated[Path, typer.Argument(readable=False, metavar="FILE", help="An xlsx, xlsm, xls or ods workbook.",
                                                show_default=False)],
    names: Annotated[list[str] | None, typer.Argument(metavar="[SHEET]...", autocompletion=complete.sheet_names,
                                                         help="Sheet names or 1-based indices.")] = None,
    fmt: FormatOpt = "csv",
    rows: RowsOpt = None,
    max_rows: MaxRowsOpt = 200,
    max_cols: MaxColsOpt = 50,
    max_chars: MaxCharsOpt = 100_000,
    output: OutOpt = None,
    stdout: StdoutOpt = False,
    as_json: JsonOpt = False,
    timeout: TimeoutOpt = 60.0,
) -> None:
    """Without a sheet: the sheets and their sizes. With sheets: their rows as csv, tsv or markdown."""

    def work() -> int:
        limits = Limits(max_chars=max_chars, max_rows=max_rows, max_cols=max_cols, timeout=timeout)
        api.ask(rows=rows, fmt=fmt)  # a bad --rows or --format is refused with the listing too, as with rows
        if not names:  # the listing is a reading: a workbook extract cannot read fails here as it does there
            result = api.sheet_info(file, limits=limits)
            if as_json:
                render.print_json("sheets", {"path": result.path, "kind": result.kind,
                                             "sheets": result.fields.get("sheets", []), "next": list(result.next),
                                             "warnings": list(result.warnings)})
            else:
                render.print_info(result)
            return 0
        output_, stdout_ = _target(output, stdout)
        replacing = _check_output(output_, stdout_)
        stream = _stream(stdout_, as_json)
        result_x = api.sheets(file, *names, rows=rows, fmt=fmt, output=output_, stdout=stdout_, limits=limits,
                              watch=_watch(stream), stream=stream)
        return _emit_extract(result_x, "sheets", as_json, replacing)

    boundary(as_json, work)


@app.command("list-zip", cls=Command,
             epilog="Examples: boundread list-zip catalogue.zip\n\nboundread list-zip many.zip --entries 501-1000"
                    "\n\nboundread list-zip many.zip --match '*.pdf'")
def list_zip(
    archive: Annotated[Path, typer.Argument(readable=False, metavar="ARCHIVE",
                                            help="zip, 7z, tar(.gz/.bz2/.xz), or any zip-based file.",
                                            show_default=False)],
    entries: Annotated[str | None, typer.Option("--entries", metavar="A-B",
                                                help="Entries A-B (1-based; A- to the end), e.g. 501-1000.")] = None,
    match: Annotated[str | None, typer.Option("--match", metavar="GLOB",
                                              help="Only names matching this fnmatch pattern, case-sensitive; "
                                                   "* also crosses /: '*.pdf', 'docs/*'.")] = None,
    max_entries: Annotated[int, typer.Option("--max-entries", metavar="N", click_type=AtLeast(1),
                                             help="List at most this many entries.")] = 500,
    password: PasswordOpt = None,
    as_json: JsonOpt = False,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Every entry of an archive with sizes, ratios and warnings (zip slip, bombs, nesting). Extracts nothing."""

    def work() -> int:
        listed = api.list_archive(archive, password=password, limits=Limits(max_entries=max_entries, timeout=timeout),
                                  entries=entries, match=match)
        src, listing = listed.source, listed.listing
        if as_json:
            render.print_json("list-zip", render.listing_dict(src, listing))
        else:
            render.print_listing(src, listing)
        return int(ExitCode.TIMEOUT) if listing.timed_out else 0

    boundary(as_json, work)


@app.command(cls=Command, epilog="Example: boundread demo && boundread sheets boundread-demo/prices.xlsx")
def demo(
    folder: Annotated[Path, typer.Option("--dir", metavar="DIR",
                                         help="Where to write the sample files.")] = Path("boundread-demo"),
    as_json: JsonOpt = False,
) -> None:
    """Write sample files (a 12-page report, a price workbook, a log, a zip) and run info + pages on the report."""
    from boundread.core.demo import write_samples

    def work() -> int:
        samples = write_samples(folder)
        about = api.info(samples["report.pdf"])
        result = api.pages(samples["report.pdf"], "1-2")
        if as_json:
            render.print_json("demo", {"samples": [str(p) for p in samples.values()],
                                       "info": render.as_dict(about), "pages": render.as_dict(result)})
        else:
            typer.echo(f"sample files in {folder}/: " + ", ".join(p.name for p in samples.values()) + "\n")
            typer.echo(f"$ boundread info {samples['report.pdf']}")
            render.print_info(about)
            typer.echo(f"\n$ boundread pages {samples['report.pdf']} 1-2")
            render.print_extract(result)
        return 0

    boundary(as_json, work)


def _mount_optional() -> None:
    """Commands that live in their own modules (guard-check/init, budget)."""
    from boundread.cli import budget, chunks, guard, mcp, stats, view

    view.register(app)
    chunks.register(app)
    guard.register(app)
    mcp.register(app)
    stats.register(app)
    app.add_typer(budget.budget_app, name="budget")


_mount_optional()
