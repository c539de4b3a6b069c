"""The ledger's contract, run on both stores (the ``backend`` fixture): SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from boundread.budget import pgschema
from boundread.budget.errors import BudgetError, LedgerError
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.model import BudgetLimits, CallView, Scope, UsageRecord
from boundread.budget.policy import decide
from boundread.budget.schema import CURRENT_VERSION
from boundread.budget.sqlite import SqliteLedger


def _writer(n: int) -> None:
    with open_ledger() as ledger:
        for i in range(200):
            ledger.add_usage(f"s{n % 4}", [UsageRecord("m", 1, 2, 3, 4, cost=Decimal("0.000001"), key=f"{n}-{i}")])


def _pool(n: int) -> multiprocessing.pool.Pool:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method).Pool(n)


def test_sixteen_processes_leave_exact_totals(backend: str) -> None:
    open_ledger().close()
    with _pool(16) as pool:
        pool.map(_writer, range(16))
    with open_ledger() as ledger:
        total = ledger.totals(Scope("global"))
        assert (total.input, total.output, total.cache_read, total.cache_write) == (3200, 6400, 9600, 12800)
        assert total.cost == Decimal("0.0032")
        assert ledger.totals(Scope("session", "s1")).input == 800


def _slow_decide(view: CallView) -> BudgetError | None:
    time.sleep(0.005)  # widen the window between reading the count and recording the call
    return decide(view)


def _caller(n: int) -> int:
    with open_ledger() as ledger:  # a session per process: only the global limit ties them
        return sum(ledger.record_call(f"race{n}", None, "Bash", f"d{i}", 0, _slow_decide) is None for i in range(10))


def test_concurrent_calls_never_pass_the_call_limit(backend: str) -> None:
    """Eight processes (eight sessions) race for 25 calls: exactly 25 are allowed, as one process would see it."""
    with open_ledger() as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=25))
    with _pool(8) as pool:
        allowed = sum(pool.map(_caller, range(8)))
    with open_ledger() as ledger:
        assert allowed == 25 == ledger.totals(Scope("global")).calls


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
V1_ROWS = (
    "INSERT INTO limits VALUES ('session:old', 1000, '0.50', NULL, NULL, 3)",
    "INSERT INTO sessions(id, input, cost_nanos) VALUES ('old', 700, 520000000)",
    "INSERT INTO usage(session, key, model, input, output, cache_read, cache_write, cost_nanos)"
    " VALUES ('old', 'msg_1:req_1', 'm', 700, 0, 0, 0, 520000000)",
    """INSERT INTO offsets VALUES ('/t.jsonl', 1234)""",
)


def _make_v1(backend: str) -> None:
    """A ledger as the first release left it, with rows in it."""
    if backend == "sqlite":
        path = ledger_path()
        path.parent.mkdir(parents=True)
        db = sqlite3.connect(path)
        for statement in (*V1, *V1_ROWS):
            db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        db.commit()
        db.close()
        return
    with _pg() as conn:
        for statement in (pgschema.VERSION_TABLE, *pgschema.V1, *V1_ROWS):
            conn.execute(statement)
        conn.execute("INSERT INTO boundread_schema VALUES (1)")


def _pg() -> psycopg.Connection[tuple[object, ...]]:
    import os

    return psycopg.connect(os.environ["BOUNDREAD_LEDGER_URL"], autocommit=True)


def _version(backend: str) -> int:
    if backend == "sqlite":
        return int(sqlite3.connect(ledger_path()).execute("PRAGMA user_version").fetchone()[0])
    with _pg() as conn:
        row = conn.execute(pgschema.VERSION).fetchone()
        return int(row[0]) if row else -1


def test_a_v1_ledger_opens_and_keeps_its_records(backend: str) -> None:
    _make_v1(backend)
    with open_ledger() as ledger:
        assert ledger.limits(Scope("session", "old")) == BudgetLimits(1000, Decimal("0.50"), max_repeat=3)
        assert ledger.totals(Scope("session", "old")).cost == Decimal("0.52")
        assert ledger.offset("/t.jsonl") == 1234
        ledger.set_limits(Scope("session", "old"), BudgetLimits(deny_tools=("Write",)))
        assert ledger.limits(Scope("session", "old")).deny_tools == ("Write",)
        # the v3 step gave the old row its message id: a sidechain copy of msg_1 counts once
        assert ledger.add_usage("new", [UsageRecord("m", 9, key="msg_1:req_9", message="msg_1", sidechain=True)]) == 0
    assert _version(backend) == CURRENT_VERSION


def test_a_newer_ledger_is_a_clear_error(backend: str) -> None:
    open_ledger().close()
    if backend == "sqlite":
        sqlite3.connect(ledger_path()).execute(f"PRAGMA user_version = {CURRENT_VERSION + 1}")
    else:
        with _pg() as conn:
            conn.execute("UPDATE boundread_schema SET version = %s", (CURRENT_VERSION + 1,))
    with pytest.raises(LedgerError, match=f"has schema v{CURRENT_VERSION + 1}, newer than this boundread"):
        open_ledger()


def test_a_corrupt_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LedgerError, match="run `boundread budget recover`"):
        SqliteLedger(junk)


def test_odd_session_ids_are_stored_as_given(backend: str) -> None:
    odd = "x'); DROP TABLE usage; -- ☃ %s %% ? $1"  # quotes, and each store's placeholder spellings
    with open_ledger() as ledger:
        ledger.add_usage(odd, [UsageRecord("m", 5, key="k")])
        ledger.set_limits(Scope("project", "/p%?"), BudgetLimits(max_calls=1))
        assert ledger.sessions() == [odd]
        assert ledger.projects() == ["/p%?"]
        assert ledger.totals(Scope("session", odd)).input == 5


def test_a_nul_or_a_lone_surrogate_in_an_id_is_one_key_in_both_stores(backend: str) -> None:
    """PostgreSQL refuses NUL and no store takes a lone surrogate: both keep U+FFFD, so the same id is one key."""
    with open_ledger() as ledger:
        ledger.add_usage("a\x00b", [UsageRecord("m", 5, key="k\x00")], project="/p\ud800")
        ledger.add_usage("a\x00b", [UsageRecord("m", 5, key="k\ufffd")])  # the same request, cleaned: a repeat
        assert ledger.sessions() == ["a\ufffdb"] and ledger.projects() == ["/p\ufffd"]
        assert ledger.totals(Scope("session", "a\x00b")).input == 5
        assert ledger.totals(Scope("session", "a\ufffdb")).input == 5


def test_a_duplicate_key_counts_once_and_the_larger_count_wins(backend: str) -> None:
    with open_ledger() as ledger:
        assert ledger.add_usage("s", [UsageRecord("m", 5, key="a")]) == 1
        assert ledger.add_usage("s", [UsageRecord("m", 5, key="a")]) == 0
        ledger.add_usage("s", [UsageRecord("m", 5, 7, key="a")])
        t = ledger.totals(Scope("session", "s"))
        assert (t.input, t.output) == (5, 7)
        ledger.reset(Scope("session", "s"))
        assert ledger.totals(Scope("session", "s")).tokens == 0


def test_limits_merge_reset_and_offsets_only_grow(backend: str) -> None:
    with open_ledger() as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_tokens=10))
        merged = ledger.set_limits(Scope("global"), BudgetLimits(max_usd=Decimal("1.25"), deny_tools=("Bash",)))
        assert merged == BudgetLimits(max_tokens=10, max_usd=Decimal("1.25"), deny_tools=("Bash",))
        assert ledger.all_limits() == {"global": merged}
        ledger.add_usage("s", [], transcript=("/t", 100))
        ledger.add_usage("s", [], transcript=("/t", 40))
        assert ledger.offsets(["/t", "/none"]) == {"/t": 100}
        ledger.reset(Scope("global"), limits=True)
        assert ledger.all_limits() == {} and ledger.sessions() == [] and ledger.offset("/t") == 100
