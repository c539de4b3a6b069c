"""An incremental JSON tokeniser over byte blocks: bounded memory whatever the file, no recursion.

The file is read in 1 MiB blocks; the buffer holds about two blocks. A string is read in pieces and only its
first ``cap`` bytes are kept, so a 200 MB string costs no more memory than a short one. ``skip_value`` jumps
over a whole object or array with one regular expression run in C that steps over strings and scalars and
stops only at brackets; the depth is an integer, so a million ``[`` is a count, not a stack.
"""

from __future__ import annotations

import json
import re
from typing import IO

from boundread.errors import Corrupt
from boundread.limits import Deadline

BLOCK = 1 << 20
MAX_SCALAR = 4096  # a number longer than this is not a number a reader wants: corrupt

_WS = re.compile(rb"[ \t\r\n]*+")
_SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|true|false|null")
_STR_BODY = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.S)
# everything that is not a bracket, with whole strings stepped over: one C-level run between two brackets
_DEEP = re.compile(rb'[^"\[\]{}]*+(?:"[^"\\]*+(?:\\.[^"\\]*+)*+"[^"\[\]{}]*+)*+', re.S)  # unrolled: 2x faster

OPEN = frozenset(b"{[")
PUNCT = frozenset(b"{}[],:")


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
        m = _SCALAR.match(self.buf, self.pos)
        if m is None:
            shown = self.buf[self.pos:self.pos + 1]
            raise self._corrupt(f"unexpected {shown!r}")
        while m.end() == len(self.buf) and not self.eof:  # a number cut by the block: read on
            if m.end() - self.pos > MAX_SCALAR:
                raise self._corrupt(f"a number longer than {MAX_SCALAR:,} characters")
            self._fill()
            m = _SCALAR.match(self.buf, self.pos)
            assert m is not None
        raw = m.group()
        if len(raw) > MAX_SCALAR:
            raise self._corrupt(f"a number longer than {MAX_SCALAR:,} characters")
        self.pos = m.end()
        value: object = json.loads(raw)
        return value

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
        depth = deepest = 0
        while True:
            self.pos = _DEEP.match(self.buf, self.pos).end()  # type: ignore[union-attr]
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
                    self.max_depth = max(self.max_depth, deepest)
                    return deepest
