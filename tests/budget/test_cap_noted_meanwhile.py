"""The call that fills a cap is allowed, even when another call notes the cap before it has answered.

Two hooks at once on a cap of 3 calls, with 2 spent: the ledger counts the first as the 3rd call and allows it;
the second finds the cap reached and notes it in the sidecar (budget/sidecar.py, the mark that keeps a capped
session capped when its counters are edited). The first then read the marks and denied itself, though the ledger
had counted it: CI's 64 hooks on a cap of 25 saw 24 allowed and 25 counted. Here the second hook's mark is put in
exactly between the first one's ledger transaction and its answer.
"""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.budget import hookpath, sidecar
from boundread.budget.ledger import ledger_path
from boundread.cli.budget import budget_app
from boundread.hook.main import run as guard_check

SESSION = "s-race"
REASON = "call limit reached: call 4 of max 3 in session s-race"


def _call(cwd: Path, n: int) -> str | None:
    """guard-check on one Bash PreToolUse payload: the deny reason, or None."""
    payload = {"session_id": SESSION, "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": f"echo {n}"}, "tool_use_id": f"toolu_{n}"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert guard_check([], stdin=io.StringIO(json.dumps(payload))) == 0
    hook = json.loads(out.getvalue())["hookSpecificOutput"] if out.getvalue() else {}
    return str(hook["permissionDecisionReason"]) if hook.get("permissionDecision") == "deny" else None


def _counted() -> int:
    with contextlib.closing(sqlite3.connect(ledger_path())) as db:
        return int(db.execute("SELECT calls FROM sessions WHERE id = ?", (SESSION,)).fetchone()[0])


def test_the_call_that_fills_the_cap_is_allowed_when_a_later_one_notes_it_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert CliRunner().invoke(budget_app, ["set", "--session", SESSION, "--max-calls", "3"]).exit_code == 0
    assert _call(tmp_path, 1) is None
    assert _call(tmp_path, 2) is None
    side = sidecar.path_for(str(ledger_path()))
    real = hookpath.check

    def then_another_caps_it(*args: Any, **kwargs: Any) -> str | None:
        verdict = real(*args, **kwargs)  # the ledger counts this call: the 3rd of 3
        assert sidecar.mark(side, f"session:{SESSION}", REASON)  # the 4th, at once, found the cap and noted it
        return verdict

    monkeypatch.setattr(hookpath, "check", then_another_caps_it)
    assert _call(tmp_path, 3) is None
    assert _counted() == 3
    monkeypatch.setattr(hookpath, "check", real)
    assert "call limit reached" in (_call(tmp_path, 4) or "")
    assert _counted() == 3


def test_a_cap_noted_before_the_call_still_denies_it_when_the_counters_went_down(tmp_path: Path) -> None:
    """The mark's own job stays: noted before this call, it holds against a ledger whose counters were edited."""
    assert CliRunner().invoke(budget_app, ["set", "--session", SESSION, "--max-calls", "3"]).exit_code == 0
    for n in range(1, 4):
        assert _call(tmp_path, n) is None
    assert "call limit reached" in (_call(tmp_path, 4) or "")
    with contextlib.closing(sqlite3.connect(ledger_path())) as db:
        db.execute("UPDATE sessions SET calls = 0")
        db.execute("DELETE FROM calls")
        db.commit()
    reason = _call(tmp_path, 5)
    assert reason is not None and "changed since" in reason
