"""Where a read stopped and how it goes on: the summary's words for the lines it covered, and ``next``, the
commands that continue it (the rest of the range, the parts it cut or never reached) as the user would type them."""

from __future__ import annotations

from boundread.contract.model import FILE
from boundread.limits import Limits

TYPE_CHECKING = False  # not typing's (start-up)
if TYPE_CHECKING:
    from boundread.contract.model import Outcome, Request, Source, Suggestion
    from boundread.contract.sink import Sink
    from boundread.core.filters import Filters


def command_line(suggestion: Suggestion, name: str) -> str:
    """``("pages", FILE, "6-10")`` -> ``boundread pages 'my file.pdf' 6-10`` (``./-x.pdf`` for a name that
    starts with ``-``, so the command does not take it for an option)."""
    operand = "./" + name if name.startswith("-") else name
    from shlex import quote

    words = [operand if word == FILE else word for word in suggestion]
    return "boundread " + " ".join(quote(word) for word in words)


def continuations(outcome: Outcome, sink: Sink, filters: Filters, src: Source, target: Source,
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
    from boundread.ranges import OPEN_END, span_text  # here: a read that stopped short (start-up of the rest)

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


def window_clamped(sink: Sink, filters: Filters, *, cut: bool) -> list[str]:
    """``--lines 90-200`` of a 150-line text read to its end: said, as ``pages`` says a clamped range."""
    window = filters.lines
    if window is None or filters.head or cut:
        return []
    from boundread.ranges import OPEN_END, span_text

    if window.last == OPEN_END or sink.line_no >= window.last:
        return []
    total = sink.line_no
    read = f"read {window.first:,}-{total:,}" if total >= window.first else "no lines there"
    return [f"asked lines {span_text(window)} but the text has {total:,}: {read}"]


def done_lines(sink: Sink, filters: Filters) -> str:
    if filters.grep is not None:
        matching = f"{sink.matches:,} matching line{'' if sink.matches == 1 else 's'}"
        return f"{matching} of {sink.line_no:,} read" if sink.lines_counted else f"{matching}, read to the end"
    if filters.lines is not None:
        return f"lines {filters.lines.first:,}-{max(sink.line_no, filters.lines.first):,}"
    if sink.stop_line is not None:
        return f"lines 1-{sink.stop_line:,}" + (" (the last one cut)" if sink.truncated else "")
    return ""
