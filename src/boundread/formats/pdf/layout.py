"""Physical layout for PDF text: glyph boxes placed on a character grid, like ``pdftotext -layout``.

Both engines feed the same grid: PDFium's per-character loose boxes, or pdfminer's ``LTChar``
boxes. A glyph's column is its x position divided by the page's median character width, and
glyphs whose vertical centres lie within half a line height share a line, so a table row stays
on one line with its columns lined up. Text that runs up or down the page (a landscape page stored
rotated, vertical CJK writing) is turned first, so its lines read across: the direction comes
from where each glyph sits relative to the one drawn before it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

#: (text, left, bottom, right, top) in PDF units, y growing upwards
Glyph = tuple[str, float, float, float, float]

MAX_COLUMNS = 2000  # a glyph placed further right than this (hostile coordinates) goes next to the last one
WORD_GAP = 0.3  # a gap wider than this many character widths keeps a space between glyphs
BLANK_GAP = 2.0  # a vertical gap wider than this many line heights keeps one blank line
TIER_GAP = 3.0  # a gap along a line wider than this many character widths parts two tiers (reading_text)


def _median(values: list[float], default: float) -> float:
    values = sorted(v for v in values if v > 0)
    return values[len(values) // 2] if values else default


_AXES = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))  # reading direction: right, up, left, down


def _rtl(text: str) -> bool:
    code = ord(text[0])
    return 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF


def direction(glyphs: list[Glyph]) -> int:
    """The reading direction most glyphs follow, as an index into ``_AXES``."""
    votes = [0, 0, 0, 0]
    for a, b in itertools.pairwise(glyphs):
        dx = (b[1] + b[3] - a[1] - a[3]) / 2
        dy = (b[2] + b[4] - a[2] - a[4]) / 2
        size = max(a[3] - a[1], a[4] - a[2], 0.1)
        if dx * dx + dy * dy > 4 * size * size or (dx == 0 and dy == 0):
            continue  # a jump to another line, or the same spot
        if abs(dx) >= abs(dy):
            votes[2 if dx < 0 and not _rtl(b[0]) else 0] += 1  # right-to-left scripts run left
        else:
            votes[1 if dy > 0 else 3] += 1
    return votes.index(max(votes))


def _turn(glyphs: list[Glyph], axis: int) -> list[Glyph]:
    """Glyph boxes in the frame where the text runs left to right and lines go down the page."""
    if axis == 0:
        return glyphs
    dx, dy = _AXES[axis]
    ux, uy = -dy, dx
    turned: list[Glyph] = []
    for text, x0, y0, x1, y1 in glyphs:
        xs = (x0 * dx + y0 * dy, x1 * dx + y1 * dy)
        ys = (x0 * ux + y0 * uy, x1 * ux + y1 * uy)
        turned.append((text, min(xs), min(ys), max(xs), max(ys)))
    return turned


def _lines(glyphs: list[Glyph], height: float) -> list[tuple[float, list[Glyph]]]:
    """Group glyphs into lines by vertical centre, top line first."""
    ordered = sorted(glyphs, key=lambda g: -(g[2] + g[4]))
    lines: list[tuple[float, list[Glyph]]] = []
    centre = 0.0
    current: list[Glyph] = []
    for glyph in ordered:
        middle = (glyph[2] + glyph[4]) / 2
        if current and abs(centre - middle) <= height / 2:
            current.append(glyph)
            centre += (middle - centre) / len(current)
            continue
        if current:
            lines.append((centre, current))
        current, centre = [glyph], middle
    if current:
        lines.append((centre, current))
    return lines


def _place(line: list[Glyph], left: float, width: float) -> str:
    out: list[str] = []
    cursor = 0
    prev_right: float | None = None
    for text, x0, _y0, x1, _y1 in sorted(line, key=lambda g: g[1]):
        column = round((x0 - left) / width)
        if prev_right is not None:  # glyphs of one word touch; keep a space between words
            column = cursor if x0 - prev_right <= WORD_GAP * width else max(column, cursor + 1)
        if column > MAX_COLUMNS:
            column = cursor + 1
        column = max(column, cursor)
        out.append(" " * (column - cursor))
        out.append(text)
        cursor = column + len(text)
        prev_right = x1
    return "".join(out).rstrip()


def _unique(glyphs: Iterable[Glyph]) -> list[Glyph]:
    """The glyphs that draw something, less blanks and glyphs drawn twice on one spot (fake bold, repeated forms)."""
    seen: set[tuple[str, int, int]] = set()
    chars: list[Glyph] = []
    for glyph in glyphs:
        key = (glyph[0], round(glyph[1]), round(glyph[2]))
        if glyph[0].strip() and glyph[3] >= glyph[1] and glyph[4] >= glyph[2] and key not in seen:
            seen.add(key)
            chars.append(glyph)
    return chars


def grid_text(glyphs: Iterable[Glyph]) -> str:
    """The page's text with each glyph at its grid column; lines end with a newline."""
    chars = _unique(glyphs)
    if not chars:
        return ""
    chars = _turn(chars, direction(chars))
    width = max(_median([g[3] - g[1] for g in chars], 5.0), 0.5)
    height = max(_median([g[4] - g[2] for g in chars], 10.0), 1.0)
    left = min(g[1] for g in chars)
    out: list[str] = []
    previous: float | None = None
    for centre, line in _lines(chars, height):
        if previous is not None and previous - centre > BLANK_GAP * height:
            out.append("")
        out.append(_place(line, left, width))
        previous = centre
    return "\n".join(out) + "\n"


def reading_text(glyphs: list[Glyph]) -> str:
    """The page's text in reading order, without the grid: for vertical writing, a line a column, the rightmost
    first, each read down; a page set in tiers (columns across the top half, then the bottom half) tier by tier,
    a blank line between them. Lines are cut where a gap wider than :data:`TIER_GAP` characters parts them, and
    the pieces whose spans overlap along the line make one tier. On a vertical page, a line set across it above
    or below the columns (a running head, a page number in words) is read across, in its place."""
    chars = _unique(glyphs)
    if not chars:
        return ""
    axis = direction(chars)
    runs = _across(chars) if axis in (1, 3) else []
    held = {id(glyph) for run in runs for glyph in run}
    tiers = _tiers(_turn([g for g in chars if id(g) not in held], axis))
    inside = [run for run in runs if any(_span(_turn(run, axis), tier) for tier in tiers)]
    if inside:  # across inside a column (two digits set side by side): read with the column, as before
        kept = {id(glyph) for run in inside for glyph in run}
        runs = [run for run in runs if id(run[0]) not in kept]
        held -= kept
        tiers = _tiers(_turn([g for g in chars if id(g) not in held], axis))
    blocks = [(first, text) for first, _last, text in tiers]
    for run in runs:
        width = max(_median([g[3] - g[1] for g in run], 5.0), 0.5)
        ordered = sorted(run, key=lambda g: g[1])
        blocks.append((min(g[1] for g in _turn(run, axis)), " ".join(_place(ordered, ordered[0][1], width).split())))
    return "\n\n".join(text for _first, text in sorted(blocks, key=lambda block: block[0])) + "\n"


def _across(chars: list[Glyph]) -> list[list[Glyph]]:
    """Runs of two or more glyphs, in drawing order, each a short step to the right of the one before."""
    runs: list[list[Glyph]] = []
    current: list[Glyph] = []
    for a, b in itertools.pairwise(chars):
        dx, dy = (b[1] + b[3] - a[1] - a[3]) / 2, (b[2] + b[4] - a[2] - a[4]) / 2
        size = max(a[3] - a[1], a[4] - a[2], 0.1)
        if 0 < dx <= 2 * size and abs(dy) < dx / 2:
            current = current or [a]
            current.append(b)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _span(turned: list[Glyph], tier: tuple[float, float, str]) -> bool:
    """The glyphs lie along the line within the tier's span."""
    return min(g[1] for g in turned) < tier[1] and max(g[3] for g in turned) > tier[0]


def _tiers(chars: list[Glyph]) -> list[tuple[float, float, str]]:
    """Turned glyphs as tiers: each tier's span along the line and its text, a line a column."""
    if not chars:
        return []
    width = max(_median([g[3] - g[1] for g in chars], 5.0), 0.5)
    height = max(_median([g[4] - g[2] for g in chars], 10.0), 1.0)
    pieces: list[list[Glyph]] = []
    for _centre, line in _lines(chars, height):
        ordered = sorted(line, key=lambda g: (round(g[1], 1), g[2]))  # glyphs side by side in a column: across
        start = 0
        for index in range(1, len(ordered) + 1):
            if index == len(ordered) or ordered[index][1] - ordered[index - 1][3] > TIER_GAP * width:
                pieces.append(ordered[start:index])
                start = index
    tiers: list[tuple[float, float, list[list[Glyph]]]] = []  # each tier's span along the line, and its pieces
    for piece in sorted(pieces, key=lambda p: p[0][1]):
        if tiers and piece[0][1] <= tiers[-1][1]:
            first, last, held = tiers[-1]
            tiers[-1] = (first, max(last, piece[-1][3]), [*held, piece])
        else:
            tiers.append((piece[0][1], piece[-1][3], [piece]))
    order = {id(piece): index for index, piece in enumerate(pieces)}  # lines as _lines found them, tier by tier
    return [(first, last, "\n".join(" ".join(_place(piece, piece[0][1], width).split())
                                    for piece in sorted(held, key=lambda p: order[id(p)])))
            for first, last, held in tiers]


def pdfium_glyphs(textpage: Any, limit: int | None = None) -> list[Glyph]:
    """Every character of a PDFium text page with its loose box (font ascent to descent); the first
    ``limit`` glyphs only, when it is given."""
    from boundread.formats.pdf import binding

    c = binding.pdfium()
    glyphs: list[Glyph] = []
    rect = binding.FS_RECTF()
    for index in range(c.FPDFText_CountChars(textpage)):
        code = c.FPDFText_GetUnicode(textpage, index)
        if code <= 32 or 0xD800 <= code <= 0xDFFF:  # controls, spaces, halves of surrogate pairs
            continue
        if not c.FPDFText_GetLooseCharBox(textpage, index, rect):
            continue
        glyphs.append((chr(code), rect.left, rect.bottom, rect.right, rect.top))
        if limit is not None and len(glyphs) >= limit:
            break
    return glyphs


def miner_glyphs(layout: Any) -> list[Glyph]:
    """Every ``LTChar`` of a pdfminer page layout, however deeply it is nested."""
    from pdfminer.layout import LTChar

    glyphs: list[Glyph] = []
    stack = [layout]
    while stack:
        item = stack.pop()
        if isinstance(item, LTChar):
            glyphs.append((item.get_text(), item.x0, item.y0, item.x1, item.y1))
        elif hasattr(item, "__iter__"):
            stack.extend(reversed(list(item)))  # keep the drawing order
    return glyphs
