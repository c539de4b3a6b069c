"""Claude Code ``PostToolBatch``: tell the model which boundread commands read what it could not.

Claude Code refuses a Read of .xlsx/.docx/.pptx/.zip/.7z/.tar/.gz itself ("This tool cannot read
binary files") before any PreToolUse hook runs, so the guard's deny reason never reaches the model.
PostToolBatch fires after the batch; the ``additionalContext`` of its answer reaches the model in
the next request. This never denies: a call it cannot read is skipped, and no advice is no output.

In redirect mode it is silent about a call the pre-tool hook rewrote: the batch's ``tool_input`` is the call as
the model made it (a whole Read, ``cat huge.log``), which the guard denies, but its ``tool_response`` carries
neither the guard's refusal nor the client's own, so the bounded part arrived with the redirect's own context
naming the next part; advice to read it "in bounded parts instead" would only invite a redundant call.
"""

from __future__ import annotations

import os

from boundread.agents.dialect import read_range

# On the guard-check path: standard library only, no json or typing at run time; os.path, not pathlib.
# ruff: noqa: PTH109, PTH111, PTH118
from boundread.guard import jsonio
from boundread.guard.command import check_command
from boundread.guard.decide import check_read, suggestions
from boundread.guard.reason import FIT, OPENING, quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.guard.config import GuardConfig

EVENT = "PostToolBatch"
REFUSAL = "cannot read binary files"  # Claude Code's own Read refusal (2.1.197 .. 2.1.332)
MAX_CALLS, MAX_FILES, MAX_CONTEXT = 100, 10, 8000  # Claude Code caps hook output at 10,000 characters
_TEXT_KEYS = ("text", "content", "error", "message", "output", "stdout", "stderr", "result", "file")


def answer(payload: Mapping[str, Any], config: GuardConfig, mode: str | None = None) -> str:
    """The hook's stdout for a PostToolBatch payload: the JSON answer, or "" for nothing to say. ``mode``: the
    hook command's ``--mode`` (the config's mode wins, as for PreToolUse)."""
    context = advice(payload, config, (config.mode or mode or "deny") == "redirect")
    if not context:
        return ""
    body = {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": context}}
    return jsonio.dumps(body) + "\n"


def advice(payload: Mapping[str, Any], config: GuardConfig, redirected: bool = False) -> str:
    """Per file read (or dumped) whole in the batch, or refused by the client, the commands to run; with
    ``redirected`` (redirect mode) none for a call the guard denies that ran all the same: it was rewritten."""
    calls = payload.get("tool_calls")
    if not isinstance(calls, list):
        return ""
    cwd = str(payload.get("cwd") or "") or None
    seen: set[str] = set()
    blocks: list[str] = []
    for call in calls[:MAX_CALLS]:
        path = _needs_advice(call, cwd, config, redirected) if isinstance(call, dict) else None
        if path is None or _same_file(path, cwd) in seen:
            continue
        seen.add(_same_file(path, cwd))
        blocks.append(_block(path, cwd, config))
        if len(blocks) >= MAX_FILES:
            break
    if not blocks:
        return ""
    head = ("boundread: the tool calls above could not (or should not) read these files whole. "
            "Read them in bounded parts instead:\n")
    text = head + "".join(blocks) + "Each prints a bounded part; its `next:` line names the rest."
    return text if len(text) <= MAX_CONTEXT else text[:MAX_CONTEXT - 3] + "..."


def _needs_advice(call: Mapping[str, Any], cwd: str | None, config: GuardConfig,
                  redirected: bool = False) -> str | None:
    """The file of a Read (or Bash) call the client refused or the guard would deny (and, ``redirected``, did not
    rewrite); None otherwise."""
    tool = str(call.get("tool_name") or "")
    args = _mapping(call.get("tool_input"))
    response = text_of(call.get("tool_response"))
    if args is None or OPENING in response:
        return None  # the guard's own PreToolUse deny has told the model already
    refused = REFUSAL in response.lower()
    if tool == "Read":
        path = args.get("file_path") or args.get("path")
        if not isinstance(path, str) or not path:
            return None
        offset, limit = read_range(args)
        decision = check_read(path, offset=offset, limit=limit, pages=args.get("pages"), cwd=cwd, config=config)
        return path if refused or (decision.denied and not (redirected and _ran(response))) else None
    if tool in ("Bash", "PowerShell"):
        command = args.get("command")
        if not isinstance(command, str) or not command:
            return None
        decision = check_command(command, cwd=cwd, config=config)
        if redirected and _ran(response):
            return None
        return decision.path if decision.denied and decision.path else None
    return None


def _ran(response: str) -> bool:
    """Did a call the guard denies run all the same (redirect mode: rewritten to its bounded part)? Not when the
    client answered with an error (``<tool_use_error>``: a refusal, or a whole Read over its own cap)."""
    return "<tool_use_error>" not in response


def _same_file(path: str, cwd: str | None) -> str:
    """One key for every spelling of a file: relative or absolute, through a link, with ~ or ./; the path
    as written when it names no file the system can look up (a NUL byte in it)."""
    try:
        return os.path.realpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(path)))
    except (ValueError, OSError):
        return path


def _block(path: str, cwd: str | None, config: GuardConfig) -> str:
    found = suggestions(path, cwd=cwd, config=config)
    if found is None:  # not here to look at (another machine's path, or gone): the first step still works
        return f"- {quote(path)}:\n  boundread info {quote(path)}\n"
    shown, described, commands = found
    return f"- {shown} ({described}):\n" + "".join(f"  {_printing(command)}\n" for command in commands)


def _printing(command: str) -> str:
    """A command that reads text, printing it (``--stdout``): after a refusal, the text in one call rather than a
    file to read in another. Its ``--max-chars`` keeps it under Claude Code's 30,000-character Bash output."""
    if command.split(" ", 2)[1:2] not in (["pages"], ["extract"], ["sheets"]) or FIT not in command:
        return command
    options, dashes, name = command.partition(" -- ")  # a sheet name that starts with '-' comes last, after --
    return f"{options} --stdout{dashes}{name}"


def _mapping(value: object) -> Mapping[str, Any] | None:
    if isinstance(value, str):
        try:
            value = jsonio.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


def text_of(value: object, depth: int = 0) -> str:
    """The text in a tool_response: a string, a list of content blocks, or a dict of them."""
    if isinstance(value, str):
        return value
    if depth > 4:
        return ""
    if isinstance(value, list):
        return "\n".join(text_of(item, depth + 1) for item in value[:50])
    if isinstance(value, dict):
        return "\n".join(text_of(value[key], depth + 1) for key in _TEXT_KEYS if key in value)
    return ""
