"""The guard as an OpenAI Agents SDK tool input guardrail, and the budget as its run hooks, the model behind the
SDK's own HTTP client.

The SDK talks to the fake Responses server over HTTP, as it talks to OpenAI: what reached the model is
what the guardrail's rejection (or the tool's output) put into the next request, and what a run spent is the
usage the server reported. The runaway model never stops on its own: each answer asks for one more call.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal
from pathlib import Path

import pytest

from boundread.budget import CostCap, CostCapExceeded, Guard, Policy, PolicyDenied, TokenBudget, TokenBudgetExceeded
from boundread.budget.nextrequest import CostCapWouldPass, TokenBudgetWouldPass
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.openai_responses import OpenAIResponses, output_text, tool_outputs
from tests.e2e.fakemodel.server import Call, FakeModel, Turn, Usage
from tests.e2e.files import project_files

agents = pytest.importorskip("agents", reason="install boundread[frameworks] for the OpenAI Agents tests")


TURNS = 40  # far more than any cap below allows


def _run(model: FakeModel, project: Path, prompt: str, budget: Guard | None = None, *, filtered: bool = False,
         model_name: str = "gpt-5.5") -> str:
    from openai import AsyncOpenAI

    from boundread.adapters.sdk import openai_run_hooks, openai_tool_guardrail

    @agents.function_tool(tool_input_guardrails=[openai_tool_guardrail(cwd=str(project), budget=budget)])
    def read_file(path: str) -> str:
        """Read a text file whole."""
        return (project / path).read_text(encoding="utf-8", errors="replace")

    client = AsyncOpenAI(base_url=f"{model.url}/v1", api_key="sk-e2e-fake", max_retries=0)
    agent = agents.Agent(name="reader", instructions="Read files.", tools=[read_file],
                         model=agents.OpenAIResponsesModel(model=model_name, openai_client=client))
    hooks = openai_run_hooks(budget) if budget is not None else None
    config = agents.RunConfig(tracing_disabled=True,
                              call_model_input_filter=hooks.input_filter if hooks and filtered else None)

    async def run() -> str:  # streamed: the fake server answers the Responses API as SSE, as Codex asks it
        result = agents.Runner.run_streamed(agent, prompt, run_config=config, max_turns=TURNS + 5, hooks=hooks)
        async for _event in result.stream_events():
            pass
        return str(result.final_output)

    return asyncio.run(run())


def _runaway(model: FakeModel, project: Path, *then: Turn) -> None:
    """150 tokens a request (the server's default usage), one more read at every turn, for TURNS turns."""
    (project / "notes.txt").write_text("sentinel-notes-0427\n", encoding="utf-8")
    model.script(*(Turn(calls=(Call("read_file", {"path": "notes.txt"}),)) for _ in range(TURNS)), *then)


def _outputs(model: FakeModel) -> list[str]:
    return [output_text(item) for exchange in model.loop() for item in tool_outputs(exchange.body)]


def test_a_whole_pdf_is_rejected_and_a_small_file_is_read(workspace: Workspace) -> None:
    project_files(workspace.project)
    (workspace.project / "notes.txt").write_text("sentinel-notes-0427\n", encoding="utf-8")
    with FakeModel([OpenAIResponses()]) as model:
        model.script(Turn(calls=(Call("read_file", {"path": "report.pdf"}),)),
                     Turn(calls=(Call("read_file", {"path": "notes.txt"}),)),
                     Turn(text="Read the notes instead."))
        final = _run(model, workspace.project, "Read report.pdf")
        refused, notes = _outputs(model)
    assert final == "Read the notes instead."
    assert "Not an error: boundread refused this on purpose" in refused
    assert "boundread pages report.pdf 1-5" in refused
    assert "%PDF" not in refused
    assert "sentinel-notes-0427" in notes


def test_without_a_cap_the_runaway_runs_all_its_turns(workspace: Workspace) -> None:
    """The baseline: the same model and hooks, a Guard with no cap."""
    with FakeModel([OpenAIResponses()]) as model:
        _runaway(model, workspace.project, Turn(text="Done at last."))
        guard = Guard()
        assert _run(model, workspace.project, "Keep going", guard) == "Done at last."
        assert len(model.loop("")) == TURNS + 1 and guard.spent.tokens == model.spent()


def test_a_token_cap_ends_the_run_before_the_request_that_would_cross_it(workspace: Workspace) -> None:
    guard = Guard(tokens=TokenBudget(1000))
    with FakeModel([OpenAIResponses()]) as model:
        _runaway(model, workspace.project)
        with pytest.raises(TokenBudgetWouldPass) as stopped:
            _run(model, workspace.project, "Keep going", guard)
        requests, spent = len(model.loop("")), model.spent()
    assert (requests, spent) == (6, 900), "overshoot 0: the run ended before the 7th request"
    assert (stopped.value.spent, stopped.value.limit, stopped.value.next) == (900, 1000, 150)
    assert isinstance(stopped.value, TokenBudgetExceeded) and guard.spent.tokens == spent


def test_a_usd_cap_ends_the_run_before_the_request_that_would_cross_it(workspace: Workspace) -> None:
    guard = Guard(cost=CostCap(Decimal("0.05")))
    with FakeModel([OpenAIResponses()]) as model:
        model.usage_per_turn = Usage(input_tokens=2_000, output_tokens=1_000)
        _runaway(model, workspace.project)
        with pytest.raises(CostCapWouldPass) as stopped:
            _run(model, workspace.project, "Keep going", guard, model_name="gpt-4o")  # $0.015 a request
        requests = len(model.loop(""))
    assert requests == 3 and guard.spent.cost == Decimal("0.045"), "a 4th request would make $0.06"
    assert (stopped.value.spent, stopped.value.next) == (Decimal("0.045"), Decimal("0.015"))
    assert isinstance(stopped.value, CostCapExceeded)


def test_with_overshoot_allowed_the_run_ends_after_the_request_that_crossed(workspace: Workspace) -> None:
    """The 7th request goes out and reaches the cap; the call it asks for is the first thing after it, and the
    guardrail halts the run there with the spent cap's error."""
    guard = Guard(tokens=TokenBudget(1000), allow_overshoot=True)
    with FakeModel([OpenAIResponses()]) as model:
        _runaway(model, workspace.project)
        with pytest.raises(agents.exceptions.ToolInputGuardrailTripwireTriggered) as stopped:
            _run(model, workspace.project, "Keep going", guard)
        requests, ran = len(model.loop("")), _outputs(model)
    assert requests == 7 and len(ran) == 6, "spend after the cap is the one request whose usage crossed it"
    reached = stopped.value.output.output_info
    assert type(reached) is TokenBudgetExceeded and (reached.spent, reached.limit) == (1050, 1000)


def test_a_call_limit_halts_the_run_at_the_guardrail(workspace: Workspace) -> None:
    guard = Guard(policy=Policy(max_calls=3))
    with FakeModel([OpenAIResponses()]) as model:
        _runaway(model, workspace.project)
        with pytest.raises(agents.exceptions.ToolInputGuardrailTripwireTriggered) as stopped:
            _run(model, workspace.project, "Keep going", guard)
        requests, ran = len(model.loop("")), _outputs(model)
    assert requests == 4 and len(ran) == 3, "three reads ran; the fourth halted the run, no request after it"
    denied = stopped.value.output.output_info
    assert isinstance(denied, PolicyDenied) and (denied.count, denied.limit) == (4, 3)
    assert "call limit reached: call 4 of max 3" in str(denied)


def test_the_note_reaches_the_model_past_half_the_cap(workspace: Workspace) -> None:
    """With the input filter, the request after half of the cap carries what is left."""
    guard = Guard(tokens=TokenBudget(1000))
    with FakeModel([OpenAIResponses()]) as model:
        _runaway(model, workspace.project)
        with pytest.raises(TokenBudgetWouldPass):
            _run(model, workspace.project, "Keep going", guard, filtered=True)
        bodies = [str(exchange.body) for exchange in model.loop("")]
    assert len(bodies) == 6
    assert not any("boundread budget" in body for body in bodies[:4]), "below half: nothing said"
    assert "60% of the token cap of session python used" in bodies[4]
    assert "finish up now - 75% of the token cap" in bodies[5]
