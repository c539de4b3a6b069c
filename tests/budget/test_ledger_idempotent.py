"""Issue 18, part 8: every write counts once, whatever is retried or lost.

A COMMIT whose answer is lost landed on the server, yet the client cannot know: ``budget add`` reported it as a
failure (exit 6, "retry") and the retry counted it twice (1,000 -> 2,000 tokens); guard-check denied the call that
the ledger had recorded as allowed. The fault is real: ``pgserver.LoseReply`` forwards the COMMIT to the server and
drops the server's answer to it, closing both sides. Every write now carries a key chosen before it is sent (a
usage row's request id, a tool call's id), so the write is done again and counts once, and the hook's answer is the
one the ledger recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pgserver
import psycopg
import pytest
from typer.testing import CliRunner

from boundread.budget import enforce, hookpath, libpq, pghook
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.postgres import PostgresLedger
from boundread.cli.budget import budget_app

PRICES = '{"m": {"input": 1000}}'  # $0.001 a token: 1,000 tokens are $1.00


@pytest.fixture
def lossy(pg_server: pgserver.Server, pg_url: str) -> Iterator[tuple[pgserver.LoseReply, str]]:
    PostgresLedger(pg_url).close()  # the tables exist: the first COMMIT through the proxy is the write's
    proxy = pgserver.LoseReply(pg_server.port)
    yield proxy, pg_url.replace(f":{pg_server.port}/", f":{proxy.port}/")
    proxy.close()


def _add(*extra: str) -> object:
    args = ["add", "--session", "s", "--model", "m", "--input", "1000", "--json", *extra]
    return CliRunner().invoke(budget_app, args, env={"BOUNDREAD_BUDGET_PRICES": PRICES})


def _calls(url: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT session, tool, allowed FROM calls ORDER BY id").fetchall()


def test_budget_add_with_the_same_id_counts_once(backend: str) -> None:
    first, again = _add("--id", "req_1"), _add("--id", "req_1")
    assert first.exit_code == 0 and again.exit_code == 0, (first.output, again.output)
    assert json.loads(first.stdout)["added"] is True and json.loads(again.stdout)["added"] is False
    other = _add("--id", "req_2")
    assert other.exit_code == 0 and json.loads(other.stdout)["id"] == "req_2"
    with open_ledger() as ledger:
        assert ledger.totals(Scope("session", "s")).input == 2000


def test_budget_add_without_an_id_draws_one_and_counts_each_call(backend: str) -> None:
    ids = {json.loads(_add().stdout)["id"] for _ in range(3)}
    assert len(ids) == 3
    with open_ledger() as ledger:
        assert ledger.totals(Scope("session", "s")).input == 3000


def test_budget_add_whose_commit_answer_is_lost_counts_once(
    lossy: tuple[pgserver.LoseReply, str], pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy, url = lossy
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    done = _add()
    assert proxy.cut == 1  # the COMMIT's answer was really lost
    assert done.exit_code == 0, done.output  # landed: not "failed, retry"
    assert json.loads(done.stdout)["added"] is True
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("session", "s")).input == 1000  # not 0, not 2,000
    proxy.left = 1
    again = _add("--id", "req_9")
    assert again.exit_code == 0 and proxy.cut == 2
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("session", "s")).input == 2000


@pytest.mark.parametrize("lean", [True, False], ids=["libpq", "psycopg"])
def test_a_hook_whose_commit_answer_is_lost_answers_what_the_ledger_recorded(
    lossy: tuple[pgserver.LoseReply, str], pg_url: str, lean: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy, url = lossy
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=1))
    if not lean:
        monkeypatch.setattr(libpq, "LIBPQ", ("libpq-that-is-not-there.so",))
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    assert enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"}) is None  # recorded, allowed
    assert proxy.cut == 1
    assert _calls(pg_url) == [("s", "Bash", 1)]  # once, and as the answer given
    proxy.left = 1
    reason = enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "pwd"})
    assert reason is not None and "call limit reached: call 2 of max 1 in session s" in reason
    assert proxy.cut == 2 and _calls(pg_url) == [("s", "Bash", 1), ("s", "Bash", 0)]  # denied, recorded denied
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("session", "s")).calls == 1


def test_a_retried_hook_with_the_same_call_id_counts_once_on_the_libpq_path(pg_url: str, tmp_path: Path) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=2))
    cache = str(tmp_path / "cache.json")
    verdicts = [pghook.check(pg_url, cache, "s", None, "Bash", {"command": "ls"}, 0, "toolu_A") for _ in range(3)]
    assert verdicts == [None, None, None]  # the same call three times: one call
    assert pghook.check(pg_url, cache, "s", None, "Bash", {"command": "ls"}, 0, "toolu_B") is None
    denied = pghook.check(pg_url, cache, "s", None, "Bash", {"command": "ls"}, 0, "toolu_C")
    assert denied is not None and "call 3 of max 2" in denied
    assert pghook.check(pg_url, cache, "s", None, "Bash", {"command": "ls"}, 0, "toolu_C") == denied  # same answer
    assert _calls(pg_url) == [("s", "Bash", 1), ("s", "Bash", 1), ("s", "Bash", 0)]


def test_a_retried_hook_with_the_same_call_id_counts_once_on_sqlite(tmp_path: Path) -> None:
    path = ledger_path()
    with open_ledger() as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=1))
    assert [hookpath.check(str(path), "s", None, "Read", {"f": 1}, 0, "toolu_A") for _ in range(2)] == [None, None]
    denied = hookpath.check(str(path), "s", None, "Read", {"f": 1}, 0, "toolu_B")
    assert denied is not None and hookpath.check(str(path), "s", None, "Read", {"f": 1}, 0, "toolu_B") == denied
    with open_ledger() as ledger:
        assert ledger.totals(Scope("session", "s")).calls == 1


def test_the_ledger_api_takes_a_call_id_too(backend: str) -> None:
    from boundread.budget.policy import decide

    with open_ledger() as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=1))
        assert ledger.record_call("s", None, "Bash", "d1", 0, decide, call_id="t1") is None
        assert ledger.record_call("s", None, "Bash", "d1", 0, decide, call_id="t1") is None  # the same call
        assert ledger.record_call("s", None, "Bash", "d2", 0, decide, call_id="t2") is not None
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=2))  # raised: the denied call passes now
        assert ledger.record_call("s", None, "Bash", "d2", 0, decide, call_id="t2") is None
        assert ledger.totals(Scope("session", "s")).calls == 2
