"""TEXT cells of a table read without loading them whole.

SQLite's ``substr()`` and ``length()`` load a TEXT value entirely, overflow pages and all: a 50 MB cell cost 50 MB
(in SQLite's memory, not Python's) to show its first 2,000 characters. A rowid table's TEXT cells are read through
incremental BLOB I/O instead (``Connection.blobopen``, Python 3.11+, which opens a TEXT cell as well): its size
comes from the record's header, its first bytes from the pages that hold them. The query itself selects each
column's ``typeof`` (which SQLite answers from the header), a BLOB's ``length`` (likewise) and any other value.

A view, a WITHOUT ROWID table, ``--sql`` and Python 3.10 keep the SQL cut (``cells.select_list``); a cell over
``LOADED`` cut there is said to have been read whole (``cells.Cut.loaded``).
"""

from __future__ import annotations

import codecs
import sqlite3
from collections.abc import Sequence
from typing import Any

from boundread.formats.database.cells import CELL_CHARS, PER_COLUMN, Cut, ident, row_texts, text_cell
from boundread.formats.database.connect import Opened

WHOLE = 1 << 16  # bytes of a TEXT cell read whole (its characters counted); a longer one is read to its cut only
_CODECS = {"UTF-8": "utf-8", "UTF-16le": "utf-16-le", "UTF-16be": "utf-16-be"}


def usable(db: Opened, rowid: bool) -> bool:
    """Can a read of this table fetch its TEXT cells by rowid?"""
    return rowid and hasattr(db.conn, "blobopen")


def select_list(columns: Sequence[str]) -> str:
    """Three expressions a column (``typeof``, a BLOB's length, a value that is neither TEXT nor BLOB), then the
    rowid: none of them loads a TEXT or BLOB value."""
    parts = [f"typeof({c}), CASE typeof({c}) WHEN 'blob' THEN length({c}) END, "
             f"CASE typeof({c}) WHEN 'text' THEN NULL WHEN 'blob' THEN NULL ELSE {c} END"
             for c in map(ident, columns)]
    return ", ".join([*parts, "_rowid_"]) if parts else "NULL, NULL, NULL, _rowid_"


class Reader:
    """Rows of one table from :func:`select_list`, TEXT cells read by rowid, at most ``chars`` characters each."""

    def __init__(self, db: Opened, table: str, names: Sequence[str], chars: int = CELL_CHARS) -> None:
        self.db, self.table, self.names, self.chars = db, table, list(names), chars
        encoding = str(db.conn.execute("PRAGMA encoding").fetchone()[0])
        self.codec = _CODECS.get(encoding, "utf-8")

    def row_texts(self, values: Sequence[Any], cut: Cut, where: str) -> list[str]:
        rowid, triples = values[-1], list(values[:-1])
        texts: dict[int, str] = {}
        for at in range(0, len(triples) - PER_COLUMN + 1, PER_COLUMN):
            if triples[at] == "text":
                texts[at // PER_COLUMN] = self._text(self.names[at // PER_COLUMN], rowid, cut, where)
                triples[at:at + PER_COLUMN] = ["null", None, None]  # shown below as its text
        cells = row_texts(triples, self.names, cut, where, self.chars)
        for column, text in texts.items():
            cells[column] = text
        return cells

    def _text(self, column: str, rowid: int, cut: Cut, where: str) -> str:
        try:
            opener = getattr(self.db.conn, "blobopen")  # noqa: B009 - Python 3.11+ (usable() checked it)
            with opener(self.table, column, rowid, readonly=True) as blob:
                size = len(blob)
                raw = blob.read(size if size <= WHOLE else self.chars * 4 + 4)
        except sqlite3.Error:  # a virtual table, a generated column: the SQL cut, which loads it
            row = self.db.conn.execute(f"SELECT length({ident(column)}), substr({ident(column)}, 1, {self.chars}) "
                                       f"FROM {ident(self.table)} WHERE _rowid_ = ?", (rowid,)).fetchone()
            length, value = (row or (0, ""))
            return text_cell(str(value or ""), int(length or 0), cut, column, where, self.chars)
        text = self._decode(raw, whole=len(raw) == size)
        if len(raw) == size:
            return text_cell(text[:self.chars], len(text), cut, column, where, self.chars)
        return text_cell(text[:self.chars], size, cut, column, where, self.chars, unit="bytes")

    def _decode(self, raw: bytes, *, whole: bool) -> str:
        """The cell's text as the connection's text_factory gives it (U+FFFD for bytes that are not UTF-8, counted);
        a start cut inside a character ends before it."""
        decoder = codecs.getincrementaldecoder(self.codec)(errors="strict")
        try:
            return decoder.decode(raw, final=whole)
        except UnicodeDecodeError:
            self.db.bad_text += 1
            return codecs.getincrementaldecoder(self.codec)(errors="replace").decode(raw, final=whole)
