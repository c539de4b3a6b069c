"""GitHub Copilot CLI: its hooks in ``.github/hooks/boundread.json`` (the user's: ``~/.copilot/hooks/``), flat
handlers with a ``bash`` and a ``powershell`` command, the skill text in AGENTS.md.

A deny is ``permissionDecision`` (its exit 2 does not block); the VS Code-compatible payload (``PreToolUse``,
snake_case) is answered in both shapes. Copilot cannot replace a tool's output: its pre-tool event only.
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

NAME = "copilot"
LABEL = "GitHub Copilot CLI"
PRE_MATCHER = "bash|view"  # also with a budget: its matcher for every tool is unverified
REDIRECT = False
INGEST_EVENTS: tuple[str, ...] = ("postToolUse", "userPromptSubmitted", "agentStop", "subagentStop", "sessionEnd")
RANGE_PARAMS = "view_range"  # how its read tool takes a range, for a deny reason


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """``toolName`` and ``toolArgs`` (a JSON string); the VS Code-compatible hooks send the snake_case payload."""
    if "toolName" not in payload:
        return dialect.snake(payload, agent)
    return dialect.tool_call(agent, str(payload["toolName"]), dialect.as_dict(payload.get("toolArgs"), "toolArgs"),
                             str(payload.get("cwd") or ""), str(payload.get("hook_event_name") or ""))


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """``permissionDecision`` (its exit 2 does not block); to the VS Code-compatible payload in both shapes."""
    if not decision.denied:
        return Reply()
    why = dialect.why(decision)
    body: dict[str, Any] = {"permissionDecision": "deny", "permissionDecisionReason": why}
    if event == "PreToolUse":
        body["hookSpecificOutput"] = dialect.pre_tool_deny(why)
    return Reply(dialect.dump(body))



def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """Our own hooks file (removed whole on uninstall); PowerShell runs a quoted path with ``&``."""
    from boundread.agents import install
    from boundread.agents.base import Target

    def flat(command: str, **more: Any) -> dict[str, Any]:
        shell = f"& {command}" if program.startswith("'") else command
        return {"type": "command", "bash": command, "powershell": shell, **more}

    folder = (home / ".copilot" / "hooks") if user else root / ".github" / "hooks"
    hook = flat(install.command(NAME, program), matcher=PRE_MATCHER, timeoutSec=30)
    return Target(folder / "boundread.json", (("preToolUse", hook),), None if user else root / "AGENTS.md",
                          True, {"version": 1},
                          install.ingest_hooks(INGEST_EVENTS, lambda: flat(f"{program} budget ingest",
                                                                           timeoutSec=install.INGEST_TIMEOUT),
                                               flat=True))


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Nothing of its own: Copilot runs the hooks of its settings without a trust step."""
    return []
