"""The Python API: the same work as the CLI, returning typed results instead of printing.

    from boundread import info, pages, extract
    about = info("report.pdf")                  # InfoResult: kind, fields["pages"], est_tokens, next
    part = pages("report.pdf", "1-5")           # ExtractResult: output file, chars, truncated, next
    hits = extract("server.log", grep="ERROR", context=2, stdout=True).text
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from boundread.chunks.manifest import Manifest as ChunkManifest
from boundread.contract import kinds
from boundread.contract.model import ExtractResult, InfoResult, Listing, Request
from boundread.core import engine
from boundread.errors import UsageError
from boundread.formats.ocr import check_mode
from boundread.limits import Limits
from boundread.ranges import parse_span, parse_spans


def info(path: str | Path, *, password: str | None = None, limits: Limits | None = None) -> InfoResult:
    """What a file is and what is cheap to know about it."""
    return engine.info(path, Request(limits=limits or Limits(), password=password))


def extract(
    path: str | Path,
    *,
    pages: str | None = None,
    sheets: tuple[str, ...] = (),
    lines: str | None = None,
    tail: int | None = None,
    grep: str | None = None,
    ignore_case: bool = False,
    context: int = 0,
    member: str | None = None,
    output: str | Path | None = None,
    stdout: bool = False,
    password: str | None = None,
    limits: Limits | None = None,
    ocr: str = "auto",
    ocr_lang: str = "eng",
    **options: Any,
) -> ExtractResult:
    """Bounded text of any supported file. ``stdout=True`` returns it in ``.text`` instead of a file.
    ``ocr``: auto (scanned pages and images, when Tesseract is installed), force or never; ``ocr_lang``: e.g.
    ``"eng+deu"``. ``tail``: only the last N lines of a text file, read from its end (not with lines or grep).
    ``options``: fmt, layout, engine, rows (as for the CLI)."""
    rows = options.pop("rows", None)
    unknown = set(options) - {"fmt", "layout", "engine"}
    if unknown:
        raise UsageError(f"unknown options {sorted(unknown)}", "see help(boundread.extract)")
    req = Request(limits=limits or Limits(), pages=parse_spans(pages) if pages else (), sheets=tuple(sheets),
                  rows=parse_span(rows, "rows") if rows else None, password=password,
                  ocr=check_mode(ocr), ocr_lang=ocr_lang, tail=tail, **options)
    filters = engine.Filters(lines=parse_span(lines) if lines else None, grep=grep, ignore_case=ignore_case,
                             context=context, member=member)
    selection = f"pages-{pages}" if pages else "text"
    return engine.extract(path, req, filters, output_path=output, to_stdout=stdout, selection=selection)


def pages(path: str | Path, ranges: str, **kwargs: Any) -> ExtractResult:
    """PDF pages or pptx slides, e.g. ``pages("report.pdf", "1-5")``."""
    return extract(path, pages=ranges, **kwargs)


WORKBOOKS = kinds.WORKBOOKS


def sheets(path: str | Path, *names: str, **kwargs: Any) -> ExtractResult | list[dict[str, Any]]:
    """Without names: the list of sheets and sizes. With names: their rows (csv by default).

    The listing is a reading, as ``boundread sheets F`` is: a workbook that extract cannot read (a bomb,
    damaged, encrypted, too old) raises the same error (Refused, Corrupt...), and a file that is no workbook
    raises UsageError. ``password`` and ``limits`` apply to both forms."""
    if not names:
        unknown = set(kwargs) - {"password", "limits"}
        if unknown:
            raise UsageError(f"unknown options {sorted(unknown)} without a sheet name",
                             "name a sheet to read rows, or see help(boundread.sheets)")
        result = engine.info(path, Request(limits=kwargs.get("limits") or Limits(), password=kwargs.get("password")),
                             describe=False)
        if result.kind not in WORKBOOKS:
            raise UsageError(f"{result.path} is {result.kind}, not a workbook",
                             f"use `boundread info {shlex.quote(result.path)}` to see what it is")
        sheet_list: list[dict[str, Any]] = result.fields.get("sheets", [])
        return sheet_list
    return extract(path, sheets=names, **kwargs)


def list_zip(path: str | Path, *, password: str | None = None, limits: Limits | None = None,
             entries: str | None = None, match: str | None = None) -> Listing:
    """An archive's table of contents; nothing is extracted. ``entries``: a page, ``"501-1000"`` (1-based,
    ``"501-"`` to the end; at most ``limits.max_entries``); ``match``: only names matching this fnmatch pattern
    (case-sensitive, ``*`` crosses ``/``), ``entries`` counted among them. ``.resume``: the next page's command."""
    req = Request(limits=limits or Limits(), password=password, match=match,
                  entries=parse_span(entries, "entries") if entries else None)
    return engine.list_archive(path, req)[1]


def chunk(path: str | Path, tokens: int = 20_000, output: str | Path | None = None, *, overlap: int = 0,
           max_lines: int | None = 2000, max_chunks: int = 200, start: int = 1, model: str | None = None,
           password: str | None = None, fmt: str = "csv", layout: bool = False,
           timeout: float | None = 120.0) -> ChunkManifest:
    """The whole document as chunk files of at most ``tokens`` tokens in ``output`` (default
    ``boundread-out/<name>.chunks``), and their manifest: ``chunk("report.pdf", 20_000).chunks[0].span`` ->
    ``'pages 1-4'`` (the CLI's ``boundread chunks``). ``model`` prices reading every chunk once; ``start`` goes
    on after ``max_chunks``."""
    from boundread.chunks.manifest import Params
    from boundread.chunks.plan import chunk as run

    if tokens < 50 or overlap < 0 or max_chunks < 1 or start < 1:
        raise UsageError(f"tokens={tokens}, overlap={overlap}, max_chunks={max_chunks}, start={start}",
                         "tokens >= 50, overlap >= 0, max_chunks and start >= 1")
    params = Params(tokens=tokens, overlap=overlap, max_lines=max_lines, format=fmt, layout=layout)
    return run(path, params, output, start=start, max_chunks=max_chunks, model=model, password=password,
               timeout=timeout)
