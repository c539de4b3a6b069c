"""The guard inside agent frameworks. Each factory imports its framework only when called.

    # Claude Agent SDK
    from claude_agent_sdk import ClaudeAgentOptions, HookMatcher
    options = ClaudeAgentOptions(hooks={"PreToolUse": [HookMatcher(matcher="Read|Bash",
                                                                   hooks=[claude_agent_sdk_hook()])]})
    # OpenAI Agents SDK
    @function_tool(tool_input_guardrails=[openai_tool_guardrail()])
    def read_file(path: str) -> str: ...
    # LangChain v1
    agent = create_agent(model, tools=[...], middleware=[langchain_middleware()])
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, Decision, check_command, check_read
from boundread.guard.dialects import read_range

PATH_KEYS = ("file_path", "path", "filename", "file", "target_file", "absolute_path")
COMMAND_KEYS = ("command", "cmd", "command_line", "script")


def check_arguments(args: Mapping[str, Any], *, cwd: str | None = None,
                    config: GuardConfig | None = None) -> Decision:
    """Guard a tool call from its arguments alone: a path-like argument is a read, a command a shell run."""
    for key in COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return check_command(value, cwd=cwd, config=config)
    for key in PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            offset, limit = read_range(args)
            return check_read(value, offset=offset, limit=limit, pages=args.get("pages"), cwd=cwd,
                              config=config)
    return Decision(ALLOW, rule="other-tool")


HookCallback = Callable[[dict[str, Any], "str | None", Any], Awaitable[dict[str, Any]]]


def claude_agent_sdk_hook(config: GuardConfig | None = None) -> HookCallback:
    """A ``PreToolUse`` hook callback for ``claude_agent_sdk.HookMatcher(hooks=[...])``."""

    async def boundread_guard(input_data: dict[str, Any], tool_use_id: str | None,
                              context: Any) -> dict[str, Any]:
        tool = str(input_data.get("tool_name") or "")
        args = input_data.get("tool_input") or {}
        cwd = input_data.get("cwd") or None
        if tool == "Read":
            decision = check_read(str(args.get("file_path") or ""), offset=args.get("offset"),
                                  limit=args.get("limit"), pages=args.get("pages"), cwd=cwd, config=config)
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
    from agents import ToolGuardrailFunctionOutput, tool_input_guardrail

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
    """A LangChain v1 ``wrap_tool_call`` middleware: a denied call returns an error ToolMessage."""
    from langchain.agents.middleware import wrap_tool_call
    from langchain_core.messages import ToolMessage

    @wrap_tool_call
    def boundread_guard(request: Any, handler: Callable[[Any], Any]) -> Any:
        call = request.tool_call
        args = call.get("args") or {}
        decision = check_arguments(args if isinstance(args, dict) else {}, cwd=cwd, config=config)
        if decision.denied:
            return ToolMessage(content=decision.reason, tool_call_id=call.get("id") or "", status="error")
        return handler(request)

    return boundread_guard
