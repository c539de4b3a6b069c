"""The splitter: pieces of text in, chunks of at most ``budget`` characters out, each cut at the best boundary.

A piece is what a feeder (:mod:`boundread.chunks.feed`) makes of the text a format handler writes: a page
marker, a page's text, a sheet row, a paragraph, a run of whole lines. Each says how good a place to cut
*before* it is (:data:`UNIT` > :data:`HEADING` > :data:`PARAGRAPH` > :data:`LINE`; :data:`NEVER` inside a
line). The splitter holds at most one chunk of pieces, so memory is bounded by the budget, not the file.

Where to cut when a chunk is full: before the latest unit (page, slide, sheet, member) if the chunk holds
one; else at the best boundary in the chunk's second half (a heading before a paragraph before a line); else
at the latest boundary; else (one line longer than the budget) at the budget itself. A chunk that continues a
unit starts with the unit's header again (its marker line, and a sheet's header row), then ``overlap`` lines
or paragraphs of the chunk before; both are counted in ``repeated`` so that the chunks' own text, put end to
end, is the extraction exactly once.
"""

from __future__ import annotations

from collections.abc import Callable

from boundread.chunks.pieces import HEADING, LINE, NEVER, PARAGRAPH, UNIT, Cut, Origin, Piece, Unit
from boundread.chunks.spans import span

__all__ = ["HEADING", "LINE", "NEVER", "PARAGRAPH", "UNIT", "Cut", "Origin", "Piece", "Splitter", "Unit"]


class Splitter:
    def __init__(self, budget: int, emit: Callable[[Cut], None], *, overlap: int = 0,
                 overlap_by: str = "lines", limit: int | None = None, max_lines: int | None = None) -> None:
        """``emit`` receives each chunk; ``limit`` is the last index written (``--max-chunks``); ``max_lines``
        bounds a chunk's lines too (an agent's Read stops at 2,000)."""
        self.budget = budget
        self.max_lines = max_lines
        self.emit = emit
        self.overlap = overlap
        self.overlap_by = overlap_by  # lines | pieces (paragraphs, rows)
        self.limit = limit
        self.index = 0
        self.full = False  # the last chunk allowed is written
        self.stopped = False  # ... and text remains
        self.resume_at: Origin | None = None  # where the text that remains starts in the file, when known
        self.warnings: list[str] = []
        self._pieces: list[Piece] = []
        self._size = 0  # characters of the open chunk, its repeat included
        self._newlines = 0  # ... and its newlines
        self._repeat = ""
        self._opened = False
        self._tail = ""  # the overlap the next chunk repeats
        self._lines = 0  # newlines of the extraction before the open chunk's own text
        self._units_seen = False

    def add(self, piece: Piece) -> bool:
        """Take one piece; False once the last chunk allowed is written and text remains."""
        if not piece.text:
            return not self.stopped
        if self.full:
            if not self.stopped:
                self.resume_at = _line_start(piece)
            self.stopped = True  # text remains after the last chunk allowed
            return False
        if piece.unit is not None:
            self._units_seen = True
            if piece.header:
                piece.unit.headers.append(piece)
        if not self._opened:
            self._open(piece)
        self._take(piece)
        while self._over() and not self.stopped:
            self._cut()
        return not self.stopped

    def _take(self, piece: Piece) -> None:
        self._pieces.append(piece)
        self._size += len(piece.text)
        self._newlines += piece.newlines()

    def _over(self) -> bool:
        if self._size > self.budget:
            return True
        most = self.max_lines
        return most is not None and (self._newlines > most or
                                     (self._newlines == most and not self._pieces[-1].text.endswith("\n")))

    def _room(self) -> int:
        """Where the open chunk must end at the latest: the budget, or after its ``max_lines``-th line."""
        most = self.max_lines
        if most is None or self._newlines < most:
            return self.budget
        seen, pos = 0, 0
        for text, count in ((self._repeat, self._repeat.count("\n")), *((p.text, p.newlines()) for p in self._pieces)):
            if seen + count >= most:
                at = -1
                for _ in range(most - seen):
                    at = text.find("\n", at + 1)
                return min(self.budget, pos + at + 1)
            seen, pos = seen + count, pos + len(text)
        return self.budget

    def resume(self, index: int, lines: int, tail: str) -> None:
        """Start after chunk ``index`` of an earlier run: its lines so far and the overlap it left."""
        self.index, self._lines, self._tail = index, lines, tail

    def state(self) -> tuple[int, int, str]:
        return self.index, self._lines, self._tail

    def next_origin(self) -> Origin | None:
        """Where the chunk after the last one written starts in the file (plain text read by offset), if known."""
        if self.stopped:
            return self.resume_at
        return _line_start(self._pieces[0]) if self._pieces else None

    def finish(self) -> None:
        if self._pieces and not self.full:
            self._flush(self._pieces, [])

    # ---- cutting -------------------------------------------------------------------------------

    def _open(self, first: Piece) -> None:
        """Start a chunk with what it repeats: the unit's header when it continues one, then the overlap."""
        self._opened = True
        header = ""
        unit = first.unit
        if unit is not None and first.level < UNIT and not first.header:
            header = "".join(p.text for p in unit.headers)
            if len(header) > self.budget // 2:
                self._warn(f"the header of {unit.label} {unit.name or unit.number} is longer than half a chunk: "
                           "not repeated")
                header = ""
        if self.max_lines is not None and header.count("\n") > self.max_lines // 2:
            header = ""
        tail = self._tail
        room = self.budget // 2 - len(header)
        if self.max_lines is not None:
            lines = self.max_lines // 2 - header.count("\n")
            while tail and tail.count("\n") > lines:
                tail = tail[tail.find("\n") + 1:]
        if len(tail) > room:
            cut = tail.find("\n", len(tail) - room) + 1 if room > 0 else 0
            tail = tail[cut:] if 0 < cut < len(tail) else ""
        if tail != self._tail:
            self._warn("--overlap is more than half a chunk: cut to fit")
        self._repeat = header + tail
        self._size = len(self._repeat)
        self._newlines = self._repeat.count("\n")

    def _cut(self) -> None:
        pieces, start = self._pieces, len(self._repeat)
        room = self._room()
        bounds: list[tuple[int, int, int, int]] = []  # (position, level, piece index, offset in it)
        pos = start
        straddle = -1
        for i, piece in enumerate(pieces):
            if i and pos > start and piece.level > NEVER:
                bounds.append((pos, piece.level, i, 0))
            if pos + len(piece.text) > room:
                straddle = i
                break
            pos += len(piece.text)
        piece = pieces[straddle]
        inner = room - pos
        units = [b for b in bounds if b[1] == UNIT]
        if not units and (piece.splittable or not bounds):
            para = piece.text.rfind("\n\n", 0, max(inner - 1, 0)) if piece.paragraphs else -1
            line = piece.text.rfind("\n", 0, inner)
            for found, offset, level in ((para, para + 2, PARAGRAPH), (line, line + 1, LINE)):
                if found >= 0 and pos + offset > start and offset < len(piece.text):
                    bounds.append((pos + offset, level, straddle, offset))
        if units:
            best = units[-1]
        elif bounds:
            half = start + (room - start) // 2
            late = [b for b in bounds if b[0] >= half] or bounds
            best = max(late, key=lambda b: (b[1], b[0])) if late is not bounds else max(bounds, key=lambda b: b[0])
        else:
            best = (room, NEVER, straddle, inner)
            self._warn("a line longer than a chunk was cut inside it")
        _, level, i, offset = best
        if offset == 0:
            done, rest = pieces[:i], pieces[i:]
        else:
            whole = pieces[i]
            head = Piece(whole.text[:offset], whole.level, whole.unit, whole.header, whole.row, whole.splittable)
            tail = Piece(whole.text[offset:], level, whole.unit, False, whole.row, whole.splittable,
                         whole.origin.after(head.text) if whole.origin is not None else None, whole.paragraphs,
                         whole.newlines() - head.newlines())
            done, rest = [*pieces[:i], head], [tail, *pieces[i + 1:]]
        self._flush(done, rest)

    def _flush(self, done: list[Piece], rest: list[Piece]) -> None:
        body = "".join(p.text for p in done)
        newlines = sum(p.newlines() for p in done)
        first = self._lines + 1
        last = self._lines + newlines + (0 if body.endswith("\n") else 1)
        continues = bool(rest) and rest[0].level < UNIT and rest[0].unit is not None and rest[0].unit is done[-1].unit
        if continues and done[-1].unit is not None:
            done[-1].unit.cuts += 1
        self.index += 1
        cut = Cut(self.index, self._repeat + body, len(self._repeat), first, last,
                  span(done, first, last, continues, rest[0] if rest else None, self._units_seen))
        self._lines += newlines
        self._tail = self._overlap(done)
        self._pieces, self._opened, self._size, self._newlines = [], False, 0, 0
        self.emit(cut)
        if self.limit is not None and self.index >= self.limit:
            self.full = True
            self.stopped = bool(rest)
            if rest:
                self.resume_at = _line_start(rest[0])
            return
        for piece in rest:
            if not self._opened:
                self._open(piece)
            self._take(piece)

    def _overlap(self, done: list[Piece]) -> str:
        if not self.overlap:
            return ""
        taken: list[str] = []
        count = 0
        for piece in reversed(done):
            if piece.header or piece.level == UNIT:
                break
            taken.append(piece.text)
            count += 1 if self.overlap_by == "pieces" else piece.text.count("\n")
            if count >= self.overlap + (self.overlap_by == "lines"):
                break
        text = "".join(reversed(taken))
        if self.overlap_by == "lines":
            ends = len(text) - 1 if text.endswith("\n") else len(text)
            at = ends
            for _ in range(self.overlap):
                at = text.rfind("\n", 0, at)
                if at < 0:
                    break
            text = text[at + 1:]
        return text if text.endswith("\n") else ""

    def _warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)


def _line_start(piece: Piece) -> Origin | None:
    """Where ``piece`` starts in the file, when it starts a line of plain text read by offset."""
    origin = piece.origin
    return origin if origin is not None and origin.at_line and piece.level > NEVER else None
