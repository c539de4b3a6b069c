"""The guard as an in-process hook of the Claude Agent SDK, whose bundled Claude Code talks to the fake server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files

sdk = pytest.importorskip("claude_agent_sdk", reason="install boundread[frameworks] for the Agent SDK tests")


async def _query(workspace: Workspace, model: FakeModel, prompt: str) -> list[Any]:
    from boundread.guard.adapters import claude_agent_sdk_hook

    options = sdk.ClaudeAgentOptions(
        cwd=str(workspace.project),
        allowed_tools=["Read", "Bash"],
        hooks={"PreToolUse": [sdk.HookMatcher(matcher="Read|Bash", hooks=[claude_agent_sdk_hook()])]},
        env=workspace.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake"),
    )
    return [message async for message in sdk.query(prompt=prompt, options=options)]


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
