"""Plain text at the speed of the disk: ``--lines`` and ``--grep`` over big binary blocks, ``--tail`` from the end.

The Sink still decides every line it is shown (the window, the grep, the context, every bound); this module only
decides which lines it must be shown. Lines before the window and lines that cannot match are counted with
C-speed byte operations (a newline count per block; a literal found with ``bytes.find``) and never decoded, so
the Python work is per match, not per line. A line the byte search flags is decoded and matched by the Sink's
own pattern, so the bytes only ever narrow the search: the output is the generic path's, byte for byte.

Only for encodings where a newline is one ``\\n`` byte that no other character contains and a character decodes
on its own (UTF-8, ASCII, Latin-1, the cp125x and ISO 8859 code pages); others take the generic path.
"""

from __future__ import annotations

import codecs
import importlib
import io
import re
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from boundread.core import sink as sinkmod
from boundread.core.model import FILE, Outcome, Request, Source
from boundread.core.sink import Sink

BLOCK = 4 << 20  # bytes read at a time (tests shrink it to hit the block edges)
STRETCH = 1 << 18  # bytes searched at a time for several needles or -i (tests shrink it too)
CHUNK_CHARS = 64 * 1024
_BOM = codecs.BOM_UTF8
_FAST = frozenset({"utf-8", "utf-8-sig", "ascii", *(f"iso8859-{n}" for n in range(1, 17)),
                   *(f"cp125{n}" for n in range(9))})
#: Non-ASCII letters that a case-insensitive str pattern matches for these ASCII letters (re's case table).
_FOLDS = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}

Buffer = bytes | bytearray
Finder = Callable[[Buffer, int, int], int]  # (block, start, end) -> offset of a candidate line's byte, or -1


def codec(encoding: str) -> str | None:
    """The codec the fast path decodes lines with, or None when ``encoding`` needs the generic path."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    if name not in _FAST:
        return None
    return "utf-8" if name == "utf-8-sig" else name


def scan(src: Source, sink: Sink, encoding: str) -> None:
    """Feed ``sink`` (a window and/or a grep) the lines of ``src`` that can change its output; count the rest."""
    dec = codec(encoding)
    assert dec is not None and sink.filtering
    find = finder(sink.grep, dec) if sink.grep is not None else None
    with src.open() as raw:
        sink.progress.start(src.size, "bytes")
        if raw.read(3) != _BOM or codecs.lookup(encoding).name != "utf-8-sig":
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


def _count(buf: Buffer, start: int, end: int) -> int:
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
    total = _count(buf, pos, end)
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
    count = _count(buf, start, end) if count is None else count
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

def finder(pattern: re.Pattern[str], dec: str) -> Finder | None:
    """A search over raw bytes that finds every line ``pattern`` matches, and maybe a few more (the sink checks
    each); None when no such search is known, and every line must be shown to the sink."""
    folded = bool(pattern.flags & re.IGNORECASE)
    try:
        parsed = _parser().parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - re compiled it already; an unexpected parser difference just means no search
        return None
    folded = folded or bool(parsed.state.flags & re.IGNORECASE)
    needles = _required(parsed.data, folded)
    if not needles:
        return None
    encoded: list[bytes] = []
    for needle in needles:
        try:
            encoded.append(needle.encode(dec))
        except UnicodeEncodeError:
            return None
    if not folded and len(encoded) == 1:
        return _literal(encoded[0])
    if not folded:
        return _stretches(encoded, None)
    rare = sorted({extra.encode(dec) for needle in needles for ch in needle.lower() for extra in _FOLDS.get(ch, "")
                   if _encodable(extra, dec)})
    exact = re.compile(b"|".join(_folded(needle, dec) for needle in needles))
    # A match can be longer than its needle: K (U+212A) for k is 3 bytes in UTF-8, and İ ı ſ are 2.
    longest = max(sum(max(map(len, _forms(ch, dec))) for ch in needle) for needle in needles)
    return _stretches([needle.lower().encode(dec) for needle in needles], (rare, exact), longest)


def _stretches(needles: list[bytes], folded: tuple[list[bytes], re.Pattern[bytes]] | None,
               longest: int | None = None) -> Finder:
    """Several needles (an alternation), or a needle in any case: each stretch of 256 kB searched with
    ``bytes.find`` per needle, lowered first when the case is folded. A stretch holding one of the non-ASCII
    letters re.IGNORECASE also matches (K for k, ...) is searched with the exact regex instead. Each stretch
    reaches ``longest - 1`` bytes into the next (``longest``: the most bytes a match can take, the longest
    needle when the case is not folded), so a match that begins in it is whole in it."""
    overlap = (max(map(len, needles)) if longest is None else longest) - 1

    def find(buf: Buffer, start: int, end: int) -> int:
        pos, step = start, STRETCH
        while pos < end:
            stop = min(pos + step + overlap, end)
            chunk = buf[pos:stop]
            if folded is not None:
                rare, exact = folded
                if rare and not chunk.isascii() and any(letter in chunk for letter in rare):
                    found = exact.search(buf, pos, stop)
                    if found:
                        return found.start()
                    pos += step
                    continue
                chunk = chunk.lower()
            hits = [at for needle in needles if (at := chunk.find(needle)) >= 0]
            if hits:
                return pos + min(hits)
            pos += step
        return -1

    return find


def _literal(needle: bytes) -> Finder:
    """``bytes.find``, or, when one byte of ``needle`` is rare in the text, a memchr for that byte and a check of
    the needle around each hit (what grep does: "NOSUCHTHING" in a log is 5x faster that way)."""
    rare: list[int] = []  # [index in needle] once chosen; [] = not yet; [-1] = plain find

    def choose(buf: Buffer, start: int, end: int) -> None:
        sample = min(end - start, 1 << 18)
        counts = {buf.count(needle[i:i + 1], start, start + sample): i for i in range(len(needle) - 1, -1, -1)}
        fewest = min(counts)
        rare.append(counts[fewest] if len(needle) > 1 and fewest * 1024 < sample else -1)

    def find(buf: Buffer, start: int, end: int) -> int:
        if not rare:
            choose(buf, start, end)
        at = rare[0]
        if at < 0:
            return buf.find(needle, start, end)
        byte, misses, pos = needle[at:at + 1], 0, start + at
        while (hit := buf.find(byte, pos, end)) >= 0:
            if buf.startswith(needle, hit - at, end):
                return hit - at
            misses += 1
            if misses > 64 + ((end - start) >> 12):  # not rare here after all: plain find from now on
                rare[0] = -1
                return buf.find(needle, hit - at + 1, end)
            pos = hit + 1
        return -1

    return find


def _folded(needle: str, dec: str) -> bytes:
    """``needle`` as a bytes regex matching it in any case, as re.IGNORECASE matches a str."""
    out: list[bytes] = []
    for ch in needle:
        forms = _forms(ch, dec)
        out.append(re.escape(forms[0]) if len(forms) == 1 else b"(?:" + b"|".join(map(re.escape, forms)) + b")")
    return b"".join(out)


def _forms(ch: str, dec: str) -> list[bytes]:
    """The encoded forms re.IGNORECASE matches for the ASCII character ``ch``."""
    if not ch.isalpha():
        return [ch.encode(dec)]
    variants = {ch.lower(), ch.upper(), *_FOLDS.get(ch.lower(), "")}
    return sorted({v.encode(dec) for v in variants if _encodable(v, dec)})


def _encodable(ch: str, dec: str) -> bool:
    try:
        ch.encode(dec)
    except UnicodeEncodeError:
        return False
    return True


def _parser() -> Any:
    return importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")


def _required(items: Any, folded: bool) -> list[str] | None:
    """Literal strings one of which every match of the parsed sequence ``items`` contains, or None."""
    sre = _parser()
    best: list[str] | None = None

    def consider(found: list[str] | None) -> None:
        nonlocal best
        if found and all(found) and (best is None or _score(found) > _score(best)):
            best = found

    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and _plain(chr(av), folded):
            run.append(chr(av))
            continue
        consider(["".join(run)] if run else None)
        run = []
        if op is sre.SUBPATTERN and not av[1] and not av[2]:  # a group that sets no flags of its own
            consider(_required(av[3].data, folded))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1:
            consider(_required(av[2].data, folded))
        elif op is sre.BRANCH:
            alternatives = [_required(branch.data, folded) for branch in av[1]]
            if all(alternatives):
                consider(sorted({needle for found in alternatives if found for needle in found}))
    consider(["".join(run)] if run else None)
    return best


def _plain(ch: str, folded: bool) -> bool:
    """A pattern character the byte search can look for as it is (not the replacement character, which stands
    for any undecodable bytes; only ASCII when the case is folded)."""
    return ch != "\ufffd" and (ch.isascii() or not folded)


def _score(needles: list[str]) -> tuple[int, int]:
    return min(map(len, needles)), -len(needles)


# --- the end of the file: --tail ------------------------------------------------------------------------------

def tail(src: Source, req: Request, sink: Sink, encoding: str) -> Outcome:
    """The last ``req.tail`` lines, found by reading backwards from the end: time and memory follow N, not the
    file. Line numbers would need a count of the whole file, so the summary says "the last N lines"."""
    wanted = req.tail or 0
    outcome = Outcome(unit="lines", totals={"bytes": src.size})
    backwards = codec(encoding) is not None or codecs.lookup(encoding).name == "cp932"
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
    step = min(1 << 16, BLOCK)
    while end > 0:
        begin = max(0, end - step)
        raw.seek(begin)
        block = raw.read(end - begin)
        need = wanted - found
        start, here = _nth_start(block, begin, size, after, need)
        if start is not None:
            return start, None
        found += here
        after, end, step = block[:1], begin, min(step * 2, BLOCK)
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
    here = _count(block, 0, stop)
    if here < need:
        return None, here
    pos = stop
    for _ in range(need):
        pos = block.rfind(b"\n", 0, pos)
    return begin + pos + 1, here
