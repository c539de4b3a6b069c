"""A post-tool payload too big to hold whole: read as it streams, its big strings written to files.

A tool's output arrives inside the PostToolUse/AfterTool payload, and Gemini CLI sends it twice (``llmContent``
and ``returnDisplay``, each up to its 16 MB buffer); an MCP tool's can be any size. Parsing such a payload with
``json.loads`` holds it two or three times over. Here the JSON is read in chunks: the small values (event, cwd,
tool name) are kept, and every string over SPILL_OVER is decoded straight into a file of its own, of which only
the first HEAD bytes stay in memory (a :class:`Spill`). :mod:`boundread.hook.posttool` then answers as for any
payload, copying a spilled output from its file. Memory: the chunk being read, the kept values, one head per
spilled string.

A payload that ends early, breaks off or runs past the deadline still gives what was read: the values so far,
the last string cut where the reading stopped (``partial``), so the hook answers with the bounded replacement
instead of letting the whole output through.

Standard library only; no ``json`` import (guard/jsonio.py says why).
"""

from __future__ import annotations

import codecs
import os
import tempfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

SPILL_OVER = 64 * 1024  # bytes: a longer string value goes to a file
HEAD = 64 * 1024  # bytes of a spilled string kept in memory (for the preview and the binary sniff)
KEEP_MAX = 8 * 1024 * 1024  # bytes of small values kept in all; past it, strings over SMALL spill too
SMALL = 1024
MAX_DEPTH = 64
_SPACE = b" \t\r\n"
_WORDS = {b"true": True, b"false": False, b"null": None}
_QUOTE, _BACKSLASH = ord('"'), ord("\\")
BOM = b"\xef\xbb\xbf"  # a UTF-8 byte order mark


class Spill(str):
    """The start of a string value too big to keep (its first HEAD bytes, decoded); the whole is in ``path``,
    ``size`` bytes of UTF-8."""

    path: str
    size: int

    def __new__(cls, head: str, path: str, size: int) -> Spill:
        made = super().__new__(cls, head)
        made.path, made.size = path, size
        return made


class Truncated(Exception):
    """The payload stopped before its end (EOF, a read error or the deadline): ``payload`` holds what was read."""

    def __init__(self, why: str, payload: dict[str, Any]) -> None:
        super().__init__(why)
        self.payload = payload


class Reader:
    """A JSON object parsed from chunks already read plus a ``more()`` that gives the next ("" at the end)."""

    def __init__(self, chunks: list[bytes], more: Callable[[], bytes], folder: str) -> None:
        self.chunks, self.more, self.folder = chunks, more, folder
        self.buf, self.pos = b"", 0
        self.kept = 0
        self.total = sum(len(chunk) for chunk in chunks)  # bytes read from the input so far
        self.stack: list[Any] = []  # the containers being filled, outermost first (for a partial answer)
        self.spills: list[Spill] = []

    def payload(self) -> dict[str, Any]:
        """The top-level object; :class:`Truncated` with the values so far when the input stops early."""
        try:
            if self._next() != ord("{"):
                raise ValueError("not a JSON object")
            value = self._value(0)
        except (ValueError, OSError, EOFError) as exc:
            raise Truncated(str(exc) or type(exc).__name__, self._linked()) from None
        if not isinstance(value, dict):
            raise Truncated("not a JSON object", {})
        return value

    def _linked(self) -> dict[str, Any]:
        """The top-level object as read so far: each open container put in its parent (they are linked only
        when complete)."""
        for parent, child in zip(self.stack, self.stack[1:], strict=False):
            if isinstance(parent, list):
                parent.append(child)
            elif parent:
                parent[next(reversed(parent))] = child
        top = self.stack[0] if self.stack else {}
        return top if isinstance(top, dict) else {}

    # Reading ---------------------------------------------------------------------------------------------
    def _fill(self) -> bool:
        if self.chunks:
            chunk = self.chunks.pop(0)
        else:
            chunk = self.more()
            self.total += len(chunk)
        if not chunk:
            return False
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def _next(self) -> int:
        """The next byte that is not JSON whitespace (not consumed)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._fill():
                raise EOFError("the payload ends early")

    def _expect(self, byte: int) -> None:
        if self._next() != byte:
            raise ValueError(f"expected {chr(byte)!r} at byte {self.pos}")
        self.pos += 1

    # Values ------------------------------------------------------------------------------------------------
    def _value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("nested too deep")
        first = self._next()
        if first == ord("{"):
            return self._object(depth)
        if first == ord("["):
            return self._array(depth)
        if first == _QUOTE:
            self.pos += 1
            return self._string()
        return self._word()

    def _object(self, depth: int) -> dict[str, Any]:
        self.pos += 1
        out: dict[str, Any] = {}
        self.stack.append(out)
        if self._next() == ord("}"):
            self.pos += 1
            return out
        while True:
            self._expect(_QUOTE)
            key = str(self._string(key=True))
            self._expect(ord(":"))
            out[key] = None  # a partial answer sees the key that was being read
            out[key] = self._value(depth + 1)
            end = self._next()
            self.pos += 1
            if end == ord("}"):
                self.stack.pop()
                return out
            if end != ord(","):
                raise ValueError(f"expected ',' or '}}' at byte {self.pos}")

    def _array(self, depth: int) -> list[Any]:
        self.pos += 1
        out: list[Any] = []
        self.stack.append(out)
        if self._next() == ord("]"):
            self.pos += 1
            return out
        while True:
            out.append(self._value(depth + 1))
            end = self._next()
            self.pos += 1
            if end == ord("]"):
                self.stack.pop()
                return out
            if end != ord(","):
                raise ValueError(f"expected ',' or ']' at byte {self.pos}")

    def _word(self) -> Any:
        """A number, true, false or null: up to the next delimiter."""
        while True:
            end = self.pos
            while end < len(self.buf) and self.buf[end] not in b",}] \t\r\n":
                end += 1
            if end - self.pos > 64:
                raise ValueError("a number or word over 64 bytes")
            if end < len(self.buf) or not self._fill():
                break
        word = bytes(self.buf[self.pos:end])
        self.pos = end
        if word in _WORDS:
            return _WORDS[word]
        try:
            return float(word) if any(ch in word for ch in b".eE") else int(word)
        except ValueError:
            raise ValueError(f"not a JSON value: {word[:20]!r}") from None

    # Strings -----------------------------------------------------------------------------------------------
    def _string(self, key: bool = False) -> str:
        """The string whose opening quote was just read: kept, or spilled to a file past the threshold."""
        sink = _Sink(self.folder, SPILL_OVER if self.kept < KEEP_MAX else SMALL)
        try:
            while True:
                end = self._closing_quote()
                if end >= 0:
                    sink.write(_unescape(self.buf[self.pos:end]))
                    self.pos = end + 1
                    break
                cut = _safe_cut(self.buf, self.pos, len(self.buf))
                sink.write(_unescape(self.buf[self.pos:cut]))
                self.pos = cut
                if not self._fill():
                    raise EOFError("the payload ends inside a string")
        except BaseException:
            spilled = sink.close(partial=True)
            if isinstance(spilled, Spill):
                self.spills.append(spilled)
                if not key:
                    self._place(spilled)
            raise
        value = sink.close()
        if isinstance(value, Spill):
            self.spills.append(value)
        else:
            self.kept += len(value)
        return value

    def _place(self, value: str) -> None:
        """Put a string cut short where it was going (the last key of the innermost object, or a list)."""
        if not self.stack:
            return
        inner = self.stack[-1]
        if isinstance(inner, list):
            inner.append(value)
        elif inner:
            inner[next(reversed(inner))] = value

    def _closing_quote(self) -> int:
        """Where the string from ``pos`` ends in ``buf`` (an unescaped quote), or -1 if not in it yet.

        Each escaped backslash and escaped quote is blanked (two bytes for two, so the offsets hold) and the
        first quote left is the end: all in C. A Python loop over the quotes, or a regular expression, took
        5-6 s for a 40 MB payload with 28 ``\\"`` a line."""
        body = self.buf[self.pos:].replace(b"\\\\", b"__").replace(b'\\"', b"__")
        at = body.find(b'"')
        return self.pos + at if at >= 0 else -1


class _Sink:
    """Decoded bytes of one string: in memory up to ``limit``, then in a file of ``folder``."""

    def __init__(self, folder: str, limit: int) -> None:
        self.folder, self.limit = folder, limit
        self.parts: list[bytes] = []
        self.size = 0
        self.file: Any = None
        self.path = ""
        self.head = b""

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.size += len(data)
        if self.file is not None:
            self.file.write(data)
            return
        self.parts.append(data)
        if self.size > self.limit:
            fd, self.path = tempfile.mkstemp(prefix=".boundread-spill-", suffix=".tmp", dir=self.folder)
            self.file = os.fdopen(fd, "wb")
            joined = b"".join(self.parts)
            self.head, self.parts = joined[:HEAD], []
            self.file.write(joined)

    def close(self, partial: bool = False) -> str:
        if self.file is None:
            return "" if partial else b"".join(self.parts).decode("utf-8", "replace")
        self.file.close()
        return Spill(self.head.decode("utf-8", "ignore"), self.path, self.size)


def _unescape(raw: bytes) -> bytes:
    """The bytes a JSON string body stands for (``raw`` holds whole escapes and whole UTF-8 characters only):
    C-speed ``escape_decode`` for the escapes it shares with JSON; ``json``'s own C ``scanstring`` where there
    is a ``\\u`` or ``\\/`` (by hand, an output of control characters read at 5 MB/s)."""
    if b"\\" not in raw:
        return raw
    if b"\\u" not in raw and b"\\/" not in raw:
        return codecs.escape_decode(raw)[0]
    from _json import scanstring

    value, _ = scanstring(raw.decode("utf-8", "replace") + '"', 0, False)
    return str(value).encode("utf-8", "replace")  # a lone surrogate escape: "?"


def _safe_cut(buf: bytes, start: int, end: int) -> int:
    """A place at or before ``end`` (at most 21 bytes before) where no escape of the string body from
    ``start`` is cut in two, nor a surrogate pair of ``\\uXXXX`` escapes, nor a UTF-8 character."""
    cut = max(start, end - 12)
    for _ in range(3):  # never inside a UTF-8 character: back to its first byte
        if cut <= start or cut >= len(buf) or buf[cut] & 0xC0 != 0x80:
            break
        cut -= 1
    if _escape_at(buf, start, cut - 1):  # a backslash that opens an escape just before the cut
        cut -= 1
    at = buf.find(b"\\u", max(start, cut - 5), cut)
    while at >= 0:
        if _escape_at(buf, start, at):  # a \uXXXX running past the cut
            cut = at
            break
        at = buf.find(b"\\u", at + 1, cut)
    high = cut - 6
    if high >= start and buf[high:high + 2] == b"\\u" and _escape_at(buf, start, high) \
            and buf[high + 2:high + 4].lower() in (b"d8", b"d9", b"da", b"db"):
        cut = high  # the first half of a pair: keep the two together
    return cut


def _escape_at(buf: bytes, start: int, at: int) -> bool:
    """Whether the byte at ``at`` is a backslash that opens an escape (an even run of them before it)."""
    if at < start or buf[at] != _BACKSLASH:
        return False
    run = at
    while run > start and buf[run - 1] == _BACKSLASH:
        run -= 1
    return (at - run) % 2 == 0


def spill_folder() -> str:
    """A private folder for the spilled strings of one payload (removed by :func:`clean`)."""
    return tempfile.mkdtemp(prefix="boundread-payload-")


def clean(folder: str) -> None:
    """Remove ``folder`` and the spilled strings in it."""
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def read(chunks: list[bytes], more: Callable[[], bytes]) -> dict[str, Any] | None:
    """A post-tool payload from the bytes read so far and a ``more()`` for the rest of the input (b"" at its
    end; an OSError or EOFError stops the reading, as a deadline does); None when it is not one.

    The payload comes back with ``posttool.SPILLS`` (the folder of its spilled strings: posttool.run removes
    it) and, when the input stopped before the payload's end, ``posttool.CUT`` (why, and after how many bytes).
    """
    from boundread.hook.posttool import CUT, EVENTS, SPILLS

    if chunks and chunks[0].startswith(BOM):  # Windows tools write one
        chunks = [chunks[0][len(BOM):], *chunks[1:]]
    folder = spill_folder()
    reader = Reader(list(chunks), more, folder)
    try:
        payload = reader.payload()
    except Truncated as exc:
        payload = exc.payload
        payload[CUT] = f"{exc} after {reader.total:,} bytes"
    if payload.get("hook_event_name") not in EVENTS:
        clean(folder)
        return None
    payload[SPILLS] = folder
    return payload
