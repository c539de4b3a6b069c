"""rg's ``LINE:OFFSET:text`` records (``-n -b``) handed to a Sink: the lines between two records counted, not
read; an over-long line cut to what the Sink keeps; a CRLF's CR and a BOM dropped as the decoder would."""

from __future__ import annotations

import codecs
from collections.abc import Callable

from boundread.contract import sink as sinkmod
from boundread.contract.sink import Sink

TYPE_CHECKING = False  # no typing at run time: 6 ms of every grep's start-up
if TYPE_CHECKING:
    from typing import IO, Protocol

_BOM = b"\xef\xbb\xbf"
#: Where a newline is one ``\n`` byte that no other character contains and a character decodes on its own: a line
#: can be found as bytes and decoded alone (UTF-8, ASCII, Latin-1, the cp125x, ISO 8859, KOI8 and DOS code pages).
_FAST = frozenset({"utf-8", "utf-8-sig", "ascii", *(f"iso8859-{n}" for n in range(1, 17)),
                   *(f"cp125{n}" for n in range(9)), "koi8-r", "koi8-u", "cp866", "cp437", "cp850", "mac-cyrillic",
                   "mac-greek", "mac-roman"})


def codec(encoding: str) -> str | None:
    """The codec a line found as bytes is decoded with, or None when ``encoding`` needs the generic path."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    if name not in _FAST:
        return None
    return "utf-8" if name == "utf-8-sig" else name


if TYPE_CHECKING:
    class Guard(Protocol):
        """Says whether rg's line numbers still hold up to a byte (text/lonecr.py: no lone CR before it)."""

        def clear_before(self, end: int) -> bool: ...

        def note(self, number: int, offset: int) -> None: ...


class Fed:
    """What ``feed`` did: ``fed``, any line handed to the sink; ``end_line``, the number of the line at ``end()``
    (a stream's sentinel, one past its text), when it came."""

    __slots__ = ("end_line", "fed")

    def __init__(self, fed: bool, end_line: int | None = None) -> None:
        self.fed = fed
        self.end_line = end_line


def feed(out: IO[bytes], sink: Sink, dec: str, bom: bool, guard: Guard | None = None,
         end: Callable[[], int] | None = None) -> Fed:
    """Hand rg's records to the sink until it is full, rg is done, (``guard``) a record's line numbers would not be
    ours, or (``end``) a record starts where the text ends: the sentinel line a stream closes with, whose number
    says how many lines came before it (any record of the text starts before the bytes written so far). A line
    longer than the cap keeps its first ``cap`` bytes (enough for MAX_LINE characters: the sink cuts there). No
    record holds a lone CR: the guard stops before one, and a stream has its newlines translated before rg sees
    them."""
    fed, cap = False, 4 * sinkmod.MAX_LINE + 64
    while not sink.full:
        record = out.readline(cap)
        if not record:
            break
        whole = record.endswith(b"\n")
        while not whole:  # the rest of an over-long line: not kept
            rest = out.readline(cap)
            whole = not rest or rest.endswith(b"\n")
        number, offset, text = parse(record)
        if number is None:
            continue  # the "--" between groups
        if end is not None and offset >= end():
            return Fed(fed, number)
        if guard is not None and not guard.clear_before(offset + 1):
            break  # a lone CR up to this line: rg's numbers end there (the caller goes on by the Python path)
        gap = number - 1 - sink.line_no
        if gap > 0 and sink.needs_each_line:  # a max-matches stop waits for the line after its context
            sink.feed_line("")
            gap -= 1
            if sink.full:
                break
        if gap > 0:
            sink.skip_lines(gap)
        if bom and number == 1 and text.startswith(_BOM):
            text = text[len(_BOM):]
        if text.endswith(b"\n"):
            text = text[:-2] if text.endswith(b"\r\n") else text[:-1]  # the CR of a CRLF too
        elif text.endswith(b"\r"):
            text = text[:-1]
        sink.feed_line(text.decode(dec, "replace"))
        sink.progress.done = offset
        if guard is not None:
            guard.note(number, offset)
        fed = True
    return Fed(fed)


def parse(record: bytes) -> tuple[int | None, int, bytes]:
    """One record of ``rg -n -b``: ``(line number, byte offset, text)`` of ``N:OFF:text`` (a match) or
    ``N-OFF-text`` (context)."""
    at = 0
    while at < len(record) and 0x30 <= record[at] <= 0x39:
        at += 1
    if at == 0 or at >= len(record):
        return None, 0, b""
    sep = record[at:at + 1]
    off_end = record.index(sep, at + 1)
    return int(record[:at]), int(record[at + 1:off_end]), record[off_end + 1:]
