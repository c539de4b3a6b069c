"""The engine: detect the kind, pick the handler, apply the limits, write the output atomically.

Every public entry point of the library and every CLI command goes through here, so the
bounds, the time limit, the mislabel notes and the ``next`` commands are the same everywhere.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from boundread import formats
from boundread.bytelevel.sniff import TEXT, kind_from_name, symlink_target
from boundread.contract import kinds as families
from boundread.contract.model import (
    FILE,
    Details,
    ExtractResult,
    InfoResult,
    Listing,
    Outcome,
    Request,
    Source,
    Span,
    Suggestion,
)
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.contract.stream import Writer
from boundread.core import advice, fit, naming, output
from boundread.core.detect import detect, table, web
from boundread.core.naming import Selection
from boundread.errors import BoundreadError, Corrupt, Encrypted, Refused, Unsupported, UsageError
from boundread.limits import Deadline, Limits, est_tokens
from boundread.ranges import OPEN_END, span_text

T = TypeVar("T")

def _damage() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "this file is damaged", whichever handler met them: imported when one is
    raised, not at every start-up (zipfile, xml.etree)."""
    import struct
    import zipfile
    import zlib
    from xml.etree.ElementTree import ParseError

    return (zipfile.BadZipFile, zlib.error, EOFError, struct.error, ParseError, UnicodeDecodeError)


class Expired(BaseException):
    """Raised by the alarm; a BaseException so that libraries' ``except Exception`` cannot eat it."""


@dataclass(frozen=True)
class Filters:
    """The generic line filters of ``extract``: a window, a grep, its context and a member."""

    lines: Span | None = None
    grep: str | None = None
    ignore_case: bool = False
    context: int = 0
    member: str | None = None
    head: bool = False  # the window is ``--head N``: the first N lines, however many the text has (no warning)


def open_source(path: str | Path) -> Source:
    src = source_for_path(path)
    assert src.path is not None
    return replace(src, sniffed=detect(src.path, src.sniffed))


def info(path: str | Path, req: Request | None = None, *, describe: bool = True) -> InfoResult:
    """What a file is and what is cheap to know about it, without reading it whole. A file that extract
    cannot read (damaged, encrypted, a bomb, too old) is described: ``problem`` holds the error extract ends
    with; ``describe=False`` raises it instead (``sheets`` without a sheet lists, so it fails as extract does)."""
    req = req or Request()
    src = open_source(path)
    handler = formats.handler_for(src.kind)
    deadline = Deadline(req.limits.timeout)
    problem: dict[str, object] | None = None
    try:
        details: Details = guarded(src, deadline, lambda: handler.info(src, req))
    except (Encrypted, Corrupt, Refused, Unsupported) as exc:
        if not describe:
            raise
        # info describes; "it is damaged / encrypted / a bomb" is a description, not a failure
        problem = {"code": exc.code, "exit_code": int(exc.exit_code), "message": str(exc)}
        details = Details(fields={"problem": exc.code}, encrypted=isinstance(exc, Encrypted), warnings=[str(exc)])
    except Expired:
        details = Details(warnings=[f"info stopped after {deadline.seconds:g} s (timeout)"])
    chars = details.est_chars
    return InfoResult(
        path=src.name,
        kind=src.kind,
        mime=src.sniffed.mime,
        bytes=src.size,
        symlink_target=symlink_target(src.name),
        mislabelled=_mislabel(src),
        encrypted=details.encrypted or src.sniffed.encrypted,
        est_tokens=None if chars is None else est_tokens(chars),
        est_tokens_estimated=details.estimated,
        fields={**({"note": src.sniffed.note} if src.sniffed.note else {}), **details.fields},
        warnings=tuple(details.warnings),
        next=tuple(command_line(s, src.name) for s in details.next if s[:2] != ("info", FILE)),  # not itself
        problem=problem,
    )


def extract(
    path: str | Path,
    req: Request | None = None,
    filters: Filters | None = None,
    *,
    output_path: str | Path | None = None,
    to_stdout: bool = False,
    kinds: tuple[str, ...] | None = None,
    watch: Callable[[Sink], contextlib.AbstractContextManager[object]] | None = None,
    stream: Writer | None = None,
) -> ExtractResult:
    """Extract bounded text. It goes to ``output_path`` (or the default file, named by :mod:`naming` for
    what it holds), or is returned in ``.text`` when ``to_stdout`` is set - or, with a ``stream`` too, written
    there as it is extracted (``.text`` None). ``kinds`` restricts the kinds accepted (``pages`` takes PDF and
    PowerPoint only). ``watch`` wraps the work, e.g. in a progress display."""
    req = req or Request()
    filters = filters or Filters()
    src = open_source(path)
    deadline = Deadline(req.limits.timeout)
    target = src
    warnings: list[str] = []
    if (note := _mislabel(src)) is not None:
        warnings.append(note)
    if filters.member is not None:
        archives = _members(src.kind)
        data = guarded(src, deadline, lambda: archives.read_member(src, filters.member or "", req))
        target = source_for_bytes(f"{src.name}:{filters.member}", data)
        if (delimited := table(Path(filters.member or ""), target.sniffed)) is not None:  # a member data.csv
            target = replace(target, sniffed=delimited)
        elif (named := web(Path(filters.member or ""), target.sniffed)) is not None and named.kind == "msg":
            target = replace(target, sniffed=named)  # a message attached to an Outlook message
    if kinds is not None and target.kind not in kinds:
        from shlex import quote

        raise UsageError(f"{target.name} is {target.kind}, not {' or '.join(kinds)}",
                         advice.command_for(target.kind, target.name) if target is src
                         else f"use `boundread info {quote(target.name)}` to see what to run")
    try:
        return _extract(src, target, req, filters, deadline, warnings, output_path=output_path,
                        to_stdout=to_stdout, watch=watch, stream=stream if to_stdout else None,
                        kind=read_as(target.kind, req, kinds, filters))
    except BoundreadError as exc:
        if target is src or "`boundread info`" not in exc.fix:
            raise
        from shlex import quote

        # `boundread info archive.zip:member` does not exist: point at what describes a member
        raise type(exc)(exc.what, f"`boundread list-zip {quote(src.name)}` describes the members") from None


def _extract(
    src: Source,
    target: Source,
    req: Request,
    filters: Filters,
    deadline: Deadline,
    warnings: list[str],
    *,
    output_path: str | Path | None,
    to_stdout: bool,
    watch: Callable[[Sink], contextlib.AbstractContextManager[object]] | None,
    stream: Writer | None = None,
    kind: str | None = None,
) -> ExtractResult:
    _check_tail(req, filters)
    kind = kind or target.kind
    fit.check(req, kind, target.name, container=src.kind if target is not src else None)
    handler = formats.handler_for(kind)
    pattern = _compile(filters)
    sink = Sink(req.limits, deadline, window=filters.lines, grep=pattern, context=filters.context, stream=stream)
    try:
        with watch(sink) if watch else contextlib.nullcontext():
            outcome: Outcome = guarded(target, deadline, lambda: handler.extract(target, req, sink))
    except Expired:
        sink.expire()
        outcome = Outcome()
    except KeyboardInterrupt:  # Ctrl-C: keep what was read, marked truncated ("interrupted"), as a timeout does
        sink.interrupt()
        outcome = Outcome()
    sink.close()
    text = sink.text()
    written: Path | None = None
    if req.tail is not None and not outcome.done:  # stopped by the alarm or Ctrl-C before the tail said what it read
        outcome.done = f"the last {req.tail:,} lines, cut short"
    done = outcome.done or _done_lines(sink, filters)
    warnings += _window_clamped(sink, filters, cut=bool(outcome.truncated or sink.reasons))
    cut = bool(outcome.truncated or sink.reasons)
    if not to_stdout:  # named now that the read said what it holds (the pages the file has, those it reached)
        held = selection(req, filters).held(outcome.totals, done, cut=cut)
        dest = Path(output_path) if output_path else naming.default_path(src.name, held)
        written = output.write_atomic(dest, text, never=src.path, named=output_path is not None)
    steps = _continuations(outcome, sink, filters, src, target, req)
    return ExtractResult(
        path=src.name,
        kind=target.kind,
        bytes=src.size,
        output=str(written) if written else None,
        chars=sink.chars,
        lines=sink.lines + (0 if sink.ends_line else 1),
        est_tokens=est_tokens(sink.chars),
        truncated=cut,
        truncated_reasons=tuple(outcome.truncated + sink.reasons),
        done=done,
        totals=outcome.totals,
        warnings=tuple(warnings + outcome.warnings + sink.warnings),
        next=tuple(command_line(step, src.name) for step in steps),
        text=text if to_stdout and stream is None else None,
        member=filters.member,
        timed_out=sink.timed_out,
    )


def _members(kind: str) -> formats.Members:
    """What lists a file's members and reads one: an email's attachments, or an archive's entries."""
    if kind in families.MAIL:
        from boundread.formats.web import mail

        return mail
    if kind in families.OUTLOOK:
        from boundread.formats.web import outlook

        return outlook
    from boundread.formats.archives import handler as archives

    return archives


def list_archive(path: str | Path, req: Request | None = None) -> tuple[Source, Listing]:
    """An archive's table of contents, from its directory only; nothing is extracted."""
    req = req or Request()
    src = open_source(path)
    deadline = Deadline(req.limits.timeout)
    archives = _members(src.kind)
    return src, guarded(src, deadline, lambda: archives.listing(src, req))


def command_line(suggestion: Suggestion, name: str) -> str:
    """``("pages", FILE, "6-10")`` -> ``boundread pages 'my file.pdf' 6-10`` (``./-x.pdf`` for a name that
    starts with ``-``, so the command does not take it for an option)."""
    operand = "./" + name if name.startswith("-") else name
    from shlex import quote

    words = [operand if word == FILE else word for word in suggestion]
    return "boundread " + " ".join(quote(word) for word in words)


def guarded(src: Source, deadline: Deadline, work: Callable[[], T]) -> T:
    """Run handler code under the hard time limit, turning damage into one clear error."""
    try:
        with _alarm(deadline):
            return work()
    except BoundreadError:
        raise
    except RecursionError:
        raise Corrupt(f"{src.name} is nested too deeply to read", "the file is likely malformed") from None
    except MemoryError:
        raise Refused(f"{src.name} needs too much memory", "ask for less (pages, rows, --max-chars)") from None
    except Exception as exc:
        if not isinstance(exc, _damage()):
            raise
        raise Corrupt(f"{src.name} is damaged ({_short(exc)})", "check the file with `boundread info`") from None


@contextlib.contextmanager
def _alarm(deadline: Deadline) -> Iterator[None]:
    import signal
    import threading

    remaining = deadline.remaining
    if remaining is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise Expired

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, remaining + 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _compile(filters: Filters) -> re.Pattern[str] | None:
    if filters.grep is None:
        return None
    try:
        return re.compile(filters.grep, re.IGNORECASE if filters.ignore_case else 0)
    except re.error as exc:
        raise UsageError(f"bad --grep pattern {filters.grep!r} ({exc})", "use a Python regular expression") from None


def read_as(kind: str, req: Request, kinds: tuple[str, ...] | None, filters: Filters | None = None) -> str:
    """The kind whose handler reads: a CSV or TSV is read as rows (the workbook handler) by ``sheets`` or when
    --sheet, --rows or --format ask for rows, and as text otherwise, so --grep, --lines, --head, --tail and
    --encoding read its lines as they read any text file's. JSON and JSONL are read by their structure, and as
    text for --tail and, without --path or --rows, for --grep and --lines (a JSONL record is a line: the text
    scan greps records in C, numbered as the file's lines). A saved web page (``html``) is read as its text, which
    --lines and --grep number and filter (so a cut read's ``next: --lines A-B`` goes on in that text), and as the raw
    file's last lines for --tail."""
    if kind in families.WEBPAGES:
        return TEXT if req.tail is not None else kind
    if kind in families.STRUCTURED:
        lines = filters is not None and (filters.grep is not None or filters.lines is not None)
        as_text = req.tail is not None or (lines and req.path is None and req.rows is None)
        return TEXT if as_text else kind
    if kind not in families.TABLES:
        return kind
    default = Request()
    rows = (kinds is not None and kind in kinds) or req.sheets != default.sheets or req.rows != default.rows \
        or req.fmt != default.fmt
    return kind if rows else TEXT


def _mislabel(src: Source) -> str | None:
    hint = kind_from_name(src.name)
    read_by_text = (*families.TABLES, *families.STRUCTURED, *families.WEBPAGES)  # text files read by a structure
    if hint is None or hint == src.kind or (hint == TEXT and src.kind in read_by_text):
        return None
    return f"named like a {hint} file but it is {src.kind} (judged by its content)"


def selection(req: Request, filters: Filters) -> Selection:
    """What a read selects, as its output file's name says it (:mod:`boundread.core.naming`)."""
    return Selection(pages=req.pages, layout=req.layout, sheets=req.sheets, rows=req.rows, fmt=req.fmt,
                     tail=req.tail, grep=filters.grep, lines=filters.lines, member=filters.member, query=req.sql,
                     path=req.path)


def _check_tail(req: Request, filters: Filters) -> None:
    if req.tail is None:
        return
    if req.tail < 1:
        raise UsageError(f"--tail {req.tail}: no lines to show", "give a count of 1 or more, e.g. --tail 100")
    clash = [flag for flag, value in (("--lines", filters.lines), ("--grep", filters.grep)) if value is not None]
    if clash:
        raise UsageError(f"--tail does not combine with {' or '.join(clash)}",
                         "use --tail N alone for the end of the file, or --lines A-B / --grep PATTERN without --tail")


def _continuations(outcome: Outcome, sink: Sink, filters: Filters, src: Source, target: Source,
                   req: Request) -> tuple[Suggestion, ...]:
    """``next``: where this read stopped, then the other parts it cut or never reached (every sheet of a
    workbook: a single ``next`` would skip the rows that follow in the others). A member or a grep, which
    ``pages`` and ``sheets`` cannot name, is kept by saying the same with ``extract``."""
    resume = _resume(outcome, sink, filters, src, target, req)
    if resume is None:
        return ()
    steps = [resume, *outcome.more]
    if target is not src or filters.grep is not None:
        steps = [step for step in (_as_extract(step, filters, member=target is not src) for step in steps) if step]
    return tuple(dict.fromkeys(steps))


def _resume(outcome: Outcome, sink: Sink, filters: Filters, src: Source, target: Source,
            req: Request) -> Suggestion | None:
    resume = outcome.resume
    if req.tail is not None and resume is None and (sink.timed_out or sink.interrupted):
        resume = ("extract", FILE, "--tail", str(req.tail), *_more_time(sink))  # O(N): only time was short
    elif resume is None and sink.stop_line is not None and req.tail is None:
        resume = _line_resume(sink, filters)
        resume = (*resume, *_own_limits(sink, filters)) if resume else None
    return resume


def _own_limits(sink: Sink, filters: Filters) -> tuple[str, ...]:
    """After Ctrl-C or a timeout the read stopped short of the bounds the user set: the command that goes on
    keeps their own ``--max-matches``, ``--max-chars`` and ``--max-lines`` (the defaults go unsaid)."""
    if not (sink.interrupted or sink.timed_out):
        return ()
    own, default = sink.limits, Limits()
    words: list[str] = []
    if filters.grep is not None and own.max_matches != default.max_matches:
        words += ["--max-matches", str(own.max_matches)]
    if own.max_chars != default.max_chars:
        words += ["--max-chars", str(own.max_chars)]
    if own.max_lines is not None and own.max_lines != default.max_lines:
        words += ["--max-lines", str(own.max_lines)]
    return tuple(words)


def _line_resume(sink: Sink, filters: Filters) -> Suggestion | None:
    stop = sink.stop_line or 1
    start = filters.lines.first if filters.lines else 1
    last = filters.lines.last if filters.lines else OPEN_END
    more_time: tuple[str, ...] = ()
    before = False  # stopped (timeout or Ctrl-C) before the first line asked for
    if stop <= start and sink.lines == 0:
        if not (sink.timed_out or sink.interrupted):
            sink.warnings.append(f"line {stop:,} alone is longer than --max-chars: raise --max-chars, or use --grep")
            return None  # a line window cannot make progress
        # the same range again, with the time to get there after a timeout (after Ctrl-C, as it was)
        stop, more_time, before = start, _more_time(sink), True
    words: list[str] = ["extract", FILE]
    if filters.grep is not None:
        words += [*_grep_words(filters), "--lines", f"{stop}-" if last == OPEN_END else f"{stop}-{last}"]
    elif before and filters.lines is not None:
        words += ["--lines", span_text(filters.lines)]
    else:
        width = max(sink.lines, 1)
        words += ["--lines", f"{stop}-{min(stop + width - 1, last)}"]
    return (*words, *more_time)


def _more_time(sink: Sink) -> tuple[str, ...]:
    """``--timeout 2T`` (at least 1 s) after a timeout; after Ctrl-C the same command is how to go on."""
    seconds = sink.deadline.seconds
    return ("--timeout", f"{max(seconds * 2, 1):g}") if sink.timed_out and seconds is not None else ()


def _grep_words(filters: Filters) -> list[str]:
    words = ["--grep", filters.grep or ""] + (["-i"] if filters.ignore_case else [])
    return words + (["--context", str(filters.context)] if filters.context else [])


def _as_extract(resume: Suggestion, filters: Filters, *, member: bool) -> Suggestion | None:
    """`pages`/`sheets` name neither a member nor a grep: say the same with `extract --member`/`--grep`.
    None: a step that names no part (`sheets F`, the sheet list), which a member cannot have."""
    command, rest = resume[0], list(resume[2:])
    sheet = _sheet_named(rest) if command == "sheets" else None
    if command == "sheets" and sheet is None:
        return None if member else resume
    words = ["extract", FILE, *(["--member", filters.member or ""] if member else [])]
    if command == "pages" and rest:
        words += ["--pages", rest.pop(0)]
    elif sheet is not None:  # `--sheet=-neg`: a name that starts with `-` is not read as an option
        words += [f"--sheet={sheet}"] if sheet.startswith("-") else ["--sheet", sheet]
    if command != "extract" and filters.grep is not None:  # the engine's own line resume has its grep
        words += _grep_words(filters)
    return tuple(words + rest)


def _sheet_named(rest: list[str]) -> str | None:
    """The sheet a ``sheets F NAME OPTIONS`` (or ``sheets F OPTIONS -- NAME``) step names, taken out of
    ``rest``; None for the sheet list."""
    if "--" in rest:
        at = rest.index("--")
        named = rest[at + 1:at + 2]
        del rest[at:at + 2]
        return named[0] if named else None
    return rest.pop(0) if rest and not rest[0].startswith("-") else None


def _window_clamped(sink: Sink, filters: Filters, *, cut: bool) -> list[str]:
    """``--lines 90-200`` of a 150-line text read to its end: said, as ``pages`` says a clamped range."""
    window = filters.lines
    if window is None or filters.head or window.last == OPEN_END or cut or sink.line_no >= window.last:
        return []
    total = sink.line_no
    read = f"read {window.first:,}-{total:,}" if total >= window.first else "no lines there"
    return [f"asked lines {span_text(window)} but the text has {total:,}: {read}"]


def _done_lines(sink: Sink, filters: Filters) -> str:
    if filters.grep is not None:
        return f"{sink.matches:,} matching lines of {sink.line_no:,} read"
    if filters.lines is not None:
        return f"lines {filters.lines.first:,}-{max(sink.line_no, filters.lines.first):,}"
    if sink.stop_line is not None:
        return f"lines 1-{sink.stop_line:,}" + (" (the last one cut)" if sink.truncated else "")
    return ""


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]
