"""The ``info`` and ``list-zip`` views without rich, for output that is not a terminal (agents, pipes): the same
lines rich draws there, character for character, at a fraction of the start-up (rich costs ~20 ms to import).

Rich draws off a terminal without colour, on a 240-column page, a table without borders, and a workbook's
sheets and an archive's entries under a ruled header. Where its output could differ from plain joining - a
line wider than the page, control characters or tabs it would strip or expand, markup brackets, characters
whose width in cells is not plainly one, colour forced on by FORCE_COLOR / TTY_COMPATIBLE - :func:`info_lines`
and :func:`listing_lines` answer None and rich draws, as before. tests/test_render_plain.py compares the two on
generated results.
"""

from __future__ import annotations

import os

from boundread.render.text import count, scalar
from boundread.units import human_bytes

TYPE_CHECKING = False  # not typing's: a one-line info's start-up (issue 24)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from boundread.contract.model import Entry, InfoResult, Listing, Source

BYTE_FIELDS = frozenset({"total_size", "largest", "compressed", "size", "uncompressed", "xml_bytes"})  # shown as KB/MB
PAGE = 240  # the width rich's console takes off a terminal (render/views.py console())
GAP = 4  # the key column's right padding plus the value column's left padding


def plain_stream(stream: TextIO) -> bool:
    """Rich would draw on ``stream`` without colour or terminal width: not a terminal, colour not forced."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    try:
        return not stream.isatty()
    except ValueError:  # closed
        return False


def info_rows(result: InfoResult) -> list[tuple[str, str]]:
    """The key/value rows of the info view, in order."""
    rows: list[tuple[str, str]] = [("kind", f"{result.kind} ({result.mime})"), ("size", human_bytes(result.bytes))]
    if result.problem:
        problem = result.problem
        rows.append(("problem", f"{problem['code']} (extract exits {problem['exit_code']}): {problem['message']}"))
    if result.symlink_target:
        rows.append(("symlink to", result.symlink_target))
    if result.mislabelled:
        rows.append(("note", result.mislabelled))
    if result.encrypted:
        rows.append(("encrypted", "yes"))
    if result.est_tokens is not None:
        approx = "~" if result.est_tokens_estimated else ""
        rows.append(("est. tokens", f"{approx}{result.est_tokens:,}"))
    for key, value in result.fields.items():
        if key not in ("sheets", "problem", "pages_checked", "pages_unmapped") and value not in (None, "", [], {}):
            shown = human_bytes(value) if key in BYTE_FIELDS and isinstance(value, int) else scalar(value)
            rows.append((key.replace("_", " "), checked(result.fields, key, shown)))
    return rows


def checked(fields: dict[str, Any], key: str, shown: str) -> str:
    """A PDF's ``pages without text``, how many pages were looked at when not all, and how many of them have a
    text layer of glyphs mapped to no text: ``3 of 20 checked, 3 with unmapped glyphs (no usable text)`` (the
    JSON keeps the numbers apart: ``pages_without_text``, ``pages_checked``, ``pages_unmapped``)."""
    if key != "pages_without_text":
        return shown
    looked, unmapped = fields.get("pages_checked"), fields.get("pages_unmapped")
    if isinstance(looked, int) and looked < (fields.get("pages") or 0):
        shown = f"{shown} of {looked:,} checked"
    if isinstance(unmapped, int) and unmapped:
        shown = f"{shown}, {unmapped:,} with unmapped glyphs (no usable text)"
    return shown


def info_lines(result: InfoResult) -> list[str] | None:
    """The info view as rich draws it off a terminal; None where rich must draw (see the module's doc)."""
    sheets = sheets_lines(result.fields["sheets"]) if result.fields.get("sheets") else []
    if sheets is None:
        return None
    rows = info_rows(result)
    told = result.problem["message"] if result.problem else None
    warnings = [f"  warning: {warning}" for warning in result.warnings if warning != told]
    steps = ["next:", *(f"  {command}" for command in result.next)] if result.next else []
    key_width = max(len(key) for key, _ in rows)
    room = PAGE - key_width - GAP
    if not all(_plain(text) for text in (result.path, *warnings, *steps)):
        return None
    if not all(_plain(key) and key.isascii() and _fits(value, room) for key, value in rows):
        return None
    table = [f"{key:<{key_width}}{' ' * GAP}{value}".rstrip() for key, value in rows]
    return [result.path, *table, *sheets, *warnings, *steps]


SHEET_COLUMNS = ("#", "sheet", "rows", "cols", "state")
RIGHT = frozenset({0, 2, 3})  # the numbers are right-justified
DIVIDER = "   "  # a cell's right padding, the box's blank divider, the next cell's left padding


def sheet_cells(sheet: dict[str, Any]) -> tuple[str, str, str, str, str]:
    """One sheet's row of the sheets table: index, name, rows, columns, state (and its type if not a worksheet)."""
    state = sheet.get("state") or ("hidden" if sheet.get("hidden") else "visible")
    if sheet.get("type") not in (None, "worksheet"):
        state = f"{state}, {sheet['type']}"
    return (str(sheet.get("index", "")), str(sheet.get("name", "")), count(sheet.get("rows")),
            count(sheet.get("cols")), str(state))


def sheets_lines(sheets: list[dict[str, Any]]) -> list[str] | None:
    """A workbook's sheets as rich's SIMPLE_HEAD table draws them off a terminal (the header, a rule of the
    table's width, a row per sheet); None where rich must draw (see the module's doc)."""
    rows = [SHEET_COLUMNS, *(sheet_cells(sheet) for sheet in sheets)]
    # the name is a rich Text (shown as it is); the other cells are strings rich reads as markup
    if not all(_narrow(cell) and (at == 1 or "[" not in cell) for row in rows for at, cell in enumerate(row)):
        return None
    widths = [max(len(row[at]) for row in rows) for at in range(len(SHEET_COLUMNS))]
    width = sum(widths) + len(DIVIDER) * (len(widths) - 1)
    if width > PAGE:
        return None

    def line(row: tuple[str, ...]) -> str:
        return DIVIDER.join(cell.rjust(size) if at in RIGHT else cell.ljust(size)
                            for at, (cell, size) in enumerate(zip(row, widths, strict=True))).rstrip()

    return [line(rows[0]), "\u2500" * width, *(line(row) for row in rows[1:])]


def _plain(text: str) -> bool:
    """Rich shows it as it is: no control characters (stripped), tabs (expanded) or line breaks."""
    return text.isprintable()


LISTING_COLUMNS = ("size", "packed", "ratio", "modified", "flags", "name")


def entry_cells(entry: Entry) -> tuple[str, str, str, str, str, str]:
    """One archive entry's row of the listing: size, packed, ratio, modified (to the minute), flags, name."""
    flags = ",".join(f for f, on in (("dir", entry.is_dir), ("enc", entry.encrypted),
                                      ("link", entry.is_symlink), ("!", bool(entry.warnings))) if on)
    ratio = "" if entry.ratio is None else f"{entry.ratio:.0f}x" if entry.ratio >= 10 else f"{entry.ratio:.1f}x"
    name = entry.name + (f" -> {entry.link_target}" if entry.link_target else "")
    return (human_bytes(entry.size), human_bytes(entry.compressed), ratio,
            (entry.modified or "")[:16].replace("T", " "), flags, name)


def listing_summary(src: Source, listing: Listing) -> str:
    """The line above a listing: the archive's format, entries and sizes."""
    return (f"{src.name}: {listing.format} archive, {plural(listing.total_entries, 'entry', 'entries')}, "
            f"{human_bytes(listing.total_size)} unpacked"
            + (f", {human_bytes(listing.total_compressed)} packed" if listing.total_compressed else ""))


def listing_lines(src: Source, listing: Listing) -> list[str] | None:
    """An archive's listing as rich draws it off a terminal (the summary line, the entries under a ruled
    header, what the page holds, warnings, the next command); None where rich must draw: a name too long for
    the page (rich folds it, and the view cuts the time column first), or anything :func:`info_lines` leaves
    to rich."""
    from boundread.render.listing import listing_next, listing_words

    rows = [LISTING_COLUMNS, *(entry_cells(entry) for entry in listing.entries)]
    if not all(_narrow(cell) and (at == 5 or "[" not in cell) for row in rows for at, cell in enumerate(row)):
        return None
    widths = [max(len(row[at]) for row in rows) for at in range(len(LISTING_COLUMNS))]
    used = sum(size + len(DIVIDER) for size in widths[:-1])
    if PAGE - used < 30 or widths[-1] > PAGE - used:  # rich's view would drop columns or fold names
        return None
    summary = listing_summary(src, listing)
    words = listing_words(listing)
    warnings = [f"  warning: {warning}" for warning in listing.warnings]
    steps = listing_next(src, listing)
    after = [*([words] if words is not None else []), *warnings,
             *(["next:", *(f"  {command}" for command in steps)] if steps else [])]
    if not all(_plain(text) for text in (summary, *after)):
        return None

    def line(row: tuple[str, ...]) -> str:
        return DIVIDER.join(cell.ljust(size) if at >= 3 else cell.rjust(size)
                            for at, (cell, size) in enumerate(zip(row, widths, strict=True))).rstrip()

    table = [line(rows[0]), "\u2500" * (used + widths[-1]), *(line(row) for row in rows[1:])]
    return [summary, *(table if len(rows) > 1 or words is None else []), *after]


def plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _narrow(text: str) -> bool:
    """Printable, and one cell per character in rich's table: ASCII and the Latin letters up to U+02FF (no
    combining marks, no wide scripts, whose cell widths rich measures by its own table)."""
    return text.isprintable() and all(ord(char) < 0x300 for char in text)


def _fits(text: str, room: int) -> bool:
    """It fits the value column unwrapped: a character is at most two cells wide."""
    return _plain(text) and (len(text) if text.isascii() else 2 * len(text)) <= room
