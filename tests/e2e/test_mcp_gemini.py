"""`boundread mcp` inside the real Gemini CLI: registered by `boundread init --agent gemini --mcp` (the project's
.gemini/settings.json, with its hooks), called by the scripted model, and what reached the model (the
functionResponse parts) is the slice, its footer and the next call, within the --max-chars init chose for Gemini
(four fifths of the 40,000 characters Gemini cuts an MCP result at)."""

from __future__ import annotations

import json

import pytest

from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

CAP = 32_000


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init", "--agent", "gemini", "--mcp")
    assert done.returncode == 0, done.stderr
    settings = json.loads((workspace.project / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    assert settings["mcpServers"]["boundread"]["args"] == ["mcp", "--max-chars", str(CAP)]
    return workspace


def tool_names(model: object) -> list[str]:
    """The function names Gemini CLI offered the model in its first agent request."""
    body = model.loop()[0].body  # type: ignore[attr-defined]
    return [decl["name"] for tool in body.get("tools", []) for decl in tool.get("functionDeclarations", [])]


def test_gemini_calls_a_boundread_tool_and_the_model_gets_a_bounded_slice(project: Workspace) -> None:
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("mcp_boundread_extract", {"path": "huge.log"}),)),
            Turn(calls=(Call("mcp_boundread_pages", {"path": "report.pdf", "range": "1-2"}),)),
            Turn(text="Read them."),
        )
        run = gemini.run(project, model, "Read huge.log and report.pdf")
        offered = tool_names(model)
        seen = gemini.results(model)
    assert "mcp_boundread_extract" in offered, offered
    assert run.response == "Read them.", seen
    log, pages = seen
    assert "2026-11-29T08:00:00Z INFO worker-1 request 00000001 served" in log
    assert "cut: max_chars" in log and 'next: extract(path="huge.log", lines="' in log
    assert len(log) <= CAP, len(log)
    assert "PAGE-2" in pages and "PAGE-3" not in pages and 'next: pages(path="report.pdf", range="3-4")' in pages
    assert (project.out / "report.pdf.pages-1-2.txt").is_file()
