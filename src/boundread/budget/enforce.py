"""Budget enforcement on the hook path: record each tool call and deny it when a guard trips.

Standard library only, and cheap when unused: with no ledger file, one ``os.path.exists`` and nothing more.
"""

from __future__ import annotations

# Hot path (guard-check, every agent tool call): no typing or pathlib at run time.
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "conversationId", "chat_id", "thread_id")
SUBAGENT_KEYS = ("agent_id",)


def _ledger_file() -> str:  # os.path, not pathlib: the cheapest possible check when budgets are unused
    explicit = os.environ.get("BOUNDREAD_STATE_DIR")
    if explicit:
        base = explicit
    else:
        home = os.path.expanduser("~")  # noqa: PTH111
        xdg = os.environ.get("XDG_STATE_HOME") or os.path.join(home, ".local", "state")  # noqa: PTH118
        base = os.path.join(xdg, "boundread")  # noqa: PTH118
    return os.path.join(base, "budget.sqlite3")  # noqa: PTH118


def session_of(payload: dict[str, Any]) -> str | None:
    """The agent's session id, whatever the dialect calls it."""
    for key in SESSION_KEYS:
        value = payload.get(key)
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return None


def depth_of(payload: dict[str, Any]) -> int:
    """``BOUNDREAD_DEPTH`` (set by ``budget exec``), one more inside a Claude Code sub-agent."""
    try:
        depth = max(int(os.environ.get("BOUNDREAD_DEPTH", "0") or 0), 0)
    except ValueError:
        depth = 0
    return depth + (1 if any(payload.get(k) for k in SUBAGENT_KEYS) else 0)


def project_of(payload: dict[str, Any]) -> str | None:
    cwd = payload.get("cwd") or payload.get("workspace_roots")
    if isinstance(cwd, list):
        cwd = cwd[0] if cwd else None
    return os.path.realpath(cwd) if isinstance(cwd, str) and cwd else None


def check_tool_call(payload: dict[str, Any], tool_name: str, tool_input: Any) -> str | None:
    """Return a deny reason when a budget limit is reached or a policy trips, else None.

    Records the call (tool name + sha256 of its normalized input) when a budget applies to the session.
    An unusable ledger (corrupt, locked too long) denies with the fix: a guard that fails open guards nothing.
    """
    path = _ledger_file()
    if not os.path.exists(path):  # noqa: PTH110
        return None
    # not `from boundread.budget import hookpath`: that asks the package's __getattr__ first (importlib)
    from boundread.budget.hookpath import NeedsLedger, check

    session, project, depth = session_of(payload) or "default", project_of(payload), depth_of(payload)
    try:  # sqlite3 and integers: see hookpath for the imports and the fsync it avoids
        return check(path, session, project, tool_name, tool_input, depth)
    except NeedsLedger:  # a migration to run, or a file to explain: the full ledger does both
        return _check_with_ledger(path, session, project, tool_name, tool_input, depth)


def _check_with_ledger(
    path: str, session: str, project: str | None, tool_name: str, tool_input: Any, depth: int
) -> str | None:
    from pathlib import Path

    from boundread.budget.errors import LedgerError
    from boundread.budget.ledger import SqliteLedger
    from boundread.budget.policy import action_digest, decide

    try:
        with SqliteLedger(Path(path)) as ledger:
            digest = action_digest(tool_name, tool_input)
            verdict = ledger.record_call(session, project, tool_name, digest, depth, decide)
    except LedgerError as exc:
        return f"budget ledger unusable: {exc}"
    return None if verdict is None else str(verdict)
