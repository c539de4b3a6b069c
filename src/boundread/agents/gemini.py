"""Gemini CLI: its hooks in ``.gemini/settings.json`` (BeforeTool, AfterTool), the skill text in GEMINI.md, its
trusted folders in the user's trustedFolders.json (gemini_trust.py: in a folder it does not trust, Gemini runs
no hook from its settings).

guard-check answers BeforeTool (``{"decision": "deny"}``; a rewrite as ``hookSpecificOutput.tool_input``) and,
for the same second line as Claude Code's PostToolUse, AfterTool. Its hook timeouts are milliseconds, and its
hooks have a name.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from boundread.agents.base import Check, Target

NAME = "gemini"
LABEL = "Gemini CLI"
#: The read, shell, file-writing and MCP tools; Gemini CLI reads any matcher as a regex.
PRE_MATCHER = "read_file|read_many_files|run_shell_command|write_file|replace|mcp_.*"
POST_MATCHER = "run_shell_command|read_file|read_many_files|mcp_.*"
REDIRECT = True
#: BeforeAgent lets ingest refuse a new prompt in a capped session; Gemini ends a session with SessionEnd.
INGEST_EVENTS: tuple[str, ...] = ("AfterTool", "BeforeAgent", "AfterAgent", "SessionEnd")


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """BeforeTool and AfterTool in settings.json; the skill text in GEMINI.md (the user's: ~/.gemini/GEMINI.md)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    hook = {"name": "boundread-guard", "type": "command", "command": install.command(NAME, program), "timeout": 10000}

    def ingest() -> dict[str, Any]:
        return {"name": "boundread-budget", "type": "command", "command": f"{program} budget ingest",
                "timeout": install.INGEST_TIMEOUT * 1000}

    return Target((home if user else root) / ".gemini" / "settings.json",
                          (("BeforeTool", {"matcher": install.pre_matcher(NAME, budget), "hooks": [hook]}),
                           ("AfterTool", {"matcher": POST_MATCHER, "hooks": [dict(hook)]})),
                          (home / ".gemini" / "GEMINI.md") if user else root / "GEMINI.md", True, {},
                          install.ingest_hooks(INGEST_EVENTS, ingest))


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Gemini runs the hooks of its settings (the project's and the user's) only in a folder it trusts: ``root``
    (with --user: the folder doctor runs for, where Gemini would start)."""
    from boundread.agents import gemini_trust
    from boundread.agents.base import Check

    trust = gemini_trust.check(root, home)
    if trust.trusted:
        return [Check("trusted", True, f"Gemini CLI trusts {root}: {trust.detail}")]
    fix = f"unset {trust.variable} where you start gemini" if trust.variable else gemini_trust.how(root)
    if trust.trusted is None:
        return [Check("trusted", None, f"cannot tell whether Gemini CLI trusts {root}: {trust.detail}", fix)]
    return [Check("trusted", False, f"Gemini CLI does not trust {root} ({trust.detail}): it runs none of its "
                  "settings' hooks there, without a word", fix)]
