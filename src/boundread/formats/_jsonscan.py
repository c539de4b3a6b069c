"""An incremental JSON tokeniser over byte blocks: bounded memory whatever the file, no recursion.

A neutral helper (like ``_xml.py``): the JSON family (``structured/``) and notebooks (``web/``) both scan JSON
with it. It began as ``structured/jsonscan.py``.

The file is read in 1 MiB blocks; the buffer holds about two blocks. A string is read in pieces and only its
first ``cap`` bytes are kept, so a 200 MB string costs no more memory than a short one. ``skip_value`` jumps
over a whole object or array with one regular expression run in C that steps over strings and scalars and
stops only at brackets; the depth is an integer, so a million ``[`` is a count, not a stack.
"""

from __future__ import annotations

import json
import re

from boundread.errors import Corrupt
from boundread.limits import Deadline

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import IO

BLOCK = 1 << 20
MAX_SCALAR = 4096  # a number longer than this is not a number a reader wants: corrupt

_WS = re.compile(rb"[ \t\r\n]*+")
SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|true|false|null")
_STR_BODY = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.S)
# Skipping is a few runs of one regular expression in C, not a Python step per bracket: L0 is everything but
# brackets, whole strings stepped over; G1 a group of brackets with none inside; L1 text with such groups in
# it; and so on to G3/L3. A bracket L3 stops at is a real one (an opener of a deeper group, or one the block
# cut, or a closer), so the depth the caller counts stays right. Possessive: no backtracking, linear time.
_S = rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_L0 = rb'[^"\[\]{}]*+(?:' + _S + rb'[^"\[\]{}]*+)*+'
_G1 = rb'[\[{]' + _L0 + rb'[\]}]'
_L1 = _L0 + rb'(?:' + _G1 + _L0 + rb')*+'
_G2 = rb'[\[{]' + _L1 + rb'[\]}]'
_L2 = _L0 + rb'(?:' + _G2 + _L0 + rb')*+'
_G3 = rb'[\[{]' + _L2 + rb'[\]}]'
_L3 = _L0 + rb'(?:' + _G3 + _L0 + rb')*+'
_DEEP = re.compile(_L3, re.S)
_NESTING = tuple(re.compile(p, re.S) for p in (_L0, _L1, _L2))  # fullmatch: the nesting of what _DEEP skipped
#: one array element whose groups nest at most 1, 2 or 3 deep, with its blanks and the , or ] after it; the
#: one that allows no more than the deepest already seen is tried first: the depth is measured only when it grows
_ELEMENTS = tuple(re.compile(rb'[ \t\r\n]*+(' + group + rb'|' + _S + rb'|[^"\[\]{},\s]++)[ \t\r\n]*+[,\]]', re.S)
                  for group in (_G1, _G2, _G3))
GROUP_DEPTH = 3  # the deepest group one run steps over

OPEN = frozenset(b"{[")
PUNCT = frozenset(b"{}[],:")
_CONSTANTS: dict[bytes, object] = {b"true": True, b"false": False, b"null": None}


def scalar_value(raw: bytes) -> object:
    """A scalar SCALAR matched, as ``json.loads`` gives it (int, float, True, False, None) without its set-up per
    call (encoding detection, a decoder): 13 us of a chunked array's 22 us per number went there."""
    if raw in _CONSTANTS:
        return _CONSTANTS[raw]
    if b"." in raw or b"e" in raw or b"E" in raw:
        return float(raw)
    return int(raw)


class OutOfTime(Exception):
    """The deadline passed while reading; the caller reports what it has so far, marked partial."""


class Str:
    """A string token: its first characters and its length in bytes (as written, escapes included)."""

    __slots__ = ("size", "text", "whole")

    def __init__(self, text: str, size: int, whole: bool) -> None:
        self.text, self.size, self.whole = text, size, whole


Token = object  # a punctuation character (a str of one: "{", ","), a Str, or a scalar (None, bool, int, float)


class Scanner:
    def __init__(self, fh: IO[bytes], deadline: Deadline | None = None, *, cap: int = 256) -> None:
        self.fh = fh
        self.deadline = deadline
        self.cap = cap
        self.buf = b""
        self.pos = 0
        self.base = 0  # file offset of buf[0]
        self.eof = False
        self.max_depth = 0  # deepest nesting seen by skip_value (walkers add their own)
        self.bad_utf8: int | None = None  # file offset of the first invalid UTF-8 in a string kept

    @property
    def offset(self) -> int:
        return self.base + self.pos

    def _fill(self) -> bool:
        """Read one more block; False at the end of the file."""
        if self.eof:
            return False
        if self.deadline is not None and self.deadline.expired:
            raise OutOfTime
        block = self.fh.read(BLOCK)
        if not block:
            self.eof = True
            return False
        self.base += self.pos
        self.buf = self.buf[self.pos:] + block
        self.pos = 3 if self.base == 0 and self.buf.startswith(b"\xef\xbb\xbf") else 0  # a UTF-8 BOM
        return True

    def _corrupt(self, what: str) -> Corrupt:
        return Corrupt(f"not valid JSON: {what} at byte {self.offset:,}",
                       "check the file, or read it as text with `boundread extract F --lines 1-50`")

    def peek(self) -> int | None:
        """The next non-blank byte (not consumed), None at the end of the file."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._fill():
                return None

    def at_end(self) -> bool:
        return self.peek() is None

    def token(self) -> Token:
        """The next token: a punctuation character (``str``), a :class:`Str`, or a scalar value."""
        c = self.peek()
        if c is None:
            raise self._corrupt("the file ends where a value was expected")
        if c in PUNCT:
            self.pos += 1
            return chr(c)
        if c == 0x22:
            return self.string(self.cap)
        return self._scalar()

    def expect(self, byte: bytes) -> None:
        if self.peek() != byte[0]:
            raise self._corrupt(f"expected {byte.decode()!r}")
        self.pos += 1

    def _scalar(self) -> object:
        while len(self.buf) - self.pos < 64 and self._fill():
            pass
        m = SCALAR.match(self.buf, self.pos)
        if m is None:
            shown = self.buf[self.pos:self.pos + 1]
            raise self._corrupt(f"unexpected {shown!r}")
        while m.end() == len(self.buf) and not self.eof:  # a number cut by the block: read on
            if m.end() - self.pos > MAX_SCALAR:
                raise self._corrupt(f"a number longer than {MAX_SCALAR:,} characters")
            self._fill()
            m = SCALAR.match(self.buf, self.pos)
            assert m is not None
        raw = m.group()
        if len(raw) > MAX_SCALAR:
            raise self._corrupt(f"a number longer than {MAX_SCALAR:,} characters")
        self.pos = m.end()
        return scalar_value(raw)

    def string(self, cap: int) -> Str:
        """The string at the cursor; keeps at most ``cap`` bytes of it, steps over the rest block by block."""
        self.pos += 1  # the opening quote
        kept: list[bytes] = []
        room = cap
        size = 0
        while True:
            end = _STR_BODY.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            piece = end - self.pos
            if room > 0:
                kept.append(self.buf[self.pos:self.pos + min(piece, room)])
                room -= min(piece, room)
            size += piece
            self.pos = end
            if end < len(self.buf) and self.buf[end] == 0x22:
                self.pos += 1
                return Str(self._decode(b"".join(kept), whole=size <= cap), size, size <= cap)
            if not self._fill():
                raise self._corrupt(f"a string that never closes ({size:,} bytes)")

    def _decode(self, raw: bytes, *, whole: bool) -> str:
        if not whole:
            raw = re.sub(rb"\\(?:u[0-9a-fA-F]{0,3})?$", b"", raw)  # an escape cut in half
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            if whole or err.start < len(raw) - 3:
                self.bad_utf8 = self.bad_utf8 if self.bad_utf8 is not None else self.offset
            text = raw.decode("utf-8", errors="replace")
        if "\\" not in text:
            return text
        try:
            decoded: str = json.loads(f'"{text}"', strict=False)
        except ValueError:
            return text
        return decoded

    def skip_string(self) -> int:
        """Step over the string at the cursor, keeping nothing; its size in bytes."""
        return self.string(0).size

    def skip_value(self, outer: int = 0) -> int:
        """Step over one whole value; returns its depth (0 for a scalar). Brackets are matched, not checked
        for their kind; scalars and commas inside are not validated (they are not read). ``outer``: the
        brackets already open around it, for the message when the file ends inside them."""
        c = self.peek()
        if c is None:
            raise self._corrupt("the file ends where a value was expected")
        if c not in OPEN:
            self.token()
            return 0
        self.pos += 1  # the opener: _DEEP would step over the whole value, brackets and all
        depth = deepest = 1
        while True:
            start = self.pos
            self.pos = _DEEP.match(self.buf, start).end()  # type: ignore[union-attr]
            if self.pos > start and depth + GROUP_DEPTH > deepest:
                deepest = max(deepest, depth + nesting(self.buf, start, self.pos))
            if self.pos >= len(self.buf):
                if not self._fill():
                    raise self._corrupt(f"the file ends inside {outer + depth:,} open brackets")
                continue
            c = self.buf[self.pos]
            if c == 0x22:  # a string the block cut: step over it piece by piece
                self.skip_string()
                continue
            self.pos += 1
            if c in OPEN:
                depth += 1
                deepest = max(deepest, depth)
            else:
                depth -= 1
                if depth == 0:
                    self.max_depth = max(self.max_depth, outer + deepest)
                    return deepest

    def skip_elements(self, limit: int | None, outer: int = 0) -> tuple[int, bool, list[int]]:
        """From the start of an array element, step over ``limit`` elements (None: all) with the comma after
        each, or to the array's ``]`` (consumed). ``outer``: the brackets open around the elements (the array's
        included). Returns (elements stepped over, the array ended, the count of elements by their first byte).
        An element of at most GROUP_DEPTH levels is one regular-expression run; a deeper or longer one goes
        through :meth:`skip_value`. Skipped elements are not validated, only their brackets."""
        count, firsts = 0, [0] * 256
        while limit is None or count < limit:
            if len(self.buf) - self.pos < 1 << 16 and not self.eof:  # keep most elements whole in the buffer
                self._fill()
            buf, start = self.buf, self.pos
            seen = min(max(self.max_depth - outer - 1, 0), GROUP_DEPTH - 1)  # nesting already counted
            m = _ELEMENTS[seen].match(buf, start)
            if m is None and seen < GROUP_DEPTH - 1:
                m = _ELEMENTS[-1].match(buf, start)
                if m is not None and buf[m.start(1)] in OPEN:
                    self.max_depth = max(self.max_depth, outer + 1 + nesting(buf, m.start(1) + 1, m.end(1) - 1))
            elif m is not None and self.max_depth <= outer and buf[m.start(1)] in OPEN:  # seen 0 by the floor
                self.max_depth = outer + 1
            if m is not None:
                firsts[buf[m.start(1)]] += 1
                self.pos = m.end()
                closer = buf[self.pos - 1]
            else:  # deeper than one run steps over, cut by the block, a huge string, or not JSON
                c = self.peek()
                if c is None:
                    raise self._corrupt(f"the file ends inside an array ({count:,} elements on)")
                if c in (0x2C, 0x5D):
                    raise self._corrupt("expected a value")
                firsts[c] += 1
                self.skip_value(outer)
                closer = self.peek() or 0
                if closer not in (0x2C, 0x5D):
                    raise self._corrupt("expected ',' or ']'")
                self.pos += 1
            count += 1
            if closer == 0x5D:
                return count, True, firsts
        return count, False, firsts


def nesting(buf: bytes, start: int, end: int) -> int:
    """How deep the bracket groups in ``buf[start:end]`` go (0-3), for text ``_DEEP`` stepped over."""
    for depth, pattern in enumerate(_NESTING):
        if pattern.fullmatch(buf, start, end):
            return depth
    return GROUP_DEPTH
