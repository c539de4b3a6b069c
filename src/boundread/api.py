"""The front door: every read boundread does, as typed calls. The CLI, the MCP server, the guard's redirect
slices and ``chunks`` call these; so does a Python program.

    from boundread import info, pages, extract, sheet_list
    about = info("report.pdf")                  # InfoResult: kind, fields["pages"], est_tokens, next
    part = pages("report.pdf", "1-5")           # ExtractResult: output file, chars, truncated, next
    hits = extract("server.log", grep="ERROR", context=2, stdout=True).text
    names = [sheet["name"] for sheet in sheet_list("prices.xlsx")]

Each call takes explicit keyword parameters and returns one type. A read is stated once, by :func:`ask`
(the Request the handler reads, the engine's line filters, the kinds of file it accepts); its output file's
name follows from it (:mod:`boundread.core.naming`), so one request lands in one file whichever shell made it.
"""

from __future__ import annotations

from boundread.contract import kinds as families
from boundread.contract.model import FILE, ExtractResult, InfoResult, Listing, Request, Source
from boundread.core import engine as core
from boundread.core import fit
from boundread.core.engine import Filters
from boundread.errors import UsageError
from boundread.limits import Limits
from boundread.record import Record, field, replace

TYPE_CHECKING = False  # not typing's: typing, pathlib and contextlib are ~15 ms of a one-line info's start-up
if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable
    from pathlib import Path

    from boundread.chunks.manifest import Manifest as ChunkManifest  # loads with chunk(), not with every info
    from boundread.contract.sheet import Sheet as Sheet
    from boundread.contract.sink import Sink
    from boundread.contract.stream import Writer

    #: wraps a read, e.g. in a progress display on stderr (the CLI's, when a person watches)
    Watch = Callable[[Sink], contextlib.AbstractContextManager[object]]
ENGINES = ("auto", "pdfium", "pdfminer")


class Ask(Record, frozen=True):
    """One read, as :func:`ask` states it for every shell: what the handler reads (``request``), the
    engine's line filters, and the kinds of file it accepts (None: any)."""

    request: Request
    filters: Filters = field(default_factory=Filters)
    kinds: tuple[str, ...] | None = None

    def bounded(self, limits: Limits) -> Ask:
        """The same read under other limits (an MCP call re-reads a selection up to an offset)."""
        return replace(self, request=replace(self.request, limits=limits))

    def file_name(self, source_name: str, result: ExtractResult, *, offset: int = 0) -> str:
        """The name of the file that holds this read's text of ``source_name``, once ``result`` said what it
        holds (the pages the file has); ``offset``: an MCP call's characters skipped into it."""
        from boundread.core import naming

        held = core.selection(self.request, self.filters).held(result.totals, result.done, cut=result.truncated)
        return naming.file_name(source_name, replace(held, offset=offset))


def ask(*, pages: str | None = None, sheets: tuple[str, ...] = (), rows: str | None = None, fmt: str = "csv",
        layout: bool = False, engine: str = "auto", lines: str | None = None, tail: int | None = None,
        grep: str | None = None, ignore_case: bool = False, context: int = 0, member: str | None = None,
        password: str | None = None, limits: Limits | None = None, ocr: str = "auto", ocr_lang: str = "eng",
        kinds: tuple[str, ...] | None = None, head: bool = False, encoding: str | None = None,
        path: str | None = None, sql: str | None = None) -> Ask:
    """A read stated once: ranges parsed, names checked, the Request and the filters built. ``head``: the
    line window is ``--head N`` (see :func:`head_lines`); ``encoding``: text decoded with this Python codec
    instead of the guessed one; ``path``: JSON/JSONL, a jq-like path (``.items[100:120]``); ``sql``: SQLite, one
    read-only statement."""
    from boundread.ranges import parse_span, parse_spans  # here: an info parses no range (start-up)

    request = Request(limits=limits or Limits(), pages=parse_spans(pages) if pages else (), sheets=tuple(sheets),
                      rows=parse_span(rows, "rows") if rows else None, fmt=check_format(fmt),
                      layout=layout, engine=check_engine(engine),
                      password=password, ocr=_ocr_mode(ocr), ocr_lang=ocr_lang, tail=tail,
                      encoding=fit.encoding(encoding), path=path, sql=sql)
    filters = Filters(lines=parse_span(lines) if lines else None, grep=grep, ignore_case=ignore_case,
                      context=context, member=member, head=head)
    return Ask(request, filters, kinds)


def run(path: str | Path, read: Ask, *, output: str | Path | None = None, stdout: bool = False,
        watch: Watch | None = None, stream: Writer | None = None) -> ExtractResult:
    """Do the read ``read``: its text to ``output`` (default: the output folder, under the name of what it
    holds), or in ``.text`` with ``stdout=True`` - or, given a ``stream`` too, written there as it is
    extracted (a reader that closes it stops the read; ``.text`` is None)."""
    result = core.extract(path, read.request, read.filters, output_path=output, to_stdout=stdout, kinds=read.kinds,
                          watch=watch, stream=stream)
    return carry_encoding(result, read.request.encoding)


#: the commands that take ``--encoding``
_DECODING = ("boundread extract ", "boundread view ", "boundread info ", "boundread chunks ")


def _ocr_mode(mode: str) -> str:
    """``--ocr`` checked; the default without importing the OCR module (start-up)."""
    if mode == "auto":
        return mode
    from boundread.formats.ocr import check_mode

    return check_mode(mode)


def carry_encoding(result: ExtractResult, encoding: str | None) -> ExtractResult:
    """``result`` with ``--encoding`` on each next step that reads text, so the rest of a cp1251 log is read
    in cp1251 too, not in the guess the user overrode."""
    if not encoding:
        return result
    from shlex import quote

    flag = f" --encoding {quote(encoding)}"
    steps = tuple(step + flag if step.startswith(_DECODING) and " --encoding " not in step else step
                  for step in result.next)
    return replace(result, next=steps)


def info(path: str | Path, *, password: str | None = None, limits: Limits | None = None,
         encoding: str | None = None) -> InfoResult:
    """What a file is and what is cheap to know about it. ``encoding``: a text file's codec, for its line
    count and size in characters, instead of the guessed one."""
    request = Request(limits=limits or Limits(), password=password, encoding=fit.encoding(encoding))
    result = core.info(path, request)
    fit.check(request, result.kind, result.path)
    return result


def extract(path: str | Path, *, pages: str | None = None, sheets: tuple[str, ...] = (), rows: str | None = None,
            fmt: str = "csv", layout: bool = False, engine: str = "auto", lines: str | None = None,
            tail: int | None = None, grep: str | None = None, ignore_case: bool = False, context: int = 0,
            member: str | None = None, output: str | Path | None = None, stdout: bool = False,
            password: str | None = None, limits: Limits | None = None, ocr: str = "auto", ocr_lang: str = "eng",
            watch: Watch | None = None, stream: Writer | None = None, head: int | None = None,
            encoding: str | None = None, json_path: str | None = None, sql: str | None = None) -> ExtractResult:
    """Bounded text of any supported file. ``stdout=True`` returns it in ``.text`` instead of a file.
    ``ocr``: auto (scanned pages and images, when Tesseract is installed), force or never; ``ocr_lang``: e.g.
    ``"eng+deu"``. ``tail``: only the last N lines of a text file, read from its end (not with lines or grep).
    ``fmt``: a workbook's rows as csv, tsv or markdown; ``engine``: the PDF text engine. ``head``: only the
    first N lines (``lines="1-N"``, named so). ``stream``: with ``stdout=True``, where the text goes as it is
    extracted. ``encoding``: a text file's (or compressed text's) codec, e.g. ``"cp1251"``, instead of the
    guessed one. ``json_path``: JSON/JSONL, only what this jq-like path selects (``".items[100:120]"``).
    ``sql``: SQLite, one read-only statement (``"SELECT * FROM t WHERE x > 1"``), rows and cells bounded."""
    read = ask(pages=pages, sheets=sheets, rows=rows, fmt=fmt, layout=layout, engine=engine,
               lines=head_lines(head, lines, tail), tail=tail, grep=grep, ignore_case=ignore_case, context=context,
               member=member, password=password, limits=limits, ocr=ocr, ocr_lang=ocr_lang, head=head is not None,
               encoding=encoding, path=json_path, sql=sql)
    return run(path, read, output=output, stdout=stdout, watch=watch, stream=stream)


def head_lines(head: int | None, lines: str | None, tail: int | None) -> str | None:
    """``head`` N as the line window ``1-N``; it names the same lines as ``--lines`` and the opposite end to
    ``--tail``, so it combines with neither."""
    if head is None:
        return lines
    if head < 1:
        raise UsageError(f"--head {head}: no lines to show", "give a count of 1 or more, e.g. --head 100")
    if lines is not None or tail is not None:
        raise UsageError("--head does not combine with " + ("--lines" if lines is not None else "--tail"),
                         "use one of --head N, --tail N or --lines A-B")
    return f"1-{head}"


def pages(path: str | Path, ranges: str, *, layout: bool = False, engine: str = "auto", ocr: str = "auto",
          ocr_lang: str = "eng", output: str | Path | None = None, stdout: bool = False,
          password: str | None = None, limits: Limits | None = None, watch: Watch | None = None,
          stream: Writer | None = None) -> ExtractResult:
    """PDF pages or pptx (odp) slides, e.g. ``pages("report.pdf", "1-5")``; another kind is a UsageError."""
    read = ask(pages=ranges, layout=layout, engine=engine, ocr=ocr, ocr_lang=ocr_lang, password=password,
               limits=limits, kinds=families.PAGED)
    return run(path, read, output=output, stdout=stdout, watch=watch, stream=stream)


def sheets(path: str | Path, *names: str, rows: str | None = None, fmt: str = "csv",
           output: str | Path | None = None, stdout: bool = False, limits: Limits | None = None,
           watch: Watch | None = None, stream: Writer | None = None) -> ExtractResult:
    """The rows of the named sheets (names or 1-based indices) as csv, tsv or markdown:
    ``sheets("prices.xlsx", "Prices 2026", rows="201-400")``. :func:`sheet_list` lists the sheets."""
    if not names:
        raise UsageError("no sheet named", "name one, e.g. sheets(path, \"1\"); sheet_list(path) lists them")
    read = ask(sheets=names, rows=rows, fmt=fmt, limits=limits, kinds=families.WORKBOOKS)
    return run(path, read, output=output, stdout=stdout, watch=watch, stream=stream)


def sheet_info(path: str | Path, *, password: str | None = None, limits: Limits | None = None) -> InfoResult:
    """A workbook described for ``sheets F``: its sheets in ``fields["sheets"]``, its next steps (not this
    listing itself). The listing is a reading: a workbook extract cannot read (a bomb, damaged, encrypted, too
    old) raises what extract raises (Refused, Corrupt...), and a file that is no workbook a UsageError."""
    result = core.info(path, Request(limits=limits or Limits(), password=password), describe=False)
    if result.kind not in families.WORKBOOKS:
        from boundread.core import advice

        raise UsageError(f"{result.path} is {result.kind}, not a workbook",
                         advice.command_for(result.kind, result.path))
    itself = core.command_line(("sheets", FILE), result.path)
    return replace(result, next=tuple(step for step in result.next if step != itself))


def sheet_list(path: str | Path, *, password: str | None = None, limits: Limits | None = None) -> list[Sheet]:
    """The sheets of a workbook and their sizes, raising as :func:`sheet_info` does."""
    listed: list[Sheet] = sheet_info(path, password=password, limits=limits).fields.get("sheets", [])
    return listed


class Archive(Record, frozen=True):
    """An archive's listing and the archive as it was opened (its name, kind and size, for the listing's
    view and its ``next`` page)."""

    source: Source
    listing: Listing


def list_archive(path: str | Path, *, password: str | None = None, limits: Limits | None = None,
                 entries: str | None = None, match: str | None = None) -> Archive:
    """An archive's table of contents; nothing is extracted. ``entries``: a page, ``"501-1000"`` (1-based,
    ``"501-"`` to the end; at most ``limits.max_entries``); ``match``: only names matching this fnmatch pattern
    (case-sensitive, ``*`` crosses ``/``), ``entries`` counted among them."""
    from boundread.ranges import parse_span

    req = Request(limits=limits or Limits(), password=password, match=match,
                  entries=parse_span(entries, "entries") if entries else None)
    return Archive(*core.list_archive(path, req))


def list_zip(path: str | Path, *, password: str | None = None, limits: Limits | None = None,
             entries: str | None = None, match: str | None = None) -> Listing:
    """:func:`list_archive`'s listing alone; ``.resume`` is the next page's command."""
    return list_archive(path, password=password, limits=limits, entries=entries, match=match).listing


def chunk(path: str | Path, tokens: int = 20_000, output: str | Path | None = None, *, overlap: int = 0,
          max_lines: int | None = 2000, max_chunks: int = 200, start: int = 1, model: str | None = None,
          password: str | None = None, fmt: str = "csv", layout: bool = False,
          timeout: float | None = 120.0, watch: Watch | None = None, encoding: str | None = None,
          max_member_mb: int | None = None) -> ChunkManifest:
    """The whole document as chunk files of at most ``tokens`` tokens in ``output`` (default
    ``boundread-out/<name>.chunks``), and their manifest: ``chunk("report.pdf", 20_000).chunks[0].span`` ->
    ``'pages 1-4'`` (the CLI's ``boundread chunks``). ``model`` prices reading every chunk once; ``start`` goes
    on after ``max_chunks``; ``max_lines`` None: no line bound per chunk; ``encoding``: a text file's codec;
    ``max_member_mb``: an archive member is read up to this many MB (None: extract's cap, 32)."""
    from boundread.chunks.manifest import Params
    from boundread.chunks.plan import chunk as run_chunks
    from boundread.units import MB

    if tokens < 50 or overlap < 0 or max_chunks < 1 or start < 1 or (max_member_mb is not None and max_member_mb < 1):
        raise UsageError(f"tokens={tokens}, overlap={overlap}, max_chunks={max_chunks}, start={start}, "
                         f"max_member_mb={max_member_mb}",
                         "tokens >= 50, overlap >= 0, max_chunks, start and max_member_mb >= 1")
    params = Params(tokens=tokens, overlap=overlap, max_lines=max_lines, format=check_format(fmt), layout=layout)
    cap = None if max_member_mb is None else max_member_mb * MB
    return run_chunks(path, params, output, start=start, max_chunks=max_chunks, model=model, password=password,
                      timeout=timeout, watch=watch, encoding=encoding, max_member_bytes=cap)


def check_format(fmt: str) -> str:
    """``fmt`` when it is a rows format (csv, tsv, markdown); a UsageError naming them otherwise."""
    from boundread.core.naming import FORMAT_SUFFIX  # the formats rows are written in, and their suffixes

    if fmt not in FORMAT_SUFFIX:
        raise UsageError(f"unknown --format {fmt!r}", "use csv, tsv or markdown")
    return fmt


def check_engine(name: str) -> str:
    """``name`` when it is a PDF text engine (auto, pdfium, pdfminer); a UsageError naming them otherwise."""
    if name not in ENGINES:
        raise UsageError(f"unknown --engine {name!r}", "use auto, pdfium or pdfminer")
    return name


def __getattr__(name: str) -> object:
    """``Sheet``, a TypedDict: typing loads when it is asked for, not with every read."""
    if name == "Sheet":
        from boundread.contract.sheet import Sheet

        return Sheet
    raise AttributeError(f"module 'boundread.api' has no attribute {name!r}")
