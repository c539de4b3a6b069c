"""The guard as an OpenAI Agents SDK tool input guardrail, the model behind the SDK's own HTTP client.

The SDK talks to the fake Responses server over HTTP, as it talks to OpenAI: what reached the model is
what the guardrail's rejection (or the tool's output) put into the next request.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.openai_responses import OpenAIResponses, output_text, tool_outputs
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files

agents = pytest.importorskip("agents", reason="install boundread[frameworks] for the OpenAI Agents tests")


def _run(model: FakeModel, project: Path, prompt: str) -> str:
    from openai import AsyncOpenAI

    from boundread.guard.adapters import openai_tool_guardrail

    @agents.function_tool(tool_input_guardrails=[openai_tool_guardrail(cwd=str(project))])
    def read_file(path: str) -> str:
        """Read a text file whole."""
        return (project / path).read_text(encoding="utf-8", errors="replace")

    client = AsyncOpenAI(base_url=f"{model.url}/v1", api_key="sk-e2e-fake", max_retries=0)
    agent = agents.Agent(name="reader", instructions="Read files.", tools=[read_file],
                         model=agents.OpenAIResponsesModel(model="gpt-5.5", openai_client=client))
    config = agents.RunConfig(tracing_disabled=True)

    async def run() -> str:  # streamed: the fake server answers the Responses API as SSE, as Codex asks it
        result = agents.Runner.run_streamed(agent, prompt, run_config=config, max_turns=5)
        async for _event in result.stream_events():
            pass
        return str(result.final_output)

    return asyncio.run(run())


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
