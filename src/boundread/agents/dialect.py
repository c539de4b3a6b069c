"""What every client's dialect shares: one tool call normalised across agents (:class:`Call`), the answer
(:class:`Reply`), the snake_case payload most clients send, the shape of a pre-tool answer, and the generic
dialect (exit 2 and the reason on stderr: ``--agent generic``, Windsurf).

Each client's own payload and answer are its module's ``parse`` and ``reply`` (agents/claude.py ...), verified
against each agent's hook documentation: Claude Code and Codex answer a deny with ``hookSpecificOutput`` JSON and
exit 0; Gemini with ``{"decision": "deny"}``; Cursor with ``permission``; Copilot with ``permissionDecision`` (its
exit 2 does not block); Cline with ``cancel``; Windsurf and the generic CLI with exit 2 and the reason on stderr.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH118, PTH206
from __future__ import annotations

# Hot path (guard-check runs before every agent tool call): no json (it imports re), dataclasses,
# typing or pathlib at module level: jsonio, Records and os.path instead.
import os

from boundread.guard import jsonio
from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.guard import tools
    from boundread.guard.decide import Decision

READ, COMMAND, OTHER = "read", "command", "other"
_READ_TOOLS = {"read", "read_file", "view", "readfile", "read-file"}
_SHELL_TOOLS = {"bash", "powershell", "shell", "run_shell_command", "execute_command", "run_terminal_cmd",
                "terminal", "local_shell", "exec_command"}


class PayloadError(ValueError):
    """A payload the guard cannot read; the message says what was wrong."""


class Call(Record):
    """One tool call, normalised across agents. ``action`` is READ, COMMAND or OTHER.

    ``reads``: when set, every file the call reads (a read tool beyond the agent's own,
    PowerShell's Get-Content), as ``tools.Read`` tuples; ``path`` is then the first of them.
    ``range_params``: how this tool bounds a read, for a deny reason ('' for the agent's own read tool).
    ``root_cwd``: the payload's own folder, before a command's ``workdir``/``dir_path`` was folded into
    ``cwd``: the project, where ``cwd`` is only where the command runs.
    """

    __slots__ = ("agent", "tool", "action", "path", "command", "offset", "limit", "pages", "cwd", "event",  # noqa: RUF023 - field order = argument order
                 "tool_input", "reads", "range_params", "root_cwd")
    agent: str
    tool: str
    action: str
    path: str
    command: str
    offset: object
    limit: object
    pages: object
    cwd: str
    event: str
    tool_input: Mapping[str, Any]
    reads: tuple[tools.Read, ...]
    range_params: str
    root_cwd: str

    def __init__(self, agent: str, tool: str, action: str, path: str = "", command: str = "",
                 offset: object = None, limit: object = None, pages: object = None, cwd: str = "",
                 event: str = "", tool_input: Mapping[str, Any] | None = None,
                 reads: tuple[tools.Read, ...] = (), range_params: str = "", root_cwd: str | None = None) -> None:
        self._init(agent, tool, action, path, command, offset, limit, pages, cwd, event,
                   {} if tool_input is None else tool_input, reads, range_params, cwd if root_cwd is None else root_cwd)


class Reply(Record):
    __slots__ = ("stdout", "stderr", "code")  # noqa: RUF023 - field order = argument order
    stdout: str
    stderr: str
    code: int

    def __init__(self, stdout: str = "", stderr: str = "", code: int = 0) -> None:
        self._init(stdout, stderr, code)


def as_dict(value: object, what: str) -> Mapping[str, Any]:
    if isinstance(value, str):
        try:
            value = jsonio.loads(value) if value.strip() else {}
        except ValueError:  # json.JSONDecodeError
            raise PayloadError(f"{what} is a string but not JSON") from None
    if isinstance(value, dict):  # what JSON gives
        return value
    from collections.abc import Mapping  # a payload built in Python

    if isinstance(value, Mapping):
        return value
    raise PayloadError(f"missing or malformed {what}")


def tool_call(agent: str, tool: str, args: Mapping[str, Any], cwd: str, event: str = "") -> Call:
    low = tool.lower()
    if low in _READ_TOOLS:
        path = next((args[key] for key in ("file_path", "path", "absolute_path", "target_file") if args.get(key)), None)
        if not isinstance(path, str) or not path:
            return Call(agent, tool, OTHER, cwd=cwd, event=event, tool_input=args)
        offset, limit = read_range(args)
        return Call(agent, tool, READ, path=path, offset=offset, limit=limit, pages=args.get("pages"),
                    cwd=cwd, event=event, tool_input=args)
    if low in _SHELL_TOOLS:  # before the other read tools (none is a shell): Bash skips loading them
        command = args.get("command") or args.get("command_line") or args.get("cmd")
        if isinstance(command, (list, tuple)):  # Codex, the SDKs: an argv list
            command = _argv(command)
        if isinstance(command, str) and command:
            folder = args.get("dir_path") or args.get("cwd") or args.get("workdir")
            root = cwd
            if isinstance(folder, str) and folder:
                cwd = _join(cwd, folder) if cwd else folder
            found = []
            if low in ("powershell", "pwsh"):
                from boundread.guard import tools

                found = tools.powershell_reads(command)
            return Call(agent, tool, COMMAND, command=command, cwd=cwd, event=event, tool_input=args,
                        reads=tuple(found), range_params="-TotalCount N or -Tail N" if found else "", root_cwd=root)
        return Call(agent, tool, OTHER, cwd=cwd, event=event, tool_input=args)
    from boundread.guard import tools  # the other read tools: not for the agent's own Read

    if tools.is_read_tool(low):
        found = tools.reads(low, args, cwd)
        if not found:
            return Call(agent, tool, OTHER, cwd=cwd, event=event, tool_input=args)
        path, limit, _explicit = found[0]
        return Call(agent, tool, READ, path=path, limit=limit, cwd=cwd, event=event, tool_input=args,
                    reads=tuple(found), range_params=tools.range_params(low))
    command = tools.mcp_command(low, args)
    if command is not None:  # an MCP server's shell tool: its command runs as Bash's would
        return Call(agent, tool, COMMAND, command=command, cwd=cwd, event=event, tool_input=args, root_cwd=cwd)
    return Call(agent, tool, OTHER, cwd=cwd, event=event, tool_input=args)


def _argv(words: list[Any] | tuple[Any, ...]) -> str:
    """An argv list as one shell command line: ``shlex.join``, so ``["bash", "-lc", "cat a.pdf"]``
    stays three words and the shell guard sees the script that ``bash -c`` runs."""
    from boundread.guard.reason import quote  # shlex.quote without re

    return " ".join(quote(str(word)) for word in words)


def read_range(args: Mapping[str, Any]) -> tuple[object, object]:
    """(offset, limit in lines) from whichever range parameters the agent's read tool has.

    Claude Code (and Gemini's older docs): ``offset``/``limit``; Gemini ``read_file``:
    ``start_line``/``end_line``, 1-based and inclusive; Copilot ``view``: ``view_range`` [start, end].
    A range open at its end (no end line, Copilot's -1) has no limit: it reads to the end of the file.
    """
    offset, limit = args.get("offset"), args.get("limit")
    if limit is None and args.get("end_line") is not None:
        first, last = _line(args.get("start_line"), default=1), _line(args.get("end_line"))
        if first is not None and last is not None and last >= first:
            offset, limit = first, last - first + 1
    elif limit is None and offset is None and args.get("start_line") is not None:
        offset = args.get("start_line")
    view = args.get("view_range")
    if limit is None and isinstance(view, list) and len(view) == 2:
        first, last = _line(view[0]), _line(view[1])
        if first is not None and last is not None and last >= first:
            offset, limit = first, last - first + 1
    return offset, limit


def _line(value: object, default: int | None = None) -> int | None:
    """A 1-based line number (an int, or digits in a string); ``default`` when absent."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > jsonio.MAX_DIGITS:
        return None  # int() refuses over 4,300 digits; no line number has 40
    return int(text) if int(text) > 0 else None


def _join(cwd: str, folder: str) -> str:
    """``str(Path(cwd) / folder)``."""
    parts = [part for part in os.path.join(cwd, folder).split(os.sep) if part not in ("", ".")]
    lead = os.sep if cwd.startswith(os.sep) or folder.startswith(os.sep) else ""
    return lead + os.sep.join(parts) if parts else (lead or ".")


def snake(payload: Mapping[str, Any], agent: str) -> Call:
    """The snake_case payload (``tool_name``, ``tool_input``, ``cwd``, ``hook_event_name``): Claude Code's, which
    Codex, Gemini CLI and Copilot's VS Code-compatible hooks send too."""
    tool = str(payload.get("tool_name") or "")
    if not tool:
        raise PayloadError("missing tool_name")
    return tool_call(agent, tool, as_dict(payload.get("tool_input"), "tool_input"),
                     str(payload.get("cwd") or ""), str(payload.get("hook_event_name") or ""))


RANGE_PARAMS = "offset/limit"  # no read tool of its own: a deny reason names the usual ones


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """``--agent generic`` names no payload shape: it is for --path/--command, and for answers."""
    raise PayloadError(f"unknown agent {agent!r} - pass the agent that sent the payload with --agent, or leave "
                       "--agent out to detect it")


def reply(decision: Decision, event: str = "", agent: str = "generic") -> Reply:
    """Exit 2 and the reason on stderr: the generic CLI's (and Windsurf's) deny. Exit 1 is never used: it does not
    block anywhere."""
    return Reply(stderr=why(decision) + "\n", code=2) if decision.denied else Reply()


def why(decision: Decision) -> str:
    """The reason a deny gives the model."""
    return decision.reason or "Not an error: boundread refused this tool call on purpose"


def pre_tool_deny(reason: str) -> dict[str, str]:
    """The ``hookSpecificOutput`` of a PreToolUse deny: Claude Code's, Codex's and Copilot's VS Code shape."""
    return {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}


def pre_tool_rewrite(decision: Decision) -> Reply:
    """An allow that runs ``decision.updated`` instead of the call (redirect mode), as Claude Code and Codex take it:
    ``permissionDecision: allow`` with ``updatedInput`` (the whole input) and ``additionalContext``."""
    body: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                            "permissionDecisionReason": "boundread redirect: a bounded read instead",
                            "updatedInput": decision.updated}
    if decision.context:
        body["additionalContext"] = decision.context
    return Reply(dump({"hookSpecificOutput": body}))


def json_reply(decision: Decision) -> Reply:
    """``--json``: one object on stdout; the exit code still says allow (0) or deny (2)."""
    body: dict[str, object] = {"decision": decision.decision, "reason": decision.reason, "kind": decision.kind,
                               "rule": decision.rule}
    if decision.updated is not None:  # redirect mode: the input that runs instead, and what it tells the model
        body.update(updated_input=decision.updated, context=decision.context)
    if decision.stop:  # the budget's deny ends the session too
        body["stop"] = decision.stop
    return Reply(dump(body), code=2 if decision.denied else 0)


def dump(body: Mapping[str, Any]) -> str:
    """One answer object on one line."""
    return jsonio.dumps(body) + "\n"
