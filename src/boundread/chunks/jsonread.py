"""A JSON file cut between elements: each chunk of a big ``.json`` holds whole elements of its outermost arrays
(unless one alone is longer than a chunk), its span names them as a path (``.items[0:1200]``), and the text is
``extract F --path .``'s exactly (pretty-printed, indent 2), so the chunks put end to end are that extraction.

The top value, and the objects inside it down to OBJECT_DEPTH, are walked key by key unless their JSON is
shorter than an eighth of a chunk. An array met there (no array above it) is a unit whose elements are its
rows; any other value there is a unit named by its path, and so is a walked object's pair of brackets. A cut
before a top-level key is the best place (HEADING), then before an element or a nested key (PARAGRAPH), then a
line inside one (LINE). An element of at most FAST bytes is parsed and printed in C (``json.loads`` and a
compact ``dumps``, indented by :func:`indented`: the text ``jsonout.pretty`` gives); a larger one, or one whose
text ``json`` would change (duplicate keys, NaN, bad UTF-8, too deep), is printed token by token by the
handler's printer (re-read from its offset when it did not fit the buffer), and a string in it longer than
STRING_CAP is cut there, and said. Values one after another (a JSON text sequence) follow the first, each a unit
named ``value N``, as ``extract --path .`` reads them. Memory: the scanner's buffer, FAST bytes, one chunk.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable

from boundread.chunks.feed import ChunkSink
from boundread.chunks.split import HEADING, LINE, NEVER, PARAGRAPH, Piece, Unit
from boundread.contract.model import Outcome, Source
from boundread.errors import Corrupt
from boundread.formats._jsonscan import SCALAR, OutOfTime, Scanner, Str, scalar_value
from boundread.formats.structured import jsonout
from boundread.formats.structured.jsonshape import key_path
from boundread.units import human_bytes

FAST = 1 << 20  # bytes of an element parsed and printed in one C call
PIECE = 1 << 14  # characters of a piece at most: the splitter copies the piece a chunk ends in
STRING_CAP = 1 << 20  # characters of one string kept by the token printer
OBJECT_DEPTH = 3  # objects walked key by key: the top one and two levels inside it
SMALL = 8  # ... unless their JSON is shorter than an eighth of a chunk: then they are one value, as arrays are
INDENT = jsonout.INDENT
_CUT = '…" [string of '  # how jsonout.pretty goes on after the part of a string it kept
#: A number or literal, then its comma: an array element ``scalars`` writes without the scanner
_RUN = re.compile(rb"[ \t\r\n]*+(" + SCALAR.pattern + rb")[ \t\r\n]*+,")


class _Full(Exception):
    """The splitter wrote its last chunk allowed."""


class _Changed(Exception):
    """``json`` would print this value differently from the handler's printer."""


def read(src: Source, sink: ChunkSink, member: str | None = None) -> Outcome:
    """Feed the pretty-printed document to the splitter in pieces that name their element; ``member``: the
    document is that archive member, whose marker the sink writes first (its paths are named after it, and
    the archive's progress goes on)."""
    out = Outcome(unit="values", totals={"bytes": src.size})
    with src.open() as fh:
        sc = Scanner(fh, sink.deadline)
        walk = _Walk(src, sc, _Out(sink), "" if member is None else f"member '{member}' ")
        if member is None:
            sink.progress.start(src.size, "bytes")
        try:
            walk.top(HEADING if member is None else NEVER)  # a member's cut goes before its marker
        except _Full:
            pass
        except OutOfTime:
            sink.expire()
    if walk.out.cut_strings:
        out.warnings.append(f"{walk.out.cut_strings:,} strings longer than {human_bytes(STRING_CAP)}: the chunks "
                            "hold their start - read one whole with `boundread extract F --path P --max-chars N`")
        out.truncated.append(f"{walk.out.cut_strings:,} long strings cut")
    if walk.count > 1:
        out.warnings.append(f"{walk.count:,} JSON values one after another, not one document: chunked in turn, "
                            "the second on named 'value N'")
    if walk.trailing is not None:
        at, why = walk.trailing
        out.warnings.append(f"not JSON after value {walk.count - 1:,}, at byte {at:,} ({why}): read the rest with "
                            "`boundread extract F --lines A-B` or `--grep`")
        out.truncated.append("data that is not JSON after the values not read")
    if walk.bad_utf8 is not None:
        out.warnings.append(f"invalid UTF-8 in a string near byte {walk.bad_utf8:,}: shown as U+FFFD")
    return out


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a duplicate key: json keeps the last, the printer every one
        raise _Changed
    return obj


def _constant(name: str) -> object:
    raise _Changed  # NaN, Infinity: not JSON, the scanner says where


class _Out:
    """Pieces for the splitter. ``begin`` opens a piece a cut may go before (at ``level``); a piece longer than
    PIECE characters goes on in the next one, cut at a line break (LINE) where it has one (else NEVER)."""

    def __init__(self, sink: ChunkSink) -> None:
        self.sink = sink
        self.parts: list[str] = []
        self.size = 0
        self.level = LINE
        self.unit: Unit | None = None
        self.row: int | None = None
        self.cut_strings = 0

    def begin(self, level: int, unit: Unit | None, row: int | None = None) -> None:
        self.flush()
        self.level, self.unit, self.row = level, unit, row

    def write(self, text: str) -> bool:
        if text.startswith(_CUT):
            self.cut_strings += 1
        self.parts.append(text)
        self.size += len(text)
        if self.size >= PIECE:
            self.flush()
        return True

    def flush(self) -> None:
        if not self.parts:
            return
        text = "".join(self.parts) if len(self.parts) > 1 else self.parts[0]
        self.parts, self.size = [], 0
        pos, end = 0, len(text)
        while pos < end:
            stop = min(pos + PIECE, end)
            if stop < end and (line := text.rfind("\n", pos, stop)) >= pos:
                stop = line + 1
            self._put(text[pos:stop] if pos or stop < end else text)
            pos = stop

    def piece(self, level: int, unit: Unit, row: int, text: str) -> None:
        """One whole short piece (shorter than PIECE, ending in a line break), put as ``begin`` and ``write`` would."""
        self.flush()
        self.level, self.unit, self.row = level, unit, row
        self._put(text)

    def _put(self, text: str) -> None:
        piece = Piece(text, self.level, self.unit, row=self.row, paragraphs=False)
        self.level = LINE if text.endswith("\n") else NEVER
        if not self.sink.write_piece(piece):
            raise _Full


class _Walk:
    def __init__(self, src: Source, sc: Scanner, out: _Out, named: str) -> None:
        self.src, self.sc, self.out = src, sc, out
        self.named = named  # before each unit's path: the archive member it is in
        self.units = 0
        self.bad_utf8: int | None = None
        self.count = 1  # top-level values (more than one: a JSON text sequence)
        self.trailing: tuple[int, str] | None = None  # where what is not JSON starts after them, and why
        self.small = out.sink.splitter.budget // SMALL  # a container of at most this many bytes is one value

    def top(self, level: int) -> None:
        if self.sc.peek() is None:
            raise Corrupt("empty JSON file: nothing to read", "check the file")
        self.value("", ".", 0, level)  # a path, not a continuation
        self.out.write("\n")
        while not self.sc.at_end():  # values one after another, as extract --path . reads them: each a unit
            self.count += 1
            at = self.sc.offset
            self.out.begin(HEADING, self._unit("value", f"value {self.count}"))
            try:
                self.whole(0)
            except Corrupt as exc:
                self.trailing = (at, exc.what)
                break
            self.out.write("\n")
        self.out.flush()
        if self.sc.bad_utf8 is not None and self.bad_utf8 is None:
            self.bad_utf8 = self.sc.bad_utf8

    def value(self, prefix: str, path: str, depth: int, level: int) -> None:
        """The value at the cursor, at a line start: ``prefix`` is its indent and key (``  "items": ``)."""
        c = self.sc.peek()
        walked = (c == 0x7B and depth < OBJECT_DEPTH) or (c == 0x5B and depth <= OBJECT_DEPTH)
        if walked and (depth == 0 or not self._fits(self.small)):
            (self.object if c == 0x7B else self.array)(prefix, path, depth, level)
        else:
            self.out.begin(level, self._unit("value", path))
            self.out.write(prefix)
            self.whole(depth)

    def object(self, prefix: str, path: str, depth: int, level: int) -> None:
        """A walked object: each key's value walked in turn, a cut before each key."""
        inner = INDENT * (depth + 1)

        def pair(_unit: Unit, _index: int) -> None:
            sc = self.sc
            if sc.peek() != 0x22:
                raise sc._corrupt("expected a key")
            key = sc.string(STRING_CAP + 64)
            sc.expect(b":")
            self.value(f"{inner}{jsonout.scalar(key)}: ", key_path(path, key.text), depth + 1,
                       HEADING if depth == 0 else PARAGRAPH)

        self._brackets("object", "{}", prefix, path, depth, level, pair)

    def array(self, prefix: str, path: str, depth: int, level: int) -> None:
        """An outermost array: a unit, its elements the rows."""
        inner = INDENT * (depth + 1)

        def element(unit: Unit, index: int) -> None:
            self.out.begin(PARAGRAPH, unit, index)
            self.out.write(inner)
            self.whole(depth + 1)
            if not self.named:  # a member's bytes are not the archive's
                self.out.sink.progress.done = self.sc.offset

        def scalars(unit: Unit, index: int) -> int:
            """The numbers and literals from the cursor that a comma follows, each its own piece as ``element``
            writes it, at one regular expression match each (an array of a million numbers took 22 us an element
            through the scanner); the index of the element left to ``element``."""
            sc, out = self.sc, self.out
            buf, pos = sc.buf, sc.pos
            while (m := _RUN.match(buf, pos)) is not None:
                out.piece(PARAGRAPH, unit, index, f"{inner}{jsonout.scalar(scalar_value(m.group(1)))},\n")
                pos = m.end()
                index += 1
            if pos != sc.pos:
                sc.pos = pos
                if not self.named:
                    out.sink.progress.done = sc.offset
            return index

        self._brackets("array", "[]", prefix, path, depth, level, element, scalars)

    def _brackets(self, label: str, marks: str, prefix: str, path: str, depth: int, level: int,
                  each: Callable[[Unit, int], None], run: Callable[[Unit, int], int] | None = None) -> None:
        """An object or an array (``marks``: its two brackets) as a unit: ``each(unit, index)`` writes one member
        from the cursor, the commas and brackets are written here; ``run(unit, index)``, before each, may write a
        run of members with their commas and say the index it stopped at."""
        sc, out = self.sc, self.out
        unit = self._unit(label, path)
        out.begin(level, unit)
        sc.expect(marks[0].encode())
        if sc.peek() == ord(marks[1]):
            sc.pos += 1
            out.write(prefix + marks)
            return
        out.write(prefix + marks[0] + "\n")
        index = 0
        while True:
            if run is not None:
                index = run(unit, index)
            each(unit, index)
            end = sc.token()
            if end == marks[1]:
                break
            if end != ",":
                raise sc._corrupt(f"expected ',' or '{marks[1]}'")
            out.write(",\n")
            index += 1
        out.write("\n")
        out.begin(NEVER, unit)
        out.write(INDENT * depth + marks[1])

    def _fits(self, limit: int) -> bool:
        """The value at the cursor is at most ``limit`` bytes (read ahead into the buffer, not consumed)."""
        sc = self.sc
        while len(sc.buf) - sc.pos <= limit and sc._fill():
            pass
        try:
            Scanner(io.BytesIO(sc.buf[sc.pos:sc.pos + limit])).skip_value()
        except Corrupt:  # it goes on past the limit
            return False
        return True

    def _unit(self, label: str, path: str) -> Unit:
        self.units += 1
        return Unit(label, self.units, self.named + path)

    def whole(self, depth: int) -> None:
        """The value at the cursor as ``jsonout.pretty`` prints it at ``depth``: in C when it is a container of
        at most FAST bytes that ``json`` prints the same, else token by token."""
        sc = self.sc
        c = sc.peek()
        if c not in (0x7B, 0x5B):  # a scalar: written as jsonout.pretty writes it, without its set-up per value
            token = sc.string(STRING_CAP + 64) if c == 0x22 else sc.token()
            if isinstance(token, str):
                raise sc._corrupt(f"unexpected {token!r}")
            if isinstance(token, Str) and not token.whole:
                self.out.write(jsonout.scalar(token)[:-1])
                self.out.write(f"{_CUT}{token.size:,} bytes cut]")
            else:
                self.out.write(jsonout.scalar(token))
            return
        while len(sc.buf) - sc.pos < FAST and sc._fill():  # an element that fits is then wholly in the buffer
            pass
        base, start = sc.base, sc.pos
        sc.skip_value(depth)
        offset = base + start
        if sc.base != base:  # longer than the buffer held: read it again from its offset, token by token
            with self.src.open() as fh:
                fh.seek(offset)
                self._pretty(_at(Scanner(fh, sc.deadline), offset), depth)
            return
        raw = sc.buf[start:sc.pos]
        if len(raw) > FAST:  # in the buffer, but its strings may be longer than STRING_CAP
            self._pretty(_at(Scanner(io.BytesIO(raw), sc.deadline), offset), depth)
            return
        try:
            value = json.loads(raw.decode("utf-8"), object_pairs_hook=_pairs, parse_constant=_constant)
            text = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
        except (_Changed, ValueError, RecursionError):
            self._pretty(_at(Scanner(io.BytesIO(raw), sc.deadline), offset), depth)
            return
        self.out.write(indented(text, depth))

    def _pretty(self, sc: Scanner, depth: int) -> None:
        jsonout.pretty(sc, self.out.write, lambda: STRING_CAP, depth)
        if sc.bad_utf8 is not None and self.bad_utf8 is None:
            self.bad_utf8 = sc.bad_utf8


_TOKENS = re.compile(r'((?:[^"{}\[\],]++|"(?:[^"\\]++|\\.)*+")*+)([{}\[\],]|\Z)', re.S)
_CLOSE = {"{": "}", "[": "]"}


def indented(compact: str, depth: int = 0) -> str:
    """``json.dumps(v, separators=(",", ": "))`` (in C) as ``json.dumps(v, indent=2)`` (in Python, 10x slower)
    writes it, each line after the first indented ``depth`` more: one step per bracket or comma, none per
    string or number (a regular expression in C steps over them)."""
    out: list[str] = []
    pairs = _TOKENS.findall(compact)
    level, i, count = depth, 0, len(pairs)
    while i < count:
        text, mark = pairs[i]
        out.append(text)
        if mark == ",":
            out.append(",\n" + INDENT * level)
        elif mark in _CLOSE:
            if i + 1 < count and pairs[i + 1] == ("", _CLOSE[mark]):
                out.append(mark + _CLOSE[mark])
                i += 1
            else:
                level += 1
                out.append(mark + "\n" + INDENT * level)
        elif mark:
            level -= 1
            out.append("\n" + INDENT * level + mark)
        i += 1
    return "".join(out)


def _at(sc: Scanner, offset: int) -> Scanner:
    """A scanner over bytes that start at ``offset`` of the file: its messages name the file's offsets."""
    sc.base = offset
    return sc
