"""SQLite: info lists tables and views with rows and columns; rows come in rowid / primary-key order, bounded;
BLOBs are shown as their size and long TEXT cut in SQL; nothing is written beside the database."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.formats.sqlite_fixtures import SENTINEL, listing, make_app, source

from boundread.contract.model import Request, Span
from boundread.contract.sink import Sink
from boundread.formats.database import catalog, handler
from boundread.limits import Limits


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return make_app(tmp_path / "app.db")


def _read(path: Path, **kw: object) -> tuple[str, object]:
    req = Request(**kw)  # type: ignore[arg-type]
    sink = Sink(req.limits)
    outcome = handler.extract(source(path), req, sink)
    return sink.text(), outcome


def test_info_lists_tables_views_rows_and_columns(app: Path) -> None:
    details = handler.info(source(app), Request())
    sheets = {s["name"]: s for s in details.fields["sheets"]}
    assert (details.fields["tables"], details.fields["views"]) == (2, 1)
    assert sheets["users"]["rows"] == 500 and sheets["users"]["type"] == "table"
    assert sheets["users"]["columns"] == ["id", "name", "bio", "pic"]
    assert sheets["kv"]["primary_key"] == ["k"] and sheets["names"]["type"] == "view"
    assert sheets["names"]["rows"] == 500  # a view is counted within the same budget
    assert "users(id INTEGER PK, name TEXT, bio TEXT, pic BLOB)" in details.fields["schema"]
    assert ("sheets", details.next[0][1], "users", "--rows", "1-50") == details.next[0]


def test_rows_in_rowid_order_bounded_with_the_next_window(app: Path) -> None:
    text, outcome = _read(app, sheets=("users",), rows=Span(1, 3))
    lines = text.splitlines()
    assert lines[0] == "--- sheet 'users' (rows 1-3 of 500, rowid order) ---"
    assert lines[1] == "id,name,bio,pic"
    assert lines[2] == f"1,user1 {SENTINEL},bbbbb,[blob 1 B]"
    assert lines[3].startswith("2,user2,bbbbb,[blob 50.0 kB]")
    assert len(lines) == 5
    assert outcome.resume == ("sheets", outcome.resume[1], "users", "--rows", "4-6")  # type: ignore[attr-defined]


def test_a_window_past_the_row_bound_is_cut_to_max_rows(app: Path) -> None:
    text, outcome = _read(app, sheets=("users",), rows=Span(101, 400), limits=Limits(max_rows=10))
    rows = text.splitlines()[2:]
    assert [r.split(",")[0] for r in rows] == [str(n) for n in range(101, 111)]
    assert outcome.truncated == ["max_rows 10 reached"]  # type: ignore[attr-defined]


def test_without_rowid_reads_in_primary_key_order(app: Path) -> None:
    text, _ = _read(app, sheets=("kv",))
    assert text.splitlines()[1:] == ["k,v", "a,1", "b,2", "c,3"]
    assert "primary key order (k)" in text.splitlines()[0]


def test_long_text_is_cut_in_sql_and_said(app: Path) -> None:
    text, outcome = _read(app, sheets=("users",), rows=Span(3, 3))
    row = text.splitlines()[2]
    assert "b" * 2000 + "... [3,000 chars, cut]" in row and "b" * 2001 not in row
    assert any("TEXT cells longer than 2,000 chars" in w and "row 3" in w
               for w in outcome.warnings)  # type: ignore[attr-defined]


def test_a_huge_blob_is_never_fetched(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "blob.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE b(x)")
    conn.execute("INSERT INTO b VALUES (zeroblob(50000000))")
    conn.commit()
    conn.close()
    text, outcome = _read(db)
    assert "[blob 50.0 MB]" in text
    assert any("BLOB cells shown as their size" in w for w in outcome.warnings)  # type: ignore[attr-defined]


def test_an_unknown_table_is_a_usage_error_naming_them(app: Path) -> None:
    from boundread.errors import UsageError

    with pytest.raises(UsageError, match=r"no table or view named 'nope'.*'users'"):
        _read(app, sheets=("nope",))


def test_counts_past_the_budget_are_estimated_and_marked(app: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "COUNTS_SECONDS", 0.0)
    details = handler.info(source(app), Request())
    users = next(s for s in details.fields["sheets"] if s["name"] == "users")
    assert users["rows"] == 500 and users["rows_estimated"] == "the largest rowid"
    assert any("~500 rows (estimated from the largest rowid" in w for w in details.warnings)


def test_nothing_is_written_beside_the_database(app: Path) -> None:
    before = listing(app.parent)
    handler.info(source(app), Request())
    _read(app, sheets=("users",))
    _read(app, sql="SELECT count(*) FROM users")
    assert listing(app.parent) == before


def test_a_wal_in_use_is_read_and_nothing_created(tmp_path: Path) -> None:
    import sqlite3

    db = make_app(tmp_path / "live.db", wal=True)
    writer = sqlite3.connect(db)  # keeps -wal and -shm: a database in use
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("INSERT INTO kv VALUES ('d', 4)")
    writer.commit()
    try:
        before = listing(tmp_path)
        assert {"live.db-wal", "live.db-shm"} <= set(before)
        text, outcome = _read(db, sheets=("kv",))
        assert "d,4" in text and not outcome.warnings  # type: ignore[attr-defined]
        assert set(listing(tmp_path)) == set(before)
    finally:
        writer.close()


def test_a_wal_without_its_shm_is_said_not_read(tmp_path: Path) -> None:
    db = make_app(tmp_path / "app.db")
    (tmp_path / "app.db-wal").write_bytes(b"")
    before = listing(tmp_path)
    _, outcome = _read(db, sheets=("kv",))
    assert any("app.db-wal beside it was not read" in w for w in outcome.warnings)  # type: ignore[attr-defined]
    assert listing(tmp_path) == before


def test_a_hot_journal_is_said_and_left_alone(tmp_path: Path) -> None:
    db = make_app(tmp_path / "app.db")
    (tmp_path / "app.db-journal").write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\x00" * 504)
    before = listing(tmp_path)
    text, outcome = _read(db, sheets=("kv",))
    assert "a,1" in text
    assert any("app.db-journal beside it" in w and "not rolled back" in w
               for w in outcome.warnings)  # type: ignore[attr-defined]
    assert listing(tmp_path) == before


def test_a_database_in_an_archive_is_read_from_memory(app: Path) -> None:
    from boundread.bytelevel.sniff import sniff_data
    from boundread.contract.model import Source

    data = app.read_bytes()
    src = Source("m.zip:app.db", sniff_data(data, "app.db"), len(data), data=data)
    assert src.kind == "sqlite"
    req = Request(sheets=("kv",))
    sink = Sink(req.limits)
    handler.extract(src, req, sink)
    assert sink.text().splitlines()[1:] == ["k,v", "a,1", "b,2", "c,3"]


def test_many_columns_are_listed_up_to_a_bound(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "wide.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE w(" + ", ".join(f"c{n}" for n in range(300)) + ")")
    conn.close()
    sheet = handler.info(source(db), Request()).fields["sheets"][0]
    assert sheet["cols"] == 300 and len(sheet["columns"]) == catalog.LISTED_COLUMNS


@pytest.mark.parametrize(("fmt", "expected"), [
    ("tsv", ["k\tv", "a\t1"]),
    ("markdown", ["| k | v |", "|---|---|", "| a | 1 |"]),
])
def test_formats_as_for_a_workbook(app: Path, fmt: str, expected: list[str]) -> None:
    text, _ = _read(app, sheets=("kv",), fmt=fmt)
    assert text.splitlines()[1:1 + len(expected)] == expected


def test_text_that_is_not_utf8_is_shown_replaced_and_said(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "latin.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t(s TEXT)")
    conn.execute("INSERT INTO t VALUES (CAST(X'63616680e9' AS TEXT))")  # 'caf' and two bytes that are not UTF-8
    conn.commit()
    conn.close()
    text, outcome = _read(db)
    assert "caf\ufffd\ufffd" in text
    assert "1 TEXT values are not UTF-8: shown with U+FFFD" in outcome.warnings  # type: ignore[attr-defined]


def test_estimated_tokens_follow_the_rows_not_the_blobs(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "blobby.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)")
    conn.executemany("INSERT INTO b VALUES (?, zeroblob(100000))", [(n,) for n in range(1, 101)])
    conn.commit()
    conn.close()
    details = handler.info(source(db), Request())
    # 100 rows of "N,[blob 100.0 kB]": about 2 kB of text for a 10 MB file
    assert details.est_chars is not None and 1_000 < details.est_chars < 5_000 < db.stat().st_size
