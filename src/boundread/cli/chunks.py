"""The ``chunks`` command: a whole document cut into chunk files that each fit one read, with a manifest."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from boundread.cli.boundary import AtLeast, Command, boundary, offer
from boundread.cli.options import EncodingOpt, PasswordOpt
from boundread.errors import ExitCode, UsageError

DEFAULT_MEMBER_MB = 32  # extract's --max-member-mb default (Limits.max_member_bytes)


def register(app: typer.Typer) -> None:
    """Add `chunks` to the app."""
    app.command("chunks", cls=Command,
                epilog="Examples: boundread chunks report.pdf --tokens 20000 --model claude-sonnet-4-5\n\n"
                       "boundread chunks server.log --tokens 20000 -o server.chunks --overlap 5")(chunks)


def chunks(
    file: Annotated[Path, typer.Argument(readable=False, metavar="FILE", help="The document to cut into chunks.",
                                         show_default=False)],
    tokens: Annotated[int, typer.Option("--tokens", metavar="N", click_type=AtLeast(50),
                                        help="At most this many tokens per chunk (boundread's estimate).")] = 20_000,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="DIR",
                                                help="The folder for the chunks and manifest.json "
                                                     "(default: ./boundread-out/FILE.chunks/).")] = None,
    overlap: Annotated[int, typer.Option("--overlap", metavar="K", click_type=AtLeast(0),
                                         help="Repeat K lines (paragraphs, rows) of a chunk at the next one's "
                                              "start.")] = 0,
    max_lines: Annotated[int, typer.Option("--max-lines", metavar="L", click_type=AtLeast(0),
                                           help="At most L lines per chunk, 0 for no line bound (an agent's Read "
                                                "stops at 2000).")] = 2000,
    max_chunks: Annotated[int, typer.Option("--max-chunks", metavar="M", click_type=AtLeast(1),
                                            help="Stop after M chunks; `next` says how to go on.")] = 200,
    start: Annotated[int, typer.Option("--from", metavar="K", click_type=AtLeast(1),
                                       help="Go on from chunk K of the manifest in -o (after --max-chunks).")] = 1,
    model: Annotated[str | None, typer.Option("--model", metavar="MODEL",
                                              help="Price reading every chunk once with this model.")] = None,
    password: PasswordOpt = None,
    max_member_mb: Annotated[int, typer.Option("--max-member-mb", metavar="MB", click_type=AtLeast(1),
                                               help="Skip (and report) an archive member that unpacks to more "
                                                    "than this.")] = DEFAULT_MEMBER_MB,
    fmt: Annotated[str, typer.Option("--format", metavar="NAME", autocompletion=offer("csv", "tsv", "markdown"),
                                     help="Workbook rows as csv, tsv or markdown.")] = "csv",
    layout: Annotated[bool, typer.Option("--layout", help="PDF: keep the physical layout.")] = False,
    encoding: EncodingOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest (schema 1) on stdout.")] = False,
    timeout: Annotated[float, typer.Option("--timeout", metavar="SECONDS", click_type=AtLeast(0.1, float),
                                           help="Stop after this many seconds (exit 8); --from goes on.")] = 120.0,
) -> None:
    """A whole document as chunk files of at most N tokens, cut at pages, slides, sheets (header row repeated),
    headings, paragraphs or lines, and a manifest (spans, tokens, hashes, the cost with --model) for map-reduce."""

    def work() -> int:
        from boundread import api, render

        api.check_format(fmt)
        if output is not None:  # before the folder is made: never a folder under /dev, /proc or /sys
            from boundread.core.output import check_system

            check_system(output)
        watch = render.progress if sys.stderr.isatty() and not os.environ.get("NO_PROGRESS") else None
        if max_lines and overlap * 2 > max_lines:
            raise UsageError(f"--overlap {overlap} is more than half of --max-lines {max_lines}",
                             f"pass --overlap {max_lines // 2} or less")
        result = api.chunk(file, tokens, output, overlap=overlap, max_lines=max_lines or None, max_chunks=max_chunks,
                           start=start, model=model, password=password, fmt=fmt, layout=layout, timeout=timeout,
                           watch=watch, encoding=encoding,
                           max_member_mb=None if max_member_mb == DEFAULT_MEMBER_MB else max_member_mb)
        if as_json:
            render.print_json("chunks", result.as_dict())
        else:
            from boundread.render.chunks import print_chunks

            print_chunks(result)
        if "interrupted" in result.truncated_reasons:
            return int(ExitCode.INTERRUPTED)
        return int(ExitCode.TIMEOUT) if any(r.startswith("timeout") for r in result.truncated_reasons) else 0

    boundary(as_json, work)
