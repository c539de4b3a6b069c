"""The guard inside agent frameworks. Each factory imports its framework only when called.

    # Claude Agent SDK
    from claude_agent_sdk import ClaudeAgentOptions, HookMatcher
    options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher(matcher="Read|Bash",
                                                                   hooks=[claude_agent_sdk_hook()])]})
    # OpenAI Agents SDK
    @function_tool(tool_input_guardrails=[openai_tool_guardrail()])
    def read_file(path: str) -> str: ...
    # LangChain v1 (invoke/stream and ainvoke/astream alike)
    agent = create_agent(model, tools=[...], middleware=[langchain_middleware()])

A framework that is not installed raises MissingFramework (a ModuleNotFoundError) naming the extra:
``pip install 'boundread[frameworks]'``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from boundread.errors import Unsupported
from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, Decision, check_command, check_read
from boundread.guard.dialects import read_range

PATH_KEYS = ("file_path", "path", "filename", "file", "target_file", "absolute_path")
PATH_LIST_KEYS = ("paths", "file_paths", "files", "filenames")
COMMAND_KEYS = ("command", "cmd", "command_line", "script")
EXTRA = "pip install 'boundread[frameworks]'"


class MissingFramework(Unsupported, ModuleNotFoundError):
    """The adapter's framework is not installed; the message names the extra that installs it."""


def _missing(exc: ModuleNotFoundError, label: str) -> MissingFramework:
    """The error for an adapter whose framework did not import: it names the extra to install."""
    error = MissingFramework(f"{label} is not installed (no module {exc.name!r})", EXTRA)
    error.name = exc.name
    return error


def check_arguments(args: Mapping[str, Any], *, cwd: str | None = None,
                    config: GuardConfig | None = None) -> Decision:
    """Guard a tool call from its arguments alone: a command (a string, or an argv list) is a shell
    run, a path-like argument (or a list of them) a read. The first deny wins."""
    for key in COMMAND_KEYS:
        command = _command(args.get(key))
        if command:
            decision = check_command(command, cwd=cwd, config=config)
            if decision.denied:
                return decision
    offset, limit = read_range(args)
    paths = [args.get(key) for key in PATH_KEYS]
    for key in PATH_LIST_KEYS:
        value = args.get(key)
        if isinstance(value, (list, tuple)):
            paths.extend(value)
    for path in paths:
        if isinstance(path, str) and path:
            decision = check_read(path, offset=offset, limit=limit, pages=args.get("pages"), cwd=cwd,
                                  config=config)
            if decision.denied:
                return decision
    return Decision(ALLOW, rule="other-tool")


def _command(value: object) -> str:
    """A command string; an argv list (``["cat", "a.pdf"]``) quoted back into one."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(word, str) for word in value):
        return shlex.join(value)
    return ""


HookCallback = Callable[[dict[str, Any], "str | None", Any], Awaitable[dict[str, Any]]]


def claude_agent_sdk_hook(config: GuardConfig | None = None) -> HookCallback:
    """A ``PreToolUse`` hook callback for ``claude_agent_sdk.HookMatcher(hooks=[...])``."""

    async def boundread_guard(input_data: dict[str, Any], tool_use_id: str | None,
                              context: Any) -> dict[str, Any]:
        tool = str(input_data.get("tool_name") or "")
        args = input_data.get("tool_input") or {}
        cwd = input_data.get("cwd") or None
        if tool == "Read":
            offset, limit = read_range(args)
            decision = check_read(str(args.get("file_path") or ""), offset=offset, limit=limit,
                                  pages=args.get("pages"), cwd=cwd, config=config)
        elif tool in ("Bash", "PowerShell"):
            decision = check_command(str(args.get("command") or ""), cwd=cwd, config=config)
        else:
            return {}
        if not decision.denied:
            return {}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                       "permissionDecisionReason": decision.reason}}

    return boundread_guard


def openai_tool_guardrail(config: GuardConfig | None = None, cwd: str | None = None) -> Any:
    """An OpenAI Agents SDK tool input guardrail: ``reject_content`` with the reason on deny."""
    try:
        from agents import ToolGuardrailFunctionOutput, tool_input_guardrail
    except ModuleNotFoundError as exc:
        raise _missing(exc, "the OpenAI Agents SDK (openai-agents)") from None

    @tool_input_guardrail
    def boundread_guard(data: Any) -> Any:
        try:
            args = json.loads(data.context.tool_arguments or "{}")
        except json.JSONDecodeError:
            return ToolGuardrailFunctionOutput.allow()
        decision = check_arguments(args if isinstance(args, dict) else {}, cwd=cwd, config=config)
        if decision.denied:
            return ToolGuardrailFunctionOutput.reject_content(decision.reason)
        return ToolGuardrailFunctionOutput.allow()

    return boundread_guard


def langchain_middleware(config: GuardConfig | None = None, cwd: str | None = None) -> Any:
    """A LangChain v1 middleware (sync and async): a denied call answers an error ToolMessage, named
    after the tool, instead of running it."""
    try:
        from langchain.agents.middleware import AgentMiddleware
        from langchain_core.messages import ToolMessage
    except ModuleNotFoundError as exc:
        raise _missing(exc, "LangChain (langchain>=1.0)") from None

    def refusal(request: Any) -> ToolMessage | None:
        call = request.tool_call
        args = call.get("args") or {}
        decision = check_arguments(args if isinstance(args, dict) else {}, cwd=cwd, config=config)
        if not decision.denied:
            return None
        return ToolMessage(content=decision.reason, tool_call_id=call.get("id") or "", name=call.get("name"),
                           status="error")

    class BoundreadGuard(AgentMiddleware):
        """Deny whole-file reads of big or binary files; the ToolMessage says what to run instead."""

        def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
            denied = refusal(request)
            return handler(request) if denied is None else denied

        async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
            denied = refusal(request)
            return await handler(request) if denied is None else denied

    return BoundreadGuard()
