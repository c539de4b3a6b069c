"""Gemini CLI: its hooks in ``.gemini/settings.json`` (BeforeTool, AfterTool), the skill text in GEMINI.md, its
trusted folders in the user's trustedFolders.json (gemini_trust.py: in a folder it does not trust, Gemini runs
no hook from its settings).

guard-check answers BeforeTool (``{"decision": "deny"}``; a rewrite as ``hookSpecificOutput.tool_input``) and,
for the same second line as Claude Code's PostToolUse, AfterTool. Its hook timeouts are milliseconds, and its
hooks have a name.
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

NAME = "gemini"
LABEL = "Gemini CLI"
#: The read, shell, file-writing and MCP tools; Gemini CLI reads any matcher as a regex.
PRE_MATCHER = "read_file|read_many_files|run_shell_command|write_file|replace|mcp_.*"
POST_MATCHER = "run_shell_command|read_file|read_many_files|mcp_.*"
REDIRECT = True
#: BeforeAgent lets ingest refuse a new prompt in a capped session; Gemini ends a session with SessionEnd.
INGEST_EVENTS: tuple[str, ...] = ("AfterTool", "BeforeAgent", "AfterAgent", "SessionEnd")
RANGE_PARAMS = "start_line/end_line"  # how its read tool takes a range, for a deny reason
READ_RANGE: tuple[str, ...] = ("start_line", "end_line")  # what a redirect sets on read_file (inclusive)
#: Its own hard limits (0.61), which no suggestion or rewrite may exceed (test_suggestions_fit_client_limits.py):
#: read_file refuses any file over 20 MB whatever start_line/end_line say (redirect reads a slice file instead),
#: and cuts a read at 2,000 lines of 2,000 characters; a shell output or a one-part MCP result over 40,000
#: characters is cut (``truncateToolOutputThreshold``).
READ_MAX_BYTES: int | None = None  # a whole read is cut at READ_MAX_LINES, not refused
READ_FILE_MAX_BYTES: int | None = 20 * 1024 * 1024
READ_MAX_LINES: int | None = 2000
READ_MAX_TOKENS: int | None = None
SHELL_MAX_CHARS: int | None = 40_000
MCP_MAX_CHARS: int | None = 40_000
_SYSTEM = ("/etc/gemini-cli", "/Library/Application Support/GeminiCli")  # Storage.getSystemConfigDir()


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """The snake_case payload on BeforeTool; ``read_file`` takes ``start_line``/``end_line``."""
    return dialect.snake(payload, agent)


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """``{"decision": "deny"}`` (BeforeTool's ``continue: false`` stops the whole agent loop: a budget stop), or a
    rewrite as ``hookSpecificOutput.tool_input`` (0.61 takes it as the whole input); ``{}`` allows."""
    why = dialect.why(decision)
    if decision.denied and decision.stop:
        return Reply(dialect.dump({"decision": "deny", "reason": why, "continue": False,
                                   "stopReason": decision.stop}))
    if decision.denied:
        return Reply(dialect.dump({"decision": "deny", "reason": why}))
    if decision.updated is not None:
        inner: dict[str, Any] = {"hookEventName": "BeforeTool", "tool_input": decision.updated}
        if decision.context:
            inner["additionalContext"] = decision.context
        return Reply(dialect.dump({"decision": "allow", "hookSpecificOutput": inner}))
    return Reply("{}")



def post_output(payload: Mapping[str, Any]) -> Output | None:
    """AfterTool's ``llmContent`` (what the model gets) for the size; the shell's raw ``returnDisplay`` to save."""
    from boundread.guard.postsave import Output, parts, size_of, spill_of

    response = payload.get("tool_response")
    if not isinstance(response, dict):
        return None
    content = parts(response.get("llmContent"))
    if content is None:
        return None
    display = response.get("returnDisplay")
    if payload.get("tool_name") == "run_shell_command" and isinstance(display, str) and display:
        return Output(display, max(content.size, size_of(display)), spill=spill_of(display))
    return content


def post_cut(text: str) -> int:
    """Gemini CLI cuts an output after AfterTool, not before: the hook sees all it kept."""
    return 0


def post_reply(text: str, payload: Mapping[str, Any]) -> str:
    """``{"decision": "deny", "reason": R}`` replaces the whole result with ``{"error": R}`` (Gemini ignores an
    answer's ``tool_output``, ``llmContent`` and ``tool_response``); R opens with "Not an error"."""
    return dialect.dump({"decision": "deny", "reason": text})


def user_rules(tool: str, root: str) -> bool:
    """Does Gemini CLI restrict its tools here - a tool exclusion or core-tool list (``tools.exclude``,
    ``tools.core``, the older ``excludeTools``/``coreTools``), a policy path setting in its system defaults, system,
    user or project settings, a policy file? Then a rewrite is not made (hook/permissions.py)."""
    from boundread.agents.rulefiles import any_file

    home = os.environ.get("GEMINI_CLI_HOME") or os.environ.get("HOME", "")
    system = os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    systems = [system] if system else [f"{folder}/settings.json" for folder in _SYSTEM]
    defaults = os.environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
    files = [*systems, *([defaults] if defaults else (f"{os.path.dirname(file)}/system-defaults.json"  # noqa: PTH120
                                                      for file in systems)),
             f"{home}/.gemini/settings.json", f"{root}/.gemini/settings.json"]
    policies = [*(f"{folder}/policies" for folder in _SYSTEM), f"{home}/.gemini/policies",
                f"{root}/.gemini/policies"]
    if any(any_file(folder, ".toml") for folder in policies):
        return True
    return any(_restricts(file) for file in files)


def _restricts(file: str) -> bool:
    from boundread.agents.rulefiles import settings_of

    data = settings_of(file)
    if isinstance(data, bool):
        return data
    tools = data.get("tools")
    lists = [data.get("excludeTools"), data.get("coreTools"), data.get("policyPaths"), data.get("adminPolicyPaths"),
             *((tools.get("exclude"), tools.get("core")) if isinstance(tools, dict) else ())]
    return any(bool(found) for found in lists)


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
    (with --user: the folder doctor runs for, where Gemini would start); and none when a layer of its merged
    settings switches hooks off (agents/gemini_settings.py)."""
    from boundread.agents import gemini_settings, gemini_trust, install
    from boundread.agents.base import Check

    _, ours = install.load(settings)  # doctor read it already: it is an object
    switched = gemini_settings.checks(settings, ours, root, home)
    trust = gemini_trust.check(root, home)
    if trust.trusted:
        return [Check("trusted", True, f"Gemini CLI trusts {root}: {trust.detail}"), *switched]
    fix = f"unset {trust.variable} where you start gemini" if trust.variable else gemini_trust.how(root)
    if trust.trusted is None:
        return [Check("trusted", None, f"cannot tell whether Gemini CLI trusts {root}: {trust.detail}", fix),
                *switched]
    return [Check("trusted", False, f"Gemini CLI does not trust {root} ({trust.detail}): it runs none of its "
                  "settings' hooks there, without a word", fix), *switched]
