"""``--tail N``: the last N lines, found by reading backwards from the end of the file, so time and memory follow
N, not the file. UTF-16/32 (where a newline is not one byte) count the lines forwards instead."""

from __future__ import annotations

import codecs
import io
import re
from typing import IO

from boundread.contract.model import FILE, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.formats.text import scan
from boundread.formats.text.needles import Buffer

CHUNK_CHARS = 64 * 1024


def tail(src: Source, req: Request, sink: Sink, encoding: str) -> Outcome:
    """The last ``req.tail`` lines, found by reading backwards from the end: time and memory follow N, not the
    file. Line numbers would need a count of the whole file, so the summary says "the last N lines"."""
    wanted = req.tail or 0
    outcome = Outcome(unit="lines", totals={"bytes": src.size})
    backwards = scan.codec(encoding) is not None or codecs.lookup(encoding).name in scan.NEWLINE_SAFE
    with src.open() as raw:
        if backwards:
            start, total = _tail_start(raw, src.size, wanted)
            skip = 0
        else:  # UTF-16/32: a newline is not one byte; count the lines forwards, then read the last ones
            start, total = 0, _stream(raw, encoding, None)
            skip = max(total - wanted, 0)
            raw.seek(0)
        name = "utf-8" if start > 0 and codecs.lookup(encoding).name == "utf-8-sig" else encoding
        raw.seek(start)
        sink.progress.start(src.size - start, "bytes")
        _stream(raw, encoding if start == 0 else name, sink, skip)
    lines = wanted if total is None else min(total, wanted)
    outcome.done = (f"the last {lines:,} lines (from byte {start:,} of {src.size:,})" if total is None else
                    f"lines {total - lines + 1:,}-{total:,} of {total:,}" if total > wanted else
                    f"all {total:,} lines")
    written = sink.line_no
    if sink.full and not (sink.timed_out or sink.interrupted) and written < lines:
        if written == 0:
            sink.warnings.append("the first of these lines alone is longer than --max-chars: raise --max-chars")
        else:
            outcome.resume = ("extract", FILE, "--tail", str(lines - written))
    return outcome


def _stream(raw: IO[bytes], encoding: str, sink: Sink | None, skip: int = 0) -> int:
    """Decode ``raw`` from where it stands: into ``sink`` after ``skip`` lines, or (no sink) count its lines."""
    reader = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline=None)
    lines, ended = 0, True
    try:
        while chunk := reader.read(CHUNK_CHARS):
            if sink is None:
                lines += chunk.count("\n")
                ended = chunk.endswith("\n")
                continue
            if skip:
                cut = -1
                while skip and (cut := chunk.find("\n", cut + 1)) >= 0:
                    skip -= 1
                chunk = chunk[cut + 1:] if not skip else ""
            sink.progress.done = raw.tell()
            if chunk and not sink.write(chunk):
                break
    finally:
        reader.detach()
    return lines + (0 if ended else 1)


def _tail_start(raw: IO[bytes], size: int, wanted: int) -> tuple[int, int | None]:
    """Where the last ``wanted`` lines start, and the number of lines when the file has no more than that."""
    found = 0  # line starts after offset 0, counted back from the end
    end, after = size, b""  # after: the byte just after the block being read (a \r before a \n is no break)
    step = min(1 << 16, scan.BLOCK)
    while end > 0:
        begin = max(0, end - step)
        raw.seek(begin)
        block = raw.read(end - begin)
        need = wanted - found
        start, here = _nth_start(block, begin, size, after, need)
        if start is not None:
            return start, None
        found += here
        after, end, step = block[:1], begin, min(step * 2, scan.BLOCK)
    return 0, found + (1 if size else 0)


def _nth_start(block: Buffer, begin: int, size: int, after: bytes, need: int) -> tuple[int | None, int]:
    """The file offset of the ``need``-th line start counted back from the end of ``block`` (an offset just
    after a line break, not the file's end), or None and how many line starts the block holds."""
    if b"\r" in block:
        starts = [begin + m.end() for m in re.finditer(rb"\r\n|\r|\n", block)
                  if not (m.group() == b"\r" and m.end() == len(block) and after == b"\n")]
        starts = [offset for offset in starts if offset < size]
        return (starts[-need], len(starts)) if len(starts) >= need else (None, len(starts))
    stop = len(block) - 1 if begin + len(block) == size else len(block)  # a newline ending the file starts nothing
    here = scan.newlines(block, 0, stop)
    if here < need:
        return None, here
    pos = stop
    for _ in range(need):
        pos = block.rfind(b"\n", 0, pos)
    return begin + pos + 1, here
