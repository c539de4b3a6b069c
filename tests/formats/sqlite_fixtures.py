"""SQLite databases generated for the tests: small, with a sentinel in them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Source

SENTINEL = "zebra-7431"


def make_app(path: Path, *, rows: int = 500, wal: bool = False) -> Path:
    """``users`` (rowid, inserted out of order; a 3,000-char TEXT in row 3, a 50 kB BLOB in row 2), ``kv``
    (WITHOUT ROWID), a view ``names``."""
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, bio TEXT, pic BLOB)")
    order = list(range(rows, 0, -1))  # inserted last-first: rowid order is not insertion order
    conn.executemany("INSERT INTO users VALUES (?, ?, ?, ?)",
                     [(i, f"user{i}" + (f" {SENTINEL}" if i == 1 else ""), "b" * (3000 if i == 3 else 5),
                       b"\0" * (50_000 if i == 2 else 1)) for i in order])
    conn.execute("CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID")
    conn.executemany("INSERT INTO kv VALUES (?, ?)", [("b", 2), ("a", 1), ("c", 3)])
    conn.execute("CREATE VIEW names AS SELECT name FROM users")
    conn.commit()
    conn.close()
    return path


def source(path: Path) -> Source:
    return Source(str(path), Sniffed("sqlite", "application/vnd.sqlite3"), path.stat().st_size, path)


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file's size and mtime: what 'nothing was written' compares."""
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}
