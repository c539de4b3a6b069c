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


def test_a_malformed_page_is_corrupt_or_bounded(tmp_path: Path) -> None:
    db = make_app(tmp_path / "bad.db", rows=3000)
    data = bytearray(db.read_bytes())
    page = 4096
    data[3 * page:6 * page] = b"\xa5" * (3 * page)  # the users table's pages in the middle
    db.write_bytes(bytes(data))
    before = listing(tmp_path)
    req = Request(sheets=("users",), rows=Span(1, 3000), limits=Limits(max_rows=3000))
    try:
        sink = Sink(req.limits)
        handler.extract(source(db), req, sink)
    except Corrupt as exc:
        assert "SQLite cannot read it" in exc.what and "malformed" in exc.what
    else:
        assert sink.chars <= req.limits.max_chars
    assert listing(tmp_path) == before


def test_a_huge_text_cell_comes_back_cut(tmp_path: Path) -> None:
    db = tmp_path / "text.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t(body TEXT)")
    conn.execute("INSERT INTO t VALUES (?)", ("q" * 20_000_000,))
    conn.commit()
    conn.close()
    sink = Sink(Limits())
    outcome = handler.extract(source(db), Request(), sink)
    assert "... [20,000,000 chars, cut]" in sink.text() and len(sink.text()) < 3000
    assert any("TEXT cells longer" in w for w in outcome.warnings)


def test_a_big_table_is_estimated_not_scanned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "big.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE e(id INTEGER PRIMARY KEY, v)")
    conn.execute("INSERT INTO e SELECT n, n FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                 "WHERE n < 300000) SELECT n FROM r)")
    conn.commit()
    conn.close()
    monkeypatch.setattr(catalog, "COUNT_SECONDS", 0.0001)  # as a 10M-row table's COUNT(*) past 0.5 s
    details = handler.info(source(db), Request())
    e = details.fields["sheets"][0]
    assert e["rows"] == 300_000 and e["rows_estimated"] == "the largest rowid"
    sink = Sink(Limits(max_rows=5))
    handler.extract(source(db), Request(rows=Span(299_999, 300_010), limits=Limits(max_rows=5)), sink)
    assert sink.text().splitlines()[2:] == ["299999,299999", "300000,300000"]
