"""The budget in the agent frameworks ends the run (issue 18), in-process, with the frameworks' own objects.

Claude Agent SDK: its hook callbacks get Claude Code's payloads (real-shaped, helpers_budget) and answer in the
SDK's Python names (``continue_``). LangChain v1: a real ``create_agent`` over a fake chat model that never stops
asking for a tool and reports usage_metadata. The OpenAI Agents SDK's runs are in tests/e2e/test_openai_agents.py
(its own HTTP client against the fake server), its guardrail's answer in tests/adapters/test_sdk_adapters.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from helpers_budget import assistant_line, pre_tool_use, write_transcript
from typer.testing import CliRunner

from boundread.adapters.sdk import (
    claude_agent_sdk_budget_hooks,
    claude_agent_sdk_hook,
    langchain_middleware,
)
from boundread.agents import sessionfiles
from boundread.budget import Guard, Policy, PolicyDenied, TokenBudget, TokenBudgetExceeded
from boundread.budget.nextrequest import TokenBudgetWouldPass
from boundread.cli.budget import budget_app
from boundread.errors import UsageError

REQUEST = 10 + 100 + 1000 + 50  # the tokens of one request of write_transcript


def budget(*args: str) -> None:
    result = CliRunner().invoke(budget_app, list(args))
    assert result.exit_code == 0, result.output


def post_tool_use(session: str, transcript: Path, **extra: Any) -> dict[str, Any]:
    return {**pre_tool_use(session, transcript, "echo hi"), "hook_event_name": "PostToolUse",
            "tool_response": {"stdout": "hi"}, **extra}


def sdk_answer(payload: dict[str, Any]) -> dict[str, Any]:
    """What the SDK's budget hook for this payload's event answers."""
    sdk = pytest.importorskip("claude_agent_sdk", reason="claude-agent-sdk is not installed")
    (matcher,) = claude_agent_sdk_budget_hooks()[payload["hook_event_name"]]
    assert isinstance(matcher, sdk.HookMatcher) and matcher.matcher is None, "every tool"
    (callback,) = matcher.hooks
    return dict(asyncio.run(callback(payload, payload.get("tool_use_id"), {"signal": None})))


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return tmp_path / "s.jsonl"


def test_a_budget_deny_at_the_sdk_pre_tool_hook_ends_the_run(backend: str, transcript: Path) -> None:
    budget("set", "--session", "s", "--max-calls", "1")
    hook = claude_agent_sdk_hook()
    assert asyncio.run(hook(pre_tool_use("s", transcript, "echo 1"), "toolu_1", {"signal": None})) == {}
    answer = asyncio.run(hook(pre_tool_use("s", transcript, "echo 2"), "toolu_2", {"signal": None}))
    assert answer["continue_"] is False and "continue" not in answer, "the SDK's Python name"
    assert answer["stopReason"].startswith("boundread budget: call limit reached: call 2 of max 1 in session s")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "budget stopped this on purpose" in answer["hookSpecificOutput"]["permissionDecisionReason"]
    write_transcript(transcript, 0, 1)
    after = sdk_answer(post_tool_use("s", transcript, tool_use_id="toolu_1"))
    assert after["continue_"] is False and "call limit reached" in after["stopReason"], "the session stays ended"


def test_the_sdk_pre_tool_hook_without_the_budget_only_guards(transcript: Path) -> None:
    budget("set", "--session", "s", "--max-calls", "1")
    hook = claude_agent_sdk_hook(budget=False)
    for n in range(3):
        assert asyncio.run(hook(pre_tool_use("s", transcript, f"echo {n}"), None, {"signal": None})) == {}


def test_the_sdk_budget_hooks_end_the_session_before_the_request_that_would_cross(
        backend: str, transcript: Path) -> None:
    budget("set", "--session", "s", "--max-tokens", str(3 * REQUEST - 1))
    write_transcript(transcript, 0, 1)
    assert sdk_answer(post_tool_use("s", transcript, tool_use_id=None)) == {}, "a third of the cap: nothing to say"
    write_transcript(transcript, 1, 1)
    answer = sdk_answer(post_tool_use("s", transcript, tool_use_id=None))
    assert answer["continue_"] is False and set(answer) == {"continue_", "stopReason"}
    assert "the next request would pass the token cap of session s" in answer["stopReason"]
    refused = sdk_answer({"session_id": "s", "transcript_path": str(transcript), "cwd": str(transcript.parent),
                          "hook_event_name": "UserPromptSubmit", "prompt": "go on"})
    assert refused["decision"] == "block" and refused["continue_"] is False
    assert refused["reason"] == refused["stopReason"]


def test_past_half_the_sdk_hook_tells_the_model_what_is_left(transcript: Path) -> None:
    budget("set", "--session", "s", "--max-tokens", str(10 * REQUEST))
    write_transcript(transcript, 0, 6)
    answer = sdk_answer(post_tool_use("s", transcript, tool_use_id=None))
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("boundread budget: 60% of the token cap of session s used")
    assert answer["hookSpecificOutput"]["hookEventName"] == "PostToolUse"


def _tool_use_line(i: int, call: str) -> str:
    """A request of write_transcript's size whose answer is the tool call ``call``."""
    line = json.loads(assistant_line(i))
    line["message"]["content"] = [{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "ls"}}]
    return json.dumps(line) + "\n"


def test_the_sdk_hook_waits_for_the_request_its_tool_call_came_in(
        transcript: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code flushes its transcript on a timer and calls an in-process hook at once: the request that asked
    for the tool may not be in the file yet. The verdict waits for it (by the call's id), so the session still
    ends before the request that would cross the cap, not after it. Here the request reaches the file only
    after the hook has looked three times."""
    budget("set", "--session", "s", "--max-tokens", str(3 * REQUEST - 1))
    write_transcript(transcript, 0, 1)
    looks: list[Path] = []
    look = sessionfiles._tail_has

    def flushed_late(path: Path, needle: bytes) -> bool:
        looks.append(path)
        if len(looks) == 3:
            with transcript.open("a", encoding="utf-8") as f:
                f.write(_tool_use_line(1, "toolu_late"))
        return look(path, needle)

    monkeypatch.setattr(sessionfiles, "_tail_has", flushed_late)
    answer = sdk_answer(post_tool_use("s", transcript, tool_use_id="toolu_late"))
    assert answer.get("continue_") is False, answer
    assert f"{2 * REQUEST:,} tokens of {3 * REQUEST - 1:,} tokens spent" in answer["stopReason"]
    assert len(looks) == 3


def test_waiting_for_a_call_is_bounded_and_skips_what_is_not_a_file(tmp_path: Path) -> None:
    missing = {"tool_use_id": "toolu_x", "transcript_path": str(tmp_path / "none.jsonl")}
    assert sessionfiles.settle_call(missing, limit=0.05) >= 0.05, "it waited, for the limit at most"
    assert sessionfiles.settle_call({"tool_use_id": "toolu_x"}) == 0.0
    (tmp_path / "t.jsonl").write_text(_tool_use_line(0, "toolu_x"), encoding="utf-8")
    assert sessionfiles.settle_call({**missing, "transcript_path": str(tmp_path / "t.jsonl")}, limit=5) < 5


# LangChain v1 -------------------------------------------------------------------------------------------------


def _langchain_runaway(guard: Guard, seen: list[list[Any]], *, usage: bool = True) -> Any:
    """An agent whose model asks for one more `echo` at every turn, 150 tokens a request; ``seen`` gets the
    messages each request carried."""
    pytest.importorskip("langchain.agents", reason="langchain is not installed")
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    @tool
    def echo(text: str) -> str:
        """Echo the text."""
        return text

    def answers() -> Any:
        for n in range(40):
            yield AIMessage(content="", tool_calls=[{"name": "echo", "args": {"text": f"step {n}"}, "id": f"c{n}"}],
                            usage_metadata={"input_tokens": 100, "output_tokens": 50, "total_tokens": 150}
                            if usage else None)

    class Runaway(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # the fake model answers as scripted
            return self

        def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append(list(messages))
            return super()._generate(messages, *args, **kwargs)

    model = Runaway(messages=answers())
    return create_agent(model, tools=[echo], middleware=[langchain_middleware(budget=guard, model="claude-sonnet-4-5")])


GO = ({"messages": [("user", "keep going")]}, {"recursion_limit": 200})


def test_langchain_ends_a_runaway_before_the_request_that_would_cross_the_cap() -> None:
    guard, seen = Guard(tokens=TokenBudget(1000)), []
    with pytest.raises(TokenBudgetWouldPass) as stopped:
        _langchain_runaway(guard, seen).invoke(*GO)
    assert len(seen) == 6 and guard.spent.tokens == 900, "overshoot 0: the 7th request was not sent"
    assert (stopped.value.spent, stopped.value.limit, stopped.value.next) == (900, 1000, 150)
    notes = [m.content for m in seen[4] if m.type == "human" and "boundread budget" in str(m.content)]
    assert notes == ["boundread budget: 60% of the token cap of session python used (600 tokens of 1,000 tokens;"
                     " 400 tokens left, about 2 request(s) at the last one's size)."]
    assert sum("boundread budget" in str(m.content) for m in seen[5]) == 1, "the note rides on its request alone"


def test_langchain_async_stops_the_same() -> None:
    guard, seen = Guard(tokens=TokenBudget(1000)), []
    with pytest.raises(TokenBudgetWouldPass):
        asyncio.run(_langchain_runaway(guard, seen).ainvoke(*GO))
    assert len(seen) == 6 and guard.spent.tokens == 900


def test_langchain_with_overshoot_ends_after_the_request_that_crossed() -> None:
    guard, seen = Guard(tokens=TokenBudget(1000), allow_overshoot=True), []
    with pytest.raises(TokenBudgetExceeded) as stopped:
        _langchain_runaway(guard, seen).invoke(*GO)
    assert len(seen) == 7 and type(stopped.value) is TokenBudgetExceeded and stopped.value.spent == 1050


def test_a_budget_denied_tool_call_ends_the_langchain_run() -> None:
    guard, seen = Guard(policy=Policy(max_calls=3)), []
    with pytest.raises(PolicyDenied, match="call limit reached: call 4 of max 3"):
        _langchain_runaway(guard, seen).invoke(*GO)
    assert len(seen) == 4 and guard.spent.calls == 3


def test_langchain_refuses_to_guess_a_missing_usage_under_a_cap() -> None:
    with pytest.raises(UsageError, match="no usage_metadata"):
        _langchain_runaway(Guard(tokens=TokenBudget(1000)), [], usage=False).invoke(*GO)
    with pytest.raises(PolicyDenied):  # no token or USD cap: nothing to size, the calls still count
        _langchain_runaway(Guard(policy=Policy(max_calls=2)), [], usage=False).invoke(*GO)
