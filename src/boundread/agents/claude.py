"""Claude Code: its hooks in ``.claude/settings.json``, its skill in ``.claude/skills/boundread/SKILL.md``.

guard-check answers PreToolUse (a deny as ``hookSpecificOutput``, exit 0; a rewrite as ``updatedInput``),
PostToolBatch (Claude Code refuses a Read of .xlsx/.docx/.zip/... itself, before any PreToolUse hook, and
PostToolBatch is where the guard can still tell the model what to run) and PostToolUse for Bash (the backstop,
guard/posttool.py). The Agent SDK's hooks send the same payload (``--agent claude-sdk``), without the rewrite.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from boundread.agents.base import Check, Target

NAME = "claude"
LABEL = "Claude Code"
#: The pre-tool guard's tools without a budget: the read and shell tools, MCP tools (a shell server's command is
#: judged as Bash), and the file-writing tools, which the guard checks for a change to its own ground (the hook
#: settings, boundread's config and state: guard/ground.py). Claude Code reads a matcher with a '.' as an
#: unanchored regex (so Read covers NotebookRead, Edit MultiEdit and NotebookEdit).
PRE_MATCHER = "Read|Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*"
POST_MATCHER = "Bash"
REDIRECT = True
#: Claude Code ends a sub-agent with SubagentStop; SessionEnd gives ingest a later look than Stop.
INGEST_EVENTS: tuple[str, ...] = ("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd")


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """PreToolUse, PostToolBatch (not a tool event: no matcher) and PostToolUse in settings.json; the skill."""
    from boundread.agents import install
    from boundread.agents.base import Target

    base = home if user else root
    nested = {"type": "command", "command": install.command(NAME, program), "timeout": 10}
    return Target(base / ".claude" / "settings.json",
                          (("PreToolUse", {"matcher": install.pre_matcher(NAME, budget), "hooks": [nested]}),
                           ("PostToolBatch", {"hooks": [dict(nested)]}),
                           ("PostToolUse", {"matcher": POST_MATCHER, "hooks": [dict(nested)]})),
                          base / ".claude" / "skills" / "boundread" / "SKILL.md", False, {},
                          install.ingest_hooks(INGEST_EVENTS, lambda: install.ingest_handler(program)))


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Nothing of its own: Claude Code runs the hooks of its settings without a trust step."""
    return []
