"""A cell as bounded text, cut in SQL: a BLOB is never fetched (``[blob 50.0 MB]`` from ``length()``, which reads
no overflow page), a TEXT longer than ``CELL_CHARS`` comes back as its ``substr`` (the rest stays in SQLite, which
loads it whole to cut it: a rowid table's TEXT cells are read by ``longtext`` instead).

Each column is selected as three values, ``typeof``, ``length`` and the bounded value, so the row's reader
knows what was cut without fetching it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boundread.units import human_bytes

CELL_CHARS = 2_000  # a TEXT cell's characters shown; the rest is read by --sql with substr()
LOADED = 1 << 24  # characters of a TEXT cell read whole to cut it that a read says it cost (16 M)
PER_COLUMN = 3
#: columns one read shows at most: each is three result columns, and SQLite allows 2,000 (SQLITE_MAX_COLUMN)
MAX_COLUMNS = 600


def width(max_cols: int) -> int:
    """The columns a read shows: ``--max-cols``, within what SQLite can select."""
    return min(max_cols, MAX_COLUMNS)


def ident(name: str) -> str:
    """A name quoted for SQL: ``"a""b"``."""
    return '"' + name.replace('"', '""') + '"'


def bounded(column: str, chars: int = CELL_CHARS) -> str:
    """The three expressions that read one column (already quoted) bounded."""
    return (f"typeof({column}), length({column}), "
            f"CASE typeof({column}) WHEN 'blob' THEN NULL WHEN 'text' THEN substr({column}, 1, {chars}) "
            f"ELSE {column} END")


def select_list(columns: Sequence[str], chars: int = CELL_CHARS) -> str:
    return ", ".join(bounded(ident(c), chars) for c in columns) or "NULL, NULL, NULL"


@dataclass
class Cut:
    """What the cells of a read hid: TEXT cells cut, BLOBs summarised."""

    texts: int = 0
    blobs: int = 0
    first_text: str | None = None  # "column 'body', row 12": where the first cut is
    loaded: int = 0  # the longest TEXT cell SQLite read whole to cut it (substr() loads the value), in chars

    def warnings(self, chars: int = CELL_CHARS) -> list[str]:
        said: list[str] = []
        if self.texts:
            said.append(f"{self.texts:,} TEXT cells longer than {chars:,} chars cut there (first: {self.first_text});"
                        " read the rest with --sql 'SELECT substr(COLUMN, 2001, 2000) FROM ...'")
        if self.loaded >= LOADED:
            said.append(f"SQLite read a TEXT cell of {self.loaded:,} chars whole to cut it (--sql, a view or a "
                        "WITHOUT ROWID table: substr() loads the value), so this read took about that much memory; "
                        "`sheets F TABLE --rows A-B` reads only a rowid table's cell starts")
        if self.blobs:
            said.append(f"{self.blobs:,} BLOB cells shown as their size, not their bytes (--sql with hex(substr(...)) "
                        "reads a part)")
        return said


def text_cell(value: str, length: int, cut: Cut, column: str, where: str, chars: int = CELL_CHARS, *,
              unit: str = "chars", loaded: bool = False) -> str:
    """A TEXT cell: ``value`` (at most ``chars`` characters of it) and its whole ``length`` in ``unit``."""
    if length <= chars or (unit == "bytes" and len(value) < chars):
        return value
    cut.texts += 1
    if cut.first_text is None:
        cut.first_text = f"column '{column}', {where}"
    if loaded:
        cut.loaded = max(cut.loaded, length)
    return f"{value}... [{length:,} {unit}, cut]"


def row_texts(values: Sequence[Any], names: Sequence[str], cut: Cut, where: str,
              chars: int = CELL_CHARS) -> list[str]:
    """Cells from the triples :func:`select_list` reads."""
    cells: list[str] = []
    for at in range(0, len(values) - PER_COLUMN + 1, PER_COLUMN):
        kind, length, value = values[at:at + PER_COLUMN]
        if kind == "blob":
            cut.blobs += 1
            cells.append(f"[blob {human_bytes(int(length or 0))}]")
        elif kind == "text":
            cells.append(text_cell(str(value), int(length or 0), cut, names[at // PER_COLUMN], where, chars,
                                   loaded=True))
        elif kind == "null":
            cells.append("")
        elif kind == "real":
            cells.append(repr(float(value)) if not float(value).is_integer() or abs(value) >= 1e16
                         else f"{value:.1f}")
        else:
            cells.append(str(value))
    return cells
