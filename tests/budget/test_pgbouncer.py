"""Issue 18, part 8: the PostgreSQL ledger through a real pgbouncer in transaction mode.

pgbouncer hands each transaction to whichever server connection is free. psycopg prepared a statement after five
runs of it (``_pg3_0``) on one server connection and looked for it on another: every later ``budget status``
failed (``prepared statement "_pg3_0" already exists``, blamed on "the role's rights"), and a session-level
``SET statement_timeout`` stayed on a server connection that other clients then got. The pool here is smaller than
the clients, so connections really are shared; each test has a database of its own (pgbouncer passes no
``options``, so the per-test schema of the other tests cannot be used).
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pgserver
import psycopg
import pytest
from typer.testing import CliRunner

from boundread.budget import pghook
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.budget.postgres import PostgresLedger
from boundread.cli.budget import budget_app

_NAMES = itertools.count(1)
SRC = str(Path(__file__).resolve().parents[2] / "src")
CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"


@pytest.fixture(scope="module")
def bouncer(pg_server: pgserver.Server) -> Iterator[pgserver.Bouncer]:
    try:
        started = pgserver.start_bouncer(pg_server, pool_size=3)
    except (RuntimeError, OSError) as exc:
        pytest.fail(f"the pgbouncer tests need pgbouncer (.ci/run installs it): {exc}")
    yield started
    started.stop()


@pytest.fixture
def urls(pg_server: pgserver.Server, bouncer: pgserver.Bouncer) -> tuple[str, str]:
    """A new database: its URL through pgbouncer, and straight to the server (to look behind pgbouncer's back)."""
    name = f"bouncer{os.getpid()}_{next(_NAMES)}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    direct = pg_server.url().replace("/postgres", f"/{name}")
    return direct.replace(f":{pg_server.port}/", f":{bouncer.port}/"), direct


def test_budget_status_keeps_working_through_transaction_pooling(
    urls: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    through, direct = urls
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", through)
    runner = CliRunner()
    assert runner.invoke(budget_app, ["set", "--global", "--max-calls", "50"]).exit_code == 0
    for i in range(8):
        done = runner.invoke(budget_app, ["add", "--session", f"s{i}", "--model", "m", "--input", "10"])
        assert done.exit_code == 0, done.output
    for _ in range(8):  # psycopg prepared a statement after its fifth run: one pooled connection had it, not the next
        status = runner.invoke(budget_app, ["status", "--json"])
        assert status.exit_code == 0, status.output
    scopes = json.loads(status.stdout)["scopes"]
    assert next(s for s in scopes if s["scope"] == "global")["spent"]["input"] == 80
    with psycopg.connect(direct) as conn:  # nothing prepared by boundread on any server connection
        assert conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone() == (0,)


def test_no_setting_stays_on_a_pooled_connection(urls: tuple[str, str], tmp_path: Path) -> None:
    through, _ = urls
    with PostgresLedger(through) as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=10))
        ledger.add_usage("s", [UsageRecord("m", 1, key="k1")])
    cache = str(tmp_path / "cache.json")
    for i in range(4):
        assert pghook.check(through, cache, "s", None, "Bash", {"i": i}, 0) is None
    seen = set()
    conns = [psycopg.connect(through, autocommit=True, prepare_threshold=None) for _ in range(3)]
    try:  # three clients at once hold the pool's three server connections: each one's settings are seen
        for conn in conns:
            conn.execute("BEGIN")
            seen.add(conn.execute("SHOW statement_timeout").fetchone()[0])
            seen.add(conn.execute("SHOW lock_timeout").fetchone()[0])
            seen.add(conn.execute("SHOW idle_in_transaction_session_timeout").fetchone()[0])
    finally:
        for conn in conns:
            conn.close()
    assert seen == {"0"}


def _machine(args: tuple[str, str, int]) -> tuple[int, int]:
    url, state, n = args
    os.environ["BOUNDREAD_STATE_DIR"] = state
    with PostgresLedger(url) as ledger:
        for i in range(10):
            ledger.add_usage(f"s{n}", [UsageRecord("m", 1, 2, key=f"{n}-{i}")], project=f"/p{n % 2}")
    verdicts = [pghook.check(url, f"{state}/cache.json", f"s{n}", None, "Bash", {"i": i}, 0) for i in range(6)]
    return verdicts.count(None), len(verdicts) - verdicts.count(None)


def test_sixteen_processes_through_pgbouncer_leave_exact_totals_and_exactly_the_cap(
    urls: tuple[str, str], tmp_path: Path
) -> None:
    through, _ = urls
    with PostgresLedger(through) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=25))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(16) as pool:
        results = pool.map(_machine, [(through, str(tmp_path / f"m{n % 4}"), n) for n in range(16)])
    assert sum(a for a, _ in results) == 25 and sum(d for _, d in results) == 16 * 6 - 25
    with PostgresLedger(through) as ledger:
        total = ledger.totals(Scope("global"))
        assert (total.input, total.output, total.calls) == (160, 320, 25)


def test_guard_check_through_pgbouncer(urls: tuple[str, str], tmp_path: Path) -> None:
    through, _ = urls
    with PostgresLedger(through) as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=1))
    env = {**os.environ, "BOUNDREAD_LEDGER_URL": through, "BOUNDREAD_STATE_DIR": str(tmp_path), "PYTHONPATH": SRC}
    answers = []
    for i in range(2):
        payload = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": f"echo {i}"}, "cwd": str(tmp_path), "tool_use_id": f"toolu_{i}"}
        done = subprocess.run([sys.executable, "-c", CONSOLE], input=json.dumps(payload), capture_output=True,
                              text=True, env=env, timeout=60, check=False)
        answers.append(done.stdout)
    assert answers[0] == "" and "call limit reached: call 2 of max 1 in session s" in answers[1]
