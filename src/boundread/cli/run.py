"""What ``info``, ``extract``, ``pages``, ``sheets`` and ``list-zip`` do once their options are parsed, without
Typer: the Typer commands (:mod:`boundread.cli.app`) and the start-up fast path (:mod:`boundread.cli.fast`) both
call these, so the two cannot answer differently. Also the error boundary's core (:func:`guarded`).
"""

from __future__ import annotations

import os
import sys

from boundread.errors import BoundreadError, ExitCode

TYPE_CHECKING = False  # not typing's: typing, pathlib and contextlib are ~12 ms of the fast path's start-up
if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import TextIO

    from boundread.contract.model import ExtractResult
    from boundread.contract.sink import Sink
    from boundread.core.output import Replacing
    from boundread.limits import Limits


def guarded(as_json: bool, work: Callable[[], int]) -> int:
    """Run a command's work; its exit code. A BoundreadError is one line on stderr (or a JSON error), Ctrl-C
    is 130, a reader that closed the pipe is 0; anything else is a bug and keeps its traceback."""
    try:
        return work()
    except BoundreadError as exc:
        from boundread import render  # on an error only: `boundread mcp` starts without the reading modules

        render.print_error(exc, as_json=as_json)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        silence_stdout()
        return 0


def silence_stdout() -> None:
    """The reader left: point stdout at /dev/null so the interpreter's final flush cannot fail."""
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
    except (OSError, ValueError):  # no real descriptor (a test runner's buffer): nothing will flush to a pipe
        pass


def info(files: Sequence[str | Path], *, password: str | None = None, as_json: bool = False,
         encoding: str | None = None, timeout: float = 30.0) -> int:
    """``boundread info FILE...``; the defaults are the command's."""
    from boundread import api, render
    from boundread.limits import Limits

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


def extract(file: str | Path, *, pages: str | None = None, sheet: Sequence[str] = (), lines: str | None = None,
            head: int | None = None, tail: int | None = None, grep: str | None = None, ignore_case: bool = False,
            context: int = 0, max_matches: int = 100, member: str | None = None, max_member_mb: int = 32,
            max_chars: int = 100_000, max_lines: int | None = None, output: Path | None = None, stdout: bool = False,
            password: str | None = None, fmt: str = "csv", rows: str | None = None, max_rows: int = 200,
            max_cols: int = 50, layout: bool = False, engine_name: str = "auto", ocr_mode: str = "auto",
            ocr_lang: str = "eng", encoding: str | None = None, as_json: bool = False, timeout: float = 60.0,
            path: str | None = None, sql: str | None = None) -> int:
    """``boundread extract FILE``; the defaults are the command's (keyword functions, not a parsed-options
    class: a 28-field dataclass or NamedTuple costs 2-3 ms of start-up to build, a tenth of the fast path's)."""
    from boundread import api
    from boundread.limits import Limits
    from boundread.units import MB

    limits = Limits(max_chars=max_chars, max_lines=max_lines, max_matches=max_matches,
                    max_member_bytes=max_member_mb * MB, max_rows=max_rows, max_cols=max_cols,
                    timeout=timeout)
    output_, stdout_ = target(output, stdout)
    replacing = check_output(output_, stdout_)
    stream = stream_of(stdout_, as_json)
    result = api.extract(file, pages=pages, sheets=tuple(sheet), rows=rows, fmt=fmt,
                         layout=layout, engine=engine_name, lines=lines, head=head,
                         tail=tail, grep=grep, ignore_case=ignore_case, context=context,
                         member=member, output=output_, stdout=stdout_, password=password, limits=limits,
                         ocr=ocr_mode, ocr_lang=ocr_lang, watch=watch(stream), stream=stream,
                         encoding=encoding, json_path=path, sql=sql)
    return emit_extract(result, "extract", as_json, replacing)


def pages(file: str | Path, page_range: str, *, layout: bool = False, engine_name: str = "auto", ocr_mode: str = "auto",
          ocr_lang: str = "eng", max_chars: int = 100_000, output: Path | None = None, stdout: bool = False,
          password: str | None = None, as_json: bool = False, timeout: float = 60.0) -> int:
    """``boundread pages FILE RANGE``; the defaults are the command's."""
    from boundread import api
    from boundread.limits import Limits

    output_, stdout_ = target(output, stdout)
    replacing = check_output(output_, stdout_)
    stream = stream_of(stdout_, as_json)
    result = api.pages(file, page_range, layout=layout, engine=engine_name, ocr=ocr_mode, ocr_lang=ocr_lang,
                       output=output_, stdout=stdout_, password=password,
                       limits=Limits(max_chars=max_chars, timeout=timeout), watch=watch(stream), stream=stream)
    return emit_extract(result, "pages", as_json, replacing)


def sheets(file: str | Path, names: Sequence[str] = (), *, fmt: str = "csv", rows: str | None = None,
           max_rows: int = 200, max_cols: int = 50, max_chars: int = 100_000, output: Path | None = None,
           stdout: bool = False, as_json: bool = False, timeout: float = 60.0) -> int:
    """``boundread sheets FILE [SHEET]...``: without a sheet the listing, with sheets their rows; the defaults
    are the command's."""
    from boundread import api, render
    from boundread.limits import Limits

    limits = Limits(max_chars=max_chars, max_rows=max_rows, max_cols=max_cols, timeout=timeout)
    api.ask(rows=rows, fmt=fmt)  # a bad --rows or --format is refused with the listing too, as with rows
    if not names and rows is not None:
        names = _sheet_for_rows(file, rows, limits)
    if not names:  # the listing is a reading: a workbook extract cannot read fails here as it does there
        result = api.sheet_info(file, limits=limits)
        if as_json:
            render.print_json("sheets", {"path": result.path, "kind": result.kind,
                                         "sheets": result.fields.get("sheets", []), "next": list(result.next),
                                         "warnings": list(result.warnings)})
        else:
            render.print_info(result)
        return 0
    output_, stdout_ = target(output, stdout)
    replacing = check_output(output_, stdout_)
    stream = stream_of(stdout_, as_json)
    result_x = api.sheets(file, *names, rows=rows, fmt=fmt, output=output_, stdout=stdout_, limits=limits,
                          watch=watch(stream), stream=stream)
    return emit_extract(result_x, "sheets", as_json, replacing)


def _sheet_for_rows(file: str | Path, rows: str, limits: Limits) -> tuple[str, ...]:
    """``sheets F --rows A-B`` without a sheet: the rows of a CSV/TSV's one sheet, or of a workbook's only
    worksheet; with several, a usage error naming them (--rows is never ignored for the listing)."""
    from shlex import quote

    from boundread import api
    from boundread.errors import UsageError

    listed = [sheet for sheet in api.sheet_info(file, limits=limits).fields.get("sheets", [])
              if sheet.get("type") in (None, "worksheet", "table") and not sheet.get("hidden")
              and sheet.get("state") in (None, "visible")]
    if len(listed) == 1:
        return (str(listed[0].get("name")),)
    names = ", ".join(repr(str(sheet.get("name"))) for sheet in listed[:10]) + (", ..." if len(listed) > 10 else "")
    first = quote(str(listed[0].get("name"))) if listed else "SHEET"
    from pathlib import Path

    raise UsageError(f"--rows needs a sheet: {Path(file).name} has {len(listed)} ({names})",
                     f"name one: boundread sheets {quote(str(file))} {first} --rows {rows}")


def list_zip(archive: str | Path, *, entries: str | None = None, match: str | None = None, max_entries: int = 500,
             password: str | None = None, as_json: bool = False, timeout: float = 30.0) -> int:
    """``boundread list-zip ARCHIVE``; the defaults are the command's."""
    from boundread import api, render
    from boundread.limits import Limits

    listed = api.list_archive(archive, password=password, limits=Limits(max_entries=max_entries, timeout=timeout),
                              entries=entries, match=match)
    src, listing = listed.source, listed.listing
    if as_json:
        render.print_json("list-zip", render.listing_dict(src, listing))
    else:
        render.print_listing(src, listing)
    return int(ExitCode.TIMEOUT) if listing.timed_out else 0


def watch(stream: TextIO | None = None) -> Callable[[Sink], contextlib.AbstractContextManager[object]] | None:
    """A progress line on stderr for long extractions, when a person is watching stderr - and the text is
    not streaming onto the same terminal, where the line would cut into it."""
    if stream is not None and stream.isatty():
        return None
    from boundread import render

    return render.progress if sys.stderr.isatty() and not os.environ.get("NO_PROGRESS") else None


def stream_of(stdout: bool, as_json: bool) -> TextIO | None:
    """Where ``--stdout`` text goes as it is extracted: stdout itself, except in ``--json`` (one object)."""
    return sys.stdout if stdout and not as_json else None


def reader_gone(result: ExtractResult) -> bool:
    """The reader of streamed text closed it (``| head -1``): stdout is pointed at /dev/null, so the exit's
    flush of what Python still holds for it cannot fail with a BrokenPipeError."""
    from boundread.contract.stream import CLOSED

    if CLOSED not in result.truncated_reasons:
        return False
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real descriptor (a test runner's buffer)
        pass
    return True


def target(output: Path | None, stdout: bool) -> tuple[Path | None, bool]:
    """``-o -`` is stdout, as pdftotext, curl and tar take it: (the file to write or None, to stdout)."""
    from boundread.core.output import is_stdout

    return (None, True) if is_stdout(output) else (output, stdout)


def check_output(output: Path | None, stdout: bool) -> Replacing | None:
    """Refuse a bad ``-o`` (or a default folder that leads outside the working folder) before any work; what
    it will replace (an existing file or symlink), if anything."""
    from boundread.core.output import check_dest, out_path

    if stdout:
        return None
    if output is None:
        out_path()
        return None
    return check_dest(output)


def emit_extract(result: ExtractResult, command: str, as_json: bool, replaced: Replacing | None = None) -> int:
    from boundread import render

    if as_json:
        render.print_json(command, {**render.as_dict(result),
                                    **({"replaced": replaced.as_dict()} if replaced and result.output else {})})
    else:
        if result.text is not None:  # ends with a newline, so the summary (on stderr) never glues onto it
            echo(result.text, nl=bool(result.text) and not result.text.endswith("\n"))
        reader_gone(result)
        render.print_extract(result, to_stderr=result.output is None,
                             replaced=replaced.describe() if replaced and result.output else None)
    if "interrupted" in result.truncated_reasons:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.TIMEOUT) if result.timed_out else 0


def echo(text: str, *, nl: bool) -> None:
    """What ``typer.echo`` (click's echo) does with text on stdout: ANSI colour codes dropped when stdout is not
    a terminal, written and flushed at once (a closed pipe is then the boundary's, not the exit's)."""
    import re

    text = text + "\n" if nl else text
    if text and not sys.stdout.isatty():
        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)
    sys.stdout.write(text)
    sys.stdout.flush()
