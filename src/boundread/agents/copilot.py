"""GitHub Copilot CLI: its hooks in ``.github/hooks/boundread.json`` (the user's: ``~/.copilot/hooks/``), flat
handlers with a ``bash`` and a ``powershell`` command, the skill text in AGENTS.md, its folder trust in the user's
``~/.copilot/config.json`` (copilot_trust.py: in a folder it does not trust, Copilot runs none of the project's
hooks, without a word).

A deny is ``permissionDecision`` (its exit 2 does not block); the VS Code-compatible payload (``PreToolUse``,
snake_case) is answered in both shapes. A redirect is ``permissionDecision: allow`` with ``modifiedArgs`` (the
whole input that runs instead) and ``additionalContext`` (a text the model gets after the result): Copilot CLI
1.0.102 runs the modified ``view`` and ``bash`` alike, and shows the model its call with the modified input
(tests/e2e/test_copilot.py). ``view`` takes its range as one ``view_range: [first, last]``: a redirect's range
(``READ_RANGE``) is folded into it here. To the VS Code-compatible payload a planned redirect is a deny (its
rewrite is not verified). Copilot cannot replace a tool's output: its pre-tool event only.
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

NAME = "copilot"
LABEL = "GitHub Copilot CLI"
PRE_MATCHER = "bash|view"
#: With a budget the guard sees every tool. Copilot CLI 1.0.102 reads a matcher as a regular expression: ".*" is
#: every tool, while "*" (the other clients' "every tool") matches none (tests/e2e/test_copilot.py).
BUDGET_MATCHER = ".*"
REDIRECT = True
INGEST_EVENTS: tuple[str, ...] = ("postToolUse", "userPromptSubmitted", "agentStop", "subagentStop", "sessionEnd")
RANGE_PARAMS = "view_range"  # how its read tool takes a range, for a deny reason
#: What a redirect sets for a range of view (inclusive): not view's own parameters - reply folds them into its one
#: ``view_range: [first, last]``.
READ_RANGE: tuple[str, ...] = ("start_line", "end_line")
#: Its own hard limits (1.0.102, measured with the real client; tests/hook/test_suggestions_fit_client_limits.py):
#: ``view`` refuses a whole file over 20,480 bytes ("File too large to read at once (20.0 KB)") unless asked with
#: ``forceReadLargeFiles``, and cuts a ranged view at 20 KB ("[Output truncated. Use view_range=[224, ...]"), any
#: file size; a shell output over 20,480 characters with its ``<shellId: N ...>`` line (about 40) goes to a temp
#: file, and the model gets an 890-character preview and its path. (The 42.9 KB once reported was the size in
#: that refusal of a 43.9 KB file: Copilot counts KB as 1,024 bytes.)
READ_MAX_BYTES: int | None = 20 * 1024
READ_FILE_MAX_BYTES: int | None = None  # a ranged view reads a file of any size (25 MB checked)
READ_MAX_LINES: int | None = None
READ_MAX_TOKENS: int | None = None
SHELL_MAX_CHARS: int | None = 20 * 1024 - 80  # the room left for its shellId line
MCP_MAX_CHARS: int | None = None  # not measured
#: Copilot's settings in a project, where a tool or path rule of the user's may be (beside ~/.copilot/settings.json)
_SETTINGS = (".github/copilot/settings.json", ".github/copilot/settings.local.json")
_RULES = ("permissions", "deniedPaths", "deniedUrls", "deny", "denyTool", "deniedTools", "excludedTools",
          "availableTools")
_REWRITTEN = ("view", "bash")  # the tools whose modifiedArgs Copilot CLI was seen to run


def parse(payload: Mapping[str, Any], agent: str) -> Call:
    """``toolName`` and ``toolArgs`` (an object in 1.0.102, a JSON string before); the VS Code-compatible hooks send
    the snake_case payload."""
    if "toolName" not in payload:
        return dialect.snake(payload, agent)
    return dialect.tool_call(agent, str(payload["toolName"]), dialect.as_dict(payload.get("toolArgs"), "toolArgs"),
                             str(payload.get("cwd") or ""), str(payload.get("hook_event_name") or ""))


def reply(decision: Decision, event: str, agent: str) -> Reply:
    """``permissionDecision`` (its exit 2 does not block); to the VS Code-compatible payload in both shapes. A
    redirect: ``modifiedArgs`` and ``additionalContext`` (see :func:`modified`)."""
    if decision.denied:
        why = dialect.why(decision)
        body: dict[str, Any] = {"permissionDecision": "deny", "permissionDecisionReason": why}
        if event == "PreToolUse":
            body["hookSpecificOutput"] = dialect.pre_tool_deny(why)
        return Reply(dialect.dump(body))
    if decision.updated is None:
        return Reply()
    if event == "PreToolUse":  # the VS Code-compatible payload: a rewrite there is not verified, so a deny
        why = "Not an error: boundread refused this on purpose - " + (decision.context or "it is too big to read whole")
        return Reply(dialect.dump({"permissionDecision": "deny", "permissionDecisionReason": why,
                                   "hookSpecificOutput": dialect.pre_tool_deny(why)}))
    args = modified(decision.updated)
    body = {"permissionDecision": "allow", "permissionDecisionReason": "boundread redirect: a bounded read instead",
            "modifiedArgs": args}
    if decision.context:
        import re  # the redirect path only: guard-check's allow path loads no re

        body["additionalContext"] = re.sub(r"start_line=(\d+) end_line=(\d+)", r"view_range=[\1, \2]",
                                           decision.context)
    return Reply(dialect.dump(body))


def modified(updated: Mapping[str, Any]) -> dict[str, Any]:
    """A redirect's input as ``view`` and ``bash`` take it: a range (``READ_RANGE``) as ``view_range: [first,
    last]``; a whole ``view`` (boundread's own slice file, bounded by it) with ``forceReadLargeFiles``, as view
    refuses any file over READ_MAX_BYTES otherwise."""
    args = {key: value for key, value in updated.items() if key not in READ_RANGE}
    first, last = (updated.get(key) for key in READ_RANGE)
    if isinstance(first, int) and isinstance(last, int):
        args["view_range"] = [first, last]
    elif "path" in args and "command" not in args and args.get("view_range") is None:
        args["forceReadLargeFiles"] = True
    return args


def user_rules(tool: str, root: str) -> bool:
    """Does a Copilot settings file (the user's ``~/.copilot/settings.json``, the repository's and the local
    ``.github/copilot/settings*.json``) hold permissions or tool rules? Whether Copilot checks them again on
    ``modifiedArgs`` was not verified: where such rules exist, a rewrite does not step around them
    (hook/permissions.py). Rules given on its command line (``--deny-tool``) a hook cannot see. True for any tool
    but Copilot's own ``view`` and ``bash`` (the VS Code-compatible payload's Read, Bash...): a rewrite there was
    not verified, so the deny stands."""
    from boundread.agents.rulefiles import settings_of

    if tool not in _REWRITTEN:
        return True
    home = os.environ.get("COPILOT_HOME") or os.environ.get("HOME", "") + "/.copilot"
    for file in (f"{home}/settings.json", *(f"{root}/{name}" for name in _SETTINGS)):
        data = settings_of(file)
        if data is True or (isinstance(data, dict) and any(key in data for key in _RULES)):
            return True
    return False



def target(root: Path, home: Path, user: bool, program: str, budget: bool) -> Target:
    """Our own hooks file (removed whole on uninstall); PowerShell runs a quoted path with ``&``."""
    from boundread.agents import install
    from boundread.agents.base import Target

    def flat(command: str, **more: Any) -> dict[str, Any]:
        shell = f"& {command}" if program.startswith("'") else command
        return {"type": "command", "bash": command, "powershell": shell, **more}

    folder = (home / ".copilot" / "hooks") if user else root / ".github" / "hooks"
    hook = flat(install.command(NAME, program), matcher=BUDGET_MATCHER if budget else PRE_MATCHER, timeoutSec=30)
    return Target(folder / "boundread.json", (("preToolUse", hook),), None if user else root / "AGENTS.md",
                          True, {"version": 1},
                          install.ingest_hooks(INGEST_EVENTS, lambda: flat(f"{program} budget ingest",
                                                                           timeoutSec=install.INGEST_TIMEOUT),
                                               flat=True))


def checks(settings: Path, root: Path, home: Path) -> list[Check]:
    """Copilot runs the project's hooks (``.github/hooks``) only in a folder it trusts; the user's own hooks
    (``~/.copilot/hooks``) in every folder."""
    from boundread.agents import copilot_trust
    from boundread.agents.base import Check

    if settings.parent.resolve() == (copilot_trust.config_path(home).parent / "hooks").resolve():
        return [Check("trusted", True, "Copilot CLI runs the user's hooks in every folder, trusted or not")]
    trust = copilot_trust.check(root, home)
    if trust.trusted:
        return [Check("trusted", True, f"Copilot CLI trusts {root}: {trust.detail}")]
    fix = copilot_trust.how(root)
    if trust.trusted is None:
        return [Check("trusted", None, f"cannot tell whether Copilot CLI trusts {root}: {trust.detail}", fix)]
    return [Check("trusted", False, f"Copilot CLI does not trust {root} ({trust.detail}): it runs none of the "
                  "hooks in .github/hooks there, without a word", fix)]
