"""The guard on a SQLite database: a whole Read is denied naming info, a table's rows (sheets --rows) and --sql;
``sqlite3 app.db .dump`` and an unlimited SELECT of a big table are denied naming a LIMIT form of that table; a
SELECT with a LIMIT is allowed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from boundread.guard import check_command, check_read


@pytest.fixture
def work(tmp_path: Path) -> Path:
    with sqlite3.connect(tmp_path / "app.db") as db:
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, payload TEXT)")
        db.executemany("INSERT INTO events VALUES (?, ?)", ((n, "x" * 40) for n in range(20_000)))
    db.close()
    return tmp_path


def test_a_whole_read_names_the_bounded_reads(work: Path) -> None:
    decision = check_read(str(work / "app.db"), cwd=work)
    assert decision.decision == "deny" and decision.kind == "sqlite"
    assert "SQLite database" in decision.reason
    for command in ("boundread info app.db", "boundread sheets app.db TABLE --rows 1-50",
                    "boundread extract app.db --sql 'SELECT ... LIMIT 50'"):
        assert command in decision.reason, decision.reason


@pytest.mark.parametrize("command", ["sqlite3 app.db .dump", "sqlite3 app.db 'select * from events'"])
def test_a_dump_names_a_bounded_read_of_the_table(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny"
    lines = decision.reason.splitlines()
    bounded = ["  boundread info app.db", "  boundread sheets app.db events --rows 1-50",
               "  sqlite3 app.db 'select * from events limit 50'"]
    assert [line for line in lines if line in bounded] == bounded, decision.reason  # boundread's first, one a line


def test_a_limited_select_is_allowed(work: Path) -> None:
    assert check_command("sqlite3 app.db 'select * from events limit 20'", cwd=work).decision == "allow"
