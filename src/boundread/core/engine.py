"""The engine: detect the kind, pick the handler, apply the limits, write the output atomically.

Every public entry point of the library and every CLI command goes through here, so the
bounds, the time limit, the mislabel notes and the ``next`` commands are the same everywhere. Its parts:
:mod:`~boundread.core.filters` (the line filters and what a read selects), :mod:`~boundread.core.alarm` (the
time limit, damage as one error) and :mod:`~boundread.core.resume` (the summary's words and ``next``).
"""

from __future__ import annotations

from boundread import formats
from boundread.bytelevel.sniff import TEXT, kind_from_name, symlink_target
from boundread.contract import kinds as families
from boundread.contract.model import FILE, Details, ExtractResult, InfoResult, Outcome, Request
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.core import fit, resume
from boundread.core.alarm import Expired as Expired
from boundread.core.alarm import guarded as guarded
from boundread.core.detect import detect, member
from boundread.core.filters import Filters as Filters
from boundread.core.filters import check_tail, compile_grep
from boundread.core.filters import selection as selection
from boundread.core.resume import command_line as command_line
from boundread.errors import BoundreadError, Corrupt, Encrypted, Refused, Unsupported, UsageError
from boundread.limits import Deadline, est_tokens
from boundread.record import replace

TYPE_CHECKING = False  # not typing's: typing, contextlib and pathlib are ~10 ms of a one-line info's start-up
if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable
    from pathlib import Path

    from boundread.contract.model import Listing, Source
    from boundread.contract.stream import Writer


def open_source(path: str | Path) -> Source:
    src = source_for_path(path)
    assert src.file is not None
    return replace(src, sniffed=detect(src.file, src.sniffed))


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
        target = replace(target, sniffed=member(filters.member or "", target.sniffed))  # data.csv, an attached .msg
    if kinds is not None and target.kind not in kinds:
        from shlex import quote

        from boundread.core import advice

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
    check_tail(req, filters)
    kind = kind or target.kind
    fit.check(req, kind, target.name, container=src.kind if target is not src else None)
    handler = formats.handler_for(kind)
    pattern = compile_grep(filters)
    sink = Sink(req.limits, deadline, window=filters.lines, grep=pattern, context=filters.context, stream=stream)
    try:
        if watch is None:
            outcome: Outcome = guarded(target, deadline, lambda: handler.extract(target, req, sink))
        else:
            with watch(sink):
                outcome = guarded(target, deadline, lambda: handler.extract(target, req, sink))
    except Expired:
        sink.expire()
        outcome = Outcome()
    except KeyboardInterrupt:  # Ctrl-C: keep what was read, marked truncated ("interrupted"), as a timeout does
        sink.interrupt()
        outcome = Outcome()
    sink.close()
    text = sink.text()
    written: str | None = None
    if req.tail is not None and not outcome.done:  # stopped by the alarm or Ctrl-C before the tail said what it read
        outcome.done = f"the last {req.tail:,} lines, cut short"
    done = outcome.done or resume.done_lines(sink, filters)
    warnings += resume.window_clamped(sink, filters, cut=bool(outcome.truncated or sink.reasons))
    cut = bool(outcome.truncated or sink.reasons)
    if not to_stdout:  # named now that the read said what it holds (the pages the file has, those it reached)
        held = selection(req, filters).held(outcome.totals, done, cut=cut)
        from boundread.core import naming, output, paths  # here: an info writes no file

        dest = paths.pure(output_path) if output_path else naming.default_path(src.name, held)
        written = output.write_atomic(dest, text, never=src.file, named=output_path is not None)
    steps = resume.continuations(outcome, sink, filters, src, target, req)
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
