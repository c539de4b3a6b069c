"""Claude Code: its hooks in ``.claude/settings.json``, its skill in ``.claude/skills/boundread/SKILL.md``.

guard-check answers PreToolUse (a deny as ``hookSpecificOutput``, exit 0; a rewrite as ``updatedInput``),
PostToolBatch (Claude Code refuses a Read of .xlsx/.docx/.zip/... itself, before any PreToolUse hook, and
PostToolBatch is where the guard can still tell the model what to run) and PostToolUse for Bash (the backstop,
hook/posttool.py). The Agent SDK's hooks send the same payload (``--agent claude-sdk``), without the rewrite.
"""

from __future__ import annotations

import os

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
    from boundread.guard.postsave import Output

NAME = "claude"
LABEL = "Claude Code"
#: The pre-tool guard's tools without a budget: the read and shell tools, MCP tools (a shell server's command is
#: judged as Bash), and the file-writing tools, which the guard checks for a change to its own ground (the hook
#: settings, boundread's config and state: hook/ground.py). Claude Code reads a matcher with a '.' as an
#: unanchored regex (so Read covers NotebookRead, Edit MultiEdit and NotebookEdit).
PRE_MATCHER = "Read|Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*"
POST_MATCHER = "Bash"
REDIRECT = True
#: Claude Code ends a sub-agent with SubagentStop; SessionEnd gives ingest a later look than Stop.
INGEST_EVENTS: tuple[str, ...] = ("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd")
RANGE_PARAMS = "offset/limit"  # how its read tool takes a range, for a deny reason
READ_RANGE: tuple[str, ...] = ("offset", "limit")  # what a redirect sets on Read: the first line, how many
#: Its own hard limits (2.1.332: its tools reference and the Read tool source), which no suggestion or rewrite may
#: exceed (tests/hook/test_suggestions_fit_client_limits.py): Read refuses a whole file over 256 KB (a range reads
#: any size), and reads at most 2,000 lines and 25,000 tokens at a time; Bash shows 30,000 characters inline (more is
#: kept in a file, with a 2 KB preview), and so is an MCP result over 50,000.
READ_MAX_BYTES: int | None = 256 * 1024
READ_FILE_MAX_BYTES: int | None = None  # no size past which even a ranged Read is refused
READ_MAX_LINES: int | None = 2000
READ_MAX_TOKENS: int | None = 25_000
SHELL_MAX_CHARS: int | None = 30_000
SHELL_PREVIEW_CHARS: int | None = 2_000  # what it shows of a Bash output over SHELL_MAX_CHARS (kept in a file)
MCP_MAX_CHARS: int | None = 50_000
_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")  # a project's, beside the user's and managed
_MANAGED = ("/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json")
_MANAGED_DROPINS = ("/etc/claude-code/managed-settings.d", "/Library/Application Support/ClaudeCode/managed-settings.d")


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """The snake_case payload (claude-sdk: the Agent SDK's hooks send the same)."""
    return dialect.snake(payload, agent)


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """A deny as ``hookSpecificOutput`` (exit 0), with ``continue: false`` when the budget ends the session; a
    redirect as ``updatedInput`` (not from the Agent SDK's hooks)."""
    if decision.denied:
        deny = {"hookSpecificOutput": dialect.pre_tool_deny(dialect.why(decision))}
        if decision.stop:
            return Reply(dialect.dump({"continue": False, "stopReason": decision.stop, **deny}))
        return Reply(dialect.dump(deny))
    if decision.updated is not None and agent == NAME:
        return dialect.pre_tool_rewrite(decision)
    return Reply()



#: Where Claude Code keeps a Bash output over ``bashOutputMaxChars`` (30,000 characters) in its own file.
_PERSISTED = ("persistedOutputPath", "persistedOutputSize")


def post_output(payload: Mapping[str, Any]) -> Output | None:
    """PostToolUse's ``tool_response``: Bash's ``{"stdout", "stderr", ...}`` (the whole size from
    ``persistedOutputSize`` when Claude Code kept it in a file) or a plain string; None for any other shape."""
    from boundread.guard.postsave import Output, size_of, spill_of, whole

    response = payload.get("tool_response")
    if isinstance(response, str):
        return whole(response)
    if not isinstance(response, dict) or response.get("isImage") is True:
        return None
    stdout, stderr = response.get("stdout"), response.get("stderr")
    if not isinstance(stdout, str):
        return None
    err = stderr if isinstance(stderr, str) and stderr else ""
    if spill_of(stdout) or spill_of(err):  # a spilled string is kept whole in its file: stdout (or stderr) alone
        big = stdout if size_of(stdout) >= size_of(err) else err
        return Output(big, size_of(stdout) + size_of(err), spill=spill_of(big))
    text = stdout + ("\n" + err if err else "")
    path, size = response.get(_PERSISTED[0]), response.get(_PERSISTED[1])
    if isinstance(path, str) and path and isinstance(size, int) and not isinstance(size, bool):
        return Output(text, max(size, size_of(text)), path)
    return Output(text, size_of(text))


def post_cut(text: str) -> int:
    """Claude Code hands the hook the output it gives the model: nothing was cut."""
    return 0


def post_reply(text: str, payload: Mapping[str, Any]) -> str:
    """``updatedToolOutput`` in the tool's own output shape (for Bash ``{"stdout", "stderr", ...}``): what the model
    gets instead."""
    response, tool = payload.get("tool_response"), str(payload.get("tool_name") or "tool")
    replaced: Any = text
    if isinstance(response, dict):
        replaced = {key: value for key, value in response.items() if key not in _PERSISTED}
        replaced.update(stdout=text, stderr="", isImage=False)
    elif tool == "Bash":  # a cut payload: Bash's shape all the same
        replaced = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
    return dialect.dump({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": replaced}})


def user_rules(tool: str, root: str) -> bool:
    """Does any deny or ask rule in Claude Code's settings (managed, its drop-in ``managed-settings.d/*.json``,
    user, project, local) name ``tool`` (``Bash``, ``Bash(cat:*)``)? Claude Code checks its rules on the input a
    hook hands back, so a rewrite would step around such a rule (hook/permissions.py)."""
    from boundread.agents.rulefiles import json_files

    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.environ.get("HOME", "") + "/.claude"
    files = [*_MANAGED, f"{config}/settings.json", *(f"{root}/{name}" for name in _SETTINGS)]
    for folder in _MANAGED_DROPINS:
        found = json_files(folder)
        if found is None:
            return True  # a drop-in folder we cannot read (or list whole) may hold rules
        files += found
    return any(_names(file, tool) for file in files)


def _names(file: str, tool: str) -> bool:
    from boundread.agents.rulefiles import settings_of

    data = settings_of(file)
    if isinstance(data, bool):
        return data
    permissions = data.get("permissions")
    if not isinstance(permissions, dict):
        return False
    for key in ("deny", "ask"):
        rules = permissions.get(key)
        if isinstance(rules, list) and any(isinstance(rule, str) and _rule_tool(rule) == tool for rule in rules):
            return True
    return False


def _rule_tool(rule: str) -> str:
    """``Bash(cat:*)`` -> ``Bash``; ``Read`` -> ``Read``."""
    return rule.split("(", 1)[0].strip()


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
    """No trust step, but every settings layer that switches hooks off (managed, its drop-ins, user, project,
    local) and the variables of bare and safe mode: agents/claude_settings.py."""
    from boundread.agents import claude_settings

    return claude_settings.checks(settings, root, home)
