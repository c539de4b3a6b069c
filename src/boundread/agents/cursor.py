"""Cursor: its hooks in ``.cursor/hooks.json`` (beforeReadFile, beforeShellExecution), the skill text in the
project's AGENTS.md. A deny is ``{"permission": "deny", ...}``; Cursor cannot replace a tool's output, so its
pre-tool events only.
"""

from __future__ import annotations

from boundread.agents import dialect
from boundread.agents.dialect import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

    from boundread.agents.base import Check, Target
    from boundread.agents.dialect import Call
    from boundread.guard.decide import Decision

NAME = "cursor"
LABEL = "Cursor"
PRE_MATCHER = ""  # its events are the read and the shell already
REDIRECT = False
INGEST_EVENTS: tuple[str, ...] = ()  # budget ingest reads no Cursor log
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason
#: Its read tool's own hard limits (tests/hook/test_suggestions_fit_client_limits.py): none verified.
READ_MAX_BYTES: int | None = None
READ_FILE_MAX_BYTES: int | None = None
READ_MAX_LINES: int | None = None
READ_MAX_TOKENS: int | None = None


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """beforeReadFile and beforeShellExecution carry the file or the command at the top; preToolUse is
    snake_case. The folder is ``cwd``, else the first workspace root."""
    roots = payload.get("workspace_roots") or [""]
    cwd = str(payload.get("cwd") or "") or str(roots[0] if isinstance(roots, list) and roots else "")
    event = str(payload.get("hook_event_name") or "")
    if event == "beforeReadFile":
        return dialect.tool_call(agent, "Read", payload, cwd, event)
    if event == "beforeShellExecution":
        return dialect.tool_call(agent, "Shell", payload, cwd, event)
    return dialect.tool_call(agent, str(payload.get("tool_name") or ""),
                             dialect.as_dict(payload.get("tool_input"), "tool_input"), cwd, event or "preToolUse")


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """``permission``: allow, or deny with the reason for the user and the agent (both spellings)."""
    if not decision.denied:
        return Reply(dialect.dump({"permission": "allow"}))
    why = dialect.why(decision)
    return Reply(dialect.dump({"permission": "deny", "user_message": why, "agent_message": why,
                               "userMessage": why, "agentMessage": why}))



def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """A flat handler on each pre-tool event; AGENTS.md for a project (the user has none)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    command = install.command(NAME, program)
    return Target((home if user else root) / ".cursor" / "hooks.json",
                          tuple((event, {"command": command}) for event in ("beforeReadFile", "beforeShellExecution")),
                          None if user else root / "AGENTS.md", True, {"version": 1})


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Nothing of its own: Cursor runs the hooks of its settings without a trust step."""
    return []
