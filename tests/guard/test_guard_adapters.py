"""Adapters against the real frameworks (skipped with a message where one is not installed)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from boundread.guard.adapters import check_arguments, claude_agent_sdk_hook, langchain_middleware, openai_tool_guardrail


def test_check_arguments(project: Path) -> None:
    assert check_arguments({"path": str(project / "report.pdf")}).decision == "deny"
    assert check_arguments({"command": "cat report.pdf"}, cwd=str(project)).decision == "deny"
    assert check_arguments({"query": "weather"}).decision == "allow"


def test_claude_agent_sdk_hook(project: Path) -> None:
    sdk = pytest.importorskip("claude_agent_sdk", reason="claude-agent-sdk is not installed")
    hook = claude_agent_sdk_hook()
    sdk.ClaudeAgentOptions(hooks={"PreToolUse": [sdk.HookMatcher(matcher="Read|Bash", hooks=[hook])]})
    data = {"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t", "cwd": str(project),
            "tool_name": "Read", "tool_input": {"file_path": str(project / "report.pdf")}}
    out = asyncio.run(hook(data, "toolu_1", {"signal": None}))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "boundread pages" in out["hookSpecificOutput"]["permissionDecisionReason"]
    data["tool_input"] = {"file_path": str(project / "small.txt")}
    assert asyncio.run(hook(data, "toolu_2", {"signal": None})) == {}


def test_openai_agents_guardrail(project: Path) -> None:
    agents = pytest.importorskip("agents", reason="openai-agents is not installed")
    guard = openai_tool_guardrail(cwd=str(project))

    def run(args: dict[str, str]) -> object:
        data = SimpleNamespace(context=SimpleNamespace(tool_arguments=json.dumps(args), tool_name="read_file"),
                               agent=None)
        result = guard.guardrail_function(data)
        return asyncio.run(result) if asyncio.iscoroutine(result) else result

    denied = run({"path": "report.pdf"})
    assert isinstance(denied, agents.ToolGuardrailFunctionOutput)
    assert denied.behavior["type"] == "reject_content"
    assert "boundread info report.pdf" in denied.behavior["message"]
    assert run({"path": "small.txt"}).behavior["type"] == "allow"  # type: ignore[attr-defined]

    @agents.function_tool(tool_input_guardrails=[guard])
    def read_file(path: str) -> str:
        """Read a file."""
        return Path(path).read_text()

    assert read_file.tool_input_guardrails == [guard]


def test_langchain_middleware(project: Path) -> None:
    pytest.importorskip("langchain.agents.middleware", reason="langchain is not installed")
    from langchain_core.messages import ToolMessage

    middleware = langchain_middleware(cwd=str(project))
    calls: list[object] = []

    def handler(request: object) -> str:
        calls.append(request)
        return "ran"

    denied = middleware.wrap_tool_call(SimpleNamespace(tool_call={"name": "read_file", "id": "c1",
                                                                  "args": {"path": "report.pdf"}}), handler)
    assert isinstance(denied, ToolMessage) and denied.status == "error" and denied.tool_call_id == "c1"
    assert "boundread" in str(denied.content) and not calls
    allowed = middleware.wrap_tool_call(SimpleNamespace(tool_call={"name": "read_file", "id": "c2",
                                                                   "args": {"path": "small.txt"}}), handler)
    assert allowed == "ran" and len(calls) == 1
