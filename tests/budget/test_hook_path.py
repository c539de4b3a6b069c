"""The ledger on the guard-check hot path (issue 4: the issue 3 speed target holds with the ledger on).

Timing is measured in bench/; these tests pin the causes instead: which modules an allowed call imports,
that the lean path decides exactly as ``SqliteLedger.record_call`` + ``policy.decide`` do, and that the WAL
it leaves open stays bounded.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boundread.budget import enforce, hookpath, hookrules, sidecar
from boundread.budget.digest import action_digest
from boundread.budget.ledger import ledger_path
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.budget.policy import decide
from boundread.budget.sqlite import SqliteLedger

_CALL_IDS = itertools.count(1)  # a new tool_use_id per call, as the clients give

SRC = Path(__file__).resolve().parents[2] / "src"
CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
SLOW = {"dataclasses", "typing", "json", "re", "pathlib", "inspect", "contextlib", "decimal", "hashlib", "enum"}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDREAD_GUARD_")}
    env["PYTHONPATH"] = str(SRC)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "boundread-test-pyc")
    return env


def _read_payload(path: Path, session: str = "s1") -> dict[str, object]:
    return {"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Read",
            "tool_input": {"file_path": str(path)}, "cwd": str(path.parent), "tool_use_id": f"t{next(_CALL_IDS)}"}


def _guard_check(payload: dict[str, object], cwd: Path) -> tuple[set[str], str]:
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                            capture_output=True, text=True, env=_env(), cwd=cwd, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    return names, result.stdout


def _calls(session: str) -> list[tuple[str, int]]:
    with sqlite3.connect(ledger_path()) as db:
        return db.execute("SELECT tool, allowed FROM calls WHERE session = ? ORDER BY id", (session,)).fetchall()


def test_an_allowed_call_with_a_budget_imports_nothing_slow(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("hello\n")
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "s1"), BudgetLimits(max_usd=Decimal(100), max_calls=100_000))
    names, out = _guard_check(_read_payload(small), tmp_path)
    assert "boundread.budget.hookpath" in names and out == ""  # it really consulted the ledger, and allowed
    assert not names & SLOW, sorted(names & SLOW)
    assert _calls("s1") == [("Read", 1)]  # and recorded the call


def test_a_denied_call_still_says_why(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("hello\n")
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "s1"), BudgetLimits(max_calls=1))
    assert _guard_check(_read_payload(small), tmp_path)[1] == ""
    out = _guard_check(_read_payload(small), tmp_path)[1]
    assert "call limit reached: call 2 of max 1 in session s1" in out and "deny" in out
    assert _calls("s1") == [("Read", 1), ("Read", 0)]


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(tool=st.text(), tool_input=JSONISH)
def test_the_digest_is_sha256_of_the_normalized_json(tool: str, tool_input: Any) -> None:
    text = json.dumps([tool, tool_input], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    expected = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    assert action_digest(tool, tool_input) == expected


def test_odd_inputs_digest_like_json() -> None:
    for value in ({"b": 1, "a": "\ud800 ☃"}, {"p": Path("/x"), "d": Decimal("0.5")}, [float("nan"), 1e300]):
        text = json.dumps(["T", value], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        assert action_digest("T", value) == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


SESSION = Scope("session", "s")
PROJECT = Scope("project", "/proj")
CASES: list[tuple[str, list[tuple[Scope, BudgetLimits]], int, int]] = [  # limits, tokens and nanos spent so far
    ("cost reached at equality", [(SESSION, BudgetLimits(max_usd=Decimal("0.50")))], 0, 500_000_000),
    ("cost just under", [(SESSION, BudgetLimits(max_usd=Decimal("0.50")))], 0, 499_999_999),
    ("cost cap in 10 places", [(SESSION, BudgetLimits(max_usd=Decimal("0.0000000005")))], 0, 1),
    ("cost cap of zero", [(SESSION, BudgetLimits(max_usd=Decimal(0)))], 0, 0),
    ("tokens reached at equality", [(SESSION, BudgetLimits(max_tokens=1000))], 1000, 0),
    ("tokens under", [(SESSION, BudgetLimits(max_tokens=1001))], 1000, 0),
    ("calls beyond the limit", [(SESSION, BudgetLimits(max_calls=3))], 0, 0),
    ("the K-th repeat", [(SESSION, BudgetLimits(max_repeat=3))], 0, 0),
    ("a forbidden tool", [(SESSION, BudgetLimits(deny_tools=("Bash", "Write")))], 0, 0),
    ("depth beyond", [(SESSION, BudgetLimits(max_depth=1))], 0, 0),
    ("global calls", [(Scope("global"), BudgetLimits(max_calls=2)), (SESSION, BudgetLimits(max_usd=Decimal(9)))], 0, 0),
    ("project cost", [(PROJECT, BudgetLimits(max_usd=Decimal("0.2")))], 0, 300_000_000),
    ("empty limits row", [(SESSION, BudgetLimits())], 0, 0),
]
CALLS = [("Bash", {"command": "ls"}, 0)] * 4 + [("Read", {"file_path": "/a"}, 2), ("Bash", {"command": "ls"}, 1)]


def _ledger(path: Path, limits: list[tuple[Scope, BudgetLimits]], tokens: int, nanos: int) -> SqliteLedger:
    ledger = SqliteLedger(path)
    for scope, lim in limits:
        ledger.set_limits(scope, lim)
    cost = Decimal(nanos) / Decimal(10**9)
    ledger.add_usage("s", [UsageRecord("m", input=tokens, cost=cost, key="k")], project="/proj")
    return ledger


@pytest.mark.parametrize(("name", "limits", "tokens", "nanos"), CASES, ids=[c[0] for c in CASES])
def test_the_lean_path_decides_like_the_ledger(
    tmp_path: Path, name: str, limits: list[tuple[Scope, BudgetLimits]], tokens: int, nanos: int
) -> None:
    lean, full = tmp_path / "lean.sqlite3", tmp_path / "full.sqlite3"
    _ledger(lean, limits, tokens, nanos).close()
    expected = []
    with _ledger(full, limits, tokens, nanos) as ledger:
        for tool, tool_input, depth in CALLS:
            digest = action_digest(tool, tool_input)
            verdict = ledger.record_call("s", "/proj", tool, digest, depth, decide)
            expected.append(None if verdict is None else str(verdict))
    got = [hookpath.check(str(lean), "s", "/proj", tool, tool_input, depth) for tool, tool_input, depth in CALLS]
    assert got == expected
    assert name.endswith("under") or name == "empty limits row" or any(got), "the case should trip"
    query = "SELECT session, tool, digest, depth, allowed FROM calls ORDER BY id"
    summary = "SELECT id, project, calls, depth FROM sessions ORDER BY id"
    for sql in (query, summary):
        assert sqlite3.connect(lean).execute(sql).fetchall() == sqlite3.connect(full).execute(sql).fetchall()


def test_an_amount_not_in_plain_decimals_goes_to_the_full_rules(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    _ledger(path, [(SESSION, BudgetLimits(max_calls=9))], 0, 100_000_000_000).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE limits SET max_usd = '1E+2'")  # $100, as str(Decimal) may write it
    reason = hookpath.check(str(path), "s", None, "X", 1, 0)
    assert reason is not None and "cost cap reached: $100.00 of $100.00 in session s" in reason
    assert [hookrules._nanos(t) for t in ("0.50", "100", "5.", ".5", "1E+2", "-1", "", ".", "0.0000000001", "١")] == [
        500_000_000, 100 * 10**9, 5 * 10**9, 500_000_000, None, None, None, None, None, None]


def test_no_limit_means_no_write_and_an_old_ledger_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    SqliteLedger(path).close()
    assert hookpath.check(str(path), "s", None, "X", 1, 0) is None
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 1")  # as if a migration were due: the lean path hands over
    with pytest.raises(hookpath.NeedsLedger):
        hookpath.check(str(path), "s", None, "X", 1, 0)
    junk = ledger_path()
    junk.parent.mkdir(parents=True)
    junk.write_bytes(b"this is not sqlite" * 100)
    assert enforce.check_tool_call({"session_id": "s"}, "X", 1) is None  # no budget known anywhere: allowed
    sidecar.write(sidecar.path_for(str(junk)), {"session:s": {"max_calls": 5}})
    reason = enforce.check_tool_call({"session_id": "s"}, "X", 1)
    assert reason is not None and "boundread budget recover" in reason
    assert enforce.check_tool_call({"session_id": "other"}, "X", 1) is None


def test_the_wal_stays_bounded_and_the_totals_exact(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    with SqliteLedger(path) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=1000))
    for i in range(120):
        assert hookpath.check(str(path), f"s{i % 3}", None, "Read", {"i": i}, 0) is None
        wal = path.with_name(path.name + "-wal")
        assert not wal.exists() or wal.stat().st_size <= hookpath.CHECKPOINT_BYTES + 8 * 4120
    with SqliteLedger(path) as ledger:
        assert ledger.totals(Scope("global")).calls == 120


def _hook_calls(args: tuple[str, int]) -> list[str | None]:
    path, n = args
    return [hookpath.check(path, f"s{n % 3}", "/proj", "Read", {"n": n, "i": i}, 0) for i in range(25)]


def test_eight_hook_processes_at_once_allow_exactly_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    with SqliteLedger(path) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=150))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(8) as pool:
        verdicts = [v for chunk in pool.map(_hook_calls, [(str(path), n) for n in range(8)]) for v in chunk]
    assert verdicts.count(None) == 150
    assert all("call limit reached: call 151 of max 150 in all sessions" in (v or "") for v in verdicts if v)
    with SqliteLedger(path) as ledger:
        assert ledger.totals(Scope("global")).calls == 150
    assert sqlite3.connect(path).execute("SELECT COUNT(*), SUM(allowed) FROM calls").fetchone() == (200, 150)
