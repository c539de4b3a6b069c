"""A web page's sections, found in its raw bytes by C regular expressions, never by converting the page.

A section starts at each ``<h1>``-``<h3>`` the reader shows (not one inside a script, a style, a comment or
the chrome ``html.Converter`` drops: nav, aside, forms, a header or footer outside an article...); the text
before the first heading
is section 1 when it holds any. A section longer than ``CUT`` bytes of markup is cut into parts at the next
block tag (``<p>``, ``<div>``, ``<li>``, ``<tr>``...), else at the next line break, so a page without headings
is read in parts of about 64 kB of markup too, and one part's text fits one default read (100,000 characters).
Each section is its byte range: ``pages page.html 40-42`` converts those bytes alone.

``walk`` yields them in order as it finds them (memory: one read block and the open dropped elements, whatever the
page holds), so a read stops it after its last section. A section's title is read again from the file when asked
for (``title``, ``label``). Encodings where ``<`` is not the byte 0x3C (UTF-16, UTF-32) have one section.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from boundread import record as rec
from boundread.limits import Deadline

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import IO

CUT = 64 * 1024  # bytes of markup of a section before it is cut into parts
BLOCK = 1 << 20  # bytes read at a time
_MARGIN = 4096  # bytes a token may need past where it starts (an end tag); a heading's text, read for a title
_DROPPED = (b"nav", b"header", b"footer", b"aside", b"form", b"iframe", b"object", b"template", b"noscript", b"svg",
            b"button", b"select")
_CONTENT = (b"article", b"main", b"section")  # html.CONTENT: a header or footer inside one is shown
# over the markup lowercased a block at a time: without re.I, sre finds them twice as fast (17 MB: 0.55 s, 1.06 s)
_TOKEN = re.compile(rb"<(?:!--|(/?)(h[1-3]|script|style|" + b"|".join(_DROPPED + _CONTENT) + rb")(?=[\s/>]))")
_BLOCK = re.compile(rb"<(?:p|div|li|tr|table|ul|ol|section|article|blockquote|dl|dt|dd|figure|br|hr)(?=[\s/>])")
_ENDS = {b"script": re.compile(rb"</\s*script\s*>"), b"style": re.compile(rb"</\s*style\s*>")}
_TAGS = re.compile(rb"<[^>]*>")
TOP = "(top of the page)"


class Section(rec.Record, frozen=True):
    number: int
    start: int  # byte offsets of its markup
    end: int
    level: int  # its heading's, 1-3; 0 for the top of the page
    head: int  # where its heading's start tag is (the part a long section was cut into names it too); -1: none
    part: int = 1  # 2, 3...: a part a long section was cut into
    content: int = 0  # article/main/section elements open where it starts (its converter starts inside them)


def title(fh: IO[bytes], section: Section, encoding: str) -> str:
    """The section's heading text (read again from the file: a walk keeps no titles), or TOP."""
    if section.head < 0:
        return TOP
    fh.seek(section.head)
    data = fh.read(_MARGIN)
    start = data.find(b">") + 1
    end = re.search(rb"</h%d\s*>|<h[1-6][\s/>]" % section.level, data[start:], re.I)
    inner = data[start:start + end.start() if end else start + 400]
    text = html.unescape(_TAGS.sub(b" ", inner).decode(encoding, "replace"))
    words = " ".join(text.split())
    return (words[:77] + "...") if len(words) > 80 else words or "(untitled)"


def label(fh: IO[bytes], section: Section, encoding: str) -> str:
    """``## Install (part 2)``, as info lists it."""
    name = title(fh, section, encoding)
    name = f"{'#' * section.level} {name}" if section.level else name
    return name if section.part == 1 else f"{name} (part {section.part})"


def ascii_safe(encoding: str) -> bool:
    """Whether markup in ``encoding`` has its ``<`` and tag names as ASCII bytes (not UTF-16 or UTF-32)."""
    try:
        return "<h2 >".encode(encoding) == b"<h2 >"
    except (LookupError, UnicodeError):
        return False


class _Scan:
    """The scanner's state between read blocks."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.stack: list[bytes] = []  # open dropped elements, innermost last
        self.until: re.Pattern[bytes] | bytes | None = None  # the end of a comment or script being skipped
        self.start = 0  # the open section's first byte
        self.level = 0
        self.head = -1
        self.part = 1
        self.number = 0
        self.content = 0  # open article/main/section elements, where the scan is
        self.opened = 0  # ... where the open section starts


def walk(fh: IO[bytes], size: int, encoding: str, deadline: Deadline | None = None) -> Iterator[Section]:
    """The page's sections in order. ``fh`` is read from its start; ``deadline`` stops the walk (the last
    section then runs to the end of the file)."""
    if not ascii_safe(encoding) or size == 0:
        yield Section(1, 0, size, 0, -1)
        return
    st = _Scan(encoding)
    fh.seek(0)
    data, base = b"", 0  # ``data`` holds the file from offset ``base``
    while True:
        block = fh.read(BLOCK)
        data += block.lower()  # ASCII letters only: the offsets stay the file's
        last = not block
        if deadline is not None and deadline.expired:
            break
        pos, wait = 0, False
        while not wait:
            pos, boundary, wait = _boundary(st, data, base, pos, last)
            if boundary is not None:
                yield from _close(st, boundary, fh)
        if last:
            break
        data, base = data[pos:], base + pos
    st.number += 1
    yield Section(st.number, st.start, size, st.level, st.head, st.part, st.opened)


def _close(st: _Scan, boundary: tuple[int, int, int, int], fh: IO[bytes]) -> Iterator[Section]:
    at, level, head, part = boundary
    if at > st.start and (st.number or st.part > 1 or _shows_text(fh, st.start, at, st.encoding)):
        st.number += 1
        yield Section(st.number, st.start, at, st.level, st.head, st.part, st.opened)
    st.start, st.level, st.head, st.part, st.opened = at, level, head, part, st.content


def _shows_text(fh: IO[bytes], start: int, end: int, encoding: str) -> bool:
    """Whether the top of the page (before its first heading) holds text the reader shows."""
    if end - start > CUT:
        return True
    from boundread.formats.web.html import Converter

    here = fh.tell()
    fh.seek(start)
    conv = Converter()
    conv.feed(fh.read(end - start).decode(encoding, "replace"))
    fh.seek(here)
    return any(piece.strip() for piece in conv.finish())


def _boundary(st: _Scan, data: bytes, base: int, pos: int,
              last: bool) -> tuple[int, tuple[int, int, int, int] | None, bool]:
    """From ``pos``: where to go on, a new section's (offset, level, heading offset, part) if one starts there, and
    whether the rest of ``data`` waits for the next block (nothing before the go-on point matters any more)."""
    if st.until is not None:  # inside a comment, script or style
        found = data.find(st.until, pos) if isinstance(st.until, bytes) else st.until.search(data, pos)
        if found is None or found == -1:
            return max(pos, len(data) - 64), None, True
        st.until = None
        return (found + 3 if isinstance(found, int) else found.end()), None, False
    m = _TOKEN.search(data, pos)
    limit = len(data) if last else max(pos, len(data) - _MARGIN)
    stop = m.start() if m is not None and m.start() < limit else limit
    if not st.stack and base + stop - st.start > CUT:  # a long section: a part starts at a block tag
        split = _split(st, data, base, pos, stop)
        if split is not None:
            return split[0] - base, split, False
    if m is None or m.start() >= limit:
        return limit, None, True
    slash, name = m.group(1), m.group(2) or b""
    if not name:  # <!--
        st.until = b"-->"
    elif name in _ENDS:
        st.until = None if slash else _ENDS[name]
    elif slash:
        if st.stack and st.stack[-1] == name:
            st.stack.pop()
        elif not st.stack and name in _CONTENT:
            st.content = max(0, st.content - 1)
    elif name in _CONTENT:
        st.content += not st.stack
    elif name in _DROPPED:
        if st.stack or not (st.content and name in (b"header", b"footer")):
            st.stack.append(name)
    elif not st.stack:  # a heading the reader shows (one in the chrome is dropped with it)
        return m.end(), (base + m.start(), int(name[1:]), base + m.start(), 1), False
    return m.end(), None, False


def _split(st: _Scan, data: bytes, base: int, pos: int, stop: int) -> tuple[int, int, int, int] | None:
    start = max(pos, st.start + CUT - base)
    found = _BLOCK.search(data, start, stop)
    if found is None and base + stop - st.start > 2 * CUT:  # no block tag: a line break will do
        line = data.find(b"\n", start, stop)
        at = line + 1 if line >= 0 else -1
    else:
        at = found.start() if found is not None else -1
    if at < 0 or base + at <= st.start:
        return None
    return base + at, st.level, st.head, st.part + 1

