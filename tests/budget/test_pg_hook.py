"""guard-check on the PostgreSQL ledger: libpq through ctypes, deciding exactly as ``PostgresLedger`` does.

Timing is in bench/ (``ledger_rows``); these tests pin the causes: no psycopg and nothing slow imported on an
allowed call, the same verdicts and the same rows as the ledger API, and the hand-over when tables are new.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from test_hook_path import CALLS, CASES, CONSOLE, SLOW, _env

from boundread.budget import enforce, libpq, pghook, pgschema
from boundread.budget.digest import action_digest
from boundread.budget.hookrules import NeedsLedger
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.budget.policy import decide
from boundread.budget.postgres import PostgresLedger
from boundread.hook import fence

_CALL_IDS = itertools.count(1)  # a new tool_use_id per call, as the clients give


def _ledger(url: str, limits: list[tuple[Scope, BudgetLimits]], tokens: int, nanos: int) -> PostgresLedger:
    ledger = PostgresLedger(url)
    for scope, lim in limits:
        ledger.set_limits(scope, lim)
    cost = Decimal(nanos) / Decimal(10**9)
    ledger.add_usage("s", [UsageRecord("m", input=tokens, cost=cost, key="k")], project="/proj")
    return ledger


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


@pytest.mark.parametrize(("name", "limits", "tokens", "nanos"), CASES, ids=[c[0] for c in CASES])
def test_the_libpq_path_decides_like_the_ledger(
    new_pg_url: Callable[[], str], tmp_path: Path, name: str, limits: list[tuple[Scope, BudgetLimits]],
    tokens: int, nanos: int,
) -> None:
    lean, full = new_pg_url(), new_pg_url()
    _ledger(lean, limits, tokens, nanos).close()
    expected = []
    with _ledger(full, limits, tokens, nanos) as ledger:
        for tool, tool_input, depth in CALLS:
            verdict = ledger.record_call("s", "/proj", tool, action_digest(tool, tool_input), depth, decide)
            expected.append(None if verdict is None else str(verdict))
    cache = str(tmp_path / "cache.json")
    got = [pghook.check(lean, cache, "s", "/proj", tool, tool_input, depth) for tool, tool_input, depth in CALLS]
    assert got == expected
    assert name.endswith("under") or name == "empty limits row" or any(got), "the case should trip"
    for sql in ("SELECT session, tool, digest, depth, allowed FROM calls ORDER BY id",
                "SELECT id, project, calls, depth FROM sessions ORDER BY seq"):
        assert _rows(lean, sql) == _rows(full, sql)


def test_an_allowed_call_imports_no_psycopg_and_nothing_slow(pg_url: str, tmp_path: Path) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("session", "s1"), BudgetLimits(max_usd=Decimal(100), max_calls=100_000))
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "ls"}, "cwd": str(tmp_path), "tool_use_id": f"t{next(_CALL_IDS)}"}
    env = {**_env(), "BOUNDREAD_LEDGER_URL": pg_url, "BOUNDREAD_STATE_DIR": str(tmp_path / "state")}
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "boundread.budget.pghook" in names and result.stdout == ""  # it consulted the database, and allowed
    assert not {n for n in names if n.split(".")[0] == "psycopg"}
    assert not names & SLOW, sorted(names & SLOW)
    outside = sorted(n for n in names if n.startswith("boundread") and not fence.within(n, fence.HOOK_PATH))
    assert outside == []  # the hook path's fence (hook/fence.py) holds on the libpq path too
    assert _rows(pg_url, "SELECT session, tool, allowed FROM calls") == [("s1", "Bash", 1)]


def test_new_tables_and_an_old_schema_go_through_the_ledger(
    new_pg_url: Callable[[], str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, url = str(tmp_path / "cache.json"), new_pg_url()
    with pytest.raises(NeedsLedger):  # an empty database: psycopg creates the tables
        pghook.check(url, cache, "s", None, "X", 1, 0)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    assert enforce.check_tool_call({"session_id": "s"}, "X", 1) is None  # created them, no limit: allowed
    assert pghook.check(url, cache, "s", None, "X", 1, 0) is None
    old = new_pg_url()  # a v2 ledger, with a limit in it
    with psycopg.connect(old, autocommit=True) as conn:
        for statement in (pgschema.VERSION_TABLE, *pgschema.V1, *pgschema.V2):
            conn.execute(statement)
        conn.execute("INSERT INTO boundread_schema VALUES (2)")
        conn.execute("INSERT INTO limits(scope, max_calls) VALUES ('session:s', 1)")
    with pytest.raises(NeedsLedger):
        pghook.check(old, cache, "s", None, "X", 1, 0)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", old)
    assert enforce.check_tool_call({"session_id": "s"}, "X", 1) is None  # migrated to v3, then counted
    reason = pghook.check(old, cache, "s", None, "X", 2, 0)  # the lean path takes it from here
    assert reason is not None and "call limit reached: call 2 of max 1 in session s" in reason


def test_without_libpq_for_ctypes_psycopg_decides(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(libpq, "LIBPQ", ("libpq-that-is-not-there.so",))
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", pg_url)
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(deny_tools=("Write",)))
    assert enforce.check_tool_call({"session_id": "s"}, "Read", {}) is None
    reason = enforce.check_tool_call({"session_id": "s"}, "Write", {})
    assert reason is not None and "Write" in reason
    assert os.path.exists(Path(os.environ["BOUNDREAD_STATE_DIR"]) / "budget.postgres.limits.json")  # noqa: PTH110
