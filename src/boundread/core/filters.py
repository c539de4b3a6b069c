"""The generic line filters of ``extract`` (a window, a grep and its context, a member), checked and compiled,
and what a read selects in the words of its output file's name."""

from __future__ import annotations

import re

from boundread.errors import UsageError
from boundread.record import Record

TYPE_CHECKING = False  # not typing's: the engine loads this module on every read's start-up
if TYPE_CHECKING:
    from boundread.contract.model import Request, Span
    from boundread.core.naming import Selection


class Filters(Record, frozen=True):
    """The generic line filters of ``extract``: a window, a grep, its context and a member."""

    lines: Span | None = None
    grep: str | None = None
    ignore_case: bool = False
    context: int = 0
    member: str | None = None
    head: bool = False  # the window is ``--head N``: the first N lines, however many the text has (no warning)


def selection(req: Request, filters: Filters) -> Selection:
    """What a read selects, as its output file's name says it (:mod:`boundread.core.naming`, loaded here: an
    info names no file)."""
    from boundread.core.naming import Selection

    return Selection(pages=req.pages, layout=req.layout, sheets=req.sheets, rows=req.rows, fmt=req.fmt,
                     tail=req.tail, grep=filters.grep, lines=filters.lines, member=filters.member, query=req.sql,
                     path=req.path)


def check_tail(req: Request, filters: Filters) -> None:
    if req.tail is None:
        return
    if req.tail < 1:
        raise UsageError(f"--tail {req.tail}: no lines to show", "give a count of 1 or more, e.g. --tail 100")
    clash = [flag for flag, value in (("--lines", filters.lines), ("--grep", filters.grep)) if value is not None]
    if clash:
        raise UsageError(f"--tail does not combine with {' or '.join(clash)}",
                         "use --tail N alone for the end of the file, or --lines A-B / --grep PATTERN without --tail")


def compile_grep(filters: Filters) -> re.Pattern[str] | None:
    if filters.grep is None:
        return None
    try:
        return re.compile(filters.grep, re.IGNORECASE if filters.ignore_case else 0)
    except re.error as exc:
        raise UsageError(f"bad --grep pattern {filters.grep!r} ({exc})", "use a Python regular expression") from None
