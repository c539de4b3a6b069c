"""The Typer app. Each command parses its options, calls ONE front-door function (:mod:`boundread.api`), hands
the result to render. For info, extract, pages, sheets and list-zip that work is in :mod:`boundread.cli.run`,
which the start-up fast path (:mod:`boundread.cli.fast`, no Typer) calls too: the commands here declare the
options (help, completion, usage errors) and hand them over.

The reading modules (api, render, limits) load inside the commands: ``boundread mcp``, ``guard-check --help``,
``budget`` and the help need the app, not them (~40 ms of imports).

Errors cross one boundary (:func:`boundread.cli.boundary.boundary`): a BoundreadError becomes one stderr line (or a JSON
error in ``--json`` mode) and its documented exit code. Anything else is a bug and shows its traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from boundread import __version__
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
    PathOpt,
    RowsOpt,
    SheetOpt,
    SqlOpt,
    StdoutOpt,
    TailOpt,
    TimeoutOpt,
)

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
    from boundread.cli import run

    boundary(as_json, lambda: run.info(files, password=password, as_json=as_json, encoding=encoding,
                                       timeout=timeout))


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
    path: PathOpt = None,
    sql: SqlOpt = None,
    as_json: JsonOpt = False,
    timeout: TimeoutOpt = 60.0,
) -> None:
    """The text of any supported file, bounded, written to a file; the summary says what was cut and what next."""
    from boundread.cli import run

    boundary(as_json, lambda: run.extract(
        file, pages=pages, sheet=tuple(sheet or ()), lines=lines, head=head, tail=tail, grep=grep,
        ignore_case=ignore_case, context=context, max_matches=max_matches, member=member,
        max_member_mb=max_member_mb, max_chars=max_chars, max_lines=max_lines, output=output, stdout=stdout,
        password=password, fmt=fmt, rows=rows, max_rows=max_rows, max_cols=max_cols, layout=layout,
        engine_name=engine_name, ocr_mode=ocr_mode, ocr_lang=ocr_lang, encoding=encoding, as_json=as_json,
        timeout=timeout, path=path, sql=sql))


@app.command(cls=Command,
             epilog="Examples: boundread pages report.pdf 1-5\n\nboundread pages report.pdf 1,3,8-10 --layout")
def pages(
    file: Annotated[Path, typer.Argument(readable=False,  # the read says 'permission denied', exit 3
                                         metavar="FILE", help="A PDF, PowerPoint, notebook, EPUB or HTML file.",
                                         show_default=False)],
    page_range: Annotated[str, typer.Argument(metavar="RANGE", help="Pages, slides, notebook cells, EPUB "
                                              "chapters or web page sections: 1-5, 7 or 1,3,8-10.")],
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
    """PDF pages, pptx slides, notebook cells, EPUB chapters or a web page's sections (h1-h3), each after a
    `--- page N / TOTAL ---` marker line (a web page's: `--- section N ---`)."""
    from boundread.cli import run

    boundary(as_json, lambda: run.pages(file, page_range, layout=layout, engine_name=engine_name, ocr_mode=ocr_mode,
                                        ocr_lang=ocr_lang, max_chars=max_chars, output=output, stdout=stdout,
                                        password=password, as_json=as_json, timeout=timeout))


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
    """Without a sheet: the sheets and their sizes. With sheets: their rows as csv, tsv or markdown (--rows alone:
    the rows of a CSV or of a workbook with one sheet)."""
    from boundread.cli import run

    boundary(as_json, lambda: run.sheets(file, tuple(names or ()), fmt=fmt, rows=rows, max_rows=max_rows,
                                         max_cols=max_cols, max_chars=max_chars, output=output, stdout=stdout,
                                         as_json=as_json, timeout=timeout))


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
    from boundread.cli import run

    boundary(as_json, lambda: run.list_zip(archive, entries=entries, match=match, max_entries=max_entries,
                                           password=password, as_json=as_json, timeout=timeout))


@app.command(cls=Command, epilog="Example: boundread demo && boundread sheets boundread-demo/prices.xlsx")
def demo(
    folder: Annotated[Path, typer.Option("--dir", metavar="DIR",
                                         help="Where to write the sample files.")] = Path("boundread-demo"),
    as_json: JsonOpt = False,
) -> None:
    """Write sample files (a 12-page report, a price workbook, a log, a zip) and run info + pages on the report."""
    from boundread.core.demo import write_samples

    def work() -> int:
        from boundread import api, render

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
