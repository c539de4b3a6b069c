from __future__ import annotations

import multiprocessing
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from boundread.budget.errors import LedgerError
from boundread.budget.ledger import SqliteLedger, ledger_path
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.budget.schema import CURRENT_VERSION


def _writer(args: tuple[str, int]) -> None:
    path, n = args
    with SqliteLedger(Path(path)) as ledger:
        for i in range(200):
            ledger.add_usage(f"s{n % 4}", [UsageRecord("m", 1, 2, 3, 4, cost=Decimal("0.000001"), key=f"{n}-{i}")])


def test_sixteen_processes_leave_exact_totals(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    SqliteLedger(path).close()
    with multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn").Pool(
        16
    ) as pool:
        pool.map(_writer, [(str(path), n) for n in range(16)])
    with SqliteLedger(path) as ledger:
        total = ledger.totals(Scope("global"))
        assert (total.input, total.output, total.cache_read, total.cache_write) == (3200, 6400, 9600, 12800)
        assert total.cost == Decimal("0.0032")
        assert ledger.totals(Scope("session", "s1")).input == 800


V1 = (
    "CREATE TABLE limits(scope TEXT PRIMARY KEY, max_tokens INTEGER, max_usd TEXT, max_depth INTEGER,"
    " max_calls INTEGER, max_repeat INTEGER)",
    "CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, input INTEGER NOT NULL DEFAULT 0,"
    " output INTEGER NOT NULL DEFAULT 0, cache_read INTEGER NOT NULL DEFAULT 0,"
    " cache_write INTEGER NOT NULL DEFAULT 0, cost_nanos INTEGER NOT NULL DEFAULT 0,"
    " calls INTEGER NOT NULL DEFAULT 0, depth INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE usage(id INTEGER PRIMARY KEY, session TEXT NOT NULL, key TEXT, model TEXT NOT NULL,"
    " input INTEGER NOT NULL, output INTEGER NOT NULL, cache_read INTEGER NOT NULL,"
    " cache_write INTEGER NOT NULL, cost_nanos INTEGER NOT NULL, UNIQUE(session, key))",
    "CREATE TABLE calls(id INTEGER PRIMARY KEY, session TEXT NOT NULL, tool TEXT NOT NULL,"
    " digest TEXT NOT NULL, depth INTEGER NOT NULL, allowed INTEGER NOT NULL)",
    "CREATE INDEX calls_by_session ON calls(session, id)",
    "CREATE TABLE offsets(path TEXT PRIMARY KEY, offset INTEGER NOT NULL)",
)


def test_a_v1_ledger_opens_and_keeps_its_records(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for statement in V1:
        db.execute(statement)
    db.execute("INSERT INTO limits VALUES ('session:old', 1000, '0.50', NULL, NULL, 3)")
    db.execute("INSERT INTO sessions(id, input, cost_nanos) VALUES ('old', 700, 520000000)")
    db.execute("INSERT INTO offsets VALUES ('/t.jsonl', 1234)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with SqliteLedger(path) as ledger:
        assert ledger.limits(Scope("session", "old")) == BudgetLimits(1000, Decimal("0.50"), max_repeat=3)
        assert ledger.totals(Scope("session", "old")).cost == Decimal("0.52")
        assert ledger.offset("/t.jsonl") == 1234
        ledger.set_limits(Scope("session", "old"), BudgetLimits(deny_tools=("Write",)))
        assert ledger.limits(Scope("session", "old")).deny_tools == ("Write",)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION


def test_a_newer_or_corrupt_ledger_is_a_clear_error(tmp_path: Path) -> None:
    newer = tmp_path / "new.sqlite3"
    sqlite3.connect(newer).execute(f"PRAGMA user_version = {CURRENT_VERSION + 1}")
    with pytest.raises(LedgerError, match="newer than this boundread"):
        SqliteLedger(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LedgerError, match="run `boundread budget recover`"):
        SqliteLedger(junk)


def test_odd_session_ids_are_stored_as_given(tmp_path: Path) -> None:
    odd = "x'); DROP TABLE usage; --\x00 ☃"
    with SqliteLedger() as ledger:
        ledger.add_usage(odd, [UsageRecord("m", 5, key="k")])
        assert ledger.sessions() == [odd]
        assert ledger.totals(Scope("session", odd)).input == 5
    assert ledger_path() == tmp_path / "state" / "budget.sqlite3"


def test_a_duplicate_key_counts_once_and_the_larger_count_wins() -> None:
    with SqliteLedger() as ledger:
        assert ledger.add_usage("s", [UsageRecord("m", 5, key="a")]) == 1
        assert ledger.add_usage("s", [UsageRecord("m", 5, key="a")]) == 0
        ledger.add_usage("s", [UsageRecord("m", 5, 7, key="a")])
        t = ledger.totals(Scope("session", "s"))
        assert (t.input, t.output) == (5, 7)
        ledger.reset(Scope("session", "s"))
        assert ledger.totals(Scope("session", "s")).tokens == 0
