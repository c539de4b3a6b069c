"""Issue 14: one PostgreSQL ledger for a fleet - machines (separate state folders) share one budget.

The server is real (``pg_server``); each "machine" is its own ``BOUNDREAD_STATE_DIR``. Faults: a server that is
down, one that accepts and never answers, a wrong password, and a connection dropped mid-transaction.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pgserver
import psycopg
import pytest
from typer.testing import CliRunner

from boundread.budget import enforce, pghook, pgschema
from boundread.budget.errors import LedgerError
from boundread.budget.model import BudgetLimits, CallView, Scope, UsageRecord
from boundread.budget.policy import decide
from boundread.budget.postgres import PostgresLedger
from boundread.cli.budget import budget_app

_CALL_IDS = itertools.count(1)  # a new tool_use_id per call, as the clients give

SRC = Path(__file__).resolve().parents[2] / "src"
CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"


def _payload(session: str, command: str = "ls") -> dict[str, Any]:
    return {"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "cwd": "/", "tool_use_id": f"t{next(_CALL_IDS)}"}


def _guard_check(url: str, state: Path, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOUNDREAD_LEDGER_URL": url, "BOUNDREAD_STATE_DIR": str(state), "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, "-c", CONSOLE], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=60, check=False)


def _denied(result: subprocess.CompletedProcess[str]) -> str | None:
    """The deny reason of a guard-check answer, or None when it allowed."""
    if not result.stdout.strip():
        return None
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    return str(answer["permissionDecisionReason"]) if answer["permissionDecision"] == "deny" else None


def _machine(args: tuple[str, str, int]) -> tuple[int, int]:
    """One writer on one machine: usage through the ledger API, tool calls through guard-check's path."""
    url, state, n = args
    os.environ["BOUNDREAD_STATE_DIR"] = state
    with PostgresLedger(url) as ledger:
        for i in range(50):
            ledger.add_usage(f"s{n}", [UsageRecord("m", 1, 2, 0, 0, cost=Decimal("0.000001"), key=f"{n}-{i}")],
                             project=f"/machine{n % 4}")
    verdicts = [pghook.check(url, f"{state}/cache.json", f"s{n}", None, "Bash", {"i": i}, 0) for i in range(20)]
    return verdicts.count(None), len(verdicts) - verdicts.count(None)


def test_sixteen_writers_on_four_machines_leave_exact_totals(pg_url: str, tmp_path: Path) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=250))
    machines = [tmp_path / f"machine{m}" for m in range(4)]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(16) as pool:
        results = pool.map(_machine, [(pg_url, str(machines[n % 4]), n) for n in range(16)])
    assert sum(a for a, _ in results) == 250 and sum(d for _, d in results) == 16 * 20 - 250
    with PostgresLedger(pg_url) as ledger:
        total = ledger.totals(Scope("global"))
        assert (total.input, total.output, total.calls) == (800, 1600, 250)
        assert total.cost == Decimal("0.0008")
        assert ledger.totals(Scope("project", "/machine1")).input == 200
        assert len(ledger.sessions()) == 16


def test_a_cap_set_on_one_machine_is_enforced_on_another(pg_url: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", pg_url)
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(a))
    runner = CliRunner()
    done = runner.invoke(budget_app, ["set", "--global", "--max-calls", "2", "--max-usd", "0.10"])
    assert done.exit_code == 0, done.stderr
    assert [_denied(_guard_check(pg_url, b, _payload("on-b", f"echo {i}"))) for i in range(2)] == [None, None]
    third = _denied(_guard_check(pg_url, c, _payload("on-c")))
    assert third is not None and "call limit reached: call 3 of max 2 in all sessions" in third
    runner.invoke(budget_app, ["set", "--global", "--max-calls", "100"])  # raised on machine a ...
    assert _denied(_guard_check(pg_url, c, _payload("on-c", "pwd"))) is None  # ... allowed on c at once
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(c))
    monkeypatch.setenv("BOUNDREAD_BUDGET_PRICES", '{"m": {"input": 100000}}')  # $0.10 a token
    done = runner.invoke(budget_app, ["add", "--session", "on-c", "--model", "m", "--input", "1"])
    assert done.exit_code == 0, done.stderr
    spent = _denied(_guard_check(pg_url, b, _payload("on-b", "date")))
    assert spent is not None and "cost cap reached: $0.10 of $0.10 in all sessions" in spent
    status = runner.invoke(budget_app, ["status", "--json"])
    assert status.exit_code == 0, status.stderr
    assert '"session:on-b"' in status.stdout and '"session:on-c"' in status.stdout


def _listener() -> tuple[socket.socket, int]:
    """A server that accepts connections and never says a word (a hung or overloaded database)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(sock.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return sock, int(sock.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    sock, port = _listener()
    yield port
    sock.close()


@pytest.mark.parametrize("fault", ["down", "silent", "password"])
def test_an_unusable_server_is_one_line_within_the_connect_timeout(
    pg_server: pgserver.Server, fault: str, silent_port: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = {"down": pg_server.url(port=pgserver.free_port()), "silent": pg_server.url(port=silent_port),
           "password": pg_server.url(password="wrong")}[fault]
    why = {"down": "Connection refused", "silent": "timeout expired", "password": "password authentication failed"}
    start = time.monotonic()
    with pytest.raises(LedgerError) as caught:
        PostgresLedger(url)
    assert time.monotonic() - start < 5 * pgschema.CONNECT_S  # a silent server: the connect timeout ended it (why)
    text = str(caught.value)
    assert "cannot reach the budget ledger" in text and why[fault] in text and "\n" not in text
    assert "wrong" not in text and pgserver.PASSWORD not in text  # never the password
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    result = CliRunner().invoke(budget_app, ["status"])
    assert result.exit_code == 6 and result.stdout == ""
    assert result.stderr.startswith("boundread: error: cannot reach the budget ledger")
    assert result.stderr.count("\n") == 1
    start = time.monotonic()
    allowed = _guard_check(url, tmp_path / "m", _payload("s"))
    assert time.monotonic() - start < 5 * pgschema.CONNECT_S  # 2 s connect timeout, several times over
    assert _denied(allowed) is None  # no limit known here: allowed, warned
    assert "boundread: warning: cannot reach the budget ledger" in allowed.stderr and why[fault] in allowed.stderr


def test_a_server_down_denies_the_calls_whose_limits_this_machine_has_seen(
    pg_url: str, pg_server: pgserver.Server, tmp_path: Path
) -> None:
    machine = tmp_path / "m"
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=10))
    assert _denied(_guard_check(pg_url, machine, _payload("s"))) is None  # seen, and remembered
    cache = machine / "budget.postgres.limits.json"
    assert json.loads(cache.read_text())["limits"] == {"global": {"max_calls": 10}}
    down = pg_server.url(port=pgserver.free_port())
    reason = _denied(_guard_check(down, machine, _payload("s")))
    assert reason is not None and reason.startswith("budget ledger unusable: cannot reach the budget ledger")
    assert enforce.is_recovery({"command": "boundread budget recover"})  # the way out is never denied


def test_a_server_that_stops_answering_mid_call_is_given_up(
    pg_url: str, pg_server: pgserver.Server, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=10))
    proxy = pgserver.Stall(pg_server.port, close_s=30.0)  # never the proxy: only the 1 s deadline ends the wait
    url = pg_url.replace(f":{pg_server.port}/", f":{proxy.port}/")
    monkeypatch.setattr(pghook, "ANSWER_S", 1.0)
    script = pghook.Conn.script

    def freeze_at_begin(self: pghook.Conn, sql: str) -> pghook.Rows:
        if sql == "BEGIN":  # the limits were read: the server freezes with the call half-way
            proxy.stalled.set()
        return script(self, sql)

    monkeypatch.setattr(pghook.Conn, "script", freeze_at_begin)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    start = time.monotonic()
    reason = enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"})
    assert time.monotonic() - start < 15  # the deadline's words below: well before the proxy would close
    assert reason is not None and "no answer within 1 s" in reason and reason.startswith("budget ledger unusable")
    proxy.close()
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("global")).calls == 0


class _Killing(Sequence[UsageRecord]):
    """Records that end the ledger's server connection while the transaction is being written."""

    def __init__(self, url: str, pid: int, records: list[UsageRecord]) -> None:
        self.url, self.pid, self.records = url, pid, records

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i: Any) -> Any:
        return self.records[i]

    def __iter__(self) -> Iterator[UsageRecord]:
        for i, rec in enumerate(self.records):
            if i == len(self.records) // 2:
                with psycopg.connect(self.url, autocommit=True) as other:
                    other.execute("SELECT pg_terminate_backend(%s)", (self.pid,))
            yield rec


def test_a_connection_dropped_mid_transaction_loses_nothing(pg_url: str) -> None:
    records = [UsageRecord("m", 10, 1, key=f"k{i}", cost=Decimal("0.001")) for i in range(6)]
    with PostgresLedger(pg_url) as ledger:
        ledger.add_usage("s", records[:1], transcript=("/t.jsonl", 100))
        with pytest.raises(LedgerError, match="cannot reach the budget ledger") as caught:
            ledger.add_usage("s", _Killing(pg_url, ledger.backend_pid(), records), transcript=("/t.jsonl", 900))
        assert "\n" not in str(caught.value)
    with PostgresLedger(pg_url) as ledger:  # the half-written change left nothing: not the rows, not the offset
        assert ledger.totals(Scope("session", "s")).input == 10 and ledger.offset("/t.jsonl") == 100
        assert ledger.add_usage("s", records, transcript=("/t.jsonl", 900)) == 5  # the next ingest: exact
        assert ledger.totals(Scope("session", "s")).input == 60 and ledger.offset("/t.jsonl") == 900
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=5))
        pid = ledger.backend_pid()

        def kill_then_decide(view: CallView) -> Any:
            with psycopg.connect(pg_url, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (pid,))
            return decide(view)

        with pytest.raises(LedgerError, match="cannot reach the budget ledger"):
            ledger.record_call("s", None, "Bash", "d", 0, kill_then_decide)
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("global")).calls == 0


def test_budget_recover_says_it_is_for_the_sqlite_ledger(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", pg_url)
    result = CliRunner().invoke(budget_app, ["recover"])
    assert result.exit_code == 6
    assert "budget recover repairs the local SQLite ledger" in result.stderr and "pg_dump" in result.stderr
    assert pgserver.PASSWORD not in result.stderr


def test_the_url_can_come_from_the_user_config(pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "home" / ".config" / "boundread" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[guard]\nline_cap = 500\n\n[budget]\nledger_url = "{pg_url}"\n', encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(budget_app, ["set", "--session", "cfg", "--max-calls", "7"]).exit_code == 0
    with PostgresLedger(pg_url) as ledger:
        assert ledger.limits(Scope("session", "cfg")).max_calls == 7
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", "")  # empty: the local SQLite ledger, whatever the file says
    status = runner.invoke(budget_app, ["status", "--json"])
    assert status.exit_code == 0 and '"cfg"' not in status.stdout
