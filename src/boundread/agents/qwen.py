"""Qwen Code: its hooks in ``.qwen/settings.json`` (the user's: ``~/.qwen/settings.json``), Claude Code's hook
shape (PreToolUse, a matcher, nested command handlers, timeouts in seconds), the skill text in QWEN.md.

Qwen Code is a fork of Gemini CLI that speaks Claude Code's hook protocol: its PreToolUse payload is Claude's
(``session_id``, ``transcript_path`` under ``~/.qwen/projects/``, ``cwd``, ``hook_event_name``, ``tool_name``,
``tool_input``, ``tool_use_id``) plus a ``timestamp``, its ``permission_mode`` and the model's ``tool_call_id``; its
tools are Gemini's names (``read_file`` with ``file_path``/``offset``/``limit``/``pages``, ``run_shell_command``
with ``command`` and ``directory``). A deny is Claude's ``hookSpecificOutput.permissionDecision``, and the model gets
its reason. Qwen Code 0.24.4 reads no rewrite from a PreToolUse answer (its hook runner takes a deny, an ask, a stop
and ``additionalContext`` only; an ``updatedInput`` was ignored in the yolo, default and auto-edit approval modes),
so it is deny-only: ``REDIRECT = False``.

Its folder trust (qwen_trust.py) is off unless ``security.folderTrust.enabled`` is set; then, in a folder the user
has not trusted, Qwen Code loads no project settings, so no project hook runs. ``disableAllHooks: true`` in any
settings file switches every hook off.
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

NAME = "qwen"
LABEL = "Qwen Code"
#: The read, shell, file-writing and MCP tools (``mcp__server__tool``); Qwen reads a matcher as a regex.
PRE_MATCHER = "read_file|run_shell_command|write_file|edit|mcp__.*"
REDIRECT = False
INGEST_EVENTS: tuple[str, ...] = ()  # budget ingest reads no Qwen Code log (yet)
RANGE_PARAMS = "offset/limit"  # read_file's range, as a deny reason names it ("pages" for a PDF)
#: Its own hard limits (0.24.4, read from its bundle), which no suggestion may exceed
#: (tests/hook/test_qwen_opencode_limits.py): read_file gives at most 25,000 characters of a text file of any size
#: (``truncateToolOutputThreshold``; the rest of the last line is "... [truncated]") - a cut, not a refusal - and,
#: with no ``limit``, its first 1,000 lines (``truncateToolOutputLines``: a default, not a cap: a ``limit`` of 2,000
#: reads 2,000 lines, up to the 25,000 characters); a PDF of more than 10 pages needs ``pages`` (at most 20 a call);
#: a file that is neither text nor a PDF is refused over 10 MB (boundread never suggests read_file for one). A shell
#: or MCP output is cut at 25,000 characters too.
READ_MAX_BYTES: int | None = None  # a whole read is cut, not refused
READ_FILE_MAX_BYTES: int | None = None  # a text file of any size is read in a range
READ_MAX_LINES: int | None = None
READ_MAX_CHARS: int | None = 25_000
READ_MAX_TOKENS: int | None = None
SHELL_MAX_CHARS: int | None = 25_000
MCP_MAX_CHARS: int | None = 25_000
PDF_MAX_PAGES = 20


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """Claude Code's payload; ``run_shell_command``'s ``directory`` is where the command runs."""
    tool = str(payload.get("tool_name") or "")
    args = dialect.as_dict(payload.get("tool_input"), "tool_input")
    folder = args.get("directory")
    if tool == "run_shell_command" and isinstance(folder, str) and folder and not args.get("workdir"):
        args = {**args, "workdir": folder}
    if not tool:
        raise dialect.PayloadError("missing tool_name")
    return dialect.tool_call(agent, tool, args, str(payload.get("cwd") or ""),
                             str(payload.get("hook_event_name") or ""))


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """A deny as Claude Code's ``hookSpecificOutput`` (exit 0), with ``continue: false`` when the budget ends the
    session; anything else allows (no rewrite: see the module's docstring)."""
    if not decision.denied:
        return Reply()
    deny = {"hookSpecificOutput": dialect.pre_tool_deny(dialect.why(decision))}
    if decision.stop:
        return Reply(dialect.dump({"continue": False, "stopReason": decision.stop, **deny}))
    return Reply(dialect.dump(deny))


def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """PreToolUse in settings.json; the skill text in QWEN.md (the user's: ~/.qwen/QWEN.md)."""
    from boundread.agents import install
    from boundread.agents.base import Target

    base = home if user else root
    nested = {"type": "command", "command": install.command(NAME, program), "timeout": 10}
    return Target(base / ".qwen" / "settings.json",
                  (("PreToolUse", {"matcher": install.pre_matcher(NAME, budget), "hooks": [nested]}),),
                  base / ".qwen" / "QWEN.md" if user else root / "QWEN.md", True, {})


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Hooks switched off (``disableAllHooks`` in the user's or system settings, which the project's cannot undo),
    and the folder trust, when Qwen Code has it on."""
    from boundread.agents import qwen_trust

    return qwen_trust.checks(settings, root, home)
