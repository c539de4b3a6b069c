"""Hostile SQLite files give one line and the corrupt exit code, or a bounded answer: a file that only starts
with the SQLite header, a malformed page, a huge TEXT cell, a big table whose count runs past its budget."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.formats.sqlite_fixtures import listing, make_app, source

from boundread.contract.model import Request, Span
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, ExitCode
from boundread.formats.database import catalog, handler
from boundread.limits import Limits


def test_only_the_header_is_corrupt_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "fake.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(Corrupt) as caught:
        handler.info(source(db), Request())
    assert caught.value.exit_code == ExitCode.CORRUPT
    assert "\n" not in str(caught.value) and "SQLite cannot read it" in caught.value.what


def _damaged(tmp_path: Path, at_page: int) -> Path:
    db = make_app(tmp_path / "bad.db", rows=3000)
    data = bytearray(db.read_bytes())
    data[at_page * 4096:(at_page + 3) * 4096] = b"\xa5" * (3 * 4096)
    db.write_bytes(bytes(data))
    return db


def test_a_malformed_page_before_any_row_is_corrupt(tmp_path: Path) -> None:
    db = _damaged(tmp_path, 2)  # the users table's root page
    before = listing(tmp_path)
    req = Request(sheets=("users",), rows=Span(1, 3000), limits=Limits(max_rows=3000))
    with pytest.raises(Corrupt, match="malformed"):
        handler.extract(source(db), req, Sink(req.limits))
    info = handler.info(source(db), Request())
    assert any("'users' cannot be read here: database disk image is malformed" in w for w in info.warnings)
    assert listing(tmp_path) == before


def test_a_malformed_page_after_some_rows_keeps_them_and_says_where(tmp_path: Path) -> None:
    db = _damaged(tmp_path, 10)  # leaves in the middle of users
    req = Request(sheets=("users",), rows=Span(1, 3000), limits=Limits(max_rows=3000))
    sink = Sink(req.limits)
    outcome = handler.extract(source(db), req, sink)
    rows = sink.text().splitlines()[2:]
    assert 100 < len(rows) < 3000 and rows[0].startswith("1,user1 ")
    assert any(f"stopped at a damaged page after row {len(rows):,} (database disk image is malformed)" in w
               for w in outcome.warnings), outcome.warnings


def test_a_huge_text_cell_comes_back_cut(tmp_path: Path) -> None:
    db = tmp_path / "text.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t(body TEXT)")
    conn.execute("INSERT INTO t VALUES (?)", ("q" * 20_000_000,))
    conn.commit()
    conn.close()
    sink = Sink(Limits())
    outcome = handler.extract(source(db), Request(), sink)
    # read by rowid through incremental BLOB I/O (Python 3.11+): its size in bytes, not its characters counted
    unit = "bytes" if hasattr(conn, "blobopen") else "chars"
    assert f"... [20,000,000 {unit}, cut]" in sink.text() and len(sink.text()) < 3000
    assert any("TEXT cells longer" in w for w in outcome.warnings)


def test_a_big_table_is_estimated_not_scanned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "big.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE e(id INTEGER PRIMARY KEY, v)")
    conn.execute("INSERT INTO e SELECT n, n FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                 "WHERE n < 300000) SELECT n FROM r)")
    conn.commit()
    conn.close()
    monkeypatch.setattr(catalog, "COUNTS_SECONDS", 0.0)  # as when a 10M-row table's COUNT(*) spent the budget
    details = handler.info(source(db), Request())
    e = details.fields["sheets"][0]
    assert e["rows"] == 300_000 and e["rows_estimated"] == "the largest rowid"
    sink = Sink(Limits(max_rows=5))
    handler.extract(source(db), Request(rows=Span(299_999, 300_010), limits=Limits(max_rows=5)), sink)
    assert sink.text().splitlines()[2:] == ["299999,299999", "300000,300000"]


def test_a_count_past_its_budget_is_interrupted(tmp_path: Path) -> None:
    """The budget's timer interrupts a statement the progress handler cannot (COUNT(*) is one VDBE step)."""
    from boundread.formats.database.connect import opened
    from boundread.limits import Deadline

    db = tmp_path / "e.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE e(id INTEGER PRIMARY KEY)")
    conn.execute("INSERT INTO e SELECT n FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                 "WHERE n < 20000) SELECT n FROM r)")
    conn.commit()
    conn.close()
    with opened(source(db), Deadline(None)) as opened_db, opened_db.budget(0.05), \
            pytest.raises(sqlite3.OperationalError, match="interrupt"):
        opened_db.conn.execute("SELECT count(*) FROM e a, e b").fetchone()
