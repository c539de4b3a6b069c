"""The PostgreSQL ledger under faults: the password never reaches the agent, every wait is bounded, and odd text
is one key everywhere.

Faults come from a proxy between the ledger and the real server (``pgserver.Stall``): it stops forwarding what the
client sends once a trigger passes, or delivers the server's answer up to a mark and then nothing. Either way it
closes both sides after ``CLOSE_S``, so a wait that was not bounded ends in a wrong verdict, not a hung test.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pgserver
import psycopg
import pytest
from typer.testing import CliRunner

from boundread.budget import enforce, libpq, pghook, pgschema
from boundread.budget.errors import LedgerError
from boundread.budget.hookrules import Unusable
from boundread.budget.ledger import open_ledger
from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.postgres import PostgresLedger
from boundread.cli.budget import budget_app

SECRET = "TopSecret"
CLOSE_S = 30.0  # half of it is several times each bounded wait here (1-2 s), on a loaded machine too
SET_DONE = b"C\x00\x00\x00\x08SET\x00"  # the SET's CommandComplete, the first result of pghook's first script


@pytest.fixture
def via(pg_server: pgserver.Server) -> Iterator[Callable[..., tuple[pgserver.Stall, str]]]:
    made: list[pgserver.Stall] = []

    def make(url: str, **marks: bytes) -> tuple[pgserver.Stall, str]:
        proxy = pgserver.Stall(pg_server.port, close_s=CLOSE_S, **marks)
        made.append(proxy)
        return proxy, url.replace(f":{pg_server.port}/", f":{proxy.port}/")

    yield make
    for proxy in made:
        proxy.close()


def _no_libpq(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(libpq, "LIBPQ", ("libpq-that-is-not-there.so",))


# 1. the password


@pytest.mark.parametrize("lean", [True, False], ids=["libpq", "psycopg"])
@pytest.mark.parametrize("value", [f"postgress://fleet:{SECRET}@127.0.0.1:5432/budget", SECRET],
                         ids=["mistyped scheme", "a bare password"])
def test_a_value_that_is_no_url_is_refused_without_echoing_it(
    value: str, lean: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not lean:
        _no_libpq(monkeypatch)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", value)
    assert enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"}) is None  # no budget seen here
    err = capsys.readouterr().err
    assert "is not a PostgreSQL URL - write it as postgresql://" in err and SECRET not in err
    with pytest.raises(LedgerError) as caught:
        PostgresLedger(value)
    assert "not a PostgreSQL URL" in str(caught.value) and SECRET not in str(caught.value) + caught.value.fix


@pytest.mark.parametrize("lean", [True, False], ids=["libpq", "psycopg"])
def test_a_bad_percent_escape_in_the_password_is_masked(
    pg_server: pgserver.Server, lean: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not lean:
        _no_libpq(monkeypatch)
    url = pg_server.url(password="Top%Secret")
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"})
    err = capsys.readouterr().err
    assert err.startswith("boundread: warning:") and "Secret" not in err, err
    with pytest.raises(LedgerError) as caught:
        PostgresLedger(url)
    text = f"{caught.value} - {caught.value.fix}"
    assert "Secret" not in text and "URL" in text and "percent-encode" in text, text
    assert "rights" not in text  # a URL problem, not the database's


def test_budget_commands_print_no_password() -> None:
    env = {"BOUNDREAD_LEDGER_URL": f"postgres://fleet:{SECRET}@127.0.0.1:1/budget?password={SECRET}x"}
    result = CliRunner().invoke(budget_app, ["status", "--json"], env=env)
    assert result.exit_code != 0 and SECRET not in result.output + (result.stderr or "")


def test_mask_hides_the_url_and_each_password_raw_and_decoded() -> None:
    from boundread.budget.ledgerurl import mask

    url = "postgresql://fleet:Top%40Secret@db:5432/budget?password=Other%2Fone"
    text = f'bad "Top%40Secret", "Top@Secret", Other%2Fone, Other/one in {url}'
    assert mask(text, url) == 'bad "***", "***", ***, *** in postgresql://fleet:***@db:5432/budget'
    assert mask("password=hunter2 refused", "host=db password=hunter2") == "password=*** refused"


# 2. and 6. every wait bounded


def test_a_frozen_server_bounds_the_psycopg_fallback(
    pg_url: str, via: Callable[..., tuple[pgserver.Stall, str]], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=10))
    proxy, url = via(pg_url, up=b"INSERT INTO sessions")  # psycopg read the limits, then the server freezes
    _no_libpq(monkeypatch)
    monkeypatch.setattr(pgschema, "ANSWER_S", 2, raising=False)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    start = time.monotonic()
    reason = enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"})
    took = time.monotonic() - start
    assert proxy.stalled.is_set() and took < CLOSE_S / 2, took
    assert reason is not None and reason.startswith("budget ledger unusable") and "did not answer within 2 s" in reason
    assert not caplog.records  # the interrupted rollback's complaint is not the agent's business
    with PostgresLedger(pg_url) as ledger:
        assert ledger.totals(Scope("global")).calls == 0


def test_a_late_answer_is_not_handed_over_to_psycopg(
    pg_url: str, via: Callable[..., tuple[pgserver.Stall, str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The version query times out: that is Unusable (an error policy), not NeedsLedger (psycopg waits again)."""
    PostgresLedger(pg_url).close()
    proxy, url = via(pg_url, up=b"SET statement_timeout")
    monkeypatch.setattr(pghook, "ANSWER_S", 1.0)
    with pytest.raises(Unusable, match="no answer within 1 s") as caught:
        pghook.check(url, str(tmp_path / "c.json"), "s", None, "Bash", {}, 0)
    assert proxy.stalled.is_set() and not caught.value.limited


def test_each_result_of_a_script_is_waited_for_with_the_deadline(
    pg_url: str, via: Callable[..., tuple[pgserver.Stall, str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The server's answer stops after the SET's result: the version's result must not block ``PQgetResult``."""
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=10))
    proxy, url = via(pg_url, down=SET_DONE)
    monkeypatch.setattr(pghook, "ANSWER_S", 1.0)
    start = time.monotonic()
    with pytest.raises(Unusable, match="no answer within 1 s"):
        pghook.check(url, str(tmp_path / "c.json"), "s", None, "Bash", {}, 0)
    assert proxy.stalled.is_set() and time.monotonic() - start < CLOSE_S / 2


# 3., 5. and the surrogates: one key everywhere


@pytest.mark.parametrize("path", ["sqlite", "libpq", "psycopg"])
@pytest.mark.parametrize("sid", ["a\0b", "a\ud800b"], ids=["NUL", "lone surrogate"])
def test_an_odd_session_id_is_held_to_its_limit_on_every_path(
    sid: str, path: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path != "sqlite":
        monkeypatch.setenv("BOUNDREAD_LEDGER_URL", request.getfixturevalue("pg_url"))
    if path == "psycopg":
        _no_libpq(monkeypatch)
    with open_ledger() as ledger:
        ledger.set_limits(Scope("session", sid), BudgetLimits(max_calls=1))
    payload = {"session_id": sid, "cwd": "/"}
    assert enforce.check_tool_call(payload, "Bash", {"command": "ls"}) is None
    reason = enforce.check_tool_call(payload, "Bash", {"command": "ls"})
    assert reason is not None and "call limit reached: call 2 of max 1" in reason
    with open_ledger() as ledger:
        assert ledger.sessions() == ["a\ufffdb"]
        assert ledger.totals(Scope("session", sid)).calls == 1


def test_odd_text_in_a_transcript_is_recorded_and_ingest_goes_on(tmp_path: Path, backend: str) -> None:
    from helpers_budget import assistant_line

    from boundread.agents.sessionfiles import ingest_all

    lines = [json.loads(assistant_line(i)) for i in range(3)]
    lines[0]["requestId"] = "req\u00000"
    lines[1]["message"]["model"] = "claude\ud800"
    lines[1]["message"]["id"] = "msg\ud8001"
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")  # ASCII: \u escapes
    with open_ledger() as ledger:
        result = ingest_all(ledger, [path], session="s\0", project="/p\ud800")
        assert result.records == 3
        assert ledger.offset(str(path)) == path.stat().st_size
        assert ledger.totals(Scope("session", "s\ufffd")).output == 300
        assert ledger.projects() == ["/p\ufffd"]


def test_ingest_cli_takes_a_surrogate_and_a_nul(tmp_path: Path, backend: str) -> None:
    from helpers_budget import assistant_line

    line = json.loads(assistant_line(0))
    line["requestId"] = "r\u0000\ud800"
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = CliRunner().invoke(budget_app, ["ingest", "--transcript", str(path), "--session", "s", "--json"])
    assert result.exit_code == 0, result.output
    with open_ledger() as ledger:
        assert ledger.totals(Scope("session", "s")).output == 100


# 4. a database not in UTF-8


def test_a_latin1_database_gives_the_same_keys_on_both_connections(pg_server: pgserver.Server, tmp_path: Path) -> None:
    name = f"latin{os.getpid()}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name} ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    url = pg_server.url().replace("/postgres", f"/{name}")
    with PostgresLedger(url) as ledger:
        ledger.set_limits(Scope("session", "café"), BudgetLimits(max_calls=1))
    cache = str(tmp_path / "c.json")
    assert pghook.check(url, cache, "café", None, "Bash", {}, 0) is None
    reason = pghook.check(url, cache, "café", None, "Bash", {}, 0)
    assert reason is not None and "in session café" in reason
    with PostgresLedger(url) as ledger:
        assert ledger.sessions() == ["café"]


# minor: the cache is not rewritten for an empty limits row


def test_an_empty_limits_row_does_not_rewrite_the_cache_on_every_call(pg_url: str, tmp_path: Path) -> None:
    with PostgresLedger(pg_url) as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=100))
        ledger.set_limits(Scope("session", "s"), BudgetLimits())  # a row, no limit in it
    cache = tmp_path / "c.json"
    pghook.check(pg_url, str(cache), "s", None, "Bash", {}, 0)
    first = cache.stat()
    pghook.check(pg_url, str(cache), "s", None, "Bash", {}, 0)
    again = cache.stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    assert '"global"' in cache.read_text(encoding="utf-8")
