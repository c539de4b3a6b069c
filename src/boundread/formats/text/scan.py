"""Plain text at the speed of the disk: ``--lines`` and ``--grep`` over big binary blocks.

The Sink still decides every line it is shown (the window, the grep, the context, every bound); this module only
decides which lines it must be shown. Lines before the window and lines that cannot match are counted with
C-speed byte operations (a newline count per block; a literal found with ``bytes.find``) and never decoded, so
the Python work is per match, not per line. A line the byte search flags is decoded and matched by the Sink's
own pattern, so the bytes only ever narrow the search: the output is the generic path's, byte for byte.

Only for encodings where a newline is one ``\\n`` byte that no other character contains and a character decodes
on its own (UTF-8, ASCII, Latin-1, the cp125x, ISO 8859, KOI8 and DOS code pages); others take the generic path.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator

from boundread.contract import sink as sinkmod
from boundread.contract.sink import Sink
from boundread.formats._rg.records import codec as codec  # tail.py and handler.py ask it here
from boundread.formats.text import needles
from boundread.formats.text.needles import Buffer, Finder

TYPE_CHECKING = False  # typing for mypy only, as in _rg/records.py
if TYPE_CHECKING:
    from typing import IO

    from boundread.contract.model import Source

BLOCK = 4 << 20  # bytes read at a time (tests shrink it to hit the block edges)
_BOM = codecs.BOM_UTF8
#: Multi-byte code pages whose bytes 0x0A and 0x0D only ever stand for LF and CR (never half of a character), so
#: a line can be found from the end; their other bytes can, so a literal found as bytes may straddle two
#: characters and they take the generic path forwards.
NEWLINE_SAFE = frozenset({"cp932", "shift_jis", "euc_jp", "gbk", "gb18030", "gb2312", "big5", "cp950", "cp949",
                          "euc_kr"})


def scan(src: Source, sink: Sink, encoding: str, *, start: int | None = None) -> None:
    """Feed ``sink`` (a window and/or a grep) the lines of ``src`` that can change its output; count the rest.
    ``start``: the offset of a line to begin at by this path (rgengine goes on from there), the lines before it
    counted; None: the whole file, by rg where it can."""
    dec = codec(encoding)
    assert dec is not None and sink.filtering
    if sink.grep is not None and start is None:
        from boundread.formats.text import rgengine

        if rgengine.scan(src, sink, encoding, dec, lambda offset: scan(src, sink, encoding, start=offset)):
            return
    find = needles.finder(sink.grep, dec) if sink.grep is not None else None
    with src.open() as raw:
        sink.progress.start(src.size, "bytes")
        if start:  # a line start inside the file (0: the file's start, its BOM dropped as usual)
            raw.seek(start)
        elif raw.read(3) != _BOM or codecs.lookup(encoding).name != "utf-8-sig":
            raw.seek(0)
        for buf, start, end in _blocks(raw, BLOCK, 4 * sinkmod.MAX_LINE + 4):
            sink.progress.done = raw.tell()
            if sink.deadline.expired:
                sink.expire()
                return
            _block(sink, buf, start, end, find, dec)
            if sink.full:
                return


def _blocks(raw: IO[bytes], size: int, cap: int) -> Iterator[tuple[Buffer, int, int]]:
    """``(buf, start, end)``: ``buf[start:end]`` holds whole lines, each ending in ``\\n`` (``\\r\\n`` and a lone
    ``\\r`` already turned into ``\\n``, as universal newlines do; the last line gets one). A line longer than
    ``cap`` bytes keeps its first ``cap`` (enough for MAX_LINE characters); the rest is skipped unread."""
    carry, pending_cr, overlong = b"", b"", False
    buf = bytearray(size)  # read into one buffer, again and again: no fresh pages for every block
    readinto: Callable[[bytearray], int] = raw.readinto  # type: ignore[attr-defined]  # files and BytesIO have it
    while True:
        got = readinto(buf)
        if not got:
            break
        data: Buffer = buf if got == size else bytes(buf[:got])
        if pending_cr or b"\r" in data:
            data = pending_cr + data
            pending_cr = b""
            if data.endswith(b"\r"):  # its \n may open the next read
                data, pending_cr = data[:-1], b"\r"
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        first = data.find(b"\n")
        if first < 0:  # the carried line goes on
            if not overlong:
                carry += data
                if len(carry) > cap:
                    carry, overlong = carry[:cap], True
            continue
        start = 0
        if carry or overlong:
            head = carry + data[: first + 1] if not overlong else carry + b"\n"
            if not overlong and len(head) > cap + 1:
                head = head[:cap] + b"\n"
            carry, overlong, start = b"", False, first + 1
            yield head, 0, len(head)
        last = data.rfind(b"\n") + 1
        if last > start:
            yield data, start, last
        carry = bytes(data[last:])
        if len(carry) > cap:
            carry, overlong = carry[:cap], True
    if carry or overlong or pending_cr:  # the last line, without a newline (or ended by a lone \r)
        last_line = carry + b"\n"
        yield last_line, 0, len(last_line)


def _block(sink: Sink, buf: Buffer, pos: int, end: int, find: Finder | None, dec: str) -> None:
    window = sink.window
    while pos < end and not sink.full:
        if window is not None and sink.line_no + 1 < window.first:  # before the window: count, do not read
            stop, count = _after_lines(buf, pos, end, window.first - 1 - sink.line_no)
            _skip(sink, buf, pos, stop, dec, keep=0, count=count)
            pos = stop
        elif find is None or sink.needs_each_line or (window is not None and sink.line_no >= window.last):
            pos = _one(sink, buf, pos, dec)
        else:
            limit = end if window is None else _after_lines(buf, pos, end, window.last - sink.line_no)[0]
            hit = find(buf, pos, limit)
            line = limit if hit < 0 else buf.rfind(b"\n", pos, hit) + 1 or pos
            _skip(sink, buf, pos, line, dec, keep=sink.context)
            pos = line if hit < 0 else _one(sink, buf, line, dec)


def _one(sink: Sink, buf: Buffer, pos: int, dec: str) -> int:
    """Hand the line at ``pos`` to the sink; where the next line starts."""
    eol = buf.find(b"\n", pos)
    sink.feed_line(buf[pos:eol].decode(dec, "replace"))
    return eol + 1


def newlines(buf: Buffer, start: int, end: int) -> int:
    """Newlines in ``buf[start:end]``. ``bytes.replace`` deletes a byte with memchr, ~3x the speed of count."""
    if end - start < 1 << 16:
        return buf.count(b"\n", start, end)
    if start + len(buf) - end < (end - start) >> 4:  # nearly all of it: the whole buffer, less its small edges
        whole = len(buf) - len(buf.replace(b"\n", b""))
        return whole - buf.count(b"\n", 0, start) - buf.count(b"\n", end)
    part = buf[start:end]  # a copy (memcpy) and a replace still beat count
    return len(part) - len(part.replace(b"\n", b""))


def _after_lines(buf: Buffer, pos: int, end: int, n: int) -> tuple[int, int | None]:
    """Where the line after the next ``n`` lines from ``pos`` starts (``end`` when fewer are left), and how
    many lines that skips when it was worth counting them."""
    if n >= end - pos:  # every line holds at least its newline
        return end, None
    total = newlines(buf, pos, end)
    if total <= n:
        return end, total
    step, skipped = 1 << 16, n
    while pos < end:
        stop = min(pos + step, end)
        here = buf.count(b"\n", pos, stop)
        if here >= n:
            for _ in range(n):
                pos = buf.find(b"\n", pos, stop) + 1
            return pos, skipped
        n -= here
        pos = stop
    return end, total  # not reached: total > n


def _skip(sink: Sink, buf: Buffer, start: int, end: int, dec: str, *, keep: int, count: int | None = None) -> None:
    """Count the lines in ``buf[start:end]`` past the sink, noting the over-long ones and keeping the last
    ``keep`` for context."""
    if start >= end:
        return
    _long_lines(sink, buf, start, end, dec)
    count = newlines(buf, start, end) if count is None else count
    last: list[str] = []
    if keep and sink.grep is not None:
        stop = end
        for _ in range(min(keep, count)):
            begin = buf.rfind(b"\n", start, stop - 1) + 1 or start
            last.append(buf[begin: stop - 1].decode(dec, "replace")[: sinkmod.MAX_LINE])
            stop = begin
        last.reverse()
    sink.skip_lines(count, last)


def _long_lines(sink: Sink, buf: Buffer, start: int, end: int, dec: str) -> None:
    """Warn, as the sink would, about each line in ``buf[start:end]`` longer than MAX_LINE characters."""
    cap = sinkmod.MAX_LINE
    pos = start
    while end - pos > cap + 1:
        near = buf.rfind(b"\n", pos, pos + cap + 1)
        if near >= 0:
            pos = near + 1
            continue
        eol = buf.find(b"\n", pos, end)
        if len(buf[pos:eol].decode(dec, "replace")) > cap:
            sink.long_line(sink.line_no + buf.count(b"\n", start, pos) + 1)
        pos = eol + 1


# --- the byte search: a superset of the lines the str pattern matches ---------------------------------------
