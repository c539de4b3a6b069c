"""--sql: one read-only statement, rows and cells bounded; writes, PRAGMA, ATTACH, extensions and a second
statement are refused before anything runs, and the database's bytes never change."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from tests.formats.sqlite_fixtures import SENTINEL, listing, make_app, source

from boundread.contract.model import Request, Span
from boundread.contract.sink import Sink
from boundread.errors import UsageError
from boundread.formats.database import handler
from boundread.limits import Limits


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return make_app(tmp_path / "app.db")


def _sql(path: Path, sql: str, **kw: object) -> tuple[str, object]:
    req = Request(sql=sql, **kw)  # type: ignore[arg-type]
    sink = Sink(req.limits)
    outcome = handler.extract(source(path), req, sink)
    return sink.text(), outcome


def test_a_select_is_bounded_by_max_rows_and_says_how_to_go_on(app: Path) -> None:
    text, outcome = _sql(app, "SELECT id, name FROM users ORDER BY id;", limits=Limits(max_rows=5))
    assert text.splitlines() == ["id,name", f"1,user1 {SENTINEL}", "2,user2", "3,user3", "4,user4", "5,user5"]
    assert outcome.truncated == ["max_rows 5 reached"]  # type: ignore[attr-defined]
    assert outcome.resume[-2:] == ("--rows", "6-10")  # type: ignore[attr-defined,index]


def test_rows_pages_the_result(app: Path) -> None:
    text, outcome = _sql(app, "SELECT id FROM users ORDER BY id", rows=Span(11, 13))
    assert text.splitlines() == ["id", "11", "12", "13"]
    assert not outcome.truncated  # type: ignore[attr-defined]  # the range, not a bound, ended it


def test_cells_are_bounded_in_the_query_too(app: Path) -> None:
    text, outcome = _sql(app, "SELECT bio, pic FROM users WHERE id IN (2, 3) ORDER BY id")
    assert "[blob 50.0 kB]" in text and "... [3,000 chars, cut]" in text
    assert len(outcome.warnings) == 2  # type: ignore[attr-defined]


def test_duplicate_column_names_are_kept_apart(app: Path) -> None:
    text, _ = _sql(app, "SELECT a.id, b.id FROM users a JOIN users b ON b.id = a.id + 1 WHERE a.id = 1")
    assert text.splitlines() == ["id,id:1", "1,2"]


@pytest.mark.parametrize(("sql", "said"), [
    ("DELETE FROM users", "delete users is not allowed"),
    ("UPDATE users SET name = 'x'", "update users is not allowed"),
    ("INSERT INTO kv VALUES ('z', 0)", "insert kv is not allowed"),
    ("DROP TABLE users", "not allowed"),
    ("ATTACH 'other.db' AS o", "attach"),
    ("PRAGMA journal_mode=WAL", "pragma journal_mode is not allowed"),
    ("SELECT load_extension('x')", "function load_extension is not allowed"),
    ("SELECT 1; DELETE FROM users", "one statement"),
    ("VACUUM INTO 'copy.db'", "--sql"),
    ("", "--sql is empty"),
])
def test_anything_but_a_read_is_refused_and_nothing_changes(app: Path, sql: str, said: str) -> None:
    digest = hashlib.sha256(app.read_bytes()).hexdigest()
    before = listing(app.parent)
    with pytest.raises(UsageError, match=said) as caught:
        _sql(app, sql)
    assert "--sql reads only" in caught.value.fix or said == "--sql is empty"
    assert hashlib.sha256(app.read_bytes()).hexdigest() == digest
    assert listing(app.parent) == before


def test_a_runaway_query_stops_at_the_timeout(app: Path) -> None:
    sql = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    req = Request(sql=sql, limits=Limits(timeout=0.3))
    sink = Sink(req.limits)
    handler.extract(source(app), req, sink)
    assert sink.timed_out and "timeout after 0.3 s" in sink.reasons


def test_a_timeout_inside_one_step_says_run_it_again_with_more_time(tmp_path: Path) -> None:
    """COUNT(*) of a join is one long VDBE step for the progress handler; the timer's interrupt stops it."""
    import sqlite3

    db = tmp_path / "join.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE e(id INTEGER PRIMARY KEY)")
    conn.execute("INSERT INTO e SELECT n FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                 "WHERE n < 20000) SELECT n FROM r)")
    conn.commit()
    conn.close()
    sql = "SELECT count(*) FROM e a, e b"
    req = Request(sql=sql, limits=Limits(timeout=0.3))
    sink = Sink(req.limits)
    outcome = handler.extract(source(db), req, sink)
    assert sink.timed_out and outcome.done == "no rows before the timeout"
    assert outcome.resume == ("extract", outcome.resume[1], "--sql", sql, "--timeout", "1")  # type: ignore[index]


def test_a_wide_result_is_cut_at_the_columns_sqlite_can_select(tmp_path: Path) -> None:
    import sqlite3

    from boundread.formats.database import cells

    db = tmp_path / "wide.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE w(" + ", ".join(f"c{n}" for n in range(1000)) + ")")
    conn.execute("INSERT INTO w(c0, c999) VALUES ('first', 'last')")
    conn.commit()
    conn.close()
    for read in ({"sql": "SELECT * FROM w"}, {"sheets": ("w",)}):
        req = Request(limits=Limits(max_cols=5000), **read)  # type: ignore[arg-type]
        sink = Sink(req.limits)
        outcome = handler.extract(source(db), req, sink)
        header = next(line for line in sink.text().splitlines() if line.startswith("c0,"))
        assert len(header.split(",")) == cells.MAX_COLUMNS
        assert any(f"columns after {cells.MAX_COLUMNS} not shown" in w for w in outcome.warnings)
