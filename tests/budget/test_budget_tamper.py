"""Tampering that gets past guard-check is noticed (issue 18, budget/sidecar.py): the state folder deleted whole
(the seal still lists the limits), a ledger whose counters were edited, or that was deleted and rebuilt by
``budget recover`` (the cap mark keeps a capped session capped), until the user raises the limit or resets it.

The tampering itself is done here directly (shutil, sqlite3), as an agent that evaded the guard would.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.budget import sidecar
from boundread.budget.ledger import ledger_path
from boundread.cli.budget import budget_app
from boundread.hook.main import run as guard_check

SESSION = "s-tamper"
_CALL_IDS = itertools.count(1)
USER = "ask the user to do it from their own terminal"


def budget(*args: str) -> object:
    return CliRunner().invoke(budget_app, list(args))


def _call(cwd: Path, command: str = "echo hi", session: str = SESSION) -> str | None:
    """guard-check on one Bash PreToolUse payload: the deny reason, or None."""
    payload = {"session_id": session, "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
               "tool_use_id": f"t{next(_CALL_IDS)}"}  # a new id per call, as the clients give
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert guard_check([], stdin=io.StringIO(json.dumps(payload))) == 0
    hook = json.loads(out.getvalue())["hookSpecificOutput"] if out.getvalue() else {}
    return str(hook["permissionDecisionReason"]) if hook.get("permissionDecision") == "deny" else None


def _side() -> Path:
    return Path(sidecar.path_for(str(ledger_path())))


def _capped(tmp_path: Path, cap: int) -> None:
    """Session SESSION spends its whole cap of ``cap`` calls, and the next one is denied."""
    assert budget("set", "--session", SESSION, "--max-calls", str(cap)).exit_code == 0  # type: ignore[attr-defined]
    for at in range(cap):
        assert _call(tmp_path, f"echo {at}") is None
    assert f"call limit reached: call {cap + 1} of max {cap}" in (_call(tmp_path) or "")


def _zero_counters() -> None:
    with contextlib.closing(sqlite3.connect(ledger_path())) as db:
        db.execute("UPDATE sessions SET calls = 0")
        db.execute("DELETE FROM calls")
        db.commit()


def test_deleting_the_state_folder_is_noticed_through_the_seal(tmp_path: Path) -> None:
    """`rm` of the ledger and its limits file left no limits anywhere; the seal beside the folder still has them."""
    assert budget("set", "--session", SESSION, "--max-calls", "5").exit_code == 0  # type: ignore[attr-defined]
    seal = Path(sidecar.seal_for(str(_side())) or "")
    assert seal.parent == ledger_path().parent.parent and seal.read_text() == _side().read_text()
    shutil.rmtree(ledger_path().parent)
    reason = _call(tmp_path)
    assert reason is not None and "is missing" in reason and "sealed copy" in reason and "their own terminal" in reason
    assert _call(tmp_path, session="free") is None  # a session without a budget goes on
    refused = _call(tmp_path, "boundread budget recover") or ""
    assert USER in refused  # the user's repair, not the agent's: a deleted ledger is no fault
    status = budget("status")
    assert status.exit_code == 6 and "budget recover" in status.stderr  # type: ignore[attr-defined]
    assert budget("recover").exit_code == 0  # type: ignore[attr-defined]
    assert sidecar.read(str(_side())) == {f"session:{SESSION}": {"max_calls": 5}}
    assert _call(tmp_path) is None


def test_a_capped_session_stays_capped_when_its_counters_are_edited(tmp_path: Path) -> None:
    """`sqlite3 ... UPDATE` on the ledger: the cap mark still denies, until the user raises the limit."""
    _capped(tmp_path, 3)
    assert f"session:{SESSION}" in sidecar.marks(str(_side()))
    _zero_counters()
    reason = _call(tmp_path)
    assert reason is not None and "call limit reached" in reason and "changed since" in reason and USER in reason
    assert budget("set", "--session", SESSION, "--max-calls", "10").exit_code == 0  # type: ignore[attr-defined]
    assert sidecar.marks(str(_side())) == {}
    assert _call(tmp_path) is None


def test_a_deleted_ledger_rebuilt_by_recover_is_no_fresh_budget(tmp_path: Path) -> None:
    """The issue's run: rm of the ledger alone, then `budget recover`, gave 5 more calls under a cap of 5."""
    _capped(tmp_path, 5)
    path = ledger_path()
    for tail in ("", "-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    agent = _call(tmp_path, "boundread budget recover")
    assert agent is not None and USER in agent  # a deleted ledger is no fault for the agent to repair
    assert budget("recover").exit_code == 0  # type: ignore[attr-defined]
    for _ in range(3):
        reason = _call(tmp_path)
        assert reason is not None and "call limit reached: call 6 of max 5" in reason, reason


def test_an_emptied_ledger_repaired_by_an_agent_keeps_the_cap(tmp_path: Path) -> None:
    """A 0-byte ledger: an agent under a budget may run the repair (the file is there: a fault to fix), which puts
    the limits back - and the mark keeps the capped session capped though its counters start again from 0."""
    _capped(tmp_path, 2)
    assert budget("set", "--session", "other", "--max-calls", "100").exit_code == 0  # type: ignore[attr-defined]
    path = ledger_path()
    for tail in ("-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    path.write_bytes(b"")
    assert "emptied or replaced" in (_call(tmp_path, session="other") or "")
    assert _call(tmp_path, "boundread budget recover", session="other") is None
    assert budget("recover").exit_code == 0  # type: ignore[attr-defined]
    assert _call(tmp_path, session="other") is None
    reason = _call(tmp_path)
    assert reason is not None and "call limit reached" in reason and "changed since" in reason


def test_a_reset_by_the_user_clears_the_mark(tmp_path: Path) -> None:
    _capped(tmp_path, 2)
    assert budget("reset", "--session", SESSION).exit_code == 0  # type: ignore[attr-defined]
    assert sidecar.marks(str(_side())) == {}
    assert _call(tmp_path) is None


def test_a_project_mark_binds_the_project_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A capped project's mark denies its sessions, not a session that started in a folder below it."""
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert budget("set", "--project", "--max-calls", "1").exit_code == 0  # type: ignore[attr-defined]
    assert _call(tmp_path, session="p1") is None
    assert _call(tmp_path, session="p1") is not None
    assert f"project:{tmp_path.resolve()}" in sidecar.marks(str(_side()))
    _zero_counters()
    assert "changed since" in (_call(tmp_path, session="p2") or "")
    sub = tmp_path / "sub"
    sub.mkdir()
    assert _call(sub, session="p3") is None


def test_a_mark_is_never_read_as_a_limit_and_goes_with_its_limits() -> None:
    side = str(_side())
    Path(side).parent.mkdir(parents=True)
    sidecar.write(side, {"session:a": {"max_calls": 1}})
    assert sidecar.mark(side, "session:a", "call limit reached")
    assert not sidecar.mark(side, "session:b", "no limits: no mark")
    assert sidecar.has_scope(side, ["session:a"]) and sidecar.read(side) == {"session:a": {"max_calls": 1}}
    sidecar.write(side, {"global": {"max_calls": 1}})  # the user cleared a's limits
    assert sidecar.marks(side) == {} and not sidecar.has_scope(side, ["session:a"])
    assert sidecar.seal_for(str(Path(side).with_name("budget.postgres.limits.json"))) is None  # a cache: no seal
