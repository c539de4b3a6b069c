"""The ledger under faults (issue 9): a damaged page, an emptied or missing file, a state folder SQLite cannot
write to, a write that fails mid-call. Sessions without a budget go on; budgeted ones are denied with the
recovery command, which is itself allowed; every ``budget`` command says what happened in one line, exit 6.

Fault injection, honestly: pages of the SQLite file are overwritten with junk; the file is truncated to 0
bytes or deleted; the tests run as root, where chmod stops no write, so an unwritable state folder is
simulated by a state folder under a regular file (nothing can be created there) and by a directory in the
place of the ledger's ``-wal`` file (SQLite cannot open its log, as in a read-only folder); a
failing write is a trigger that aborts the insert of a call.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from helpers_budget import write_transcript
from typer.testing import CliRunner

from boundread.budget import enforce, sidecar
from boundread.budget.errors import LedgerError
from boundread.budget.ledger import ledger_path
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.budget.recover import recover
from boundread.budget.sqlite import SqliteLedger
from boundread.cli.budget import budget_app

runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[2] / "src")
RECOVER = "boundread budget recover"


def run(*args: str, stdin: str | None = None) -> object:
    return runner.invoke(budget_app, list(args), input=stdin)


def _ledger_with_budget(*, rows: int = 300) -> Path:
    """A ledger: session 'b' has a budget, sessions 'f*' have none; enough rows to fill several pages."""
    path = ledger_path()
    with SqliteLedger(path) as ledger:
        ledger.set_limits(Scope("session", "b"), BudgetLimits(max_calls=50, max_usd=None))
        for i in range(rows):
            ledger.add_usage(f"f{i % 7}", [UsageRecord("m", 10, 1, key=f"k{i}", message=f"m{i}")])
    _checkpoint(path)
    return path


def _damage(path: Path) -> None:
    """Overwrite every page but the first (the schema) with junk, in the middle of the file."""
    size = path.stat().st_size
    with open(path, "r+b") as f:
        for page in range(1, size // 4096):
            f.seek(page * 4096)
            f.write(b"\xa5" * 4096)


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the file (the damage goes where SQLite reads), and close (``with`` alone does not)."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _one_error_line(result: object, *needles: str) -> None:
    assert result.exit_code == 6, (result.exit_code, result.stdout, result.stderr)  # type: ignore[attr-defined]
    err = result.stderr  # type: ignore[attr-defined]
    assert err.startswith("boundread: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err + result.stdout  # type: ignore[attr-defined]
    for needle in needles:
        assert needle in err, err


BUDGET_COMMANDS = [
    ("set", "--session", "x", "--max-calls", "3"),
    ("add", "--session", "b", "--model", "claude-sonnet-4-5", "--input", "5"),
    ("status",),
    ("status", "--session", "b"),
    ("check", "--session", "b"),
    ("reset", "--session", "b"),
    ("exec", "--session", "b", "--", "true"),
]


def test_a_damaged_page_blocks_only_the_budgeted_sessions(capsys: pytest.CaptureFixture[str]) -> None:
    path = _ledger_with_budget()
    _damage(path)
    capsys.readouterr()
    assert enforce.check_tool_call({"session_id": "f1"}, "Bash", {"command": "ls"}) is None
    assert "boundread: warning:" in capsys.readouterr().err
    reason = enforce.check_tool_call({"session_id": "b"}, "Bash", {"command": "ls"})
    assert reason is not None and f"run `{RECOVER}`" in reason and "malformed" in reason
    assert enforce.check_tool_call({"session_id": "b"}, "Bash", {"command": RECOVER}) is None  # its own fix


@pytest.mark.parametrize("args", BUDGET_COMMANDS, ids=[" ".join(a[:2]) for a in BUDGET_COMMANDS])
def test_every_budget_command_on_a_damaged_page_is_one_line_exit_6(args: tuple[str, ...]) -> None:
    _damage(_ledger_with_budget())
    _one_error_line(run(*args), RECOVER)


def test_recover_moves_a_damaged_ledger_aside_and_keeps_the_limits() -> None:
    path = _ledger_with_budget()
    _damage(path)
    result = run("recover", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["changed"] and data["restored_limits"] == ["session:b"] and Path(data["moved_to"]).is_file()
    assert data["recount"] is True  # the usage table could not be read whole: offsets dropped
    with SqliteLedger(path) as ledger:
        assert ledger.limits(Scope("session", "b")).max_calls == 50
    assert run("status", "--session", "b").exit_code == 0
    again = run("recover")
    assert again.exit_code == 0 and "healthy; nothing to recover" in again.stdout


def test_recover_salvages_what_still_reads() -> None:
    """A damaged index page: every table still reads (quick_check sees the damage), so all of it is kept."""
    path = _ledger_with_budget(rows=5)
    with closing(sqlite3.connect(path)) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'usage_by_key'").fetchone()
    with open(path, "r+b") as f:
        f.seek((root - 1) * 4096)
        f.write(b"\xa5" * 4096)
    result = recover(path)
    assert result.moved_to is not None and "damaged" in (result.problem or "")
    assert result.salvaged["usage"] == 5 and not result.lost and not result.recount
    with SqliteLedger(path) as ledger:
        assert ledger.totals(Scope("global")).input == 50
        assert ledger.totals(Scope("session", "f1")).input == 10
        assert ledger.limits(Scope("session", "b")).max_calls == 50


def test_a_ledger_emptied_to_0_bytes_forgets_no_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "b.jsonl"
    write_transcript(transcript, 0, 3)
    assert run("set", "--session", "b", "--max-tokens", "1000000").exit_code == 0
    assert run("ingest", "--transcript", str(transcript), "--session", "b").exit_code == 0
    before = json.loads(run("status", "--session", "b", "--json").stdout)["scopes"][0]["spent"]["tokens"]
    path = ledger_path()
    _checkpoint(path)
    for tail in ("-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    path.write_bytes(b"")
    capsys.readouterr()
    reason = enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"})
    assert reason is not None and "emptied or replaced" in reason and RECOVER in reason
    assert enforce.check_tool_call({"session_id": "free"}, "Read", {"file_path": "x"}) is None
    _one_error_line(run("status"), "emptied or replaced", RECOVER)
    _one_error_line(run("set", "--session", "b", "--max-calls", "9"), RECOVER)
    fixed = run("recover")
    assert fixed.exit_code == 0 and "restored the limits of 1 scope(s): session:b" in fixed.stdout
    assert run("ingest", "--transcript", str(transcript), "--session", "b").exit_code == 0  # recounted
    after = json.loads(run("status", "--session", "b", "--json").stdout)["scopes"][0]
    assert after["spent"]["tokens"] == before and after["limits"]["max_tokens"] == 1_000_000


def test_a_deleted_ledger_is_noticed_without_recreating_it() -> None:
    path = _ledger_with_budget(rows=1)
    for tail in ("", "-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    reason = enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"})
    assert reason is not None and "is missing" in reason and RECOVER in reason
    assert enforce.check_tool_call({"session_id": "f0"}, "Read", {"file_path": "x"}) is None
    assert not path.exists()  # guard-check made no new, empty ledger
    with pytest.raises(LedgerError, match="is missing"):
        SqliteLedger(path)
    _one_error_line(run("add", "--session", "b", "--model", "m", "--input", "1"), RECOVER)
    assert run("recover").exit_code == 0
    with SqliteLedger(path) as ledger:
        assert ledger.limits(Scope("session", "b")).max_calls == 50


def test_a_state_folder_that_cannot_be_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(blocker / "state"))
    _one_error_line(run("set", "--session", "b", "--max-calls", "3"), "BOUNDREAD_STATE_DIR")
    _one_error_line(run("recover"), "BOUNDREAD_STATE_DIR")
    assert enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"}) is None


def test_a_state_folder_sqlite_cannot_write_to(capsys: pytest.CaptureFixture[str]) -> None:
    """A directory where the ``-wal`` file goes: SQLite cannot open its log, as in a read-only folder."""
    path = _ledger_with_budget(rows=3)
    for tail in ("-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    Path(f"{path}-wal").mkdir()
    capsys.readouterr()
    assert enforce.check_tool_call({"session_id": "f1"}, "Read", {"file_path": "x"}) is None
    reason = enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"})
    assert reason is not None and RECOVER in reason
    _one_error_line(run("status"), RECOVER)
    fixed = run("recover", "--json")
    assert fixed.exit_code == 0, fixed.stderr
    data = json.loads(fixed.stdout)
    assert data["salvaged"]["usage"] == 3 and not data["recount"]  # read through the main file, immutable
    assert Path(f"{data['moved_to']}-wal").is_dir() and not Path(f"{path}-wal").is_dir()
    assert enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"}) is None


def test_a_write_that_fails_mid_call_denies_the_budgeted_session_only() -> None:
    path = _ledger_with_budget(rows=1)
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TRIGGER full BEFORE INSERT ON calls BEGIN SELECT RAISE(ABORT, 'disk is full'); END")
    reason = enforce.check_tool_call({"session_id": "b"}, "Read", {"file_path": "x"})
    assert reason is not None and "disk is full" in reason and RECOVER in reason
    assert enforce.check_tool_call({"session_id": "f0"}, "Read", {"file_path": "x"}) is None


def test_the_guard_allows_the_recovery_it_suggests(tmp_path: Path) -> None:
    """The deny names `boundread budget recover`: guard-check itself must let that command through."""
    pytest.importorskip("boundread.hook.main")
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("global"), BudgetLimits(max_calls=100))
        ledger.add_usage("s", [UsageRecord("m", 1, key=f"k{i}") for i in range(300)])
    path = ledger_path()
    _checkpoint(path)
    _damage(path)
    code = "import sys; from boundread.hook.main import run; sys.exit(run(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": SRC}

    def guard(*args: str, payload: dict[str, object] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code, *args], input=json.dumps(payload) if payload else "",
                              capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)

    denied = guard("--command", "ls")  # global limits: every session has a budget
    assert denied.returncode == 2 and RECOVER in denied.stderr + denied.stdout
    allowed = guard("--command", RECOVER)
    assert allowed.returncode == 0 and "deny" not in allowed.stdout, allowed
    hook = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
            "tool_input": {"command": RECOVER}, "transcript_path": str(tmp_path / "t.jsonl")}
    answer = guard(payload=hook)
    assert answer.returncode == 0 and '"deny"' not in answer.stdout, answer


def test_the_sidecar_is_searched_exactly() -> None:
    odd = 'x"; {\n ☃'
    path = str(ledger_path().parent / "budget.limits.json")
    Path(path).parent.mkdir(parents=True)
    assert sidecar.has_scope(path, ["global"]) is None and not sidecar.lists_any(path)
    sidecar.write(path, {f"session:{odd}": {"max_calls": 1}, "project:/p": {"deny_tools": ["global"]}})
    assert sidecar.has_scope(path, [f"session:{odd}"]) is True
    assert sidecar.has_scope(path, ["global", "session:x"]) is False  # "global" as a value is no scope
    assert sidecar.read(path) == {f"session:{odd}": {"max_calls": 1}, "project:/p": {"deny_tools": ["global"]}}
    Path(path).write_text("garbage")
    assert sidecar.has_scope(path, ["global"]) is True  # unknown: treated as budgeted
    _one_error_line(run("status"), "unreadable", RECOVER)


def test_the_sidecar_follows_every_change_of_limits() -> None:
    assert run("set", "--session", "a", "--max-calls", "3").exit_code == 0
    assert run("set", "--global", "--max-depth", "2").exit_code == 0
    side = Path(sidecar.path_for(str(ledger_path())))
    assert sidecar.read(str(side)) == {"session:a": {"max_calls": 3}, "global": {"max_depth": 2}}
    assert run("reset", "--session", "a", "--limits").exit_code == 0
    assert sidecar.read(str(side)) == {"global": {"max_depth": 2}}
    side.unlink()  # an older boundread's ledger has none: the next open writes it
    with SqliteLedger():
        pass
    assert sidecar.read(str(side)) == {"global": {"max_depth": 2}}


def test_recover_keeps_the_spawns_a_halt_and_which_agent_spent(tmp_path: Path) -> None:
    """What schema v4 and v5 added is salvaged too: the spawns --max-agents counts would otherwise start from 0."""
    path = _ledger_with_budget(rows=5)
    with closing(sqlite3.connect(path)) as db:
        db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES ('b', 'kid', NULL, 1, 1.0)")
        db.execute("UPDATE sessions SET halted = 'repeat policy' WHERE id = 'f1'")
        db.execute("UPDATE usage SET agent = 'kid', at = 2.0 WHERE session = 'f1'")
        db.commit()
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'usage_by_key'").fetchone()
    with open(path, "r+b") as f:
        f.seek((root - 1) * 4096)
        f.write(b"\xa5" * 4096)
    result = recover(path)
    assert result.salvaged["agents"] == 1 and not result.lost
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT agent, depth FROM agents").fetchall() == [("kid", 1)]
        assert db.execute("SELECT halted FROM sessions WHERE id = 'f1'").fetchone() == ("repeat policy",)
        assert db.execute("SELECT DISTINCT agent, at FROM usage WHERE session = 'f1'").fetchall() == [("kid", 2.0)]
