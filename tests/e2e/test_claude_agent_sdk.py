"""The guard and the budget as in-process hooks of the Claude Agent SDK, whose bundled Claude Code talks to the
fake server. The hooks run in this test's process: the ledger is the one ``BOUNDREAD_STATE_DIR`` names here, the
workspace's own (tests/conftest.py pins both to the same folder)."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from typing import Any

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn, Usage
from tests.e2e.files import project_files

sdk = pytest.importorskip("claude_agent_sdk", reason="install boundread[frameworks] for the Agent SDK tests")


TURNS = 40  # far more than any cap below allows


async def _query(workspace: Workspace, model: FakeModel, prompt: str, *, budget: bool = False,
                 resume: str | None = None) -> list[Any]:
    from boundread.adapters.sdk import claude_agent_sdk_budget_hooks, claude_agent_sdk_hook

    hooks: dict[str, list[Any]] = {"PreToolUse": [sdk.HookMatcher(hooks=[claude_agent_sdk_hook()])]}
    if budget:  # else the pre-tool hook alone: the guard, and the ledger's check of each call
        hooks.update(claude_agent_sdk_budget_hooks())
    options = sdk.ClaudeAgentOptions(
        cwd=str(workspace.project),
        allowed_tools=["Read", "Bash"],
        hooks=hooks,  # type: ignore[arg-type]
        resume=resume,
        env=workspace.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake"),
    )
    return [message async for message in sdk.query(prompt=prompt, options=options)]


def _runaway(model: FakeModel) -> None:
    """A model that asks for one more command at every turn: 150 tokens a request (the server's default)."""
    model.script(*(Turn(calls=(Call("Bash", {"command": f"echo step {n}", "description": "step"}),))
                   for n in range(TURNS)))


def _cap(workspace: Workspace, *args: str) -> None:
    done = workspace.boundread("budget", "set", "--project", *args)
    assert done.returncode == 0, done.stderr


def _result(messages: list[Any]) -> Any:
    (result,) = [m for m in messages if isinstance(m, sdk.ResultMessage)]
    return result


def _ledger(workspace: Workspace, session: str) -> dict[str, Any]:
    """What ``budget status`` says the session spent."""
    done = workspace.boundread("budget", "status", "--json", "--session", session)
    (scope,) = json.loads(done.stdout)["scopes"]
    return dict(scope["spent"])


def test_the_sdk_hook_refuses_a_whole_pdf_and_the_model_is_told_what_to_run(workspace: Workspace) -> None:
    project_files(workspace.project)
    pdf = str(workspace.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf}),)),
                     Turn(calls=(Call("Read", {"file_path": pdf, "pages": "1-2"}),)),
                     Turn(text="Read it in parts."))
        messages = asyncio.run(_query(workspace, model, "Summarise report.pdf"))
        refused, bounded = claude.results(model)
    assert messages[-1].result == "Read it in parts."
    assert "Not an error" in refused and "boundread pages report.pdf 1-5" in refused
    assert "boundread" not in bounded, "a read of two pages is let through"


def test_without_a_cap_the_sdk_runaway_runs_all_its_turns(workspace: Workspace) -> None:
    """The baseline: the same model and the same budget hooks, no limit set."""
    with claude.fake_model() as model:
        _runaway(model)
        asyncio.run(_query(workspace, model, "Keep going", budget=True))
        assert len(model.loop("")) == TURNS + 1


def test_a_token_cap_ends_the_sdk_session_before_the_request_that_would_cross_it(workspace: Workspace) -> None:
    _cap(workspace, "--max-tokens", "1000")  # 150 tokens a request: 6 fit, the 7th would pass
    with claude.fake_model() as model:
        _runaway(model)
        result = _result(asyncio.run(_query(workspace, model, "Keep going", budget=True)))
        requests, spent = len(model.loop("")), model.spent()
    assert (requests, spent) == (6, 900), "overshoot 0: the session ended before the 7th request"
    assert result.terminal_reason == "hook_stopped"
    reasons = claude.stop_reasons(workspace)
    assert any("the next request would pass the token cap" in r and "900 tokens of 1,000 tokens" in r
               for r in reasons), reasons
    assert _ledger(workspace, result.session_id)["tokens"] == spent, "the ledger counted what the server reported"


def test_a_usd_cap_ends_the_sdk_session_before_the_request_that_would_cross_it(workspace: Workspace) -> None:
    _cap(workspace, "--max-usd", "0.55")
    with claude.fake_model() as model:
        model.usage_per_turn = Usage(input_tokens=15_000, output_tokens=1_000)
        _runaway(model)
        result = _result(asyncio.run(_query(workspace, model, "Keep going", budget=True)))
        requests = len(model.loop(""))
    theirs = Decimal(str(result.total_cost_usd))  # Claude Code's own count
    each = theirs / requests
    assert 1 < requests < TURNS
    assert Decimal(_ledger(workspace, result.session_id)["usd"]) == theirs.quantize(Decimal("1e-9"))
    assert theirs <= Decimal("0.55") < theirs + each, "overshoot 0: it ended before the request that would pass"
    assert any("the next request would pass the cost cap" in r for r in claude.stop_reasons(workspace))


def test_a_call_limit_deny_ends_the_sdk_session_at_the_pre_tool_hook(workspace: Workspace) -> None:
    """guard-check's budget deny in-process: the call is refused and the session ends with it, no more turns."""
    _cap(workspace, "--max-calls", "3")
    with claude.fake_model() as model:
        _runaway(model)
        result = _result(asyncio.run(_query(workspace, model, "Keep going")))  # no verdict after each call
        requests, ran = len(model.loop("")), claude.results(model)
    assert requests == 4 and len(ran) == 3, "three calls ran; the fourth was refused and ended the session"
    assert result.terminal_reason == "hook_stopped"
    assert any("call limit reached: call 4 of max 3" in r for r in claude.stop_reasons(workspace))


def test_a_prompt_in_a_capped_sdk_session_reaches_no_model(workspace: Workspace) -> None:
    _cap(workspace, "--max-tokens", "1000")
    with claude.fake_model() as model:
        _runaway(model)
        first = _result(asyncio.run(_query(workspace, model, "Keep going", budget=True)))
        model.log.clear()
        again = asyncio.run(_query(workspace, model, "Carry on", budget=True, resume=first.session_id))
        requests = len(model.loop(None))
    assert requests == 0
    text = " ".join(str(getattr(m, "result", "") or "") for m in again)
    assert "token cap" in text and "boundread budget set" in text, again
