"""Adapters against the real frameworks (skipped with a message where one is not installed)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from boundread.adapters.sdk import (
    MissingFramework,
    check_arguments,
    claude_agent_sdk_hook,
    langchain_middleware,
    openai_tool_guardrail,
)
from boundread.budget import Guard, Policy, PolicyDenied


def test_check_arguments(project: Path) -> None:
    assert check_arguments({"path": str(project / "report.pdf")}).decision == "deny"
    assert check_arguments({"command": "cat report.pdf"}, cwd=str(project)).decision == "deny"
    assert check_arguments({"query": "weather"}).decision == "allow"


@pytest.mark.parametrize(("args", "decision"), [
    ({"command": ["cat", "report.pdf"]}, "deny"),  # an argv list, as many shell tools take it
    ({"command": ("cat", "report.pdf")}, "deny"),
    ({"cmd": ["bash", "-lc", "cat memo.docx"]}, "deny"),
    ({"command": ["cat", "it's $HOME `x`.pdf"]}, "deny"),  # quoted back exactly
    ({"command": ["cat", "small.txt"]}, "allow"),
    ({"command": ["head", "-c", "100", "report.pdf"]}, "allow"),
    ({"command": [1, 2]}, "allow"),
    ({"paths": ["small.txt", "report.pdf"]}, "deny"),
    ({"file_paths": ["prices.xlsx"]}, "deny"),
    ({"files": ["small.txt", "notes.pdf"]}, "allow"),
    ({"paths": "report.pdf"}, "allow"),  # not a list: not a paths argument
    ({"command": "ls", "path": "report.pdf"}, "deny"),  # every argument is looked at
    ({"path": "big.log", "start_line": 1, "end_line": 100}, "allow"),
    ({"path": "big.log", "offset": 1, "limit": 100}, "allow"),
    ({"path": "big.log"}, "deny"),
])
def test_check_arguments_forms(project: Path, args: dict[str, Any], decision: str) -> None:
    assert check_arguments(args, cwd=str(project)).decision == decision


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

    def run(args: dict[str, Any]) -> Any:
        data = SimpleNamespace(context=SimpleNamespace(tool_arguments=json.dumps(args), tool_name="read_file"),
                               agent=None)
        result = guard.guardrail_function(data)
        return asyncio.run(result) if asyncio.iscoroutine(result) else result

    denied = run({"path": "report.pdf"})
    assert isinstance(denied, agents.ToolGuardrailFunctionOutput)
    assert denied.behavior["type"] == "reject_content"
    assert "boundread info report.pdf" in denied.behavior["message"]
    assert run({"path": "small.txt"}).behavior["type"] == "allow"
    assert run({"command": ["cat", "report.pdf"]}).behavior["type"] == "reject_content"
    assert run({"paths": ["small.txt", "report.pdf"]}).behavior["type"] == "reject_content"


def test_the_openai_guardrail_halts_on_a_tripped_budget_and_rejects_a_guarded_read(project: Path) -> None:
    pytest.importorskip("agents", reason="openai-agents is not installed")
    guard = Guard(policy=Policy(max_calls=1))
    guardrail = openai_tool_guardrail(cwd=str(project), budget=guard)

    def run(args: dict[str, Any]) -> Any:
        data = SimpleNamespace(context=SimpleNamespace(tool_arguments=json.dumps(args), tool_name="read_file"),
                               agent=None)
        return guardrail.guardrail_function(data)

    assert run({"path": "report.pdf"}).behavior["type"] == "reject_content", "the guard's deny: the model is told"
    assert run({"path": "small.txt"}).behavior["type"] == "allow"
    halted = run({"path": "other.txt"})
    assert halted.behavior["type"] == "raise_exception"
    assert isinstance(halted.output_info, PolicyDenied) and halted.output_info.count == 2
    assert guard.spent.calls == 1


def test_openai_agents_run_with_a_scripted_model(project: Path) -> None:
    """A real Runner: the model asks for `cat` of a PDF (argv form) and two paths; neither tool runs."""
    agents = pytest.importorskip("agents", reason="openai-agents is not installed")
    testing = pytest.importorskip("agents.testing", reason="this openai-agents has no agents.testing")
    ran: list[object] = []
    guard = openai_tool_guardrail(cwd=str(project))

    @agents.function_tool(tool_input_guardrails=[guard])
    def run_command(command: list[str]) -> str:
        """Run a command."""
        ran.append(command)
        return "ran"

    @agents.function_tool(tool_input_guardrails=[guard])
    def read_files(paths: list[str]) -> str:
        """Read files."""
        ran.append(paths)
        return "read"

    model = testing.ScriptedModel([
        [testing.function_call("run_command", {"command": ["cat", "report.pdf"]}, call_id="c1"),
         testing.function_call("read_files", {"paths": ["small.txt", "prices.xlsx"]}, call_id="c2")],
        [testing.assistant_message("done")],
    ])
    agent = agents.Agent(name="reader", instructions="read", model=model, tools=[run_command, read_files])
    result = agents.Runner.run_sync(agent, "read the report", run_config=agents.RunConfig(tracing_disabled=True))
    assert result.final_output == "done" and ran == []
    outputs = {item["call_id"]: item["output"] for item in model.last_call.input
               if isinstance(item, dict) and item.get("type") == "function_call_output"}
    assert "boundread pages report.pdf 1-5" in outputs["c1"]
    assert "boundread sheets prices.xlsx" in outputs["c2"]


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
    assert denied.name == "read_file"
    assert "boundread" in str(denied.content) and not calls
    allowed = middleware.wrap_tool_call(SimpleNamespace(tool_call={"name": "read_file", "id": "c2",
                                                                   "args": {"path": "small.txt"}}), handler)
    assert allowed == "ran" and len(calls) == 1


def _langchain_agent(project: Path, read: list[str]) -> Any:
    pytest.importorskip("langchain.agents", reason="langchain is not installed")
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    @tool
    def read_file(path: str) -> str:
        """Read a file whole."""
        read.append(path)
        return (project / path).read_text(errors="replace")

    class ToolModel(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # the fake model answers as scripted
            return self

    model = ToolModel(messages=iter([
        AIMessage(content="", tool_calls=[{"name": "read_file", "args": {"path": "report.pdf"}, "id": "call_1"},
                                          {"name": "read_file", "args": {"path": "small.txt"}, "id": "call_2"}]),
        AIMessage(content="done"),
    ]))
    return create_agent(model, tools=[read_file], middleware=[langchain_middleware(cwd=str(project))])


def _tool_messages(state: dict[str, Any]) -> dict[str, Any]:
    return {message.tool_call_id: message for message in state["messages"] if message.type == "tool"}


def test_langchain_agent_ainvoke(project: Path) -> None:
    """The async path (ainvoke/astream) raised NotImplementedError at the first tool call."""
    read: list[str] = []
    state = asyncio.run(_langchain_agent(project, read).ainvoke({"messages": [("user", "read the report")]}))
    tools = _tool_messages(state)
    assert tools["call_1"].status == "error" and tools["call_1"].name == "read_file"
    assert "boundread pages report.pdf 1-5" in str(tools["call_1"].content)
    assert tools["call_2"].status == "success" and "BOUNDREAD-SENTINEL-7" in str(tools["call_2"].content)
    assert read == ["small.txt"] and state["messages"][-1].content == "done"


def test_langchain_agent_astream_and_invoke(project: Path) -> None:
    read: list[str] = []

    async def stream() -> list[Any]:
        return [chunk async for chunk in _langchain_agent(project, read).astream(
            {"messages": [("user", "read the report")]}, stream_mode="values")]

    chunks = asyncio.run(stream())
    assert _tool_messages(chunks[-1])["call_1"].status == "error"
    state = _langchain_agent(project, read).invoke({"messages": [("user", "read the report")]})
    assert _tool_messages(state)["call_1"].name == "read_file"
    assert read == ["small.txt", "small.txt"]


@pytest.mark.parametrize(("factory", "module"), [
    (openai_tool_guardrail, "agents"),
    (langchain_middleware, "langchain.agents.middleware"),
    (langchain_middleware, "langchain_core.messages"),
])
def test_a_missing_framework_names_the_extra(factory: Any, module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # what an absent package looks like to import
    with pytest.raises(MissingFramework) as caught:
        factory()
    assert isinstance(caught.value, ModuleNotFoundError)  # `except ImportError` still works
    assert "pip install 'boundread[frameworks]'" in str(caught.value)
    assert str(caught.value).count("\n") == 0
