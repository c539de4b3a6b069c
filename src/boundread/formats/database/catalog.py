"""The tables and views of a database: names, columns, the order rows are read in, and row counts within a
time budget (``COUNT(*)`` scans the whole table: past the budget the count is estimated and marked so).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from boundread.formats.database.cells import ident
from boundread.formats.database.connect import Opened

COUNT_SECONDS = 0.5  # one table's COUNT(*) before it is estimated instead
COUNTS_SECONDS = 3.0  # all tables' counts together; past it the rest are estimated at once
MAX_TABLES = 500  # listed; a schema of more says so
SCHEMA_CHARS = 2_000  # the one-line schema in info
LISTED_COLUMNS = 100  # a table's column names in info's JSON (``cols`` counts them all)


@dataclass
class Table:
    index: int  # 1-based, in the schema's order
    name: str
    type: str  # table | view
    sql: str
    columns: list[tuple[str, str]] = field(default_factory=list)  # (name, declared type)
    pk: list[str] = field(default_factory=list)
    rows: int | None = None
    estimated: str = ""  # how rows was estimated ("" when counted)
    problem: str = ""  # why its columns or rows could not be read

    @property
    def rowid(self) -> bool:
        return self.type == "table" and "WITHOUT ROWID" not in " ".join(self.sql.upper().split())

    @property
    def order(self) -> str:
        """ORDER BY words: the rowid, a WITHOUT ROWID table's primary key, or nothing (a view's own order)."""
        if self.rowid:
            return " ORDER BY _rowid_"
        if self.pk:
            return " ORDER BY " + ", ".join(ident(c) for c in self.pk)
        return ""

    @property
    def order_words(self) -> str:
        return "rowid order" if self.rowid else (f"primary key order ({', '.join(self.pk)})" if self.pk
                                                 else "the view's own order")

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "rows": self.rows, "cols": len(self.columns),
                "hidden": False, "state": "visible", "type": self.type, "dimension": None, "xml_bytes": None,
                "rows_estimated": self.estimated or None,
                "columns": [n for n, _ in self.columns[:LISTED_COLUMNS]],
                "primary_key": self.pk or None}

    def schema(self) -> str:
        cols = ", ".join(f"{n} {t}".strip() + (" PK" if n in self.pk else "") for n, t in self.columns)
        return f"{self.name}({cols})" + (" view" if self.type == "view" else "")


def tables(db: Opened) -> tuple[list[Table], bool]:
    """The tables and views (internal ``sqlite_*`` tables left out), at most ``MAX_TABLES``; True when more."""
    rows = db.conn.execute("SELECT type, name, coalesce(sql, '') FROM sqlite_schema WHERE type IN ('table', 'view')"
                           " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid LIMIT ?",
                           (MAX_TABLES + 1,)).fetchall()
    found = [Table(at, str(name), str(kind), str(sql)) for at, (kind, name, sql) in enumerate(rows[:MAX_TABLES], 1)]
    for table in found:
        _columns(db, table)
    return found, len(rows) > MAX_TABLES


def _columns(db: Opened, table: Table) -> None:
    try:
        info = db.conn.execute(f"PRAGMA table_info({ident(table.name)})").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a virtual table whose module is absent, a bad view
        table.problem = str(exc)
        return
    table.columns = [(str(r[1]), str(r[2] or "")) for r in info]
    table.pk = [str(r[1]) for r in sorted((r for r in info if r[5]), key=lambda r: int(r[5]))]


def count(db: Opened, found: list[Table]) -> None:
    """Each table's rows: counted within the budgets, else estimated (sqlite_stat1, or the largest rowid). A view
    is counted within the same budgets (it runs its query), else left unknown: nothing estimates a query."""
    from boundread.limits import Deadline

    overall = Deadline(COUNTS_SECONDS)
    for table in found:
        if table.problem or (table.type == "view" and overall.expired):
            continue
        if not overall.expired:
            with db.budget(COUNT_SECONDS):
                try:
                    table.rows = int(db.conn.execute(f"SELECT count(*) FROM {ident(table.name)}").fetchone()[0])
                    continue
                except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                    if "interrupt" not in str(exc):
                        table.problem = str(exc)
                        continue
        if table.type == "table":
            _estimate(db, table)


def _estimate(db: Opened, table: Table) -> None:
    try:
        stat = db.conn.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx IS NOT NULL LIMIT 1",
                               (table.name,)).fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        stat = None
    if stat and str(stat[0]).split()[0].isdigit():
        table.rows, table.estimated = int(str(stat[0]).split()[0]), "sqlite_stat1"
        return
    if table.rowid:
        try:
            top = db.conn.execute(f"SELECT max(_rowid_) FROM {ident(table.name)}").fetchone()[0]
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            top = None
        if isinstance(top, int):
            table.rows, table.estimated = top, "the largest rowid"
            return
    table.estimated = "unknown"


def schema_line(found: list[Table]) -> str:
    text = "; ".join(t.schema() for t in found)
    return text if len(text) <= SCHEMA_CHARS else text[:SCHEMA_CHARS] + "... (cut: `--json` lists every column)"


SAMPLE_ROWS = 20  # rows a table's printed size is estimated from
SAMPLED_TABLES = 50  # tables sampled; past them the file's size stands in


def text_chars(db: Opened, found: list[Table], fallback: int) -> int:
    """The characters all tables would print as rows (cells bounded as a read shows them): each table's rows times
    the mean length of its first rows; ``fallback`` (the file's size) when none could be sampled."""
    from boundread.formats.database import longtext
    from boundread.formats.database.cells import Cut, row_texts, select_list

    total, sampled = 0, 0
    for table in found:
        if table.problem or table.type != "table" or not table.rows or sampled >= SAMPLED_TABLES:
            continue
        names = [n for n, _ in table.columns][:50]
        lazy = longtext.usable(db, table.rowid)  # a 50 MB TEXT cell: its start, not all of it in SQLite's memory
        try:
            with db.budget(COUNT_SECONDS):
                listed = longtext.select_list(names) if lazy else select_list(names)
                rows = db.conn.execute(f"SELECT {listed} FROM {ident(table.name)} LIMIT {SAMPLE_ROWS}").fetchall()
                reader = longtext.Reader(db, table.name, names) if lazy else None
                texts = [reader.row_texts(r, Cut(), "") if reader else row_texts(r, names, Cut(), "") for r in rows]
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            continue
        if rows:
            sampled += 1
            chars = sum(len(",".join(row)) + 1 for row in texts)
            total += table.rows * chars // len(rows)
    return total if sampled else fallback
