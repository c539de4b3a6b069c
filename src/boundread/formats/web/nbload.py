"""A bounded JSON loader over :class:`~boundread.formats._jsonscan.Scanner`: a value as Python
objects, but a string longer than ``cap`` bytes is kept as a :class:`Cut` (its first bytes and its size), and
once ``budget`` bytes are kept the rest of an array is stepped over as a :class:`Skipped` (its elements and
bytes). A 200 MB notebook output costs ``budget`` bytes of memory, not 200 MB; nesting deeper than
``MAX_DEPTH`` is skipped, not recursed into.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundread.errors import Corrupt
from boundread.formats._jsonscan import Scanner, Str

MAX_DEPTH = 24
_OPEN = frozenset(b"{[")


@dataclass(frozen=True)
class Cut:
    """A string kept in part: its first characters, and its size in bytes as written in the file."""

    text: str
    size: int


@dataclass(frozen=True)
class Skipped:
    """Values stepped over unread: how many, and their bytes in the file."""

    count: int
    size: int


def corrupt(sc: Scanner, what: str) -> Corrupt:
    return Corrupt(f"not a valid notebook: {what} at byte {sc.offset:,}",
                   "check the file (is it cut?), or read it as text with `boundread extract F --lines 1-50`")


class Loader:
    def __init__(self, sc: Scanner, cap: int, budget: int) -> None:
        self.sc = sc
        self.cap = cap
        self.room = budget

    def value(self, depth: int = 0) -> object:
        sc = self.sc
        c = sc.peek()
        if c is None:
            raise corrupt(sc, "the file ends where a value was expected")
        if c in _OPEN and (depth >= MAX_DEPTH or self.room <= 0):
            start = sc.offset
            sc.skip_value(depth)
            return Skipped(1, sc.offset - start)
        if c == 0x7B:
            return self._object(depth)
        if c == 0x5B:
            return self._array(depth)
        if c == 0x22:
            got = sc.string(max(0, min(self.cap, self.room)))
            self.room -= len(got.text)
            return got.text if got.whole else Cut(got.text, got.size)
        return sc.token()

    def _object(self, depth: int) -> dict[str, object]:
        sc = self.sc
        sc.expect(b"{")
        out: dict[str, object] = {}
        if sc.peek() == 0x7D:
            sc.expect(b"}")
            return out
        while True:
            key = sc.token()
            if not isinstance(key, Str):
                raise corrupt(sc, "an object key that is not a string")
            sc.expect(b":")
            out[key.text] = self.value(depth + 1)
            tok = sc.token()
            if tok == "}":
                return out
            if tok != ",":
                raise corrupt(sc, "expected ',' or '}'")

    def _array(self, depth: int) -> list[object]:
        sc = self.sc
        sc.expect(b"[")
        out: list[object] = []
        if sc.peek() == 0x5D:
            sc.expect(b"]")
            return out
        while True:
            if self.room <= 0:
                start = sc.offset
                count, _ended, _firsts = sc.skip_elements(None, depth + 1)
                out.append(Skipped(count, sc.offset - start))
                return out
            out.append(self.value(depth + 1))
            tok = sc.token()
            if tok == "]":
                return out
            if tok != ",":
                raise corrupt(sc, "expected ',' or ']'")
